"""core.text.files: one rule for 'is this file text?' shared by every corpus reader."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import SubwordScopeError
from core.text.files import MAX_CONTROL_SHARE, NotTextError, TextFileError, read_text_file


def test_reads_utf8_and_drops_a_bom(tmp_path):
    path = tmp_path / "a.txt"
    path.write_bytes("\ufeffhé\tllo\r\n\u4e2d\U0001F600\n".encode("utf-8"))
    assert read_text_file(path) == "hé\tllo\r\n\u4e2d\U0001F600\n"
    (tmp_path / "empty.txt").write_bytes(b"")
    assert read_text_file(tmp_path / "empty.txt") == ""


@pytest.mark.parametrize(
    "data, match",
    [
        (b"abc\xff\xfe", r"not UTF-8 text \(invalid start byte at byte 3\)"),
        ("hello".encode("utf-16"), r"not UTF-8 text"),
        (b"\x89PNG\r\n\x1a\n" + b"\x00" * 20, r"not UTF-8 text"),
        (b"abc\x00def", r"NUL character at code point 3"),
        (b"\x01\x02\x03 text text", r"3 control characters"),
    ],
)
def test_non_text_is_refused_naming_the_file(tmp_path, data, match):
    path = tmp_path / "bad.txt"
    path.write_bytes(data)
    with pytest.raises(NotTextError, match=match) as info:
        read_text_file(path)
    assert str(info.value).startswith(f"{path}: ")
    assert info.value.path == str(path)
    assert issubclass(NotTextError, TextFileError) and issubclass(TextFileError, SubwordScopeError)


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(TextFileError, match="cannot read") as info:
        read_text_file(tmp_path / "missing.txt")
    assert not isinstance(info.value, NotTextError)
    with pytest.raises(TextFileError, match="cannot read"):
        read_text_file(tmp_path)


def test_control_share_threshold(tmp_path):
    n = int(1 / MAX_CONTROL_SHARE)
    path = tmp_path / "c.txt"
    path.write_text("\x07" + "a" * (n - 1), encoding="utf-8")  # exactly at the share: accepted
    assert read_text_file(path).startswith("\x07")
    path.write_text("\x07\x07" + "a" * (n - 2), encoding="utf-8")
    with pytest.raises(NotTextError):
        read_text_file(path)


@settings(max_examples=100, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs", "Cc"))))
def test_any_printable_text_round_trips(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("t") / "x.txt"
    path.write_bytes(text.encode("utf-8"))
    assert read_text_file(path) == text.removeprefix("\ufeff")
