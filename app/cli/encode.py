"""``subwordscope encode``: one text through a tokenizer → tokens, ids, offsets and flags.

Everything comes from :func:`core.align.view.alignment_view`, the call the Alignment pane
renders, so the command line and the app never disagree.
"""

from __future__ import annotations

import argparse
from typing import Any

from core.align.view import AlignmentView, alignment_view
from core.errors import SubwordScopeError

from app.cli.common import OK, CliError, add_format, bad_input, load_tokenizer, read_input, write_rows

UNITS = ("code-points", "utf16", "utf8")
COLUMNS = {
    "index": "token number, from 0",
    "token": "the token as the tokenizer reports it (byte-level tokens in GPT-2's alphabet)",
    "id": "vocabulary id",
    "start": "span start in --units (reference offsets)",
    "end": "span end, exclusive",
    "text": "the original text of the span",
    "derived_start": "start of the span the token's own content occupies (same units)",
    "derived_end": "its end; differs from start/end only for misleading tokens",
    "flags": "comma-separated: special, unknown, byte-fallback, misleading, cuts-grapheme, "
             "shares-characters, partial-character, empty",
    "note": "which bytes of which character a byte-level token owns, when only some",
}


def _epilog(columns: dict[str, str]) -> str:
    return "columns:\n" + "\n".join(f"  {k:<14}{v}" for k, v in columns.items())


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "encode", help="encode a text: tokens, ids, offsets, flags",
        description="Encode one text (argument, --file or standard input) without special "
                    "tokens and print every token with its span and what is surprising about it.",
        epilog=_epilog(COLUMNS), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("text", nargs="?", help="the text (default: --file, else standard input)")
    p.add_argument("--file", metavar="F", help="read the text from this UTF-8 file ('-': stdin)")
    p.add_argument("--tokenizer", metavar="P", default="bert-base-uncased",
                   help="tokenizer file or folder, or a built-in name (default bert-base-uncased)")
    p.add_argument("--units", choices=UNITS, default="code-points",
                   help="units of start/end: code points (Python), UTF-16 units (JavaScript, "
                        "Java), UTF-8 bytes (Rust, C)")
    add_format(p, "table")
    p.set_defaults(run=run)


def flags_of(view: AlignmentView, j: int) -> tuple[list[str], str]:
    """Flag names of token ``j`` and its partial-character note (``""`` when none)."""
    names = []
    if view.special and view.special[j]:
        names.append("special")
    if view.unknown and view.unknown[j]:
        names.append("unknown")
    if view.byte_fallback and view.byte_fallback[j]:
        names.append("byte-fallback")
    f = view.audit.token_flags(j) if view.audit is not None and j < len(view.audit) else None
    if f is not None:
        names += [name for name, on in (("misleading", f.misleading), ("cuts-grapheme", f.cuts_grapheme),
                                        ("shares-characters", f.shares_chars),
                                        ("partial-character", bool(f.partial_chars)),
                                        ("empty", f.empty)) if on]
    return names, "; ".join(f.partial_chars) if f is not None else ""


def token_rows(view: AlignmentView, units: str) -> list[list[Any]]:
    """One row per token in :data:`COLUMNS` order; spans converted to ``units``. O(tokens)."""
    table = {"utf16": view.utf16, "utf8": view.utf8}.get(units)

    def unit(i: int | None) -> int | None:
        return i if table is None or i is None else table[i]

    rows = []
    derived = view.derived_spans or view.spans
    for j, token in enumerate(view.tokens):
        span, d = view.spans[j], derived[j]
        flags, note = flags_of(view, j)
        s, e = span if span is not None else (None, None)
        ds, de = d if d is not None else (None, None)
        rows.append([j, token, view.ids[j] if view.ids else None, unit(s), unit(e),
                     view.text[s:e] if span is not None else None, unit(ds), unit(de), flags, note])
    return rows


def run(args: argparse.Namespace) -> int:
    try:
        text, source = read_input(args.text, args.file)
    except CliError as exc:
        return bad_input("encode", exc)
    except SubwordScopeError as exc:  # the typed errors of core.text.files
        return bad_input(f"encode: {'--file' if args.file else 'stdin'}", exc)
    try:
        tokenizer = load_tokenizer(args.tokenizer)
    except SubwordScopeError as exc:
        return bad_input("encode: --tokenizer", exc)
    view = alignment_view(text, tokenizer, mode="tokenize")
    if view.error or view.notice:
        return bad_input(f"encode: {source}", CliError(view.error or view.notice))
    write_rows(list(COLUMNS), token_rows(view, args.units), args.format,
               extra={"tokenizer": tokenizer.name, "units": args.units, "text": text,
                      "misleading": view.misleading})
    return OK
