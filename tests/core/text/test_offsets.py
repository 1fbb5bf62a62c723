"""Code point / UTF-16 / UTF-8 offsets (core.text.offsets, re-exported by core.entities)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.entities import utf16_offset as public_utf16_offset
from core.errors import OffsetError
from core.text.offsets import (
    from_utf8_offset,
    from_utf16_offset,
    offset_arrays,
    offset_tables,
    utf8_offset,
    utf16_offset,
)
from tests.core.strategies import any_text


def test_core_entities_keeps_the_public_utf16_offset():
    assert public_utf16_offset is utf16_offset


def test_offsets_surrogates_and_errors():
    text = "a\U0001F600b\ud800"
    u16, u8 = offset_tables(text)
    assert u16 == [0, 1, 3, 4, 5]
    assert u8 == [0, 1, 5, 6, 9]
    assert from_utf16_offset(text, 3) == 2
    assert from_utf8_offset(text, 5) == 2
    with pytest.raises(OffsetError, match="inside"):
        from_utf16_offset(text, 2)
    with pytest.raises(OffsetError, match="inside"):
        from_utf8_offset(text, 3)
    with pytest.raises(OffsetError, match="outside"):
        utf16_offset(text, 9)
    with pytest.raises(OffsetError, match="outside"):
        from_utf8_offset(text, 99)


@settings(max_examples=200, deadline=None)
@given(any_text, st.data())
def test_offset_conversions_agree_with_encoders(text, data):
    i = data.draw(st.integers(0, len(text)))
    prefix = text[:i]
    u16 = len(prefix.encode("utf-16-le", "surrogatepass")) // 2
    u8 = len(prefix.encode("utf-8", "surrogatepass"))
    assert utf16_offset(text, i) == u16
    assert utf8_offset(text, i) == u8
    assert from_utf16_offset(text, u16) == i
    assert from_utf8_offset(text, u8) == i
    tables = offset_tables(text)
    assert tables[0][i] == u16 and tables[1][i] == u8


def test_offset_arrays_surrogates_and_ascii():
    u16, u8 = offset_arrays("a\U0001F600b\ud800\u00e9\u4e2d")
    assert (u16.dtype, u8.dtype) == (np.int64, np.int64)
    assert u16.tolist() == [0, 1, 3, 4, 5, 6, 7]
    assert u8.tolist() == [0, 1, 5, 6, 9, 11, 14]
    assert [a.tolist() for a in offset_arrays("ab")] == [[0, 1, 2], [0, 1, 2]]
    assert [a.tolist() for a in offset_arrays("")] == [[0], [0]]


@settings(max_examples=200, deadline=None)
@given(any_text)
def test_offset_arrays_equal_offset_tables(text):
    u16, u8 = offset_arrays(text)
    assert (u16.tolist(), u8.tolist()) == offset_tables(text)
    assert u8[-1] == len(text.encode("utf-8", "surrogatepass"))


# --- bad input to entities() (tester findings) ------------------------------------------------
