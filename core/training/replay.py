"""Replay the merges a real byte-level BPE encoder applies to a word, one merge at a time.

Works on plain data — a ``(left, right) → rank`` table over GPT-2's byte-to-unicode symbols —
built from a loaded byte-level BPE tokenizer (:func:`core.tokenizers.load` reads GPT-2
``vocab.json`` + ``merges.txt``, a byte-level BPE ``tokenizer.json`` or a tiktoken rank file)
by :meth:`MergeTable.from_tokenizer`. For a rank file nothing is built: two adjacent symbols
merge when their concatenation is a token, and the pair's rank is that token's rank —
tiktoken's own rule (``_byte_pair_merge``), so no merge list is derived from the ranks.

Encoding: repeatedly merge the adjacent pair of lowest rank, the leftmost one when it
occurs twice, until no adjacent pair has a rank.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from core.errors import Cancelled, TokenizerLoadError
from core.training.symbols import Pair


@dataclass(frozen=True)
class ReplayStep:
    """One merge the encoder applies: its ``rank``, the ``pair``, the ``index`` of the pair's
    left symbol before the merge, and the ``symbols`` after it."""

    rank: int
    pair: Pair
    index: int
    symbols: tuple[str, ...]


@dataclass(frozen=True)
class MergeTable:
    """What replay needs from a byte-level BPE tokenizer.

    Attributes
    ----------
    ranks : dict of (str, str) to int
        Merge priority of each pair of byte-level symbols (lower merges first): the line of
        the merge list, or for a tiktoken rank file the rank of the merged token.
    vocab : dict of str to int
        Token id of each byte-level token string.
    name : str
        A short label (the tokenizer's name).
    added : dict of str to int
        Added tokens (kept whole by the pre-tokenizer, never merged) and their ids.
    split : callable or None
        ``text -> [(byte-level word, surface text), ...]``, the tokenizer's pre-tokenization;
        None: the whole text is one word.
    by_rank : bool
        A tiktoken rank table: ``ranks`` is empty and ``a``, ``b`` merge with the rank of the
        token ``a + b`` (:meth:`rank`); a word that is itself a token stays whole, as in
        tiktoken.
    """

    ranks: dict[Pair, int]
    vocab: dict[str, int]
    name: str = ""
    added: dict[str, int] = field(default_factory=dict)
    split: Callable[[str], list[tuple[str, str]]] | None = field(
        default=None, repr=False, compare=False)
    by_rank: bool = False

    @classmethod
    def from_tokenizer(cls, tokenizer: Any,
                       should_stop: Callable[[], bool] | None = None) -> "MergeTable":
        """The merge table of a loaded byte-level BPE :class:`core.tokenizers.Tokenizer`.

        A rank (tiktoken) model costs O(1): its vocabulary is used as it is. A merge-list
        model costs O(m) for m merges (a rank dictionary, ~20 ms for GPT-2's 50,000): call
        it off the GUI thread.

        Raises
        ------
        TokenizerLoadError
            When the tokenizer is not byte-level BPE.
        core.errors.Cancelled
            When ``should_stop()`` (asked every 4,096 merges) returns true.
        """
        if not is_byte_level_bpe(tokenizer):
            raise TokenizerLoadError(
                f"{getattr(tokenizer, 'name', 'this tokenizer')} is not a byte-level BPE "
                "tokenizer; merge replay needs GPT-2 files, a byte-level BPE tokenizer.json "
                "or a tiktoken rank file")
        model = tokenizer.model
        added = {t.content: t.id for t in tokenizer.added.tokens}
        by_rank = model.describe()["merge_rule"].startswith("token rank")
        ranks = {} if by_rank else _rank_dict(model.merge_list(should_stop), should_stop)
        return cls(ranks, model.vocab, tokenizer.name, added, _splitter(tokenizer), by_rank)

    def rank(self, a: str, b: str) -> int | None:
        """The merge rank of the adjacent symbols ``a``, ``b`` (None: they never merge)."""
        return self.vocab.get(a + b) if self.by_rank else self.ranks.get((a, b))

    @property
    def n_merges(self) -> int | None:
        """How many merges the table holds (None for a rank table: it has no merge list)."""
        return None if self.by_rank else len(self.ranks)

    def steps(self, word: str) -> list["ReplayStep"]:
        """Every merge the encoder applies to one byte-level ``word`` (none for an added
        token): :func:`replay_merges` by :meth:`rank`. O(n²) for n symbols."""
        return [] if word in self.added else _replay(list(word), self.rank)

    def pretokenize(self, text: str) -> list[tuple[str, str]]:
        """Pre-tokenize ``text``: ``(byte-level word, the text it stands for)`` per piece."""
        if self.split is None:
            return [(text, text)] if text else []
        return self.split(text)


def is_byte_level_bpe(tokenizer: Any) -> bool:
    """Whether ``tokenizer`` (any object) is a byte-level BPE tokenizer replay can use."""
    model = getattr(tokenizer, "model", None)
    return getattr(model, "type_name", None) == "BPE" and bool(
        getattr(tokenizer, "is_byte_level", False))


def _rank_dict(merges: list[Pair], should_stop: Callable[[], bool] | None) -> dict[Pair, int]:
    """``pair → its first line`` of a merge list; O(m) for m merges."""
    ranks: dict[Pair, int] = {}
    for n, pair in enumerate(merges):
        if should_stop is not None and not n % 4096 and should_stop():
            raise Cancelled("building the replay's merge table was cancelled")
        ranks.setdefault(pair, len(ranks))
    return ranks


def _splitter(tokenizer: Any) -> Callable[[str], list[tuple[str, str]]]:
    def split(text: str) -> list[tuple[str, str]]:
        return [(word, text[a:b]) for word, (a, b) in tokenizer.pre_tokenize(text)]
    return split


def replay_merges(word: str | Sequence[str], ranks: Mapping[Pair, int]) -> list[ReplayStep]:
    """Every merge the encoder applies to one pre-tokenized piece, in order.

    Parameters
    ----------
    word : str or sequence of str
        The piece in the byte-level alphabet (one symbol per character,
        :func:`core.text.byte_alphabet.to_byte_level` maps text to it), or symbols as
        they are.
    ranks : mapping of (str, str) to int
        Merge ranks over byte-level symbols.

    Returns
    -------
    list of ReplayStep
        Empty when no merge applies; the last step's ``symbols`` are the final tokens.

    Notes
    -----
    O(n²) time and memory for n symbols (each step scans the pairs and keeps its symbols):
    meant for the few words a user types, not for long texts.
    """
    return _replay(list(word), lambda a, b: ranks.get((a, b)))


def _replay(symbols: list[str], rank: Callable[[str, str], int | None]) -> list[ReplayStep]:
    """:func:`replay_merges` with the pair rank given as a function; O(n²) for n symbols."""
    steps = []
    while len(symbols) > 1:
        best_rank, best_i = None, -1
        for i in range(len(symbols) - 1):
            r = rank(symbols[i], symbols[i + 1])
            if r is not None and (best_rank is None or r < best_rank):
                best_rank, best_i = r, i
        if best_rank is None:
            break
        pair = (symbols[best_i], symbols[best_i + 1])
        symbols[best_i:best_i + 2] = [pair[0] + pair[1]]
        steps.append(ReplayStep(best_rank, pair, best_i, tuple(symbols)))
    return steps


def encode_piece(word: str, table: MergeTable) -> tuple[list[str], list[int]]:
    """Final tokens and ids of one pre-tokenized byte-level ``word`` (an added token stays
    whole); raises :class:`TokenizerLoadError` when a token is missing from the vocabulary
    (merges and vocabulary disagree)."""
    if word in table.added:
        return [word], [table.added[word]]
    if table.by_rank and word in table.vocab:  # tiktoken takes a whole-word token as it is
        return [word], [table.vocab[word]]
    steps = table.steps(word)
    tokens = list(steps[-1].symbols) if steps else list(word)
    try:
        return tokens, [table.vocab[t] for t in tokens]
    except KeyError as exc:
        raise TokenizerLoadError(f"token {exc.args[0]!r} has no id in {table.name}") from None
