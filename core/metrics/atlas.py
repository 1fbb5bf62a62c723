"""The atlas: every text of a parallel corpus × tokenizer files, on all cores, cached on disk.

:func:`atlas_table` builds the :class:`~core.metrics.table.CompareTable` that
:func:`~core.metrics.table.compare_table` builds (the same cells: :func:`file_cell` of each
(text, tokenizer)), but

- it measures only the cells missing from the disk cache, in ``jobs`` worker processes (one
  task per text: its tokenizer-independent counts computed once and every missing tokenizer
  run on it through ``encode_batch``; each process loads a tokenizer file once);
- it keeps every cell in :class:`CellStore`, keyed by the tokenizer file's hash
  (:func:`file_digest`, remembered per path, size and modification time) and the text's
  hash (:func:`text_digest`): reopening the atlas reads the store only, and adding a
  tokenizer measures one column;
- it reports progress per cell (``progress(done, total)``) and stops between texts when
  ``should_stop()`` is true (:class:`core.errors.Cancelled`; the cells done so far are kept).

:func:`collection_corpus` gives the shipped UDHR collection (:mod:`core.collection`) as
corpus files; :func:`collection_languages` its metadata with scripts (detected once per text
and kept in the store too).
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import tempfile
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, Callable, Sequence

from core.collection import COLLECTION, Language, detect_script, languages, read_texts
from core.data import cache_dir
from core.errors import Cancelled, SubwordScopeError
from core.metrics.per_encoding import _COUNT_FIELDS, EncodingMetrics
from core.metrics.round_trip_share import RoundTripCount
from core.metrics.table import CompareTable, CorpusFile, file_cell, load_corpus
from core.metrics.text_stats import text_stats
from core.tokenizers import load

STORE_VERSION = 1
"""Bumped whenever a cell's counts change meaning (old stores are then ignored)."""

SCRIPTS_FILE = "scripts-2.json"
"""The detected scripts in the store; its number grows whenever the detection changes (2: every
Unicode script is named, none is "Unknown"), so scripts detected before are detected again."""

_TRIP_FIELDS = ("unchanged", "characters", "lines", "exact_lines")
Cell = tuple[EncodingMetrics, RoundTripCount | None]


def collection_corpus(codes: Sequence[str] | None = None) -> list[CorpusFile]:
    """The shipped UDHR collection (or the texts ``codes``) as corpus files, in index order:
    ``code`` the text's code, ``path`` ``"udhr-all/<code>"``, the non-blank lines.

    Raises
    ------
    core.collection.CollectionError
        If the archive is damaged or a code is unknown.
    """
    if codes is None:
        return load_corpus(COLLECTION)
    texts = dict(read_texts(codes))
    order = [lang.code for lang in languages() if lang.code in texts]
    return [CorpusFile(code, f"{COLLECTION}/{code}", 0,
                       tuple(line for line in texts[code].splitlines() if line.strip()))
            for code in order]


