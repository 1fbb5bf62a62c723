"""A tokenizer's own pipeline, stage by stage, in a few words each (what the Alignment pane's
pipeline row shows).

:func:`pipeline_steps` reads ``Tokenizer.describe()`` — the components the file declares —
and gives one :class:`PipelineStep` per stage in the order text goes through them:
normalizer, pre-tokenizer, model, post-processor, decoder. A ``Sequence`` is shown as its
parts joined by ``›``; a stage the file leaves out reads "none". Nothing is computed: this
only names what the file says, so the row can never disagree with the encode.

Public names: :class:`PipelineStep`, :func:`pipeline_steps`, :data:`STAGES`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from core.text.unicode_forms import FORMS

__all__ = ["PipelineStep", "STAGES", "pipeline_steps"]

STAGES = ("normalizer", "pre_tokenizer", "model", "post_processor", "decoder")
"""The stages in the order text goes through them (``describe()``'s keys)."""

_TITLES = {"normalizer": "Normalizer", "pre_tokenizer": "Pre-tokenizer", "model": "Model",
           "post_processor": "Post-processor", "decoder": "Decoder"}
_PARTS = ("normalizers", "pretokenizers", "pre_tokenizers", "processors", "decoders")
_SHORT = 28  # characters of a string setting shown in a step's label


@dataclass(frozen=True)
class PipelineStep:
    """One stage of the pipeline.

    Attributes
    ----------
    stage : str
        One of :data:`STAGES`.
    title : str
        The stage as people name it ("Pre-tokenizer").
    label : str
        A few words: the component types, with the one setting that tells them apart
        (``NFC``, ``Replace " "→"▁"``, ``Split regex › ByteLevel``, ``BPE 128,000``);
        "none" when the file has no such component.
    detail : str
        Every setting, as JSON (a tooltip).
    """

    stage: str
    title: str
    label: str
    detail: str


def pipeline_steps(tokenizer: Any) -> list[PipelineStep]:
    """The five :class:`PipelineStep` of ``tokenizer`` (anything with ``describe()`` giving
    the components as ``Tokenizer.describe`` does; a component missing from it reads
    "none"). O(size of the description)."""
    described = tokenizer.describe() if hasattr(tokenizer, "describe") else {}
    steps = []
    for stage in STAGES:
        part = described.get(stage)
        steps.append(PipelineStep(stage, _TITLES[stage], _label(part) if part else "none",
                                  json.dumps(part, ensure_ascii=False, indent=1, default=str)
                                  if part else "The file has no " + _TITLES[stage].lower()))
    return steps


def _label(part: dict) -> str:
    """A component's few words; a Sequence's parts joined by ``›``."""
    for key in _PARTS:
        if isinstance(part.get(key), list):
            inner = [_label(p) for p in part[key] if isinstance(p, dict)]
            return " › ".join(inner) if inner else "Sequence (empty)"
    kind = str(part.get("type", "?"))
    if kind == "Replace":
        pattern = part.get("string", part.get("regex", ""))
        return f"Replace {_quoted(pattern)}→{_quoted(part.get('content', ''))}"
    if kind in ("Split", "Prepend", "Strip"):
        for key in ("regex", "string", "prepend"):
            if key in part:
                return f"{kind} {_quoted(part[key]) if key != 'regex' else 'regex'}"
    if kind in FORMS or kind == "Lowercase":
        return kind
    if kind == "BertNormalizer":
        flags = [name for name in ("lowercase", "strip_accents", "clean_text")
                 if part.get(name)]
        return "BERT (" + ", ".join(flags) + ")" if flags else "BERT"
    if "vocab_size" in part:
        extra = " byte-level" if part.get("byte_level") else ""
        extra += " + byte fallback" if part.get("byte_fallback") else ""
        return f"{kind} {int(part['vocab_size']):,}{extra}"
    if kind == "TemplateProcessing" and isinstance(part.get("single"), str):
        return "Template " + _cut(part["single"])
    return kind


def _quoted(value: Any) -> str:
    return json.dumps(_cut(str(value)), ensure_ascii=False)


def _cut(text: str) -> str:
    return text if len(text) <= _SHORT else text[:_SHORT - 1] + "…"
