"""The Retrieval pane's query and sweep jobs, and the rows it exports (no Qt).

:func:`run_query` embeds the query (or reuses its vector), searches the corpus with the chosen
method (exact, float16 or int8 codes, IVF; optionally re-ranking the top R in full precision)
or with one of the seed's scoring mistakes, and measures the method against exact search:
recall@k for this query and over a sample of corpus paragraphs, latency, the share of the
corpus scanned. Each hit carries the spans of its tokens that also occur in the query.
:func:`synthetic_sweep` runs the course material's experiment on its synthetic corpus (top-3 ids,
int8 recall, IVF recall against nprobe).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from app.panes.retrieval.corpus import CorpusIndex, tokens_of, unk_token
from app.panes.retrieval.state import RetrievalState
from core.errors import Cancelled
from core.retrieval import (
    IVFSweep,
    embed_corpus,
    faiss_ivf_sweep,
    ivf_sweep,
    matched_spans,
    quantize_int8,
    recall_at_k,
    rerank,
    scored_search,
    search,
    synthetic_corpus,
    top_k,
)

TIMING_REPEATS = 5
SYNTHETIC = (100_000, 64, 256)
"""The course material's scale experiment: N, dimensions, nlist."""
SYNTHETIC_QUERIES = 50
"""Its queries (perturbed corpus points), as many as the material draws."""
FIGURE_NPROBES = (1, 4, 16)
"""The nprobe values the material prints."""
HIT_FIELDS = ("rank", "row", "score", "cosine", "language", "paragraph", "text", "matched_spans")


@dataclass(frozen=True)
class QueryVector:
    """A query's unit vector ``q`` (d,), its pooled length and content tokens."""

    text: str
    key: tuple
    q: np.ndarray
    norm: float
    tokens: tuple


@dataclass(frozen=True)
class Hit:
    """One result: corpus ``row``, its score under the scoring used, and its cosine."""

    rank: int
    row: int
    score: float
    cosine: float
    language: str
    line: int
    text: str
    spans: tuple


@dataclass(frozen=True)
class QueryResult:
    """Hits and how the method did against exact search.

    ``recall_sample`` is recall@k over :attr:`CorpusIndex.sample` (k capped at 10);
    ``scanned`` is the share of the corpus scored (1 for flat methods); times in ms.
    """

    query: QueryVector
    method: str
    scoring: str
    k: int
    hits: tuple
    recall_query: float
    recall_sample: float
    method_ms: float
    exact_ms: float
    scanned: float
    same_ranking: bool
    note: str
    index_key: tuple


def embed_query(index: CorpusIndex, text: str) -> QueryVector:
    """The query's unit vector and length (no cache: one short text) and its tokens."""
    E, norms = embed_corpus(index.encoder, [text], cache=False, return_norms=True)
    return QueryVector(text, index.key, E[0], float(norms[0]), tokens_of(index.encoder, [text])[0].tokens)


def method_search(index: CorpusIndex, q, k: int, method: str, nprobe: int, R: int):
    """Ids of the method's top ``k`` for one query ``(d,)`` or a batch ``(Q, d)``, and the
    vectors scanned per query (N for flat methods)."""
    if method == "exact":
        return search(index.E, q, k)[0], index.n
    if method in index.flat:
        return index.flat[method].search(q, k, rerank=R)[0], index.n
    ids, scanned = index.ivf.search(q, max(k, R), nprobe)
    if R > 0:
        ids = rerank(index.E, q, ids, k)[0]
    return ids[..., :k], scanned


def _best_ms(fn) -> float:
    best = float("inf")
    for _ in range(TIMING_REPEATS):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return 1e3 * best


def run_query(index: CorpusIndex, state: RetrievalState, previous: QueryVector | None = None) -> QueryResult:
    """Search ``index`` for ``state.query`` with ``state``'s method and scoring (runs in a worker).

    Cost: the query's forward pass (skipped when ``previous`` is the same text on the same
    corpus), one exact and one method search for the query and for the sample, the timing
    repeats, and one tokenization of the hits.
    """
    qv = previous if previous is not None and previous.text == state.query and previous.key == index.key \
        else embed_query(index, state.query)
    k = min(state.k, index.n)
    exact_ids, exact_scores = search(index.E, qv.q, k)
    nprobe, R = min(state.nprobe, index.ivf.nlist), state.rerank
    ids, scanned = method_search(index, qv.q, k, state.method, nprobe, R)
    ks = min(10, index.n)
    sample_ids, _ = method_search(index, index.E[index.sample], ks, state.method, nprobe, R)
    recall_sample = recall_at_k(sample_ids, index.sample_exact[:, :ks])
    method_ms = _best_ms(lambda: method_search(index, qv.q, k, state.method, nprobe, R))
    exact_ms = _best_ms(lambda: search(index.E, qv.q, k))
    shown, scores = ids, None
    if state.scoring != "cosine":
        shown, scores = scored_search(index.E, index.norms_rows, qv.q, qv.norm, k, state.scoring)
    hits = _hits(index, qv, shown, scores)
    same = bool(np.array_equal(shown, exact_ids))
    return QueryResult(qv, state.method, state.scoring, k, hits, recall_at_k(ids, exact_ids), recall_sample,
                       method_ms, exact_ms, float(scanned) / index.n, same,
                       _note(state, qv, same, exact_scores), index.key)


