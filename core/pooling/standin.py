"""A synthetic stand-in for encoder outputs: noise plus a few "evidence" tokens.

Used to teach how pooling behaves with document length without any model. The generator is
the course material's (its pooling program, ``make_doc``): token vectors are standard normal
noise in ``d = 4`` dimensions; each *evidence* token adds ``strength = 3.0`` on the first
``k_dims = 1`` dimension (the evidence direction); a *junk spike* is one token with
``junk_strength = 8.0`` on that same dimension (a false alarm). The *signal* of a pooled
vector is its mean over the evidence dimensions. Sparse evidence (3 tokens) fades under mean
pooling as the document grows (about ``strength · 3 / n``); dense evidence (a quarter of the
tokens) does not; max pooling keeps sparse evidence but is fooled by one junk spike and drifts
upward as evidence tokens multiply (the max of ``n`` normals grows like ``sqrt(2 ln n)``).

Random stream: one ``numpy.random.default_rng(seed)`` draws everything in the material's order
(see :func:`evidence_sweep`); per document, the noise ``(n, d)`` first, then the evidence rows
(``choice`` without replacement, skipped when there are none), then the junk row. With
``seed=0`` and the defaults, :func:`evidence_sweep` over lengths that include 16, 128 and 512
reproduces every figure the material's program prints (200 documents per length): sparse
mean 0.589 / 0.075 / 0.016 and max 3.977 / 3.874 / 3.936; junk mean 0.496 / 0.019 and max
8.009 / 7.907 (lengths 16 / 512); dense mean 0.763 / 0.753 / 0.747 and max 4.061 / 5.088 /
5.550; attention (scorer ``2 · e0``) 3.629 / 3.385 / 2.927; and its padding example (a 10-token
document padded to 64: masked mean 0.452, unmasked 0.071, masked max 2.871).

The model-free encoder that stands in for a real one in the pooling pane is
:class:`core.encoder.standin.StandInEncoder`.

Public names: :class:`StandIn`, :func:`standin_document`, :class:`Sweep`,
:class:`PaddingExample`, :func:`evidence_sweep`, :data:`CONDITIONS`, :data:`EVIDENCE_KINDS`,
:data:`MATERIAL_RUN`, :data:`PHASES`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.pooling.chunks import PoolingError, real_number, whole_number
from core.pooling.pool import attention_pool, max_pool, mean_pool, pad_rows, unmasked_mean

EVIDENCE_KINDS = ("none", "sparse", "dense")


@dataclass(frozen=True)
class StandIn:
    """One synthetic document.

    Attributes
    ----------
    H : (n, d) float64 ndarray — token vectors.
    evidence_rows : (k,) int ndarray — positions of the evidence tokens, ascending.
    junk_row : int — position of the junk spike, or -1.
    direction : (d,) float64 ndarray — unit evidence direction (the attention scorer is a
        multiple of it).
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


@dataclass(frozen=True)
class _Settings:
    """Checked generator settings shared by every document of a run."""

    d: int
    k_dims: int
    n_evidence: int
    density: float
    strength: float
    junk_strength: float


def _settings(d, k_dims, n_evidence, density, strength, junk_strength) -> _Settings:
    d, k_dims = whole_number("d", d, 1), whole_number("k_dims", k_dims, 1)
    n_evidence = whole_number("n_evidence", n_evidence, 0)
    if k_dims > d:
        raise PoolingError(f"stand-in needs 1 <= k_dims <= d; got d={d}, k_dims={k_dims}")
    return _Settings(d, k_dims, n_evidence, real_number("density", density, 0, 1),
                     real_number("strength", strength), real_number("junk_strength", junk_strength))


def _count(s: _Settings, n: int, evidence: str) -> int:
    """Evidence tokens in a document of ``n`` tokens: ``min(n_evidence, n)`` (sparse) or
    ``floor(density · n)`` (dense; the material's ``n // 4`` at density 0.25)."""
    if evidence == "sparse":
        return min(s.n_evidence, n)
    if evidence == "dense":
        return min(n, int(np.floor(s.density * n + 1e-9)))
    return 0


def _draw(rng: np.random.Generator, n: int, s: _Settings, count: int, junk_spike: bool):
    """One document from ``rng`` in the material's order: noise, evidence rows, junk row."""
    H = rng.standard_normal((n, s.d))
    rows = np.sort(rng.choice(n, size=count, replace=False)) if count else np.zeros(0, dtype=np.int64)
    H[rows, : s.k_dims] += s.strength
    junk = -1
    if junk_spike:
        if rows.size:  # keep the spike off the evidence when a free row exists
            free = np.setdiff1d(np.arange(n), rows)
            junk = int(free[rng.integers(free.size)]) if free.size else int(rng.integers(n))
        else:
            junk = int(rng.integers(n))
        H[junk, : s.k_dims] += s.junk_strength
    return H, rows, junk


