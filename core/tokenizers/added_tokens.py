"""Added tokens: strings matched verbatim in the text before the model sees it.

Tokens with ``normalized=False`` (all special tokens by default) are matched in the
original text before normalization; those with ``normalized=True`` in each normalized
segment. Matching is leftmost-longest, as in the reference library. ``single_word``,
``lstrip`` and ``rstrip`` are honoured approximately (word-boundary lookarounds, absorbed
whitespace).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable

from core.tokenizers import chars

Segment = tuple[int, int, "AddedToken | None"]


@dataclass(frozen=True)
class AddedToken:
    """One entry of ``tokenizer.json``'s ``added_tokens``."""

    content: str
    id: int
    special: bool = False
    single_word: bool = False
    lstrip: bool = False
    rstrip: bool = False
    normalized: bool = False

    @classmethod
    def from_config(cls, cfg: dict[str, Any]) -> "AddedToken":
        special = bool(cfg.get("special", False))
        return cls(str(cfg["content"]), int(cfg["id"]), special, bool(cfg.get("single_word", False)),
                   bool(cfg.get("lstrip", False)), bool(cfg.get("rstrip", False)),
                   bool(cfg.get("normalized", not special)))


class AddedVocabulary:
    """Finds added tokens in text and splits around them."""

    def __init__(self, tokens: Iterable[AddedToken]):
        self.tokens = list(tokens)
        self.by_content = {t.content: t for t in self.tokens}
        self.has_raw = any(not t.normalized for t in self.tokens)
        self.has_normalized = any(t.normalized for t in self.tokens)
        self._raw = _matcher([t for t in self.tokens if not t.normalized])
        self._norm = _matcher([t for t in self.tokens if t.normalized])

    def split_original(self, text: str) -> list[Segment]:
        """Segments of the original text: ``(start, end, token or None)``."""
        return self._split(self._raw, text)

    def split_normalized(self, text: str) -> list[Segment]:
        """Segments of one normalized text: ``(start, end, token or None)``."""
        return self._split(self._norm, text)

    def _split(self, matcher, text: str) -> list[Segment]:
        if matcher is None or not text:
            return [(0, len(text), None)] if text else []
        pattern, names, lead = matcher
        out: list[Segment] = []
        pos = 0
        match = pattern.match
        # only positions holding a possible first character can start a match; trying the
        # alternation there alone is much faster than searching with it
        for c in lead.finditer(text):
            i = c.start()
            if i < pos:
                continue
            m = match(text, i)
            if m is None or m.end() == i:
                continue
            a, b = m.span()
            if a > pos:
                out.append((pos, a, None))
            out.append((a, b, names[m.lastgroup]))
            pos = b
        if pos < len(text):
            out.append((pos, len(text), None))
        return out


def _matcher(tokens: list[AddedToken]):
    """One alternation, longest content first (leftmost-longest; group ``t<k>`` = token k),
    and a character class of the characters a match can start with."""
    if not tokens:
        return None
    ws = f"[{chars.WHITESPACE_CLASS}]*"
    alts, names = [], {}
    for k, t in enumerate(sorted(tokens, key=lambda t: -len(t.content))):
        body = re.escape(t.content)
        if t.single_word:
            body = rf"(?<!\w){body}(?!\w)"
        body = (ws if t.lstrip else "") + body + (ws if t.rstrip else "")
        alts.append(f"(?P<t{k}>{body})")
        names[f"t{k}"] = t
    lead = {t.content[0] for t in tokens if t.content}
    if any(t.lstrip for t in tokens):
        lead |= chars.WHITESPACE
    lead_class = "".join(re.escape(c) for c in sorted(lead)) or "^\\s\\S"
    return re.compile("|".join(alts)), names, re.compile(f"[{lead_class}]")
