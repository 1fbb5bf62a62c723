"""WhitespaceSplit's short-text split (``re.split`` parts) equals its ``finditer`` over the
words and the chunked long-text split, on generated text rich in whitespace runs."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from core.tokenizers.pre_tokenizers import separators

_ALPHABET = "ab\u00e9\u4e2d \t\n\u3000\u00a0\u2009\x1c\u200b,."
_texts = st.text(alphabet=_ALPHABET, max_size=60)


@settings(max_examples=300, deadline=None)
@given(_texts)
def test_property_split_removed_equals_finditer(text):
    pre = separators.whitespace_split()
    got = pre.split_removed(text)
    assert got == pre.split_short(text) == pre.split_long(text)
    assert pre.split(text) == got


def test_split_removed_edges():
    pre = separators.whitespace_split()
    assert pre.split_removed("") == ([], [])
    assert pre.split_removed("   ") == ([], [])
    assert pre.split_removed("  a  bc ") == (["a", "bc"], [2, 5])
    assert pre.split_removed("a\u3000b") == (["a", "b"], [0, 2])
