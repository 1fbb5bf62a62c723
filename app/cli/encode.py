"""``subwordscope encode``: a text of any size through a tokenizer → tokens, ids, offsets, flags.

Everything comes from :func:`core.align.view.alignment_view`, the call the Alignment pane
renders, so the command line and the app never disagree. The input (argument, ``--file`` or
standard input) is read in blocks and cut into pieces (:mod:`app.cli.pieces` says where a
piece boundary may be: only where the tokenizer's pre-tokenizer would split anyway, so the
tokens are those of one encode of the whole text); each piece is encoded and its rows written
before the next is read, so memory stays bounded however long the input is.
"""

from __future__ import annotations

import argparse
import sys
from functools import lru_cache
from itertools import chain
from typing import Any, Iterable, Iterator

import numpy as np

from core.align.specials import IN_TEXT, special_ids, special_sources
from core.align.view import AlignmentView, alignment_view
from core.errors import SubwordScopeError
from core.text.byte_alphabet import readable_bytes, readable_shown
from core.tokenizers import TokenizerLike

from app.cli.common import (OK, CliError, RowStream, add_format, bad_input, check_text, load_tokenizer,
                            tokenizer_labels)
from app.cli.pieces import Piece, pieces
from app.cli.text_stream import file_blocks, stdin_blocks

UNITS = ("code-points", "utf16", "utf8")
COLUMNS = {
    "index": "token number, from 0",
    "token": "the token as the tokenizer reports it (byte-level tokens in GPT-2's alphabet), "
             "or with --readable (the table's default) decoded from UTF-8",
    "id": "vocabulary id",
    "start": "span start in --units (reference offsets)",
    "end": "span end, exclusive",
    "text": "the original text of the span",
    "derived_start": "start of the span the token's own content occupies (same units)",
    "derived_end": "its end; differs from start/end only for misleading tokens",
    "flags": "comma-separated: special (a special token: the template's with "
             "--add-special-tokens, or one written in the text), unknown, byte-fallback, "
             "misleading, cuts-grapheme, shares-characters, partial-character, empty",
    "note": "which bytes of which character a byte-level token owns, when only some",
}
FLAG_NAMES = ("special", "unknown", "byte-fallback", "misleading", "cuts-grapheme",
              "shares-characters", "partial-character", "empty")
"""The flags in the order they are listed; bit ``k`` of a token's flag code is ``FLAG_NAMES[k]``."""


def _epilog(columns: dict[str, str]) -> str:
    return ("columns:\n" + "\n".join(f"  {k:<14}{v}" for k, v in columns.items())
            + "\n\nAny size: the text is read and encoded in pieces cut only where the tokenizer "
              "agrees (its pre-tokenizer splits there and a window around encodes as its two "
              "sides; after a line end, else a space or punctuation), so "
              "the tokens equal one encode of the whole text; a piece that finds no such place "
              "in 262,144 characters is cut at the last character that starts a cluster, with a "
              "note on stderr. The table's columns widen as wider cells come; json holds the "
              "text (written last), jsonl, csv and table hold one piece.")


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "encode", help="encode a text: tokens, ids, offsets, flags",
        description="Encode one text (argument, --file or standard input; any size) and print "
                    "every token with its span and what is surprising about it.",
        epilog=_epilog(COLUMNS), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("text", nargs="?", help="the text (default: --file, else standard input)")
    p.add_argument("--file", metavar="F", help="read the text from this UTF-8 file ('-': stdin)")
    p.add_argument("--tokenizer", metavar="P", default="bert-base-uncased",
                   help="tokenizer file or folder, or a built-in name (default bert-base-uncased)")
    p.add_argument("--add-special-tokens", action="store_true",
                   help="add the tokenizer's template tokens ([CLS] … [SEP], <|begin_of_text|>) "
                        "around the text, as a model sees it (span 0..0, flagged special)")
    p.add_argument("--units", choices=UNITS, default="code-points",
                   help="units of start/end: code points (Python), UTF-16 units (JavaScript, "
                        "Java), UTF-8 bytes (Rust, C)")
    p.add_argument("--readable", action=argparse.BooleanOptionalAction, default=None,
                   help="show byte-level tokens decoded from UTF-8 (न, not à¤¨; bytes that are "
                        "only part of a character as ⟨E0 A4⟩) in the token column; the table shows "
                        "them as the app does (a space as ␣, a leading mark after ◌); default: on "
                        "for table, off for json, jsonl and csv (the tokens as the file stores them)")
    add_format(p, "table")
    p.set_defaults(run=run)


def template_rows(tokenizer: TokenizerLike) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """The special tokens the tokenizer's template puts before and after a text
    (``(token, id)`` pairs), read off the encoding of a one-letter text. O(template)."""
    enc = tokenizer.encode("a", add_special_tokens=True)
    mask = list(enc.special_tokens_mask)
    real = [i for i, m in enumerate(mask) if not m] or [len(mask)]
    pairs = list(zip(enc.tokens, enc.ids))
    return ([pairs[i] for i in range(real[0]) if mask[i]],
            [pairs[i] for i in range(real[-1] + 1, len(mask)) if mask[i]])


