"""Tokenizer files and model snapshots already in the local Hugging Face cache (nothing is
downloaded here; :mod:`core.encoder.download` fetches encoders into it).

The hub cache is ``$HF_HUB_CACHE``, else ``$HF_HOME/hub``, else
``~/.cache/huggingface/hub``; a model lives in ``models--ORG--NAME/snapshots/REVISION/``.
The app scans it on a worker thread (:func:`scan_cache` takes ``should_stop``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

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


class CachedTokenizers(Sequence):
    """The tokenizer files of a scan, a read-only sequence of :class:`CachedTokenizer`.

    Stored as plain ``(repo_id, revision, path)`` string tuples, which the garbage collector
    stops tracking: 20,000 objects per scan would instead make the next collection a full
    one, and a full collection holds the interpreter lock for the whole heap (200+ ms in the
    app, a frozen GUI while a worker scans). Items are built on access: indexing is O(1),
    a slice or an iteration O(items taken).
    """

    __slots__ = ("_rows",)

    def __init__(self, rows: Iterable[tuple[str, str, str]] = ()):
        self._rows = list(rows)

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [CachedTokenizer(r, v, Path(p)) for r, v, p in self._rows[index]]
        r, v, p = self._rows[index]
        return CachedTokenizer(r, v, Path(p))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CachedTokenizers):
            return self._rows == other._rows
        if isinstance(other, Sequence) and not isinstance(other, str):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"CachedTokenizers({len(self._rows):,} files)"


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

    found: CachedTokenizers = field(default_factory=CachedTokenizers)
    skipped: list[Path] = field(default_factory=list)  # unreadable (e.g. permission denied)


def _entries(folder: str, skipped: list[Path]) -> list[os.DirEntry]:
    """The entries of ``folder`` (unsorted); [] (and ``folder`` noted in ``skipped``) when it
    cannot be read."""
    try:
        with os.scandir(folder) as it:
            return list(it)
    except FileNotFoundError:
        return []
    except OSError:  # PermissionError, a folder that vanished mid-scan, I/O errors
        skipped.append(Path(folder))
        return []


def _is(entry: os.DirEntry, kind: str) -> bool:
    """``entry.is_dir()`` / ``is_file()`` (links followed), False where that cannot be told."""
    try:
        return entry.is_dir() if kind == "dir" else entry.is_file()
    except OSError:
        return False


def _by_name(entry: os.DirEntry) -> str:
    return entry.name


def scan_cache(cache: Path | None = None, *,
               should_stop: Callable[[], bool] | None = None) -> CacheScan:
    """Tokenizer files in the hub cache, one per (model, revision), sorted by model folder
    then revision, best file first (``tokenizer.json`` before the other files of the same
    snapshot, see :data:`TOKENIZER_FILES`); folders that cannot be read are skipped and
    listed.

    One ``scandir`` per model and per snapshot: O(models + snapshots) system calls, plus
    sorting the model folders, O(models log models). Paths are joined as strings (no
    ``Path`` per entry) and the result holds no garbage-collected object per file (see
    :class:`CachedTokenizers`). ``should_stop`` is asked once per model (it runs in a
    worker: 20,000 models take a while).

    Raises
    ------
    core.errors.Cancelled
        If ``should_stop()`` returned True.
    """
    root = Path(cache) if cache is not None else hub_cache_dir()
    skipped: list[Path] = []
    rows: list[tuple[str, str, str]] = []
    for repo_id, snap in _snapshots(root, skipped, should_stop):
        files = {e.name: e for e in _entries(snap.path, skipped)} if _is(snap, "dir") else {}
        name = next((n for n in TOKENIZER_FILES if n in files and _is(files[n], "file")), None)
        if name is not None:
            rows.append((repo_id, snap.name, os.path.join(snap.path, name)))
    return CacheScan(CachedTokenizers(rows), skipped)


def find_cached_tokenizers(cache: Path | None = None) -> list[CachedTokenizer]:
    """:func:`scan_cache`'s tokenizer files (an empty list when the cache does not exist).
    Never raises on odd folder contents: unreadable folders are skipped."""
    return list(scan_cache(cache).found)


def scan_snapshots(cache: Path | None = None, *,
                   should_stop: Callable[[], bool] | None = None) -> list[tuple[str, Path]]:
    """Every model snapshot folder in the hub cache as ``(repo_id, folder)``, sorted by
    model folder then revision (e.g. for :func:`core.encoder.sources.find_encoders` to
    pick the encoders among them); unreadable folders are skipped.

    One ``scandir`` per model: O(models + snapshots) system calls. ``should_stop`` is asked
    once per model.

    Raises
    ------
    core.errors.Cancelled
        If ``should_stop()`` returned True.
    """
    root = Path(cache) if cache is not None else hub_cache_dir()
    skipped: list[Path] = []
    out: list[tuple[str, Path]] = []
    for repo_id, snap in _snapshots(root, skipped, should_stop):
        if _is(snap, "dir"):
            out.append((repo_id, Path(snap.path)))
    return out


def _snapshots(root: Path, skipped: list[Path], should_stop: Callable[[], bool] | None):
    """``(repo_id, snapshot entry)`` of every model folder's snapshots, sorted by model
    folder then revision; ``should_stop`` asked once per model (raises ``Cancelled``),
    unreadable folders added to ``skipped``. O(models + snapshots) ``scandir`` calls."""
    for model in sorted(_entries(str(root), skipped), key=_by_name):
        if should_stop is not None and should_stop():
            raise Cancelled()
        if not model.name.startswith("models--") or not _is(model, "dir"):
            continue
        repo_id = model.name[len("models--"):].replace("--", "/")
        for snap in sorted(_entries(os.path.join(model.path, "snapshots"), skipped), key=_by_name):
            yield repo_id, snap
