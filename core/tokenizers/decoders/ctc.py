"""The CTC decoder (speech models): repeated tokens collapsed, the pad token removed, and
with ``cleanup`` the WordPiece tidying plus the word delimiter turned into a space; strings
left empty are dropped."""

from __future__ import annotations

from typing import Any

from core.errors import TokenizerLoadError
from core.tokenizers.decoders.base import Decoder, Tracked, replace_all
from core.tokenizers.decoders.wordpiece import cleanup


class CTC(Decoder):
    """``["<pad>", "h", "h", "e", "<pad>", "l", "l", "<pad>", "l", "o", "|"]`` → ``"hello "``.

    Raises
    ------
    TokenizerLoadError
        If a token is not a string or ``cleanup`` not a bool.
    """

    type_name = "CTC"

    def __init__(self, pad_token: str = "<pad>", word_delimiter_token: str = "|",
                 cleanup: bool = True):
        if not (isinstance(pad_token, str) and isinstance(word_delimiter_token, str)
                and isinstance(cleanup, bool)):
            raise TokenizerLoadError("the CTC decoder needs string pad and delimiter tokens "
                                     "and a true/false cleanup")
        self.pad_token, self.word_delimiter_token, self.cleanup = (
            pad_token, word_delimiter_token, cleanup)

    @classmethod
    def from_config(cls, cfg: dict) -> "CTC":
        return cls(cfg.get("pad_token", "<pad>"), cfg.get("word_delimiter_token", "|"),
                   cfg.get("cleanup", True))

    def settings(self) -> dict[str, Any]:
        return {"pad_token": self.pad_token, "word_delimiter_token": self.word_delimiter_token,
                "cleanup": self.cleanup}

    def step(self, items: list[Tracked]) -> list[Tracked]:
        """O(total length)."""
        out = []
        for k, item in enumerate(items):
            if k and item.text == items[k - 1].text:
                continue  # consecutive duplicates collapse into the first
            item = replace_all(item, self.pad_token, "")
            if self.cleanup:
                item = replace_all(cleanup(item), self.word_delimiter_token, " ")
            if item.text:
                out.append(item)
        return out
