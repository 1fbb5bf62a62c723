"""The records an alignment result is made of (no Qt, no computation).

:func:`core.align.view.alignment_view` composes them into one
:class:`~core.align.view.AlignmentView`; :mod:`core.align.modes` returns the part each mode
produces (:class:`ModeOutput`). Every field of a record means something whenever the record
is there: what only one mode has is its own record, None in the other modes. Positions are
code points of the original text unless a name says normalized, UTF-16 or UTF-8.

What is asked of :func:`~core.align.view.alignment_view` besides the text and the tokenizer
is one record too, :class:`AlignRequest`.

Public names: :class:`AlignRequest`, :class:`TokenRows`, :class:`SpanLayer`,
:class:`TextTables`, :class:`Labelled`, :class:`AlignedAs`, :class:`Mismatch`,
:class:`ModeOutput`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from core.align.entities import Entity
from core.text.normalize import NormalizedText

Span = tuple[int, int]


@dataclass(frozen=True)
class AlignRequest:
    """What :func:`core.align.view.alignment_view` is asked to do with a text (the options
    of one rendering of the alignment pane, or of ``subwordscope align``).

    Attributes
    ----------
    mode : {"tokenize", "align", "labels"}
        Tokenize with the tokenizer; align a pasted token list; lift pasted BIO labels (one
        per token of the tokenizer) to entities.
    tokens_text : str
        The pasted token list (align mode; ``""`` in the other modes): a JSON list of strings
        or whitespace-separated items.
    labels_text : str
        The pasted labels (labels mode; ``""`` in the other modes), in the same two forms.
    normalizer_options : Mapping | None
        Keyword arguments of :func:`core.text.normalize.normalize` (align mode, and the
        teaching tokenizer's normalizer); None: none.
    normalize_all : bool
        Apply ``normalizer_options`` for every align scheme, not only WordPiece (align mode).
    scheme : str
        ``"auto"`` or one of :data:`core.align.SCHEMES` (align mode).
    repair : bool
        Repair ill-formed BIO sequences instead of reporting them (labels mode).
    tokenizer_is_demo : bool
        The tokenizer is the teaching one: its text is normalized by ``normalizer_options``
        first.
    parse_special_tokens : bool
        False: the text's special-token strings (``<|im_start|>``) are encoded as plain text
        (tokenize and labels modes), as ``tokenizers`` does with ``encode_special_tokens``.
    """

    mode: str = "tokenize"
    tokens_text: str = ""
    labels_text: str = ""
    normalizer_options: Mapping[str, Any] | None = None
    normalize_all: bool = False
    scheme: str = "auto"
    repair: bool = True
    tokenizer_is_demo: bool = False
    parse_special_tokens: bool = True


@dataclass(frozen=True)
class TokenRows:
    """One entry per token, every list as long as ``tokens``, in token order.

    Attributes
    ----------
    tokens : list[str]
        The token strings, as the tokenizer or the pasted list gives them.
    ids : list[int | None]
        Vocabulary ids; None for every token of a pasted list (align mode).
    unknown : list[bool]
        The model's unknown token (by id); align mode: ``[UNK]``-like strings
        (:data:`core.align.UNK_TOKENS`).
    byte_fallback : list[bool]
        A ``<0x..>`` byte piece (empty in align mode: a pasted list has none).
    token_bytes : list[bytes] | None
        Byte-level tokenizers: the bytes each token stands for; None otherwise.
    special : list[int] | None
        The encoding's special-tokens mask (0/1); None for a pasted list.
    derived_spans : Sequence[Span] | None
        The span each token's own content occupies (``Encoding.derived_offsets``, code
        points); None for a pasted list. Equal to the reference spans except where the
        reference library misplaces characters (the audit's ``misleading`` tokens).
    """

    tokens: list[str] = field(default_factory=list)
    ids: list[int | None] = field(default_factory=list)
    unknown: list[bool] = field(default_factory=list)
    byte_fallback: list[bool] = field(default_factory=list)
    token_bytes: list[bytes] | None = None
    special: list[int] | None = None
    derived_spans: Sequence[Span] | None = None

    def __len__(self) -> int:
        return len(self.tokens)


@dataclass(frozen=True)
class SpanLayer:
    """Where the tokens sit, as the span views draw them: one span per token.

    Attributes
    ----------
    spans : Sequence[Span | None]
        Token ``i``'s original span (code points), None for the tokens after an alignment
        mismatch. A :class:`core.text.columns.SpanArray` once
        :func:`~core.align.view.alignment_view` made it (16 bytes a span; indexing gives a
        ``(start, end)`` tuple or None, and it equals such a list).
    norm_spans : Sequence[Span | None]
        The matching spans of the normalized text (empty when nothing was normalized).
    cover : np.ndarray
        ``(n,) int32``: how many of these tokens cover each original code point (special
        tokens count for nothing; :attr:`core.align.audit.Audit.cover`).
    """

    spans: Sequence[Span | None] = field(default_factory=list)
    norm_spans: Sequence[Span | None] = field(default_factory=list)
    cover: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32), repr=False)


@dataclass(frozen=True)
class TextTables:
    """The text's position tables: per original code point, never per token.

    Attributes
    ----------
    normalized : NormalizedText | None
        The text the model saw, with its map back to the original; None when nothing ran
        (an empty or oversized text, a tokenizer that failed).
    utf16, utf8 : Sequence[int]
        ``(n + 1)`` UTF-16 unit / UTF-8 byte offset of code point ``i``
        (:func:`core.text.offsets.int_table`: compact ``array("i")``; index them as lists).
    grapheme_start : np.ndarray
        ``(n + 1,) bool``: whether position ``i`` is a grapheme-cluster boundary.
    """

    normalized: NormalizedText | None = None
    utf16: Sequence[int] = (0,)
    utf8: Sequence[int] = (0,)
    grapheme_start: np.ndarray = field(default_factory=lambda: np.ones(1, bool), repr=False)


@dataclass(frozen=True)
class Labelled:
    """Labels mode: the pasted BIO labels and the entities they give.

    Attributes
    ----------
    labels : list[str]
        The pasted labels, one per token when they fit (else the result's ``error`` says
        how many there were for how many tokens).
    entities : list[Entity]
        The entities (:func:`core.align.entities.entities`), code points of the original
        text; empty when the labels do not fit.
    """

    labels: list[str]
    entities: list[Entity] = field(default_factory=list)


@dataclass(frozen=True)
class AlignedAs:
    """Align mode: how the pasted token list fitted the text.

    Attributes
    ----------
    scheme : str
        One of :data:`core.align.SCHEMES` (the scheme chosen, or detected under ``auto``).
    after_normalizer : bool
        ``auto`` only: the list fitted only after the teaching normalizer (lowercased or
        accent-stripped pieces of a SentencePiece, byte-level or surface list).
    """

    scheme: str
    after_normalizer: bool = False


@dataclass(frozen=True)
class Mismatch:
    """Align mode: where a pasted token list stopped fitting the text.

    Attributes
    ----------
    position : int
        The original code point at which token ``token`` did not match.
    token : int
        The index of the first token that did not fit (it and the rest have no span).
    """

    position: int
    token: int


@dataclass(frozen=True)
class ModeOutput:
    """What one of :mod:`core.align.modes`' token sources produced for a text: its tokens,
    their original spans (None after a mismatch), the normalized text (None when the
    tokenizer failed), and an error a user can fix (None when it went through)."""

    rows: TokenRows = field(default_factory=TokenRows)
    spans: Sequence[Span | None] = field(default_factory=list)
    normalized: NormalizedText | None = None
    error: str | None = None
    mismatch: Mismatch | None = None
    aligned: AlignedAs | None = None
