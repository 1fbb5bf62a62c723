"""The map step of ``compare`` and ``audit``: one corpus chunk → counts per tokenizer.

The same functions run in the command's own process (``--jobs 1``), in
:class:`concurrent.futures.ProcessPoolExecutor` workers and on Dask workers. Each process
loads the tokenizers once (:func:`tokenizers`; the pool's initializer is :func:`init_worker`)
and keeps them for every later chunk. Results are plain picklable values: the reduce step
(:mod:`app.cli.compare`, :mod:`app.cli.audit`) only adds integers, so any order of chunks
gives the same table.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator, Sequence

from core.align.view import audit_spans
from core.errors import SubwordScopeError
from core.metrics import CorpusFile, EncodingMetrics, text_stats
from core.metrics.table import file_cell
from core.tokenizers import TokenizerLike

from app.cli.common import load_tokenizer
from app.cli.corpus import Chunk, read_chunk

_LOADED: dict[tuple[str, ...], list[Any]] = {}
_LOCK = threading.Lock()  # Dask runs several tasks of one worker process in threads


def tokenizers(specs: Sequence[str]) -> list[Any]:
    """The tokenizers of ``specs``, loaded once per process (thread-safe)."""
    key = tuple(specs)
    with _LOCK:
        if key not in _LOADED:
            _LOADED[key] = [load_tokenizer(s) for s in key]
        return _LOADED[key]


def init_worker(specs: Sequence[str]) -> None:
    """``ProcessPoolExecutor`` initializer: load the tokenizers before the first chunk."""
    tokenizers(specs)


def encodings(tokenizer: TokenizerLike, lines: list[str]) -> list[Any]:
    """``tokenizer.encode`` of every line (no special tokens), through ``encode_batch`` when
    the tokenizer has it."""
    if hasattr(tokenizer, "encode_batch"):
        return tokenizer.encode_batch(lines)
    return [tokenizer.encode(line) for line in lines]


@dataclass(frozen=True)
class CompareCounts:
    """One chunk's cells per tokenizer — summed :class:`EncodingMetrics` and round-trip count
    (``None``: the tokenizer cannot decode) — and its line count."""

    chunk: Chunk
    lines: int
    cells: tuple[EncodingMetrics, ...]
    round_trips: tuple[Any, ...]


class TokenizerFailed(SubwordScopeError):
    """A tokenizer raised :class:`SubwordScopeError` on a corpus chunk's lines.

    Attributes
    ----------
    message : str
        The tokenizer's own message.
    tokenizer : int
        Index of the tokenizer in the command's specs (the caller names it by its label).
    language, path : str
        The chunk's language (file stem) and file.
    line : int | None
        The failing line's number in the file (from 1), when encoding line by line finds it.
    """

    def __init__(self, message: str, tokenizer: int, language: str, path: str, line: int | None = None):
        super().__init__(message)
        self.message, self.tokenizer, self.language, self.path, self.line = (
            message, tokenizer, language, path, line)

    def __reduce__(self):  # picklable with its fields (process pools, Dask)
        return type(self), (self.message, self.tokenizer, self.language, self.path, self.line)

    def where(self, labels: Sequence[str]) -> str:
        """``tokenizer LABEL on PATH (LANGUAGE), line N`` for the one-line error."""
        line = f", line {self.line}" if self.line is not None else ""
        return f"tokenizer {labels[self.tokenizer]} on {self.path} ({self.language}){line}"


@contextmanager
def _naming(j: int, tok: Any, chunk: Chunk, numbered: list[tuple[int, str]]) -> Iterator[None]:
    """Re-raise a :class:`SubwordScopeError` of tokenizer ``j`` on the chunk as
    :class:`TokenizerFailed` naming the tokenizer, the file and (found by encoding the lines
    one by one, only on this error path) the line."""
    try:
        yield
    except TokenizerFailed:
        raise
    except SubwordScopeError as exc:
        raise TokenizerFailed(str(exc), j, chunk.language, chunk.path,
                              _failing_line(tok, chunk, numbered)) from None


def _failing_line(tok: Any, chunk: Chunk, numbered: list[tuple[int, str]]) -> int | None:
    """The file line number of the first of ``numbered`` that ``tok.encode`` fails on, or
    None. O(chunk) plus the file's bytes before the chunk (counted for its line numbers)."""
    for number, line in numbered:
        try:
            tok.encode(line)
        except SubwordScopeError:
            return number + _lines_before(chunk)
    return None


def _lines_before(chunk: Chunk) -> int:
    """Lines of the chunk's file before the chunk (the chunk starts at a line start)."""
    count, left = 0, chunk.start
    with open(chunk.path, "rb") as fh:
        while left > 0:
            block = fh.read(min(left, 1 << 20))
            if not block:
                break
            count, left = count + block.count(b"\n"), left - len(block)
    return count


