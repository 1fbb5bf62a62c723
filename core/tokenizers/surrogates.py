"""Lone surrogates at the door of ``encode``: what each format's reference library does.

A Python ``str`` may hold surrogate code points (U+D800–U+DFFF), which no UTF-8 text
holds. The reference libraries, asked to encode such a string (checked with
``tokenizers`` 0.23, ``sentencepiece`` and ``tiktoken``):

- ``tokenizers`` (``tokenizer.json``, and ``vocab.txt`` / GPT-2 files as its models read
  them) refuses it (``TypeError: TextInputSequence must be str``);
- ``sentencepiece`` (``.model``) refuses it (``RuntimeError: Unable to cast …``);
- ``tiktoken`` replaces it: it round-trips the text through UTF-16 with
  ``errors="replace"``, so a high surrogate followed by a low one becomes the character
  they encode together and every other surrogate becomes U+FFFD.

:data:`REFUSE` raises :class:`core.errors.LoneSurrogateError` (a ``ValueError``) naming the
first one; :data:`REPLACE` encodes tiktoken's repaired text and maps the spans back to the
text given; :data:`PASS` (the built-in teaching tokenizer, which has no reference) encodes
the surrogates as they are (their generalized UTF-8 bytes).

Public names: :data:`REFUSE`, :data:`REPLACE`, :data:`PASS`, :func:`first_surrogate`,
:func:`check_texts_surrogates`, :class:`Repair`, :func:`repair_for`.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Sequence

import numpy as np

from core.errors import LoneSurrogateError
from core.text.columns import SpanArray
from core.text.normalize import NormalizedText
from core.tokenizers.encoding import Encoding

REFUSE, REPLACE, PASS = "refuse", "replace", "pass"
_SURROGATE = re.compile("[\ud800-\udfff]")
_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")


def first_surrogate(text: str) -> int | None:
    """The index of the first surrogate code point of ``text``, or None. O(n), one regex
    scan."""
    m = _SURROGATE.search(text)
    return None if m is None else m.start()


class Repair:
    """tiktoken's repair of a text holding surrogates, and the way back.

    Attributes
    ----------
    original : str
        The text given.
    text : str
        ``original.encode("utf-16", "surrogatepass").decode("utf-16", "replace")``.
    positions : ndarray or None
        ``(len(text) + 1,) int64``: the code-point position in ``original`` of each
        position of ``text`` (None when the two have the same length: surrogate pairs are
        what make ``text`` shorter).
    """

    def __init__(self, original: str):
        self.original = original
        self.text = original.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        self.positions = None
        if len(self.text) != len(original):
            shift = np.zeros(len(self.text) + 1, np.int64)
            for k, m in enumerate(_PAIR.finditer(original)):
                shift[m.start() - k + 1] += 1  # positions after the joined pair move by one
            self.positions = np.arange(len(self.text) + 1, dtype=np.int64) + np.cumsum(shift)

    def restore(self, enc: Encoding) -> Encoding:
        """``enc`` (an encoding of :attr:`text`) with its spans and normalized map moved onto
        :attr:`original`. O(tokens + normalized length)."""
        nt = enc.normalized
        if self.positions is None:
            return replace(enc, normalized=NormalizedText(self.original, nt.text, nt.starts, nt.ends))
        pos = self.positions
        s, e = nt.arrays()
        normalized = NormalizedText.from_arrays(self.original, nt.text, pos[s], pos[e])
        if isinstance(enc.offsets, SpanArray):
            a, b = enc.offsets.starts.view(), enc.offsets.ends.view()
            offsets = SpanArray(np.where(a < 0, a, pos[a]), np.where(a < 0, b, pos[b]))
        else:
            offsets = [(int(pos[a]), int(pos[b])) for a, b in enc.offsets]
        return replace(enc, offsets=offsets, normalized=normalized)


def repair_for(policy: str, text: str, what: str = "the text") -> Repair | None:
    """None when ``text`` holds no surrogate or ``policy`` is :data:`PASS`; else a
    :class:`Repair` (:data:`REPLACE`). O(n).

    Raises
    ------
    core.errors.LoneSurrogateError
        With :data:`REFUSE`, naming the first surrogate.
    """
    if policy == PASS:
        return None
    at = first_surrogate(text)
    if at is None:
        return None
    if policy == REFUSE:
        raise LoneSurrogateError(at, ord(text[at]), what)
    return Repair(text)


def check_texts_surrogates(policy: str, texts: Sequence[str]) -> set[int]:
    """The indices of the texts holding a surrogate (none with :data:`PASS`). O(total
    code points).

    Raises
    ------
    core.errors.LoneSurrogateError
        With :data:`REFUSE`, for the first such text (its message names ``texts[k]``).
    """
    if policy == PASS:
        return set()
    found = set()
    for k, text in enumerate(texts):
        at = first_surrogate(text)
        if at is not None:
            if policy == REFUSE:
                raise LoneSurrogateError(at, ord(text[at]), f"texts[{k}]")
            found.add(k)
    return found
