"""The ``Precompiled`` normalizer: SentencePiece's charsmap, applied as ``tokenizers`` does.

The charsmap (:class:`core.tokenizers.normalizers.charsmap.Charsmap`, decoded from the
base64 string of the ``tokenizer.json``) says which grapheme clusters or characters are
replaced and by what; :meth:`NormalizedText.replace_segments` applies the replacements
keeping the offset map (a replacement's characters take their source characters' spans,
extra ones the last source character's, a deleted character vanishes). Spans are code
points of the original text.

One quirk of the reference is kept on purpose, because offsets must equal its offsets:
when the text *starts* with deleted characters (e.g. a control character such as
``"\\x01abc"``), the reference has no earlier character to attach the deletion to, so every
later character takes the span of the character ``k`` positions before it (``k`` deleted):
``"\\x01abc"`` → ``▁a (0, 1)``, ``bc (1, 3)``. And a deletion right after a replacement
that grew (``"¯\\x1f"``: ``¯`` → space + U+0304, then ``\\x1f`` deleted) is attached to the
grown replacement's last, inserted character, which then takes the deleted character's
span: U+0304 gets ``(1, 2)``. Derived offsets must not inherit these misplacements, so
where one applies the result also carries the map without it
(:attr:`NormalizedText.truthful`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core.text.normalize import NormalizedText
from core.tokenizers.normalizers.base import Normalizer, cut_between_printable
from core.tokenizers.normalizers.charsmap import Charsmap


_HEAD = 64  # code points looked at for deleted characters at the start of a text


class Precompiled(Normalizer):
    """Applies a precompiled charsmap (``mode="huggingface"``).

    Parameters
    ----------
    charsmap : Charsmap
    """

    type_name = "Precompiled"
    prepares = True

    def __init__(self, charsmap: Charsmap):
        self.charsmap = charsmap

    @classmethod
    def from_config(cls, cfg: dict) -> "Precompiled":
        return cls(Charsmap.from_base64(cfg["precompiled_charsmap"]))

    def settings(self) -> dict[str, Any]:
        return {"charsmap": repr(self.charsmap)}

    def prepare(self, chars: set[str]) -> None:
        self.charsmap.prepare(chars)

    def safe_cut(self, text: str, at: int) -> int | None:
        # between two printable ASCII characters: a grapheme boundary (each cluster is
        # looked up on its own), and neither is deleted (a deletion after a grown
        # replacement moves a span across it); never when the text starts with deleted
        # characters, whose shift runs to its end (module docstring)
        if leading_deletion(self.charsmap.normalize_segments(text[:_HEAD])):
            return None
        return cut_between_printable(text, at)

    def normalize(self, nt: NormalizedText) -> NormalizedText:
        """``nt`` through the charsmap, its map as the reference's (with both quirks of the
        module docstring); where a quirk misplaces characters, the result's
        :attr:`~NormalizedText.truthful` map is the one without them. O(n)."""
        segments = self.charsmap.normalize_segments(nt.text)
        if not segments:
            return nt
        given = nt
        k = leading_deletion(segments)
        if 0 < k < len(nt.text):  # the reference's shift (module docstring)
            n = len(nt.text)
            s, e = nt.arrays()
            nt = NormalizedText.from_arrays(nt.original, nt.text, np.concatenate((s[:k], s[:n - k])),
                                            np.concatenate((e[:k], e[:n - k])))
        out = nt.replace_segments(segments)
        fix = _grown_then_deleted(segments)
        if fix:
            starts, ends = (a.copy() for a in out.arrays())
            at, src = (np.array(c, np.int64) for c in zip(*fix))
            nt_s, nt_e = nt.arrays()
            starts[at], ends[at] = nt_s[src], nt_e[src]
            out = NormalizedText.from_arrays(out.original, out.text, starts, ends)
        keys = [(a, b, len(rep)) for a, b, rep in segments if b - a > 1 and rep]
        if nt is not given or fix or keys or given.truthful is not None:
            out.truthful = _whole_keys(given.true_map(), segments, keys)
        return out


def _whole_keys(nt: NormalizedText, segments: list[tuple[int, int, str]],
                keys: list[tuple[int, int, int]]) -> NormalizedText:
    """``nt.replace_segments(segments)`` where each character replacing a key of several
    characters (``keys``: ``(a, b, len(replacement))``, e.g. ``¯`` + ZWNJ → space + U+0304)
    takes the span of the whole key: the reference gives the k-th one the k-th key
    character's span, but a character of the replacement does not come from one key
    character (the ZWNJ is dropped, not turned into the macron). O(n + segments)."""
    out = nt.replace_segments(segments)
    if not keys:
        return out
    starts, ends = (a.copy() for a in out.arrays())
    src_s, src_e = nt.arrays()
    delta = 0  # output index minus source index at the current segment
    for a, b, rep in segments:
        if rep and b - a > 1:
            o = a + delta
            starts[o:o + len(rep)] = src_s[a:b].min()
            ends[o:o + len(rep)] = src_e[a:b].max()
        delta += len(rep) - (b - a)
    return NormalizedText.from_arrays(out.original, out.text, starts, ends)


def leading_deletion(segments: list[tuple[int, int, str]]) -> int:
    """Number of characters deleted at the very start (before any kept character)."""
    pos = 0
    for a, b, rep in segments:
        if a != pos or rep:
            break
        pos = b
    return pos


def _grown_then_deleted(segments: list[tuple[int, int, str]]) -> list[tuple[int, int]]:
    """``(output index, source index)`` of inserted characters that a following deletion
    turns into replacements (see the module docstring)."""
    fix, delta, prev = [], 0, None
    for a, b, rep in segments:
        if not rep and prev is not None and prev[1] == a and len(prev[2]) > prev[1] - prev[0]:
            fix.append((prev[0] + prev[3] + len(prev[2]) - 1, a))
        prev = (a, b, rep, delta)
        delta += len(rep) - (b - a)
    return fix
