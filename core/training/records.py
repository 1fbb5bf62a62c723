"""Result records of the stepped trainers (frozen dataclasses)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from core.training.symbols import Pair

MAX_TIES = 16  # at most this many tied candidates are reported per step


@dataclass(frozen=True)
class MergeStep:
    """One merge.

    Attributes
    ----------
    rank : int
        0 for the first merge, 1 for the second, ...
    pair : (str, str)
        The merged pair of symbols.
    count : int
        Its frequency (occurrences weighted by word count) just before the merge; overlapping
        occurrences count separately, as in a recount (``a a a`` holds ``(a, a)`` twice).
    new_symbol : str
        The symbol the merge creates.
    ties : tuple of (str, str)
        Every candidate with the same best criterion, in tie-break order, the chosen pair
        first (at most ``MAX_TIES``); a single entry means there was no tie.
    changed_words : tuple of str
        The word types whose segmentation the merge changed, in corpus order.
    score : Fraction or None
        The WordPiece score ``count(ab) / (count(a)·count(b))`` when the WordPiece rule chose
        the pair; ``None`` for BPE.
    """

    rank: int
    pair: Pair
    count: int
    new_symbol: str
    ties: tuple[Pair, ...]
    changed_words: tuple[str, ...]
    score: Fraction | None = None

    @property
    def is_tie(self) -> bool:
        return len(self.ties) > 1


@dataclass(frozen=True)
class WordSegmentation:
    """A word type of the corpus with its count and current symbols."""

    word: str
    count: int
    symbols: tuple[str, ...]


@dataclass(frozen=True)
class SegmentStep:
    """One state while replaying merges on a word: ``rank``/``pair`` of the merge just applied
    (``None`` for the initial split) and the symbols after it."""

    rank: int | None
    pair: Pair | None
    symbols: tuple[str, ...]


@dataclass(frozen=True)
class Candidate:
    """A candidate pair for the next merge with its frequency (and WordPiece score)."""

    pair: Pair
    count: int
    score: Fraction | None = None
