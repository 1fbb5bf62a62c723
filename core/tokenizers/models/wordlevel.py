"""The WordLevel model: each pre-tokenized word is one token, or the unknown token.

As in the ``tokenizers`` library: a word found in the vocabulary gives its id; any other
word gives ``unk_token`` (which must then be in the vocabulary) spanning the whole word.
"""

from __future__ import annotations

from typing import Any

from core.errors import SubwordScopeError, TokenizerLoadError
from core.tokenizers.models.base import CachedModel, Piece


class WordLevel(CachedModel):
    """Whole words as tokens.

    Parameters
    ----------
    vocab : dict[str, int]
    unk_token : str or None

    Raises
    ------
    TokenizerLoadError
        If ``unk_token`` is not a string (or None).
    """

    type_name = "WordLevel"

    def __init__(self, vocab: dict[str, int], unk_token: str | None = "<unk>"):
        super().__init__()
        if unk_token is not None and not isinstance(unk_token, str):
            raise TokenizerLoadError(f"WordLevel unk_token must be a string, not {unk_token!r}")
        self.vocab = vocab
        self.unk_token = unk_token

    def settings(self) -> dict[str, Any]:
        return {"unk_token": self.unk_token, "vocab_size": len(self.vocab)}

    def _tokenize(self, word: str) -> Piece:
        if not word:
            return (), (), (), ()
        id_ = self.vocab.get(word)
        if id_ is not None:
            return (word,), (id_,), (0,), (len(word),)
        unk = self.vocab.get(self.unk_token) if self.unk_token is not None else None
        if unk is None:
            raise SubwordScopeError(
                f"the word {word[:40]!r} is not in the WordLevel vocabulary and the unknown "
                f"token {self.unk_token!r} is missing from it")
        return (self.unk_token,), (unk,), (0,), (len(word),)
