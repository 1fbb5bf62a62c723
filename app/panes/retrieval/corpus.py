"""The Retrieval pane's corpus job (no Qt): load, embed, index, measure across languages.

:func:`build_corpus` is the generator the pane's corpus :class:`~app.workers.TaskRunner`
runs. It loads the encoder (when the pane has none for the chosen folder), reads the corpus
files, embeds every line of each language with :func:`core.retrieval.embed_corpus` (cached on
disk, so a second run reads the vectors back), and after each language yields a
:class:`CorpusIndex` over the languages done so far, so hits appear while the rest embeds.
The next item is complete: it adds each language's tokenizer figures, the cross-lingual
table and the recall-vs-nprobe sweep on this corpus. When a second encoder of the other kind
is present (a multilingual one beside an English-only one, or the reverse:
:func:`core.encoder.sources.companion_encoder`), a last item adds its translation ranks on
the same paragraph pairs and its tokenizer's figures to every cross-lingual row. Every
number comes from ``core``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from app.panes.retrieval.state import REFERENCE
from core.encoder import StandInEncoder, load_encoder
from core.encoder.sources import FoundEncoder, describe
from core.errors import Cancelled, SubwordScopeError
from core.metrics import encoding_metrics, load_corpus, unknown_of
from core.metrics.per_encoding import ZERO, EncodingMetrics
from core.metrics.table import encode_all
from core.retrieval import (
    FlatIndex,
    IVFIndex,
    IVFSweep,
    ParallelAlignment,
    EncoderComparison,
    TranslationRecall,
    align_parallel,
    aligned_recall,
    article_structure,
    compare_encoders,
    embed_corpus,
    faiss_ivf_sweep,
    ivf_sweep,
    top_k,
)

SAMPLE_QUERIES = 100
"""Corpus paragraphs used as queries for recall@k over a set (seeded sample)."""
STANDIN_LABEL = "Stand-in encoder (no model)"


@dataclass(frozen=True)
class Tokens:
    """One text's content tokens (no special tokens) and their code-point spans."""

    tokens: tuple
    offsets: tuple


def model_name(model_dir: str) -> str:
    """The model's short name: the folder's, or the repository's for a Hugging Face cache
    snapshot (whose folder is named by a commit hash)."""
    return describe(model_dir).short_name


def open_encoder(model_dir: str | None):
    """The encoder of ``model_dir`` (None: the stand-in). Raises ``EncoderLoadError``."""
    return StandInEncoder() if model_dir is None else load_encoder(model_dir)


def tokens_of(encoder, texts: list[str]) -> list[Tokens]:
    """Content tokens of each text under the encoder's tokenizer (the stand-in's words).

    Cost: one tokenization of every text; the loop runs over texts.
    """
    tokenizer = getattr(encoder, "tokenizer", None)
    if tokenizer is not None:
        return [_content(e.tokens, e.offsets) for e in encode_all(tokenizer, texts)]
    out = encoder.encode(texts)
    return [_content(toks, offs) for toks, offs in zip(out.tokens, out.offsets)]


def _content(tokens, offsets) -> Tokens:
    """The tokens with a non-empty span (special tokens have ``(0, 0)``)."""
    keep = [i for i, (s, e) in enumerate(offsets) if e > s]
    return Tokens(tuple(tokens[i] for i in keep), tuple((int(offsets[i][0]), int(offsets[i][1])) for i in keep))


def unk_token(encoder) -> str | None:
    """The encoder's unknown token (None for the stand-in, which has none)."""
    tokenizer = getattr(encoder, "tokenizer", None)
    return None if tokenizer is None else unknown_of(tokenizer)[0]


def language_metrics(encoder, lines: tuple[str, ...]) -> EncodingMetrics:
    """Summed :func:`core.metrics.encoding_metrics` of every line (fertility, unknown rate, ...).

    Cost: one tokenization of every line; the loop runs over lines.
    """
    tokenizer = getattr(encoder, "tokenizer", None)
    unk, unk_id = unknown_of(tokenizer) if tokenizer is not None else (None, None)
    encs = tokens_of(encoder, list(lines)) if tokenizer is None else encode_all(tokenizer, lines)
    total = ZERO
    for line, enc in zip(lines, encs):
        total = total + encoding_metrics(enc, line, unk_token=unk, unk_id=unk_id)
    return total


