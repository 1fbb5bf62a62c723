"""tiktoken rank files: parsing, presets, split patterns, special tokens, malformed input."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from core.errors import TokenizerLoadError
from core.text.byte_alphabet import to_byte_level
from core.tokenizers.formats.tiktoken_file import PRESETS, detect_preset, load_tiktoken, read_ranks
from core.tokenizers.pre_tokenizers.split_patterns import PATTERNS
from tests.core.tokenizers.formats.file_helpers import expect_error, write


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
    tf = load_tiktoken(data_dir / "tokenizers/cl100k_base/cl100k_base.tiktoken")
    assert tf.preset == "cl100k_base" and tf.model.vocab_size == 100256
    assert tf.model.id_to_token(0) == "!" and tf.model.token_to_id("Ġthe") == 279
