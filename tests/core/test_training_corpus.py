"""Word counts from text, files and folders."""

from __future__ import annotations

import pytest

from core.training.corpus import (
    SENNRICH_CORPUS,
    pretokenize,
    text_files,
    word_counts,
    word_counts_from_file,
    word_counts_from_folder,
)
from core.training.symbols import TrainingError


def test_sennrich_corpus():
    assert SENNRICH_CORPUS == {"low": 5, "lower": 2, "newest": 6, "widest": 3}
    assert list(SENNRICH_CORPUS) == ["low", "lower", "newest", "widest"]


def test_pretokenizers():
    assert pretokenize("Don't stop—ok?") == ["Don", "'", "t", "stop", "—", "ok", "?"]
    assert pretokenize("नमस्ते दुनिया") == ["नमस्ते", "दुनिया"]  # vowel signs stay inside
    assert pretokenize("Hello world's", byte_level=True) == ["Hello", " world", "'s"]


def test_counts_keep_first_occurrence_order():
    counts = word_counts("b a b c a b")
    assert counts == {"b": 3, "a": 2, "c": 1} and list(counts) == ["b", "a", "c"]


def test_file_and_folder(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.txt").write_text("low low lower\n", encoding="utf-8")
    (tmp_path / "sub" / "b.txt").write_bytes(b"newest \xff widest\n")
    (tmp_path / "skip.bin").write_text("ignored")
    assert [p.name for p in text_files(tmp_path)] == ["a.txt", "b.txt"]
    seen = []
    counts = word_counts_from_folder(tmp_path, progress=seen.append)
    assert counts == {"low": 2, "lower": 1, "newest": 1, "\ufffd": 1, "widest": 1}
    assert seen[-1] == 1.0 and seen == sorted(seen)
    assert word_counts_from_file(tmp_path / "a.txt") == {"low": 2, "lower": 1}
    assert word_counts_from_folder(tmp_path, should_stop=lambda: True) == {}


def test_errors(tmp_path):
    with pytest.raises(TrainingError, match="not a folder"):
        word_counts_from_folder(tmp_path / "nope")
    with pytest.raises(TrainingError, match="no \\*.txt files"):
        word_counts_from_folder(tmp_path)
    with pytest.raises(TrainingError, match="cannot read"):
        word_counts_from_file(tmp_path / "missing.txt")


def test_udhr_folder_counts(data_dir):
    counts = word_counts_from_folder(data_dir / "udhr")
    assert counts["the"] > 100 and len(counts) > 10_000
