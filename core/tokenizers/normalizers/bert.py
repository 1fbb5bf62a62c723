"""BERT's normalizer: clean text, CJK spacing, strip accents, lowercase (in that order)."""

from __future__ import annotations

import unicodedata
from typing import Any

from core.tokenizers import chars
from core.tokenizers.normalizers.base import CharMapNormalizer


class BertNormalizer(CharMapNormalizer):
    """BERT's normalizer, one code point at a time.

    ``clean_text`` drops NUL, U+FFFD and control characters and turns whitespace into a
    space; ``handle_chinese_chars`` surrounds CJK ideographs with spaces; ``strip_accents``
    removes nonspacing marks after NFD (``None`` follows ``lowercase``, as in the reference
    library); ``lowercase`` applies the full lowercase mapping.
    """

    type_name = "BertNormalizer"

    def __init__(self, clean_text=True, handle_chinese_chars=True, strip_accents=None,
                 lowercase=True):
        super().__init__()
        self.clean_text = bool(clean_text)
        self.handle_chinese_chars = bool(handle_chinese_chars)
        self.strip_accents = strip_accents
        self.lowercase = bool(lowercase)
        self._strip = lowercase if strip_accents is None else bool(strip_accents)

    @classmethod
    def from_config(cls, cfg: dict) -> "BertNormalizer":
        return cls(cfg.get("clean_text", True), cfg.get("handle_chinese_chars", True),
                   cfg.get("strip_accents"), cfg.get("lowercase", True))

    def settings(self) -> dict[str, Any]:
        return {"clean_text": self.clean_text, "handle_chinese_chars": self.handle_chinese_chars,
                "strip_accents": self.strip_accents, "lowercase": self.lowercase}

    def char_map(self, c: str) -> str:
        if self.clean_text:
            if c in "\x00\ufffd" or chars.is_control(c):
                return ""
            if chars.is_whitespace(c):
                c = " "
        if self.handle_chinese_chars and chars.is_cjk(c):
            c = f" {c} "
        if self._strip:
            c = "".join(x for x in unicodedata.normalize("NFD", c)
                        if not chars.is_nonspacing_mark(x))
        if self.lowercase:
            c = "".join(chars.lower(x) for x in c)
        return c
