"""Pattern-driven pre-tokenizers: Split and CharDelimiterSplit.

``Split`` follows the ``tokenizers`` library's ``NormalizedString::split``: the text is cut
into alternating match / non-match pieces (``invert`` swaps the two roles), then the
behaviour decides what happens to the matches — ``Removed`` drops them, ``Isolated`` keeps
them as words, ``MergedWithPrevious`` / ``MergedWithNext`` glue a match to the non-match
piece before / after it (a match right after another match stays alone), ``Contiguous``
joins runs of adjacent matches. Empty pieces are dropped. Regexes run on the ``regex``
module (the reference uses Oniguruma; the usual classes agree). Spans are code points of the
normalized text.

A regex from a file runs under a time budget
(:func:`core.tokenizers._components.finditer_budgeted`): a pattern that backtracks
catastrophically raises :class:`~core.errors.PatternTimeoutError` instead of freezing the
caller. The published split patterns (:data:`.split_patterns.PATTERNS`, linear by
construction) and plain strings run without the budget's per-match bookkeeping.
"""

from __future__ import annotations

from itertools import accumulate, chain
from typing import Any

import numpy as np
import regex

from core.errors import TokenizerLoadError
from core.text.regex_lock import concurrency
from core.tokenizers._components import findall_budgeted, finditer_budgeted, needs_budget
from core.tokenizers.pre_tokenizers.base import BEHAVIORS, PreTokenizer, Words
from core.tokenizers.pre_tokenizers.split_patterns import cut_before_spaced_word

Piece = tuple[int, int, bool]


def find_pieces(pattern: "regex.Pattern[str]", text: str, budgeted: bool = False) -> list[Piece]:
    """``(start, end, is_match)`` pieces covering ``text``, as the reference's
    ``find_matches`` (empty matches included). O(len(text)) plus the regex's own cost.

    Raises
    ------
    PatternTimeoutError
        With ``budgeted``, when the regex runs past its time budget.
    """
    if not text:
        return [(0, 0, False)]
    out: list[Piece] = []
    prev = 0
    matches = (finditer_budgeted(pattern, text, pattern.pattern, "Split pre-tokenizer")
               if budgeted else pattern.finditer(text, concurrent=False))
    for m in matches:
        a, b = m.span()
        if a != prev:
            out.append((prev, a, False))
        out.append((a, b, True))
        prev = b
    if prev != len(text):
        out.append((prev, len(text), False))
    return out


def apply_behavior(pieces: list[Piece], behavior: str) -> list[tuple[int, int]]:
    """The kept, non-empty spans after applying ``behavior`` to the pieces."""
    if behavior == "Removed":
        kept = [(a, b) for a, b, m in pieces if not m]
    elif behavior == "Isolated":
        kept = [(a, b) for a, b, _ in pieces]
    elif behavior == "Contiguous":  # runs of pieces of one kind (matches or not) join
        kept, prev = [], False
        for a, b, m in pieces:
            if kept and m == prev:
                kept[-1] = (kept[-1][0], b)
            else:
                kept.append((a, b))
            prev = m
    elif behavior == "MergedWithPrevious":
        kept, prev = [], False
        for a, b, m in pieces:
            if m and not prev and kept:
                kept[-1] = (kept[-1][0], b)
            else:
                kept.append((a, b))
            prev = m
    elif behavior == "MergedWithNext":
        kept, prev = [], False
        for a, b, m in reversed(pieces):
            if m and not prev and kept:
                kept[-1] = (a, kept[-1][1])
            else:
                kept.append((a, b))
            prev = m
        kept.reverse()
    else:
        raise TokenizerLoadError(f"unknown split behavior {behavior!r}; use one of {BEHAVIORS}")
    return [(a, b) for a, b in kept if b > a]


