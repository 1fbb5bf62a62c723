"""Shared helpers of the loaders: read a tokenizer file safely, name a tokenizer after its file.

Every loader reads through :func:`read_bytes` (or :func:`read_text`, :func:`read_utf8`),
which refuses, before reading, anything that is not a regular file (a FIFO, ``/dev/zero``
or a symlink to it, a folder) and any file larger than :data:`MAX_TOKENIZER_FILE_BYTES`.
"""

from __future__ import annotations

from pathlib import Path

from core.errors import TokenizerLoadError
from core.text.files import TextFileError, read_file_bytes

MAX_TOKENIZER_FILE_BYTES = 512 * 2**20
"""Largest tokenizer file any loader reads: 512 MiB (the largest published ``tokenizer.json``
files are a few tens of MB)."""


def read_bytes(path: Path) -> bytes:
    """The file's bytes, after checking it is a regular file of at most
    :data:`MAX_TOKENIZER_FILE_BYTES` (symlinks followed; nothing is read otherwise).

    Raises
    ------
    TokenizerLoadError
        Missing, unreadable, not a regular file (the kind is named) or too large (the size
        and the cap are given).
    """
    try:
        return read_file_bytes(path, MAX_TOKENIZER_FILE_BYTES)
    except TextFileError as exc:
        raise TokenizerLoadError(str(exc).removeprefix(f"{exc.path}: "), str(path)) from None


def read_text(path: Path) -> str:
    """The file as UTF-8 text (a byte-order mark is dropped).

    Raises
    ------
    TokenizerLoadError
        As :func:`read_utf8`, or it is not UTF-8.
    """
    return utf8_text(read_utf8(path), str(path))


def read_utf8(path: Path) -> bytes:
    """The file's bytes, checked as :func:`read_text` checks them but not decoded: a parser
    that reads UTF-8 itself (``orjson``) takes them as they are, without a copy as ``str``
    (:func:`utf8_text` decodes them when a ``str`` is needed). A UTF-8 byte-order mark is
    dropped.

    Raises
    ------
    TokenizerLoadError
        As :func:`read_bytes`, or it is empty or holds NUL bytes (binary).
    """
    data = read_bytes(path)
    if not data.strip():
        raise TokenizerLoadError("the file is empty", str(path))
    if b"\x00" in data:
        raise TokenizerLoadError("this is a binary file, not a text tokenizer file", str(path))
    return data.removeprefix(b"\xef\xbb\xbf")


def utf8_text(data: bytes, source: str | None) -> str:
    """``data`` decoded as UTF-8.

    Raises
    ------
    TokenizerLoadError
        It is not UTF-8 (the position of the first bad byte is given).
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TokenizerLoadError(
            f"the file is not UTF-8 text (bad byte at position {exc.start})", source) from None


def display_name(path: Path) -> str:
    """``folder/file``: the name a loaded tokenizer is shown with."""
    return f"{path.parent.name}/{path.name}" if path.parent.name else path.name
