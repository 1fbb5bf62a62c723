"""A synthetic stand-in for encoder outputs: noise plus a few "evidence" tokens.

Used to teach how pooling behaves with document length without any model: token vectors are
standard normal noise; *evidence* tokens add ``strength`` on the first ``k_dims`` dimensions
(the evidence direction); a *junk spike* is one token with a very large value on those same
dimensions (a false alarm). The *signal* of a pooled vector is its mean over the evidence
dimensions. Sparse evidence (a fixed number of tokens) fades under mean pooling as the
document grows (about ``strength · n_evidence / n``); dense evidence (a fixed fraction) does
not; max pooling keeps sparse evidence but is fooled by a single junk spike and drifts upward
on pure noise (the max of ``n`` normals grows like ``sqrt(2 ln n)``).

Everything is reproducible from ``seed`` (numpy ``default_rng``).
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass

import numpy as np

from core.errors import SubwordScopeError

EVIDENCE_KINDS = ("none", "sparse", "dense")


@dataclass(frozen=True)
class StandIn:
    """One synthetic document.

    Attributes
    ----------
    H : (n, d) float64 ndarray — token vectors.
    evidence_rows : (k,) int ndarray — positions of the evidence tokens.
    junk_row : int — position of the junk spike, or -1.
    direction : (d,) float64 ndarray — unit evidence direction (also the attention ``w``).
    k_dims : int — the evidence lives on dimensions ``0 .. k_dims-1``.
    """

    H: np.ndarray
    evidence_rows: np.ndarray
    junk_row: int
    direction: np.ndarray
    k_dims: int

    def signal(self, pooled: np.ndarray) -> float:
        """Mean of ``pooled`` over the evidence dimensions."""
        return float(np.asarray(pooled)[..., : self.k_dims].mean())


def standin_document(
    n: int,
    d: int = 32,
    *,
    evidence: str = "sparse",
    n_evidence: int = 3,
    density: float = 0.1,
    strength: float = 3.0,
    junk_spike: bool = False,
    junk_strength: float = 25.0,
    k_dims: int = 4,
    seed: int | tuple[int, ...] = 0,
) -> StandIn:
    """Generate ``n`` token vectors of dimension ``d`` (see the module docstring).

    Parameters
    ----------
    evidence : {"none", "sparse", "dense"}
        ``"sparse"``: ``min(n_evidence, n)`` evidence tokens; ``"dense"``: ``round(density·n)``
        of them (at least 1).
    junk_spike : bool
        Add one token (not an evidence token when avoidable) with ``junk_strength`` on the
        evidence dimensions.

    Raises
    ------
    SubwordScopeError
        ``n < 1``, ``d < k_dims`` or an unknown ``evidence`` kind.
    """
    if n < 1 or d < 1 or not 1 <= k_dims <= d or evidence not in EVIDENCE_KINDS:
        raise SubwordScopeError(
            f"stand-in needs n >= 1, 1 <= k_dims <= d and evidence in {EVIDENCE_KINDS}; "
            f"got n={n}, d={d}, k_dims={k_dims}, evidence={evidence!r}"
        )
    rng = np.random.default_rng(seed)
    H = rng.standard_normal((n, d))
    count = {"none": 0, "sparse": min(n_evidence, n), "dense": max(1, round(density * n))}[evidence]
    rows = np.sort(rng.choice(n, size=min(count, n), replace=False))
    H[rows, :k_dims] += strength
    junk = -1
    if junk_spike:
        free = np.setdiff1d(np.arange(n), rows)
        junk = int(rng.choice(free if free.size else np.arange(n)))
        H[junk, :k_dims] += junk_strength
    direction = np.zeros(d)
    direction[:k_dims] = 1.0 / np.sqrt(k_dims)
    return StandIn(H, rows, junk, direction, k_dims)


@dataclass(frozen=True)
class Sweep:
    """Pooled signal against document length.

    Attributes
    ----------
    lengths : (m,) int ndarray — document lengths in tokens.
    signal : dict[str, dict[str, (m,) ndarray]] — ``signal[condition][method]``; conditions
        ``"sparse"``, ``"dense"``, ``"junk"`` (no evidence, one spike), ``"noise"``;
        methods ``"mean"``, ``"max"``, ``"attention"``.
    """

    lengths: np.ndarray
    signal: dict


CONDITIONS = {
    "sparse": dict(evidence="sparse"),
    "dense": dict(evidence="dense"),
    "junk": dict(evidence="none", junk_spike=True),
    "noise": dict(evidence="none"),
}


def evidence_sweep(
    lengths, d: int = 32, *, seed: int = 0, attention_scale: float = 1.0, **kwargs
) -> Sweep:
    """Pool stand-in documents of each length under each condition (see :class:`Sweep`).

    Document ``j`` of a condition uses seed ``(seed, j)``, so each curve is reproducible.
    Attention pooling scores with ``w = attention_scale · direction``. Extra ``kwargs`` go to
    :func:`standin_document` (e.g. ``strength``, ``n_evidence``, ``density``).
    """
    from core.pooling import attention_pool, max_pool, mean_pool

    lengths = np.asarray(lengths, dtype=np.int64)
    out: dict[str, dict[str, np.ndarray]] = {}
    for cond, extra in CONDITIONS.items():
        curves = {m: np.empty(len(lengths)) for m in ("mean", "max", "attention")}
        for j, n in enumerate(lengths):
            doc = standin_document(int(n), d, seed=(seed, j), **{**kwargs, **extra})
            curves["mean"][j] = doc.signal(mean_pool(doc.H))
            curves["max"][j] = doc.signal(max_pool(doc.H).vector)
            att = attention_pool(doc.H, None, attention_scale * doc.direction)
            curves["attention"][j] = doc.signal(att.vector)
        out[cond] = curves
    return Sweep(lengths, out)


_WORD = re.compile(r"\w+|[^\w\s]")


class StandInEncoder:
    """A model-free stand-in with the :class:`core.encoder.Encoder` text interface.

    Tokens are words and punctuation marks (``\\w+`` or one other non-space character),
    lowercased, framed by ``[CLS]`` and ``[SEP]``; each distinct token string gets a fixed
    random vector (normal, seeded by ``seed`` and the token's CRC-32), with no context. So a
    shared word gives shared direction, and CLS pooling carries nothing (the ``[CLS]`` vector
    is the same for every text) — what an untrained model would show.
    """

    def __init__(self, d: int = 32, seed: int = 0, max_tokens: int = 512):
        self.dim, self.seed, self.max_tokens = d, seed, max_tokens
        self.path = None

    def vector(self, token: str) -> np.ndarray:
        """The ``(d,)`` float32 vector of ``token``."""
        rng = np.random.default_rng((self.seed, zlib.crc32(token.encode("utf-8"))))
        return rng.standard_normal(self.dim).astype(np.float32)

    def _words(self, text: str):
        found = [(m.group().lower(), (m.start(), m.end())) for m in _WORD.finditer(text)]
        return [t for t, _ in found], [o for _, o in found]

    def encode(self, texts, *, progress=None, should_stop=None):
        """Tokenize and embed ``texts``; returns a :class:`core.encoder.EncoderOutput`."""
        from core.encoder import EncoderOutput

        texts = tuple(str(t) for t in texts)
        if not texts:
            raise SubwordScopeError("nothing to encode: give one or more texts")
        rows = []
        for text in texts:
            words, offs = self._words(text)
            keep = self.max_tokens - 2
            rows.append((["[CLS]", *words[:keep], "[SEP]"], [(0, 0), *offs[:keep], (0, 0)],
                         max(0, len(words) - keep)))
        T = max(len(r[0]) for r in rows)
        H = np.zeros((len(rows), T, self.dim), dtype=np.float32)
        mask = np.zeros((len(rows), T), dtype=np.int64)
        ids = np.zeros((len(rows), T), dtype=np.int64)
        for b, (toks, _, _) in enumerate(rows):
            H[b, : len(toks)] = [self.vector(t) for t in toks]
            mask[b, : len(toks)] = 1
            ids[b, : len(toks)] = [zlib.crc32(t.encode("utf-8")) % 30000 + 1 for t in toks]
        if progress is not None:
            progress(1.0)
        return EncoderOutput(ids, mask, H, tuple(tuple(r[0]) for r in rows),
                             tuple(tuple(r[1]) for r in rows), texts, tuple(r[2] for r in rows))

    def encode_document(self, text, content=510, overlap=128, *, progress=None, should_stop=None):
        """Chunk ``text`` into token windows and mean-pool each (see ``Encoder.encode_document``)."""
        from core.encoder import ChunkedDocument
        from core.pooling import chunk_windows, window_spans

        words, offs = self._words(text)
        if not words:
            raise SubwordScopeError("the text has no tokens to chunk")
        windows = chunk_windows(len(words), content, overlap)
        V = np.stack([self.vector(w) for w in words]).astype(np.float64)
        cls, sep = self.vector("[CLS]"), self.vector("[SEP]")
        vectors = np.stack([(V[s:e].sum(axis=0) + cls + sep) / (e - s + 2) for s, e in windows])
        if progress is not None:
            progress(1.0)
        return ChunkedDocument(text, tuple(words), tuple(offs), tuple(windows),
                               tuple(window_spans(offs, windows)), vectors)
