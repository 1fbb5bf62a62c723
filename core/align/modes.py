"""The alignment view's three ways to get tokens for a text (no Qt).

- :func:`tokenize`: the chosen tokenizer's tokens, ids and offsets;
- :func:`align_tokens`: a pasted token list (JSON list or whitespace-separated) aligned with
  :func:`core.align.align`;
- :func:`label_entities`: the current tokenization plus one pasted BIO label per token, lifted
  to entities with :func:`core.align.entities.entities`.

:func:`tokenize` and :func:`align_tokens` return a :class:`~core.align.records.ModeOutput`,
:func:`label_entities` a :class:`~core.align.records.Labelled` and an error; errors a user can
fix come back as ``error`` (with a :class:`~core.align.records.Mismatch` for a list that stops
fitting), never raised.

Public names: :data:`MODES`, :data:`SCHEME_NAMES`, :data:`SCHEME_MARKERS`, :data:`NORMALIZER_FORMS`, :data:`MAX_CHARS`, :data:`MAX_TOKENS`,
:func:`parse_list`, :func:`tokenize`, :func:`align_tokens`, :func:`label_entities`.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any, Callable

from core.align.cursor import SCHEME_NAMES, UNK_TOKENS, AlignmentError, align, detect_scheme
from core.align.entities import LabelError, entities
from core.align.records import AlignedAs, Labelled, Mismatch, ModeOutput, TokenRows
from core.errors import SubwordScopeError
from core.text.columns import SpanArray
from core.text.normalize import NormalizedText, normalize
from core.text.unicode_forms import FORMS
from core.tokenizers.normalizers import Teaching
from core.tokenizers.protocol import TokenizerLike

MODES = {
    "tokenize": "Tokenize",
    "align": "Align a token list",
    "labels": "Labels (BIO)",
}
"""Mode key → the name the app shows."""

SCHEME_MARKERS = {"wordpiece": "##", "sentencepiece": "\u2581", "bytelevel": "\u0120"}
"""How a scheme's tokens mark word pieces (surface strings carry no marker)."""
NORMALIZER_FORMS = (*FORMS, "none")
"""The teaching normalizer's form choices: a Unicode normalization form, or ``"none"``."""
MAX_CHARS = 1_000_000  # longer texts are kept but not tokenized (code points)
MAX_TOKENS = 500_000  # longer pasted token / label lists are refused


_JSON_LIST = re.compile(r"\[\s*(?:[\"'\[\]{0-9-]|\Z)")
"""How a pasted JSON list starts: ``[`` then, after optional whitespace, a string (``"``, or
``'`` for a Python-style list that should get the JSON message), a list, ``]``, an object, a
number, or nothing. ``[CLS] un ##able [SEP]`` and ``[UNK]`` do not: they are whitespace-separated
tokens."""


def looks_like_json_list(raw: str) -> bool:
    """Whether ``raw`` (stripped) starts as a JSON array does (see :data:`_JSON_LIST`), so that
    :func:`parse_list` reads it as JSON rather than as whitespace-separated items."""
    return _JSON_LIST.match(raw.strip()) is not None


def parse_list(raw: str, what: str) -> list[str]:
    """A pasted list: a JSON list of strings, or whitespace-separated items.

    It is read as JSON when it starts as a JSON array does (:func:`looks_like_json_list`:
    ``["un", …``, ``[]``, ``[[…``), else split at whitespace — so bracketed special tokens
    (``[CLS] un ##able [SEP]``) are items, not broken JSON.

    Raises
    ------
    SubwordScopeError
        If it looks like JSON but does not parse or is not a flat list of strings (also when
        nested deeper than Python's parser goes), or it has more than :data:`MAX_TOKENS` items.
    """
    raw = raw.strip()
    if looks_like_json_list(raw):
        try:
            items = json.loads(raw)
        except RecursionError:  # lists inside lists thousands deep: not a list of strings
            raise SubwordScopeError(f"the JSON {what} are nested too deep; paste a flat list of "
                                    "strings") from None
        except ValueError as exc:
            quotes = "; JSON strings take double quotes" if re.match(r"\[\s*'", raw) else ""
            raise SubwordScopeError(f"the {what} look like JSON but do not parse: {exc}{quotes}") from None
        if not isinstance(items, list) or not all(isinstance(t, str) for t in items):
            raise SubwordScopeError(f"the JSON {what} must be a list of strings")
    else:
        items = raw.split()
    if len(items) > MAX_TOKENS:
        raise SubwordScopeError(f"{len(items):,} {what} pasted; at most {MAX_TOKENS:,} are accepted")
    return items


def tokenize(tokenizer: TokenizerLike, text: str, options: dict, is_demo: bool,
             should_stop: Callable[[], bool] | None = None, parse_special_tokens: bool = True) -> ModeOutput:
    """Encode ``text`` (without the template's special tokens); the demo honours the
    normalizer options. ``should_stop`` is handed to the tokenizer's ``encode`` (it raises
    ``Cancelled``); ``parse_special_tokens=False`` encodes the text's special-token strings
    (``<|im_start|>``) as plain text (:meth:`core.tokenizers.Tokenizer.encode`)."""
    try:
        if is_demo:
            tokenizer = _with_teaching(tokenizer, options)
        extra = {} if parse_special_tokens else {"parse_special_tokens": False}
        enc = tokenizer.encode(text, add_special_tokens=False, should_stop=should_stop, **extra)
    except SubwordScopeError as exc:
        return ModeOutput(error=f"The tokenizer could not encode this text: {exc}")
    rows = TokenRows(
        tokens=list(enc.tokens),
        ids=list(enc.ids),
        unknown=list(enc.unknown_mask),
        byte_fallback=list(enc.byte_fallback_mask),
        token_bytes=enc.token_bytes if getattr(enc, "byte_level", False) else None,
        special=list(enc.special_tokens_mask),
        derived_spans=_spans(enc.derived_offsets),
    )
    return ModeOutput(rows, _spans(enc.offsets), enc.normalized)


