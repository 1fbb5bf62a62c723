"""Where the post-processor's special tokens sit, and what the file says about truncation
and padding (both shown, never applied).

Special tokens added by the template (``[CLS]``, ``[SEP]``, ``<s>``) have the empty span
``(0, 0)`` in an :class:`~core.tokenizers.encoding.Encoding`, as in the reference library;
:func:`special_positions` places each at the code point of the original text where it
stands between the real tokens, so a view can draw it as a zero-width badge there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence


@dataclass(frozen=True)
class SpecialMark:
    """Special token ``index`` of an encoding, drawn at code point ``position``."""

    index: int
    position: int
    token: str
    id: int


def special_positions(tokens: Sequence[str], ids: Sequence[int], offsets: Sequence[tuple[int, int]],
                      special_mask: Sequence[int], text_length: int) -> list[SpecialMark]:
    """The special tokens of one encoding with the code point each stands at.

    A special token before every real token stands at 0, one after every real token at
    ``text_length``, one between real tokens at the end of the real token before it. With
    no real token at all, every special token stands at 0 (the template's order is kept).

    Parameters
    ----------
    tokens, ids, offsets, special_mask : sequences of length ``n``
        The encoding's fields (``offsets`` in code points of the original text).
    text_length : int
        Code points of the original text.

    Returns
    -------
    list of SpecialMark
        In token order; positions non-decreasing. O(n).
    """
    real = [i for i, m in enumerate(special_mask) if not m]
    first, last = (real[0], real[-1]) if real else (len(tokens), len(tokens))
    out, end = [], 0
    for i, is_special in enumerate(special_mask):
        if not is_special:
            end = max(end, int(offsets[i][1]))
            continue
        pos = 0 if i < first else text_length if i > last else end
        out.append(SpecialMark(i, pos, tokens[i], int(ids[i])))
    return out


def encoding_specials(encoding: Any) -> list[SpecialMark]:
    """:func:`special_positions` of an :class:`~core.tokenizers.encoding.Encoding`."""
    return special_positions(encoding.tokens, encoding.ids, encoding.offsets,
                             encoding.special_tokens_mask, len(encoding.original))


def _truncation(cfg: dict | None) -> str:
    if not cfg:
        return "truncation: none"
    parts = [f"at most {cfg['max_length']:,} tokens" if "max_length" in cfg else "on"]
    if cfg.get("strategy"):
        parts.append(f"strategy {cfg['strategy']}")
    if cfg.get("stride"):
        parts.append(f"stride {cfg['stride']}")
    if cfg.get("direction") and cfg["direction"] != "Right":
        parts.append(f"from the {str(cfg['direction']).lower()}")
    return "truncation: " + ", ".join(parts)


def _padding(cfg: dict | None) -> str:
    if not cfg:
        return "padding: none"
    strategy = cfg.get("strategy")
    if isinstance(strategy, dict) and "Fixed" in strategy:
        what = f"to {strategy['Fixed']:,} tokens"
    elif strategy == "BatchLongest":
        what = "to the longest in a batch"
    else:
        what = str(strategy or "on")
    parts = [what]
    if cfg.get("pad_token"):
        parts.append(f"with {cfg['pad_token']} (id {cfg.get('pad_id', '?')})")
    if cfg.get("direction") and cfg["direction"] != "Right":
        parts.append(f"on the {str(cfg['direction']).lower()}")
    if cfg.get("pad_to_multiple_of"):
        parts.append(f"to a multiple of {cfg['pad_to_multiple_of']}")
    return "padding: " + " ".join(parts)


def limits_line(tokenizer: Any) -> str:
    """One line stating the tokenizer file's truncation and padding settings, e.g.
    ``"File settings (not applied here): truncation: at most 128 tokens, strategy
    LongestFirst · padding: to 128 tokens with [PAD] (id 0)"``; formats that carry no such
    settings (vocab.txt, vocab.json, .tiktoken, .model) say ``none``."""
    fmt = getattr(tokenizer, "source", {}).get("format") if tokenizer is not None else None
    if fmt != "tokenizer.json":
        return "File settings: truncation: none · padding: none (this file format has no such settings)"
    return (f"File settings (not applied here): {_truncation(tokenizer.truncation)} · "
            f"{_padding(tokenizer.padding)}")
