"""Pre-tokenizers: cut the normalized text into words, keeping normalized code-point spans.

Interface: ``split(text) -> (words, starts)``, two parallel lists: word ``k`` is
``words[k]`` and stands for the normalized characters ``[starts[k], starts[k] +
len(words[k]))`` of ``text``. A pre-tokenizer that rewrites its words (ByteLevel's byte
alphabet, Metaspace's ``▁``) sets ``transforms = True`` and implements
``word_map(text, word, start) -> (starts, ends)``: for every character of ``word`` the
normalized span it stands for (absolute in ``text``); the tokenizer maps model offsets
through it.

To add a component: subclass :class:`PreTokenizer`, register a builder in
:data:`PRE_TOKENIZERS` under its ``tokenizer.json`` type name.
"""

from __future__ import annotations

import re
from itertools import accumulate
from operator import itemgetter
from typing import Any, Callable

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
    """Applies pre-tokenizers in turn, each to every word of the previous one."""

    type_name = "Sequence"

    def __init__(self, pre_tokenizers: list[PreTokenizer]):
        if any(p.transforms for p in pre_tokenizers):
            raise TokenizerLoadError(
                "a pre-tokenizer Sequence with a text-rewriting member is not supported yet")
        self.pre_tokenizers = list(pre_tokenizers)

    def describe(self) -> dict[str, Any]:
        return {"type": "Sequence", "pretokenizers": [p.describe() for p in self.pre_tokenizers]}

    def split(self, text: str) -> Words:
        words, starts = ([text], [0]) if text else ([], [])
        for p in self.pre_tokenizers:
            nw, ns = [], []
            for word, base in zip(words, starts):
                w2, s2 = p.split(word)
                nw += w2
                ns += [base + s for s in s2]
            words, starts = nw, ns
        return words, starts


#: ``tokenizer.json`` pre-tokenizer ``type`` -> builder taking the component's JSON object.
PRE_TOKENIZERS: dict[str, Callable[[dict], PreTokenizer]] = {
    "BertPreTokenizer": lambda cfg: bert_pre_tokenizer(),
    "Whitespace": lambda cfg: whitespace(),
    "WhitespaceSplit": lambda cfg: whitespace_split(),
    "Punctuation": lambda cfg: punctuation(cfg.get("behavior", "Isolated")),
    "Digits": lambda cfg: digits(bool(cfg.get("individual_digits", False))),
    "Sequence": lambda cfg: Sequence([build_pre_tokenizer(c) for c in cfg["pretokenizers"]]),
}


def build_pre_tokenizer(cfg: dict | None) -> PreTokenizer | None:
    """Build a pre-tokenizer from its ``tokenizer.json`` object (``None`` -> ``None``).

    Raises
    ------
    TokenizerLoadError
        For an unknown ``type`` or behaviour.
    """
    return build_component("pre-tokenizer", cfg, PRE_TOKENIZERS)
