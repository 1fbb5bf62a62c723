"""Template post-processors: BertProcessing (``[CLS] A [SEP]``) and TemplateProcessing
(the ``single`` template of a ``tokenizer.json``; pairs are not encoded)."""

from __future__ import annotations

from typing import Any

from core.errors import TokenizerLoadError
from core.tokenizers.processors.base import Item, PostProcessor


class BertProcessing(PostProcessor):
    """``[CLS] A [SEP]``."""

    type_name = "BertProcessing"

    def __init__(self, sep: tuple[str, int], cls: tuple[str, int]):
        self.sep, self.cls = (str(sep[0]), int(sep[1])), (str(cls[0]), int(cls[1]))

    def settings(self) -> dict[str, Any]:
        return {"cls": list(self.cls), "sep": list(self.sep)}

    def single_template(self) -> list[Item]:
        return [("special", [self.cls[0]], [self.cls[1]], 0), ("sequence", 0),
                ("special", [self.sep[0]], [self.sep[1]], 0)]


class TemplateProcessing(PostProcessor):
    """The ``single`` template of a ``TemplateProcessing`` object (pairs are not encoded).

    Raises
    ------
    TokenizerLoadError
        If the template names a special token that is not defined, or one whose tokens and
        ids differ in number.
    """

    type_name = "TemplateProcessing"

    def __init__(self, single: list[dict], pair: list[dict] | None, special_tokens: dict):
        self.single, self.pair, self.special_tokens = single, pair, special_tokens
        self._items = [self._item(piece) for piece in single]

    @classmethod
    def from_config(cls, cfg: dict) -> "TemplateProcessing":
        return cls(cfg["single"], cfg.get("pair"), cfg.get("special_tokens", {}))

    def _item(self, piece: dict) -> Item:
        if "Sequence" in piece:
            return ("sequence", int(piece["Sequence"].get("type_id", 0)))
        spec = piece["SpecialToken"]
        name = spec["id"]
        if name not in self.special_tokens:
            raise TokenizerLoadError(f"template uses special token {name!r} that is not defined")
        tok = self.special_tokens[name]
        tokens, ids = list(map(str, tok["tokens"])), list(map(int, tok["ids"]))
        if len(tokens) != len(ids):
            raise TokenizerLoadError(f"special token {name!r} has {len(tokens)} tokens and {len(ids)} ids")
        return ("special", tokens, ids, int(spec.get("type_id", 0)))

    def settings(self) -> dict[str, Any]:
        def show(t):
            return " ".join("$" + p["Sequence"]["id"] if "Sequence" in p else p["SpecialToken"]["id"]
                            for p in t or [])
        return {"single": show(self.single), "pair": show(self.pair)}

    def single_template(self) -> list[Item]:
        return self._items
