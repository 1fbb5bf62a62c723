"""What every subcommand shares: exit codes, the one-line error, tokenizers, input text, output.

Nothing here imports Qt: the subcommands run headless (in CI, over SSH, in a notebook's shell).
Positions are code points unless a name says UTF-16 or UTF-8.
"""

from __future__ import annotations

import csv
import json
import math
import os
import sys
from pathlib import Path
from typing import Any, Iterable, Sequence, TextIO

from core.data import builtin_tokenizer, builtin_tokenizers
from core.errors import SubwordScopeError
from core.text.files import NotTextError, read_text_file
from core.tokenizers import Tokenizer, load

OK = 0
BAD_INPUT = 2
"""Exit code for input the user can fix (as argparse uses for bad arguments)."""

FORMATS = ("table", "json", "jsonl", "csv")
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
        surrogates included), :class:`NotTextError` for stdin that is not UTF-8, or
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
    data = sys.stdin.buffer.read()
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
    or ``json`` (``{"columns": header, "rows": [objects], **extra}``). O(cells)."""
    out = out or sys.stdout
    rows = [list(r) for r in rows]
    if fmt == "csv":  # a list cell (flags) is written as in the table: comma-separated
        writer = csv.writer(_LineFeedRows(out), lineterminator="\r\n")
        writer.writerow(header)
        writer.writerows([",".join(map(str, v)) if isinstance(v, (list, tuple)) else v
                          for v in r] for r in rows)
    elif fmt == "jsonl":
        for r in rows:
            out.write(json.dumps(jsonable(dict(zip(header, r))), ensure_ascii=False) + "\n")
    elif fmt == "json":
        doc = {**(extra or {}), "columns": list(header),
               "rows": [dict(zip(header, r)) for r in rows]}
        out.write(json.dumps(jsonable(doc), ensure_ascii=False, indent=1) + "\n")
    else:
        out.write(aligned_table(header, rows))


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
    cells = [[_visible(cell_text(v)) for v in r] for r in rows]
    widths = [max([len(h)] + [len(r[k]) for r in cells]) for k, h in enumerate(header)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip()]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells]
    return "\n".join(lines) + "\n"


def _visible(s: str) -> str:
    """``s`` with whitespace other than the space and control characters escaped."""
    if s.isprintable():
        return s
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in s)


def add_format(parser, default: str, choices: Sequence[str] = FORMATS) -> None:
    """The shared ``--format`` option."""
    parser.add_argument("--format", choices=list(choices), default=default,
                        help=f"output format (default {default}); columns are listed below")
