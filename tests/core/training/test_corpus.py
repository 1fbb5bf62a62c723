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
    # b.txt is not UTF-8: skipped and reported, never decoded into U+FFFD
    assert counts == {"low": 2, "lower": 1}
    assert counts.files == (str(tmp_path / "a.txt"),)
    assert [s.path for s in counts.skipped] == [str(tmp_path / "sub" / "b.txt")]
    assert "b.txt" in counts.skipped[0].reason and "not UTF-8 text" in counts.skipped[0].reason
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


def test_binary_files_are_refused_not_decoded(tmp_path):
    (tmp_path / "img.txt").write_bytes(bytes(range(256)) * 4)  # invalid UTF-8
    (tmp_path / "zeros.txt").write_bytes(b"\x00" * 100)  # valid UTF-8, but NULs
    (tmp_path / "ctrl.txt").write_bytes(b"ab\x01\x02\x03\x04 cd\n")  # control characters
    for name in ["img.txt", "zeros.txt", "ctrl.txt"]:
        with pytest.raises(TrainingError, match=rf"{name}: not UTF-8 text"):
            word_counts_from_file(tmp_path / name)
    with pytest.raises(TrainingError, match=r"no \*.txt file in .* is UTF-8 text \(ctrl.txt, img.txt, zeros.txt\)"):
        word_counts_from_folder(tmp_path)
    (tmp_path / "ok.txt").write_text("\ufefflow\tlower\n", encoding="utf-8")  # BOM dropped, tab fine
    counts = word_counts_from_folder(tmp_path)
    assert counts == {"low": 1, "lower": 1}
    assert [p.rsplit("/", 1)[-1] for p in (s.path for s in counts.skipped)] == ["ctrl.txt", "img.txt", "zeros.txt"]
    assert all("\ufffd" not in w for w in counts)