def _bits(values, n: int) -> np.ndarray:
    """A ``(n,) bool`` array of a mask (list, array or None: all False)."""
    return np.zeros(n, bool) if values is None or not len(values) else np.asarray(values, bool)[:n]


def flag_codes(view: AlignmentView, specials: dict[int, str] | None = None) -> np.ndarray:
    """``(tokens,) int`` flag codes: bit ``k`` set when token ``j`` has ``FLAG_NAMES[k]``, as
    the Alignment pane shows them, plus ``special`` for a special added token written in the
    text: its id is in ``specials`` (id → content), the token is that content and the span's
    text holds it (so a word the model maps to ``[UNK]``, or a piece that got ``<unk>``'s
    id, is not flagged special). O(tokens)."""
    n = len(view.tokens)
    code = _bits(view.rows.special, n).astype(np.int64)
    code |= _bits(view.rows.unknown, n) << 1
    code |= _bits(view.rows.byte_fallback, n) << 2
    a = view.audit
    if a is not None and len(a):
        k = min(len(a), n)
        on = ~np.asarray(a.special[:k], bool)
        for bit, arr in ((3, a.misleading), (4, a.cuts_grapheme), (5, a.shares_chars),
                         (6, a.partial), (7, a.empty)):
            code[:k] |= (np.asarray(arr[:k], bool) & on).astype(np.int64) << bit
    if specials and view.rows.ids:
        code |= special_sources(view.text, view.tokens, view.rows.ids, view.spans, None, specials) == IN_TEXT
    return code


_NAMES = [tuple(f for k, f in enumerate(FLAG_NAMES) if code >> k & 1) for code in range(1 << len(FLAG_NAMES))]
"""Flag code → its names (one shared tuple a code)."""


def token_rows(view: AlignmentView, units: str) -> list[list[Any]]:
    """One row per token in :data:`COLUMNS` order (:func:`token_columns` of the whole text)."""
    return [list(r) for r in zip(*token_columns(view, units))]


def token_columns(view: AlignmentView, units: str, first: int = 0,
                  shift: tuple[int, int, int] = (0, 0, 0),
                  specials: dict[int, str] | None = None) -> list[list[Any]]:
    """The :data:`COLUMNS` of ``view``'s tokens, one list each; spans converted to ``units``.
    Token numbers start at ``first``; ``shift`` = the code points, UTF-16 units and UTF-8
    bytes of the text before ``view.text`` (a piece of a longer text). O(tokens), numpy
    columns; the partial-character notes built in one pass (:meth:`Audit.partial_notes`)."""
    n = len(view.tokens)
    if n == 0:
        return [[] for _ in COLUMNS]
    table = {"utf16": view.tables.utf16, "utf8": view.tables.utf8}.get(units)
    offset = shift[UNITS.index(units)]
    spans = view.spans
    derived = view.rows.derived_spans if view.rows.derived_spans is not None and len(view.rows.derived_spans) else spans
    cols = []
    for col in (spans, derived):
        s = np.asarray(col.starts.view() if hasattr(col, "starts") else [p[0] if p else -1 for p in col])
        e = np.asarray(col.ends.view() if hasattr(col, "ends") else [p[1] if p else -1 for p in col])
        cols.append((s, e, s < 0))
    (s, e, missing), (ds, de, dmissing) = cols
    conv = np.asarray(table, np.int64) if table is not None else None

    def unit(a: np.ndarray, gone: np.ndarray) -> list:
        out = (conv[np.where(gone, 0, a)] if conv is not None else a) + offset
        values: list = out.tolist()
        for j in np.flatnonzero(gone).tolist():
            values[j] = None
        return values

    text = view.text
    texts: list = list(map(text.__getitem__, map(slice, s.tolist(), e.tolist())))
    for j in np.flatnonzero(missing).tolist():
        texts[j] = None
    codes = flag_codes(view, specials)
    notes = [""] * n
    if view.audit is not None:
        partial = np.flatnonzero(codes >> 6 & 1).tolist()
        for j, note in zip(partial, map("; ".join, view.audit.partial_notes(partial))):
            notes[j] = note
    ids = list(view.rows.ids) if view.rows.ids else [None] * n
    flags = list(map(_NAMES.__getitem__, codes.tolist()))
    return [list(range(first, first + n)), list(view.tokens), ids, unit(s, missing),
            unit(e, missing), texts, unit(ds, dmissing), unit(de, dmissing), flags, notes]


