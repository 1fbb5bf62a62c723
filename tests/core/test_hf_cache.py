from __future__ import annotations

from core.hf_cache import find_cached_tokenizers, hub_cache_dir


def test_lists_one_file_per_snapshot_preferring_tokenizer_json(tmp_path):
    snap = tmp_path / "models--org--tiny" / "snapshots" / "abc123def"
    snap.mkdir(parents=True)
    (snap / "vocab.txt").write_text("[UNK]\n")
    (snap / "tokenizer.json").write_text("{}")
    other = tmp_path / "models--bert-base-uncased" / "snapshots" / "ffff0000"
    other.mkdir(parents=True)
    (other / "vocab.txt").write_text("[UNK]\n")
    (tmp_path / "models--empty").mkdir()
    (tmp_path / "datasets--x").mkdir()
    found = find_cached_tokenizers(tmp_path)
    assert [(c.repo_id, c.path.name) for c in found] == [
        ("bert-base-uncased", "vocab.txt"),
        ("org/tiny", "tokenizer.json"),
    ]
    assert found[1].label == "org/tiny (tokenizer.json, abc123de)"


def test_missing_cache_is_empty(tmp_path):
    assert find_cached_tokenizers(tmp_path / "nope") == []


def test_environment_decides_the_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.delenv("HUGGINGFACE_HUB_CACHE", raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path))
    assert hub_cache_dir() == tmp_path / "hub"
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "c"))
    assert hub_cache_dir() == tmp_path / "c"
