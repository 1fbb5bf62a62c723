"""Per-encoding metrics: fertility, compression, unknown and byte-fallback rates, grapheme cuts.

Works with any tokenizer family through a minimal protocol: an *encoding* is anything with
``tokens`` (list of str) and ``offsets`` (list of half-open ``(start, end)`` code-point spans
into the original text); an optional ``special_tokens_mask`` excludes special tokens.

Definitions (all counts of the original text, special tokens excluded):

- words: words separated by whitespace (or the Ethiopic wordspace ``፡`` U+1361); for texts mostly in a script written without spaces
  (Chinese, Japanese, Thai, ...; see :func:`core.text.scripts.writes_without_spaces`) the unit is
  the non-space grapheme cluster instead, and ``words_are_characters`` is set;
- fertility = tokens / words (Rust et al. 2021, "How Good is Your Tokenizer?");
- tokens per character = tokens / code points; bytes per token = UTF-8 bytes / tokens
  (a compression ratio);
- unknown rate = unknown tokens / tokens; byte-fallback rate = ``<0xNN>`` tokens / tokens;
- unknown share = code points not encoded / code points: those inside unknown tokens plus
  the letters, numbers, punctuation and symbols inside no token (dropped by a model without
  an unknown token); byte-fallback share the same for ``<0xNN>`` pieces
  (:mod:`core.metrics.unknown_cost`);
- unknown-adjusted tokens = tokens with every unknown token replaced by the UTF-8 bytes of
  the characters it covers (:func:`core.metrics.unknown_cost.adjusted_tokens`), plus one
  token per UTF-8 byte of the dropped characters; adjusted fertility and tokens per
  character divide it like the plain ones;
- grapheme-cut share = code points covered by tokens that cut a grapheme cluster (``\\X``)
  / code points, where a token cuts a cluster when its span starts or ends strictly inside
  one (``e`` + combining accent split apart, a Devanagari conjunct split after its virama);
- tokens per UTF-8 byte = tokens / UTF-8 bytes; tokens per word = tokens / words, only for
  a script that separates words with spaces (``nan`` when ``words_are_characters``);
- continued-word rate = words covered by two or more tokens / words (tokka-bench's
  "continued-word rate", bgub/tokka-bench: the share of ``\\S+`` words split into several
  tokens), on the spans of the running text; tokens made only of a space marker are left
  out (they carry the space before a word, not the word); ``nan`` for scripts without spaces;
- split-character share = code points claimed by two or more tokens / code points: byte-level
  BPE spreading one character's UTF-8 bytes over several tokens. Tokens made only of a
  space marker (``▁``, ``Ġ``) are left out: the reference offsets give a lone Metaspace
  ``▁`` the span of the next character although it holds none of its bytes.

Use the names through :mod:`core.metrics`, which also gathers the table, sampling, costs
and the span diff.
"""

from __future__ import annotations

import math
from itertools import chain
from dataclasses import dataclass
from typing import Any, Protocol, Sequence

import numpy as np
import regex

from core.errors import OffsetError, SubwordScopeError
from core.metrics.text_stats import TextStats, count_words, text_stats
from core.metrics.unknown_cost import (
    adjusted_tokens, coverage, covered_characters_and_bytes, dropped_characters_and_bytes,
    unknown_flags)
from core.text.regex_lock import concurrency

BYTE_FALLBACK_RE = regex.compile(r"^<0x[0-9A-Fa-f]{2}>$")
_BYTE_PIECE_IN_LIST = regex.compile(r"(?<![^\x00])<0x[0-9A-Fa-f]{2}>(?![^\x00])")
SPACE_MARKERS = "\u2581\u0120"  # SentencePiece's "▁" and byte-level BPE's "Ġ"


class EncodingLike(Protocol):
    """What the metrics need from an encoding (``core.tokenizers.Encoding`` fits)."""

    tokens: Sequence[str]
    offsets: Sequence[tuple[int, int]]


