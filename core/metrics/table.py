"""Languages × tokenizers: every metric of :mod:`core.metrics.per_encoding` over a parallel corpus.

A corpus is a folder of UTF-8 text files, one language per file (the stem is the language
code, e.g. ``por_PT.txt``), one paragraph a line, the same content in every language. Each
non-empty line is encoded on its own (no special tokens) and the counts are summed per file.
The premium of a language is its token count over the reference language's, per tokenizer;
the unknown-adjusted premium divides the unknown-adjusted token counts
(:func:`core.metrics.unknown_cost.adjusted_tokens`) the same way. The round-trip share
(:mod:`core.metrics.round_trip_share`) decodes each line's ids and counts the characters that
come back unchanged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, MutableMapping, Sequence

import numpy as np

from core.metrics.per_encoding import ZERO, EncodingMetrics, encoding_metrics
from core.metrics.round_trip_share import RoundTripCount, can_decode, round_trip_count
from core.metrics.text_stats import TextStats, text_stats
from core.collection import COLLECTION, languages, read_texts
from core.errors import Cancelled, SubwordScopeError
from core.text.scripts import language_name
from core.text.files import read_text_file

_ADJUSTED = "unknown tokens counted as the UTF-8 bytes they cover"

# metric key -> (label, description); the values of CompareTable.values(key).
METRICS: dict[str, tuple[str, str]] = {
    "fertility": ("Fertility", "tokens per word (per character for scripts without spaces)"),
    "premium": ("Premium", "tokens relative to the reference language on the same content"),
    "adjusted_fertility": ("Fertility, unknown-adjusted", f"tokens per word, {_ADJUSTED}"),
    "adjusted_premium": ("Premium, unknown-adjusted", f"tokens relative to the reference language, {_ADJUSTED}"),
    "tokens": ("Tokens", "number of tokens (special tokens excluded)"),
    "adjusted_tokens": ("Tokens, unknown-adjusted", f"number of tokens, {_ADJUSTED}"),
    "tokens_per_character": ("Tokens / character", "tokens per code point"),
    "adjusted_tokens_per_character": ("Tokens / character, unknown-adjusted", f"tokens per code point, {_ADJUSTED}"),
    "tokens_per_byte": ("Tokens / UTF-8 byte", "tokens per byte of the text in UTF-8"),
    "tokens_per_word": ("Tokens / word", "tokens per whitespace-separated word (only for scripts that separate words)"),
    "continued_word_rate": ("Continued words", "share of the words cut into two or more tokens (only for scripts that separate words)"),
    "bytes_per_token": ("Bytes / token", "UTF-8 bytes per token (compression)"),
    "unknown_share": ("Unknown characters", "share of characters not encoded: inside unknown tokens, or dropped (a letter, number, punctuation mark or symbol in no token)"),
    "unknown_rate": ("Unknown rate", "share of tokens that are the unknown token"),
    "byte_fallback_share": ("Byte-fallback characters", "share of characters inside <0xNN> byte pieces"),
    "byte_fallback_rate": ("Byte-fallback rate", "share of tokens that are <0xNN> byte pieces"),
    "grapheme_cut_share": ("Grapheme cuts", "share of characters inside tokens that cut a grapheme cluster"),
    "split_character_share": ("Split characters", "share of characters whose bytes are spread over several tokens"),
    "words": ("Words", "whitespace words (characters for scripts without spaces)"),
    "characters": ("Characters", "code points"),
    "utf8_bytes": ("UTF-8 bytes", "bytes of the text in UTF-8"),
    "round_trip_share": ("Round trip", "share of characters that decode(encode(text)) gives back unchanged"),
}


@dataclass(frozen=True)
class CorpusFile:
    """One language of a parallel corpus: ``code`` (file stem), ``path``, non-empty ``lines``."""

    code: str
    path: str
    mtime_ns: int
    lines: tuple[str, ...]

    @property
    def name(self) -> str:
        return language_name(self.code)


def load_corpus(folder: str | Path) -> list[CorpusFile]:
    """Read every ``*.txt`` of ``folder`` (sorted by name) as one language; ``"udhr-all"``
    (when no such folder exists) is the UDHR collection shipped with the app
    (:mod:`core.collection`, 532 texts, read from its archive in one pass).

    Raises
    ------
    SubwordScopeError
        If the folder does not exist or holds no ``.txt`` file;
        :class:`core.text.files.NotTextError` (a subclass) if a file is not UTF-8 text, as
        :func:`core.text.files.read_text_file` decides, naming the file.
    """
    root = Path(folder)
    if str(folder) == COLLECTION and not root.is_dir():
        texts = dict(read_texts())
        return [CorpusFile(lang.code, f"{COLLECTION}/{lang.code}", 0,
                           tuple(line for line in texts[lang.code].splitlines() if line.strip()))
                for lang in languages() if lang.code in texts]
    if not root.is_dir():
        raise SubwordScopeError(f"{root}: not a folder; choose a folder of one .txt file per language")
    files = sorted(root.glob("*.txt"))
    if not files:
        raise SubwordScopeError(f"{root}: no .txt files; the corpus needs one text file per language")
    corpus = []
    for path in files:
        text = read_text_file(path)
        lines = tuple(line for line in text.splitlines() if line.strip())
        corpus.append(CorpusFile(path.stem, str(path), path.stat().st_mtime_ns, lines))
    return corpus


@dataclass(frozen=True)
class CompareTable:
    """Metrics of every (language, tokenizer) pair.

    ``cells[i][j]`` are the summed counts of language ``languages[i]`` under tokenizer
    ``tokenizers[j]``; :meth:`values` gives any metric of :data:`METRICS` as an array
    (each computed once: :meth:`precompute` computes them all, e.g. in a worker thread, so
    that later calls only copy an array).
    """

    languages: tuple[str, ...]
    tokenizers: tuple[str, ...]
    cells: tuple[tuple[EncodingMetrics, ...], ...]
    reference: str | None
    round_trips: tuple[tuple[RoundTripCount | None, ...], ...] = ()  # same shape; None: cannot decode
    _memo: dict = field(default_factory=dict, compare=False, repr=False, hash=False)

    def values(self, metric: str) -> np.ndarray:
        """``values : (n_languages, n_tokenizers) float64 ndarray`` (a new array the caller
        may change); ``nan`` where undefined. O(cells) Python steps the first time per
        metric, then an array copy.

        Raises
        ------
        SubwordScopeError
            If ``metric`` is not a key of :data:`METRICS`.
        """
        if metric not in self._memo:
            self._memo[metric] = self._values(metric)
        return self._memo[metric].copy()

    def precompute(self) -> "CompareTable":
        """Compute every metric of :data:`METRICS` and :meth:`words_are_characters` now
        (O(metrics · cells)); returns ``self``."""
        for metric in METRICS:
            self.values(metric)
        self.words_are_characters()
        return self

    def _values(self, metric: str) -> np.ndarray:
        if metric not in METRICS:
            raise SubwordScopeError(f"unknown metric {metric!r}; choose one of {', '.join(METRICS)}")
        if metric in _PREMIUMS:
            return self._premium(_PREMIUMS[metric])
        out = np.full((len(self.languages), len(self.tokenizers)), math.nan)
        if metric == "round_trip_share":  # nan where not computed or the tokenizer cannot decode
            for i, row in enumerate(self.round_trips):
                for j, count in enumerate(row):
                    out[i, j] = math.nan if count is None else count.share
            return out
        for i, row in enumerate(self.cells):
            for j, cell in enumerate(row):
                out[i, j] = float(getattr(cell, metric))
        return out

    def _premium(self, tokens_metric: str) -> np.ndarray:
        tokens = self.values(tokens_metric)
        if self.reference not in self.languages:
            return np.full_like(tokens, math.nan)
        ref = tokens[self.languages.index(self.reference)]
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(ref > 0, tokens / np.where(ref > 0, ref, 1), math.nan)

    def long_rows(self) -> tuple[list[str], list[list]]:
        """``(header, rows)``: one row per (language, tokenizer) with every metric (for CSV)."""
        header = ["language", "language_name", "tokenizer", *METRICS, "words_are_characters"]
        cols = {m: self.values(m) for m in METRICS}
        per_char = self.words_are_characters()
        rows = [[code, language_name(code), tok, *(float(cols[m][i, j]) for m in METRICS), per_char[i]]
                for i, code in enumerate(self.languages) for j, tok in enumerate(self.tokenizers)]
        return header, rows

    def words_are_characters(self) -> list[bool]:
        """Per language: whether its "words" are characters (a script without spaces).
        O(cells) the first time, then a list copy."""
        if "_per_char" not in self._memo:
            self._memo["_per_char"] = [any(c.words_are_characters for c in row) for row in self.cells]
        return list(self._memo["_per_char"])


_PREMIUMS = {"premium": "tokens", "adjusted_premium": "adjusted_tokens"}


def unknown_of(tokenizer: Any) -> tuple[str | None, int | None]:
    """The tokenizer's unknown token and its id (``token_to_id``), each ``None`` when absent."""
    unk = getattr(tokenizer, "unk_token", None)
    unk = unk if isinstance(unk, str) and unk else None
    unk_id = None
    if unk is not None and callable(getattr(tokenizer, "token_to_id", None)):
        try:
            unk_id = tokenizer.token_to_id(unk)
        except (KeyError, ValueError):
            unk_id = None
    return unk, unk_id if isinstance(unk_id, int) else None


