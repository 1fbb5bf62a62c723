"""Chat prompts: a model's own chat template rendered as ``transformers.apply_chat_template``
renders it, each message located on the rendered text and on its tokens.

Use (a Chat pane or ``subwordscope chat``)::

    template = load_chat_template(folder)              # tokenizer_config.json's chat_template
    messages = parse_messages(json_text)               # [{"role": ..., "content": ...}, ...]
    prompt = render_chat(template, messages, add_generation_prompt=True)
    tokens = chat_tokens(prompt, tokenizer, special_tokens=template_strings(template),
                         bos_token=template.bos_token)

Layout: :mod:`.template` (loading, the sandboxed Jinja environment, rendering with the
``{% generation %}`` spans), :mod:`.messages` (JSON in and out, checks), :mod:`.prompt`
(message spans on the text), :mod:`.tokens` (token ranges, assistant mask, warnings),
:mod:`.errors`. Pure Python (``jinja2``), no Qt.
"""

from __future__ import annotations

from core.chat.errors import ChatError, MessagesError, NoChatTemplateError, TemplateError
from core.chat.messages import ROLES, check_messages, messages_json, parse_messages
from core.chat.prompt import ChatPrompt, MessageSpan, render_chat
from core.chat.template import ChatTemplate, Rendered, load_chat_template
from core.chat.tokens import ChatTokens, ChatWarning, assistant_mask, chat_tokens

__all__ = ["ROLES", "ChatError", "ChatPrompt", "ChatTemplate", "ChatTokens", "ChatWarning",
           "MessageSpan", "MessagesError", "NoChatTemplateError", "Rendered", "TemplateError",
           "assistant_mask", "chat_tokens", "check_messages", "load_chat_template",
           "messages_json", "parse_messages", "render_chat", "template_strings"]


def template_strings(template: ChatTemplate) -> list[str]:
    """The strings a faithful tokenizer reads as single tokens: the config's added tokens
    and named special tokens."""
    return sorted({c for c, _ in template.added_tokens} | set(template.special_tokens.values()))
