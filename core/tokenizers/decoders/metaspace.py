"""The Metaspace decoder: the replacement character (``▁``) back to a space.

As the reference: in the first string of the chain every replacement character is dropped
(not only a leading one) unless ``prepend_scheme`` is ``"never"``; elsewhere each becomes a
space.
"""

from __future__ import annotations

from typing import Any

from core.errors import TokenizerLoadError
from core.tokenizers.decoders.base import Decoder, Tracked

SCHEMES = ("always", "never", "first")


class Metaspace(Decoder):
    """Metaspace decoding: ``["▁Hello", "▁world"]`` → ``"Hello world"``.

    Parameters
    ----------
    replacement : str
        One character.
    prepend_scheme : {"always", "never", "first"}

    Raises
    ------
    TokenizerLoadError
        If ``replacement`` is not one character or the scheme is not one of :data:`SCHEMES`.
    """

    type_name = "Metaspace"

    def __init__(self, replacement: str = "\u2581", prepend_scheme: str = "always"):
        if not isinstance(replacement, str) or len(replacement) != 1:
            raise TokenizerLoadError("the Metaspace decoder's replacement must be one "
                                     f"character, not {replacement!r}")
        if prepend_scheme not in SCHEMES:
            raise TokenizerLoadError(f"unknown Metaspace prepend_scheme {prepend_scheme!r} "
                                     f"(use one of {', '.join(SCHEMES)})")
        self.replacement, self.prepend_scheme = replacement, prepend_scheme

    @classmethod
    def from_config(cls, cfg: dict) -> "Metaspace":
        """Older files give ``add_prefix_space`` instead of ``prepend_scheme``: true means
        ``"always"``, false ``"never"`` (the reference refuses false beside any other
        declared scheme, and so does this)."""
        scheme, legacy = cfg.get("prepend_scheme"), cfg.get("add_prefix_space")
        if legacy is False:
            if scheme not in (None, "never"):
                raise TokenizerLoadError("the Metaspace decoder's add_prefix_space (false) "
                                         f"contradicts its prepend_scheme {scheme!r}")
            scheme = "never"
        return cls(cfg.get("replacement", "\u2581"), scheme or "always")

    def settings(self) -> dict[str, Any]:
        return {"replacement": self.replacement, "prepend_scheme": self.prepend_scheme}

    def plain(self, tokens: list[str]) -> str:
        """:meth:`step` on plain strings, joined. O(total length)."""
        if not tokens:
            return ""
        rep = self.replacement
        first = tokens[0].replace(rep, "" if self.prepend_scheme != "never" else " ")
        return first + "".join(tokens[1:]).replace(rep, " ")

    def step(self, items: list[Tracked]) -> list[Tracked]:
        """O(total length)."""
        out, rep = [], self.replacement
        for i, item in enumerate(items):
            if rep not in item.text:
                out.append(item)
            elif i == 0 and self.prepend_scheme != "never":
                keep = [k for k, c in enumerate(item.text) if c != rep]
                out.append(item.edit(item.text.replace(rep, ""),
                                     item.owners and [item.owners[k] for k in keep]))
            else:
                out.append(item.edit(item.text.replace(rep, " "), item.owners))
        return out
