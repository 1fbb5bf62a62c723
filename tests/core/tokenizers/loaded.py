"""Shared tokenizer files loaded once per test session (skipped when the file is absent)."""

from __future__ import annotations

import pytest

from core.tokenizers import load

_LOADED: dict[str, object] = {}


def shared_tokenizer(data_dir, rel: str):
    """The tokenizer at ``data_dir / "tokenizers" / rel``, loaded on first use and kept
    (callers may clear its caches, never change its settings)."""
    path = data_dir / "tokenizers" / rel
    if not path.exists():
        pytest.skip(f"{path} is absent")
    if rel not in _LOADED:
        _LOADED[rel] = load(path)
    return _LOADED[rel]
