"""Added tokens: strings matched verbatim in the text before the model sees it.

Tokens with ``normalized=False`` (all special tokens by default) are matched in the
original text before normalization; those with ``normalized=True`` in each normalized
piece, as their content normalizes. Matching follows the reference library's
``AddedVocabulary``: leftmost-longest, non-overlapping matches of the contents in one pass
(:class:`core.tokenizers.leftmost_longest.LeftmostLongest`); then a ``single_word`` match
with a word character (``\\w`` of the reference's regex engine) beside it is dropped,
``lstrip`` absorbs the whitespace before a match (not past the previous match) and
``rstrip`` the whitespace after it. A dropped match still hides the text it covers from
other added tokens, as in the reference.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable

from core.tokenizers import chars
from core.tokenizers.leftmost_longest import LeftmostLongest

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
    """Finds added tokens in text and splits around them.

    Parameters
    ----------
    tokens : iterable of AddedToken
        In file order; a content listed more than once is matched with the first entry's
        id, the last one's flags, and special if any entry is (as the reference).
    normalize : callable, optional
        The tokenizer's normalizer as ``str -> str``: ``normalized=True`` tokens are
        matched as their content normalizes (the reference normalizes them the same way).
        None: matched as written.

    The automata are built with the vocabulary (O(total content length); Gemma 3's 6,415
    tokens: ~0.01 s), as the reference builds its own at load: every text needs them.
    """

    def __init__(self, tokens: Iterable[AddedToken],
                 normalize: Callable[[str], str] | None = None):
        self.tokens = list(tokens)
        self.by_content = {t.content: t for t in self.tokens}
        self.has_raw = any(not t.normalized for t in self.tokens)
        self.has_normalized = any(t.normalized for t in self.tokens)
        self._normalize = normalize
        self._matchers: dict[bool, _Matcher | None] = {}
        for normalized in (False, True):
            self._matcher(normalized)

    def split_original(self, text: str, *, should_stop: Callable[[], bool] | None = None,
                       parse_special: bool = True) -> list[Segment]:
        """Segments of the original text: ``(start, end, token or None)`` in code points,
        covering ``text`` in order (empty list for an empty text).

        ``parse_special=False`` leaves special tokens in the text (the reference's
        ``encode_special_tokens = True``); ``should_stop`` is asked every few thousand code
        points (True raises :class:`core.errors.Cancelled`). Cost: O(n) for n code points
        (see :class:`~core.tokenizers.leftmost_longest.LeftmostLongest`).
        """
        return self._split(False, text, should_stop, parse_special)

    def split_normalized(self, text: str, *, should_stop: Callable[[], bool] | None = None,
                         parse_special: bool = True) -> list[Segment]:
        """Segments of one normalized piece, as :meth:`split_original` (the
        ``normalized=True`` tokens)."""
        return self._split(True, text, should_stop, parse_special)

    def _matcher(self, normalized: bool) -> "_Matcher | None":
        if normalized not in self._matchers:
            norm = self._normalize if normalized else None
            # (two contents that normalize alike: the last is found; the reference's choice
            # varies from one process to the next there)
            by_pattern = {(norm(t.content) if norm else t.content): t
                          for t in _as_the_reference_holds(self.tokens)
                          if t.normalized == normalized}
            by_pattern.pop("", None)
            self._matchers[normalized] = _Matcher(by_pattern) if by_pattern else None
        return self._matchers[normalized]

    def _split(self, normalized: bool, text: str, should_stop, parse_special: bool) -> list[Segment]:
        """The reference's ``find_matches``: the matcher's matches, then the flags.
        O(n) for n code points: the lstrip walks cover disjoint stretches between matches
        and the rstrip walk is remembered for the matches that end inside it."""
        n = len(text)
        matcher = self._matcher(normalized) if n else None
        if matcher is None or (not parse_special and matcher.all_special):
            return [(0, n, None)] if n else []
        toks = matcher.tokens
        out: list[Segment] = []
        offset = 0  # end of the previous match taken
        run_from = run_to = -1  # the last whitespace run rstrip measured
        ws, is_word = chars.WHITESPACE, chars.is_word_char
        for s, e, k in matcher.finder.find(text, should_stop):
            tok = toks[k]
            if tok.special and not parse_special:
                continue
            if tok.single_word and ((s and is_word(text[s - 1])) or (e < n and is_word(text[e]))):
                continue
            if tok.lstrip:
                if s < offset:
                    s = offset
                while s > offset and text[s - 1] in ws:
                    s -= 1
            if tok.rstrip:
                if not run_from <= e <= run_to:
                    run_from = run_to = e
                    while run_to < n and text[run_to] in ws:
                        run_to += 1
                e = run_to
            if offset < s:
                out.append((offset, s, None))
            out.append((s, e, tok))
            offset = e
        if offset != n:
            out.append((offset, n, None))
        return out


def _as_the_reference_holds(tokens: list[AddedToken]) -> list[AddedToken]:
    """``tokens`` with every content listed more than once given the first entry's id and
    ``special`` if any of its entries is (the reference keeps the last entry's flags under
    the first id). O(tokens)."""
    first: dict[str, tuple[int, bool]] = {}
    for t in tokens:
        id_, special = first.get(t.content, (t.id, False))
        first[t.content] = (id_, special or t.special)
    return [t if first[t.content] == (t.id, t.special)
            else replace(t, id=first[t.content][0], special=first[t.content][1]) for t in tokens]


class _Matcher:
    """One matcher over the patterns of one kind (raw or normalized) and their tokens."""

    def __init__(self, by_pattern: dict[str, AddedToken]):
        self.tokens = list(by_pattern.values())
        self.all_special = all(t.special for t in self.tokens)
        self.finder = LeftmostLongest(list(by_pattern))
