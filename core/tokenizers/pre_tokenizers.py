"""Pre-tokenizers: cut the normalized text into words, keeping normalized code-point spans.

Interface: ``split(text) -> (words, starts)``, two parallel lists: word ``k`` is
``words[k]`` and stands for the normalized characters ``[starts[k], starts[k] +
len(words[k]))`` of ``text``. A pre-tokenizer that rewrites its words (ByteLevel's byte
alphabet, Metaspace's ``▁``) sets ``transforms = True`` and implements either
``word_map(text, word, start) -> (starts, ends)`` (for every character of ``word`` the
normalized span it stands for, absolute in ``text``) or, faster, ``split_mapped(text,
first) -> (words, starts, (lo, hi))`` with ``lo``/``hi`` flat int64 arrays: the normalized
span of every character of every word, words concatenated in order. The tokenizer maps
model offsets through them.

To add a component: subclass :class:`PreTokenizer`, register a builder in
:data:`PRE_TOKENIZERS` under its ``tokenizer.json`` type name.
"""

from __future__ import annotations

import re
from itertools import accumulate
from operator import itemgetter
from typing import Any, Callable

import numpy as np
import regex

from core.errors import TokenizerLoadError
from core.tokenizers import chars
from core.tokenizers.components import build_component

Words = tuple[list[str], list[int]]
BEHAVIORS = ("Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous")
_WS = chars.WHITESPACE_CLASS
_PUNCT = chars.BERT_PUNCTUATION_CLASS


class PreTokenizer:
    """Base class of pre-tokenizers."""

    type_name = "PreTokenizer"
    transforms = False

    def split(self, text: str) -> Words:  # pragma: no cover
        raise NotImplementedError

    def word_map(self, text: str, word: str, start: int) -> tuple[list[int], list[int]]:
        """Normalized span of each character of a rewritten ``word`` (``transforms`` only)."""
        raise NotImplementedError  # pragma: no cover

    def split_mapped(self, text: str, first: bool = True) -> tuple[list[str], list[int], Any]:
        """``(words, starts, maps)``: :meth:`split` plus, for rewriting pre-tokenizers, the
        flat ``(lo, hi)`` normalized spans of every word character (None otherwise).
        ``first``: ``text`` starts the original text (Metaspace's ``"first"`` scheme); a
        Sequence reads it as a bound: a word starting before normalized position ``first``
        starts the original text (``True`` = 1, ``False`` = 0)."""
        words, starts = self.split(text)
        if not self.transforms:
            return words, starts, None
        lo: list[int] = []
        hi: list[int] = []
        for w, s in zip(words, starts):
            a, b = self.word_map(text, w, s)
            lo += a
            hi += b
        return words, starts, (np.asarray(lo, dtype=np.int64), np.asarray(hi, dtype=np.int64))

    def settings(self) -> dict[str, Any]:
        return {}

    def describe(self) -> dict[str, Any]:
        return {"type": self.type_name, **self.settings()}


class SeparatorSplit(PreTokenizer):
    """Split on separators: runs of ``removed`` characters vanish, each ``isolated``
    character becomes its own word (BertPreTokenizer, WhitespaceSplit).

    Fast path: one ``re.split`` and C-level bookkeeping, no per-word Python code.
    """

    def __init__(self, type_name: str, removed: str, isolated: str = ""):
        self.type_name = type_name
        alts = [f"[{removed}]+"] + ([f"[{isolated}]"] if isolated else [])
        self._split = re.compile("(" + "|".join(alts) + ")").split
        self._removed = re.compile(f"[{removed}]").match

    def split(self, text: str) -> Words:
        parts = self._split(text)
        pos = list(accumulate(map(len, parts), initial=0))
        removed = self._removed
        keep = [k for k in range(0, len(parts), 2) if parts[k]]
        keep += [k for k in range(1, len(parts), 2) if not removed(parts[k])]
        keep.sort()
        if not keep:
            return [], []
        if len(keep) == 1:
            return [parts[keep[0]]], [pos[keep[0]]]
        return list(itemgetter(*keep)(parts)), list(itemgetter(*keep)(pos))


class RegexWords(PreTokenizer):
    """Words are the matches of one regex (gaps are dropped)."""

    def __init__(self, pattern: str, type_name: str):
        self.type_name = type_name
        self._finditer = regex.compile(pattern).finditer

    def split(self, text: str) -> Words:
        ms = list(self._finditer(text))
        return [m.group() for m in ms], [m.start() for m in ms]


def bert_pre_tokenizer() -> SeparatorSplit:
    """BertPreTokenizer: split on whitespace (removed) and punctuation (each isolated)."""
    return SeparatorSplit("BertPreTokenizer", _WS, _PUNCT)


