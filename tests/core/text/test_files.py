"""core.text.files: one rule for 'is this file text?' shared by every corpus reader."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import SubwordScopeError
from core.text.files import (
    MAX_CONTROL_SHARE, MAX_TEXT_FILE_BYTES, FileTooLargeError, NotRegularFileError, NotTextError,
    TextFileError, check_regular_file, read_file_bytes, read_text_file)


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
    with pytest.raises(NotRegularFileError, match="this is a folder, not a regular file"):
        read_text_file(tmp_path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_fifo_is_refused_without_opening_it(tmp_path):
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)  # opening it for reading would block: no writer ever comes
    with pytest.raises(NotRegularFileError, match=r"a FIFO \(named pipe\), not a regular file"):
        read_text_file(fifo)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_symlink_to_dev_zero_is_refused_before_reading(tmp_path):
    link = tmp_path / "corpus.txt"
    link.symlink_to("/dev/zero")
    with pytest.raises(NotRegularFileError, match="a character device") as info:
        read_text_file(link)
    assert info.value.path == str(link)


def test_size_cap_is_checked_before_reading(tmp_path):
    path = tmp_path / "big.txt"
    path.write_bytes(b"x" * 101)
    assert check_regular_file(path, 101) == 101
    assert read_file_bytes(path, 101) == b"x" * 101
    with pytest.raises(FileTooLargeError, match="the file is 101 bytes, larger than the "
                                                "100-byte limit"):
        read_file_bytes(path, 100)
    assert MAX_TEXT_FILE_BYTES == 256 * 2**20
    assert issubclass(FileTooLargeError, TextFileError)
    assert issubclass(NotRegularFileError, TextFileError)


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