def _direction(s: _Settings) -> np.ndarray:
    direction = np.zeros(s.d)
    direction[: s.k_dims] = 1.0 / np.sqrt(s.k_dims)
    return direction


def standin_document(
    n: int,
    d: int = 4,
    *,
    evidence: str = "sparse",
    n_evidence: int = 3,
    density: float = 0.25,
    strength: float = 3.0,
    junk_spike: bool = False,
    junk_strength: float = 8.0,
    k_dims: int = 1,
    seed: int | tuple[int, ...] = 0,
    rng: np.random.Generator | None = None,
) -> StandIn:
    """Generate ``n`` token vectors of dimension ``d`` (see the module docstring).

    Parameters
    ----------
    evidence : {"none", "sparse", "dense"}
        ``"sparse"``: ``min(n_evidence, n)`` evidence tokens; ``"dense"``:
        ``floor(density · n)`` of them.
    junk_spike : bool
        Add ``junk_strength`` on the evidence dimensions of one token (not an evidence token
        when a free one exists).
    seed : int or tuple of ints — seed of a fresh ``numpy.random.default_rng``.
    rng : numpy Generator, optional — draw from this stream instead (``seed`` is then unused);
        this is how :func:`evidence_sweep` draws its documents one after another.

    Raises
    ------
    PoolingError
        ``n``, ``d``, ``k_dims`` or ``n_evidence`` not whole numbers (``n, d >= 1``,
        ``1 <= k_dims <= d``, ``n_evidence >= 0``), an unknown ``evidence`` kind, a
        ``density`` outside [0, 1], a strength that is not a finite number, a ``seed``
        that is not a whole number >= 0 (or a tuple of them), or an ``rng`` that is not a
        numpy Generator.
    """
    n = whole_number("n", n, 1)
    s = _settings(d, k_dims, n_evidence, density, strength, junk_strength)
    if not isinstance(evidence, str) or evidence not in EVIDENCE_KINDS:
        raise PoolingError(f"stand-in evidence must be one of {EVIDENCE_KINDS}; got {evidence!r}")
    rng = _stream(seed, rng)
    H, rows, junk = _draw(rng, n, s, _count(s, n, evidence), bool(junk_spike))
    return StandIn(H, rows, junk, _direction(s), s.k_dims)


def _stream(seed, rng) -> np.random.Generator:
    """``rng`` when given (checked), else ``default_rng(seed)`` with ``seed`` checked."""
    if rng is not None:
        if not isinstance(rng, np.random.Generator):
            raise PoolingError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
        return rng
    if isinstance(seed, tuple):
        return np.random.default_rng(tuple(whole_number("seed", v, 0) for v in seed))
    return np.random.default_rng(whole_number("seed", seed, 0))


@dataclass(frozen=True)
class PaddingExample:
    """The material's padding example: one sparse document of ``n`` tokens padded with zero
    rows to ``length`` (signals, i.e. values on the evidence dimensions).

    Attributes
    ----------
    n, length : int
    masked_mean : float — the same at ``n`` and at ``length`` (padding never counts).
    unmasked_mean : float — the plain mean over all ``length`` rows: ``n / length`` of it.
    masked_max : float
    """

    n: int
    length: int
    masked_mean: float
    unmasked_mean: float
    masked_max: float


@dataclass(frozen=True)
class Sweep:
    """Pooled signal against document length, each point an average over ``docs`` documents.

    Attributes
    ----------
    lengths : (m,) int ndarray — document lengths in tokens, ascending.
    signal : dict[str, dict[str, (m,) ndarray]] — ``signal[condition][method]``; conditions
        ``"sparse"``, ``"dense"``, ``"junk"`` (no evidence, one spike), ``"noise"``;
        methods ``"mean"``, ``"max"``, ``"attention"``.
    docs : int — documents averaged per point.
    padding : PaddingExample — the document drawn first (the material's padding example).
    """

    lengths: np.ndarray
    signal: dict
    docs: int = 1
    padding: PaddingExample | None = None

    def at(self, condition: str, method: str, length: int) -> float:
        """The averaged signal of ``condition`` / ``method`` at ``length`` (KeyError if absent)."""
        where = np.flatnonzero(self.lengths == length)
        if where.size == 0:
            raise KeyError(f"length {length} is not in this sweep")
        return float(self.signal[condition][method][where[0]])