class Split(PreTokenizer):
    """Split on a string or regex with one of the reference's behaviours.

    Raises
    ------
    TokenizerLoadError
        For a pattern that does not compile or an unknown behaviour.
    PatternTimeoutError
        From :meth:`split`, when a regex from the file runs past its time budget.
    """

    type_name = "Split"

    def __init__(self, pattern: str, is_regex: bool, behavior: str, invert: bool = False):
        if behavior not in BEHAVIORS:
            raise TokenizerLoadError(f"unknown split behavior {behavior!r}; use one of {BEHAVIORS}")
        if not isinstance(pattern, str):
            raise TokenizerLoadError(f"Split pattern must be a string, not {pattern!r}")
        self.pattern, self.is_regex, self.behavior, self.invert = (
            pattern, bool(is_regex), behavior, bool(invert))
        try:
            self._re = regex.compile(pattern if is_regex else regex.escape(pattern))
        except regex.error as exc:
            raise TokenizerLoadError(f"Split has an invalid regex {pattern!r}: {exc}") from None
        self._budgeted = self.is_regex and needs_budget(pattern)

    @classmethod
    def from_config(cls, cfg: dict) -> "Split":
        pat = cfg["pattern"]
        is_regex = "Regex" in pat
        return cls(pat["Regex"] if is_regex else pat["String"], is_regex, cfg["behavior"],
                   bool(cfg.get("invert", False)))

    def settings(self) -> dict[str, Any]:
        return {"regex" if self.is_regex else "string": self.pattern,
                "behavior": self.behavior, "invert": self.invert}

    def safe_cut(self, text: str, at: int) -> int | None:
        # where every match is a word of its own (the matches kept apart, or kept and
        # the rest removed), a cut between two matches splits apart
        if not self.is_regex or (self.behavior, self.invert) not in (("Isolated", False),
                                                                      ("Removed", True)):
            return None
        return cut_before_spaced_word(self.pattern, text, at)

    def split(self, text: str) -> Words:
        if not self.is_regex and not self.invert and text and self.pattern not in text:
            # a string found nowhere: the text is one non-matching piece, which every
            # behaviour keeps (Gemma 3's " " after its normalizer wrote every space "▁")
            return [text], [0]
        if self.is_regex and not self.pattern or not self.is_regex and not self.pattern:
            pieces = [(0, len(text), False)]
        else:
            keeps_all = self.behavior == "Isolated" or self.behavior == "Removed" and self.invert
            tiles = self._tiles(text) if keeps_all else None
            if tiles is not None:  # every piece kept as it is
                return tiles
            pieces = find_pieces(self._re, text, self._budgeted)
        if self.invert:
            pieces = [(a, b, not m) for a, b, m in pieces]
        spans = apply_behavior(pieces, self.behavior)
        return [text[a:b] for a, b in spans], [a for a, _ in spans]

    def split_texts(self, texts: list[str], at: list[int] | None = None
                    ) -> tuple[list[str], list[int], list[int]]:
        """:meth:`PreTokenizer.split_texts`: where the split is the regex's tiling matches
        (:meth:`_tiles`), one ``findall`` a text in a tight loop and the starts of all
        words in one numpy pass (a chat prompt's hundreds of short pieces); O(total length)
        plus the regex's own cost.

        Raises
        ------
        PatternTimeoutError
            As :meth:`split`.
        """
        keeps_all = self.behavior == "Isolated" or self.behavior == "Removed" and self.invert
        if not (keeps_all and self.is_regex and self.pattern and not self._re.groups
                and not self._budgeted):
            return super().split_texts(texts, at)
        findall = self._re.findall
        found = [findall(text, concurrent=concurrency(text)) for text in texts]
        words = list(chain.from_iterable(found))
        lens = np.fromiter(map(len, words), np.int64, len(words))
        text_lens = np.fromiter(map(len, texts), np.int64, len(texts))
        if int(lens.sum()) != int(text_lens.sum()) or "" in words:
            # some text is not tiled by the matches (each text's matches sum to its length
            # at most, so equal totals mean every text is): the general way
            return super().split_texts(texts, at)
        counts = list(map(len, found))
        text_at = np.cumsum(text_lens) - text_lens  # each text's start, the texts end to end
        if at is not None:
            text_at -= np.asarray(at, np.int64)
        starts = np.cumsum(lens) - lens - np.repeat(text_at, counts)
        return words, starts.tolist(), counts

    def _tiles(self, text: str) -> Words | None:
        """The regex's matches (a pattern with no groups) with their starts, when they tile
        ``text`` (each non-empty, their lengths summing to the text's: nothing between them),
        else None; for a behaviour that keeps every piece as it is, they are the split. One
        ``findall`` in C (under the time budget of a pattern from a file) and C-level passes
        over the matches, where :func:`find_pieces` takes one Python step per match (the
        published split patterns match every character, so this is their usual case). O(n).

        Raises
        ------
        PatternTimeoutError
            As :func:`find_pieces`.
        """
        if not self.is_regex or self._re.groups or not text:
            return None
        found = (findall_budgeted(self._re, text, self.pattern, "Split pre-tokenizer")
                 if self._budgeted else self._re.findall(text, concurrent=concurrency(text)))
        lengths = list(map(len, found))
        if sum(lengths) != len(text) or 0 in lengths:
            return None
        starts = list(accumulate(lengths, initial=0))
        starts.pop()
        return found, starts


def char_delimiter_split(delimiter: Any) -> Split:
    """CharDelimiterSplit: remove every occurrence of one character, split there."""
    if not isinstance(delimiter, str) or len(delimiter) != 1:
        raise TokenizerLoadError(f"CharDelimiterSplit needs one character, not {delimiter!r}")
    out = Split(delimiter, False, "Removed")
    out.type_name = "CharDelimiterSplit"
    return out
