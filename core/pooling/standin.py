"""A synthetic stand-in for encoder outputs: noise plus a few "evidence" tokens.

Used to teach how pooling behaves with document length without any model: token vectors are
standard normal noise; *evidence* tokens add ``strength`` on the first ``k_dims`` dimensions
(the evidence direction); a *junk spike* is one token with a very large value on those same
dimensions (a false alarm). The *signal* of a pooled vector is its mean over the evidence
dimensions. Sparse evidence (a fixed number of tokens) fades under mean pooling as the
document grows (about ``strength · n_evidence / n``); dense evidence (a fixed fraction) does
not; max pooling keeps sparse evidence but is fooled by a single junk spike and drifts upward
on pure noise (the max of ``n`` normals grows like ``sqrt(2 ln n)``).

Everything is reproducible from ``seed`` (numpy ``default_rng``). The model-free encoder that
stands in for a real one in the pooling pane is :class:`core.encoder.standin.StandInEncoder`.

Public names: :class:`StandIn`, :func:`standin_document`, :class:`Sweep`,
:func:`evidence_sweep`, :data:`CONDITIONS`, :data:`EVIDENCE_KINDS`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.pooling.chunks import PoolingError, real_number, whole_number
from core.pooling.pool import attention_pool, max_pool, mean_pool

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
    PoolingError
        ``n``, ``d``, ``k_dims`` or ``n_evidence`` not whole numbers (``n, d >= 1``,
        ``1 <= k_dims <= d``, ``n_evidence >= 0``), an unknown ``evidence`` kind, a
        ``density`` outside [0, 1], a strength that is not a finite number, or a ``seed``
        that is not a whole number >= 0 (or a tuple of them).
    """
    n, d, k_dims = whole_number("n", n, 1), whole_number("d", d, 1), whole_number("k_dims", k_dims, 1)
    n_evidence = whole_number("n_evidence", n_evidence, 0)
    if k_dims > d or not isinstance(evidence, str) or evidence not in EVIDENCE_KINDS:
        raise PoolingError(
            f"stand-in needs n >= 1, 1 <= k_dims <= d and evidence in {EVIDENCE_KINDS}; "
            f"got n={n}, d={d}, k_dims={k_dims}, evidence={evidence!r}"
        )
    density = real_number("density", density, 0, 1)
    strength, junk_strength = real_number("strength", strength), real_number("junk_strength", junk_strength)
    rng = np.random.default_rng(_seed(seed))
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


def _seed(seed) -> int | tuple[int, ...]:
    """``seed`` checked: a whole number >= 0 or a tuple of them (``default_rng``'s seeds)."""
    if isinstance(seed, tuple):
        return tuple(whole_number("seed", s, 0) for s in seed)
    return whole_number("seed", seed, 0)


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

    Cost: one stand-in document and three poolings per (condition, length): O(4 · sum of
    lengths · d); the loops run over the 4 conditions and the lengths.

    Raises
    ------
    PoolingError
        ``lengths`` not a non-empty sequence of whole numbers >= 1, ``d`` or ``seed`` not
        whole numbers, ``attention_scale`` not finite, or as :func:`standin_document`.
    """
    if isinstance(lengths, (str, bytes)) or not hasattr(lengths, "__iter__"):
        raise PoolingError(f"lengths must be a sequence of whole numbers >= 1, got {lengths!r}")
    lengths = np.array([whole_number("length", n, 1) for n in lengths], dtype=np.int64)
    if lengths.size == 0:
        raise PoolingError("lengths is empty; give one or more document lengths")
    d, seed = whole_number("d", d, 1), whole_number("seed", seed, 0)
    attention_scale = real_number("attention_scale", attention_scale)
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
