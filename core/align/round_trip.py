"""Round trip: what ``decode(encode(text))`` gives back, and where and why it differs.

The decoded text is aligned with the normalized text (:func:`core.align.text_alignment.
align_texts`: linear for equal texts, bounded elsewhere) and the normalization's offset map
carries that alignment back to the original. The two alignments cut the three texts into
segments at every normalized position where both can be cut (a normalization unit boundary
that is not inside a replaced range); each segment is an ``original ↔ normalized ↔ decoded``
triple, compared original against decoded with their common prefix and suffix kept. What
differs is a :class:`Difference` located in the ORIGINAL (code points) with its causes
(:class:`Cause`): a lost accent (a combining mark removed after NFD), lost case, an unknown
token (the span it stood for), collapsed / added / changed whitespace, a changed
normalization form (NFKC compatibility mapping, NFC/NFD), or other.

``unchanged_share`` = code points of the original inside no difference / code points of the
original (1.0 for an empty text); text the decoder adds (spaces around punctuation) is a
difference with an empty original span and costs no original character.

Special tokens the text itself holds (a chat prompt's ``<|im_start|>``) are decoded back
(:func:`decode_kept`), so a lossless tokenizer gives a chat prompt back exactly;
special tokens the post-processor added, and special tokens standing for other text (BERT's
``[UNK]``), are left out as ``skip_special_tokens=True`` does. ``RoundTrip.special_tokens_kept``
counts the kept ones and the summary says "N special tokens kept".

Complexity: O(n + m + k) Python steps for an original of n, a normalized text of k and a
decoded text of m code points, plus the alignment's cost (O(k + m) when nothing but
whitespace differs; see :mod:`core.align.text_alignment`).

Public names: :func:`round_trip`, :func:`round_trip_of`, :func:`decode_kept`, :class:`RoundTrip`,
:class:`Difference`, :class:`Cause`, :class:`RoundTripError`.
"""

from __future__ import annotations

import bisect
import operator
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Sequence

from core.align.round_trip_causes import Cause, classify
from core.align.round_trip_segments import aligned, segments
from core.errors import SubwordScopeError, check_stop
from core.text.normalize import NormalizedText
from core.tokenizers.protocol import TokenizerLike

__all__ = ["Cause", "Difference", "RoundTrip", "RoundTripError", "decode_kept", "round_trip",
           "round_trip_of"]

UNKNOWN_SURFACES = ("\u2047",)
"""Decoded strings that stand for an unknown token besides the tokenizer's own (SentencePiece
decodes ``<unk>`` as "⁇")."""


STOP_CHECK = 4096
"""Segments compared between two calls of ``should_stop``."""


class RoundTripError(SubwordScopeError):
    """The inputs of a round trip do not belong together (or a tokenizer cannot decode)."""


@dataclass(frozen=True)
class Difference:
    """One place where the decoded text differs from the original.

    ``original[start:end]`` (code points of the original; empty for added text) came back
    as ``decoded[decoded_start:decoded_end]`` (code points of the decoded text). ``causes``
    are in :class:`Cause` order; ``by_normalization`` / ``by_decoding``: the normalized text
    already differs from the original there / the decoded text differs from the normalized.
    """

    start: int
    end: int
    decoded_start: int
    decoded_end: int
    original_text: str
    decoded_text: str
    causes: tuple[Cause, ...]
    by_normalization: bool
    by_decoding: bool

    def describe(self) -> str:
        """One line for a tooltip: ``'É' → 'e': lost accent + lost case (by the normalizer)``."""
        where = [w for w, on in (("the normalizer", self.by_normalization),
                                 ("the model or decoder", self.by_decoding)) if on]
        causes = " + ".join(c.value for c in self.causes)
        by = f" (by {' and '.join(where)})" if where else ""
        return f"{self.original_text!r} → {self.decoded_text!r}: {causes}{by}"


@dataclass(frozen=True)
class RoundTrip:
    """The decoded text against the original and the normalized text.

    ``differences`` are sorted by position in the original and do not overlap (in the
    original nor in the decoded text). See the module docstring for ``unchanged_share``.
    """

    original: str
    normalized: str
    decoded: str
    differences: tuple[Difference, ...]
    unchanged_share: float
    special_tokens_kept: int = 0

    @property
    def exact(self) -> bool:
        """The decoded text is the original."""
        return self.decoded == self.original

    @property
    def matches_normalized(self) -> bool:
        """The decoded text is the normalized text (every change is the normalizer's)."""
        return self.decoded == self.normalized

    @property
    def unchanged_characters(self) -> int:
        """Code points of the original inside no difference."""
        return len(self.original) - sum(d.end - d.start for d in self.differences)

    def counts(self) -> dict[Cause, int]:
        """Number of differences per cause (a difference with two causes counts for both),
        in :class:`Cause` order, causes without a difference left out."""
        out = {c: 0 for c in Cause}
        for d in self.differences:
            for c in d.causes:
                out[c] += 1
        return {c: n for c, n in out.items() if n}

    def summary(self) -> str:
        """``"3 lost accents, 1 unknown, share 98.7 % unchanged"`` (``", 7 special tokens
        kept"`` after it when the text held some)."""
        share = f"share {_percent(self.unchanged_share)} unchanged"
        if self.special_tokens_kept:
            n = self.special_tokens_kept
            share += f", {n} special token{'s' if n != 1 else ''} kept"
        if not self.differences:
            return f"comes back exactly, {share}" if self.exact else f"no differences, {share}"
        parts = [c.counted(n) for c, n in self.counts().items()]
        return ", ".join([*parts, share])


