"""Shared helpers of the loaders: read a text tokenizer file, name a tokenizer after its file."""

from __future__ import annotations

from pathlib import Path

from core.errors import TokenizerLoadError


def read_text(path: Path) -> str:
    """The file as UTF-8 text.

    Raises
    ------
    TokenizerLoadError
        If it cannot be read, is empty, holds NUL bytes (binary) or is not UTF-8.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TokenizerLoadError(f"cannot read the file ({exc.strerror or exc})", str(path)) from exc
    if not data.strip():
        raise TokenizerLoadError("the file is empty", str(path))
    if b"\x00" in data:
        raise TokenizerLoadError("this is a binary file, not a text tokenizer file", str(path))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TokenizerLoadError(
            f"the file is not UTF-8 text (bad byte at position {exc.start})", str(path)) from exc


def display_name(path: Path) -> str:
    """``folder/file``: the name a loaded tokenizer is shown with."""
    return f"{path.parent.name}/{path.name}" if path.parent.name else path.name
