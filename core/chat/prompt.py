"""A rendered chat prompt and where each message lies on it.

Templates do not say which output belongs to which message, so the spans are found on the
text: each message's content is located in order (as given, else stripped, since templates
often ``| trim`` it; content blocks by their ``text``), and the boundary between two turns is
placed in the template text between their contents, at the first special token (one of the
config's added tokens) that follows another added token or a newline — the opening token of
the next turn (``<|start_header_id|>``, ``<start_of_turn>``, ``<|im_start|>``) — else after the
first newline there. The prompt is cut into contiguous spans covering it: an optional
prelude (a leading BOS), one span per message (its opening text, content and closing text),
and an optional tail (the generation prompt, or the header a template writes after the last
turn). A message whose content the template does not write verbatim (rewritten reasoning,
tool calls, an empty content) has no content span and gets the turn boundaries in between.

Public names: :class:`ChatPrompt`, :class:`MessageSpan`, :func:`render_chat`.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Any

from core.chat.messages import check_messages
from core.chat.template import ChatTemplate

__all__ = ["ChatPrompt", "MessageSpan", "render_chat"]


@dataclass(frozen=True)
class MessageSpan:
    """One piece of the prompt: ``text[start:end]`` (code points). ``index`` is the message
    (0-based) and ``role`` its role; both None for the prelude and the tail. ``content`` is
    the span of the message's content inside it, None where it was not found verbatim."""

    index: int | None
    role: str | None
    start: int
    end: int
    content: tuple[int, int] | None = None

    @property
    def label(self) -> str:
        """``"0 system"``, ``"prelude"``, ``"tail"``."""
        if self.index is not None:
            return f"{self.index} {self.role}"
        return "prelude" if self.start == 0 else "tail"


@dataclass(frozen=True)
class ChatPrompt:
    """A chat rendered by its template.

    Attributes
    ----------
    text : str
        The prompt, equal to ``apply_chat_template(messages, tokenize=False, …)``.
    messages : tuple[dict, ...]
        The checked messages.
    spans : tuple[MessageSpan, ...]
        Contiguous, in order, covering ``text`` (empty spans left out).
    generation_spans : tuple[tuple[int, int], ...]
        Output of the template's ``{% generation %}`` blocks (code points).
    has_generation : bool
        The template has ``{% generation %}`` blocks (else there is no assistant mask).
    add_generation_prompt : bool
    """

    text: str
    messages: tuple[dict, ...]
    spans: tuple[MessageSpan, ...]
    generation_spans: tuple[tuple[int, int], ...]
    has_generation: bool
    add_generation_prompt: bool

    def span_at(self, position: int) -> MessageSpan | None:
        """The span holding code point ``position`` (None outside the text). O(spans)."""
        k = bisect.bisect_right([s.start for s in self.spans], position) - 1
        return self.spans[k] if 0 <= k < len(self.spans) and position < self.spans[k].end else None

    def message_spans(self) -> list[MessageSpan]:
        """The spans of the messages only (prelude and tail left out), in message order."""
        return [s for s in self.spans if s.index is not None]


def render_chat(template: ChatTemplate, messages: Any, *, add_generation_prompt: bool = False,
                tools: list[dict] | None = None, **kwargs: Any) -> ChatPrompt:
    """Render ``messages`` with ``template`` and locate every message on the text.

    Renders twice with ``add_generation_prompt`` (once without it, to find where the
    generation prompt starts). Linear in the prompt beyond rendering (see :func:`_spans`).

    Raises
    ------
    core.chat.errors.MessagesError
        A malformed message list.
    core.chat.errors.TemplateError
        The template fails (message and line).
    """
    msgs = check_messages(messages)
    rendered = template.render(msgs, add_generation_prompt=add_generation_prompt, tools=tools, **kwargs)
    text, end = rendered.text, len(rendered.text)
    if add_generation_prompt:
        bare = template.render(msgs, add_generation_prompt=False, tools=tools, **kwargs).text
        if text.startswith(bare):
            end = len(bare)
    spans = _spans(text, end, msgs, template)
    return ChatPrompt(text, tuple(msgs), spans, rendered.generation_spans, template.has_generation,
                      bool(add_generation_prompt))