def input_blocks(text: str | None, file: str | None) -> tuple[Iterator[str], str, str]:
    """The text as blocks (:mod:`app.cli.text_stream`), the option it came from and how
    messages name it; the first block is read here, so a missing or unreadable file fails
    before the tokenizer loads.

    Raises
    ------
    CliError
        Both a text and ``--file``, or nothing to read (a terminal on standard input).
    SubwordScopeError
        From the reader (missing file, FIFO, not UTF-8).
    """
    if text is not None and file is not None:
        raise CliError("give the text as an argument or with --file, not both")
    if text is not None:
        return iter([check_text(text, "the text")]), "TEXT", "the text"
    if file is not None and file != "-":
        blocks, source, what = file_blocks(file), "--file", file
    elif sys.stdin is None or sys.stdin.isatty():
        raise CliError("give the text as an argument, with --file F, or on standard input")
    else:
        blocks, source, what = stdin_blocks(), "stdin", "standard input"
    first = next(blocks, "")
    return chain([first], blocks), source, what


def run(args: argparse.Namespace) -> int:
    try:
        blocks, source, what = input_blocks(args.text, args.file)
    except CliError as exc:
        return bad_input("encode", exc)
    except SubwordScopeError as exc:  # the typed errors of core.text.files
        return bad_input(f"encode: {'--file' if args.file else 'stdin'}", exc)
    try:
        tokenizer = load_tokenizer(args.tokenizer)
    except SubwordScopeError as exc:
        return bad_input("encode: --tokenizer", exc)
    try:
        return _encode(pieces(blocks, tokenizer), source, what, tokenizer, args)
    except CliError as exc:
        return bad_input("encode", exc)
    except SubwordScopeError as exc:  # found in a later block: the rows before it are written
        return bad_input(f"encode: {'--file' if args.file else 'stdin'}", exc)


def _encode(parts: Iterable[Piece], source: str, what: str, tokenizer: TokenizerLike,
            args: argparse.Namespace) -> int:
    """Encode and write piece by piece. O(n) time; memory: one piece and its rows."""
    keep_text = args.format == "json"
    readable = args.format == "table" if args.readable is None else args.readable
    stream = RowStream(list(COLUMNS), args.format,
                       head={"tokenizer": tokenizer.name, "units": args.units})
    before, after = template_rows(tokenizer) if args.add_special_tokens else ([], [])
    specials = special_ids(tokenizer)
    label = tokenizer_labels([args.tokenizer])[0]
    shift, count, misleading, kept, first = (0, 0, 0), 0, 0, [], True
    stream.write(_special_rows(before, 0))
    count += len(before)
    for piece in parts:
        if first and not piece.text.strip():
            raise CliError(f"{what} is empty; give some text")
        if not piece.exact:
            print(f"subwordscope: encode: note: no place where {label} splits anyway near "
                  f"code point {piece.start:,}; the piece was cut there and the tokens next to it "
                  "may differ from one encode of the whole text", file=sys.stderr)
        first = False
        view = alignment_view(piece.text, tokenizer)
        if view.error or view.notice:
            raise CliError(f"{source}: {view.error or view.notice}")
        columns = token_columns(view, args.units, count, shift, specials)
        if readable and view.rows.token_bytes is not None:
            columns[1] = readable_tokens(columns[1], view.rows.token_bytes, columns[8],
                                         shown=args.format == "table")
        stream.write_columns(columns)
        count += len(columns[0])
        misleading += view.misleading
        shift = (shift[0] + len(piece.text), shift[1] + view.tables.utf16[-1], shift[2] + view.tables.utf8[-1])
        if keep_text:
            kept.append(piece.text)
        del view, columns
    stream.write(_special_rows(after, count))
    stream.close({"text": "".join(kept), "misleading": misleading} if keep_text else None)
    return OK


def readable_tokens(tokens: list[str], token_bytes: list[bytes], flags: list, *,
                    shown: bool = False) -> list[str]:
    """The token column read as text, special tokens kept as they are spelled. ``shown`` (the
    table): as the app's Readable column shows it (:func:`core.text.byte_alphabet.readable_shown`:
    ``␣café``, ``◌ों``); else the decoded text itself (:func:`core.text.byte_alphabet.readable_bytes`:
    `` café``), for csv and json. O(tokens): each distinct token's bytes are read once
    (a corpus has far fewer distinct tokens than tokens)."""
    read = _shown_once if shown else _read_once
    return [t if "special" in f else read(b) for t, b, f in zip(tokens, token_bytes, flags)]


@lru_cache(maxsize=1 << 16)
def _shown_once(data: bytes) -> str:
    return readable_shown(data, 1 << 30)


@lru_cache(maxsize=1 << 16)
def _read_once(data: bytes) -> str:
    return readable_bytes(data)


def _special_rows(pairs: list[tuple[str, int]], first: int) -> list[list[Any]]:
    """Rows of template special tokens (span 0..0, as the encoding gives them)."""
    return [[first + k, t, i, 0, 0, "", 0, 0, ["special"], ""] for k, (t, i) in enumerate(pairs)]
