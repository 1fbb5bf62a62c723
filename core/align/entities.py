"""Token labels to entity spans (SPEC §3).

Spans are half-open code-point offsets of the original text; the code point ↔ UTF-16 ↔ UTF-8
converters that front-ends need live in :mod:`core.text.offsets` (and, by their old public
path, in ``core.entities``).

Public names: :class:`Entity`, :class:`LabelError`, :func:`entities`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from core.errors import OffsetError, SubwordScopeError


class LabelError(SubwordScopeError):
    """The label list does not fit the tokens, or a label is not BIO/BIOES."""


@dataclass(frozen=True)
class Entity:
    """An entity span of the original text (code points, half-open)."""

    text: str
    label: str
    start: int
    end: int


def _parse(label: str, index: int) -> tuple[str, str]:
    """Split a label into (prefix, type): ``"B-PER" -> ("B", "PER")``, ``"O" -> ("O", "")``."""
    if not isinstance(label, str):
        raise LabelError(f"label {index} must be a string such as 'O' or 'B-PER', got {label!r}")
    if label == "O":
        return "O", ""
    prefix, sep, kind = label.partition("-")
    if not sep or prefix not in ("B", "I", "E", "S") or not kind:
        raise LabelError(f"label {index} {label!r} is not O, B-X, I-X, E-X or S-X")
    return prefix, kind


def _span(span, index: int, n: int) -> tuple[int, int]:
    """Token ``index``'s span as ints with ``0 <= s <= e <= n``, else :class:`OffsetError`."""
    try:
        s, e = span
        ok = all(not isinstance(v, bool) and int(v) == v for v in (s, e))
    except (TypeError, ValueError, OverflowError):
        ok = False
    if not ok:
        raise OffsetError(f"span {index} must be a (start, end) pair of whole numbers, got {span!r}")
    s, e = int(s), int(e)
    if not 0 <= s <= e <= n:
        raise OffsetError(
            f"span {index} ({s}, {e}) must satisfy 0 <= start <= end <= {n} (the text's length in code points)"
        )
    return s, e


def _words(tokens: Sequence[str], spans: Sequence[tuple[int, int]], labels: Sequence[str], n: int):
    """Group tokens into words: ``##`` pieces extend the previous word; empty spans
    (special tokens) are skipped. Yields ``[start, end, first_label]``. Every token, span and
    label is checked, even the ignored ones (``n`` is the text's length in code points)."""
    words: list[list] = []
    for i, (tok, span, lab) in enumerate(zip(tokens, spans, labels)):
        if not isinstance(tok, str):
            raise LabelError(f"token {i} must be a string, got {tok!r}")
        s, e = _span(span, i, n)
        parsed = _parse(lab, i)
        if s == e:
            continue
        if tok.startswith("##") and len(tok) > 2 and words:
            words[-1][1] = e
        else:
            words.append([s, e, parsed])
    return words


def entities(
    original: str,
    tokens: Sequence[str],
    spans: Sequence[tuple[int, int]],
    labels: Sequence[str],
    *,
    repair: bool = True,
) -> list[Entity]:
    """Lift per-token BIO (or BIOES) labels to entity spans of ``original`` (SPEC §3).

    A word (a token plus the ``##`` pieces after it) takes its first piece's label.
    ``B-X`` opens an entity; ``I-X`` continues an open entity of type X; ``O`` closes.
    ``I-X`` with no open entity of type X opens one when ``repair`` is true (the usual
    repair) and is treated as ``O`` when it is false (strict). ``S-X`` is a one-word
    entity, ``E-X`` continues and closes.

    Parameters
    ----------
    spans : sequence of (int, int)
        Each token's original code-point span (e.g. from :func:`core.align.align`).
    labels : sequence of str
        One label per token; labels of ``##`` pieces and of empty-span tokens are ignored.

    Raises
    ------
    LabelError
        If the three lists differ in length, a label is not a str or is malformed, or a
        token is not a str (the message names the index).
    OffsetError
        If a span is not a pair of whole numbers with ``0 <= start <= end <= len(original)``
        (the message names the index).
    """
    if not isinstance(original, str):
        raise LabelError(f"the original text must be a str, got {type(original).__name__}")
    try:
        sizes = len(tokens), len(spans), len(labels)
    except TypeError:
        raise LabelError("tokens, spans and labels must be lists (one entry per token)") from None
    if isinstance(labels, str) or isinstance(tokens, str):
        raise LabelError("tokens and labels must be lists of strings, not a single string")
    if not sizes[0] == sizes[1] == sizes[2]:
        raise LabelError(
            f"{len(labels)} labels for {len(tokens)} tokens and {len(spans)} spans; "
            "give exactly one label per token"
        )
    found: list[Entity] = []
    open_: list | None = None  # [start, end, kind]

    def close() -> None:
        nonlocal open_
        if open_ is not None:
            s, e, kind = open_
            found.append(Entity(original[s:e], kind, s, e))
            open_ = None

    for s, e, (prefix, kind) in _words(tokens, spans, labels, len(original)):
        continues = open_ is not None and open_[2] == kind and prefix in ("I", "E")
        if continues:
            open_[1] = e
        else:
            close()
            if prefix in ("B", "S") or (prefix in ("I", "E") and repair):
                open_ = [s, e, kind]
        if prefix in ("S", "E") and open_ is not None:
            close()
    close()
    return found