def compare_chunk(specs: Sequence[str], chunk: Chunk) -> CompareCounts:
    """The chunk's lines as one :class:`core.metrics.CorpusFile` through
    :func:`core.metrics.table.file_cell` for every tokenizer — the function the Compare pane's
    table sums a whole file with. O(characters · tokenizers).

    Raises
    ------
    core.errors.SubwordScopeError
        :class:`app.cli.corpus.CorpusError` for a chunk that is not text;
        :class:`TokenizerFailed` when a tokenizer cannot encode a line.
    """
    numbered, n_lines = read_chunk(chunk)
    part = CorpusFile(chunk.language, chunk.path, 0, tuple(text for _, text in numbered))
    stats = [text_stats(line) for line in part.lines]
    cells = []
    for j, tok in enumerate(tokenizers(specs)):
        with _naming(j, tok, chunk, numbered):
            cells.append(file_cell(tok, part, stats))
    return CompareCounts(chunk, n_lines, tuple(c for c, _ in cells), tuple(t for _, t in cells))


#: Audit count names, in column order (see :mod:`app.cli.audit` for what each means).
AUDIT_COUNTS = ("tokens", "misleading", "cuts_grapheme", "shares_characters", "partial_character",
                "empty", "uncovered_characters", "unknown", "byte_fallback", "characters")
#: Token flags with examples: count name → the flag's name in examples.
EXAMPLE_FLAGS = {"misleading": "misleading", "cuts_grapheme": "cuts-grapheme",
                 "shares_characters": "shares-characters", "partial_character": "partial-character",
                 "empty": "empty"}


@dataclass(frozen=True)
class AuditCounts:
    """One chunk's audit: ``counts[j]`` (a dict over :data:`AUDIT_COUNTS`) and
    ``examples[j]`` (flag → up to ``k`` examples, in text order) for tokenizer ``j``."""

    chunk: Chunk
    lines: int
    counts: tuple[dict[str, int], ...]
    examples: tuple[dict[str, list[dict]], ...] = field(default=())


def audit_chunk(specs: Sequence[str], chunk: Chunk, examples: int = 3) -> AuditCounts:
    """Flag every token of every line with :func:`core.align.view.audit_spans` (the Alignment
    pane's flags, derived spans included) and count them; keep the first ``examples`` tokens
    of each flag. O(characters · tokenizers).

    Raises
    ------
    core.errors.SubwordScopeError
        As :func:`compare_chunk` does (:class:`TokenizerFailed` naming tokenizer and file).
    """
    numbered, n_lines = read_chunk(chunk)
    lines = [text for _, text in numbered]
    all_counts, all_examples = [], []
    for j, tok in enumerate(tokenizers(specs)):
        counts = dict.fromkeys(AUDIT_COUNTS, 0)
        found: dict[str, list[dict]] = {name: [] for name in EXAMPLE_FLAGS.values()}
        with _naming(j, tok, chunk, numbered):
            for (number, line), enc in zip(numbered, encodings(tok, lines)):
                _audit_line(line, number, enc, counts, found, examples)
        all_counts.append(counts)
        all_examples.append(found)
    return AuditCounts(chunk, n_lines, tuple(all_counts), tuple(all_examples))


def _audit_line(line: str, number: int, enc: Any, counts: dict[str, int],
                found: dict[str, list[dict]], k: int) -> None:
    """Add one line's flags to ``counts`` and its first examples to ``found``. O(tokens + n)."""
    derived = enc.derived_offsets
    flags = audit_spans(line, list(enc.offsets), enc.token_bytes, list(enc.special_tokens_mask),
                        None, derived)
    counted = ~flags.special
    arrays = {"misleading": flags.misleading, "cuts_grapheme": flags.cuts_grapheme,
              "shares_characters": flags.shares_chars, "partial_character": flags.partial,
              "empty": flags.empty}
    counts["tokens"] += int(counted.sum())
    counts["characters"] += len(line)
    counts["uncovered_characters"] += len(flags.uncovered)
    counts["unknown"] += sum(enc.unknown_mask)
    counts["byte_fallback"] += sum(enc.byte_fallback_mask)
    for name, on in arrays.items():
        hits = (on & counted).nonzero()[0]
        counts[name] += len(hits)
        room = k - len(found[EXAMPLE_FLAGS[name]])
        for j in hits[:max(room, 0)].tolist():
            found[EXAMPLE_FLAGS[name]].append(_example(line, number, enc, flags, j))


def _example(line: str, number: int, enc: Any, flags: Any, j: int) -> dict:
    """One flagged token: where it is, its span and derived span (code points of the line)
    with the text of each, and the partial-character note."""
    s, e = (int(flags.starts[j]), int(flags.ends[j]))
    ds, de = enc.derived_offsets[j]
    return {"line": number, "token_index": j, "token": enc.tokens[j], "start": s, "end": e,
            "text": line[s:e], "derived_start": ds, "derived_end": de, "derived_text": line[ds:de],
            "note": "; ".join(flags.token_flags(j).partial_chars)}