@dataclass(frozen=True)
class CrossLingualRow:
    """One language of the cross-lingual view.

    ``recall`` is None when the language could not be paired with the reference.
    ``compared`` (the pane's encoder against the companion encoder on the same pairs) and
    ``companion_metrics`` (the companion tokenizer's figures) are None until the companion
    has run, or when there is none.
    """

    code: str
    alignment: ParallelAlignment
    recall: TranslationRecall | None
    metrics: EncodingMetrics
    compared: EncoderComparison | None = None
    companion_metrics: EncodingMetrics | None = None


@dataclass(frozen=True)
class Companion:
    """The second encoder of the cross-lingual comparison: ``label`` (its short name),
    ``source`` (where it came from), ``multilingual`` (whether it is the multilingual one of
    the two), ``status`` ("pending", "done", or why it failed)."""

    label: str
    source: str
    multilingual: bool
    status: str = "pending"


@dataclass(frozen=True)
class CorpusIndex:
    """Embedded corpus and its indexes, over the languages embedded so far.

    Attributes
    ----------
    languages : tuple[str, ...] — embedded, in order: the reference first (always embedded
        when the folder has it, for the cross-lingual view), then the chosen ones.
    searched : tuple[str, ...] — the chosen languages among them: the rows searched.
    lines : dict[str, tuple[str, ...]] — every non-empty line of each language's file.
    vectors, norms : dict[str, ndarray] — per language, ``(lines, d)`` unit vectors and the
        pooled vectors' lengths.
    row_language, row_line : (N,) int64 ndarray — the searched rows (every line of the
        searched languages but the article headings): index into ``languages``, line number.
    E : (N, d) float32 ndarray, norms_rows : (N,) float32 ndarray — their vectors, lengths.
    flat : dict — ``"float16"`` and ``"int8"`` :class:`~core.retrieval.FlatIndex`.
    ivf : IVFIndex — ``nlist = round(sqrt(N))`` cells.
    sample : (S,) int64 ndarray — rows used as queries for recall over a set;
        sample_exact : (S, 10) exact top-10 ids of those queries.
    complete : bool — every chosen language is in.
    cross : tuple[CrossLingualRow, ...] — filled when complete.
    sweep, faiss_sweep : IVFSweep or None — recall@10 vs nprobe on this corpus.
    """

    encoder: object
    model_label: str
    notice: str
    source_label: str
    languages: tuple
    searched: tuple
    lines: dict
    vectors: dict
    norms: dict
    row_language: np.ndarray
    row_line: np.ndarray
    E: np.ndarray
    norms_rows: np.ndarray
    flat: dict
    ivf: IVFIndex
    sample: np.ndarray
    sample_exact: np.ndarray
    complete: bool = False
    cross: tuple = ()
    sweep: IVFSweep | None = None
    faiss_sweep: IVFSweep | None = None
    key: tuple = field(default=())
    companion: Companion | None = None

    @property
    def n(self) -> int:
        return int(self.E.shape[0])

    @property
    def dim(self) -> int:
        return int(self.E.shape[1])

    def text(self, row: int) -> str:
        lang = self.languages[int(self.row_language[row])]
        return self.lines[lang][int(self.row_line[row])]

    def language(self, row: int) -> str:
        return self.languages[int(self.row_language[row])]


def searched_lines(lines: tuple[str, ...], last: int | None) -> tuple[int, ...]:
    """Every line but the article headings (:func:`core.retrieval.article_structure`; the
    reference's ``last`` article number lets headings written as number words count too)."""
    return article_structure(lines, last=last).paragraphs


