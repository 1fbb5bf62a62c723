"""Checking what callers hand to :class:`core.encoder.Encoder`: texts and whole-number settings."""

from __future__ import annotations

import numpy as np

from core.errors import SubwordScopeError


class EncoderInputError(SubwordScopeError):
    """Texts or settings given to :meth:`Encoder.tokenize`, :meth:`Encoder.encode` or
    :meth:`Encoder.encode_document` are not usable (not strings, none, bad batch size)."""


def as_texts(texts) -> tuple[str, ...]:
    """One text (a bare ``str``) or a sequence of texts as a tuple of str.

    Raises
    ------
    EncoderInputError
        ``texts`` is empty, not iterable, or holds an item that is not a ``str`` (the
        message names its index).
    """
    if isinstance(texts, str):
        return (texts,)
    try:
        items = tuple(texts)
    except TypeError:
        raise EncoderInputError(f"texts must be a str or a list of str, got {type(texts).__name__}") from None
    for i, t in enumerate(items):
        if not isinstance(t, str):
            raise EncoderInputError(f"text {i} must be a str, got {type(t).__name__}: {t!r:.60}")
    if not items:
        raise EncoderInputError("nothing to encode: give one or more texts")
    return items


def whole_number(name: str, value, minimum: int) -> int:
    """``value`` as an ``int`` >= ``minimum``, or :class:`EncoderInputError` naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise EncoderInputError(f"{name} must be a whole number >= {minimum}, got {value!r}")
    return int(value)
