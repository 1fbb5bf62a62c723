"""Tokenizer files already in the local Hugging Face cache (nothing is downloaded).

The hub cache is ``$HF_HUB_CACHE``, else ``$HF_HOME/hub``, else
``~/.cache/huggingface/hub``; a model lives in ``models--ORG--NAME/snapshots/REVISION/``.
The app scans it on a worker thread (:func:`scan_cache` takes ``should_stop``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from core.errors import Cancelled

TOKENIZER_FILES = ("tokenizer.json", "vocab.txt", "vocab.json", "tokenizer.model", "spiece.model")


@dataclass(frozen=True)
class CachedTokenizer:
    """One tokenizer file found in the cache."""

    repo_id: str  # e.g. "bert-base-uncased" or "org/name"
    revision: str  # the snapshot folder name (a commit hash)
    path: Path  # the tokenizer file

    @property
    def label(self) -> str:
        return f"{self.repo_id} ({self.path.name}, {self.revision[:8]})"


def hub_cache_dir() -> Path:
    """The hub cache folder the environment points at (it may not exist)."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"]).expanduser()
    if os.environ.get("HUGGINGFACE_HUB_CACHE"):
        return Path(os.environ["HUGGINGFACE_HUB_CACHE"]).expanduser()
    home = os.environ.get("HF_HOME") or os.path.join(os.path.expanduser("~"), ".cache", "huggingface")
    return Path(home).expanduser() / "hub"


@dataclass(frozen=True)
class CacheScan:
    """What :func:`scan_cache` found: the tokenizer files, and the folders it could not read."""

    found: list[CachedTokenizer] = field(default_factory=list)
    skipped: list[Path] = field(default_factory=list)  # unreadable (e.g. permission denied)


def _entries(folder: Path, skipped: list[Path]) -> list[os.DirEntry]:
    """The entries of ``folder`` sorted by name; [] (and ``folder`` noted in ``skipped``)
    when it cannot be read."""
    try:
        with os.scandir(folder) as it:
            return sorted(it, key=lambda e: e.name)
    except FileNotFoundError:
        return []
    except OSError:  # PermissionError, a folder that vanished mid-scan, I/O errors
        skipped.append(folder)
        return []


def _is(entry: os.DirEntry, kind: str) -> bool:
    """``entry.is_dir()`` / ``is_file()`` (links followed), False where that cannot be told."""
    try:
        return entry.is_dir() if kind == "dir" else entry.is_file()
    except OSError:
        return False


def scan_cache(cache: Path | None = None, *,
               should_stop: Callable[[], bool] | None = None) -> CacheScan:
    """Tokenizer files in the hub cache, one per (model, revision), best file first
    (``tokenizer.json`` before the other files of the same snapshot, see
    :data:`TOKENIZER_FILES`); folders that cannot be read are skipped and listed.

    One ``scandir`` per model and per snapshot: O(models + snapshots) system calls, and
    ``should_stop`` is asked once per model (it runs in a worker: 20,000 models take a while).

    Raises
    ------
    core.errors.Cancelled
        If ``should_stop()`` returned True.
    """
    root = Path(cache) if cache is not None else hub_cache_dir()
    out = CacheScan()
    for model in _entries(root, out.skipped):
        if should_stop is not None and should_stop():
            raise Cancelled()
        if not model.name.startswith("models--") or not _is(model, "dir"):
            continue
        repo_id = model.name[len("models--"):].replace("--", "/")
        snapshots = Path(model.path) / "snapshots"
        for snap in _entries(snapshots, out.skipped):
            files = {e.name: e for e in _entries(Path(snap.path), out.skipped)} if _is(snap, "dir") else {}
            name = next((n for n in TOKENIZER_FILES if n in files and _is(files[n], "file")), None)
            if name is not None:
                out.found.append(CachedTokenizer(repo_id, snap.name, Path(snap.path) / name))
    return out


def find_cached_tokenizers(cache: Path | None = None) -> list[CachedTokenizer]:
    """:func:`scan_cache`'s tokenizer files (an empty list when the cache does not exist).
    Never raises on odd folder contents: unreadable folders are skipped."""
    return scan_cache(cache).found
