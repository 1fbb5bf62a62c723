"""Argument checks and the memory cap shared by :mod:`core.retrieval`.

Every function that builds a ``[Q, N]`` score matrix works through the queries in chunks so
that one chunk's scores stay within :data:`MAX_SCORE_BYTES` (32 MiB: 83 queries at a time over
100,000 vectors). One query's scores (``4 N`` bytes) are always allowed: the corpus itself is
``d`` times larger. Working memory of a chunk is about twice the cap (the scores plus the
selection's index arrays).
"""

from __future__ import annotations

import numpy as np

from core.errors import SubwordScopeError


class RetrievalError(SubwordScopeError):
    """A retrieval argument is unusable: wrong shape, empty corpus, ``k <= 0``, NaN scores, ..."""


MAX_SCORE_BYTES = 32 * 2**20
"""Largest score block (bytes) a :mod:`core.retrieval` function holds at once: 32 MiB."""


def whole_number(name: str, value, minimum: int = 1) -> int:
    """``value`` as an ``int >= minimum``, else :class:`RetrievalError` naming ``name``."""
    try:
        ok = not isinstance(value, (bool, str, bytes)) and int(value) == value and int(value) >= minimum
    except (TypeError, ValueError, OverflowError):
        ok = False
    if not ok:
        raise RetrievalError(f"{name} must be a whole number >= {minimum}, got {value!r}")
    return int(value)


def as_corpus(E, name: str = "E", *, int8_codes: bool = False) -> np.ndarray:
    """``E`` as a non-empty ``(N, d)`` real array.

    float16/32/64 are kept; int8 is kept when ``int8_codes`` (codes with scales), and other
    integers become float64.
    """
    E = np.asarray(E)
    if int8_codes and E.dtype != np.int8:
        raise RetrievalError(f"scales were given, so {name} must hold int8 codes; got dtype {E.dtype}")
    if E.ndim != 2:
        raise RetrievalError(f"{name} must be an (N, d) matrix of vectors, got shape {E.shape}")
    if E.shape[0] == 0 or E.shape[1] == 0:
        raise RetrievalError(f"{name} is empty (shape {E.shape}); add vectors before searching")
    if E.dtype.kind in "iub" and not int8_codes:
        E = E.astype(np.float64)
    elif E.dtype.kind != "f" and not int8_codes:
        raise RetrievalError(f"{name} must hold real numbers, got dtype {E.dtype}")
    return E


def compute_dtype(E: np.ndarray) -> np.dtype:
    """The dtype scores are computed in: float64 for float64 corpora, float32 otherwise."""
    return np.dtype(np.float64) if E.dtype == np.float64 else np.dtype(np.float32)


def as_queries(q, dim: int, dtype: np.dtype) -> tuple[np.ndarray, bool]:
    """``q`` as a ``(Q, dim)`` array of ``dtype`` and whether it was a single ``(dim,)`` vector."""
    q = np.asarray(q)
    if q.dtype.kind not in "iubf":
        raise RetrievalError(f"queries must hold real numbers, got dtype {q.dtype}")
    single = q.ndim == 1
    if q.ndim not in (1, 2) or q.shape[-1] != dim:
        raise RetrievalError(f"queries must be ({dim},) or (Q, {dim}) to match the corpus, got shape {q.shape}")
    q = np.ascontiguousarray(q.reshape(-1, dim), dtype=dtype)
    if not np.isfinite(q).all():
        raise RetrievalError("queries contain NaN or infinity")
    return q, single


def query_chunk(n_columns: int, itemsize: int = 4, cap: int = MAX_SCORE_BYTES) -> int:
    """Rows of a ``(rows, n_columns)`` score block that fit in ``cap`` bytes (at least 1)."""
    return max(1, cap // max(1, n_columns * itemsize))


def check_finite_scores(S: np.ndarray) -> None:
    """Raise :class:`RetrievalError` when a score is NaN or infinite (the corpus holds one)."""
    if not np.isfinite(S).all():
        raise RetrievalError("a score is NaN or infinite: the corpus contains NaN, infinity or overflows")