def _spans(offsets) -> Any:
    """Offsets as tuples; a compact SpanArray (long encodings) as it is."""
    return offsets if isinstance(offsets, SpanArray) else [tuple(o) for o in offsets]


def align_tokens(text: str, tokens_text: str, options: dict, *, scheme: str = "auto",
                 normalize_all: bool = False, should_stop: Callable[[], bool] | None = None) -> ModeOutput:
    """Align the pasted tokens; on a mismatch keep the spans of the tokens that fit.

    ``scheme`` is ``"auto"`` or one of :data:`core.align.SCHEMES`. Auto follows
    :func:`core.align.align`'s detection (markers decide; a list without markers is tried
    as surface strings, then as WordPiece) and reports which scheme fitted; SentencePiece
    and byte-level lists are matched against the text as it is, then against the teaching
    normalizer's text (pieces given lowercased or without accents), as surface strings are
    tried before WordPiece. The teaching normalizer with ``options`` is used for WordPiece,
    and for every scheme when ``normalize_all`` (the user changed the options).
    ``should_stop`` is polled inside the cursor walk (``Cancelled`` is raised).
    """
    try:
        tokens = parse_list(tokens_text, "tokens")
    except SubwordScopeError as exc:
        return ModeOutput(normalized=normalize(text, **options), error=f"Token list: {exc}")
    if not tokens:
        return ModeOutput(normalized=normalize(text, **options),
                          error="Paste a token list (a JSON list or tokens separated by spaces).")
    rows = TokenRows(tokens, [None] * len(tokens), [t in UNK_TOKENS for t in tokens])
    errors = []
    for name, normalized in _attempts(tokens, scheme, normalize_all):
        nt = normalize(text, **options) if normalized else NormalizedText.identity(text)
        lowercase = _lowercase_state(options, normalized)
        try:
            spans = align(text, tokens, scheme=name, normalizer=lambda _, nt=nt: nt, lowercase=lowercase,
                          should_stop=should_stop)
        except AlignmentError as exc:
            errors.append((exc.token_index, name, nt, exc))
            continue
        return ModeOutput(rows, spans, nt, aligned=AlignedAs(
            name, after_normalizer=normalized and scheme == "auto" and name != "wordpiece"))
    _, name, nt, exc = max(errors, key=lambda e: e[0])  # the attempt that got furthest
    good = align(text, tokens[: exc.token_index], scheme=name, normalizer=lambda _: nt,
                 should_stop=should_stop)
    message = str(exc).replace(f" — {exc.hint}", "") if exc.hint else str(exc)
    return ModeOutput(
        rows, good + [None] * (len(tokens) - len(good)), nt,
        error=f"The token list does not fit the text ({SCHEME_NAMES[name]} tokens): {message}"
        + (f"\nHint: {exc.hint}." if exc.hint else ""),
        mismatch=Mismatch(exc.original_cursor, exc.token_index),
        aligned=AlignedAs(name),
    )


def _attempts(tokens: list[str], scheme: str, normalize_all: bool) -> list[tuple[str, bool]]:
    """``(scheme, normalized?)`` pairs to try in order (see :func:`align_tokens`)."""
    if scheme != "auto":
        return [(scheme, normalize_all or scheme == "wordpiece")]
    detected = detect_scheme(tokens)
    if detected == "surface":
        return [("surface", normalize_all), ("wordpiece", True)]
    if detected == "wordpiece" or normalize_all:
        return [(detected, True)]
    return [(detected, False), (detected, True)]


def _lowercase_state(options: dict, normalized: bool) -> str:
    """What the Lowercase option did for one attempt (:data:`core.align.cursor.LOWERCASE_STATES`)."""
    if not options.get("lowercase", True):
        return "off"
    return "applied" if normalized else "ticked"


def label_entities(text: str, tokens: list[str], spans: list, labels_text: str,
                   repair: bool) -> tuple[Labelled | None, str | None]:
    """Entities of a tokenization (``tokens`` with their original ``spans``) from one pasted
    BIO label per token: ``(labelled, error)``; ``labelled`` is None when the labels do not
    parse, its entities empty when they do not fit (``error`` says why)."""
    try:
        labels = parse_list(labels_text, "labels")
    except SubwordScopeError as exc:
        return None, f"Labels: {exc}"
    if len(labels) != len(tokens):
        return Labelled(labels), (f"{len(labels)} labels for {len(tokens)} tokens: give exactly one "
                                  "BIO label per token (B-X, I-X or O).")
    try:
        found = entities(text, tokens, spans, labels, repair=repair)
    except LabelError as exc:
        return Labelled(labels), f"Labels: {exc}"
    return Labelled(labels, found), None


def _with_teaching(tokenizer: TokenizerLike, options: dict) -> Any:
    """A copy of the demo tokenizer with its teaching normalizer's steps set from ``options``."""
    tokenizer = copy.copy(tokenizer)
    tokenizer.normalizer = Teaching(**options)
    return tokenizer
