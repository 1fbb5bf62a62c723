"""Where the shared, read-only data lives (UDHR texts, real tokenizer files, a real encoder).

The location is ``$SUBWORDSCOPE_DATA`` when set, else ``../shared/data`` relative to the
repository root. Nothing here downloads anything.
"""

from __future__ import annotations

import os
from pathlib import Path

from resources import path as resource_path

_REPO_ROOT = Path(__file__).resolve().parent.parent


def data_dir() -> Path:
    """Return the shared data directory (it may not exist; callers check)."""
    env = os.environ.get("SUBWORDSCOPE_DATA")
    if env:
        return Path(env).expanduser().resolve()
    return (_REPO_ROOT.parent / "shared" / "data").resolve()


def udhr_files() -> list[Path]:
    """The UDHR text files, sorted by language code; empty when the data is absent."""
    d = data_dir() / "udhr"
    return sorted(d.glob("*.txt")) if d.is_dir() else []


def tokenizer_path(name: str) -> Path:
    """Path of a shared tokenizer folder, e.g. ``tokenizer_path("bert-base-uncased")``."""
    return data_dir() / "tokenizers" / name


def shared_model_dir(name: str = "all-MiniLM-L6-v2") -> Path | None:
    """The shared encoder folder ``<data>/models/<name>`` when it holds a ``config.json``,
    else None (the Pooling and Retrieval panes offer it; nothing is downloaded)."""
    d = data_dir() / "models" / name
    return d if (d / "config.json").is_file() else None


def udhr_sample_dir() -> Path:
    """The small UDHR sample shipped with the app (``resources/udhr_sample``): the first
    paragraphs of the articles in 17 languages, parallel line by line (see its README.md)."""
    return resource_path("udhr_sample")
