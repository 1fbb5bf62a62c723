"""The alignment pane's state object and the request it computes from (no Qt).

:class:`AlignmentState` is what the user chose (text, mode, pasted tokens and labels,
normalizer options); :func:`compute` hands a frozen :class:`Request` to
:func:`core.align.view.alignment_view`, which returns everything the pane renders (an
:class:`~core.align.view.AlignmentView`). ``compute`` runs on a worker thread, always.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Sequence

import numpy as np

from app.panes.stored import StoredState
from app.widgets.span_segments import line_breaks, long_run_breaks, merge_breaks, qt_positions
from core.align import SCHEMES
from core.align.modes import MODES, NORMALIZER_FORMS
from core.align.view import AlignmentView, AlignRequest, alignment_view
from core.align.specials import IN_TEXT, special_ids, special_sources
from core.errors import check_stop
from core.metrics.text_stats import count_words
from core.text.graphemes import GraphemeBounds
from core.text.offsets import utf16_table
from core.tokenizers import TokenizerLike

DEMO_TEXT = "Zoe\u0301 flew  to \u0130stanbul \U0001F600 with Nvidia \ufb01nal"
DEMO_TOKENS = "zoe flew to istanbul [UNK] with nv ##id ##ia final"
DEMO_LABELS = "B-PER O O B-LOC O O B-ORG O O O"
CHARS_AHEAD = 50_000  # code points: from this length on, the worker finds a text's distinct characters
TOKENIZER_FILE_FILTER = "Tokenizer files (*.json *.txt *.tiktoken *.model);;All files (*)"
"""The file dialogs' filter wherever a tokenizer file is chosen."""


@dataclass
class AlignmentState(StoredState):
    """What the user chose; everything the pane shows is derived from this and the tokenizer.

    Stored with :meth:`~app.panes.stored.StoredState.to_dict` / ``from_dict``: the mode,
    form and scheme must be among their choices; the texts have no length cap here (the
    pane decides how much of a long text it saves).
    """

    text: str = DEMO_TEXT
    mode: str = "tokenize"
    tokens_text: str = DEMO_TOKENS
    labels_text: str = DEMO_LABELS
    form: str = "NFKD"  # "NFC", "NFD", "NFKC", "NFKD" or "none"
    strip_accents: bool = True
    lowercase: bool = True
    collapse_whitespace: bool = True
    repair: bool = True
    chat: bool = False  # Chat mode: the messages, rendered by the tokenizer's template, are the text
    chat_messages: str = ""  # Chat mode's messages as JSON ("": the default messages)
    chat_generation: bool = True  # Chat mode's add_generation_prompt
    scheme: str = "auto"  # align mode: "auto" or a core.align scheme
    derived_spans: bool = False  # the span views show derived spans instead of the reference's
    decoded_view: bool = True  # the Decoded (round trip) view is unfolded
    parse_special: bool = True  # the text's special-token strings become special ids
    colour_by_id: bool = True  # the span views colour tokens by id (else alternating colours)

    CHOICES: ClassVar[dict[str, Any]] = {"mode": tuple(MODES), "form": NORMALIZER_FORMS, "scheme": ("auto", *SCHEMES)}
    LENGTHS: ClassVar[dict[str, int | None]] = {"text": None, "tokens_text": None, "labels_text": None,
                                                "chat_messages": 1_000_000}

    def normalizer_changed(self) -> bool:
        """Whether the normalizer options differ from the defaults (the user changed them)."""
        default = AlignmentState()
        return self.normalizer_options() != default.normalizer_options()

    def normalizer_options(self) -> dict[str, Any]:
        """Keyword arguments for :func:`core.text.normalize.normalize`."""
        return {
            "form": None if self.form == "none" else self.form,
            "strip_accents": self.strip_accents,
            "lowercase": self.lowercase,
            "collapse_whitespace": self.collapse_whitespace,
        }


@dataclass(frozen=True)
class Request:
    """A snapshot of the state handed to :func:`compute` (safe to use on another thread).

    ``graphemes`` keeps the grapheme-cluster boundaries of the last text computed, reused for
    the next one: the pane passes its own instance with every request (the default, a fresh
    one, recomputes them all).
    """

    state: AlignmentState
    tokenizer: TokenizerLike
    tokenizer_is_demo: bool = True
    graphemes: GraphemeBounds = field(default_factory=GraphemeBounds, compare=False)


def compute(request: Request, should_stop: Callable[[], bool] | None = None) -> AlignmentView:
    """Tokenize / align / label the request's text (:func:`core.align.view.alignment_view`);
    never raises on bad input: errors a user can fix come back in ``error`` / ``notice``.

    Raises
    ------
    core.errors.Cancelled
        If ``should_stop()`` returned True (the pane superseded or cancelled the request).
    """
    state = request.state
    check_stop(should_stop)
    asked = AlignRequest(mode=state.mode, tokens_text=state.tokens_text, labels_text=state.labels_text,
                         normalizer_options=state.normalizer_options(), normalize_all=state.normalizer_changed(),
                         scheme=state.scheme, repair=state.repair, tokenizer_is_demo=request.tokenizer_is_demo,
                         parse_special_tokens=state.parse_special)
    result = alignment_view(state.text, request.tokenizer, asked, graphemes=request.graphemes, should_stop=should_stop)
    check_stop(should_stop)
    _warm(result)
    return result