def text_digest(corpus_file: CorpusFile) -> str:
    """SHA-256 (hex, 32 digits) of a corpus file's measured lines, joined by newlines."""
    return hashlib.sha256("\n".join(corpus_file.lines).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def file_digest(path: str | os.PathLike[str]) -> str:
    """SHA-256 (hex, 32 digits) of a tokenizer file's bytes, with the files beside it that a
    loader reads too (GPT-2's ``merges.txt`` beside ``vocab.json`` and back); a folder: all
    its regular files by name. O(bytes).

    Raises
    ------
    SubwordScopeError
        If the file cannot be read (the message names it).
    """
    p = Path(path)
    files = sorted(f for f in p.iterdir() if f.is_file()) if p.is_dir() else [p]
    partner = {"vocab.json": "merges.txt", "merges.txt": "vocab.json"}.get(p.name)
    if partner and (p.parent / partner).is_file():
        files.append(p.parent / partner)
    h = hashlib.sha256()
    try:
        for f in files:
            h.update(f.name.encode() + b"\0")
            with f.open("rb") as fh:
                for block in iter(lambda: fh.read(1 << 20), b""):
                    h.update(block)
    except OSError as exc:
        raise SubwordScopeError(f"cannot read the tokenizer file {path} ({exc})") from None
    return h.hexdigest()[:32]


class CellStore:
    """The atlas's disk cache: ``<folder>/v<STORE_VERSION>/<tokenizer digest>.json`` maps
    text digests to a cell's counts, :data:`SCRIPTS_FILE` text digests to ``[script, spaced]``.

    ``folder`` defaults to ``<cache folder>/atlas`` (:func:`core.data.cache_dir`). A missing,
    unreadable or damaged file reads as empty; a file is written to a temporary name and
    renamed, so a crash never leaves half of one. Unwritable folders are not an error (the
    cells are measured again next time).
    """

    def __init__(self, folder: str | os.PathLike[str] | None = None):
        self.folder = Path(folder) if folder is not None else cache_dir() / "atlas"
        self.root = self.folder / f"v{STORE_VERSION}"

    def _read(self, name: str) -> dict:
        try:
            data = json.loads((self.root / name).read_text(encoding="utf-8"))
            return data if isinstance(data, dict) else {}
        except (OSError, ValueError):
            return {}

    def _write(self, name: str, data: dict) -> None:
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.root, prefix=f".{name}.")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(data, fh, separators=(",", ":"))
            os.replace(tmp, self.root / name)
        except OSError:
            return

    def cells(self, tokenizer_digest: str) -> dict[str, Cell]:
        """Text digest → cell of one tokenizer file."""
        out = {}
        for digest, (m, trip) in self._read(f"{tokenizer_digest}.json").items():
            try:
                out[digest] = (_metrics(m), None if trip is None else RoundTripCount(*trip))
            except (TypeError, ValueError):
                continue
        return out

    def has_cells(self, tokenizer_digest: str) -> bool:
        """Whether cells of this tokenizer file are stored (without reading them). O(1)."""
        return (self.root / f"{tokenizer_digest}.json").is_file()

    def add_cells(self, tokenizer_digest: str, cells: dict[str, Cell]) -> None:
        """Add (or replace) cells of one tokenizer file."""
        data = self._read(f"{tokenizer_digest}.json")
        for digest, (m, trip) in cells.items():
            data[digest] = [[getattr(m, f) for f in _COUNT_FIELDS] + [m.words_are_characters],
                            None if trip is None else [getattr(trip, f) for f in _TRIP_FIELDS]]
        self._write(f"{tokenizer_digest}.json", data)

    def digest(self, path: str | os.PathLike[str]) -> str:
        """:func:`file_digest` of ``path``, remembered in ``digests.json`` by the path, size
        and modification time of the file (a changed file is hashed again)."""
        p = Path(path).resolve()
        try:
            st = p.stat()
        except OSError as exc:
            raise SubwordScopeError(f"cannot read the tokenizer file {path} ({exc})") from None
        stamp = [st.st_size, st.st_mtime_ns]
        memo = self._read("digests.json")
        known = memo.get(str(p))
        if isinstance(known, list) and known[:2] == stamp and p.is_file():
            return str(known[2])
        digest = file_digest(p)
        memo[str(p)] = stamp + [digest]
        self._write("digests.json", memo)
        return digest

    def scripts(self) -> dict[str, tuple[str | None, bool]]:
        return {k: (v[0], bool(v[1])) for k, v in self._read(SCRIPTS_FILE).items()}

    def add_scripts(self, scripts: dict[str, tuple[str | None, bool]]) -> None:
        data = self._read(SCRIPTS_FILE)
        data.update({k: list(v) for k, v in scripts.items()})
        self._write(SCRIPTS_FILE, data)


def _metrics(values: list) -> EncodingMetrics:
    *counts, per_char = values
    if len(counts) != len(_COUNT_FIELDS):
        raise ValueError("stale cell")
    return EncodingMetrics(**dict(zip(_COUNT_FIELDS, map(int, counts))), words_are_characters=bool(per_char))


def collection_languages(corpus: Sequence[CorpusFile], store: CellStore | None = None) -> list[Language]:
    """The collection's :class:`~core.collection.Language` entries of ``corpus`` (in its
    order) with their scripts: from the store, else :func:`~core.collection.detect_script`
    (then stored). O(texts) from the store, O(texts · SCRIPT_SAMPLE) the first time."""
    store = store if store is not None else CellStore()
    known = store.scripts()
    meta = {lang.code: lang for lang in languages()}
    out, new = [], {}
    for f in corpus:
        digest = text_digest(f)
        if digest not in known:
            known[digest] = new[digest] = detect_script("\n".join(f.lines))
        script, spaced = known[digest]
        lang = meta.get(f.code) or Language(f.code, f.code, "", "", "ltr", 0, None, None)
        out.append(Language(**{**lang.__dict__, "script": script, "spaced": spaced}))
    if new:
        store.add_scripts(new)
    return out


