"""The BPEDecoder: the end-of-word suffix (``</w>``) becomes a space, except in the last
string, where it is dropped."""

from __future__ import annotations

from typing import Any

from core.errors import TokenizerLoadError
from core.tokenizers.decoders.base import Decoder, Tracked, replace_all


class BPEDecoder(Decoder):
    """``["hel", "lo</w>", "world</w>"]`` → ``"hello world"``.

    Raises
    ------
    TokenizerLoadError
        If ``suffix`` is not a string.
    """

    type_name = "BPEDecoder"

    def __init__(self, suffix: str = "</w>"):
        if not isinstance(suffix, str):
            raise TokenizerLoadError(f"the BPEDecoder's suffix must be a string, not {suffix!r}")
        self.suffix = suffix

    @classmethod
    def from_config(cls, cfg: dict) -> "BPEDecoder":
        return cls(cfg.get("suffix", "</w>"))

    def settings(self) -> dict[str, Any]:
        return {"suffix": self.suffix}

    def step(self, items: list[Tracked]) -> list[Tracked]:
        """Every occurrence replaced, O(total length)."""
        last = len(items) - 1
        return [replace_all(t, self.suffix, "" if i == last else " ") for i, t in enumerate(items)]
