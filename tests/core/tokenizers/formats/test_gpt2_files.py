"""GPT-2 vocab.json + merges.txt: parsing, merge errors naming file and line, malformed input."""

from __future__ import annotations

import json

import pytest

from core.tokenizers.formats.gpt2_files import load_gpt2_files, read_merges_txt, read_vocab_json
from tests.core.tokenizers.formats.file_helpers import expect_error, write


@pytest.fixture
def gpt2_pair(tmp_path):
    vocab = {"a": 0, "b": 1, "Ġ": 2, "Ġa": 3, "ab": 4, "Ġab": 5}
    write(tmp_path / "vocab.json", json.dumps(vocab))
    write(tmp_path / "merges.txt", "#version: 0.2\nĠ a\na b\nĠa b\n")
    return tmp_path


def test_gpt2_files_load_and_merge(gpt2_pair):
    m = load_gpt2_files(gpt2_pair / "vocab.json")
    assert m.merges == [("Ġ", "a"), ("a", "b"), ("Ġa", "b")]
    assert m.tokenize("Ġab") == [("Ġab", 5, 0, 3)]
    assert m.tokenize("abĠ") == [("ab", 4, 0, 2), ("Ġ", 2, 2, 3)]


def test_merges_without_header_and_with_crlf(tmp_path):
    p = write(tmp_path / "m.txt", "a b\r\nab c\r\n")
    assert read_merges_txt(p) == [("a", "b"), ("ab", "c")]


def test_merges_referencing_unknown_symbols_name_file_and_line(gpt2_pair):
    def load(merges_path):
        return load_gpt2_files(gpt2_pair / "vocab.json", merges_path)

    write(gpt2_pair / "merges.txt", "#version: 0.2\nĠ a\na q\n")
    expect_error(load, gpt2_pair / "merges.txt", "line 3", "'q' is not in the vocabulary")
    write(gpt2_pair / "merges.txt", "#version: 0.2\nb b\n")
    expect_error(load, gpt2_pair / "merges.txt", "line 2", "merged token 'bb'")


@pytest.mark.parametrize("content, fragment", [
    ("", "the file is empty"),
    ("\n\n", "the file is empty"),
    ("#version: 0.2\na b c\n", "line 2: expected two tokens"),
    ("a b\n\nb c\n", "line 2: expected two tokens"),
    ("a  b\n", "line 1: expected two tokens"),
    (b"a b\n\xff\xfe\x00garbage\n", "line 2: byte 0xFF is not valid UTF-8"),
])
def test_malformed_merges(tmp_path, content, fragment):
    expect_error(read_merges_txt, write(tmp_path / "merges.txt", content), fragment)


@pytest.mark.parametrize("content, fragment", [
    ("", "the file is empty"),
    ('["a", "b"]', "not a list"),
    ('{"a": 0,\n "b": }', "line 2, column"),
    ('{"a": "zero"}', '["a"]: an id must be a whole number from 0 to 2,147,483,647, not "zero"'),
    ('{"a": 1.5}', '["a"]: an id must be a whole number from 0 to 2,147,483,647, not 1.5'),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "byte 0x89 is not valid UTF-8"),
])
def test_malformed_vocab_json(tmp_path, content, fragment):
    expect_error(read_vocab_json, write(tmp_path / "vocab.json", content), fragment)


def test_missing_file(tmp_path):
    expect_error(read_vocab_json, tmp_path / "nope.json", "cannot read")


def test_shared_files_load(data_dir):
    gpt2 = load_gpt2_files(data_dir / "tokenizers/gpt2/vocab.json")
    assert gpt2.vocab_size == 50257 and len(gpt2.merges) == 50000 and gpt2.is_byte_level
