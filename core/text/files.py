"""Reading a file as text, refusing files that are not text.

One rule for every corpus reader (the Compare pane's parallel corpus, the training corpus
readers): a file is text when its bytes are valid UTF-8 (a leading byte-order mark is dropped)
and, once decoded, it holds no NUL character and at most :data:`MAX_CONTROL_SHARE` of other
control characters (C0 controls except tab, line feed, vertical tab, form feed and carriage
return, plus DEL). Images, archives, compiled files and UTF-16 text fail the first or the
second test; they are never decoded with replacement characters.
"""

from __future__ import annotations

import re
from pathlib import Path

from core.errors import SubwordScopeError

MAX_CONTROL_SHARE = 0.01
"""Largest share of control characters (other than whitespace) a text file may hold."""

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
        The file cannot be read (missing, a folder, no permission).
    NotTextError
        The bytes are not valid UTF-8, or the text holds a NUL or more than
        :data:`MAX_CONTROL_SHARE` control characters (see the module docstring).
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TextFileError(f"cannot read the file: {exc.strerror or exc}", path) from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotTextError(
            f"not UTF-8 text ({exc.reason} at byte {exc.start}); save it as UTF-8 or remove it", path
        ) from None
    text = text.removeprefix("\ufeff")
    _check_controls(text, path)
    return text


def _check_controls(text: str, path: Path) -> None:
    if "\x00" in text:
        raise NotTextError(
            f"not UTF-8 text (NUL character at code point {text.index(chr(0))}); it looks like a "
            "binary file or UTF-16 text", path)
    controls = len(_CONTROL.findall(text))
    if controls and controls > MAX_CONTROL_SHARE * len(text):
        raise NotTextError(
            f"not UTF-8 text ({controls:,} control characters in {len(text):,}); it looks like a "
            "binary file", path)
