"""What every subcommand shares: exit codes, the one-line error, tokenizers, input text, output.

Nothing here imports Qt: the subcommands run headless (in CI, over SSH, in a notebook's shell).
Positions are code points unless a name says UTF-16 or UTF-8.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import sys
from json.encoder import encode_basestring
from pathlib import Path
from typing import Any, Iterable, Sequence, TextIO

from core.data import builtin_tokenizer, builtin_tokenizers
from core.errors import SubwordScopeError
from core.text.files import MAX_TEXT_FILE_BYTES, FileTooLargeError, NotTextError, read_text_file
from core.tokenizers import Tokenizer, load

OK = 0
BAD_INPUT = 2
"""Exit code for input the user can fix (as argparse uses for bad arguments)."""

FORMATS = ("table", "json", "jsonl", "csv")
STDIN_MAX_BYTES = MAX_TEXT_FILE_BYTES
"""Most bytes :func:`read_input` takes from standard input (as from a file); ``encode``
streams its input instead and has no cap."""
GENERIC_FILES = ("tokenizer.json", "vocab.txt", "vocab.json")


class CliError(SubwordScopeError):
    """Bad input the command line found itself (an empty text, a missing option value)."""


def bad_input(what: str, exc: BaseException) -> int:
    """Print ``subwordscope: <what>: <message>`` as one line on stderr; return :data:`BAD_INPUT`."""
    message = " ".join(str(exc).split())  # one line, whatever the message holds
    print(f"subwordscope: {what}: {message}", file=sys.stderr)
    return BAD_INPUT


def split_label(spec: str) -> tuple[str | None, str]:
    """``"LABEL=PATH"`` → ``(LABEL, PATH)``; a spec without ``=`` (or an existing path
    holding one) → ``(None, spec)``."""
    label, sep, path = spec.partition("=")
    if not sep or not label or os.path.exists(spec):
        return None, spec
    return label, path


def resolve_tokenizer(spec: str) -> str:
    """The path to load for ``spec``: a built-in name (``bert-base-uncased``, ``gpt2``) when
    no file of that name exists, else the path itself.

    Raises
    ------
    core.data.ResourceError
        If a built-in tokenizer cannot be unpacked into the cache folder.
    """
    if spec in builtin_tokenizers() and not os.path.exists(spec):
        return str(builtin_tokenizer(spec))
    return spec


def load_tokenizer(spec: str) -> Tokenizer:
    """Load a tokenizer file or folder, or a built-in one by name (``LABEL=`` prefix ignored).

    Raises
    ------
    SubwordScopeError
        :class:`core.errors.TokenizerLoadError` for a missing or malformed file, naming it.
    """
    return load(resolve_tokenizer(split_label(spec)[1]))


def tokenizer_labels(specs: Sequence[str]) -> list[str]:
    """One unique column label per spec: its ``LABEL=``, a built-in name, the folder of a
    generic file name (``gpt2/tokenizer.json`` → ``gpt2``) or the file's stem; repeated labels
    get `` (2)``, `` (3)`` …"""
    out: list[str] = []
    for spec in specs:
        label, path = split_label(spec)
        if label is None:
            p = Path(path)
            label = path if path in builtin_tokenizers() and not p.exists() else (
                (p.resolve().parent.name if p.name in GENERIC_FILES else p.stem) or path)
        unique, k = label, 2
        while unique in out:
            unique, k = f"{label} ({k})", k + 1
        out.append(unique)
    return out


def check_text(text: str, what: str) -> str:
    """``text`` if it is well-formed (no lone surrogate) and not blank.

    Raises
    ------
    CliError
        A lone surrogate (undecodable bytes in an argument) or a text of only whitespace.
    """
    for i, c in enumerate(text):
        if "\ud800" <= c <= "\udfff":
            raise CliError(f"{what} holds a lone surrogate U+{ord(c):04X} at code point {i}; "
                           "pass UTF-8 text")
    if not text.strip():
        raise CliError(f"{what} is empty; give some text")
    return text


def read_input(text: str | None, file: str | None, what: str = "the text") -> tuple[str, str]:
    """The text to work on and the option it came from: ``text``, else ``--file``, else stdin.

    Raises
    ------
    SubwordScopeError
        From :func:`core.text.files.read_text_file` (missing file, FIFO, not UTF-8 — lone
        surrogates included), :class:`NotTextError` for stdin that is not UTF-8,
        :class:`FileTooLargeError` for more than :data:`STDIN_MAX_BYTES` on stdin, or
        :class:`CliError` from :func:`check_text`.
    """
    if text is not None and file is not None:
        raise CliError(f"give {what} as an argument or with --file, not both")
    if text is not None:
        return check_text(text, what), "TEXT"
    if file is not None and file != "-":
        return check_text(read_text_file(file), file), "--file"
    if sys.stdin is None or sys.stdin.isatty():
        raise CliError(f"give {what} as an argument, with --file F, or on standard input")
    data = sys.stdin.buffer.read(STDIN_MAX_BYTES + 1)
    if len(data) > STDIN_MAX_BYTES:
        raise FileTooLargeError(f"more than the {STDIN_MAX_BYTES:,}-byte limit for standard "
                                "input; pass a file with --file", "<stdin>")
    try:
        decoded = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise NotTextError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", "<stdin>") from None
    return check_text(decoded, "standard input"), "stdin"


def jsonable(value: Any) -> Any:
    """``value`` with ``nan``/``inf`` floats as ``None`` and tuples as lists (strict JSON)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    return value


