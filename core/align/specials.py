"""Which tokens of a tokenization are special, and where each came from.

A token is special when the encoding's special-tokens mask says so (the post-processor's
template put it there: ``[CLS]``, ``<|begin_of_text|>`` with ``add_special_tokens``), or
when it is an added token marked special whose text the text itself holds (a chat prompt's
``<|eot_id|>`` typed or pasted): its id is one of :func:`special_ids`, the token string is
that content and the span's text contains it. A word the model maps to ``[UNK]``, or a
piece that got ``<unk>``'s id, is therefore not special.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from core.tokenizers import TokenizerLike

__all__ = ["FROM_TEMPLATE", "IN_TEXT", "special_ids", "special_sources"]

FROM_TEMPLATE, IN_TEXT = 1, 2  # special_sources codes (0: not special)


def special_ids(tokenizer: TokenizerLike) -> dict[int, str]:
    """Id → content of the tokenizer's added tokens marked special (``<|begin_of_text|>``);
    empty for a tokenizer without ``special_tokens``. O(special tokens)."""
    out = {}
    for content in getattr(tokenizer, "special_tokens", ()):
        i = tokenizer.token_to_id(content)
        if i is not None:
            out[i] = content
    return out


def special_sources(text: str, tokens: Sequence[str], ids: Sequence[int] | None, spans: Sequence[Any],
                    mask: Sequence[int] | None, specials: dict[int, str]) -> np.ndarray:
    """``(len(tokens),) int8``: :data:`FROM_TEMPLATE` for a token the special-tokens ``mask``
    marks, :data:`IN_TEXT` for a special added token found in ``text`` (its id in
    ``specials``, id → content; the token is that content and its code-point span's text
    contains it), else 0; ``ids`` None, or a None id (a pasted token), finds none in the text. O(tokens)."""
    n = len(tokens)
    out = np.zeros(n, np.int8)
    if mask is not None and len(mask):
        m = np.asarray(mask, bool)[:n]
        out[: len(m)][m] = FROM_TEMPLATE
    if specials and ids is not None and len(ids):
        head = ids[:n]
        if isinstance(head, list) and None not in head:  # (the common case, in C)
            known = np.array(head, np.int64)
        else:
            known = np.fromiter((-1 if i is None else i for i in head), np.int64)  # None: a pasted token
        hits = np.isin(known, np.fromiter(specials, np.int64, len(specials)))
        for j in np.flatnonzero(hits).tolist():
            span, content = spans[j], specials[ids[j]]
            if out[j] == 0 and span is not None and tokens[j] == content and content in text[span[0]:span[1]]:
                out[j] = IN_TEXT
    return out
