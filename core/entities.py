"""Old path of :mod:`core.align.entities` and :mod:`core.text.offsets` (``core.entities.entities``
and ``core.entities.utf16_offset`` are public names)."""

from core.align.entities import Entity, LabelError, entities  # noqa: F401
from core.text.offsets import (  # noqa: F401
    from_utf16_offset, from_utf8_offset, offset_arrays, offset_tables, utf16_offset, utf8_offset,
)
