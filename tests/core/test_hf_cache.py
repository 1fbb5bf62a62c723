from __future__ import annotations

import os

import pytest

from core.errors import Cancelled
from core.hf_cache import find_cached_tokenizers, hub_cache_dir, scan_cache


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


def _snapshot(root, repo, rev="0123abcd", name="vocab.txt"):
    snap = root / f"models--{repo}" / "snapshots" / rev
    snap.mkdir(parents=True)
    (snap / name).write_text("[UNK]\n")
    return snap


def test_unreadable_folders_are_skipped_and_listed(tmp_path, monkeypatch):
    _snapshot(tmp_path, "org--tiny")
    locked_model = _snapshot(tmp_path, "org--locked").parent  # its snapshots folder
    locked_snap = _snapshot(tmp_path, "org--half", rev="ffff0000")
    _snapshot(tmp_path, "org--half", rev="aaaa1111")
    real = os.scandir
    denied = {str(locked_model), str(locked_snap)}

    def scandir(path="."):  # the tests may run as root, who reads everything: simulate it
        if os.fspath(path) in denied:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    scan = scan_cache(tmp_path)
    assert [(c.repo_id, c.revision) for c in scan.found] == [("org/half", "aaaa1111"), ("org/tiny", "0123abcd")]
    assert sorted(map(str, scan.skipped)) == sorted(denied)
    assert find_cached_tokenizers(tmp_path) == scan.found


def test_an_unreadable_cache_root_is_skipped(tmp_path, monkeypatch):
    _snapshot(tmp_path, "org--tiny")
    monkeypatch.setattr(os, "scandir", lambda path=".": (_ for _ in ()).throw(PermissionError(13, "denied")))
    scan = scan_cache(tmp_path)
    assert scan.found == [] and scan.skipped == [tmp_path]


def test_should_stop_cancels_the_scan(tmp_path):
    for i in range(3):
        _snapshot(tmp_path, f"org--m{i}")
    asked = []

    def should_stop():
        asked.append(1)
        return len(asked) > 1

    with pytest.raises(Cancelled):
        scan_cache(tmp_path, should_stop=should_stop)
    assert len(asked) == 2  # once per model, stopped at the second


def test_a_big_scan_leaves_no_object_for_the_garbage_collector(tmp_path):
    """20,000 tracked objects per scan would trigger a full collection, which holds the
    interpreter lock (and so freezes the GUI) for the whole heap while a worker scans."""
    import gc

    for i in range(300):
        _snapshot(tmp_path, f"org--m{i:03d}")
    gc.collect()
    before = len(gc.get_objects())
    scan = scan_cache(tmp_path)
    gc.collect()
    assert len(scan.found) == 300
    assert len(gc.get_objects()) - before < 30  # was 3 per file (item, Path, its parts)
    assert scan.found[299].repo_id == "org/m299" and scan.found[-1].path == tmp_path / (
        "models--org--m299/snapshots/0123abcd/vocab.txt")
    assert [c.revision for c in scan.found[:2]] == ["0123abcd"] * 2