def index_languages(base: dict, languages: list[str], searched: list[str], complete: bool) -> CorpusIndex:
    """Gather the embedded ``languages`` into one :class:`CorpusIndex` searching ``searched``.

    Cost: O(N·d) to stack and code the vectors, the IVF build (k-means on N vectors), one
    exact search of :data:`SAMPLE_QUERIES` queries.
    """
    rows = [(i, j) for i, lang in enumerate(languages) if lang in searched for j in base["paragraphs"][lang]]
    row_language = np.array([r[0] for r in rows], dtype=np.int64)
    row_line = np.array([r[1] for r in rows], dtype=np.int64)
    E = np.ascontiguousarray(np.stack([base["vectors"][languages[i]][j] for i, j in rows]).astype(np.float32))
    norms = np.array([base["norms"][languages[i]][j] for i, j in rows], dtype=np.float32)
    rng = np.random.default_rng(0)
    sample = np.sort(rng.choice(E.shape[0], size=min(SAMPLE_QUERIES, E.shape[0]), replace=False))
    nlist = max(1, round(math.sqrt(E.shape[0])))
    return CorpusIndex(
        base["encoder"], base["model_label"], base["notice"], base["source_label"], tuple(languages),
        tuple(c for c in languages if c in searched), {c: base["lines"][c] for c in languages}, {c: base["vectors"][c] for c in languages},
        {c: base["norms"][c] for c in languages}, row_language, row_line, E, norms,
        {t: FlatIndex(E, t) for t in ("float16", "int8")}, IVFIndex(E, nlist, seed=0), sample,
        top_k(E, E[sample], 10), complete, key=base["key"])


def cross_lingual(index: CorpusIndex, k: int, should_stop=None) -> tuple[CrossLingualRow, ...]:
    """Pair every language with the reference and measure its translations' ranks.

    Cost: per language one tokenization of its lines and O(n·m·d) ranks; the loop runs over
    languages.
    """
    out = []
    ref = index.lines.get(REFERENCE)
    for code in index.languages:
        if should_stop is not None and should_stop():
            raise Cancelled("the cross-lingual table was cancelled")
        if code == REFERENCE or ref is None:
            continue
        al = align_parallel(ref, index.lines[code])
        recall = aligned_recall(index.vectors[REFERENCE], index.vectors[code], al, k) if len(al) else None
        out.append(CrossLingualRow(code, al, recall, language_metrics(index.encoder, index.lines[code])))
    return tuple(out)


def compare_companion(index: CorpusIndex, encoder, *, cache_dir=None, progress=None,
                      should_stop=None) -> tuple[CrossLingualRow, ...]:
    """The cross-lingual rows with ``encoder`` (the companion) measured on each row's own
    paragraph pairs: every line of the reference and of each paired language embedded with it
    (cached on disk), its translation ranks compared with the pane encoder's
    (:func:`core.retrieval.compare_encoders`) and its tokenizer's figures.

    Cost: one forward pass over those lines (none when cached) plus per language one
    tokenization and O(n·m·d) ranks; the loops run over languages.
    """
    rows = [r for r in index.cross if r.recall is not None]
    codes = [REFERENCE] + [r.code for r in rows]
    total = sum(len(index.lines[c]) for c in codes) or 1
    report, done, vectors = progress or (lambda f: None), 0, {}
    for code in codes:
        lines = index.lines[code]
        sub = (lambda f, d=done, n=len(lines): report((d + f * n) / total))
        vectors[code] = embed_corpus(encoder, list(lines), cache_dir=cache_dir, progress=sub,
                                     should_stop=should_stop)
        done += len(lines)
    out = []
    for r in index.cross:
        if should_stop is not None and should_stop():
            raise Cancelled("the cross-lingual comparison was cancelled")
        if r.recall is None:
            out.append(r)
            continue
        theirs = aligned_recall(vectors[REFERENCE], vectors[r.code], r.alignment, r.recall.k)
        out.append(replace(r, compared=compare_encoders(r.recall, theirs),
                           companion_metrics=language_metrics(encoder, index.lines[r.code])))
    return tuple(out)