@dataclass(frozen=True)
class EncodingMetrics:
    """Counts for one text (or a sum over texts) and the ratios derived from them.

    Ratios with a zero denominator are ``nan``. Two results add up (``a + b``) to the
    counts of both texts. ``unknown_characters`` and ``byte_fallback_characters`` are code
    points inside at least one unknown / ``<0xNN>`` token; ``unknown_bytes`` the UTF-8 bytes
    of the unknown ones; ``dropped_characters`` / ``dropped_bytes`` the letters, numbers,
    punctuation and symbols inside no token
    (:func:`core.metrics.unknown_cost.dropped_characters_and_bytes`).
    """

    tokens: int
    words: int
    characters: int  # code points
    utf8_bytes: int
    unknown: int
    byte_fallback: int
    cut_characters: int  # code points inside tokens that cut a grapheme cluster
    shared_characters: int = 0  # code points claimed by two or more tokens
    words_are_characters: bool = False
    unknown_characters: int = 0  # code points inside unknown tokens
    unknown_bytes: int = 0  # UTF-8 bytes of those code points
    byte_fallback_characters: int = 0  # code points inside <0xNN> pieces
    dropped_characters: int = 0  # letters, numbers, punctuation, symbols in no token
    dropped_bytes: int = 0  # UTF-8 bytes of those code points
    continued_words: int = 0  # spaced words covered by two or more tokens

    def __add__(self, other: "EncodingMetrics") -> "EncodingMetrics":
        return EncodingMetrics(
            **{f: getattr(self, f) + getattr(other, f) for f in _COUNT_FIELDS},
            words_are_characters=self.words_are_characters or other.words_are_characters,
        )

    @property
    def fertility(self) -> float:
        """Tokens per word (per character when ``words_are_characters``)."""
        return _ratio(self.tokens, self.words)

    @property
    def tokens_per_character(self) -> float:
        return _ratio(self.tokens, self.characters)

    @property
    def tokens_per_byte(self) -> float:
        """Tokens per UTF-8 byte of the text."""
        return _ratio(self.tokens, self.utf8_bytes)

    @property
    def tokens_per_word(self) -> float:
        """Tokens per whitespace-separated word; ``nan`` for a script without spaces."""
        return math.nan if self.words_are_characters else _ratio(self.tokens, self.words)

    @property
    def continued_word_rate(self) -> float:
        """Share of the words cut into two or more tokens (tokka-bench); ``nan`` for a
        script without spaces."""
        return math.nan if self.words_are_characters else _ratio(self.continued_words, self.words)

    @property
    def bytes_per_token(self) -> float:
        return _ratio(self.utf8_bytes, self.tokens)

    @property
    def unknown_rate(self) -> float:
        return _ratio(self.unknown, self.tokens)

    @property
    def byte_fallback_rate(self) -> float:
        return _ratio(self.byte_fallback, self.tokens)

    @property
    def unknown_share(self) -> float:
        """Share of the code points the tokenizer did not encode: inside unknown tokens, or
        dropped (a letter, number, punctuation mark or symbol inside no token)."""
        return _ratio(self.unknown_characters + self.dropped_characters, self.characters)

    @property
    def byte_fallback_share(self) -> float:
        """Share of the code points inside ``<0xNN>`` byte pieces."""
        return _ratio(self.byte_fallback_characters, self.characters)

    @property
    def adjusted_tokens(self) -> int:
        """Tokens with each unknown token counted as the UTF-8 bytes it covers
        (:func:`core.metrics.unknown_cost.adjusted_tokens`), plus one token per UTF-8 byte of
        the dropped characters (what a byte-level fallback would have spent on them)."""
        return adjusted_tokens(self.tokens, self.unknown, self.unknown_bytes) + self.dropped_bytes

    @property
    def adjusted_fertility(self) -> float:
        """:attr:`adjusted_tokens` per word (per character when ``words_are_characters``)."""
        return _ratio(self.adjusted_tokens, self.words)

    @property
    def adjusted_tokens_per_character(self) -> float:
        return _ratio(self.adjusted_tokens, self.characters)

    @property
    def grapheme_cut_share(self) -> float:
        return _ratio(self.cut_characters, self.characters)

    @property
    def split_character_share(self) -> float:
        return _ratio(self.shared_characters, self.characters)


_COUNT_FIELDS = ("tokens", "words", "characters", "utf8_bytes", "unknown", "byte_fallback",
                 "cut_characters", "shared_characters", "unknown_characters", "unknown_bytes",
                 "byte_fallback_characters", "dropped_characters", "dropped_bytes",
                 "continued_words")
ZERO = EncodingMetrics(0, 0, 0, 0, 0, 0, 0)


def _ratio(num: float, den: float) -> float:
    return num / den if den else math.nan


def content_tokens(encoding: Any) -> tuple[list[str], np.ndarray]:
    """Tokens and ``offsets : (n, 2) int64 ndarray`` of ``encoding`` without special tokens."""
    tokens = list(encoding.tokens)
    raw = list(encoding.offsets)
    offsets = np.fromiter(chain.from_iterable(raw), dtype=np.int64, count=2 * len(raw)).reshape(-1, 2)
    if len(offsets) != len(tokens):
        raise OffsetError(f"encoding has {len(tokens)} tokens but {len(offsets)} offsets")
    mask = getattr(encoding, "special_tokens_mask", None)
    if mask is not None and len(mask) == len(tokens) and any(mask):
        keep = np.asarray(mask) == 0
        tokens = [t for t, k in zip(tokens, keep) if k]
        offsets = offsets[keep]
    return tokens, offsets


