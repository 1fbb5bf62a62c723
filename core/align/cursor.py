"""Align a token list from any system back to spans of the original text (SPEC §2).

A cursor walks over the normalized text; each token must match at the cursor (after
skipping spaces where the scheme allows it), so a repeated word always maps to its own
occurrence. There is never a fallback to searching. Spans are half-open code-point offsets
into the *original* text, mapped through the normalizer's offset map.

Public names: :func:`align`, :func:`detect_scheme`, :class:`AlignmentError`,
:data:`SCHEMES`, :data:`UNK_TOKENS`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from typing import Callable, Sequence

import numpy as np
import regex

from core.align.runs import MIN_RUN, PlainRuns
from core.align.unknown import Failure, walk
from core.collector import collector_paused
from core.errors import SubwordScopeError, check_stop
from core.text.byte_alphabet import to_byte_level
from core.text.normalize import NormalizedText, image_chars, normalize
from core.tokenizers import chars
from core.tokenizers.normalizers import BertNormalizer, Compose

SCHEME_NAMES = {
    "wordpiece": "WordPiece",
    "sentencepiece": "SentencePiece",
    "bytelevel": "byte-level",
    "surface": "surface",
}
"""Each way a pasted token list marks word pieces (its key), as the app and the error
messages name it."""
SCHEMES = tuple(SCHEME_NAMES)
METASPACE = "\u2581"
UNK_TOKENS = frozenset({"[UNK]", "<unk>", "<UNK>", "[unk]"})
"""Token strings that stand for "whatever pre-tokenized unit is at the cursor"."""

_SPECIAL = regex.compile(r"\[[A-Z_]+\]|<\|[^|\s]+\|>|</?s>|<(?:pad|mask|bos|eos|cls|sep)>")
_CONTEXT = 12  # characters of normalized text quoted in an error


class AlignmentError(SubwordScopeError):
    """A token does not fit the text at the cursor.

    Attributes
    ----------
    token_index : int
        Index of the offending token in the token list.
    token : str
        The offending token.
    cursor : int
        Position in the normalized text (code points) where it was expected.
    original_cursor : int
        The same position in the original text (code points), for highlighting.
    found : str
        Normalized text at the cursor (up to a dozen characters).
    hint : str
        Why a token that looks right does not fit (a normalization form, letter case), or "".
    """

    def __init__(self, token_index: int, token: str, cursor: int, original_cursor: int, found: str,
                 *, lowercase: str | None = None):
        self.token_index = token_index
        self.token = token
        self.cursor = cursor
        self.original_cursor = original_cursor
        self.found = found
        self.hint = _hint(token, found, lowercase)
        shown = found if found else "the end of the text"
        super().__init__(
            f"token {token_index} {token!r} does not match the text at position "
            f"{original_cursor} (normalized position {cursor}): found {shown!r}"
            + (f" — {self.hint}" if self.hint else "")
        )


LOWERCASE_STATES = ("applied", "ticked", "off")
"""What the caller's lowercasing option did (for the case hint): ``"applied"`` — the text was
lowercased; ``"ticked"`` — the option is on but this scheme matched the text as it is;
``"off"`` — the option is off."""


def _hint(token: str, found: str, lowercase: str | None = None) -> str:
    """Say why a token that looks right does not match: case or normalization form."""
    core = token[2:] if token.startswith("##") else token.strip().lstrip(METASPACE)
    if not core or not found:
        return ""
    for form in ("NFC", "NFKC"):
        a, b = unicodedata.normalize(form, core), unicodedata.normalize(form, found.lstrip())
        if b.startswith(a):
            if not found.lstrip().startswith(core):
                return (f"they are equal after {form} normalization: the token list and the "
                        "text use different Unicode normalization forms")
            return ""
        if b.casefold().startswith(a.casefold()):
            return _case_hint(a, b[: len(a)], lowercase)
    return ""


def _case_hint(token: str, found: str, lowercase: str | None) -> str:
    """The letter-case hint, never asking for an option that is already on."""
    base = "they differ only in letter case"
    if token != token.lower() and found == found.lower():  # the tokens are cased, the text not
        if lowercase == "applied":
            return f"{base}: the normalizer lowercases the text but the tokens keep capitals — turn Lowercase off"
        return f"{base}: the tokens have capitals that the text does not have"
    if lowercase == "off":
        return f"{base}: turn Lowercase on to lowercase the text"
    if lowercase == "ticked":
        return (f"{base}: Lowercase is on, but these tokens are matched against the text as it "
                "is — choose the WordPiece scheme, or change a normalizer option so that the "
                "normalizer applies to every scheme")
    if lowercase == "applied":
        return base
    return f"{base}: choose a normalizer that lowercases, or none"


def _skip_spaces(text: str, cur: int) -> int:
    while cur < len(text) and text[cur].isspace():
        cur += 1
    return cur


def _is_special(token: str) -> bool:
    return token not in UNK_TOKENS and _SPECIAL.fullmatch(token) is not None


def _match(text: str, cur: int, token: str, scheme: str) -> tuple[int, int] | None:
    """Return the normalized span ``token`` covers at ``cur``, or None when it does not fit."""
    if scheme == "bytelevel":
        return (cur, cur + len(token)) if token and text.startswith(token, cur) else None
    if scheme == "wordpiece" and token.startswith("##") and len(token) > 2:
        piece = token[2:]
        return (cur, cur + len(piece)) if text.startswith(piece, cur) else None
    if token[:1].isspace() and text.startswith(token, cur):  # a decoded piece: " world"
        return cur, cur + len(token)
    start = _skip_spaces(text, cur)
    if token and text.startswith(token, start):
        return start, start + len(token)
    bare = token.strip()  # its whitespace is not in the (normalized) text
    return (start, start + len(bare)) if bare and bare != token and text.startswith(bare, start) else None


def _marker_lookahead(tokens: Sequence[str]) -> list[int]:
    """For each token, how many ``▁`` follow it in the token stream before anything else
    (counting only through tokens made entirely of ``▁``)."""
    after = [0] * len(tokens)
    run = 0
    for i in range(len(tokens) - 1, -1, -1):
        after[i] = run
        tok = tokens[i] if isinstance(tokens[i], str) else ""
        lead = len(tok) - len(tok.lstrip(METASPACE))
        run = lead + run if tok and lead == len(tok) else lead
    return after


def _match_metaspace(text: str, cur: int, token: str, lookahead: int) -> tuple[int, int] | None:
    """Match a SentencePiece piece at ``cur``: each ``▁`` stands for the whitespace run
    there, leaving one whitespace character for each ``▁`` that follows it."""
    j = cur
    first = None
    for k, ch in enumerate(token):
        if ch == METASPACE:
            rest = len(token) - k - 1 - len(token[k + 1 :].lstrip(METASPACE))
            follow = rest + (lookahead if token[k:].strip(METASPACE) == "" else 0)
            run = _skip_spaces(text, j) - j
            take = max(1, run - follow) if run else 0
            if first is None and take:
                first = j
            j += take
        elif j < len(text) and text[j] == ch:
            first = j if first is None else first
            j += 1
        else:
            return None
    return (cur if first is None else first, j) if first is not None else (cur, cur)


def _byte_level_text(nt: NormalizedText) -> NormalizedText:
    """Every character becomes its UTF-8 bytes in the GPT-2 byte-to-unicode alphabet, each
    byte carrying the character's span (so pieces of one character share its span)."""
    return nt.map_chars_cached(to_byte_level, {})  # no character maps to "": nothing dropped


