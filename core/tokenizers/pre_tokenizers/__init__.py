"""Pre-tokenizers of the tokenizer pipeline and their registry.

A pre-tokenizer cuts the normalized text into words, keeping each word's span in normalized
code points (the interface is described in :mod:`.base`). Modules: :mod:`.base`,
:mod:`.separators` (BertPreTokenizer, WhitespaceSplit, Whitespace), :mod:`.char_classes`
(Punctuation, Digits), :mod:`.split` (Split, CharDelimiterSplit), :mod:`.unicode_scripts`,
:mod:`.metaspace`, :mod:`.byte_level` (with the byte-level split patterns of
:mod:`.split_patterns`), :mod:`.sequence`.

To add a component: subclass :class:`PreTokenizer` in a module of this package and register
a builder in :data:`PRE_TOKENIZERS` under its ``tokenizer.json`` type name.
"""

from __future__ import annotations

from typing import Callable

from core.tokenizers._components import build_component
from core.tokenizers.pre_tokenizers.base import BEHAVIORS, PreTokenizer, Words
from core.tokenizers.pre_tokenizers.byte_level import ByteLevel
from core.tokenizers.pre_tokenizers.char_classes import ClassSplit, digits, punctuation
from core.tokenizers.pre_tokenizers.metaspace import Metaspace
from core.tokenizers.pre_tokenizers.separators import (
    SeparatorSplit, Whitespace, bert_pre_tokenizer, whitespace, whitespace_split)
from core.tokenizers.pre_tokenizers.sequence import Sequence
from core.tokenizers.pre_tokenizers.split import Split, char_delimiter_split
from core.tokenizers.pre_tokenizers.unicode_scripts import UnicodeScripts

__all__ = [
    "BEHAVIORS", "PRE_TOKENIZERS", "ByteLevel", "ClassSplit", "Metaspace", "PreTokenizer",
    "SeparatorSplit", "Sequence", "Split", "UnicodeScripts", "Whitespace", "Words",
    "bert_pre_tokenizer", "build_pre_tokenizer", "char_delimiter_split", "digits",
    "punctuation", "whitespace", "whitespace_split",
]

#: ``tokenizer.json`` pre-tokenizer ``type`` -> builder taking the component's JSON object.
PRE_TOKENIZERS: dict[str, Callable[[dict], PreTokenizer]] = {
    "BertPreTokenizer": lambda cfg: bert_pre_tokenizer(),
    "Whitespace": lambda cfg: whitespace(),
    "WhitespaceSplit": lambda cfg: whitespace_split(),
    "Punctuation": lambda cfg: punctuation(cfg.get("behavior", "Isolated")),
    "Digits": lambda cfg: digits(bool(cfg.get("individual_digits", False))),
    "Sequence": lambda cfg: Sequence([build_pre_tokenizer(c) for c in cfg["pretokenizers"]]),
    "ByteLevel": ByteLevel.from_config,
    "Metaspace": Metaspace.from_config,
    "Split": Split.from_config,
    "CharDelimiterSplit": lambda cfg: char_delimiter_split(cfg["delimiter"]),
    "UnicodeScripts": lambda cfg: UnicodeScripts(),
}


def build_pre_tokenizer(cfg: dict | None) -> PreTokenizer | None:
    """Build a pre-tokenizer from its ``tokenizer.json`` object (``None`` -> ``None``).

    Raises
    ------
    TokenizerLoadError
        For an unknown ``type`` or behaviour.
    """
    return build_component("pre-tokenizer", cfg, PRE_TOKENIZERS)
