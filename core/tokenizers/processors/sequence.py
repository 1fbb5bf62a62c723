"""The Sequence post-processor: members applied in turn (e.g. ByteLevel trimming, then a
template); at most one of them may add special tokens."""

from __future__ import annotations

from typing import Any

from core.errors import TokenizerLoadError
from core.tokenizers.processors.base import Item, PostProcessor


class Sequence(PostProcessor):
    """Post-processors applied in turn (e.g. ByteLevel trimming, then a template).

    Raises
    ------
    TokenizerLoadError
        If more than one member adds special tokens (not supported).
    """

    type_name = "Sequence"

    def __init__(self, processors: list[PostProcessor]):
        self.processors = list(processors)
        templated = [p for p in self.processors if p.single_template() != [("sequence", 0)]]
        if len(templated) > 1:
            raise TokenizerLoadError("a post-processor Sequence with two templates is not supported")
        self._template = templated[0].single_template() if templated else [("sequence", 0)]

    def describe(self) -> dict[str, Any]:
        return {"type": "Sequence", "processors": [p.describe() for p in self.processors]}

    def single_template(self) -> list[Item]:
        return self._template

    def adjust(self, text, tokens, offsets) -> None:
        for p in self.processors:
            p.adjust(text, tokens, offsets)

    def adjust_arrays(self, text, tokens, starts, ends) -> None:
        for p in self.processors:
            p.adjust_arrays(text, tokens, starts, ends)
