"""The Metaspace pre-tokenizer (SentencePiece style): spaces become ``▁``, words start at one.

Steps, as in the ``tokenizers`` library: every space is replaced by the replacement
character (one for one, so it keeps the space's span); a replacement is prepended unless
the text already starts with one — always (``prepend_scheme="always"``), never, or only for
the piece that starts the original text (``"first"``); then, with ``split``, the text is cut
before every replacement (MergedWithNext). The prepended ``▁`` stands for the first
character (the reference's ``prepend``), so a lone ``▁`` token gets that character's span.

Older files carry ``add_prefix_space`` instead of ``prepend_scheme``: true means "always".
"""

from __future__ import annotations

from itertools import accumulate
from typing import Any

import numpy as np
import regex

from core.errors import TokenizerLoadError
from core.tokenizers.pre_tokenizers.base import PreTokenizer

SCHEMES = ("first", "always", "never")


class Metaspace(PreTokenizer):
    """Replace spaces by ``replacement``, prepend it, split before it.

    Parameters
    ----------
    replacement : str
        One character (``"▁"``, U+2581).
    prepend_scheme : {"first", "always", "never"}
    split : bool

    Raises
    ------
    TokenizerLoadError
        If ``replacement`` is not one character or the scheme is unknown.
    """

    type_name = "Metaspace"
    transforms = True
    batch_split = "metaspace"  # type: ignore[assignment]

    def __init__(self, replacement: str = "\u2581", prepend_scheme: str = "always",
                 split: bool = True):
        if not isinstance(replacement, str) or len(replacement) != 1:
            raise TokenizerLoadError(f"Metaspace replacement must be one character, not {replacement!r}")
        if prepend_scheme not in SCHEMES:
            raise TokenizerLoadError(f"unknown Metaspace prepend_scheme {prepend_scheme!r}; use one of {SCHEMES}")
        self.replacement, self.prepend_scheme, self.split_words = replacement, prepend_scheme, bool(split)
        esc = regex.escape(replacement)
        self._findall = regex.compile(f"[^{esc}]+|{esc}[^{esc}]*").findall
        self._cut = regex.compile(f"[ {esc}]")

    @classmethod
    def from_config(cls, cfg: dict) -> "Metaspace":
        scheme = cfg.get("prepend_scheme")
        if scheme is None:
            scheme = "always" if cfg.get("add_prefix_space", True) else "never"
        split = cfg.get("split", True)
        if not isinstance(split, bool):
            raise TokenizerLoadError(f"split must be true or false, not {split!r}")
        return cls(cfg.get("replacement", "\u2581"), str(scheme).lower(), split)

    def settings(self) -> dict[str, Any]:
        return {"replacement": self.replacement, "prepend_scheme": self.prepend_scheme,
                "split": self.split_words}

    def split(self, text: str) -> tuple[list[str], list[int]]:
        words, starts, _ = self.split_mapped(text)
        return words, starts

    def safe_cut(self, text: str, at: int) -> int | None:
        # before a space (it becomes the replacement) or the replacement: a word starts
        # there, and a piece starting with it has nothing prepended
        if not self.split_words:
            return None
        m = self._cut.search(text, at)
        return None if m is None else m.start()

    def source_pieces(self, text: str, first: bool = True) -> tuple[list[str], int]:
        """The words of a non-empty ``text`` (spaces replaced, the replacement prepended if
        the scheme says so; they tile that text) and 1 if it was prepended, else 0. The
        word at offset ``p`` of the new text starts at normalized ``max(p - prefix, 0)``."""
        rep = self.replacement
        t = text.replace(" ", rep)
        pfx = int((self.prepend_scheme == "always" or (self.prepend_scheme == "first" and first))
                  and not t.startswith(rep))
        if pfx:
            t = rep + t
        return (self._findall(t) if self.split_words else [t]), pfx

    def split_mapped(self, text: str, first: bool = True):
        if not text:
            return [], [], None
        words, pfx = self.source_pieces(text, first)
        t_len = sum(map(len, words))
        starts = [max(s - pfx, 0) for s in accumulate(map(len, words[:-1]), initial=0)]
        index = np.arange(-pfx, t_len - pfx, dtype=np.int64)
        if pfx:
            return words, starts, (np.maximum(index, 0), np.maximum(index + 1, 1))
        return words, starts, (index, index + 1)

    def split_many(self, words: list[str], starts: list[int], first: bool):
        """:meth:`split_mapped` of many unrewritten words at once (a Sequence member after
        WhitespaceSplit); None when a word holds a space or the replacement (then the
        caller goes word by word)."""
        rep = self.replacement
        joined = "".join(words)
        if " " in joined or rep in joined:
            return None
        if self.prepend_scheme == "always":
            pfx = np.ones(len(words), dtype=np.int64)
        else:
            pfx = np.zeros(len(words), dtype=np.int64)
            if self.prepend_scheme == "first" and words and starts[0] < first:
                pfx[0] = 1
        if pfx.all():
            new = [rep + w for w in words]
        else:
            new = [rep + w if p else w for w, p in zip(words, pfx.tolist())]
        lens = np.fromiter(map(len, new), np.int64, len(new))
        word_pfx = np.repeat(pfx, lens)
        pos = np.arange(int(lens.sum()), dtype=np.int64) - np.repeat(np.cumsum(lens) - lens, lens)
        base = np.repeat(np.asarray(starts, dtype=np.int64), lens)
        rel = pos - word_pfx
        return new, list(starts), (base + np.maximum(rel, 0), base + np.maximum(rel + 1, 1))
