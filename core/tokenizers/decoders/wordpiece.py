"""The WordPiece decoder: glue continuation pieces (``##ing``) to the word before them, put a
space before every other piece, and optionally tidy the spaces around punctuation.

As the reference: every token but the first either loses the prefix (once, at its start) or
gains a leading space; with ``cleanup`` each resulting string then goes through
:func:`cleanup`, one token at a time (so a pattern spanning two tokens is not tidied).
"""

from __future__ import annotations

from typing import Any

from core.errors import TokenizerLoadError
from core.tokenizers.decoders.base import Decoder, Tracked, replace_all

#: (old, new) pairs of the reference's ``cleanup``, applied in this order.
CLEANUP = ((" .", "."), (" ?", "?"), (" !", "!"), (" ,", ","), (" ' ", "'"), (" n't", "n't"),
           (" 'm", "'m"), (" do not", " don't"), (" 's", "'s"), (" 've", "'ve"),
           (" 're", "'re"))


def cleanup(item: Tracked) -> Tracked:
    """English tokenization spaces removed (``" ."`` → ``"."``, ``" n't"`` → ``"n't"``, …):
    eleven replacements, O(length) each."""
    if item.owners is None:
        text = item.text
        for old, new in CLEANUP:
            if old in text:
                text = text.replace(old, new)
        return item if text is item.text else item.edit(text, None)
    for old, new in CLEANUP:
        item = replace_all(item, old, new)
    return item


class WordPiece(Decoder):
    """WordPiece decoding: ``["un", "##aff", "##able", "!"]`` → ``"unaffable!"``.

    Parameters
    ----------
    prefix : str
        The continuing-subword prefix (``"##"``).
    cleanup : bool
        Apply :func:`cleanup` to each string.

    Raises
    ------
    TokenizerLoadError
        If ``prefix`` is not a string or ``cleanup`` not a bool.
    """

    type_name = "WordPiece"

    def __init__(self, prefix: str = "##", cleanup: bool = True):
        if not isinstance(prefix, str) or not isinstance(cleanup, bool):
            raise TokenizerLoadError("the WordPiece decoder needs a string prefix and a "
                                     "true/false cleanup")
        self.prefix, self.cleanup = prefix, cleanup

    @classmethod
    def from_config(cls, cfg: dict) -> "WordPiece":
        return cls(cfg.get("prefix", "##"), cfg.get("cleanup", True))

    def settings(self) -> dict[str, Any]:
        return {"prefix": self.prefix, "cleanup": self.cleanup}

    def plain(self, tokens: list[str]) -> str:
        """:meth:`step` on plain strings, joined. O(total length)."""
        out, k, pre = [], len(self.prefix), self.prefix
        for i, t in enumerate(tokens):
            t = (t[k:] if t.startswith(pre) else " " + t) if i else t
            if self.cleanup:
                for old, new in CLEANUP:
                    if old in t:
                        t = t.replace(old, new)
            out.append(t)
        return "".join(out)

    def step(self, items: list[Tracked]) -> list[Tracked]:
        """O(total length) (times eleven with ``cleanup``)."""
        out, k = [], len(self.prefix)
        for i, item in enumerate(items):
            if i and item.text.startswith(self.prefix):
                item = item.edit(item.text[k:], item.owners and item.owners[k:])
            elif i:
                item = item.edit(" " + item.text, (item.home, *(item.owners or ())))
            out.append(cleanup(item) if self.cleanup else item)
        return out