def detect_scheme(tokens: Sequence[str]) -> str:
    """Guess how a token list marks word boundaries.

    ``"wordpiece"`` when a token starts with ``##``; ``"sentencepiece"`` when one contains
    ``▁``; ``"bytelevel"`` when one contains a GPT-2 byte-alphabet stand-in for whitespace
    or control bytes (``Ġ``, ``Ċ``, ``ĉ``, U+0100–U+0143); otherwise ``"surface"``.
    """
    strs = [t for t in tokens if isinstance(t, str)]
    if any(t.startswith("##") and len(t) > 2 for t in strs):
        return "wordpiece"
    if any(METASPACE in t for t in strs):
        return "sentencepiece"
    if any("\u0100" <= c <= "\u0143" for t in strs for c in t):
        return "bytelevel"
    return "surface"


def _walk(nt: NormalizedText, tokens: Sequence[str], scheme: str, lowercase: str | None = None,
          should_stop: Callable[[], bool] | None = None) -> list[tuple[int, int]]:
    """Match every token at the cursor, searching unknown tokens' ends (:mod:`.unknown`).
    O(T + N) for T tokens and N normalized code points on real token lists."""
    text = nt.text
    lookahead = _marker_lookahead(tokens) if scheme == "sentencepiece" else None
    special: dict[str, bool] = {}  # per distinct token: O(T) regex calls at most
    for i, token in enumerate(tokens):
        if not isinstance(token, str):  # before any search: a malformed list is not text
            raise AlignmentError(i, repr(token), 0, 0, text[:_CONTEXT])
        if token not in special:
            special[token] = _is_special(token)

    def match(i: int, cur: int) -> tuple[int, int] | None:
        token = tokens[i]
        if scheme == "bytelevel":  # the common case first: one C call
            if token and text.startswith(token, cur):
                return cur, cur + len(token)
            return (cur, cur) if special[token] else None
        if scheme == "wordpiece" and len(token) > 2 and token[:2] == "##":
            piece = token[2:]
            return (cur, cur + len(piece)) if text.startswith(piece, cur) else (
                (cur, cur) if special[token] else None)
        if scheme == "sentencepiece" and not special[token]:
            span = _match_metaspace(text, cur, token, lookahead[i]) if token else None
        else:
            span = _match(text, cur, token, scheme)
            if span is None and special[token] and token.lower() != token:
                # written in the text, where a lower-casing normalizer changed it ([CLS] ->
                # [cls]: the tokenizer found it before normalizing)
                span = _match(text, cur, token.lower(), scheme)
        return (cur, cur) if span is None and special[token] else span

    found = walk(text, tokens, match, [t in UNK_TOKENS for t in tokens], should_stop=should_stop,
                 runs=_plain_runs(text, tokens, scheme, special))
    if isinstance(found, Failure):
        i, cur, token = found.token_index, found.cursor, tokens[found.token_index]
        no_skip = scheme in ("bytelevel", "sentencepiece") or (scheme == "wordpiece" and token.startswith("##"))
        at = cur if no_skip and token not in UNK_TOKENS else _skip_spaces(text, cur)
        pos = nt.to_original(at, at)[0]
        raise AlignmentError(i, token, at, pos, text[at : at + _CONTEXT], lowercase=lowercase)
    return _to_original(nt, found)