def _warm(result: AlignmentView) -> None:
    """Compute here, on the worker, what the pane would otherwise compute on the GUI thread
    the first time it draws or hovers: the views' lazily built per-token lists (O(tokens))."""
    result.marked, result.unknown_summary  # noqa: B018 - cached properties, filled now
    result.tokens_at(0), result.tokens_at_normalized(0)
    if result.misleading:
        result.derived_view.tokens_at(0)


@dataclass(frozen=True)
class Prepared:
    """A result with what drawing it needs that grows with the text, computed on the worker
    so the GUI thread does not: the distinct characters of the original and normalized
    texts (for the missing-font check; None below :data:`CHARS_AHEAD`), where the
    normalized view shows the original's line breaks (and both views break long stretches
    with no space, :func:`~app.widgets.span_segments.long_run_breaks`) and their Qt position tables
    (:func:`~app.widgets.span_segments.line_breaks`,
    :func:`~app.widgets.span_segments.qt_positions`), and (set by the
    pane, which knows its widgets) the token table's per-row arrays and the original span
    view's marks (for ``marks_derived``: drawn with derived spans or not)."""

    view: AlignmentView
    chars: frozenset[str] | None  # None for a short text (see _chars)
    norm_chars: frozenset[str] | None
    norm_utf16: Sequence[int]  # the normalized view's Qt positions: its utf16_table with norm_breaks
    norm_breaks: Any = None  # (k,) int64: where the normalized view shows the original's line breaks
    rows: Any = None
    marks: Any = None  # the original view's marks, drawn with derived spans or not:
    marks_derived: bool = False
    breaks: Any = None  # (k,) int64: where the original view breaks long stretches with no space
    utf16: Any = None  # the original view's Qt positions: the text's utf16 table with ``breaks``
    counts: TextCounts | None = None  # the count above the views (None for an empty result)
    specials: Any = None  # (tokens,) int8: core.align.specials.special_sources of the result
    special_texts: tuple[tuple[str, int], ...] = ()  # special tokens found in the text, with counts


@dataclass(frozen=True)
class TextCounts:
    """What the large count above the views says: tokens, code points, UTF-8 bytes and words
    (:func:`core.metrics.text_stats.count_words`: grapheme clusters for a script written
    without spaces, then ``words_are_characters``)."""

    tokens: int
    characters: int
    utf8_bytes: int
    words: int
    words_are_characters: bool

    @classmethod
    def of(cls, view: AlignmentView) -> TextCounts:
        """The counts of a result (O(n): run on the worker)."""
        words, by_character = count_words(view.text)
        size = len(view.text.encode("utf-8", "surrogatepass"))  # a lone surrogate as its 3 bytes
        return cls(len(view.tokens), len(view.text), size, words, by_character)


def prepare(request: Request, should_stop: Callable[[], bool] | None = None) -> Prepared:
    """:func:`compute`, then what the pane needs to draw the result (O(n), on the worker).

    Raises
    ------
    core.errors.Cancelled
        If ``should_stop()`` returned True.
    """
    view = compute(request, should_stop)
    nt = view.normalized
    breaks = long_run_breaks(view.text)
    ran = len(view.tables.utf16) == len(view.text) + 1  # else an oversized text, shown untokenized
    table = view.tables.utf16 if ran else utf16_table(view.text)
    utf16 = qt_positions(table, breaks) if len(breaks) else table
    counts = TextCounts.of(view)
    specials = special_sources(view.text, view.tokens, view.rows.ids, view.spans, view.rows.special,
                               special_ids(request.tokenizer))
    found = Counter(view.tokens[j] for j in np.flatnonzero(specials == IN_TEXT).tolist())
    extra = {"counts": counts, "specials": specials, "special_texts": tuple(found.most_common())}
    if nt is None:
        return Prepared(view, _chars(view.text), frozenset(), utf16_table(""), line_breaks("", "", None),
                        breaks=breaks, utf16=utf16, **extra)
    norm_breaks = merge_breaks(line_breaks(nt.original, nt.text, nt.arrays()[1]), long_run_breaks(nt.text))
    return Prepared(view, _chars(view.text), _chars(nt.text), qt_positions(utf16_table(nt.text), norm_breaks),
                    norm_breaks, breaks=breaks, utf16=utf16, **extra)


def _chars(text: str) -> frozenset[str] | None:
    """The distinct characters of ``text`` when it has :data:`CHARS_AHEAD` code points or
    more, else None. A span view reads them only when it resets its document (a paste),
    never after a keystroke (it checks the inserted characters); below the threshold it
    finds them itself at once (O(n) at C speed, < 1 ms), so the keystroke's worker does
    not spend that time ahead for nothing."""
    return frozenset(text) if len(text) >= CHARS_AHEAD else None