def cutting_tokens(offsets: np.ndarray, inside: np.ndarray) -> np.ndarray:
    """``cuts : (n,) bool ndarray`` — which token spans start or end strictly inside a
    grapheme cluster (``inside`` from :func:`grapheme_interior`).

    Raises
    ------
    OffsetError
        If a span is not within ``0 <= start <= end <= len(text)``.
    """
    if len(offsets) == 0:
        return np.zeros(0, dtype=bool)
    starts, ends = offsets[:, 0], offsets[:, 1]
    n = len(inside) - 1
    if starts.min() < 0 or ends.max() > n or (starts > ends).any():
        raise OffsetError(f"token offsets fall outside the text of {n} code points")
    return inside[starts] | inside[ends]


def covered_count(offsets: np.ndarray, n: int) -> int:
    """Number of code points of ``range(n)`` inside at least one span of ``offsets``."""
    return int(np.count_nonzero(coverage(offsets, n)))


def count_unknown(encoding: Any, tokens: list[str], unk_token: str | None, unk_id: int | None) -> int:
    """Content tokens equal to ``unk_token`` or (when the encoding has ``ids``) with ``unk_id``."""
    ids = getattr(encoding, "ids", None)
    if unk_id is not None and ids is not None and len(ids) == len(encoding.tokens):
        mask = getattr(encoding, "special_tokens_mask", None)
        if mask is not None and len(mask) == len(ids) and any(mask):
            return sum(1 for i, m in zip(ids, mask) if i == unk_id and not m)
        return list(ids).count(unk_id)
    return tokens.count(unk_token) if unk_token is not None else 0


def is_space_marker(token: str) -> bool:
    """True for a token made only of whitespace and space markers (``▁``, ``Ġ``)."""
    rest = token.strip(SPACE_MARKERS)
    return not rest or rest.isspace()


def is_byte_fallback(token: str) -> bool:
    """True for a SentencePiece byte-fallback piece such as ``<0xE3>``."""
    return BYTE_FALLBACK_RE.match(token) is not None


def count_byte_fallback(tokens: list[str]) -> int:
    """Number of byte-fallback pieces in ``tokens`` (one regex pass over the NUL-joined list)."""
    joined = "\x00".join(tokens)
    return len(_BYTE_PIECE_IN_LIST.findall(joined, concurrent=concurrency(joined)))


def count_shared(tokens: list[str], offsets: np.ndarray, n: int) -> int:
    """Code points claimed by two or more tokens, space-marker-only tokens left out."""
    multi = coverage(offsets, n) > 1
    if not multi.any():
        return 0
    prefix = np.concatenate(([0], np.cumsum(multi)))
    involved = np.flatnonzero(prefix[offsets[:, 1]] > prefix[offsets[:, 0]])
    markers = [k for k in involved.tolist() if is_space_marker(tokens[k])]
    if not markers:
        return int(np.count_nonzero(multi))
    real = np.ones(len(tokens), dtype=bool)
    real[markers] = False
    return int(np.count_nonzero(coverage(offsets[real], n) > 1))


_MARKER_ONLY = regex.compile(f"(?<![^\x00])[\\s{SPACE_MARKERS}]*(?![^\x00])")


def marker_only(tokens: list[str]) -> np.ndarray:
    """Indices of the tokens made only of whitespace and space markers
    (:func:`is_space_marker`), found by one regex pass over the NUL-joined list: O(total
    length of the tokens), a Python step only per candidate."""
    joined = "\x00".join(tokens)
    found = [m.start() for m in _MARKER_ONLY.finditer(joined, concurrent=False)] if tokens else []
    if not found:
        return np.zeros(0, dtype=np.int64)
    lengths = np.fromiter(map(len, tokens), dtype=np.int64, count=len(tokens))
    starts = np.concatenate(([0], np.cumsum(lengths + 1)[:-1]))
    found = np.asarray(found, dtype=np.int64)
    idx = np.searchsorted(starts, found[np.isin(found, starts)])  # a NUL inside a token: not a start
    return np.asarray([k for k in np.unique(idx).tolist() if is_space_marker(tokens[k])], dtype=np.int64)


