"""Text below every tokenizer: normalization with its offset map, UTF-16/UTF-8 offset tables,
grapheme clusters, the GPT-2 byte alphabet, scripts, and reading text files.

The bottom layer of ``core``: it imports nothing of ``core`` but :mod:`core.errors`.

Modules: :mod:`~core.text.normalize` (``NormalizedText``, the teaching normalizer),
:mod:`~core.text.offsets`, :mod:`~core.text.graphemes`, :mod:`~core.text.byte_alphabet`,
:mod:`~core.text.scripts`, :mod:`~core.text.files`, :mod:`~core.text.edits`,
:mod:`~core.text.unicode_forms` (NFC/NFD/NFKC/NFKD with the reference's alignment).
"""

from core.text.graphemes import GraphemeBounds, grapheme_bounds, grapheme_interior
from core.text.normalize import NormalizedText, normalize
from core.text.offsets import offset_arrays, offset_tables, utf16_offset, utf8_offset

__all__ = [
    "GraphemeBounds", "NormalizedText", "grapheme_bounds", "grapheme_interior", "normalize",
    "offset_arrays", "offset_tables", "utf16_offset", "utf8_offset",
]