CONDITIONS = {
    "sparse": dict(evidence="sparse"),
    "dense": dict(evidence="dense"),
    "junk": dict(evidence="none", junk_spike=True),
    "noise": dict(evidence="none"),
}
PHASES = {
    "sparse": ("sparse", ("mean", "max")),
    "junk": ("junk", ("mean", "max", "attention")),
    "dense": ("dense", ("mean", "max", "attention")),
    "attention": ("sparse", ("attention",)),
    "noise": ("noise", ("mean", "max", "attention")),
}
"""Drawing phases in stream order: phase → (condition it fills, methods measured on its
documents). Sparse documents are pooled by attention in a phase of their own, after the dense
one, as in the material."""
MATERIAL_RUN = (("sparse", (16, 128, 512)), ("junk", (16, 512)), ("dense", (16, 128, 512)),
                ("attention", (16, 128, 512)))
"""The material's program after its padding example: (phase, lengths) in the order it draws."""
PADDING_EXAMPLE = (10, 64)


def evidence_sweep(
    lengths, d: int = 4, *, seed: int = 0, docs: int = 200, attention_scale: float = 2.0,
    n_evidence: int = 3, density: float = 0.25, strength: float = 3.0, junk_strength: float = 8.0,
    k_dims: int = 1,
) -> Sweep:
    """Average pooled signals of ``docs`` stand-in documents per (condition, length).

    One ``default_rng(seed)`` draws, in this order: the padding example (a sparse document of
    10 tokens, pooled at 10 and padded to 64); then the (phase, length) pairs of
    :data:`MATERIAL_RUN` whose length is in ``lengths``; then every other pair, phase by phase
    in :data:`PHASES` order, lengths ascending. So with ``seed=0`` and the defaults the first
    documents are exactly those of the course material's program and the sweep shows its
    printed averages (module docstring). Attention pooling scores with
    ``w = attention_scale · direction`` (the material's hand-set ``(2, 0, 0, 0)``).

    Cost: ``docs`` documents per (phase, length): O(5 · docs · sum(lengths) · d) time; the
    Python loop runs over the documents (5 · docs · len(lengths)), pooling is batched per point.

    Raises
    ------
    PoolingError
        ``lengths`` not a non-empty sequence of whole numbers >= 1, ``d``, ``seed`` or
        ``docs`` not whole numbers (``docs >= 1``), ``attention_scale`` not finite, or as
        :func:`standin_document`.
    """
    if isinstance(lengths, (str, bytes)) or not hasattr(lengths, "__iter__"):
        raise PoolingError(f"lengths must be a sequence of whole numbers >= 1, got {lengths!r}")
    lengths = np.unique(np.array([whole_number("length", n, 1) for n in lengths], dtype=np.int64))
    if lengths.size == 0:
        raise PoolingError("lengths is empty; give one or more document lengths")
    seed, docs = whole_number("seed", seed, 0), whole_number("docs", docs, 1)
    attention_scale = real_number("attention_scale", attention_scale)
    s = _settings(d, k_dims, n_evidence, density, strength, junk_strength)
    w = attention_scale * _direction(s)
    rng = np.random.default_rng(seed)
    padding = _padding_example(rng, s)
    wanted = set(lengths.tolist())
    order = [(p, n) for p, ns in MATERIAL_RUN for n in ns if n in wanted]
    order += [(p, int(n)) for p in PHASES for n in lengths if (p, int(n)) not in order]
    signal = {c: {m: np.empty(lengths.size) for m in ("mean", "max", "attention")} for c in CONDITIONS}
    for phase, n in order:
        condition, methods = PHASES[phase]
        kind = CONDITIONS[condition]
        count = _count(s, n, kind["evidence"])
        H = np.stack([_draw(rng, n, s, count, kind.get("junk_spike", False))[0] for _ in range(docs)])
        j = int(np.searchsorted(lengths, n))
        E = H[..., : s.k_dims]  # the scorer is 0 off the evidence dimensions: they decide alone
        for m in methods:
            pooled = (mean_pool(E) if m == "mean" else max_pool(E).vector if m == "max"
                      else attention_pool(E, None, w[: s.k_dims]).vector)
            signal[condition][m][j] = float(pooled.mean(axis=1).mean())
    return Sweep(lengths, signal, docs, padding)


def _padding_example(rng: np.random.Generator, s: _Settings) -> PaddingExample:
    n, length = PADDING_EXAMPLE
    H = _draw(rng, n, s, _count(s, n, "sparse"), False)[0]
    P, mask = pad_rows(H, length)
    k = s.k_dims
    return PaddingExample(n, length, float(mean_pool(P, mask)[:k].mean()), float(unmasked_mean(P)[:k].mean()),
                          float(max_pool(P, mask).vector[:k].mean()))
