"""Everything the alignment pane shows, computed in one call from text + tokenizer + options.

:func:`alignment_view` tokenizes (or aligns a pasted token list, or lifts pasted labels to
entities), maps every span into the normalized text, builds the UTF-16/UTF-8 offset tables,
the grapheme-cluster boundaries and :func:`core.align.audit.audit`'s flags, and returns one
frozen :class:`AlignmentView` composed of the records of :mod:`core.align.records`
(:class:`TokenRows`, :class:`SpanLayer`, :class:`TextTables`, :class:`Labelled`,
:class:`AlignedAs`, :class:`Mismatch`). It runs on a worker thread for long texts and never raises on
bad input: errors a user can fix (a token list that does not fit, a wrong label count, empty
or oversized text) come back in ``error`` / ``notice``. Positions are code points unless a
name says UTF-16 or UTF-8.

Public names: :func:`alignment_view`, :class:`AlignRequest` (what it is asked),
:class:`AlignmentView` (and the records it is made of),
:func:`audit_spans`, :func:`normalized_spans`.
"""

from __future__ import annotations

import bisect
import operator
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import chain, islice
from operator import itemgetter
from typing import Callable, Sequence

import numpy as np

from core.align.audit import Audit, audit
from core.align.entities import Entity
from core.align.modes import MAX_CHARS, align_tokens, label_entities, tokenize
from core.align.records import AlignedAs, AlignRequest, Labelled, Mismatch, SpanLayer, TextTables, TokenRows
from core.collector import release_freed_memory
from core.errors import check_stop
from core.text.columns import SpanArray, int_array
from core.text.graphemes import GraphemeBounds
from core.text.normalize import NormalizedText
from core.text.offsets import int_table, offset_arrays
from core.tokenizers.protocol import TokenizerLike

__all__ = ["AlignRequest", "AlignedAs", "AlignmentView", "Labelled", "Mismatch", "SpanLayer", "TextTables", "TokenRows",
           "alignment_view", "audit_spans", "normalized_spans"]


