"""Files shipped with the app: toy vocabularies, sample texts, icons."""

from __future__ import annotations

from pathlib import Path

RESOURCES_DIR = Path(__file__).resolve().parent


def path(name: str) -> Path:
    """Absolute path of a shipped resource file."""
    return RESOURCES_DIR / name


def read_text(name: str) -> str:
    """A shipped text resource, decoded as UTF-8."""
    return path(name).read_text(encoding="utf-8")
