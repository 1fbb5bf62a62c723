"""``subwordscope chat``: a message list rendered with the tokenizer's own chat template,
then tokenized: every token with its message, role and assistant-mask value.

Everything comes from :mod:`core.chat` (the calls a Chat pane makes): the template of the
``tokenizer_config.json`` beside the tokenizer, rendered as ``transformers.apply_chat_template``
does, encoded without the post-processor's special tokens as it does. Warnings (a doubled
BOS, a prompt the tokenizer does not give back, special strings that are not one token) go to
standard error, one line each.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from core.chat import (ChatTokens, chat_tokens, load_chat_template, parse_messages, render_chat,
                       template_strings)
from core.errors import SubwordScopeError

from app.cli.common import (OK, CliError, add_format, bad_input, load_tokenizer, read_input,
                            resolve_tokenizer, split_label, write_rows)

COLUMNS = {
    "index": "token number, from 0",
    "token": "the token as the tokenizer reports it (byte-level tokens in GPT-2's alphabet)",
    "id": "vocabulary id",
    "start": "span start in code points of the rendered prompt",
    "end": "span end, exclusive",
    "text": "the prompt's text of the span",
    "message": "index of the message the token belongs to, from 0 ('-': before the first "
               "message or after the last, e.g. the generation prompt)",
    "role": "that message's role",
    "assistant": "1 where a trainer's loss mask would be on (the template's {% generation %} "
                 "blocks, as transformers' return_assistant_tokens_mask); '-' without such blocks",
}


def _epilog() -> str:
    return ("messages: a JSON list [{\"role\": \"user\", \"content\": \"…\"}, …] (or {\"messages\": […]})\n"
            "columns:\n" + "\n".join(f"  {k:<11}{v}" for k, v in COLUMNS.items()))


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "chat", help="render messages with the tokenizer's chat template and tokenize them",
        description="Render a message list with the chat template of the tokenizer's "
                    "tokenizer_config.json (as transformers' apply_chat_template does) and "
                    "print every token of the prompt with its message, role and assistant mask.",
        epilog=_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tokenizer", metavar="P", required=True,
                   help="tokenizer file or folder with a tokenizer_config.json holding a chat_template")
    p.add_argument("--messages", metavar="FILE", required=True,
                   help="the messages as JSON in this UTF-8 file ('-': standard input)")
    p.add_argument("--add-generation-prompt", action="store_true",
                   help="end the prompt with the template's opening of an assistant turn")
    add_format(p, "table")
    p.set_defaults(run=run)


def token_rows(result: ChatTokens) -> list[list[Any]]:
    """One row per token in :data:`COLUMNS` order. O(tokens)."""
    enc, prompt, mask = result.encoding, result.prompt, result.assistant_mask
    rows = []
    for j, (token, id_, (s, e)) in enumerate(zip(enc.tokens, enc.ids, enc.offsets)):
        k = result.span_of_token[j]
        span = prompt.spans[k] if k is not None else None
        rows.append([j, token, id_, s, e, prompt.text[s:e],
                     span.index if span is not None else None,
                     span.role if span is not None else None,
                     mask[j] if mask is not None else None])
    return rows


def run(args: argparse.Namespace) -> int:
    try:
        text, _ = read_input(None, args.messages, "the messages")
        messages = parse_messages(text)
    except CliError as exc:
        return bad_input("chat: --messages", exc)
    except SubwordScopeError as exc:
        return bad_input(f"chat: {'stdin' if args.messages == '-' else args.messages}", exc)
    try:
        tokenizer = load_tokenizer(args.tokenizer)
        template = load_chat_template(resolve_tokenizer(split_label(args.tokenizer)[1]))
    except SubwordScopeError as exc:
        return bad_input("chat: --tokenizer", exc)
    try:
        prompt = render_chat(template, messages, add_generation_prompt=args.add_generation_prompt)
    except SubwordScopeError as exc:
        return bad_input("chat: the chat template", exc)
    result = chat_tokens(prompt, tokenizer, special_tokens=template_strings(template),
                         bos_token=template.bos_token)
    for w in result.warnings:
        print(f"subwordscope chat: warning: {w.message}", file=sys.stderr)
    if result.mask_note:
        print(f"subwordscope chat: note: {result.mask_note}", file=sys.stderr)
    spans = [{"message": s.index, "role": s.role, "start": s.start, "end": s.end,
              "tokens": list(r)} for s, r in zip(prompt.spans, result.token_ranges)]
    write_rows(list(COLUMNS), token_rows(result), args.format,
               extra={"tokenizer": tokenizer.name, "prompt": prompt.text, "spans": spans,
                      "warnings": [w.message for w in result.warnings],
                      "mask_note": result.mask_note})
    return OK