def count_continued(tokens: list[str], offsets: np.ndarray, words: np.ndarray) -> int:
    """Words of ``words : (n_words, 2)`` spans that two or more token spans overlap, leaving
    out empty spans and tokens made only of a space marker.

    A span ``[s, e)`` overlaps word ``[ws, we)`` when ``s < we`` and ``e > ws``; for non-empty
    spans their number is ``#(s < we) − #(e <= ws)`` (a span ending by ``ws`` starts before
    ``we``), two binary searches per word over the sorted starts and ends: O((t + w) log t).
    """
    if len(words) == 0 or len(offsets) == 0:
        return 0
    keep = offsets[:, 1] > offsets[:, 0]
    markers = marker_only(tokens)
    if len(markers):
        keep[markers] = False
    starts, ends = np.sort(offsets[keep, 0]), np.sort(offsets[keep, 1])
    n = np.searchsorted(starts, words[:, 1], "left") - np.searchsorted(ends, words[:, 0], "right")
    return int(np.count_nonzero(n >= 2))


def encoding_metrics(encoding: Any, text: str, *, unk_token: str | None = None,
                     unk_id: int | None = None, stats: TextStats | None = None) -> EncodingMetrics:
    """All counts of :class:`EncodingMetrics` for ``encoding`` of ``text``.

    Parameters
    ----------
    encoding : EncodingLike
        Tokens and code-point offsets into ``text``.
    text : str
        The original text that was encoded.
    unk_token : str, optional
        The tokenizer's unknown token (e.g. ``"[UNK]"``).
    unk_id : int, optional
        Its id; a token with this id counts as unknown whatever its string (Unigram
        tokenizers report the original text of an unknown piece). With neither, no token
        counts as unknown.
    stats : TextStats, optional
        Precomputed :func:`core.metrics.text_stats.text_stats` of ``text`` (shared by tokenizers).

    Raises
    ------
    OffsetError
        If offsets and tokens disagree in number or a span falls outside the text.
    """
    tokens, offsets = content_tokens(encoding)
    st = stats if stats is not None else text_stats(text)
    cuts = cutting_tokens(offsets, st.inside)
    unknown = count_unknown(encoding, tokens, unk_token, unk_id)
    unk_chars, unk_bytes = 0, 0
    if unknown:  # the masks cost a pass over the tokens: only where something is unknown
        unk_chars, unk_bytes = covered_characters_and_bytes(
            offsets, unknown_flags(encoding, tokens, unk_token, unk_id), text)
    byte_fallback = count_byte_fallback(tokens)
    fallback_chars = 0
    if byte_fallback:
        fallback = np.fromiter((is_byte_fallback(t) for t in tokens), dtype=bool, count=len(tokens))
        fallback_chars = covered_count(offsets[fallback], st.characters)
    dropped, dropped_bytes = dropped_characters_and_bytes(offsets, text)
    return EncodingMetrics(
        tokens=len(tokens),
        words=st.words,
        characters=st.characters,
        utf8_bytes=st.utf8_bytes,
        unknown=unknown,
        byte_fallback=byte_fallback,
        cut_characters=covered_count(offsets[cuts], st.characters),
        shared_characters=count_shared(tokens, offsets, st.characters),
        words_are_characters=st.words_are_characters,
        unknown_characters=unk_chars,
        unknown_bytes=unk_bytes,
        byte_fallback_characters=fallback_chars,
        dropped_characters=dropped,
        dropped_bytes=dropped_bytes,
        continued_words=count_continued(tokens, offsets, st.word_spans),
    )


def fertility(encoding_or_tokens: Any, text: str) -> float:
    """Tokens per word of ``text`` (per grapheme cluster for scripts without spaces).

    Parameters
    ----------
    encoding_or_tokens : EncodingLike or sequence of str
        An encoding (its ``tokens`` are counted, special tokens excluded) or a token list.
    text : str
        The original text.

    Raises
    ------
    SubwordScopeError
        If ``text`` has no word.
    """
    if hasattr(encoding_or_tokens, "tokens"):
        n_tokens = len(content_tokens(encoding_or_tokens)[0])
    else:
        n_tokens = len(list(encoding_or_tokens))
    words, _ = count_words(text)
    if words == 0:
        raise SubwordScopeError("fertility needs a text with at least one word")
    return n_tokens / words


def premium(tokens: float, reference_tokens: float) -> float:
    """Token premium of a language: its token count over the reference language's count
    on parallel text (Petrov et al. 2023, "Language Model Tokenizers Introduce Unfairness
    Between Languages"); ``nan`` when the reference count is 0."""
    return _ratio(tokens, reference_tokens)