RUNS_FROM = MIN_RUN
"""Shortest run of plain tokens the walk matches at once (:mod:`core.align.runs`)."""
_WHITESPACE = regex.compile(r"\s")  # str.isspace
_ANY_SPACE = frozenset(chr(c) for c in range(0x3001) if chr(c).isspace())


def _plain_runs(text: str, tokens: Sequence[str], scheme: str, special: dict[str, bool]
                ) -> Callable[[int, int], list[tuple[int, int]] | None] | None:
    """The walk's matcher of plain runs (:mod:`core.align.runs`) for the byte-level and
    WordPiece schemes, built in O(T) (each distinct token looked at once); None for the
    other schemes."""
    if scheme not in ("bytelevel", "wordpiece") or len(tokens) < RUNS_FROM:
        return None
    piece: dict[str, str | None] = {}
    for token in special:
        if special[token] or token in UNK_TOKENS or not token or _WHITESPACE.search(token):
            piece[token] = None
        elif scheme == "wordpiece" and len(token) > 2 and token[:2] == "##":
            piece[token] = token[2:]
        else:
            piece[token] = token
    pieces = list(map(piece.__getitem__, tokens))
    hashes = {t: scheme == "wordpiece" and len(t) > 2 and t[:2] == "##" for t in special}
    continuation = map(hashes.__getitem__, tokens)
    return PlainRuns(text, pieces, continuation, scheme, RUNS_FROM).match