def write_rows(header: Sequence[str], rows: Iterable[Sequence[Any]], fmt: str,
               out: TextIO | None = None, extra: dict | None = None) -> None:
    """Write rows as an aligned ``table``, ``csv`` (raw values), ``jsonl`` (one object per row)
    or ``json`` (``{**extra, "columns": header, "rows": [objects]}``). O(cells)."""
    stream = RowStream(header, fmt, out, head=extra)
    stream.write([list(r) for r in rows])
    stream.close()


WRITE_ROWS = 8192
"""Rows converted to text and written at a time (bounds the memory of the output)."""


class RowStream:
    """Rows written as they come, in one of :data:`FORMATS`, holding none of them.

    ``write(rows)`` writes a batch; ``close(tail)`` ends the output. ``json`` is
    ``{**head, "columns": header, "rows": [objects…], **tail}`` (one row object a line);
    ``table`` pads each column to the widest cell seen so far (the header and the first
    batch to the first batch's widest cell; a column never narrows, so one batch gives the
    same table as :func:`aligned_table`). O(cells) over all batches.
    """

    def __init__(self, header: Sequence[str], fmt: str, out: TextIO | None = None,
                 head: dict | None = None):
        self.header, self.fmt, self.out = list(header), fmt, out or sys.stdout
        self.head, self.written = head or {}, False
        self.widths: list[int] | None = None
        self.csv = csv.writer(_LineFeedRows(self.out), lineterminator="\r\n")
        if fmt == "csv":
            self.csv.writerow(self.header)
        elif fmt == "json":
            start = json.dumps(jsonable({**self.head, "columns": self.header}), ensure_ascii=False)
            self.out.write(start[:-1] + ', "rows": [')

    def write(self, rows: Sequence[Sequence[Any]]) -> None:
        """Write a batch of rows (each in ``header`` order)."""
        self.write_columns([list(c) for c in zip(*rows)] if len(rows) else [])

    def write_columns(self, cols: Sequence[Sequence[Any]]) -> None:
        """Write a batch given as columns (``header`` order, equal lengths). Each column is
        converted at once (ints, strings, None and lists of strings at C speed). O(cells)."""
        n = len(cols[0]) if len(cols) else 0
        if not n:
            return
        if self.fmt == "table":  # the widths of the whole batch, then the rows a slice at a time
            cols = [_table_column(c) for c in cols]
            self._widen(cols)
        for k in range(0, n, WRITE_ROWS):
            self._write_slice([c[k:k + WRITE_ROWS] for c in cols] if n > WRITE_ROWS else cols)

    def _write_slice(self, cols: Sequence[Sequence[Any]]) -> None:
        if self.fmt == "csv":  # a list cell (flags) is written as in the table: comma-separated
            self.csv.writerows(zip(*(_csv_column(c) for c in cols)))
        elif self.fmt in ("json", "jsonl"):
            cells = [_json_column(c) for c in cols]  # one %-format a row (ints as digits)
            line = "{" + ", ".join(json.dumps(h, ensure_ascii=False).replace("%", "%%") + ": "
                                   + ("%d" if _is_ints(c) else "%s") for h, c in zip(self.header, cells)) + "}"
            text = ("\n" if self.fmt == "jsonl" else ",\n").join(map(line.__mod__, zip(*cells)))
            if self.fmt == "jsonl":
                self.out.write(text + "\n")
            else:
                self.out.write((",\n" if self.written else "\n") + text)
        else:
            self._table(cols)  # already cell texts
        self.written = True

    def close(self, tail: dict | None = None) -> None:
        """End the output (``json``: the rows' closing bracket and ``tail``'s keys)."""
        if self.fmt == "json":
            end = json.dumps(jsonable(tail or {}), ensure_ascii=False)
            self.out.write(("\n]" if self.written else "]") + (", " + end[1:] if tail else "}") + "\n")
        elif self.fmt == "table" and self.widths is None:
            self._widen([])

    def _widen(self, cols: list[list[str]]) -> None:
        """Grow the column widths to ``cols``' widest cells; the header goes out with the first."""
        widths = [max(len(h), _widest(c)) for h, c in zip(self.header, cols or [[]] * len(self.header))]
        if self.widths is None:
            self.widths = widths
            self.out.write("  ".join(h.ljust(w) for h, w in zip(self.header, widths)).rstrip() + "\n")
        else:
            self.widths = [max(a, b) for a, b in zip(self.widths, widths)]

    def _table(self, cols: list[list[str]]) -> None:
        widths = self.widths or []
        if cols:  # one %-format a row pads every cell (code points, as str.ljust; ints as digits)
            line = "  ".join([f"%-{w}{'d' if _is_ints(c) else 's'}" for w, c in zip(widths[:-1], cols)] + ["%s"])
            self.out.write("\n".join(map(str.rstrip, map(line.__mod__, zip(*cols)))) + "\n")