def corpus_sweep(index: CorpusIndex) -> tuple[IVFSweep, IVFSweep | None]:
    """Recall@10 and fraction scanned per nprobe (1, 2, 4, … nlist) on this corpus, ours and
    FAISS's (None without faiss), the sampled paragraphs as queries."""
    nlist = index.ivf.nlist
    nprobes = sorted({min(nlist, 2 ** i) for i in range(int(math.log2(nlist)) + 2)})
    Q, k = index.E[index.sample], index.sample_exact.shape[1]  # k = 10, or N on a smaller corpus
    ours = ivf_sweep(index.E, Q, nlist, nprobes, k, index=index.ivf, exact=index.sample_exact)
    return ours, faiss_ivf_sweep(index.E, Q, nlist, nprobes, k, exact=index.sample_exact)


def build_corpus(folder: str, languages: list[str], model_dir: str | None, source_label: str, *,
                 encoder=None, cache_dir=None, cross_k: int = 10, notice: str = "",
                 companion: FoundEncoder | None = None, companion_multilingual: bool = False,
                 progress=None, should_stop=None):
    """Embed and index the corpus; a generator of :class:`CorpusIndex` (see the module notes).

    Cost: one forward pass over the lines of each language not in the cache; the loop runs over
    languages, and each partial index costs O(N·d) plus the IVF's k-means on N vectors; the
    complete one adds one tokenization of every line and the sweeps; with a ``companion``
    encoder (a :class:`~core.encoder.sources.FoundEncoder`; ``companion_multilingual`` says
    whether it is the multilingual one) one more item follows, measured as
    :func:`compare_companion` (its status says why when it could not be loaded).

    Raises
    ------
    SubwordScopeError
        The folder holds none of the chosen languages, a file is not text, or the model
        cannot be loaded (``EncoderLoadError``).
    Cancelled
        ``should_stop()`` turned true.
    """
    report = progress or (lambda f: None)
    encoder = open_encoder(model_dir) if encoder is None else encoder
    files = {cf.code: cf for cf in load_corpus(folder)}
    searched = [c for c in languages if c in files]
    if not searched:
        raise SubwordScopeError(f"{folder}: none of the chosen languages ({', '.join(languages)}) is there")
    order = ([REFERENCE] if REFERENCE in files else []) + [c for c in searched if c != REFERENCE]
    base = {"encoder": encoder, "model_label": STANDIN_LABEL if model_dir is None else model_name(model_dir),
            "notice": notice, "source_label": source_label, "lines": {}, "vectors": {}, "norms": {},
            "paragraphs": {},
            "key": (str(folder), model_dir, tuple(searched))}
    total, done, last = sum(len(files[c].lines) for c in order), 0, None
    for i, code in enumerate(order):
        lines = files[code].lines
        sub = (lambda f, d=done, n=len(lines): report(0.9 * (d + f * n) / total))
        E, norms = embed_corpus(encoder, list(lines), cache_dir=cache_dir, return_norms=True,
                                progress=sub, should_stop=should_stop)
        base["lines"][code], base["vectors"][code], base["norms"][code] = lines, E, norms
        if code == REFERENCE:
            last = max(article_structure(lines).sections, default=None)
        base["paragraphs"][code] = searched_lines(lines, last)
        done += len(lines)
        if i < len(order) - 1 and any(c in searched for c in order[: i + 1]):
            yield index_languages(base, order[: i + 1], searched, False)
    index = index_languages(base, order, searched, True)
    cross = cross_lingual(index, cross_k, should_stop)
    report(0.97)
    sweep, theirs = corpus_sweep(index)
    report(1.0)
    pending = None if companion is None or not cross else Companion(
        companion.short_name, companion.source, companion_multilingual)
    index = replace(index, cross=cross, sweep=sweep, faiss_sweep=theirs, companion=pending)
    yield index
    if pending is None:
        return
    try:
        other = load_encoder(companion.path)
    except SubwordScopeError as exc:
        yield replace(index, companion=replace(pending, status=f"could not be loaded: {exc}"))
        return
    rows = compare_companion(index, other, cache_dir=cache_dir, progress=progress, should_stop=should_stop)
    yield replace(index, cross=rows, companion=replace(pending, status="done"))
