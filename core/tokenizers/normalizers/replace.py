"""Normalizers that cut, replace or insert text: Strip, Replace, Prepend.

Spans are code points of the original text; inserted characters take the span of a
neighbouring source character, as the reference library's edits do.
"""

from __future__ import annotations

from operator import methodcaller
from typing import Any

import numpy as np
import regex

from core.errors import TokenizerLoadError
from core.text.normalize import NormalizedText
from core.text.regex_lock import concurrency
from core.tokenizers import chars
from core.tokenizers._components import finditer_budgeted, needs_budget, regex_budget
from core.tokenizers.normalizers.base import Normalizer

_SPAN = methodcaller("span")


class Strip(Normalizer):
    """Removes leading and/or trailing whitespace (Unicode White_Space)."""

    type_name = "Strip"

    def __init__(self, left: bool = True, right: bool = True):
        self.left, self.right = bool(left), bool(right)

    @classmethod
    def from_config(cls, cfg: dict) -> "Strip":
        return cls(cfg.get("strip_left", True), cfg.get("strip_right", True))

    def settings(self) -> dict[str, Any]:
        return {"strip_left": self.left, "strip_right": self.right}

    def normalize(self, nt: NormalizedText) -> NormalizedText:
        ws = "".join(chars.WHITESPACE)
        t = nt.text
        a = len(t) - len(t.lstrip(ws)) if self.left else 0
        b = len(t.rstrip(ws)) if self.right else len(t)
        return nt if (a, b) == (0, len(t)) else nt.slice(a, max(a, b))


class Replace(Normalizer):
    """Replaces every match of a string or regex; new characters take the span of the
    last matched character, as the reference's ``replace`` does.

    A regex runs under a time budget (:func:`core.tokenizers._components.finditer_budgeted`),
    unless :func:`~core.tokenizers._components.needs_budget` says it need not.

    Raises
    ------
    TokenizerLoadError
        If the pattern or content is not a string, or the regex does not compile.
    PatternTimeoutError
        From :meth:`normalize`, when the regex runs past its time budget.
    """

    type_name = "Replace"

    def __init__(self, pattern: str, content: str, is_regex: bool = False):
        if not isinstance(pattern, str) or not isinstance(content, str):
            raise TokenizerLoadError("Replace needs a string pattern and a string content")
        self.pattern, self.content, self.is_regex = pattern, content, is_regex
        self.char_for_char = not is_regex and len(pattern) == 1 == len(content)
        self._budgeted = is_regex and needs_budget(pattern)
        # the ``regex`` module's \\s, like the reference's Oniguruma, is Unicode White_Space
        try:
            self._re = regex.compile(pattern if is_regex else regex.escape(pattern))
        except regex.error as exc:
            raise TokenizerLoadError(f"Replace has an invalid regex {pattern!r}: {exc}") from exc

    @classmethod
    def from_config(cls, cfg: dict) -> "Replace":
        pat = cfg["pattern"]
        if "Regex" in pat:
            return cls(pat["Regex"], cfg["content"], True)
        return cls(pat["String"], cfg["content"], False)

    def settings(self) -> dict[str, Any]:
        key = "regex" if self.is_regex else "string"
        return {key: self.pattern, "content": self.content}

    def normalize(self, nt: NormalizedText) -> NormalizedText:
        text = nt.text
        if not self._may_match(text):
            return nt
        if self.char_for_char:  # (Gemma's " " -> "▁"): the same map, O(n) in C
            return nt.same_map(text.replace(self.pattern, self.content))
        matches = (finditer_budgeted(self._re, text, self.pattern, "Replace normalizer")
                   if self._budgeted else self._re.finditer(text, concurrent=False))
        spans = [span for span in map(_SPAN, matches) if span[0] != span[1]]
        if not spans:
            return nt
        hit_a, hit_b = (np.array(c, np.int64) for c in zip(*spans))
        kept_from = np.concatenate(([0], hit_b))  # the kept runs: [kept_from, kept_to)
        kept_to = np.concatenate((hit_a, [len(text)]))
        pieces = list(map(text.__getitem__, map(slice, kept_from.tolist(), kept_to.tolist())))
        k = len(self.content)
        # each output character's source: kept runs count up, each content repeats the
        # match's last character (O(n) numpy over the runs, whatever their number)
        lengths = np.empty(2 * len(spans) + 1, np.int64)
        lengths[0::2], lengths[1::2] = kept_to - kept_from, k
        first = np.empty_like(lengths)
        first[0::2], first[1::2] = kept_from, hit_b - 1
        step = np.zeros_like(lengths)
        step[0::2] = 1
        run_at = np.cumsum(lengths) - lengths  # each run's first output index
        idx = np.repeat(first, lengths) + np.repeat(step, lengths) * (
            np.arange(int(lengths.sum()), dtype=np.int64) - np.repeat(run_at, lengths))
        starts, ends = nt.arrays()
        return NormalizedText.from_arrays(nt.original, self.content.join(pieces),
                                          starts[idx], ends[idx])

    def _may_match(self, text: str) -> bool:
        """False when the pattern surely matches nowhere in ``text`` (one C-level search;
        most short texts have nothing to replace). A regex search that runs past the
        budget answers True, so that the budgeted ``finditer`` raises the error."""
        if not self.is_regex:
            return self.pattern in text
        if not self._budgeted:
            return self._re.search(text, concurrent=concurrency(text)) is not None
        try:
            return self._re.search(text, timeout=regex_budget(text)) is not None
        except TimeoutError:
            return True


class Prepend(Normalizer):
    """Prepends a string to non-empty text; it takes the first character's span."""

    type_name = "Prepend"

    def __init__(self, prepend: str):
        if not isinstance(prepend, str):
            raise TokenizerLoadError("Prepend needs a string")
        self.prepend = prepend

    @classmethod
    def from_config(cls, cfg: dict) -> "Prepend":
        return cls(cfg["prepend"])

    def settings(self) -> dict[str, Any]:
        return {"prepend": self.prepend}

    def normalize(self, nt: NormalizedText) -> NormalizedText:
        if not nt.text:
            return nt
        k = len(self.prepend)
        starts, ends = nt.arrays()
        return NormalizedText.from_arrays(nt.original, self.prepend + nt.text,
                                          np.concatenate((np.full(k, starts[0]), starts)),
                                          np.concatenate((np.full(k, ends[0]), ends)))
