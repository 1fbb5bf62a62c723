"""Post-processors of the tokenizer pipeline and their registry.

A post-processor adds special tokens around the encoded sequence (``add_special_tokens``)
through ``single_template()`` and may edit offsets through ``adjust`` (see
:mod:`.base`). Modules: :mod:`.base`, :mod:`.template` (BertProcessing,
TemplateProcessing), :mod:`.byte_level` (ByteLevel, RobertaProcessing and their
``trim_offsets``), :mod:`.sequence`.

To add a component: subclass :class:`PostProcessor` in a module of this package and
register a builder in :data:`POST_PROCESSORS`.
"""

from __future__ import annotations

from typing import Callable

from core.tokenizers._components import build_component
from core.tokenizers.processors.base import Item, PostProcessor
from core.tokenizers.processors.byte_level import (
    ByteLevelProcessing, RobertaProcessing, trim_offsets)
from core.tokenizers.processors.sequence import Sequence
from core.tokenizers.processors.template import BertProcessing, TemplateProcessing

__all__ = [
    "POST_PROCESSORS", "BertProcessing", "ByteLevelProcessing", "Item", "PostProcessor",
    "RobertaProcessing", "Sequence", "TemplateProcessing", "build_post_processor",
    "trim_offsets",
]

#: ``tokenizer.json`` post-processor ``type`` -> builder taking the component's JSON object.
POST_PROCESSORS: dict[str, Callable[[dict], PostProcessor]] = {
    "BertProcessing": lambda cfg: BertProcessing(cfg["sep"], cfg["cls"]),
    "TemplateProcessing": TemplateProcessing.from_config,
    "ByteLevel": ByteLevelProcessing.from_config,
    "RobertaProcessing": RobertaProcessing.from_config,
    "Sequence": lambda cfg: Sequence([build_post_processor(c) for c in cfg["processors"]]),
}


def build_post_processor(cfg: dict | None) -> PostProcessor | None:
    """Build a post-processor from its ``tokenizer.json`` object (``None`` -> ``None``).

    Raises
    ------
    TokenizerLoadError
        For an unknown ``type`` or a template naming an undefined special token.
    """
    return build_component("post-processor", cfg, POST_PROCESSORS)
