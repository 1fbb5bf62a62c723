"""The sentence encoders a user already has: in the app's data folder, in the local Hugging
Face cache, or a folder they opened; and which one the panes use when none is chosen.

A usable encoder folder holds ``config.json`` (a BERT-family ``model_type``, see
:data:`core.encoder.weights.SUPPORTED_TYPES`), ``model.safetensors`` and a tokenizer the app
can load (``tokenizer.json``, or a ``vocab.txt`` / SentencePiece ``*.model`` beside it), so
XLM-R-tokenized multilingual MiniLM and e5 models count too. Nothing here downloads
(:mod:`core.encoder.download` does); scanning runs on a worker (``should_stop``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from core.data import data_dir
from core.encoder.weights import SUPPORTED_TYPES, EncoderLoadError, parse_config
from core.errors import Cancelled
from core.hf_cache import hub_cache_dir, scan_snapshots

PREFERRED = ("all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2")
"""The encoder used when none is chosen, first match wins (data folder before the cache)."""
MULTILINGUAL_NAMES = ("multilingual", "xlm", "labse", "distiluse")
"""Name parts of the multilingual sentence encoders (paraphrase-multilingual-MiniLM-L12-v2,
multilingual-e5-small, LaBSE, distiluse-base-multilingual…), compared in lower case."""
MULTILINGUAL_VOCAB = 100_000
"""A vocabulary at least this large is multilingual: XLM-R's has 250,002 pieces and mBERT's
119,547, English BERT-family vocabularies about 30,000."""

DATA_FOLDER, HF_CACHE, OPENED = "data folder", "Hugging Face cache", "folder"
TOKENIZER_NAMES = ("tokenizer.json", "vocab.txt", "sentencepiece.bpe.model", "spiece.model",
                   "tokenizer.model")


@dataclass(frozen=True)
class FoundEncoder:
    """One encoder folder: ``name`` (the repo id or folder name), ``path`` and ``source``
    (:data:`DATA_FOLDER`, :data:`HF_CACHE` or :data:`OPENED`)."""

    name: str
    path: Path
    source: str

    @property
    def short_name(self) -> str:
        """The name without the organization: ``all-MiniLM-L6-v2``."""
        return self.name.rsplit("/", 1)[-1]

    @property
    def label(self) -> str:
        """``"all-MiniLM-L6-v2 — Hugging Face cache"``: the model's short name and its source."""
        return f"{self.short_name} — {self.source}"


def is_encoder_folder(folder) -> bool:
    """Whether ``folder`` holds a BERT-family ``config.json`` (at most 1 MiB, its
    ``model_type`` supported), ``model.safetensors`` and a tokenizer file. Reads only the
    config; never raises."""
    root = Path(folder)
    try:
        if not ((root / "model.safetensors").is_file() and any((root / n).is_file() for n in TOKENIZER_NAMES)):
            return False
    except OSError:
        return False
    raw = _config(root)
    return raw is not None and raw.get("model_type") in SUPPORTED_TYPES


def _config(folder: Path) -> dict | None:
    """``folder``'s ``config.json`` as :func:`core.encoder.weights.parse_config` reads it
    (a FIFO or a device is refused before it is opened: reading one would block), or None
    when it refuses it. Never raises."""
    try:
        return parse_config(folder / "config.json")
    except (EncoderLoadError, OSError):
        return None


def find_encoders(models_dir=None, cache=None, *,
                  should_stop: Callable[[], bool] | None = None) -> list[FoundEncoder]:
    """Encoder folders in ``models_dir`` (default ``<data>/models``) then in the hub cache
    (default :func:`core.hf_cache.hub_cache_dir`; the newest snapshot of each model), each
    list sorted by name.

    Cost: one directory listing per model folder and snapshot plus one small ``config.json``
    read per candidate, O(models). ``should_stop`` is asked once per candidate.

    Raises
    ------
    core.errors.Cancelled
        ``should_stop()`` returned True.
    """
    found: list[FoundEncoder] = []
    root = Path(models_dir) if models_dir is not None else data_dir() / "models"
    try:
        local = sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []
    except OSError:
        local = []
    for p in local:
        if should_stop is not None and should_stop():
            raise Cancelled()
        if is_encoder_folder(p):
            found.append(FoundEncoder(p.name, p, DATA_FOLDER))
    newest: dict[str, Path] = {}
    for repo_id, snapshot in scan_snapshots(cache if cache is not None else hub_cache_dir(),
                                            should_stop=should_stop):
        if should_stop is not None and should_stop():
            raise Cancelled()
        if is_encoder_folder(snapshot):
            old = newest.get(repo_id)
            if old is None or _mtime(snapshot) > _mtime(old):
                newest[repo_id] = snapshot
    found += [FoundEncoder(r, p, HF_CACHE) for r, p in sorted(newest.items())]
    return found


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def default_encoder(found: list[FoundEncoder]) -> FoundEncoder | None:
    """The encoder the panes use when the user chose none: the first of :data:`PREFERRED`
    found (data folder first), else the first found, else None (the stand-in)."""
    for name in PREFERRED:
        for f in found:
            if f.name == name:
                return f
    return found[0] if found else None


def is_multilingual(encoder: FoundEncoder) -> bool:
    """Whether ``encoder`` was made for many languages: its name holds one of
    :data:`MULTILINGUAL_NAMES`, or its ``config.json`` gives ``vocab_size >=``
    :data:`MULTILINGUAL_VOCAB`. Reads at most the config (1 MiB, a regular file only: see
    :func:`_config`); never raises."""
    if any(part in encoder.name.lower() for part in MULTILINGUAL_NAMES):
        return True
    raw = _config(Path(encoder.path))
    vocab = raw.get("vocab_size") if raw is not None else None
    return isinstance(vocab, int) and not isinstance(vocab, bool) and vocab >= MULTILINGUAL_VOCAB


def companion_encoder(found: list[FoundEncoder], current) -> FoundEncoder | None:
    """The encoder to compare ``current`` (a model folder) with across languages: a
    multilingual one (:func:`is_multilingual`) when ``current`` is English-only, the default
    English-only one (:data:`PREFERRED` first) when ``current`` is multilingual; None when
    ``current`` is None (the stand-in) or ``found`` has no encoder of the other kind.

    Cost: one small config read per encoder found, O(len(found)).
    """
    if current is None:
        return None
    here = describe(current, found)
    want = not is_multilingual(here)
    others = [f for f in found if os.path.normpath(f.path) != os.path.normpath(here.path)
              and is_multilingual(f) == want]
    return default_encoder(others) if others else None


def describe(folder, found: list[FoundEncoder] | None = None) -> FoundEncoder:
    """The :class:`FoundEncoder` of ``folder``: its entry in ``found`` when listed, else one
    whose source is told from the path (a hub-cache snapshot, the data folder, or
    :data:`OPENED`)."""
    path = Path(folder)
    for f in found or ():
        if os.path.normpath(f.path) == os.path.normpath(path):
            return f
    parts = path.parts
    if len(parts) >= 3 and parts[-2] == "snapshots" and parts[-3].startswith("models--"):
        return FoundEncoder(parts[-3][len("models--"):].replace("--", "/"), path, HF_CACHE)
    if path.parent == data_dir() / "models":
        return FoundEncoder(path.name, path, DATA_FOLDER)
    return FoundEncoder(path.name, path, OPENED)
