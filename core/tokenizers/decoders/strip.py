"""The Strip decoder: remove up to ``start`` copies of ``content`` from the start of each
string and up to ``stop`` from its end (Llama files strip the space a Metaspace-style
Replace put before the first word).

Where the reference panics — a string made only of ``content`` whose cuts cross, or a
string shorter than ``stop`` that is all ``content`` — this gives the empty string.
"""

from __future__ import annotations

from typing import Any

from core.errors import TokenizerLoadError
from core.tokenizers.decoders.base import Decoder, Tracked


class Strip(Decoder):
    """Parameters
    ----------
    content : str
        One character.
    start, stop : int
        How many copies at most to strip from each end (≥ 0).

    Raises
    ------
    TokenizerLoadError
        If ``content`` is not one character or a count is not a whole number ≥ 0.
    """

    type_name = "Strip"

    def __init__(self, content: str = " ", start: int = 0, stop: int = 0):
        if not isinstance(content, str) or len(content) != 1:
            raise TokenizerLoadError(f"the Strip decoder's content must be one character, "
                                     f"not {content!r}")
        for name, n in (("start", start), ("stop", stop)):
            if type(n) is not int or n < 0:
                raise TokenizerLoadError(f"the Strip decoder's {name} must be a whole number "
                                         f"≥ 0, not {n!r}")
        self.content, self.start, self.stop = content, start, stop

    @classmethod
    def from_config(cls, cfg: dict) -> "Strip":
        return cls(cfg.get("content", " "), cfg.get("start", 0), cfg.get("stop", 0))

    def settings(self) -> dict[str, Any]:
        return {"content": self.content, "start": self.start, "stop": self.stop}

    def step(self, items: list[Tracked]) -> list[Tracked]:
        """O(start + stop) per string."""
        out = []
        for item in items:
            t, c = item.text, self.content
            a = 0
            while a < min(self.start, len(t)) and t[a] == c:
                a += 1
            b = len(t)
            while len(t) - b < self.stop and b > 0 and t[b - 1] == c:
                b -= 1
            if (a, b) != (0, len(t)):
                b = max(a, b)
                item = item.edit(t[a:b], item.owners and item.owners[a:b])
            out.append(item)
        return out
