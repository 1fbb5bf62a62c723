"""The teaching normalizer of SPEC §1 as a pipeline component (the demo tokenizer's)."""

from __future__ import annotations

from typing import Any

from core.text.normalize import NormalizedText, normalize
from core.tokenizers.normalizers.base import Normalizer


class Teaching(Normalizer):
    """The teaching normalizer of SPEC §1 (:func:`core.text.normalize.normalize`) as a component.

    Unlike the reference normalizers, a dropped mark widens the span of the character
    before it (so "Zoé" keeps its accent).
    """

    type_name = "Teaching"

    def __init__(self, **options: Any):
        self.options = options

    def settings(self) -> dict[str, Any]:
        return dict(self.options)

    def normalize(self, nt: NormalizedText) -> NormalizedText:
        inner = normalize(nt.text, **self.options)
        if nt.text == nt.original and nt.starts == list(range(len(nt.text))):
            return inner
        return nt.compose(inner)
