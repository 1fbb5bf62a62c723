"""A rendered chat prompt through a tokenizer: each token's message, each message's tokens,
the assistant mask a trainer would use, and what makes the prompt unfaithful to the model.

The prompt is encoded without the post-processor's special tokens by default, as
``apply_chat_template(tokenize=True)`` encodes it. A token belongs to the span
(:class:`~core.chat.prompt.MessageSpan`) holding its first code point. The assistant mask
is transformers' ``return_assistant_tokens_mask``: 1 for every token whose span overlaps the
output of a ``{% generation %}`` block, computed in one pass over the token offsets as
transformers does; a template without such blocks has no mask (None, and a note says so).

Warnings (:class:`ChatWarning`): ``doubled-bos`` (the template writes a BOS and the
post-processor adds one too when encoding with ``add_special_tokens=True``),
``lossy-decode`` (``decode(encode(prompt))`` with special tokens kept is not the prompt),
``split-special`` (a special token of the template's config found in the prompt is not one
token of this tokenizer).

Public names: :class:`ChatTokens`, :class:`ChatWarning`, :func:`chat_tokens`,
:func:`assistant_mask`.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from core.chat.prompt import ChatPrompt
from core.errors import check_stop

__all__ = ["ChatTokens", "ChatWarning", "assistant_mask", "chat_tokens"]

NO_MASK_NOTE = ("the template has no {% generation %} block, so there is no assistant mask "
                "(transformers' return_assistant_tokens_mask would be all zeros)")


@dataclass(frozen=True)
class ChatWarning:
    """``kind`` is ``"doubled-bos"``, ``"lossy-decode"`` or ``"split-special"``; ``message``
    one line for a user."""

    kind: str
    message: str


@dataclass(frozen=True)
class ChatTokens:
    """A chat prompt's encoding, token by token.

    Attributes
    ----------
    prompt : ChatPrompt
    encoding : core.tokenizers.Encoding
        Offsets in code points of ``prompt.text``.
    span_of_token : tuple[int | None, ...]
        Per token, the index into ``prompt.spans`` of its span (None for tokens the
        post-processor added), length n.
    token_ranges : tuple[tuple[int, int], ...]
        Per span of ``prompt.spans``, its tokens ``[first, stop)`` (empty ranges allowed).
    assistant_mask : tuple[int, ...] | None
        Per token 1/0 (see the module docstring); None when the template has no
        ``{% generation %}``.
    mask_note : str
        Why there is no mask ("" when there is one).
    warnings : tuple[ChatWarning, ...]
    """

    prompt: ChatPrompt
    encoding: Any
    span_of_token: tuple[int | None, ...]
    token_ranges: tuple[tuple[int, int], ...]
    assistant_mask: tuple[int, ...] | None
    mask_note: str
    warnings: tuple[ChatWarning, ...]

    def message_of_token(self, i: int) -> int | None:
        """The message index of token ``i`` (None in the prelude, the tail, or for a
        post-processor token)."""
        k = self.span_of_token[i]
        return None if k is None else self.prompt.spans[k].index

    def message_tokens(self, index: int) -> tuple[int, int]:
        """Tokens ``[first, stop)`` of message ``index``."""
        for span, rng in zip(self.prompt.spans, self.token_ranges):
            if span.index == index:
                return rng
        raise IndexError(f"no message {index} in this prompt")


def assistant_mask(offsets: Sequence[tuple[int, int]], spans: Sequence[tuple[int, int]]) -> list[int]:
    """1 for every token whose ``[start, end)`` overlaps one of ``spans`` (sorted, code
    points), else 0 — transformers' single pass of ``apply_chat_template``. O(n + spans)."""
    mask = [0] * len(offsets)
    k = 0
    for i, (s, e) in enumerate(offsets):
        while k < len(spans) and s >= spans[k][1]:
            k += 1
        if k == len(spans):
            break
        if e > spans[k][0]:
            mask[i] = 1
    return mask


