"""The Replace decoder: every match of a string or regex in each string of the chain
replaced by ``content`` (Metaspace-style files turn ``▁`` back into a space with it).

As the reference, an empty string is left as it is; a regex runs under the time budget of
:func:`core.tokenizers._components.finditer_budgeted`. The reference matches with
Oniguruma; this uses the ``regex`` module, which agrees on the patterns files use (string
patterns are matched literally).
"""

from __future__ import annotations

from typing import Any

import regex

from core.errors import TokenizerLoadError
from core.tokenizers._components import finditer_budgeted
from core.tokenizers.decoders.base import Decoder, Tracked, replace_spans


class Replace(Decoder):
    """Parameters
    ----------
    pattern : str
        The string (or, with ``is_regex``, the regex) to find.
    content : str
        What replaces each match.
    is_regex : bool

    Raises
    ------
    TokenizerLoadError
        If ``pattern`` or ``content`` is not a string or the regex does not compile.
    """

    type_name = "Replace"

    def __init__(self, pattern: str, content: str, is_regex: bool = False):
        if not isinstance(pattern, str) or not isinstance(content, str):
            raise TokenizerLoadError("the Replace decoder needs a string pattern and a "
                                     "string content")
        self.pattern, self.content, self.is_regex = pattern, content, is_regex
        try:
            self._re = regex.compile(pattern if is_regex else regex.escape(pattern))
        except regex.error as exc:
            raise TokenizerLoadError(f"the Replace decoder has an invalid regex {pattern!r}: "
                                     f"{exc}") from None

    @classmethod
    def from_config(cls, cfg: dict) -> "Replace":
        """``{"pattern": {"String": …} or {"Regex": …}, "content": …}``."""
        pat = cfg["pattern"]
        if not isinstance(pat, dict) or len(pat) != 1 or not {"String", "Regex"} >= set(pat):
            raise TokenizerLoadError('the Replace decoder\'s pattern must be {"String": …} '
                                     'or {"Regex": …}')
        kind, text = next(iter(pat.items()))
        return cls(text, cfg["content"], kind == "Regex")

    def settings(self) -> dict[str, Any]:
        return {"regex" if self.is_regex else "string": self.pattern, "content": self.content}

    def step(self, items: list[Tracked]) -> list[Tracked]:
        """O(total length) plus the regex's own cost."""
        out = []
        for item in items:
            if not item.text:
                out.append(item)
            elif not self.is_regex and item.owners is None:
                out.append(item.edit(item.text.replace(self.pattern, self.content), None))
            else:
                found = (finditer_budgeted(self._re, item.text, self.pattern, "Replace decoder")
                         if self.is_regex else self._re.finditer(item.text))
                out.append(replace_spans(item, [m.span() for m in found], self.content))
        return out
