"""GPT-2 vocab.json + merges.txt and tiktoken rank files: parsing, presets, malformed input."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from core.errors import TokenizerLoadError
from core.tokenizers.bytelevel import PATTERNS, to_byte_level
from core.tokenizers.gpt2_files import load_gpt2_files, read_merges_txt, read_vocab_json
from core.tokenizers.tiktoken_file import (
    PRESETS, detect_preset, load_tiktoken, read_ranks,
)


def write(path: Path, content: str | bytes) -> Path:
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


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


def expect_error(fn, path, *fragments):
    with pytest.raises(TokenizerLoadError) as err:
        fn(path)
    message = str(err.value)
    assert err.value.path == str(path) and message.startswith(str(path))
    for fragment in fragments:
        assert fragment in message, message


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
    ('{"a": "zero"}', "'a': 'zero'"),
    ('{"a": 1.5}', "'a': 1.5"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "byte 0x89 is not valid UTF-8"),
])
def test_malformed_vocab_json(tmp_path, content, fragment):
    expect_error(read_vocab_json, write(tmp_path / "vocab.json", content), fragment)


def test_missing_file(tmp_path):
    expect_error(read_vocab_json, tmp_path / "nope.json", "cannot read")


# tiktoken ----------------------------------------------------------------------------------

def rank_file(path: Path, tokens: list[bytes]) -> Path:
    lines = [f"{base64.b64encode(t).decode()} {r}" for r, t in enumerate(tokens)]
    return write(path, "\n".join(lines) + "\n")


@pytest.fixture
def small_ranks(tmp_path):
    tokens = [bytes([b]) for b in range(256)] + [b"ab", b" a", b" ab", b"\xc3\xa9"]
    return rank_file(tmp_path / "my_cl100k_base.tiktoken", tokens)


def test_rank_file_loads_with_detected_preset(small_ranks):
    tf = load_tiktoken(small_ranks)
    assert tf.preset == "cl100k_base" and tf.pattern == PATTERNS["cl100k_base"]
    assert tf.special_tokens == {}
    assert tf.model.tokenize(to_byte_level(" ab")) == [("Ġab", 258, 0, 3)]
    assert tf.model.tokenize(to_byte_level("é")) == [("Ã©", 259, 0, 2)]
    # " ab" (rank 258) re-encoded with lower ranks only: "ab" (256) merges before " a" (257).
    assert tf.model.merges == [("a", "b"), ("Ġ", "a"), ("Ġ", "ab"), ("Ã", "©")]
    assert tf.model.describe()["merge_rule"] == "token rank (tiktoken)"


def test_special_tokens_only_when_asked(small_ranks):
    tf = load_tiktoken(small_ranks, special_tokens=True)
    assert tf.special_tokens == dict(PRESETS["cl100k_base"].special_tokens)
    assert tf.special_tokens["<|endoftext|>"] == 100257
    assert "<|endoftext|>" not in tf.model.get_vocab()


def test_pattern_given_by_name_or_regex(tmp_path, small_ranks):
    renamed = small_ranks.rename(tmp_path / "ranks.tiktoken")
    expect_error(load_tiktoken, renamed, "cannot tell the split pattern")
    assert load_tiktoken(renamed, pattern="o200k_base").pattern == PATTERNS["o200k_base"]
    custom = load_tiktoken(renamed, pattern=r"\S+|\s+")
    assert custom.preset is None and custom.pattern == r"\S+|\s+"
    with pytest.raises(TokenizerLoadError, match="only known for the presets"):
        load_tiktoken(renamed, pattern=r"\S+", special_tokens=True)
    with pytest.raises(TokenizerLoadError, match="does not compile"):
        load_tiktoken(renamed, pattern=r"(unclosed")


def test_detect_preset_from_file_names():
    assert detect_preset("/x/cl100k_base.tiktoken") == "cl100k_base"
    assert detect_preset("O200K_BASE.tiktoken") == "o200k_base"
    assert detect_preset("p50k_base.tiktoken") == "p50k_base"
    assert detect_preset("r50k_base.tiktoken") == "r50k_base"
    assert detect_preset("gpt2.tiktoken") == "gpt2"
    assert detect_preset("9b5ad71b2ce5302211f9c61530b329a4922fc6a4") is None


def test_special_token_ids_that_collide_with_ranks_are_refused(tmp_path):
    path = rank_file(tmp_path / "gpt2.tiktoken", [bytes([b]) for b in range(256)])
    lines = path.read_text().splitlines() + [f"{base64.b64encode(b'zz').decode()} 50256"]
    write(path, "\n".join(lines))
    with pytest.raises(TokenizerLoadError, match="50256 of gpt2 is already a rank"):
        load_tiktoken(path, special_tokens=True)


@pytest.mark.parametrize("content, fragment", [
    ("", "empty"),
    ("IQ== 0\nnot-base64! 1\n", "line 2: expected a base64 token"),
    ("IQ== 0\nIg==\n", "line 2: expected a base64 token"),
    ("IQ== zero\n", "line 1: expected a base64 token"),
    ("IQ== -1\n", "line 1: expected a base64 token"),
    ("IQ== 0\nIQ== 1\n", "line 2: token b'!' appears twice"),
    ("IQ== 0\nIg== 0\n", "line 2: rank 0 appears twice"),
    (b"\x00\x01\x02\xff\xfe binary\n", "line 1: expected a base64 token"),
])
def test_malformed_rank_files(tmp_path, content, fragment):
    expect_error(read_ranks, write(tmp_path / "cl100k_base.tiktoken", content), fragment)


def test_rank_file_lacking_single_bytes_is_refused(tmp_path):
    path = rank_file(tmp_path / "cl100k_base.tiktoken", [b"a", b"b"])
    with pytest.raises(TokenizerLoadError, match="no token for 254 single byte"):
        load_tiktoken(path)


def test_shared_files_load(data_dir):
    gpt2 = load_gpt2_files(data_dir / "tokenizers/gpt2/vocab.json")
    assert gpt2.vocab_size == 50257 and len(gpt2.merges) == 50000 and gpt2.is_byte_level
    tf = load_tiktoken(data_dir / "tokenizers/cl100k_base/cl100k_base.tiktoken")
    assert tf.preset == "cl100k_base" and tf.model.vocab_size == 100256
    assert tf.model.id_to_token(0) == "!" and tf.model.token_to_id("Ġthe") == 279