def chat_tokens(prompt: ChatPrompt, tokenizer: Any, *, add_special_tokens: bool = False,
                special_tokens: Sequence[str] = (), bos_token: str | None = None,
                should_stop: Callable[[], bool] | None = None) -> ChatTokens:
    """Encode ``prompt.text`` with a core :class:`~core.tokenizers.Tokenizer` and place
    every token on the prompt's spans.

    Parameters
    ----------
    special_tokens : sequence of str
        Strings that must be single tokens (the template's config: pass
        ``[c for c, _ in template.added_tokens]``); the tokenizer's own special tokens are
        checked too.
    bos_token : str, optional
        The template's BOS (``template.bos_token``), for the doubled-BOS check.

    O(n log s + m) for n tokens, s spans and a prompt of m code points, plus encoding and
    one decoding.

    Raises
    ------
    core.errors.Cancelled
        If ``should_stop()`` returned True.
    """
    text = prompt.text
    enc = tokenizer.encode(text, add_special_tokens=add_special_tokens, should_stop=should_stop)
    check_stop(should_stop)
    starts = [s.start for s in prompt.spans]
    owner: list[int | None] = []
    for (s, e), m in zip(enc.offsets, enc.special_tokens_mask):
        owner.append(None if m and s == e else max(bisect.bisect_right(starts, s) - 1, 0))
    ranges, k = [], 0
    for j in range(len(prompt.spans)):
        while k < len(owner) and (owner[k] is None or owner[k] < j):
            k += 1
        first = k
        while k < len(owner) and (owner[k] is None or owner[k] == j):
            k += 1
        ranges.append((first, k))
    mask = tuple(assistant_mask(enc.offsets, prompt.generation_spans)) if prompt.has_generation else None
    warnings = [*_doubled_bos(tokenizer, enc, text, bos_token),
                *_lossy(tokenizer, enc, text),
                *_split_specials(tokenizer, enc, text, special_tokens)]
    return ChatTokens(prompt, enc, tuple(owner), tuple(ranges), mask, "" if mask is not None else NO_MASK_NOTE,
                      tuple(warnings))


def _doubled_bos(tokenizer: Any, enc: Any, text: str, bos: str | None) -> list[ChatWarning]:
    """The template's BOS starts the prompt and the post-processor adds the same token
    before it. O(1) encodings of the BOS alone."""
    if not bos or not text.startswith(bos) or not len(enc):
        return []
    added = tokenizer.encode(bos, add_special_tokens=True)
    leading = [i for i, m, (s, e) in zip(added.ids, added.special_tokens_mask, added.offsets) if m and s == e]
    if enc.ids[0] not in leading:
        return []
    return [ChatWarning("doubled-bos", f"doubled BOS: the template writes {bos} and this tokenizer's "
                        f"post-processor adds another with add_special_tokens=True; encode the prompt "
                        f"without special tokens, as apply_chat_template does")]


def _lossy(tokenizer: Any, enc: Any, text: str) -> list[ChatWarning]:
    if not callable(getattr(tokenizer, "decode", None)):
        return []
    ids = [i for i, m, (s, e) in zip(enc.ids, enc.special_tokens_mask, enc.offsets) if not (m and s == e)]
    decoded = tokenizer.decode(ids, skip_special_tokens=False)
    if decoded == text:
        return []
    p = next((i for i, (a, b) in enumerate(zip(text, decoded)) if a != b), min(len(text), len(decoded)))
    return [ChatWarning("lossy-decode", f"the tokenizer does not give the prompt back: decoding its tokens "
                        f"differs from code point {p} on ({text[p:p + 12]!r} → {decoded[p:p + 12]!r})")]


def _split_specials(tokenizer: Any, enc: Any, text: str, extra: Sequence[str]) -> list[ChatWarning]:
    """Special strings of the prompt that are not one token each (by their first
    occurrence and count). O(m) with one regex over the prompt."""
    strings = sorted({s for s in (*extra, *getattr(tokenizer, "special_tokens", ())) if s}, key=len, reverse=True)
    if not strings:
        return []
    whole = {(s, e): i for i, (s, e) in zip(enc.ids, enc.offsets) if e > s}
    bad: dict[str, int] = {}
    for m in re.finditer("|".join(map(re.escape, strings)), text):
        i = whole.get(m.span())
        if i is None or i != tokenizer.token_to_id(m.group()):
            bad[m.group()] = bad.get(m.group(), 0) + 1
    return [ChatWarning("split-special", f"{s!r} is not one token of this tokenizer ({n}× in the prompt): "
                        "the model reads it as plain text") for s, n in bad.items()]