@dataclass(frozen=True)
class AlignmentView:
    """Everything one rendering of the alignment pane needs, as a few records.

    Attributes
    ----------
    text : str
        The original text (code points).
    mode : {"tokenize", "align", "labels"}
    rows : TokenRows
        One entry per token: strings, ids, unknown / byte-fallback / special marks, bytes,
        derived spans.
    layer : SpanLayer
        The tokens' reference spans (original and normalized) and how many cover each code
        point: what the span views draw.
    tables : TextTables
        The normalized text, the UTF-16 / UTF-8 offset tables and the grapheme boundaries.
    audit : Audit | None
        :func:`core.align.audit.audit`'s flags for the leading tokens that have a span; None
        when nothing ran (empty or oversized text).
    derived : SpanLayer | None
        The derived spans as a layer (``Encoding.derived_offsets``, their normalized spans
        and cover): only when some token is ``misleading``; :attr:`derived_view` draws it.
    labelled : Labelled | None
        Labels mode: the pasted labels and their entities (None in the other modes, and when
        the labels do not parse).
    aligned : AlignedAs | None
        Align mode: the scheme the pasted list was aligned with.
    mismatch : Mismatch | None
        Align mode: where the pasted list stopped fitting (``error`` says how).
    error : str | None
        A message a user can act on (a list that does not fit, a wrong label count); the
        result shows what could be computed.
    notice : str | None
        An inline message that is not an error (an empty or oversized text).
    """

    text: str
    mode: str
    rows: TokenRows = field(default_factory=TokenRows)
    layer: SpanLayer = field(default_factory=SpanLayer)
    tables: TextTables = field(default_factory=TextTables)
    audit: Audit | None = None
    derived: SpanLayer | None = field(default=None, repr=False)
    labelled: Labelled | None = None
    aligned: AlignedAs | None = None
    mismatch: Mismatch | None = None
    error: str | None = None
    notice: str | None = None

    # -- short names for what every reader uses ------------------------------------------------
    @property
    def tokens(self) -> list[str]:
        """``rows.tokens``: the token strings."""
        return self.rows.tokens

    @property
    def spans(self) -> Sequence[tuple[int, int] | None]:
        """``layer.spans``: each token's original span as drawn (None after a mismatch)."""
        return self.layer.spans

    @property
    def normalized(self) -> NormalizedText | None:
        """``tables.normalized``: the normalized text (None when nothing ran)."""
        return self.tables.normalized

    @property
    def entities(self) -> list[Entity]:
        """The labelled entities (empty outside labels mode)."""
        return self.labelled.entities if self.labelled is not None else []

    @property
    def misleading(self) -> int:
        """How many tokens' reference spans differ from their derived spans."""
        return 0 if self.audit is None else self.audit.misleading_count

    @cached_property
    def marked(self) -> list[bool]:
        """One bool per token: the unknown token or a byte-fallback piece (drawn distinctly)."""
        unknown, fallback = self.rows.unknown, self.rows.byte_fallback
        if not any(unknown) and not any(fallback):  # the common case, in C
            n = len(unknown)
            return [False] * (min(n, len(fallback)) if fallback else n)
        if not fallback:
            return [bool(u) for u in unknown]
        return list(map(bool, map(operator.or_, unknown, fallback)))

    @cached_property
    def unknown_summary(self) -> tuple[int, int, int, int]:
        """``(unknown tokens, code points they cover, byte-fallback pieces, code points
        those spell)``; covered code points are counted once (derived spans where known).
        O(tokens + n)."""
        unknown, fallback = self.rows.unknown, self.rows.byte_fallback
        spans = self.rows.derived_spans or self.spans
        return (sum(unknown), _covered(len(self.text), spans, unknown),
                sum(fallback), _covered(len(self.text), spans, fallback))

    @cached_property
    def derived_view(self) -> "AlignmentView":
        """This view with the derived layer (derived spans, their normalized spans and
        cover) in place of the reference layer — itself when no token is misleading."""
        if not self.misleading or self.derived is None:
            return self
        return replace(self, layer=self.derived)

    @cached_property
    def _sorted_starts(self) -> list[int]:
        return _starts(self.spans)

    @cached_property
    def _sorted_norm_starts(self) -> list[int]:
        return _starts(self.layer.norm_spans)

    def tokens_at(self, pos: int) -> list[int]:
        """Indices of the tokens whose original span contains code point ``pos``."""
        return _covering(self.spans, self._sorted_starts, pos)

    def tokens_at_normalized(self, pos: int) -> list[int]:
        """Indices of the tokens whose normalized span contains normalized position ``pos``."""
        return _covering(self.layer.norm_spans, self._sorted_norm_starts, pos)

    def tokens_in(self, start: int, end: int) -> list[int]:
        """Indices of the tokens whose original span overlaps ``[start, end)`` (O(tokens))."""
        return [i for i, sp in enumerate(self.spans) if sp and sp[0] < end and start < sp[1]]


def _starts(spans: Sequence[tuple[int, int] | None]) -> Sequence[int]:
    """Each span's start (a missing span sorts last), O(tokens)."""
    if isinstance(spans, SpanArray):
        starts = spans.starts.view()
        return int_array(np.where(starts < 0, 1 << 40, starts)) if None in spans else spans.starts
    if None in spans:
        return [sp[0] if sp else 1 << 40 for sp in spans]
    return list(map(itemgetter(0), spans))


def _covering(spans: list[tuple[int, int] | None], starts: list[int], pos: int) -> list[int]:
    """Tokens covering ``pos``: a binary search, then at most 64 spans back (O(log n))."""
    hi = bisect.bisect_right(starts, pos)
    found = []
    for i in range(hi - 1, max(-1, hi - 64), -1):
        sp = spans[i]
        if sp and sp[0] <= pos < sp[1]:
            found.append(i)
    return sorted(found)


def _covered(n: int, spans, mask: list[bool]) -> int:
    """How many code points of ``0..n`` the spans of the tokens in ``mask`` cover.
    O(n + tokens), at numpy speed for a :class:`SpanArray`."""
    if not any(mask):
        return 0
    if isinstance(spans, SpanArray):
        k = min(len(spans), len(mask))
        starts, ends = (a[:k] for a in spans.arrays())
        on = np.asarray(mask[:k], bool) & (starts >= 0)  # a missing span reads as -1
        return int((_cover(n, starts[on], ends[on]) > 0).sum())
    chosen = [sp for sp, on in zip(spans, mask) if on and sp]
    if not chosen:
        return 0
    starts, ends, _ = _span_arrays(chosen)
    return int((_cover(n, starts, ends) > 0).sum())


