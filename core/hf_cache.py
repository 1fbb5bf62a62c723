"""Tokenizer files already in the local Hugging Face cache (nothing is downloaded).

The hub cache is ``$HF_HUB_CACHE``, else ``$HF_HOME/hub``, else
``~/.cache/huggingface/hub``; a model lives in ``models--ORG--NAME/snapshots/REVISION/``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

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


def find_cached_tokenizers(cache: Path | None = None) -> list[CachedTokenizer]:
    """List tokenizer files in the hub cache, one per (model, revision), best file first.

    ``tokenizer.json`` is preferred over the other files of the same snapshot. Returns an
    empty list when the cache does not exist. Never raises on odd folder contents.
    """
    root = Path(cache) if cache is not None else hub_cache_dir()
    found: list[CachedTokenizer] = []
    if not root.is_dir():
        return found
    for model in sorted(root.glob("models--*")):
        repo_id = model.name[len("models--"):].replace("--", "/")
        snapshots = model / "snapshots"
        if not snapshots.is_dir():
            continue
        for snap in sorted(snapshots.iterdir()):
            for name in TOKENIZER_FILES:
                path = snap / name
                if path.is_file():
                    found.append(CachedTokenizer(repo_id, snap.name, path))
                    break
    return found