def _hits(index: CorpusIndex, qv: QueryVector, ids: np.ndarray, scores) -> tuple:
    ids = [int(i) for i in ids if i >= 0]
    texts = [index.text(i) for i in ids]
    cos = index.E[ids] @ qv.q if ids else np.zeros(0)
    unk = unk_token(index.encoder)
    out = []
    for r, (row, text, toks) in enumerate(zip(ids, texts, tokens_of(index.encoder, texts))):
        spans = matched_spans(qv.tokens, toks.tokens, toks.offsets, unk_token=unk, text_length=len(text))
        score = float(cos[r]) if scores is None else float(scores[r])
        out.append(Hit(r + 1, row, score, float(cos[r]), index.language(row), int(index.row_line[row]),
                       text, spans))
    return tuple(out)


def _note(state: RetrievalState, qv: QueryVector, same: bool, exact_scores) -> str:
    if state.scoring == "raw dot":
        return ("Raw dot product: " + ("the same top hits as cosine" if same else "a different ranking from cosine")
                + f" — pooled vectors' lengths differ (query |q| = {qv.norm:.2f}), so length wins over direction.")
    if state.scoring == "query not normalized":
        return (f"Query not normalized: same ranking as cosine ({'yes' if same else 'no'}), "
                f"but every score is the cosine × |q| = {qv.norm:.2f}; top score "
                f"{float(exact_scores[0]) * qv.norm:.3f} instead of {float(exact_scores[0]):.3f}.")
    return ""


@dataclass(frozen=True)
class SyntheticRun:
    """The course material's search experiment on :func:`~core.retrieval.synthetic_corpus`.

    Attributes
    ----------
    ours, theirs : IVFSweep, IVFSweep | None — recall@10 and fraction scanned per nprobe
        (:func:`~core.retrieval.ivf_sweep`; FAISS's when installed).
    n, dim, nlist, n_queries : int
    top_ids : tuple[int, int, int] — the first query's three nearest corpus ids (exact).
    top_cosines : tuple[float, float, float] — their cosines.
    full_sort_match : bool — the first query's exact top 10 equals a full stable sort.
    int8_recall : float — recall@10 of int8 codes against exact search, over the queries.
    """

    ours: IVFSweep
    theirs: IVFSweep | None
    n: int
    dim: int
    nlist: int
    n_queries: int
    top_ids: tuple
    top_cosines: tuple
    full_sort_match: bool
    int8_recall: float


def synthetic_sweep(progress=None, should_stop=None) -> SyntheticRun:
    """The material's experiment on its synthetic corpus (100k × 64, 50 queries, nlist 256):
    exact top-3 of the first query, int8 recall@10, and recall@10 vs nprobe, ours and FAISS's.

    Cost: the corpus, one exact search and one over int8 codes, a full sort of one query's
    scores, two IVF builds (ours, FAISS's) and 9 searches of the queries each; a cancel is
    noticed between these steps.
    """
    n, d, nlist = SYNTHETIC
    report = progress or (lambda f: None)

    def step(fraction: float) -> None:
        if should_stop is not None and should_stop():
            raise Cancelled("the sweep was cancelled")
        report(fraction)

    E, Q = synthetic_corpus(n, d, n_queries=min(SYNTHETIC_QUERIES, n), seed=0)
    step(0.1)
    exact = top_k(E, Q, 10)
    scores = E @ Q[0]
    full_sort = bool(np.array_equal(exact[0], np.argsort(-scores, kind="stable")[:10]))
    codes, scales = quantize_int8(E)
    int8 = recall_at_k(search(codes, Q, 10, scales=scales)[0], exact)
    step(0.2)
    nprobes = tuple(p for p in (1, 2, 4, 8, 16, 32, 64, 128, 256) if p <= nlist)
    ours = ivf_sweep(E, Q, nlist, nprobes, seed=0, exact=exact)
    step(0.7)
    theirs = faiss_ivf_sweep(E, Q, nlist, nprobes, seed=0, exact=exact)
    step(1.0)
    top = exact[0][:3]
    return SyntheticRun(ours, theirs, n, d, nlist, len(Q), tuple(int(i) for i in top),
                        tuple(float(scores[i]) for i in top), full_sort, float(int8))


def hit_rows(result: QueryResult) -> list[list]:
    """One row per hit in :data:`HIT_FIELDS` order (spans as JSON ``[[start, end], …]``)."""
    return [[h.rank, h.row, h.score, h.cosine, h.language, h.line + 1, h.text,
             json.dumps([list(s) for s in h.spans])] for h in result.hits]


def write_hits_json(result: QueryResult, path: str | Path) -> Path:
    """The query, method, measurements and hits as UTF-8 JSON (raises ``OSError``)."""
    data = {"query": result.query.text, "method": result.method, "scoring": result.scoring, "k": result.k,
            "recall_at_k_query": result.recall_query, "recall_at_10_sample": result.recall_sample,
            "method_ms": result.method_ms, "exact_ms": result.exact_ms, "fraction_scanned": result.scanned,
            "hits": [{**dict(zip(HIT_FIELDS[:-1], row[:-1])), "matched_spans": [list(s) for s in h.spans]}
                     for row, h in zip(hit_rows(result), result.hits)]}
    path = Path(path)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return path
