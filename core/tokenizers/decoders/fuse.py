"""The Fuse decoder: every string of the chain joined into one (so later steps, such as
Strip, see the whole text)."""

from __future__ import annotations

from core.tokenizers.decoders.base import Decoder, Tracked


class Fuse(Decoder):
    """``["a", "b"]`` → ``["ab"]`` (an empty chain → ``[""]``, as the reference)."""

    type_name = "Fuse"

    @classmethod
    def from_config(cls, cfg: dict) -> "Fuse":
        return cls()

    def step(self, items: list[Tracked]) -> list[Tracked]:
        """O(total length)."""
        return [Tracked.join(items)] if items else [Tracked("", 0, ())]
