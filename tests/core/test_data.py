"""Where data lives (core.data) and the built-in tokenizers shipped in resources/."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import platformdirs
import pytest

import resources
from core import data
from core.data import ResourceError, builtin_name, builtin_tokenizer, builtin_tokenizers
from core.tokenizers import load

# SHA-256 of the published files (resources/tokenizers/README.md states the same figures).
PUBLISHED = {
    ("bert-base-uncased", "vocab.txt"): "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3",
    ("gpt2", "vocab.json"): "3ba3c3109ff33976c4bd966589c11ee14fcaa1f4c9e5e154c2ed7f99d80709e7",
    ("gpt2", "merges.txt"): "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5",
    ("gpt-4o", "tokenizer.json"): "43a3ad4618a6a938f8c2614154ea10c31ad53a62d5683ae0b0e6133575cef07e",
    ("gpt-4o", "tokenizer_config.json"): "71424d4750066a6f9bcfea0699576c4284327ff25d388d42419506bcfb5535ab",
    ("qwen3", "tokenizer.json"): "aeb13307a71acd8fe81861d94ad54ab689df773318809eed3cbe794b4492dae4",
    ("qwen3", "tokenizer_config.json"): "5a7303fcb1a27ede63134a2cbd61d5282c247ca6d769ce4746d4ffa124aedd63",
}


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("SUBWORDSCOPE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_the_data_folder_is_the_env_var_else_the_user_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("SUBWORDSCOPE_DATA", str(tmp_path))
    assert data.data_dir() == tmp_path.resolve()
    monkeypatch.delenv("SUBWORDSCOPE_DATA")
    d = data.data_dir()
    assert d == Path(platformdirs.user_data_dir("subwordscope", "subwordscope"))
    package_root = Path(data.__file__).resolve().parent.parent
    assert package_root not in d.resolve().parents and d.resolve() != package_root.parent / "shared" / "data"


def test_the_cache_folder_is_the_env_var_else_the_user_cache_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("SUBWORDSCOPE_CACHE_DIR", str(tmp_path))
    assert data.cache_dir() == tmp_path.resolve()
    monkeypatch.delenv("SUBWORDSCOPE_CACHE_DIR")
    assert data.cache_dir() == Path(platformdirs.user_cache_dir("subwordscope", "subwordscope"))


def test_the_built_in_tokenizers_are_listed_bert_first():
    assert list(builtin_tokenizers()) == ["bert-base-uncased", "gpt2", "gpt-4o", "qwen3"]
    assert all(builtin_tokenizers().values())


@pytest.mark.parametrize("name, file", sorted(PUBLISHED))
def test_unpacking_gives_the_published_bytes(cache, name, file):
    entry = builtin_tokenizer(name)
    assert entry.parent.name == name and entry.is_relative_to(cache)
    assert hashlib.sha256((entry.parent / file).read_bytes()).hexdigest() == PUBLISHED[(name, file)]


def test_unpacking_happens_once(cache):
    first = builtin_tokenizer("gpt2")
    stamp = os.stat(first).st_mtime_ns
    os.utime(first, ns=(stamp - 10**9, stamp - 10**9))  # a rewrite would move the time on
    again = builtin_tokenizer("gpt2")
    assert again == first and os.stat(again).st_mtime_ns == stamp - 10**9
    assert not [p for p in first.parent.iterdir() if p.name.startswith(".")]  # no temporary files left


def test_the_built_in_tokenizers_load_with_the_normal_loader(cache):
    bert = load(builtin_tokenizer("bert-base-uncased"))
    assert (bert.model_type, bert.vocab_size) == ("WordPiece", 30522)
    assert bert.encode("Zo\u00e9 flew to \u0130stanbul").tokens == ["zoe", "flew", "to", "istanbul"]
    gpt2 = load(builtin_tokenizer("gpt2"))
    assert (gpt2.model_type, gpt2.vocab_size) == ("BPE", 50257)
    assert gpt2.encode("Hello world").tokens == ["Hello", "\u0120world"]


@pytest.mark.parametrize("name, text", [
    ("gpt-4o", "<|endoftext|>Zoé's 12345 नमस्ते 👍🏽\n\n  x"),
    ("qwen3", "<|im_start|>user\nZoé's 12345 নো 한글<|im_end|>"),
])
def test_the_modern_built_ins_encode_as_the_reference(cache, name, text):
    tokenizers = pytest.importorskip("tokenizers")
    entry = builtin_tokenizer(name)
    assert builtin_name(entry) == name and (entry.parent / "tokenizer_config.json").is_file()
    ours = load(entry).encode(text)
    ref = tokenizers.Tokenizer.from_file(str(entry)).encode(text, add_special_tokens=False)
    assert (ours.ids, ours.tokens, list(map(tuple, ours.offsets))) == (ref.ids, ref.tokens, ref.offsets)
    assert ours.ids[0] == load(entry).token_to_id(text[:text.index(">") + 1])  # the special token


def test_the_resources_stay_small():
    total = sum(p.stat().st_size for p in resources.RESOURCES_DIR.rglob("*") if p.is_file()
                and "__pycache__" not in p.parts)
    # four tokenizers and the whole UDHR collection, xz-compressed: 5.6 MiB; the shipped
    # package stays under 6 MiB
    assert total < 6 * 2**20, f"resources/ holds {total:,} bytes"


def test_a_built_in_name_is_recognised_from_its_unpacked_path(cache, tmp_path):
    assert builtin_name(builtin_tokenizer("bert-base-uncased")) == "bert-base-uncased"
    assert builtin_name(builtin_tokenizer("gpt2")) == "gpt2"
    assert builtin_name(tmp_path / "bert-base-uncased" / "vocab.txt") is None
    assert builtin_name(builtin_tokenizer("gpt2").with_name("merges.txt")) is None


def test_an_unknown_name_is_a_typed_error(cache):
    with pytest.raises(ResourceError, match="built in: bert-base-uncased, gpt2, gpt-4o, qwen3"):
        builtin_tokenizer("nosuch")


def test_an_unwritable_cache_is_a_typed_error_naming_the_folder(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("SUBWORDSCOPE_CACHE_DIR", str(blocker))
    with pytest.raises(ResourceError, match="SUBWORDSCOPE_CACHE_DIR") as info:
        builtin_tokenizer("bert-base-uncased")
    assert str(blocker) in str(info.value)


def test_every_built_in_tokenizer_ships_its_licence_and_compressed_files():
    for spec in resources.BUILTIN_TOKENIZERS.values():
        folder = resources.RESOURCES_DIR / "tokenizers" / spec.name
        assert (folder / "LICENSE").is_file()
        assert all(spec.compressed(f).is_file() for f in spec.files)
        assert spec.entry in spec.files
    assert "Apache License" in (resources.RESOURCES_DIR / "tokenizers" / "bert-base-uncased"
                                / "LICENSE-Apache-2.0").read_text(encoding="utf-8")


def test_the_udhr_sample_is_shipped():
    files = sorted(data.udhr_sample_dir().glob("*.txt"))
    assert len(files) == 16 and (data.udhr_sample_dir() / "README.md").is_file()
