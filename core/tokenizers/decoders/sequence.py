"""The Sequence decoder: its members applied in turn, each to what the previous left."""

from __future__ import annotations

from typing import Any

from core.tokenizers.decoders.base import Decoder, Tracked


class Sequence(Decoder):
    """Decoders chained (``[Replace, ByteFallback, Fuse, Strip]`` in Llama files)."""

    type_name = "Sequence"

    def __init__(self, decoders: list[Decoder]):
        self.decoders = list(decoders)

    def describe(self) -> dict[str, Any]:
        return {"type": "Sequence", "decoders": [d.describe() for d in self.decoders]}

    def step(self, items: list[Tracked]) -> list[Tracked]:
        """The members' costs, added."""
        for d in self.decoders:
            items = d.step(items)
        return items
