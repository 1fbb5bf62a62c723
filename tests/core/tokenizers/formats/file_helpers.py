"""Helpers of the file-format tests: write a file, expect a load error naming it."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import TokenizerLoadError


def write(path: Path, content: str | bytes) -> Path:
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def expect_error(fn, path, *fragments):
    with pytest.raises(TokenizerLoadError) as err:
        fn(path)
    message = str(err.value)
    assert err.value.path == str(path) and message.startswith(str(path))
    for fragment in fragments:
        assert fragment in message, message
