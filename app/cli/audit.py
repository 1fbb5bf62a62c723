"""``subwordscope audit``: where a tokenizer's offsets mislead on a corpus — counts and examples.

Map (:func:`app.cli.work.audit_chunk`): every line of every chunk is encoded and flagged with
:func:`core.align.view.audit_spans`, the Alignment pane's flags, with each token's derived
span (``Encoding.derived_offsets``); the first examples of each flag are kept. Reduce
(:func:`reduce_audit`): counts added per (language, tokenizer), examples taken in text order,
chunk-relative line numbers turned into line numbers of the file. Equal for any ``--jobs``
and on Dask. Blank files are handled as :mod:`app.cli.compare` handles them: skipped with a
warning, exit 2 when every file is blank.
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from core.errors import SubwordScopeError
from core.text.scripts import language_name

from app.cli.common import OK, aligned_table, bad_input, write_rows
from app.cli.compare import add_corpus_arguments, all_blank, prepare, warn_blank
from app.cli.mapreduce import run_map
from app.cli.work import AUDIT_COUNTS, EXAMPLE_FLAGS, AuditCounts, TokenizerFailed, audit_chunk

COLUMNS = {
    "language": "file stem of the corpus file",
    "language_name": "the language's name",
    "tokenizer": "tokenizer label",
    "tokens": "tokens (special tokens excluded)",
    "misleading": "tokens whose reference span differs from the span their own content occupies",
    "misleading_share": "misleading / tokens",
    "cuts_grapheme": "tokens whose span starts or ends inside a grapheme cluster",
    "shares_characters": "tokens whose span overlaps another token's (byte pieces of one character)",
    "partial_character": "byte-level tokens owning only some UTF-8 bytes of a character",
    "empty": "tokens with an empty span",
    "uncovered_characters": "non-space code points no token covers",
    "unknown": "unknown tokens",
    "byte_fallback": "byte-fallback pieces (<0xNN>)",
    "characters": "code points of the non-blank lines",
}
MAX_EXAMPLES = 100
"""Most ``--examples`` per language, tokenizer and flag: each is a dict of a dozen fields kept
until the end (about 1 KB; 100 × 5 flags × 29 languages × 2 tokenizers ≈ 30 MB at worst),
where a million once took 1.97 GB on a 462 KB corpus."""

EXAMPLE_COLUMNS = ("tokenizer", "language", "flag", "line", "token_index", "token", "start", "end",
                   "text", "derived_start", "derived_end", "derived_text", "note")


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "audit", help="where a tokenizer's offsets mislead on a corpus",
        description="Flag every token of every line of a corpus folder as the Alignment pane "
                    "does (misleading span, cut grapheme cluster, shared or partial characters, "
                    "empty span, uncovered characters) and print the counts per (language, "
                    "tokenizer) and, in the table and JSON formats, the first examples of each "
                    "flag.",
        epilog="columns:\n" + "\n".join(f"  {k:<22}{v}" for k, v in COLUMNS.items())
        + "\nexamples (JSON \"examples\", table after the counts): " + ", ".join(EXAMPLE_COLUMNS)
        + "\n  positions are code points of the line; line counts from 1 in the file"
        + "\n\nA file of only blank lines is skipped with a warning on stderr; when every file"
          "\nis blank, the command exits 2 (as compare does).",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_corpus_arguments(p, "table")
    p.add_argument("--examples", type=int, default=3, metavar="K",
                   help="examples kept per language, tokenizer and flag (default 3; 0: none; "
                        f"at most {MAX_EXAMPLES})")
    p.set_defaults(run=run)


def reduce_audit(results: Sequence[AuditCounts], names: Sequence[str],
                 k: int) -> tuple[list[list], list[dict]]:
    """Count rows (:data:`COLUMNS` order) and examples (:data:`EXAMPLE_COLUMNS` keys), both
    languages in chunk order, then tokenizers; examples in text order. O(chunks · k)."""
    counts: dict[str, list[dict[str, int]]] = {}
    found: dict[tuple[str, int, str], list[dict]] = {}
    lines_before: dict[str, int] = {}
    for r in results:
        lang = r.chunk.language
        offset = lines_before.get(lang, 0)
        lines_before[lang] = offset + r.lines
        row = counts.setdefault(lang, [dict.fromkeys(AUDIT_COUNTS, 0) for _ in names])
        for j, (c, ex) in enumerate(zip(r.counts, r.examples)):
            for key, v in c.items():
                row[j][key] += v
            for flag, items in ex.items():
                kept = found.setdefault((lang, j, flag), [])
                kept.extend({**e, "line": e["line"] + offset} for e in items[:k - len(kept)])
    rows = [[lang, language_name(lang), names[j], *_values(c)]
            for lang, per in counts.items() for j, c in enumerate(per)]
    examples = [{"tokenizer": names[j], "language": lang, "flag": flag, **e}
                for lang in counts for j in range(len(names)) for flag in EXAMPLE_FLAGS.values()
                for e in found.get((lang, j, flag), [])]
    return rows, examples


def _values(c: dict[str, int]) -> list:
    share = c["misleading"] / c["tokens"] if c["tokens"] else float("nan")
    return [c["tokens"], c["misleading"], share, *(c[key] for key in COLUMNS if key in AUDIT_COUNTS
                                                   and key not in ("tokens", "misleading"))]


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.examples <= MAX_EXAMPLES:
        return bad_input("audit: --examples", ValueError(
            f"give 0 to {MAX_EXAMPLES} examples per language, tokenizer and flag (the counts "
            "cover every token; the examples are a sample)"))
    prepared = prepare(args, "audit")
    if isinstance(prepared, int):
        return prepared
    specs, names, chunks = prepared
    try:
        results = run_map(audit_chunk, specs, chunks, jobs=args.jobs, scheduler=args.scheduler,
                          workers=args.workers, desc="audit", examples=args.examples)
    except TokenizerFailed as exc:  # name the tokenizer and the file, not only the character
        return bad_input(f"audit: {exc.where(names)}", exc)
    except SubwordScopeError as exc:
        return bad_input("audit", exc)
    rows, examples = reduce_audit(results, names, args.examples)
    characters = list(COLUMNS).index("characters")
    seen = {r[0] for r in rows if r[characters]}
    blank = list(dict.fromkeys(r[0] for r in rows if r[0] not in seen))
    if not seen:  # as compare: a blank file has nothing to audit
        return all_blank("audit", args.corpus)
    files = {c.language: c.path for c in chunks}
    warn_blank("audit", [files[code] for code in blank])
    rows = [r for r in rows if r[0] in seen]
    write_rows(list(COLUMNS), rows, args.format, extra={"examples": examples})
    if args.format == "table" and examples:
        sys.stdout.write("\nexamples (first per language, tokenizer and flag; positions are "
                         "code points of the line):\n")
        sys.stdout.write(aligned_table(EXAMPLE_COLUMNS, [[e[c] for c in EXAMPLE_COLUMNS] for e in examples]))
    return OK
