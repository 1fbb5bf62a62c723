"""What a trained merge list does to words it never saw, and the word-level baseline.

:func:`heldout_report` splits held-out words with a trainer's merges and counts, for each word
and for all of them, the tokens, the characters (code points, spaces excluded) and tokens per
character, and flags the symbols that are not in the vocabulary (a character outside the
learned alphabet: no id at all, the unknown-token problem one level below words).
:class:`WordLevel` is the other end of the trade-off: one id per corpus word type plus one
``[UNK]`` for everything else (Sennrich et al. 2016 §1 motivate subwords by its failure).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from core.training.bpe import BpeTrainer
from core.training.symbols import validated_counts

UNK = "[UNK]"


@dataclass(frozen=True)
class HeldoutWord:
    """One held-out word: its symbols after the merges, the symbols with no id, and sizes.

    ``n_chars`` counts code points of the word (the end-of-word marker is not a character).
    """

    word: str
    symbols: tuple[str, ...]
    unknown: tuple[str, ...]

    @property
    def n_tokens(self) -> int:
        return len(self.symbols)

    @property
    def n_chars(self) -> int:
        return len(self.word)


@dataclass(frozen=True)
class HeldoutReport:
    """Every held-out word and the totals over them."""

    words: tuple[HeldoutWord, ...]

    @property
    def n_tokens(self) -> int:
        return sum(w.n_tokens for w in self.words)

    @property
    def n_chars(self) -> int:
        return sum(w.n_chars for w in self.words)

    @property
    def tokens_per_char(self) -> float:
        """Tokens per code point over all words (0.0 when there are none)."""
        return self.n_tokens / self.n_chars if self.n_chars else 0.0

    @property
    def n_unknown(self) -> int:
        """Symbols outside the vocabulary, over all words (each occurrence counted)."""
        return sum(len(w.unknown) for w in self.words)


def vocabulary(trainer: BpeTrainer) -> frozenset[str]:
    """The trainer's vocabulary now: its initial alphabet plus one symbol per merge."""
    return frozenset(trainer.alphabet) | {s.new_symbol for s in trainer.history}


def heldout_report(trainer: BpeTrainer, text: str) -> HeldoutReport:
    """Split each whitespace-separated word of ``text`` with ``trainer``'s merges.

    A symbol is *unknown* when it is neither in the initial alphabet nor made by a merge (it
    would have no id). O(total length of the words × merges that apply), see
    :meth:`BpeTrainer.segment_steps`.
    """
    vocab = vocabulary(trainer)
    words = []
    for word in text.split():
        symbols = tuple(trainer.segment(word))
        words.append(HeldoutWord(word, symbols, tuple(s for s in symbols if s not in vocab)))
    return HeldoutReport(tuple(words))


class WordLevel:
    """A word-level tokenizer fitted to word counts: one id per word type, plus ``[UNK]``.

    Parameters
    ----------
    word_counts : mapping of str to int
        Corpus word types and their counts (> 0).

    Raises
    ------
    TrainingError
        Empty corpus, an empty word or a count that is not a positive integer.
    """

    def __init__(self, word_counts: Mapping[str, int]):
        words, counts = validated_counts(word_counts)
        self._words = frozenset(words)
        self.corpus_tokens = sum(counts)

    @property
    def table_size(self) -> int:
        """Entries of the embedding table: every word type and ``[UNK]``."""
        return len(self._words) + 1

    def segment(self, word: str) -> list[str]:
        """``[word]`` when it is a corpus word type, else ``["[UNK]"]`` (its identity is lost)."""
        return [word] if word in self._words else [UNK]