_LOADED: dict[str, Any] = {}


def _tokenizer(path: str) -> Any:
    """The tokenizer of ``path``, loaded once per process."""
    if path not in _LOADED:
        _LOADED[path] = load(path)
    return _LOADED[path]


def measure_text(paths: Sequence[str], corpus_file: CorpusFile) -> list[Cell]:
    """The cells of one text under each tokenizer file of ``paths``: its counts computed once,
    then :func:`~core.metrics.table.file_cell` per tokenizer (``encode_batch`` of its lines).
    O(characters · tokenizers)."""
    stats = [text_stats(line) for line in corpus_file.lines]
    return [file_cell(_tokenizer(p), corpus_file, stats) for p in paths]


def atlas_table(
    paths: Sequence[str],
    corpus: Sequence[CorpusFile],
    *,
    names: Sequence[str] | None = None,
    reference: str | None = "eng",
    jobs: int = 2,
    store: CellStore | None = None,
    progress: Callable[[int, int], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> CompareTable:
    """Languages (``corpus``) × tokenizer files (``paths``) as a :class:`CompareTable`, the
    cells missing from ``store`` measured in ``jobs`` processes (1: in this process).

    Parameters
    ----------
    paths : tokenizer files (anything :func:`core.tokenizers.load` reads)
    corpus : the texts, one per language
    names : column labels (default: each file's folder name)
    reference : language code the premium is relative to
    jobs : worker processes (one per core; 1 runs here, in the caller's process)
    store : the disk cache (default :class:`CellStore` in the user cache folder)
    progress : ``progress(done_cells, total_cells)`` after each text (cached cells count as
        done at once)
    should_stop : checked between texts

    Raises
    ------
    Cancelled
        When ``should_stop()`` returns true (the cells measured so far are stored).
    SubwordScopeError
        A tokenizer file cannot be read or loaded, or cannot encode a line.
    """
    store = store if store is not None else CellStore()
    names = list(names) if names is not None else [Path(p).parent.name or str(p) for p in paths]
    tok_digests = [store.digest(p) for p in paths]
    txt_digests = [text_digest(f) for f in corpus]
    known = [store.cells(d) for d in tok_digests]
    todo = {i: [j for j in range(len(paths)) if txt_digests[i] not in known[j]] for i in range(len(corpus))}
    todo = {i: js for i, js in todo.items() if js}
    total = len(corpus) * len(paths)
    done = total - sum(len(js) for js in todo.values())
    if progress is not None:
        progress(done, total)
    fresh: list[dict[str, Cell]] = [{} for _ in paths]

    def finish(i: int, cells: list[Cell]) -> None:
        nonlocal done
        for j, cell in zip(todo[i], cells):
            known[j][txt_digests[i]] = fresh[j][txt_digests[i]] = cell
        done += len(cells)
        if progress is not None:
            progress(done, total)

    try:
        if todo:
            _run(paths, corpus, todo, jobs, finish, should_stop)
    finally:
        for d, cells in zip(tok_digests, fresh):
            if cells:
                store.add_cells(d, cells)
    grid = [[known[j][txt_digests[i]] for j in range(len(paths))] for i in range(len(corpus))]
    return CompareTable(tuple(f.code for f in corpus), tuple(names),
                        tuple(tuple(c[0] for c in row) for row in grid), reference,
                        tuple(tuple(c[1] for c in row) for row in grid))


def _run(paths, corpus, todo, jobs, finish, should_stop) -> None:
    """Measure the ``todo`` cells (text index → tokenizer indices), calling ``finish`` per text."""
    def stop() -> bool:
        return should_stop is not None and should_stop()

    if jobs <= 1 or len(todo) < 2:
        for i, js in todo.items():
            if stop():
                raise Cancelled("atlas cancelled")
            finish(i, measure_text([paths[j] for j in js], corpus[i]))
        return
    # spawn, not fork: the caller may be a GUI with threads running
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(todo)), mp_context=multiprocessing.get_context("spawn"))
    try:
        pending = {pool.submit(measure_text, [paths[j] for j in js], corpus[i]): i for i, js in todo.items()}
        while pending:
            finished, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            for f in finished:
                try:
                    cells = f.result()
                except BrokenProcessPool as exc:
                    raise SubwordScopeError(f"a worker process stopped ({exc}); try again with one job") from None
                finish(pending.pop(f), cells)
            if stop():
                raise Cancelled("atlas cancelled")
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
