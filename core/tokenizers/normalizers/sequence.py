"""The Sequence normalizer: normalizers applied in order, with runs of per-character ones
(:class:`~core.tokenizers.normalizers.base.CharMapNormalizer`) fused into one pass."""

from __future__ import annotations

from typing import Any, Callable

from core.errors import check_stop
from core.text.normalize import NormalizedText
from core.tokenizers.normalizers.base import CharMapNormalizer, Normalizer


class Sequence(Normalizer):
    """Applies normalizers in order; runs of per-character ones are fused into one pass."""

    type_name = "Sequence"

    def __init__(self, normalizers: list[Normalizer]):
        self.normalizers = list(normalizers)
        self._steps = _fuse(self.normalizers)
        self.byte_level = any(n.byte_level for n in self.normalizers)
        self.prepares = any(n.prepares for n in self.normalizers)
        self.char_for_char = all(n.char_for_char for n in self.normalizers)

    def describe(self) -> dict[str, Any]:
        return {"type": "Sequence", "normalizers": [n.describe() for n in self.normalizers]}

    def prepare(self, chars: set[str]) -> None:
        for n in self.normalizers:
            n.prepare(chars)

    def normalize(self, nt: NormalizedText) -> NormalizedText:
        """``nt`` through every step; a :attr:`~NormalizedText.truthful` map one step
        gives is carried through the later ones (each applied to it too)."""
        return self.normalize_stoppable(nt, None)

    def normalize_stoppable(self, nt: NormalizedText,
                            should_stop: Callable[[], bool] | None) -> NormalizedText:
        """:meth:`normalize`, each step stoppable on its own (its
        :meth:`~Normalizer.normalize_stoppable`), ``should_stop`` asked between steps."""
        for step in self._steps:
            check_stop(should_stop)
            out = step.normalize_stoppable(nt, should_stop)
            if nt.truthful is not None and out.truthful is None:
                out.truthful = step.normalize_stoppable(nt.truthful, should_stop)
            nt = out
        return nt


class _Fused(CharMapNormalizer):
    """Composition of per-character maps (still a per-character map)."""

    def __init__(self, maps: list[Callable[[str], str]]):
        super().__init__()
        self._maps = maps

    def char_map(self, c: str) -> str:
        out = c
        for fn in self._maps:
            out = "".join(fn(x) for x in out)
        return out


def _fuse(normalizers: list[Normalizer]) -> list[Normalizer]:
    steps: list[Normalizer] = []
    run: list[CharMapNormalizer] = []
    for n in normalizers + [None]:
        if isinstance(n, CharMapNormalizer):
            run.append(n)
            continue
        if run:
            steps.append(run[0] if len(run) == 1 else _Fused([r.char_map for r in run]))
            run = []
        if n is not None:
            steps.append(n)
    return steps
