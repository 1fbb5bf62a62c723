"""State of the Compare pane and the one task it runs in a worker (no widgets here).

:class:`CompareState` is what the widgets render from and what the pane stores (the
:class:`~app.panes.stored.StoredState` protocol); :func:`run_comparison` is the worker's
callable (load tokenizer files + encode the corpus + metrics + normalization
damage), cached per (tokenizer file, corpus file, modification time).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable, ClassVar

from app.panes.stored import MAX_TEXT_CHARS, StoredState
from core.collection import COLLECTION, Language, filter_languages
from core.metrics import METRICS, CompareTable, CorpusFile, compare_table, load_corpus
from core.metrics.atlas import CellStore, atlas_table, collection_corpus, collection_languages
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


MAX_TOKENIZERS = 256
"""Most tokenizer files a stored :class:`CompareState` lists (a longer list keeps the default)."""
MAX_SIZES_CHARS = 65_536
"""Most code points of the stored sampling sizes text (one ``name size`` line per language)."""


def tokenizer_pairs(value: object) -> bool:
    """A stored list of compared files: at most :data:`MAX_TOKENIZERS` ``[label, path]``
    pairs of strings of at most :data:`~app.panes.stored.MAX_TEXT_CHARS` code points."""
    return (isinstance(value, list) and len(value) <= MAX_TOKENIZERS
            and all(isinstance(v, list) and len(v) == 2
                    and all(isinstance(x, str) and len(x) <= MAX_TEXT_CHARS for x in v) for v in value))


def _number(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) < 1e12


def sampling_inputs(value: object) -> bool:
    """The stored sampling inputs: ``[sizes text, temperature, draws]`` (a text of at most
    :data:`MAX_SIZES_CHARS` code points, a temperature > 0, draws >= 0, both below 10¹²)."""
    return (isinstance(value, list) and len(value) == 3 and isinstance(value[0], str)
            and len(value[0]) <= MAX_SIZES_CHARS and _number(value[1]) and _number(value[2])
            and value[1] > 0 and value[2] >= 0)


@dataclass
class CompareState(StoredState):
    """What the Compare pane remembers and renders from (its tokenizer columns themselves,
    which may hold objects loaded in the main window, are the pane's ``entries``).

    - ``tokenizer_paths``: ``[label, path]`` of each compared file, in column order; ``None``
      when nothing was stored yet (the first run compares the shared files).
    - ``corpus_folder``: the corpus folder, :data:`core.collection.COLLECTION`, or ``""``
      (the pane then uses the shared UDHR texts).
    - ``metric`` (a key of :data:`core.metrics.METRICS`), ``reference`` (a language code),
      ``sort_by`` (``"language"``, ``"mean"`` or a tokenizer label).
    - ``damage_form`` (one of :data:`core.metrics.normalization_damage.DAMAGE_FORMS`),
      ``damage_language`` (a language code, ``""``: the first one).
    - ``sampling``: ``[sizes text, temperature, draws]`` of the Sampling tab, ``None``: its
      defaults.
    - ``tab``: the title of the tab left open (``""``: the first); ``last_dir``: the folder
      of the last tokenizer file added (``""``: the data folder's tokenizers).
    """

    tokenizer_paths: list | None = None
    corpus_folder: str = ""
    metric: str = "fertility"
    reference: str = "eng"
    sort_by: str = "language"
    damage_form: str = "strip_accents"
    damage_language: str = ""
    sampling: list | None = None
    tab: str = ""
    last_dir: str = ""

    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"metric": tuple(METRICS), "damage_form": DAMAGE_FORMS}

    @classmethod
    def checked(cls, values: dict[str, Any]) -> dict[str, Any]:
        """A list of files that is not :func:`tokenizer_pairs`, or sampling inputs that are
        not :func:`sampling_inputs`, keep their default. O(length of the lists)."""
        if not tokenizer_pairs(values["tokenizer_paths"]):
            values["tokenizer_paths"] = None
        if not sampling_inputs(values["sampling"]):
            values["sampling"] = None
        return values


@dataclass(frozen=True)
class CompareResult:
    """What one run of :func:`run_comparison` returns to the GUI thread."""

    table: CompareTable
    corpus: tuple[CorpusFile, ...]
    #: loaded objects, in table column order; ``None``: a file whose cells were all cached, not
    #: loaded yet (:func:`load_tokenizers` loads it when a view needs it)
    tokenizers: tuple[Any, ...]
    damage: dict[tuple[str, str], DamageReport]  # (language code, form) -> report
    failures: tuple[str, ...]  # "label: reason" of tokenizers that could not be loaded
    failed: tuple[tuple[str, str], ...] = ()  # (label, reason) of the same tokenizers
    languages: tuple[Language, ...] = ()  # metadata and script of each corpus file, in corpus order
    entries: tuple[TokenizerEntry, ...] = ()  # the entry of each column, in table column order
    #: what the tabs show, computed in the worker (:mod:`app.panes.compare.prepared`): the
    #: atlas's ``AtlasData`` and ``(sort_by, HeatmapModel)`` of the metric shown; None: not yet
    atlas: Any = None
    heatmap: Any = None

    @property
    def loaded(self) -> bool:
        """Whether every column's tokenizer is loaded (the drill-down and the vocabulary
        audit need them)."""
        return all(tok is not None for tok in self.tokenizers)


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
                         _languages_of(corpus), tuple(loaded_entries))


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
    """The atlas of the collection. A tokenizer file whose cells are already in the disk
    cache loaded before: it is not loaded here (seconds per file), only the new ones are
    (to refuse a file that does not load before measuring it)."""
    corpus = collection_corpus()
    store = CellStore()
    langs = collection_languages(corpus, store)
    keep = {lang.code for lang in filter_languages(langs, **filters)} | {reference}
    corpus = [f for f in corpus if f.code in keep]
    files = all(e.tokenizer is None and e.path and os.path.isfile(e.path) for e in entries)
    fresh = [e for e in entries if not (files and _stored(store, e.path))]
    _, fresh_ok, failed = _load_entries(fresh, loaded)
    refused = {id(e) for e in fresh} - {id(e) for e in fresh_ok}
    kept = [e for e in entries if id(e) not in refused]
    names = [e.label for e in kept]
    report = None if progress is None else (lambda done, total: progress(done / max(total, 1)))
    if files:
        table = atlas_table([e.path for e in kept], corpus, names=names, reference=reference, jobs=ATLAS_JOBS,
                            progress=report, should_stop=should_stop, store=store)
    else:  # a tokenizer without a file (the main window's): measured here, not cached on disk
        toks = [load_entry(e, loaded) for e in kept]
        table = compare_table(toks, corpus, reference=reference, names=names, progress=progress,
                              should_stop=should_stop)
    toks = tuple(e.tokenizer if e.tokenizer is not None else loaded.get(e.key()) for e in kept)
    failures = tuple(f"{label}: {reason}" for label, reason in failed)
    langs = tuple(lang for lang in langs if lang.code in keep)
    return CompareResult(table, tuple(corpus), toks, {}, failures, tuple(failed), langs, tuple(kept))


def _stored(store: CellStore, path: str) -> bool:
    """Whether the disk cache holds cells of the tokenizer file ``path`` (it loaded before)."""
    try:
        return store.has_cells(store.digest(path))
    except SubwordScopeError:
        return False


def load_tokenizers(result: CompareResult, loaded: dict[str, Any]) -> tuple[Any, ...]:
    """Every column's tokenizer of ``result`` in column order, loading those not loaded yet
    (O(columns) loads, each cached in ``loaded``; runs off the GUI thread).

    Raises
    ------
    SubwordScopeError
        When a file no longer loads (the message names it).
    """
    out = []
    for entry, tok in zip(result.entries, result.tokenizers):
        try:
            out.append(tok if tok is not None else load_entry(entry, loaded))
        except (ValueError, OSError, ImportError) as exc:
            raise SubwordScopeError(f"{entry.label}: {exc}") from None
    return tuple(out)


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