def _cover(n: int, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """``(n,) int32``: how many of the spans cover each code point (O(n + spans))."""
    delta = np.bincount(starts, minlength=n + 1) - np.bincount(ends, minlength=n + 1)
    return np.cumsum(delta[:n]).astype(np.int32)


def _span_arrays(spans: list[tuple[int, int] | None]) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """``(starts, ends, missing)``: int64 arrays (a missing span reads as ``(0, 0)``) and
    the indices of the missing spans."""
    if isinstance(spans, SpanArray):
        starts, ends = spans.arrays()
        if None not in spans:
            return starts, ends, []
        return np.maximum(starts, 0), np.maximum(ends, 0), np.flatnonzero(starts < 0).tolist()
    missing = [i for i, sp in enumerate(spans) if sp is None] if None in spans else []
    pairs = [sp or (0, 0) for sp in spans] if missing else spans
    flat = np.fromiter(chain.from_iterable(pairs), np.int64, 2 * len(pairs)).reshape(-1, 2)
    return flat[:, 0], flat[:, 1], missing


def audit_spans(text: str, spans, token_bytes, special, graphemes=None, derived=None,
                should_stop: Callable[[], bool] | None = None, *, utf8=None) -> Audit:
    """:func:`core.align.audit.audit` of the leading tokens that have a span (a pasted list
    stops having spans at its first mismatch); ``derived``: the derived spans, if known;
    ``utf8``: the text's UTF-8 offset table, if known (see :func:`~core.align.audit.audit`).
    The byte lengths and the special-tokens mask are handed over as arrays, not copied
    lists (O(tokens))."""
    k = spans.index(None) if None in spans else len(spans)
    lengths = None if token_bytes is None else _lengths(token_bytes, k)
    mask = None if special is None else _leading_mask(special, k)
    return audit(text, _head(spans, k), byte_lengths=lengths, special_tokens_mask=mask, graphemes=graphemes,
                 derived_offsets=None if derived is None else _head(derived, k), should_stop=should_stop,
                 utf8=utf8)


def _head(values, k: int):
    """``values[:k]``, ``values`` itself when that is all of it (no copy)."""
    return values if len(values) == k else values[:k]


def _lengths(token_bytes, k: int):
    """``(k,) int64``: the lengths of the first ``k`` byte strings (fewer: a shorter list,
    left for :func:`audit` to report)."""
    if len(token_bytes) < k:
        return [len(b) for b in token_bytes]
    return np.fromiter(map(len, islice(token_bytes, k)), np.int64, k)


def _leading_mask(special, k: int):
    """``(k,) bool``: the first ``k`` entries of a 0/1 mask (fewer: the short list as it is,
    left for :func:`audit` to report)."""
    if isinstance(special, np.ndarray) or len(special) < k:
        return _head(special, k)
    return np.fromiter(islice(special, k), bool, k)


def normalized_spans(nt: NormalizedText, spans) -> SpanArray:
    """``nt.to_normalized(*span)`` for every span at once (the same two binary searches,
    vectorized: O(tokens · log n)); None stays None. A :class:`SpanArray` (it equals the
    list of those spans)."""
    return _normalized_spans(nt, _span_arrays(spans))


def _same_spans(nt: NormalizedText, spans) -> SpanArray:
    """:func:`normalized_spans` of a :class:`SpanArray`: the spans themselves (shared, not
    copied: they are immutable) when ``nt`` maps every character to itself. O(n) to check
    the map (vectorized), then O(tokens · log n) only when it is not the identity."""
    if isinstance(spans, SpanArray) and _is_identity(nt):
        return spans
    return _normalized_spans(nt, _span_arrays(spans))


def _is_identity(nt: NormalizedText) -> bool:
    """Whether normalized character ``j`` came from original ``[j, j + 1)`` for every ``j``."""
    n = len(nt.original)
    if len(nt.text) != n or nt.text != nt.original:
        return False
    if n == 0:
        return True
    starts, ends = nt.arrays()
    return (int(starts[0]) == 0 and int(ends[-1]) == n and np.array_equal(ends[:-1], starts[1:])
            and bool((ends - starts == 1).all()))


def _normalized_spans(nt: NormalizedText, arrays) -> SpanArray:
    starts, ends, missing = arrays
    nt_starts, nt_ends = nt.arrays()
    lo = np.searchsorted(nt_ends, starts, side="right")
    hi = np.maximum(lo, np.searchsorted(nt_starts, ends, side="left"))
    return SpanArray.from_arrays(lo, hi, missing)


def _derived_layer(rows: TokenRows, normalized: NormalizedText, n: int, flags: Audit) -> SpanLayer:
    """The derived spans as a layer: their normalized spans and cover (special tokens count
    for nothing). O(n + tokens · log n)."""
    starts, ends, _ = _span_arrays(rows.derived_spans)
    counted = ~flags.special
    return SpanLayer(rows.derived_spans, _same_spans(normalized.true_map(), rows.derived_spans),
                     _cover(n, starts[counted], ends[counted]))


def alignment_view(
    text: str,
    tokenizer: TokenizerLike | None = None,
    request: AlignRequest = AlignRequest(),
    *,
    graphemes: GraphemeBounds | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> AlignmentView:
    """Tokenize / align / label ``text`` as ``request`` asks and derive everything the
    alignment pane shows.

    Parameters
    ----------
    text : str
        The original text (code points; at most :data:`core.align.modes.MAX_CHARS`).
    tokenizer : Tokenizer
        Used in the ``"tokenize"`` and ``"labels"`` modes (None in align mode).
    request : AlignRequest
        The mode and its options (:class:`core.align.records.AlignRequest`; the default:
        tokenize, special-token strings parsed).
    graphemes : GraphemeBounds, optional
        A cache of grapheme boundaries kept across calls (keystrokes); a fresh one otherwise.
    should_stop : callable, optional
        Polled in the tokenizer's and the cursor walk's loops and between the steps below.

    Returns
    -------
    AlignmentView
        Never raises on bad input: see ``error`` and ``notice``. O(n + tokens · log n).

    Raises
    ------
    core.errors.Cancelled
        If ``should_stop()`` returned True (a superseded request).
    """
    mode = request.mode
    base = AlignmentView(text=text, mode=mode)
    if not text.strip():
        return replace(base, notice="The text is empty: type or paste some text above.")
    if len(text) > MAX_CHARS:
        return replace(base, notice=f"The text has {len(text):,} characters; at most "
                       f"{MAX_CHARS:,} are tokenized here. Shorten it to see tokens.")
    options = dict(request.normalizer_options or {})
    if mode == "align":
        out = align_tokens(text, request.tokens_text, options, scheme=request.scheme,
                           normalize_all=request.normalize_all, should_stop=should_stop)
    else:
        out = tokenize(tokenizer, text, options, request.tokenizer_is_demo, should_stop,
                       request.parse_special_tokens)
    rows, spans = out.rows, SpanArray.from_pairs(out.spans)  # compact columns: the tuples are freed
    if rows.derived_spans is not None:
        rows = replace(rows, derived_spans=SpanArray.from_pairs(rows.derived_spans))
    check_stop(should_stop)
    utf16, utf8 = (int_table(table) for table in offset_arrays(text))  # the int64 arrays are freed
    bounds = (graphemes or GraphemeBounds()).bounds(text)
    check_stop(should_stop)
    flags = audit_spans(text, spans, rows.token_bytes, rows.special, bounds, rows.derived_spans,
                        should_stop, utf8=utf8)
    check_stop(should_stop)
    starts = np.zeros(len(text) + 1, bool)
    starts[bounds] = True
    nt = out.normalized
    layer = SpanLayer(spans, _same_spans(nt, spans) if nt else [], flags.cover)
    derived = _derived_layer(rows, nt, len(text), flags) if flags.misleading_count else None
    labelled, error = None, out.error
    if mode == "labels" and error is None:
        labelled, error = label_entities(text, rows.tokens, spans, request.labels_text, request.repair)
    if len(text) >= TRIM_CHARS:
        release_freed_memory()
    return replace(base, rows=rows, layer=layer, tables=TextTables(nt, utf16, utf8, starts), audit=flags,
                   derived=derived, labelled=labelled, aligned=out.aligned, mismatch=out.mismatch,
                   error=error)


TRIM_CHARS = 100_000
"""From this many code points on, :func:`alignment_view` ends with
:func:`release_freed_memory` (the temporaries of a long text are tens of MB)."""