class Whitespace(PreTokenizer):
    """Whitespace: the reference's ``\\w+|[^\\w\\s]+``.

    Word characters are decided per character with :func:`chars.is_word_char` (Python's
    own ``\\w`` differs from the reference's), then one regex built from the distinct
    characters of the text does the split.
    """

    type_name = "Whitespace"

    def __init__(self) -> None:
        self._kinds: dict[str, str] = {}

    def split(self, text: str) -> Words:
        word, other = [], []
        kinds = self._kinds
        for c in set(text):
            k = kinds.get(c)
            if k is None:
                k = kinds[c] = ("s" if c in chars.WHITESPACE else
                                "w" if chars.is_word_char(c) else "o")
            if k != "s":
                (word if k == "w" else other).append(re.escape(c))
        alts = [f"[{''.join(cls)}]+" for cls in (word, other) if cls]
        if not alts:
            return [], []
        ms = list(re.finditer("|".join(alts), text))
        return [m.group() for m in ms], [m.start() for m in ms]


def whitespace() -> Whitespace:
    """Whitespace: ``\\w+|[^\\w\\s]+`` (Unicode word characters)."""
    return Whitespace()


def whitespace_split() -> SeparatorSplit:
    """WhitespaceSplit: runs of non-whitespace."""
    return SeparatorSplit("WhitespaceSplit", _WS)


class ClassSplit(PreTokenizer):
    """Split around characters of one class, with one of the reference's behaviours."""

    def __init__(self, char_class: str, behavior: str, type_name: str, **shown: Any):
        if behavior not in BEHAVIORS:
            raise TokenizerLoadError(f"unknown split behavior {behavior!r}; use one of {BEHAVIORS}")
        self.type_name, self.behavior, self._shown = type_name, behavior, shown
        plus = "+" if behavior == "Contiguous" else ""
        self._delims = regex.compile(f"[{char_class}]{plus}").finditer

    def settings(self) -> dict[str, Any]:
        return {"behavior": self.behavior, **self._shown}

    def split(self, text: str) -> Words:
        spans = split_spans(text, [m.span() for m in self._delims(text)], self.behavior)
        return [text[a:b] for a, b in spans], [a for a, _ in spans]


def split_spans(text: str, delims: list[tuple[int, int]], behavior: str) -> list[tuple[int, int]]:
    """Pieces of ``text`` around the sorted delimiter spans, per ``behavior``; no empties."""
    out: list[tuple[int, int]] = []
    pos = 0
    pending = None  # start of a delimiter waiting to merge with the next piece
    for a, b in delims:
        if behavior == "MergedWithPrevious":
            out.append((pos, b))
        elif behavior == "MergedWithNext":
            out.append((pending if pending is not None else pos, a))
            pending = a
            continue
        else:
            out.append((pos, a))
            if behavior != "Removed":
                out.append((a, b))
        pos = b
    if behavior == "MergedWithNext":
        out.append((pending if pending is not None else pos, len(text)))
    else:
        out.append((pos, len(text)))
    return [(a, b) for a, b in out if b > a]


def punctuation(behavior: str = "Isolated") -> ClassSplit:
    return ClassSplit(_PUNCT, behavior, "Punctuation")


def digits(individual_digits: bool = False) -> ClassSplit:
    behavior = "Isolated" if individual_digits else "Contiguous"
    return ClassSplit(r"\p{Nd}\p{Nl}\p{No}", behavior, "Digits",
                      individual_digits=individual_digits)


class Sequence(PreTokenizer):
    """Applies pre-tokenizers in turn, each to every word of the previous one.

    A member that rewrites its words (ByteLevel, Metaspace) makes the whole sequence a
    rewriting one; later members split rewritten words and their character maps are
    composed, so offsets still point at normalized characters.
    """

    type_name = "Sequence"

    def __init__(self, pre_tokenizers: list[PreTokenizer]):
        self.pre_tokenizers = list(pre_tokenizers)
        self.transforms = any(p.transforms for p in self.pre_tokenizers)
        self._caches: list[dict] = [{} for _ in self.pre_tokenizers]

    def describe(self) -> dict[str, Any]:
        return {"type": "Sequence", "pretokenizers": [p.describe() for p in self.pre_tokenizers]}

    def split(self, text: str) -> Words:
        words, starts, _ = self.split_mapped(text)
        return words, starts

    def split_mapped(self, text: str, first: bool = True):
        words, starts, maps = ([text], [0], None) if text else ([], [], None)
        for p, cache in zip(self.pre_tokenizers, self._caches):
            if maps is None and not p.transforms:
                nw, ns = [], []
                for word, base in zip(words, starts):
                    w2, s2 = p.split(word)
                    nw += w2
                    ns += [base + s for s in s2]
                words, starts = nw, ns
            elif maps is None:
                bulk = getattr(p, "split_many", None)
                done = bulk(words, starts, first) if bulk is not None else None
                words, starts, maps = done or _rewrite_plain(p, cache, words, starts, first)
            else:
                words, starts, maps = _rewrite_mapped(p, words, starts, maps, first)
        return words, starts, maps