def _kinds(col: Sequence[Any]) -> set:
    return set(map(type, col))


def _json_column(col: Sequence[Any]) -> list[Any]:
    """Each value as JSON text (strict: ``nan``/``inf`` as ``null``); a column of ints kept
    as ints (the row format writes their digits)."""
    kinds = _kinds(col)
    if kinds <= {int}:
        return col if isinstance(col, list) else list(col)
    if kinds <= {str}:
        return list(map(encode_basestring, col))
    if kinds <= {int, str, type(None)}:
        return ["null" if v is None else str(v) if type(v) is int else encode_basestring(v) for v in col]
    if not kinds & {int, float, str, type(None)}:  # lists (flags): one text per distinct object
        objects = dict(zip(map(id, col), col))
        texts = {i: json.dumps(jsonable(v), ensure_ascii=False) for i, v in objects.items()}
        return list(map(texts.__getitem__, map(id, col)))
    return [json.dumps(jsonable(v), ensure_ascii=False) for v in col]


def _table_column(col: Sequence[Any]) -> list[Any]:
    """Each value as the aligned table shows it (:func:`cell_text`, controls escaped); a
    column of printable strings as it is, lists (flags) converted once per distinct object,
    a column of ints kept as ints (the row format writes their digits: no string per cell)."""
    kinds = _kinds(col)
    if kinds <= {int}:
        return col if isinstance(col, list) else list(col)
    if kinds <= {str}:
        return list(col) if "".join(col).isprintable() else list(map(_visible, col))
    if not kinds & {int, float, str, type(None)}:
        objects = dict(zip(map(id, col), col))
        texts = {i: _visible(cell_text(v)) for i, v in objects.items()}
        return list(map(texts.__getitem__, map(id, col)))
    return [_visible(cell_text(v)) for v in col]


def _is_ints(col: Sequence[Any]) -> bool:
    """A column :func:`_table_column` or :func:`_json_column` kept as ints (they convert
    every other kind to str)."""
    return bool(len(col)) and type(col[0]) is int


def _widest(col: Sequence[Any]) -> int:
    """The widest cell of a :func:`_table_column` column, in code points: of ints, the
    longer of the smallest and the largest. O(cells) at C level."""
    if not len(col):
        return 0
    if _is_ints(col):
        return max(len(str(min(col))), len(str(max(col))))
    return max(map(len, col))


def _csv_column(col: Sequence[Any]) -> Sequence[Any]:
    """Values as the CSV writer takes them (a list as its comma-joined items)."""
    if not _kinds(col) & {list, tuple}:
        return col
    return [",".join(map(str, v)) if isinstance(v, (list, tuple)) else v for v in col]


class _LineFeedRows:
    """A file for :func:`csv.writer` with ``lineterminator="\\r\\n"`` that writes each row
    ending in ``"\\n"`` instead. The writer quotes a field holding any character of its line
    terminator, so with ``"\\r\\n"`` every field holding ``\\r`` or ``\\n`` is quoted (with
    ``"\\n"`` a lone ``\\r`` was written bare and broke the row); the rows still end in
    ``"\\n"``. The writer hands over one whole row per ``write`` call."""

    def __init__(self, out: TextIO):
        self.out = out

    def write(self, row: str) -> int:
        return self.out.write(row.removesuffix("\r\n") + "\n")


def cell_text(value: Any) -> str:
    """How a value reads in the aligned table (floats to 4 significant digits, lists joined)."""
    if isinstance(value, float):
        return "nan" if math.isnan(value) else f"{value:.4g}"
    if isinstance(value, (list, tuple)):
        return ",".join(map(str, value))
    if value is None:
        return "-"
    return str(value)


def aligned_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """Columns padded to their widest cell (in code points; control characters escaped)."""
    out = io.StringIO()
    write_rows(header, rows, "table", out)
    return out.getvalue()


def _visible(s: str) -> str:
    """``s`` with whitespace other than the space and control characters escaped."""
    if s.isprintable():
        return s
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in s)


def add_format(parser, default: str, choices: Sequence[str] = FORMATS) -> None:
    """The shared ``--format`` option."""
    parser.add_argument("--format", choices=list(choices), default=default,
                        help=f"output format (default {default}); columns are listed below")
