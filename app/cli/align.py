"""``subwordscope align``: a token list from any system + its text → each token's span.

The alignment is :func:`core.align.view.alignment_view` in ``"align"`` mode — the Alignment
pane's *align a token list* — so a list that does not fit fails with the app's message (which
token, where, and a hint), here as one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys

from core.align import SCHEMES
from core.align.modes import NORMALIZER_FORMS
from core.align.view import AlignmentView, AlignRequest, alignment_view
from core.errors import SubwordScopeError
from core.text.files import read_text_file

from app.cli.common import OK, CliError, add_format, bad_input, read_input, write_rows
from app.cli.encode import COLUMNS as ENCODE_COLUMNS
from app.cli.encode import UNITS, _epilog, token_rows

COLUMNS = {k: v for k, v in ENCODE_COLUMNS.items() if k not in ("id", "derived_start", "derived_end")}
COLUMNS["flags"] = "comma-separated: unknown ([UNK]-like), cuts-grapheme, shares-characters, empty"
UNCOVERED_HELP = (
    "Characters of the text that are in no token (a list shorter than its text) do not stop\n"
    "the command (exit 0: uncovered whitespace is normal), but when some are not whitespace\n"
    "one warning line goes to stderr, e.g.\n"
    '  subwordscope: align: warning: 4 characters are in no token (first at code point 2: "able")')


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "align", help="align a token list with its text: spans",
        description="Align tokens from any tokenizer (a JSON list of strings, or tokens "
                    "separated by whitespace) with the text they came from, as the Alignment "
                    "pane's 'Align a token list' mode does.",
        epilog=_epilog(COLUMNS) + "\n\n" + UNCOVERED_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("text", nargs="?", help="the text (default: --file, else standard input)")
    p.add_argument("--file", metavar="F", help="read the text from this UTF-8 file ('-': stdin)")
    tokens = p.add_mutually_exclusive_group(required=True)
    tokens.add_argument("--tokens", metavar="LIST", help='the tokens: \'["un", "##able"]\' or "un ##able"')
    tokens.add_argument("--tokens-file", metavar="F", help="read the token list from this file ('-': stdin)")
    p.add_argument("--scheme", choices=("auto", *SCHEMES), default="auto",
                   help="how tokens are marked (default: detected from the markers)")
    p.add_argument("--form", choices=NORMALIZER_FORMS, default="NFKD",
                   help="normalization form of the teaching normalizer (WordPiece; default NFKD)")
    p.add_argument("--keep-case", action="store_true", help="do not lowercase before aligning")
    p.add_argument("--keep-accents", action="store_true", help="do not strip accents before aligning")
    p.add_argument("--normalize-all", action="store_true",
                   help="apply the normalizer for every scheme, not only WordPiece")
    p.add_argument("--units", choices=UNITS, default="code-points", help="units of start/end")
    add_format(p, "table")
    p.set_defaults(run=run)


def _tokens_text(args: argparse.Namespace) -> str:
    """The raw token list: ``--tokens``, or the file (``-``: stdin) of ``--tokens-file``."""
    if args.tokens is not None:
        return args.tokens
    if args.tokens_file == "-":
        if args.file in (None, "-") and args.text is None:
            raise CliError("the text and the tokens cannot both come from standard input")
        return read_input(None, "-", "the token list")[0]
    return read_text_file(args.tokens_file)


def run(args: argparse.Namespace) -> int:
    try:
        raw_tokens = _tokens_text(args)
    except SubwordScopeError as exc:
        return bad_input("align: --tokens-file" if args.tokens_file else "align", exc)
    try:
        text, source = read_input(args.text, args.file)
    except CliError as exc:
        return bad_input("align", exc)
    except SubwordScopeError as exc:
        return bad_input(f"align: {'--file' if args.file else 'stdin'}", exc)
    options = {"form": None if args.form == "none" else args.form,
               "strip_accents": not args.keep_accents, "lowercase": not args.keep_case,
               "collapse_whitespace": True}
    view = alignment_view(text, request=AlignRequest(mode="align", tokens_text=raw_tokens, normalizer_options=options,
                                                     normalize_all=args.normalize_all, scheme=args.scheme))
    if view.error or view.notice:
        return bad_input("align", CliError(view.error or view.notice))
    rows = [[r[0], r[1], r[3], r[4], r[5], r[8], r[9]] for r in token_rows(view, args.units)]
    write_rows(list(COLUMNS), rows, args.format,
               extra={"scheme": view.aligned.scheme if view.aligned else None, "units": args.units, "text": text,
                      "normalized": view.normalized.text if view.normalized else None})
    warning = uncovered_warning(view, args.units)
    if warning:
        print(f"subwordscope: align: warning: {warning}", file=sys.stderr)
    return OK


UNIT_NAMES = {"code-points": "code point", "utf16": "UTF-16 unit", "utf8": "byte"}
SHOWN_RUN = 20
"""Most characters of the first uncovered run the warning quotes."""


def uncovered_warning(view: AlignmentView, units: str) -> str | None:
    """The warning for characters no token covers, whitespace excluded (uncovered whitespace
    is normal): ``4 characters are in no token (first at code point 2: "able")`` — the count
    of such code points, where the first is (in ``units``) and the run of uncovered
    non-whitespace code points it starts (at most :data:`SHOWN_RUN`, as a JSON string).
    ``None`` when every such character is in a token. O(n)."""
    if view.audit is None or not view.audit.uncovered:
        return None
    uncovered = view.audit.uncovered
    first, text = uncovered[0], view.text
    end = first
    while end < len(text) and end - first < SHOWN_RUN and view.layer.cover[end] == 0 and not text[end].isspace():
        end += 1
    shown = text[first:end] + ("…" if end - first == SHOWN_RUN and end < len(text)
                               and view.layer.cover[end] == 0 and not text[end].isspace() else "")
    table = {"utf16": view.tables.utf16, "utf8": view.tables.utf8}.get(units)
    where = first if table is None else table[first]
    n = len(uncovered)
    return (f"{n:,} character{'s are' if n != 1 else ' is'} in no token (first at "
            f"{UNIT_NAMES[units]} {where}: {json.dumps(shown, ensure_ascii=False)})")