def _identity_maps(words: list[str]) -> tuple[np.ndarray, np.ndarray]:
    lo = np.arange(sum(map(len, words)), dtype=np.int64)
    return lo, lo + 1


def _rewrite_plain(p, cache, words, starts, first):
    """Apply ``p`` to unrewritten words (memoized per word, maps relative to the word)."""
    nw, ns, rel_lo, rel_hi, bases, lens = [], [], [], [], [], []
    if len(cache) > 200_000:
        cache.clear()
    for word, base in zip(words, starts):
        key = (word, base < first)
        hit = cache.get(key)
        if hit is None:
            w2, s2, m2 = p.split_mapped(word, key[1])
            hit = cache[key] = (w2, s2, m2 if m2 is not None else _identity_maps(w2))
        w2, s2, (lo, hi) = hit
        nw += w2
        ns += [base + s for s in s2]
        rel_lo.append(lo)
        rel_hi.append(hi)
        bases.append(base)
        lens.append(len(lo))
    if not nw:
        return nw, ns, (np.zeros(0, np.int64), np.zeros(0, np.int64))
    shift = np.repeat(np.asarray(bases, dtype=np.int64), lens)
    return nw, ns, (np.concatenate(rel_lo) + shift, np.concatenate(rel_hi) + shift)


def _rewrite_mapped(p, words, starts, maps, first):
    """Apply ``p`` to rewritten words, composing its character maps with theirs."""
    nw, ns, los, his = [], [], [], []
    k = 0
    for word, base in zip(words, starts):
        n = len(word)
        lo_w, hi_w = maps[0][k:k + n], maps[1][k:k + n]
        k += n
        w2, s2, m2 = p.split_mapped(word, base < first)
        lo2, hi2 = m2 if m2 is not None else _identity_maps(w2)
        if m2 is None:
            lo2 = np.concatenate([np.arange(s, s + len(w)) for w, s in zip(w2, s2)] or [lo2])
            hi2 = lo2 + 1
        lo = lo_w[np.minimum(lo2, n - 1)]
        hi = hi_w[np.clip(hi2 - 1, 0, n - 1)]
        empty = hi2 <= lo2
        lo[empty & (lo2 >= n)] = hi_w[n - 1]
        hi[empty] = lo[empty]
        nw += w2
        ns += [int(x) for x in lo[np.cumsum([0] + [len(w) for w in w2[:-1]])]] if w2 else []
        los.append(lo)
        his.append(hi)
    if not nw:
        return nw, ns, (np.zeros(0, np.int64), np.zeros(0, np.int64))
    return nw, ns, (np.concatenate(los), np.concatenate(his))


#: ``tokenizer.json`` pre-tokenizer ``type`` -> builder taking the component's JSON object.
PRE_TOKENIZERS: dict[str, Callable[[dict], PreTokenizer]] = {
    "BertPreTokenizer": lambda cfg: bert_pre_tokenizer(),
    "Whitespace": lambda cfg: whitespace(),
    "WhitespaceSplit": lambda cfg: whitespace_split(),
    "Punctuation": lambda cfg: punctuation(cfg.get("behavior", "Isolated")),
    "Digits": lambda cfg: digits(bool(cfg.get("individual_digits", False))),
    "Sequence": lambda cfg: Sequence([build_pre_tokenizer(c) for c in cfg["pretokenizers"]]),
    "ByteLevel": lambda cfg: _steps().ByteLevel.from_config(cfg),
    "Metaspace": lambda cfg: _metaspace().Metaspace.from_config(cfg),
    "Split": lambda cfg: _split_rules().Split.from_config(cfg),
    "CharDelimiterSplit": lambda cfg: _split_rules().char_delimiter_split(cfg["delimiter"]),
    "UnicodeScripts": lambda cfg: _split_rules().UnicodeScripts(),
}


def _steps():  # these modules subclass PreTokenizer, so they are imported on first use
    from core.tokenizers import bytelevel_steps
    return bytelevel_steps


def _metaspace():
    from core.tokenizers import metaspace
    return metaspace


def _split_rules():
    from core.tokenizers import split_rules
    return split_rules


def build_pre_tokenizer(cfg: dict | None) -> PreTokenizer | None:
    """Build a pre-tokenizer from its ``tokenizer.json`` object (``None`` -> ``None``).

    Raises
    ------
    TokenizerLoadError
        For an unknown ``type`` or behaviour.
    """
    return build_component("pre-tokenizer", cfg, PRE_TOKENIZERS)
