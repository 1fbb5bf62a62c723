"""The alignment pane's state object and the Qt-free computation it renders from.

:class:`AlignmentState` is what the user chose (text, mode, pasted tokens and labels,
normalizer options); :func:`compute` turns a frozen :class:`Request` into an
:class:`AlignmentResult` by calling ``core`` only. ``compute`` runs on a worker thread for
long texts, so it never touches Qt. Positions are code points unless a name says UTF-16 or
UTF-8.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import chain
from typing import Any

import numpy as np

from app.panes.alignment_modes import (
    MAX_CHARS,
    MODES,
    SCHEMES,
    align_tokens,
    label_entities,
    tokenize,
)
from app.panes.alignment_graphemes import GraphemeBounds
from core.audit import Audit, audit
from core.entities import Entity, offset_arrays
from core.normalize import NormalizedText

DEMO_TEXT = "Zoe\u0301 flew  to \u0130stanbul \U0001F600 with Nvidia \ufb01nal"
DEMO_TOKENS = "zoe flew to istanbul [UNK] with nv ##id ##ia final"
DEMO_LABELS = "B-PER O O B-LOC O O B-ORG O O O"


@dataclass
class AlignmentState:
    """What the user chose; everything the pane shows is derived from this and the tokenizer."""

    text: str = DEMO_TEXT
    mode: str = "labels"
    tokens_text: str = DEMO_TOKENS
    labels_text: str = DEMO_LABELS
    form: str = "NFKD"  # "NFC", "NFD", "NFKC", "NFKD" or "none"
    strip_accents: bool = True
    lowercase: bool = True
    collapse_whitespace: bool = True
    repair: bool = True
    scheme: str = "auto"  # align mode: "auto" or a core.align scheme

    def normalizer_changed(self) -> bool:
        """Whether the normalizer options differ from the defaults (the user changed them)."""
        default = AlignmentState()
        return self.normalizer_options() != default.normalizer_options()

    def normalizer_options(self) -> dict[str, Any]:
        """Keyword arguments for :func:`core.normalize.normalize`."""
        return {
            "form": None if self.form == "none" else self.form,
            "strip_accents": self.strip_accents,
            "lowercase": self.lowercase,
            "collapse_whitespace": self.collapse_whitespace,
        }

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def from_json(cls, data: Any) -> "AlignmentState":
        """Rebuild from :meth:`to_json` output; unknown or mistyped fields keep defaults."""
        state = cls()
        if not isinstance(data, dict):
            return state
        for name, default in state.__dict__.items():
            value = data.get(name, default)
            if isinstance(value, type(default)):
                setattr(state, name, value)
        if state.mode not in MODES:
            state.mode = "tokenize"
        if state.scheme not in ("auto", *SCHEMES):
            state.scheme = "auto"
        return state


@dataclass(frozen=True)
class Request:
    """A snapshot of the state handed to :func:`compute` (safe to use on another thread)."""

    state: AlignmentState
    tokenizer: Any
    tokenizer_is_demo: bool = True


@dataclass(frozen=True)
class AlignmentResult:
    """Everything one rendering of the pane needs.

    ``spans[i]`` is token ``i``'s original code-point span, or None for tokens after an
    alignment error; ``norm_spans[i]`` the matching span of ``normalized.text``.
    ``audit`` holds :func:`core.audit.audit`'s flags for the leading tokens that have a span;
    ``cover[c]`` (from the audit) counts the tokens covering original code point ``c``;
    ``grapheme_start[i]`` says whether position ``i`` is a grapheme-cluster boundary.
    """

    text: str
    mode: str
    tokens: list[str] = field(default_factory=list)
    ids: list[int | None] = field(default_factory=list)
    spans: list[tuple[int, int] | None] = field(default_factory=list)
    norm_spans: list[tuple[int, int] | None] = field(default_factory=list)
    normalized: NormalizedText | None = None
    utf16: list[int] = field(default_factory=lambda: [0])
    utf8: list[int] = field(default_factory=lambda: [0])
    cover: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    grapheme_start: np.ndarray = field(default_factory=lambda: np.ones(1, bool))  # (n+1,) bool
    token_bytes: list[bytes] | None = None  # byte-level tokenizers: the bytes of each token
    special: list[int] | None = None  # the encoding's special-tokens mask
    audit: Audit | None = None  # core's flags for the tokens that have a span
    labels: list[str] = field(default_factory=list)
    entities: list[Entity] = field(default_factory=list)
    error: str | None = None
    error_pos: int | None = None  # original code point of an alignment mismatch
    error_token: int | None = None
    notice: str | None = None  # an inline message that is not an error
    scheme: str | None = None  # align mode: the scheme the token list was aligned with

    @cached_property
    def _sorted_starts(self) -> list[int]:
        return [sp[0] if sp else 1 << 40 for sp in self.spans]

    @cached_property
    def _sorted_norm_starts(self) -> list[int]:
        return [sp[0] if sp else 1 << 40 for sp in self.norm_spans]

    def tokens_at(self, pos: int) -> list[int]:
        """Indices of the tokens whose original span contains code point ``pos``."""
        return _covering(self.spans, self._sorted_starts, pos)

    def tokens_at_normalized(self, pos: int) -> list[int]:
        """Indices of the tokens whose normalized span contains normalized position ``pos``."""
        return _covering(self.norm_spans, self._sorted_norm_starts, pos)

    def tokens_in(self, start: int, end: int) -> list[int]:
        """Indices of the tokens whose original span overlaps ``[start, end)``."""
        return [i for i, sp in enumerate(self.spans) if sp and sp[0] < end and start < sp[1]]


def _covering(spans: list[tuple[int, int] | None], starts: list[int], pos: int) -> list[int]:
    hi = bisect.bisect_right(starts, pos)
    found = []
    for i in range(hi - 1, max(-1, hi - 64), -1):
        sp = spans[i]
        if sp and sp[0] <= pos < sp[1]:
            found.append(i)
    return sorted(found)


_GRAPHEMES = GraphemeBounds()  # boundaries of the last text, reused for the next keystroke


def _span_arrays(spans: list[tuple[int, int] | None]) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """``(starts, ends, missing)``: int64 arrays (a missing span reads as ``(0, 0)``) and
    the indices of the missing spans."""
    missing = [i for i, sp in enumerate(spans) if sp is None] if None in spans else []
    pairs = [sp or (0, 0) for sp in spans] if missing else spans
    flat = np.fromiter(chain.from_iterable(pairs), np.int64, 2 * len(pairs)).reshape(-1, 2)
    return flat[:, 0], flat[:, 1], missing


def audit_spans(text: str, spans, token_bytes, special, graphemes=None) -> Audit:
    """:func:`core.audit.audit` of the leading tokens that have a span (a pasted list stops
    having spans at its first mismatch)."""
    k = spans.index(None) if None in spans else len(spans)
    lengths = None if token_bytes is None else [len(b) for b in token_bytes[:k]]
    mask = None if special is None else special[:k]
    return audit(text, spans[:k], byte_lengths=lengths, special_tokens_mask=mask, graphemes=graphemes)


def normalized_spans(nt: NormalizedText, spans) -> list[tuple[int, int] | None]:
    """``nt.to_normalized(*span)`` for every span at once (the same two binary searches,
    vectorized); None stays None."""
    return _normalized_spans(nt, _span_arrays(spans))


def _normalized_spans(nt: NormalizedText, arrays) -> list[tuple[int, int] | None]:
    starts, ends, missing = arrays
    n = len(nt.starts)
    lo = np.searchsorted(np.fromiter(nt.ends, np.int64, n), starts, side="right")
    hi = np.maximum(lo, np.searchsorted(np.fromiter(nt.starts, np.int64, n), ends, side="left"))
    out: list[tuple[int, int] | None] = list(zip(lo.tolist(), hi.tolist()))
    for i in missing:
        out[i] = None
    return out


def compute(request: Request) -> AlignmentResult:
    """Tokenize / align / label the request's text with ``core``; never raises on bad input.

    Errors a user can fix (a token list that does not fit, wrong label count, empty or
    oversized text) come back in ``error`` / ``notice`` with the text untouched.
    """
    state = request.state
    text = state.text
    base = AlignmentResult(text=text, mode=state.mode)
    if not text.strip():
        return replace(base, notice="The text is empty: type or paste some text above.")
    if len(text) > MAX_CHARS:
        return replace(base, notice=f"The text has {len(text):,} characters; this pane "
                       f"tokenizes at most {MAX_CHARS:,}. Shorten it to see tokens.")
    if state.mode == "align":
        options = state.normalizer_options()
        partial = align_tokens(text, state.tokens_text, options, scheme=state.scheme,
                               normalize_all=state.normalizer_changed())
    else:
        partial = tokenize(request.tokenizer, text, state.normalizer_options(), request.tokenizer_is_demo)
    result = replace(base, **partial)
    utf16, utf8 = offset_arrays(text)
    bounds = _GRAPHEMES.bounds(text)
    flags = audit_spans(text, result.spans, result.token_bytes, result.special, bounds)
    starts = np.zeros(len(text) + 1, bool)
    starts[bounds] = True
    result = replace(
        result,
        utf16=utf16.tolist(),
        utf8=utf8.tolist(),
        grapheme_start=starts,
        audit=flags,
        cover=flags.cover,
        norm_spans=_normalized_spans(result.normalized, _span_arrays(result.spans)) if result.normalized else [],
    )
    if state.mode == "labels" and result.error is None:
        result = replace(result, **label_entities(result, state.labels_text, state.repair))
    return result
