"""``subwordscope compare``: tokenizers × a corpus folder → the Compare pane's metrics table.

Map: every chunk of every ``<lang>.txt`` is encoded line by line with every tokenizer and its
:func:`core.metrics.encoding_metrics` summed (:func:`app.cli.work.compare_chunk`). Reduce:
the chunks' integer counts are added per (language, tokenizer) into a
:class:`core.metrics.CompareTable` — exactly the table :func:`core.metrics.compare_table`
builds in the pane, whatever ran the map. Rows are :meth:`CompareTable.long_rows` (the pane's
CSV export) plus ``unreliable``, so the unknown share stands beside every cost. Counts
(:data:`COUNT_COLUMNS`) are written as integers. A file of only blank lines has nothing to
measure: it is skipped with a warning on stderr, and when every file is blank (or the
reference is) the command exits 2 with one line.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from typing import Sequence

from core.data import COMPARED_BUILTINS
from core.errors import SubwordScopeError
from core.metrics import METRICS, UNKNOWN_LIMIT, CompareTable, unreliable
from core.metrics.per_encoding import ZERO
from core.metrics.round_trip_share import RoundTripCount

from core.collection import COLLECTION
from core.metrics.atlas import CellStore, atlas_table, collection_corpus, collection_languages

from app.cli.common import OK, add_format, bad_input, resolve_tokenizer, split_label, tokenizer_labels, write_rows
from app.cli.corpus import CorpusError, corpus_files, plan_chunks
from app.cli.mapreduce import add_options, run_map
from app.cli.work import CompareCounts, TokenizerFailed, compare_chunk, tokenizers

DEFAULT_TOKENIZERS = COMPARED_BUILTINS
COLUMNS = {
    "language": "file stem of the corpus file (e.g. por_PT)",
    "language_name": "the language's name",
    "tokenizer": "tokenizer label (LABEL=PATH, a built-in name, or the file's folder or stem)",
    **{key: description for key, (_label, description) in METRICS.items()},
    "words_are_characters": "the language is written without spaces: words are characters",
    "unreliable": f"more than {UNKNOWN_LIMIT:.0%} of the characters are unknown: never rank this cell by cost",
}
META_COLUMNS = {
    "bcp47": f"({COLLECTION} only) the language's BCP-47 tag",
    "iso6393": f"({COLLECTION} only) its ISO 639-3 code",
    "direction": f"({COLLECTION} only) ltr or rtl",
    "stage": f"({COLLECTION} only) completeness of the text's encoding, 4 = complete and checked",
    "latitude": f"({COLLECTION} only) the language's latitude (degrees)",
    "longitude": f"({COLLECTION} only) the language's longitude (degrees)",
    "script": f"({COLLECTION} only) the script of most letters of the text",
}


COUNT_COLUMNS = ("tokens", "adjusted_tokens", "words", "characters", "utf8_bytes")
"""Columns that count things: written as integers (``1970``, not ``1970.0``)."""


def add_corpus_arguments(p, default_format: str) -> None:
    """The corpus folder, ``--tokenizer`` (repeatable), ``--format`` and the map options."""
    p.add_argument("corpus", help="folder of UTF-8 text files, one language per file (<lang>.txt), "
                                  f"one paragraph a line; or {COLLECTION} (compare only): the UDHR "
                                  "collection shipped with the app, 532 texts")
    p.add_argument("--tokenizer", metavar="P", action="append", dest="tokenizers",
                   help="tokenizer file or folder, a built-in name, or LABEL=PATH; repeat for "
                        f"several (default: {', '.join(DEFAULT_TOKENIZERS)})")
    add_format(p, default_format)
    add_options(p)


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "compare", help="metrics of tokenizers across the languages of a corpus",
        description="Encode every line of every language of a parallel corpus with every "
                    "tokenizer and print the metrics the Compare pane shows, one row per "
                    "(language, tokenizer). Files are streamed in chunks over all cores.",
        epilog="columns:\n" + "\n".join(f"  {k:<30}{v}" for k, v in {**COLUMNS, **META_COLUMNS}.items())
               + f"\n\n{', '.join(COUNT_COLUMNS)} are integers. A file of only blank lines is "
                 "skipped with a warning on stderr; when every file (or the reference) is blank, "
                 "the command exits 2.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_corpus_arguments(p, "csv")
    p.add_argument("--reference", default=None, metavar="LANG",
                   help="language the premiums are relative to (default eng, or the first "
                        "language when the corpus has no eng.txt)")
    p.add_argument("--languages", metavar="CODES", default=None,
                   help=f"({COLLECTION} only) comma-separated text codes to measure (default: all 532)")
    p.set_defaults(run=run)


def reduce_table(results: Sequence[CompareCounts], names: Sequence[str],
                 reference: str | None) -> CompareTable:
    """Add the chunks' counts per (language, tokenizer), languages in chunk order; a
    round trip is ``None`` for a language when any of its chunks has none, as for a whole file
    in :func:`core.metrics.table.file_cell`. O(chunks · tokenizers)."""
    cells: dict[str, list] = {}
    trips: dict[str, list] = {}
    for r in results:
        row = cells.setdefault(r.chunk.language, [ZERO] * len(names))
        trip = trips.setdefault(r.chunk.language, [RoundTripCount()] * len(names))
        for j, (m, t) in enumerate(zip(r.cells, r.round_trips)):
            row[j] = row[j] + m
            trip[j] = None if t is None or trip[j] is None else trip[j] + t
    return CompareTable(tuple(cells), tuple(names), tuple(tuple(row) for row in cells.values()),
                        reference, tuple(tuple(t) for t in trips.values()))


def table_rows(table: CompareTable) -> tuple[list[str], list[list]]:
    """:meth:`CompareTable.long_rows` with the ``unreliable`` column appended and the
    :data:`COUNT_COLUMNS` as ``int`` (a whole, finite float only). O(cells)."""
    header, rows = table.long_rows()
    marked = unreliable(table)
    n = len(table.tokenizers)
    counts = [k for k, name in enumerate(header) if name in COUNT_COLUMNS]
    for row in rows:
        for k in counts:
            v = row[k]
            if isinstance(v, float) and math.isfinite(v) and v.is_integer():
                row[k] = int(v)
    return header + ["unreliable"], [row + [bool(marked[k // n, k % n])] for k, row in enumerate(rows)]


def drop_blank_languages(table: CompareTable) -> tuple[CompareTable, list[str]]:
    """``(table without its blank languages, their codes)``: a language is blank when no
    tokenizer saw a character of it (its file holds only blank lines). O(cells)."""
    keep = [i for i, row in enumerate(table.cells) if any(c.characters for c in row)]
    if len(keep) == len(table.languages):
        return table, []
    kept = set(keep)
    blank = [code for i, code in enumerate(table.languages) if i not in kept]
    trips = tuple(table.round_trips[i] for i in keep) if table.round_trips else ()
    return CompareTable(tuple(table.languages[i] for i in keep), table.tokenizers,
                        tuple(table.cells[i] for i in keep), table.reference, trips), blank


def all_blank(command: str, corpus: str) -> int:
    """Report a corpus of only blank files (one line on stderr); return the exit code 2."""
    return bad_input(f"{command}: corpus", CorpusError(
        f"{corpus}: every .txt file holds only blank lines; nothing to measure"))


def warn_blank(command: str, paths: Sequence[str]) -> None:
    """One warning line on stderr per skipped file of only blank lines."""
    for path in paths:
        print(f"subwordscope: {command}: warning: {path}: only blank lines; skipped", file=sys.stderr)


def prepare(args: argparse.Namespace, command: str) -> tuple | int:
    """``(specs, labels, chunks)`` of a corpus command, the tokenizers loaded in this process
    (so a bad one is reported before any work); or the exit code after a bad-input message."""
    specs = tuple(args.tokenizers or DEFAULT_TOKENIZERS)
    try:
        chunks = plan_chunks(corpus_files(args.corpus), args.chunk_bytes)
    except SubwordScopeError as exc:
        return bad_input(f"{command}: corpus", exc)
    languages = sorted({c.language for c in chunks})
    if hasattr(args, "reference") and args.reference is None:
        args.reference = "eng" if "eng" in languages else languages[0]
    reference = getattr(args, "reference", None)
    if reference is not None and reference not in languages:
        return bad_input(f"{command}: --reference", CorpusError(
            f"no {reference}.txt in {args.corpus}; the languages there are {', '.join(languages)}"))
    try:
        tokenizers(specs)
    except SubwordScopeError as exc:
        return bad_input(f"{command}: --tokenizer", exc)
    return specs, tokenizer_labels(specs), chunks


def run_collection(args: argparse.Namespace) -> int:
    """``compare udhr-all``: :func:`core.metrics.atlas.atlas_table` over the shipped collection
    on ``--jobs`` processes, cells cached in the user cache folder (a second run reads them),
    rows with the collection's metadata columns. Dask options are refused (the cache is local)."""
    if args.scheduler or args.workers:
        return bad_input("compare: --scheduler", CorpusError(
            f"{COLLECTION} runs on this machine's cores (--jobs), its cells cached; "
            "give a folder of texts to run on Dask"))
    specs = tuple(args.tokenizers or DEFAULT_TOKENIZERS)
    codes = [c for c in args.languages.split(",") if c] if args.languages else None
    try:
        paths = [resolve_tokenizer(split_label(s)[1]) for s in specs]
        corpus = collection_corpus(codes)
    except SubwordScopeError as exc:
        return bad_input("compare", exc)
    present = [f.code for f in corpus]
    args.reference = args.reference or ("eng" if "eng" in present else present[0])
    if args.reference not in present:
        return bad_input("compare: --reference", CorpusError(
            f"no text {args.reference} among the languages measured; add it with --languages"))
    store = CellStore()
    try:
        table = atlas_table(paths, corpus, names=tokenizer_labels(specs), reference=args.reference,
                            jobs=args.jobs, store=store)
        langs = collection_languages(corpus, store)
    except SubwordScopeError as exc:
        return bad_input("compare", exc)
    header, rows = table_rows(table)
    n, name_at = len(table.tokenizers), header.index("language_name")
    meta = list(META_COLUMNS)
    for k, row in enumerate(rows):
        lang = langs[k // n]
        row[name_at] = lang.name
        row.extend([lang.bcp47, lang.iso6393, lang.direction, lang.stage, lang.latitude, lang.longitude, lang.script])
    write_rows(header + meta, rows, args.format,
               extra={"reference": args.reference, "languages": list(table.languages),
                      "tokenizers": list(table.tokenizers), "unknown_limit": UNKNOWN_LIMIT})
    return OK


def run(args: argparse.Namespace) -> int:
    if args.corpus == COLLECTION and not os.path.isdir(args.corpus):
        return run_collection(args)
    if args.languages:
        return bad_input("compare: --languages", CorpusError(
            f"--languages picks texts of {COLLECTION}; a folder's languages are its .txt files"))
    prepared = prepare(args, "compare")
    if isinstance(prepared, int):
        return prepared
    specs, names, chunks = prepared
    try:
        results = run_map(compare_chunk, specs, chunks, jobs=args.jobs, scheduler=args.scheduler,
                          workers=args.workers, desc="compare")
    except TokenizerFailed as exc:  # name the tokenizer and the file, not only the character
        return bad_input(f"compare: {exc.where(names)}", exc)
    except SubwordScopeError as exc:
        return bad_input("compare", exc)
    table, blank = drop_blank_languages(reduce_table(results, names, args.reference))
    files = {c.language: c.path for c in chunks}
    if not table.languages:
        return all_blank("compare", args.corpus)
    if args.reference in blank:
        return bad_input("compare: --reference", CorpusError(
            f"{files[args.reference]} holds only blank lines; choose another with --reference "
            f"({', '.join(table.languages)})"))
    warn_blank("compare", [files[code] for code in blank])
    header, rows = table_rows(table)
    write_rows(header, rows, args.format,
               extra={"reference": args.reference, "languages": list(table.languages),
                      "tokenizers": list(table.tokenizers), "unknown_limit": UNKNOWN_LIMIT})
    return OK