def _spans(text: str, end: int, msgs: list[dict], template: ChatTemplate) -> tuple[MessageSpan, ...]:
    """The prelude, message and tail spans (see the module docstring). O(n + t log t +
    messages × t') for t added-token occurrences, t' of them in one gap."""
    tokens = sorted({c for c, _ in template.added_tokens} | set(template.special_tokens.values()),
                    key=len, reverse=True)
    special = {c for c, s in template.added_tokens if s} or set(template.special_tokens.values())
    found = [(m.start(), m.end(), m.group() in special)
             for m in re.finditer("|".join(map(re.escape, tokens)), text)] if tokens else []
    ends = {e for _, e, _ in found}
    starts = [s for s, _, _ in found]
    bos = template.bos_token
    prelude = len(bos) if bos and text.startswith(bos) else 0
    contents = _contents(text, prelude, msgs)

    def candidates(lo: int, hi: int) -> list[int]:
        """Turn starts strictly inside (lo, hi]: a special token after an added token or a
        newline that both lie after lo; else after the first newline."""
        out = []
        for s, _, sp in found[bisect.bisect_right(starts, lo):bisect.bisect_right(starts, hi)]:
            if sp and (s in ends or text[s - 1] == "\n"):
                out.append(s)
        if not out:
            nl = text.find("\n", lo, hi)
            out = [nl + 1] if nl >= 0 else []
        return out

    n = len(msgs)
    bounds = [prelude]  # bounds[i]: where message i starts; bounds[n]: where the tail starts
    while len(bounds) <= n:
        i = len(bounds)  # the boundary between messages i - 1 and i
        prev = next((k for k in range(i - 1, -1, -1) if contents[k] is not None), None)
        nxt = next((k for k in range(i, n) if contents[k] is not None), None)
        lo = contents[prev][1] if prev is not None else prelude
        hi = contents[nxt][0] if nxt is not None else end
        picks = candidates(lo, hi) or ([] if nxt is not None else [end])
        for g in range((nxt if nxt is not None else n) + 1 - i):
            b = picks[g] if g < len(picks) else (picks[-1] if picks else hi)
            bounds.append(max(bounds[-1], b))
    out = [MessageSpan(None, None, 0, prelude)] if prelude else []
    for i, m in enumerate(msgs):
        out.append(MessageSpan(i, m["role"], bounds[i], bounds[i + 1], contents[i]))
    if bounds[-1] < len(text):
        out.append(MessageSpan(None, None, bounds[-1], len(text)))
    return tuple(s for s in out if s.end > s.start or s.index is not None)


def _contents(text: str, start: int, msgs: list[dict]) -> list[tuple[int, int] | None]:
    """Each message's content located in order from ``start`` (None where not verbatim).
    str.find calls that never move backwards: O(n) when every content is found, plus O(n)
    per content that is not."""
    out: list[tuple[int, int] | None] = []
    pos = start
    for m in msgs:
        c = m.get("content")
        parts = [c] if isinstance(c, str) else [b.get("text") for b in c or () if isinstance(b.get("text"), str)]
        span, p = None, pos
        for part in parts:
            hit = _find(text, part, p)
            if hit is None:
                continue
            span = (hit[0] if span is None else span[0], hit[1])
            p = hit[1]
        if span is not None:
            pos = span[1]
        out.append(span)
    return out


def _find(text: str, part: str, pos: int) -> tuple[int, int] | None:
    for s in (part, part.strip()):
        if s:
            i = text.find(s, pos)
            if i >= 0:
                return i, i + len(s)
    return None