def _percent(share: float) -> str:
    p = 100.0 * share
    return "100 %" if p == 100 else f"{min(p, 99.9):.1f} %"


def round_trip(original: str, normalized: NormalizedText, decoded: str, *,
               unknown_spans: Iterable[tuple[int, int]] = (),
               unknown_surfaces: Iterable[str] = (),
               should_stop: Callable[[], bool] | None = None) -> RoundTrip:
    """Compare ``decoded`` with ``original`` through the normalization that came between.

    Parameters
    ----------
    original : str
        The encoded text.
    normalized : NormalizedText
        The tokenizer's normalization of ``original`` (``Encoding.normalized``), with its
        offset map; ``NormalizedText.identity(original)`` when nothing normalizes.
    decoded : str
        What decoding the ids gave back.
    unknown_spans : iterable of (int, int)
        Code-point spans of the original that unknown tokens stood for; differences
        touching them are "unknown".
    unknown_surfaces : iterable of str
        Decoded strings that stand for an unknown token (``"[UNK]"``), besides "⁇".
    should_stop : callable, optional
        Asked after the alignment and every :data:`STOP_CHECK` segments; True stops.

    Returns
    -------
    RoundTrip

    Raises
    ------
    TypeError
        If ``original`` or ``decoded`` is not a str, or ``normalized`` not a NormalizedText.
    RoundTripError
        If ``normalized`` is not the normalization of ``original``, its offset map or an
        unknown span falls outside the original.
    core.errors.Cancelled
        If ``should_stop()`` returned True.
    """
    _check(original, normalized, decoded)
    unknown = _merged_spans(unknown_spans, len(original))
    surfaces = {s for s in (*UNKNOWN_SURFACES, *unknown_surfaces) if s}
    if decoded == original:
        return RoundTrip(original, normalized.text, decoded, (), 1.0)
    diffs: list[Difference] = []
    hidden = [normalized.to_normalized(s, e) for s, e in unknown]
    ops = aligned(normalized, decoded, hidden)
    for k, (o0, o1, n0, n1, d0, d1) in enumerate(segments(normalized, decoded, ops, hidden)):
        if not k % STOP_CHECK:
            check_stop(should_stop)
        if o1 - o0 == d1 - d0 and original[o0:o1] == decoded[d0:d1]:
            continue  # came back unchanged (most segments)
        diff = _difference(original, normalized.text[n0:n1], decoded, (o0, o1, d0, d1), unknown, surfaces)
        if diff is not None:
            _add(diffs, diff)
    lost = sum(d.end - d.start for d in diffs)
    share = 1.0 - lost / len(original) if original else 1.0
    return RoundTrip(original, normalized.text, decoded, tuple(diffs), share)


def round_trip_of(tokenizer: TokenizerLike, text: str, *, encoding: Any = None,
                  should_stop: Callable[[], bool] | None = None) -> RoundTrip:
    """``round_trip`` of ``tokenizer.decode`` of ``tokenizer.encode(text).ids`` as
    :func:`decode_kept` decodes them (the text's own special tokens kept, the others
    skipped; ``RoundTrip.special_tokens_kept`` counts the kept ones), with the encoding's
    unknown tokens located; ``encoding`` is ``tokenizer.encode(text)`` when the caller has
    it already; ``should_stop`` as in :func:`round_trip` (and checked after encoding and
    decoding).

    Raises
    ------
    RoundTripError
        If the tokenizer has no ``decode``.
    TypeError
        If ``text`` is not a str.
    """
    if not callable(getattr(tokenizer, "decode", None)):
        raise RoundTripError(f"{getattr(tokenizer, 'name', 'this tokenizer')} cannot decode ids back to text")
    enc = tokenizer.encode(text) if encoding is None else encoding
    check_stop(should_stop)
    decoded, kept = decode_kept(tokenizer, text, enc.ids, enc.offsets)
    check_stop(should_stop)
    mask = getattr(enc, "unknown_mask", None) or ()
    spans = [span for span, unk in zip(enc.offsets, mask) if unk]
    normalized = getattr(enc, "normalized", None)
    if not isinstance(normalized, NormalizedText):  # an encoding without its normalization
        normalized = NormalizedText.identity(text)
    unk = getattr(tokenizer, "unk_token", None)
    rt = round_trip(text, normalized, decoded, unknown_spans=spans,
                    unknown_surfaces=(unk,) if isinstance(unk, str) else (), should_stop=should_stop)
    return replace(rt, special_tokens_kept=kept)


