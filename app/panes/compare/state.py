"""State of the Compare pane and the one task it runs in a worker (no widgets here).

:class:`CompareState` is what the widgets render from; :func:`run_comparison` is the
worker's callable (load tokenizer files + encode the corpus + metrics + normalization
damage), cached per (tokenizer file, corpus file, modification time).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Callable

from core.collection import COLLECTION, Language, filter_languages
from core.metrics import CompareTable, CorpusFile, compare_table, load_corpus
from core.metrics.atlas import atlas_table, collection_corpus, collection_languages
from core.errors import SubwordScopeError
from core.metrics.normalization_damage import DAMAGE_FORMS, DamageReport, normalization_damage
from core.tokenizers import TokenizerLike, load


@dataclass
class TokenizerEntry:
    """One column: a file to load (``path``) or an object already loaded (``tokenizer``)."""

    label: str
    path: str | None = None
    tokenizer: TokenizerLike | None = None

    def key(self) -> str:
        """Cache key: the file and its modification time, or the object's identity."""
        if self.path and os.path.exists(self.path):
            return f"{self.path}@{os.stat(self.path).st_mtime_ns}"
        return f"{self.label}#{id(self.tokenizer)}"


@dataclass
class CompareState:
    """Everything the Compare pane shows is derived from this (plus the last result)."""

    entries: list[TokenizerEntry] = field(default_factory=list)
    corpus_folder: str = ""
    metric: str = "fertility"
    reference: str = "eng"
    sort_by: str = "language"  # "language", "mean" or a tokenizer label
    damage_form: str = "strip_accents"
    damage_language: str = ""
    #: languages of the UDHR collection kept: "scripts", "stages", "directions" → allowed values
    filters: dict = field(default_factory=dict)


@dataclass(frozen=True)
class CompareResult:
    """What one run of :func:`run_comparison` returns to the GUI thread."""

    table: CompareTable
    corpus: tuple[CorpusFile, ...]
    tokenizers: tuple[Any, ...]  # loaded objects, in table column order
    damage: dict[tuple[str, str], DamageReport]  # (language code, form) -> report
    failures: tuple[str, ...]  # "label: reason" of tokenizers that could not be loaded
    failed: tuple[tuple[str, str], ...] = ()  # (label, reason) of the same tokenizers
    languages: tuple[Language, ...] = ()  # metadata and script of each corpus file, in corpus order


def load_entry(entry: TokenizerEntry, loaded: dict[str, Any]) -> Any:
    """The tokenizer object of ``entry`` (loading its file once per key; may raise)."""
    if entry.tokenizer is not None:
        return entry.tokenizer
    key = entry.key()
    if key not in loaded:
        loaded[key] = load(entry.path)
    return loaded[key]


