"""Reading a file as text, refusing files that are not text.

One rule for every corpus reader (the Compare pane's parallel corpus, the training corpus
readers): a file is text when its bytes are valid UTF-8 (a leading byte-order mark is dropped)
and, once decoded, it holds no NUL character and at most :data:`MAX_CONTROL_SHARE` of other
control characters (C0 controls except tab, line feed, vertical tab, form feed and carriage
return, plus DEL). Images, archives, compiled files and UTF-16 text fail the first or the
second test; they are never decoded with replacement characters.

Every read goes through :func:`read_file_bytes`, which refuses, before reading a byte, a path
that is not a regular file (a FIFO would block the reader forever, ``/dev/zero`` never ends,
a folder is not a file; symlinks are followed) or a file larger than the caller's cap
(:data:`MAX_TEXT_FILE_BYTES` for text files).
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from core.errors import SubwordScopeError

MAX_CONTROL_SHARE = 0.01
"""Largest share of control characters (other than whitespace) a text file may hold."""

MAX_TEXT_FILE_BYTES = 256 * 2**20
"""Largest text file :func:`read_text_file` reads: 256 MiB (about 1 GB of memory once decoded)."""

_CONTROL = re.compile("[\x00-\x08\x0e-\x1f\x7f]")


class TextFileError(SubwordScopeError):
    """A file cannot be read, or is not UTF-8 text.

    Attributes
    ----------
    path : str
        The file the error is about.
    """

    def __init__(self, message: str, path: str | Path):
        self.path = str(path)
        super().__init__(f"{self.path}: {message}")


class NotTextError(TextFileError):
    """A file's bytes are not UTF-8 text (a binary file, or another encoding)."""


class NotRegularFileError(TextFileError):
    """The path is a folder, a FIFO, a device or a socket, not a regular file."""


class FileTooLargeError(TextFileError):
    """The file is larger than the reader's cap (the message gives both sizes)."""


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def _check_stat(st: os.stat_result, path: str | Path, max_bytes: int) -> None:
    if not stat.S_ISREG(st.st_mode):
        raise NotRegularFileError(f"this is {_kind(st.st_mode)}, not a regular file", path)
    if st.st_size > max_bytes:
        raise FileTooLargeError(f"the file is {st.st_size:,} bytes, larger than the "
                                f"{max_bytes:,}-byte limit for this kind of file", path)


def check_regular_file(path: str | Path, max_bytes: int) -> int:
    """The size in bytes of ``path``, a regular file of at most ``max_bytes`` (symlinks are
    followed); nothing is opened.

    Raises
    ------
    TextFileError
        The path does not exist or cannot be inspected.
    NotRegularFileError
        A folder, FIFO, device or socket.
    FileTooLargeError
        More than ``max_bytes`` bytes.
    """
    try:
        st = os.stat(path)
    except OSError as exc:
        raise TextFileError(f"cannot read the file: {exc.strerror or exc}", path) from None
    _check_stat(st, path, max_bytes)
    return st.st_size


def read_file_bytes(path: str | Path, max_bytes: int) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``, checked before reading.

    The file is opened non-blocking and checked again on the open descriptor, so a path
    swapped for a FIFO between the check and the open cannot block; at most
    ``max_bytes + 1`` bytes are ever read (a file that grows meanwhile is refused).

    Raises
    ------
    TextFileError, NotRegularFileError, FileTooLargeError
        As :func:`check_regular_file`, or the read fails.
    """
    check_regular_file(path, max_bytes)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise TextFileError(f"cannot read the file: {exc.strerror or exc}", path) from None
    with os.fdopen(fd, "rb", buffering=0) as fh:
        st = os.fstat(fh.fileno())
        _check_stat(st, path, max_bytes)
        try:
            data = _read_at_most(fh, st.st_size, max_bytes + 1)
        except OSError as exc:
            raise TextFileError(f"cannot read the file: {exc.strerror or exc}", path) from None
    if len(data) > max_bytes:
        raise FileTooLargeError(f"the file grew past the {max_bytes:,}-byte limit while it was "
                                "read", path)
    return data


def read_text_file(path: str | Path) -> str:
    """The contents of a UTF-8 text file, or a typed error naming the file.

    Parameters
    ----------
    path : str or Path
        The file to read.

    Returns
    -------
    str
        The decoded text, without a leading byte-order mark.

    Raises
    ------
    TextFileError
        The file cannot be read (missing, no permission).
    NotRegularFileError, FileTooLargeError
        A folder, FIFO or device, or more than :data:`MAX_TEXT_FILE_BYTES` (before reading).
    NotTextError
        The bytes are not valid UTF-8, or the text holds a NUL or more than
        :data:`MAX_CONTROL_SHARE` control characters (see the module docstring).
    """
    path = Path(path)
    data = read_file_bytes(path, MAX_TEXT_FILE_BYTES)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotTextError(
            f"not UTF-8 text ({exc.reason} at byte {exc.start}); save it as UTF-8 or remove it", path
        ) from None
    text = text.removeprefix("\ufeff")
    check_controls(text, path)
    return text


def _read_at_most(fh, expected: int, limit: int) -> bytes:
    """Read to the end or to ``limit`` bytes; one read when the file has ``expected`` bytes."""
    chunks = [fh.read(expected + 1) or b""]
    total = len(chunks[0])
    while total > expected and total < limit:  # the file grew since it was inspected
        chunk = fh.read(min(2**20, limit - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)[:limit]


def check_controls(text: str, path: str | Path, start: int = 0) -> None:
    """Refuse ``text`` (all of a file, or one block of it beginning at code point ``start``)
    when it holds a NUL or more than :data:`MAX_CONTROL_SHARE` control characters. O(n).

    Raises
    ------
    NotTextError
        Naming ``path`` and the NUL's code point, or the count of control characters.
    """
    if "\x00" in text:
        raise NotTextError(
            f"not UTF-8 text (NUL character at code point {start + text.index(chr(0))}); it looks "
            "like a binary file or UTF-16 text", path)
    controls = len(_CONTROL.findall(text))
    if controls and controls > MAX_CONTROL_SHARE * len(text):
        raise NotTextError(
            f"not UTF-8 text ({controls:,} control characters in {len(text):,}); it looks like a "
            "binary file", path)
