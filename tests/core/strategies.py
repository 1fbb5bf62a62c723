"""Hypothesis strategies for text that exercises Unicode's edge cases."""

from __future__ import annotations

import pytest
from hypothesis import strategies as st

# Pieces people paste that break naive offset code.
TRICKY = [
    "e\u0301",  # decomposed é
    "\u00e9",  # precomposed é
    "\ufb01",  # fi ligature
    "\u0130",  # dotted capital I (lowercases to two code points)
    "\u00df",  # sharp s
    "\U0001F600",  # emoji outside the BMP
    "\U0001F469\u200d\U0001F4BB",  # ZWJ sequence
    "\U0001F44D\U0001F3FD",  # emoji + skin tone modifier
    "\u05e9\u05dc\u05d5\u05dd",  # Hebrew (RTL)
    "\u0645\u0631\u062d\u0628\u0627",  # Arabic
    "\ufefb",  # lam-alef ligature
    "\u0915\u094d\u0937",  # Devanagari conjunct with virama
    "\u0958",  # Devanagari QA (composition exclusion)
    "\u4e2d\u6587",  # CJK
    "\uff2e\uff21",  # fullwidth
    "\u200b", "\u200c", "\u00a0", "\u3000",  # zero-width space, ZWNJ, NBSP, ideographic space
    "\t", "\n", "\r\n", "  ",
    "\x00", "\x07", "\x7f", "\u0085",  # control characters
    "\ufffd",
    "\u0301",  # a lone combining mark
    "x\u00b2",
    "\uff76\uff85",  # half-width katakana
    "Zoe\u0301", "flew", "to", "Istanbul", "nvidia", "final", "'s", "-", "café",
]

tricky_text = st.lists(
    st.one_of(st.sampled_from(TRICKY), st.text(max_size=4)), max_size=12
).map("".join)

surrogate = st.integers(0xD800, 0xDFFF).map(chr)

any_text = st.lists(
    st.one_of(st.sampled_from(TRICKY), st.text(max_size=4), surrogate), max_size=12
).map("".join)


def refused_surrogate(tok, text: str, special: bool = False) -> bool:
    """True when ``tok``'s format refuses lone surrogates and ``text`` holds one; then
    checks that ``encode`` raises :class:`core.errors.LoneSurrogateError` at the first."""
    from core.errors import LoneSurrogateError
    from core.tokenizers.surrogates import REFUSE, first_surrogate

    at = first_surrogate(text)
    if at is None or getattr(tok, "lone_surrogates", None) != REFUSE:
        return False
    with pytest.raises(LoneSurrogateError) as caught:
        tok.encode(text, add_special_tokens=special)
    assert caught.value.index == at and caught.value.code_point == ord(text[at])
    return True


def without_refused_surrogates(tok, texts: list[str], special: bool = False) -> list[str]:
    """``texts`` without those ``tok`` refuses (:func:`refused_surrogate`), after checking
    that ``encode_batch`` of all of them refuses, naming the first such text."""
    from core.errors import LoneSurrogateError

    refused = [k for k, t in enumerate(texts) if refused_surrogate(tok, t, special)]
    if not refused:
        return texts
    with pytest.raises(LoneSurrogateError, match=rf"^texts\[{refused[0]}\] holds"):
        tok.encode_batch(texts, add_special_tokens=special)
    return [t for k, t in enumerate(texts) if k not in set(refused)]