def tokenizer_key(tokenizer: Any) -> str:
    """Cache key of a tokenizer: its ``path`` attribute when it has one, else its ``name``."""
    return str(getattr(tokenizer, "path", None) or getattr(tokenizer, "name", id(tokenizer)))


def file_cell(tokenizer: Any, corpus_file: CorpusFile, stats: Sequence[TextStats] | None = None, *,
              round_trip: bool = True) -> tuple[EncodingMetrics, RoundTripCount | None]:
    """The sums of :func:`encoding_metrics` and (with ``round_trip``, for a tokenizer that can
    decode, else None) of :func:`~core.metrics.round_trip_share.round_trip_count` over the
    lines of one corpus file, each line encoded once."""
    total = ZERO
    trip = RoundTripCount() if round_trip and can_decode(tokenizer) else None
    unk, unk_id = unknown_of(tokenizer)
    for k, (line, enc) in enumerate(zip(corpus_file.lines, encode_all(tokenizer, corpus_file.lines))):
        st = stats[k] if stats is not None else None
        total = total + encoding_metrics(enc, line, unk_token=unk, unk_id=unk_id, stats=st)
        if trip is not None:
            try:
                trip = trip + round_trip_count(tokenizer, line, enc)
            except SubwordScopeError:  # a decoder this file cannot run: no round trip, the rest stands
                trip = None
    return total, trip