def run_comparison(
    entries: list[TokenizerEntry],
    folder: str,
    reference: str,
    cache: dict,
    loaded: dict[str, Any],
    *,
    progress: Callable[[float], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    filters: dict | None = None,
) -> CompareResult:
    """Load, encode and measure (runs off the GUI thread; raises ``SubwordScopeError``).

    ``folder`` ``"udhr-all"`` is the shipped UDHR collection: its languages are kept by
    ``filters`` (:func:`core.collection.filter_languages`; the reference stays), and the
    tokenizer files are measured by :func:`core.metrics.atlas.atlas_table` (two processes,
    cells cached on disk); no normalization damage is computed for it."""
    if folder == COLLECTION and not os.path.isdir(folder):
        return _run_collection(entries, reference, loaded, filters or {}, progress, should_stop)
    corpus = load_corpus(folder)
    toks, loaded_entries, failed = _load_entries(entries, loaded)
    keys, names = [e.key() for e in loaded_entries], [e.label for e in loaded_entries]
    table = compare_table(toks, corpus, reference=reference, names=names, keys=keys,
                          cache=cache, progress=progress, should_stop=should_stop)
    damage = {}
    for f in corpus:
        for form in DAMAGE_FORMS:
            dk = ("damage", f.path, f.mtime_ns, form)
            if dk not in cache:
                cache[dk] = normalization_damage("\n".join(f.lines), form, max_examples=40)
            damage[(f.code, form)] = cache[dk]
    failures = tuple(f"{label}: {reason}" for label, reason in failed)
    return CompareResult(table, tuple(corpus), tuple(toks), damage, failures, tuple(failed),
                         _languages_of(corpus))


def _languages_of(corpus: list[CorpusFile]) -> tuple[Language, ...]:
    """The collection's metadata of a folder's files (matched by code) with their scripts;
    none when the collection cannot be read. O(files · SCRIPT_SAMPLE) the first time."""
    try:
        return tuple(collection_languages(corpus))
    except (SubwordScopeError, OSError):
        return ()


def _load_entries(entries, loaded) -> tuple[list, list, list[tuple[str, str]]]:
    """The tokenizers of ``entries`` that load, their entries, and ``(label, reason)`` of
    those that do not (O(entries) loads, each cached in ``loaded``)."""
    toks, kept, failed = [], [], []
    for entry in entries:
        try:
            toks.append(load_entry(entry, loaded))
        except (ValueError, OSError, ImportError) as exc:
            failed.append((entry.label, str(exc)))
            continue
        kept.append(entry)
    return toks, kept, failed


def _run_collection(entries, reference, loaded, filters, progress, should_stop) -> CompareResult:
    corpus = collection_corpus()
    langs = collection_languages(corpus)
    keep = {lang.code for lang in filter_languages(langs, **filters)} | {reference}
    corpus = [f for f in corpus if f.code in keep]
    toks, loaded_entries, failed = _load_entries(entries, loaded)
    names = [e.label for e in loaded_entries]
    paths = [e.path or getattr(tok, "path", None) for e, tok in zip(loaded_entries, toks)]
    report = None if progress is None else (lambda done, total: progress(done / max(total, 1)))
    if all(p and os.path.isfile(p) for p in paths):
        table = atlas_table(paths, corpus, names=names, reference=reference, jobs=ATLAS_JOBS,
                            progress=report, should_stop=should_stop)
    else:  # a tokenizer without a file (the main window's): measured here, not cached on disk
        table = compare_table(toks, corpus, reference=reference, names=names, progress=progress,
                              should_stop=should_stop)
    failures = tuple(f"{label}: {reason}" for label, reason in failed)
    langs = tuple(lang for lang in langs if lang.code in keep)
    return CompareResult(table, tuple(corpus), tuple(toks), {}, failures, tuple(failed), langs)


ATLAS_JOBS = max(1, min(2, os.cpu_count() or 1))
"""Worker processes measuring the UDHR collection: one per core, at most two."""


def result_notes(result: CompareResult, entries: list[TokenizerEntry], unverified: set[str],
                 folder: str) -> tuple[list[TokenizerEntry], str]:
    """What to say about ``result``: the entries to drop (files in ``unverified``, just added,
    that did not load) and one message line per problem (refused files, other failures,
    files of ``folder`` without text)."""
    refused, lines, kept = [], [], []
    for label, reason in result.failed:
        entry = next((e for e in entries if e.label == label), None)
        if entry is not None and entry.path in unverified:
            refused.append(entry)
            lines.append(f"Could not add {entry.path}: {reason.removeprefix(f'{entry.path}: ')}")
        else:
            kept.append(f"{label}: {reason}")
    if kept:
        lines.append(f"Not compared — {'; '.join(kept)}")
    empty = [os.path.basename(f.path) for f in result.corpus if not f.lines]
    if empty and len(empty) == len(result.corpus):
        lines.append(f"No text in {folder}: every .txt file is empty.")
    elif empty:
        lines.append(f"No text in {', '.join(empty)}: "
                     f"{'its row is' if len(empty) == 1 else 'their rows are'} blank.")
    return refused, "\n".join(lines)