def decode_kept(tokenizer: TokenizerLike, text: str, ids: Sequence[int],
                spans: Sequence[tuple[int, int] | None],
                should_stop: Callable[[], bool] | None = None) -> tuple[str, int]:
    """``ids`` (the encoding of ``text``, ``spans`` its token spans in code points) decoded
    with ``skip_special_tokens=False`` after leaving out the special tokens that do not
    spell themselves in the text (added by the post-processor with an empty span, or
    standing for other text like BERT's ``[UNK]``): what ``skip_special_tokens=True``
    gives, but with the text's own special tokens kept. Returns the decoded text and the
    number of special tokens kept. O(n) plus decoding; ``should_stop`` is handed to the
    decoder (``core.errors.Cancelled`` when it turns True).
    """
    special = {i for t in getattr(tokenizer, "special_tokens", ()) or ()
               if (i := tokenizer.token_to_id(t)) is not None}
    keep, kept = [], 0
    for k, i in enumerate(ids):
        i = int(i)
        if i in special:
            span = spans[k] if k < len(spans) else None
            if span is None or text[span[0]:span[1]] != tokenizer.id_to_token(i):
                continue
            kept += 1
        keep.append(i)
    if should_stop is None:
        return tokenizer.decode(keep, skip_special_tokens=False), kept
    return tokenizer.decode(keep, skip_special_tokens=False, should_stop=should_stop), kept


# -- checks -------------------------------------------------------------------------------

def _check(original: Any, normalized: Any, decoded: Any) -> None:
    """Type and consistency checks of :func:`round_trip`; O(k) for k normalized characters."""
    if not isinstance(original, str) or not isinstance(decoded, str):
        raise TypeError("round_trip needs the original and the decoded text as str")
    if not isinstance(normalized, NormalizedText):
        raise TypeError(f"normalized must be a NormalizedText, not {type(normalized).__name__}")
    if normalized.original != original:
        raise RoundTripError("the normalized text is not the normalization of this original text: "
                             "pass the Encoding.normalized of the same text")
    n, starts, ends = len(original), normalized.starts, normalized.ends
    if starts and (min(starts) < 0 or max(ends) > n or any(map(operator.gt, starts, ends))):
        raise RoundTripError(f"the normalization's offset map points outside the original 0..{n}")


def _merged_spans(spans: Iterable[tuple[int, int]], n: int) -> list[tuple[int, int]]:
    """Sorted, disjoint union of non-empty ``spans`` (each checked inside 0..n); O(s log s)."""
    out: list[tuple[int, int]] = []
    for s, e in sorted((int(s), int(e)) for s, e in spans):
        if not 0 <= s <= e <= n:
            raise RoundTripError(f"unknown span ({s}, {e}) is outside the original 0..{n}")
        if s == e:
            continue
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def _touches_unknown(unknown: list[tuple[int, int]], start: int, end: int) -> bool:
    """``[start, end)`` overlaps an unknown span (an empty one lies strictly inside one)."""
    k = bisect.bisect_right(unknown, (start, float("inf"))) - 1
    for s, e in unknown[max(k, 0):k + 2]:
        if (start < e and s < end) if end > start else s < start < e:
            return True
    return False


def _difference(original: str, norm: str, decoded: str, spans: tuple[int, int, int, int],
                unknown: list[tuple[int, int]], surfaces: set[str]) -> Difference | None:
    """The difference inside one segment (common prefix and suffix of its original and
    decoded text taken off), or None when the segment comes back unchanged."""
    o0, o1, d0, d1 = spans
    o_seg, d_seg = original[o0:o1], decoded[d0:d1]
    if o_seg == d_seg:
        return None
    p = 0
    while p < min(len(o_seg), len(d_seg)) and o_seg[p] == d_seg[p]:
        p += 1
    q = 0
    while q < min(len(o_seg), len(d_seg)) - p and o_seg[-1 - q] == d_seg[-1 - q]:
        q += 1
    a, b, c, d = o0 + p, o1 - q, d0 + p, d1 - q
    o_text, d_text = original[a:b], decoded[c:d]
    is_unknown = _touches_unknown(unknown, a, b) or d_text.strip() in surfaces
    return Difference(a, b, c, d, o_text, d_text, classify(o_text, d_text, is_unknown),
                      o_seg != norm, norm != d_seg)


def _add(diffs: list[Difference], diff: Difference) -> None:
    """Append ``diff``, merged into the previous difference when they touch in both texts
    and have the same causes, or when one of them is unexplained (OTHER) and together they
    are explained (``e`` + U+0301 composed into ``é`` by NFC is one change)."""
    last = diffs[-1] if diffs else None
    if last is None or (last.end, last.decoded_end) != (diff.start, diff.decoded_start):
        diffs.append(diff)
        return
    o_text, d_text = last.original_text + diff.original_text, last.decoded_text + diff.decoded_text
    causes = last.causes
    if causes != diff.causes:
        if Cause.OTHER not in causes + diff.causes:
            diffs.append(diff)
            return
        causes = classify(o_text, d_text)
        if causes == (Cause.OTHER,):
            diffs.append(diff)
            return
    diffs[-1] = Difference(last.start, diff.end, last.decoded_start, diff.decoded_end, o_text, d_text,
                           causes, last.by_normalization or diff.by_normalization,
                           last.by_decoding or diff.by_decoding)
