"""The WordPiece model: greedy longest-match-first over one pre-tokenized word.

Algorithm (Schuster & Nakajima 2012; BERT, Devlin et al. 2019, as the ``tokenizers``
library implements it): from the start of the word take the longest vocabulary entry that
matches (``##``-prefixed after the first piece); if some position matches nothing, or the
word has more than ``max_input_chars_per_word`` code points, the whole word becomes the
unknown token.

Cost per word of n code points: O(n·L) vocabulary lookups of strings of at most L code
points (L: the longest vocabulary entry), so O(n·L²) character work — linear in n whatever
``max_input_chars_per_word`` is (a huge value only lets longer words through). Memoized
per word through :class:`core.tokenizers.models.base.CachedModel`. Spans are code
points of the word. The ``vocab.txt`` reader is :mod:`core.tokenizers.formats.vocab_txt`.
"""

from __future__ import annotations

from typing import Any

from core.errors import TokenizerLoadError
from core.tokenizers.models.base import CachedModel, Piece


class WordPiece(CachedModel):
    """Greedy longest-match WordPiece.

    Parameters
    ----------
    vocab : dict[str, int]
        Token -> id.
    unk_token : str
        Must be in ``vocab``.
    continuing_subword_prefix : str
        Marks a piece that continues a word (``"##"``).
    max_input_chars_per_word : int
        Longer words (code points) become ``unk_token``; a non-negative integer of any size.

    Raises
    ------
    TokenizerLoadError
        If the vocabulary is empty or lacks ``unk_token``, or a setting has the wrong type
        (``max_input_chars_per_word`` not a non-negative integer, e.g. ``Infinity``).
    """

    type_name = "WordPiece"

    def __init__(self, vocab: dict[str, int], unk_token: str = "[UNK]",
                 continuing_subword_prefix: str = "##", max_input_chars_per_word: int = 100):
        super().__init__()
        if not vocab:
            raise TokenizerLoadError("the WordPiece vocabulary is empty")
        if not isinstance(unk_token, str) or not isinstance(continuing_subword_prefix, str):
            raise TokenizerLoadError("unk_token and continuing_subword_prefix must be strings")
        if unk_token not in vocab:
            raise TokenizerLoadError(f"the unknown token {unk_token!r} is not in the vocabulary")
        self.vocab = vocab
        self.unk_token = unk_token
        self.unk_id = vocab[unk_token]
        self.prefix = continuing_subword_prefix
        limit = max_input_chars_per_word
        if type(limit) is not int or limit < 0:
            raise TokenizerLoadError(
                f"max_input_chars_per_word must be a non-negative whole number of characters, "
                f"not {limit!r}")
        self.max_input_chars_per_word = limit

    def settings(self) -> dict[str, Any]:
        return {"unk_token": self.unk_token, "continuing_subword_prefix": self.prefix,
                "max_input_chars_per_word": self.max_input_chars_per_word,
                "vocab_size": len(self.vocab)}

    def _reaches(self) -> tuple[dict[str, int], dict[str, int]]:
        """Per first character, the longest entry starting with it, and the longest
        continuation (after the prefix) starting with it: no longer slice from there can
        be an entry, so the greedy match tries none. Built on first use, O(vocabulary)."""
        reaches = self.__dict__.get("_reach")
        if reaches is None:
            first: dict[str, int] = {}
            cont: dict[str, int] = {}
            prefix, k = self.prefix, len(self.prefix)
            for t in self.vocab:
                if t and len(t) > first.get(t[0], 0):
                    first[t[0]] = len(t)
                if k and len(t) > k and t.startswith(prefix) and len(t) - k > cont.get(t[k], 0):
                    cont[t[k]] = len(t) - k
            reaches = self._reach = (first, cont if k else first)
        return reaches

    def _tokenize(self, word: str) -> Piece:
        """Greedy longest match: O(n·L) lookups for n code points, L the longest entry
        that starts with the character at hand (:meth:`_reaches`)."""
        n = len(word)
        if n == 0:
            return (), (), (), ()
        unk = ((self.unk_token,), (self.unk_id,), (0,), (n,))
        if n > self.max_input_chars_per_word:
            return unk
        vocab, prefix = self.vocab, self.prefix
        first, cont = self._reaches()
        tokens: list[str] = []
        ids: list[int] = []
        starts: list[int] = []
        start = 0
        while start < n:
            lead = prefix if start else ""
            end = min(n, start + (cont if start else first).get(word[start], 0))
            while end > start:
                piece = lead + word[start:end]
                tid = vocab.get(piece)
                if tid is not None:
                    break
                end -= 1
            else:
                return unk
            tokens.append(piece)
            ids.append(tid)
            starts.append(start)
            start = end
        return tuple(tokens), tuple(ids), tuple(starts), tuple(starts[1:]) + (n,)