def encode_all(tokenizer: Any, texts: Sequence[str]) -> Iterable[Any]:
    """``tokenizer.encode`` of every text: one ``encode_batch`` call when the tokenizer
    has it (per-text set-up shared, the same Encodings), else ``encode`` lazily, one text
    at a time as the caller iterates."""
    batch = getattr(tokenizer, "encode_batch", None)
    return batch(texts) if callable(batch) else map(tokenizer.encode, texts)


def compare_table(
    tokenizers: Sequence[Any],
    corpus: Sequence[CorpusFile],
    *,
    reference: str | None = "eng",
    names: Sequence[str] | None = None,
    keys: Sequence[str] | None = None,
    cache: MutableMapping[tuple, EncodingMetrics] | None = None,
    progress: Callable[[float], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> CompareTable:
    """Encode (and decode, for the round trip) every corpus line with every tokenizer and
    collect the metrics.

    Parameters
    ----------
    tokenizers : sequence of objects with ``encode(text)`` (and ``name``, ``unk_token``)
    corpus : sequence of CorpusFile
    reference : str, optional
        Language code the premium is relative to.
    names, keys : sequence of str, optional
        Column labels (default ``tokenizer.name``) and cache keys (default
        :func:`tokenizer_key`).
    cache : mutable mapping, optional
        Filled and read with keys ``(tokenizer key, file path, mtime_ns)``.
    progress, should_stop : callables, optional
        Fraction done (0..1) after each cell; checked before each cell.

    Raises
    ------
    Cancelled
        When ``should_stop()`` returns true.
    """
    names = list(names) if names is not None else [str(getattr(t, "name", f"tokenizer {i + 1}")) for i, t in enumerate(tokenizers)]
    keys = list(keys) if keys is not None else [tokenizer_key(t) for t in tokenizers]
    cache = {} if cache is None else cache
    total = max(1, len(tokenizers) * len(corpus))
    rows, trips, done = [], [], 0
    for f in corpus:
        stats = None
        row, trip = [], []
        for tok, key in zip(tokenizers, keys):
            if should_stop is not None and should_stop():
                raise Cancelled("comparison cancelled")
            ck = (key, f.path, f.mtime_ns)
            rk = ("round_trip", *ck)
            if ck not in cache or rk not in cache:
                stats = stats or [text_stats(line) for line in f.lines]
                cache[ck], cache[rk] = file_cell(tok, f, stats)
            row.append(cache[ck])
            trip.append(cache[rk])
            done += 1
            if progress is not None:
                progress(done / total)
        rows.append(tuple(row))
        trips.append(tuple(trip))
    return CompareTable(tuple(f.code for f in corpus), tuple(names), tuple(rows), reference, tuple(trips))
