"""Normalizers of the tokenizer pipeline and their registry.

Every normalizer maps a :class:`core.text.normalize.NormalizedText` to a new one whose spans
(code points of the original text) still point into the original text. Per-character
normalizers (BertNormalizer, Lowercase, StripAccents, Nmt, NFD, NFKD, ByteLevel) subclass
:class:`~core.tokenizers.normalizers.base.CharMapNormalizer`: they define
``char_map(c) -> str`` and get a memoized whole-text fast path; a :class:`Sequence` fuses
consecutive ones into one pass.

Modules: :mod:`.base` (the base classes), :mod:`.bert`, :mod:`.unicode` (case, accents,
normalization forms, NMT), :mod:`.replace` (Strip, Replace, Prepend), :mod:`.byte_level`,
:mod:`.teaching`, :mod:`.sequence`, :mod:`.precompiled` (with the SentencePiece charsmap of
:mod:`.charsmap` and its trie, :mod:`.darts`).

To add a component: subclass :class:`Normalizer` in a module of this package, give it
``type_name`` and a ``from_config(config)`` classmethod, and register it in
:data:`NORMALIZERS` (the loader builds ``tokenizer.json`` normalizers from that table).
"""

from __future__ import annotations

from typing import Callable

from core.tokenizers._components import build_component
from core.tokenizers.normalizers.base import CharMapNormalizer, Normalizer
from core.tokenizers.normalizers.bert import BertNormalizer
from core.tokenizers.normalizers.byte_level import ByteLevelNormalizer
from core.tokenizers.normalizers.precompiled import Precompiled
from core.tokenizers.normalizers.replace import Prepend, Replace, Strip
from core.tokenizers.normalizers.sequence import Sequence
from core.tokenizers.normalizers.teaching import Teaching
from core.tokenizers.normalizers.unicode import (
    Compose, Decompose, Lowercase, Nmt, StripAccents)

__all__ = [
    "NORMALIZERS", "BertNormalizer", "ByteLevelNormalizer", "CharMapNormalizer", "Compose",
    "Decompose", "Lowercase", "Nmt", "Normalizer", "Precompiled", "Prepend", "Replace",
    "Sequence", "Strip", "StripAccents", "Teaching", "build_normalizer",
]


def _decompose(form: str) -> Callable[[dict], Normalizer]:
    return lambda cfg: Decompose(form)


def _compose(form: str) -> Callable[[dict], Normalizer]:
    return lambda cfg: Compose(form)


#: ``tokenizer.json`` normalizer ``type`` -> builder taking the component's JSON object.
NORMALIZERS: dict[str, Callable[[dict], Normalizer]] = {
    "BertNormalizer": BertNormalizer.from_config,
    "Lowercase": lambda cfg: Lowercase(),
    "StripAccents": lambda cfg: StripAccents(),
    "NFD": _decompose("NFD"),
    "NFKD": _decompose("NFKD"),
    "NFC": _compose("NFC"),
    "NFKC": _compose("NFKC"),
    "Strip": Strip.from_config,
    "Replace": Replace.from_config,
    "Prepend": Prepend.from_config,
    "Sequence": lambda cfg: Sequence([build_normalizer(c) for c in cfg["normalizers"]]),
    "Precompiled": Precompiled.from_config,
    "Nmt": lambda cfg: Nmt(),
    "ByteLevel": lambda cfg: ByteLevelNormalizer(),
}


def build_normalizer(cfg: dict | None) -> Normalizer | None:
    """Build a normalizer from its ``tokenizer.json`` object (``None`` -> ``None``).

    Raises
    ------
    TokenizerLoadError
        For an unknown ``type`` (``KeyError``/``TypeError`` on malformed settings are
        turned into ``TokenizerLoadError`` by the loader).
    """
    return build_component("normalizer", cfg, NORMALIZERS)