def _to_original(nt: NormalizedText, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``[nt.to_original(*span) for span in spans]`` for spans known to be in range, with
    numpy: O(T)."""
    if not spans:
        return []
    n = len(nt.text)
    starts, ends = nt.arrays()
    at = np.array(spans, dtype=np.int64)
    a, b = at[:, 0], at[:, 1]
    tail = ends[-1] if n else len(nt.original)  # where an empty span at the end maps
    first = np.append(starts, tail)[a]
    last = np.where(a == b, first, ends[np.maximum(b - 1, 0)] if n else first)
    return list(zip(first.tolist(), last.tolist()))


def _clean(c: str) -> str:
    return "" if chars.is_control(c) else c


def _compatibility(original: str) -> NormalizedText:
    """NFKC with control and format characters removed (what SentencePiece's ``nmt_nfkc``
    rules and BERT's clean-text step do); O(N)."""
    return _NFKC.normalize(NormalizedText.identity(original).map_chars_cached(_clean, {}))


def _bert(original: str) -> NormalizedText:
    """BERT's normalizer without CJK spacing (clean text, NFD accent stripping, lowercase)."""
    return _BERT.normalize(NormalizedText.identity(original))


_NFKC = Compose("NFKC")
_BERT = BertNormalizer(handle_chinese_chars=False)
Attempt = tuple[Callable[[str], NormalizedText], Callable[[str], NormalizedText] | None]


def _attempts(scheme: str) -> tuple[Attempt, ...]:
    """``(text normalizer, token normalizer)`` pairs tried in order when the caller gives
    no normalizer: the scheme's default on the text alone (the teaching normalizer for
    WordPiece, none otherwise), then the normalization the tokenizers of that family use
    (BERT's; NFKC without control characters) on the text *and* on every token, since a
    tokenizer's pieces come in its own normalization form. Byte-level pieces are never
    normalized (their alphabet is not text)."""
    if scheme == "wordpiece":
        return ((normalize, None), (_bert, _bert))
    if scheme == "bytelevel":
        return ((NormalizedText.identity, None), (_compatibility, None))
    return ((NormalizedText.identity, None), (_compatibility, _compatibility))


def _distinct_strings(tokens: Sequence) -> list[str]:
    """The distinct ``str`` items of ``tokens`` (a set built in C; item by item when one is
    unhashable). O(T)."""
    try:
        distinct = set(tokens)
    except TypeError:
        distinct = set(t for t in tokens if isinstance(t, str))
    return [t for t in distinct if isinstance(t, str)]


def _normalize_tokens(tokens: Sequence[str], fn: Callable[[str], NormalizedText]) -> list:
    """Each token in ``fn``'s normalization (a ``##`` prefix, unknown and special tokens
    kept as they are); O(total token length), each distinct token normalized once."""
    seen: dict[str, str] = {}
    for token in _distinct_strings(tokens):
        if token in UNK_TOKENS or _is_special(token) or not token:
            seen[token] = token
        else:
            head = "##" if token.startswith("##") and len(token) > 2 else ""
            seen[token] = head + fn(token[len(head):]).text
    return [seen[t] if isinstance(t, str) else t for t in tokens]


def align(
    original: str,
    tokens: Sequence[str],
    *,
    scheme: str | None = None,
    normalizer: Callable[[str], NormalizedText] | None = None,
    lowercase: str | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> list[tuple[int, int]]:
    """Map each token to its half-open code-point span in ``original`` (SPEC §2).

    Parameters
    ----------
    original : str
        The text the tokens came from.
    tokens : sequence of str
        The token list, e.g. BERT's ``["zoe", "fi", "##x"]``.
    scheme : {"wordpiece", "sentencepiece", "bytelevel", "surface"} or None
        ``"wordpiece"``: a ``##`` piece must match exactly at the cursor, any other token
        after skipping spaces. ``"sentencepiece"``: ``▁`` stands for the whitespace run
        before the piece (one whitespace character is left for each further ``▁`` that
        follows). ``"bytelevel"``: tokens are GPT-2 byte-alphabet strings (``Ġ`` = the
        space byte) matched byte for byte, no skipping. ``"surface"``: plain substrings
        of the text, matched after skipping spaces; a piece that starts with whitespace
        (a decoded token such as tiktoken's ``" world"``) matches with that whitespace at
        the cursor, or without it where the text has none there. None detects the scheme with
        :func:`detect_scheme`; a list without markers is tried as ``"surface"`` and then
        as ``"wordpiece"`` (the error of the attempt that got further is raised).
    normalizer : callable, optional
        ``text -> NormalizedText``. Default: the teaching normalizer (:func:`normalize`)
        for ``"wordpiece"``, none for the other schemes.
    lowercase : {"applied", "ticked", "off"} or None
        What the caller's lowercasing option did (:data:`LOWERCASE_STATES`), so that a
        letter-case hint never asks for an option that is already on; None: not known.
    should_stop : callable, optional
        Asked before each normalization tried and every 1,024 token matches of the walk;
        True raises :class:`~core.errors.Cancelled`.

    Returns
    -------
    list of (int, int)
        One original span per token, in code points. Conventions: a marker that stands
        for whitespace (``▁``, ``Ġ``) includes that whitespace in its span (untrimmed); a
        lone ``▁`` that consumes no character (a dummy prefix) gets an empty span at its
        position; a byte-level piece owns every character whose UTF-8 bytes it contains,
        so pieces of one character share that character's span; a mark the normalizer
        drops is folded into the preceding character's span. ``[UNK]``/``<unk>`` takes
        the whole pre-tokenized unit at the cursor (a run of word characters, or one
        other non-space character). A special token such as ``[CLS]`` or ``</s>`` that
        is not in the text gets an empty span at the cursor. Text left after the last
        token is allowed (a truncated encoding); :mod:`core.align.audit` reports it.

    Raises
    ------
    AlignmentError
        At the first token that does not fit, with its index, the cursor and the text there.
    SubwordScopeError
        For an unknown ``scheme``, or when ``original`` is not a string or ``tokens`` is one
        (the arguments swapped), bytes, a mapping or not iterable (None).
    core.errors.Cancelled
        If ``should_stop()`` returned True.

    Complexity: O(N + T) for N code points and T tokens per normalization tried (at most
    two): the normalizers are per character, and the walk matches each token once on real
    token lists, runs of unknown tokens included (:func:`core.align.unknown.walk`; a
    step budget bounds adversarial lists).
    """
    if (not isinstance(original, str) or isinstance(tokens, (str, bytes, Mapping))
            or not isinstance(tokens, Iterable)):  # None, a number, a dict: no token list
        raise SubwordScopeError(
            f"align(original, tokens) takes the text (str) and then its token list, not a "
            f"{type(original).__name__} and a {type(tokens).__name__}")
    with collector_paused():  # many small lists and tuples, no cycles (core.collector)
        return _align(original, tokens, scheme, normalizer, lowercase, should_stop)


def _align(original: str, tokens: Sequence[str], scheme: str | None,
           normalizer: Callable[[str], NormalizedText] | None, lowercase: str | None,
           should_stop: Callable[[], bool] | None) -> list[tuple[int, int]]:
    """:func:`align`, with the collector paused by the caller."""
    if scheme is None:
        detected = detect_scheme(tokens)
        if detected != "surface":
            return _align(original, tokens, detected, normalizer, lowercase, should_stop)
        try:
            return _align(original, tokens, "surface", normalizer, lowercase, should_stop)
        except AlignmentError as surface_error:
            try:
                return _align(original, tokens, "wordpiece", normalizer, lowercase, should_stop)
            except AlignmentError as wordpiece_error:
                raise max(surface_error, wordpiece_error, key=lambda e: e.token_index) from None
    if scheme not in SCHEMES:
        raise SubwordScopeError(f"unknown alignment scheme {scheme!r}; use one of {SCHEMES}")
    attempts: tuple[Attempt, ...] = ((normalizer, None),) if normalizer is not None else _attempts(scheme)
    errors: dict[int, AlignmentError] = {}
    # an attempt whose text cannot hold a token's characters is left for last: it can only fail
    ruled_out = [k for k in range(len(attempts) - 1) if _cannot_fit(attempts[k], original, tokens, scheme)]
    for k in [k for k in range(len(attempts)) if k not in ruled_out] + ruled_out:
        text_fn, token_fn = attempts[k]
        check_stop(should_stop)
        nt = text_fn(original)
        if scheme == "bytelevel":
            nt = _byte_level_text(nt)
        try:
            return _walk(nt, tokens if token_fn is None else _normalize_tokens(tokens, token_fn),
                         scheme, lowercase, should_stop)
        except AlignmentError as exc:
            errors[k] = exc
    # the first of the attempts that got furthest
    raise max((errors[k] for k in sorted(errors)), key=lambda e: e.token_index)


def _cannot_fit(attempt: Attempt, original: str, tokens: Sequence[str], scheme: str) -> bool:
    """True when ``attempt`` surely fails: a token that must match literally (not unknown,
    not special; a ``##`` piece, or a token's characters besides whitespace and ``▁``) has a
    character the attempt's normalized text cannot hold (:func:`image_chars` of the teaching
    normalizer; the text's own characters without normalization). Every token has to be
    placed, so the walk would stop at it; the check costs O(N) in C plus O(distinct
    characters and tokens), not a normalization. False when not known (other normalizers,
    normalized tokens, byte-level text)."""
    text_fn, token_fn = attempt
    if token_fn is not None or scheme == "bytelevel":
        return False
    if text_fn is normalize:
        possible = image_chars(original)
    elif text_fn is NormalizedText.identity:
        possible = frozenset(original)
    else:
        return False
    if possible is None:
        return False
    for token in _distinct_strings(tokens):
        if token in UNK_TOKENS or _is_special(token):
            continue
        if scheme == "wordpiece" and len(token) > 2 and token[:2] == "##":
            token = token[2:]
        elif scheme == "sentencepiece":
            token = token.replace(METASPACE, "")
        if not set(token).difference(possible).issubset(_ANY_SPACE):
            return True
    return False
