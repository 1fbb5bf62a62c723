"""Reading a text of any size in blocks: an argument, a file or standard input.

:func:`text_blocks` gives the text as successive ``str`` blocks of at most about
:data:`BLOCK_BYTES` UTF-8 bytes each, so a command that works block by block (``encode``)
holds one block, never the whole input. The checks are those of
:func:`core.text.files.read_text_file`, applied as the bytes arrive: a file must be a regular
file (checked with ``os.stat`` before opening, so a FIFO or a device never blocks), the bytes
valid UTF-8 (a leading byte-order mark is dropped), each block without NUL and with at most
:data:`core.text.files.MAX_CONTROL_SHARE` control characters. An error found after some
blocks were handed out still raises (the caller has already written their output). There is
no size cap here: the caller bounds its memory by working block by block. Positions are UTF-8
bytes in the messages, code points elsewhere.
"""

from __future__ import annotations

import codecs
import os
import stat
import sys
from typing import BinaryIO, Iterator

from core.text.files import (NotRegularFileError, NotTextError, TextFileError, check_controls,
                             check_regular_file)

BLOCK_BYTES = 1 << 20
"""Bytes read at a time (1 MiB)."""

_NO_CAP = 1 << 62  # check_regular_file's size cap: none, the reader is streamed


def file_blocks(path: str) -> Iterator[str]:
    """The decoded blocks of the UTF-8 text file ``path``.

    Raises
    ------
    TextFileError, NotRegularFileError
        Missing, unreadable, or not a regular file (before anything is read).
    NotTextError
        Invalid UTF-8 (the message gives the byte), a NUL, or a block mostly control
        characters.
    """
    check_regular_file(path, _NO_CAP)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise TextFileError(f"cannot read the file: {exc.strerror or exc}", path) from None
    with os.fdopen(fd, "rb", buffering=0) as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):  # swapped since the check
            raise NotRegularFileError("this is not a regular file", path)
        yield from _decoded(fh, path, "; save it as UTF-8 or remove it")


def stdin_blocks() -> Iterator[str]:
    """The decoded blocks of standard input (read to its end, block by block).

    Raises
    ------
    NotTextError
        As :func:`file_blocks`, naming ``<stdin>``.
    """
    yield from _decoded(sys.stdin.buffer, "<stdin>", "")


def _decoded(fh: BinaryIO, path: str, advice: str) -> Iterator[str]:
    """Blocks of ``fh`` decoded as UTF-8 (the byte-order mark dropped), each checked by
    :func:`core.text.files.check_controls`. O(bytes); holds one block."""
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    done = chars = 0  # bytes handed to the decoder before this block, code points handed out
    first = True
    while True:
        try:
            raw = fh.read(BLOCK_BYTES)
        except OSError as exc:
            raise TextFileError(f"cannot read the file: {exc.strerror or exc}", path) from None
        raw = raw or b""
        try:
            text = decoder.decode(raw, final=not raw)
        except UnicodeDecodeError as exc:  # exc.start counts in the decoder's pending + raw
            pending = len(exc.object) - len(raw)
            raise NotTextError(f"not UTF-8 text ({exc.reason} at byte {done - pending + exc.start})"
                               f"{advice}", path) from None
        if first and text:
            text, first = text.removeprefix("\ufeff"), False
        if text:
            check_controls(text, path, chars)
            chars += len(text)
            yield text
        if not raw:
            return
        done += len(raw)
