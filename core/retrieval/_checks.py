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


def whole_numbers(name: str, values, minimum: int = 1) -> tuple[int, ...]:
    """``values`` as a non-empty tuple of ints ``>= minimum`` (e.g. the nprobes of a sweep).

    Raises
    ------
    RetrievalError
        Not a sequence (None, a number, a str), empty, or an item that is not a whole
        number ``>= minimum``.
    """
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise RetrievalError(f"{name} must be a sequence of whole numbers >= {minimum}, "
                             f"got {values!r}")
    out = tuple(whole_number(name, v, minimum) for v in values)
    if not out:
        raise RetrievalError(f"{name} is empty; give one or more whole numbers >= {minimum}")
    return out


def real_number(name: str, value, minimum: float | None = None) -> float:
    """``value`` as a finite ``float`` (``>= minimum`` when given), else :class:`RetrievalError`
    naming ``name``; booleans, strings and complex numbers are refused."""
    ok = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)
    if ok and not (np.isfinite(value) and (minimum is None or value >= minimum)):
        ok = False
    if not ok:
        floor = "" if minimum is None else f" >= {minimum:g}"
        raise RetrievalError(f"{name} must be a finite number{floor}, got {value!r}")
    return float(value)


def as_lines(name: str, lines, item: str = "line") -> list[str]:
    """``lines`` as a list of str (a text's lines, a corpus's texts); O(n).

    Raises
    ------
    RetrievalError
        A bare str or bytes (one text, not a sequence of them), not a sequence (None, a
        number), or an item that is not a str.
    """
    if isinstance(lines, (str, bytes)):
        raise RetrievalError(f"{name} must be a sequence of str, not one {type(lines).__name__}")
    try:
        out = list(lines)
    except TypeError:
        raise RetrievalError(f"{name} must be a sequence of str, got {type(lines).__name__}") from None
    for i, line in enumerate(out):
        if not isinstance(line, str):
            raise RetrievalError(f"every {item} of {name} must be a str; {item} {i} is "
                                 f"{type(line).__name__}")
    return out


def as_array(value, name: str) -> np.ndarray:
    """``value`` as a numpy array of real numbers (bool, int or float), any shape.

    Raises
    ------
    RetrievalError
        Nested lists of different lengths (ragged), or values that are not real numbers
        (None, str, objects, complex numbers, dates).
    """
    try:
        out = np.asarray(value)
    except (ValueError, TypeError):  # numpy refuses ragged nesting
        raise RetrievalError(f"{name} must be a rectangular array of numbers; its rows have "
                             "different lengths (a ragged list)") from None
    if out.dtype.kind not in "biuf":
        raise RetrievalError(f"{name} must hold real numbers, got dtype {out.dtype}"
                             + (" (a ragged list, or None values)" if out.dtype.kind == "O" else ""))
    return out


def as_ids(value, name: str, ndim: tuple[int, ...] = (1, 2)) -> np.ndarray:
    """``value`` as a non-empty integer id array of one of the dimensions ``ndim``.

    Raises
    ------
    RetrievalError
        Not an array of whole numbers (floats, str, None, ragged), another dimension or
        empty.
    """
    ids = as_array(value, name)
    if ids.dtype.kind not in "iu":
        raise RetrievalError(f"{name} must hold integer ids, got dtype {ids.dtype}")
    if ids.ndim not in ndim or ids.size == 0:
        shapes = " or ".join(f"{n}-D" for n in ndim)
        raise RetrievalError(f"{name} must be a non-empty {shapes} array of ids, got shape {ids.shape}")
    return ids


def as_corpus(E, name: str = "E", *, int8_codes: bool = False) -> np.ndarray:
    """``E`` as a non-empty ``(N, d)`` real array.

    float16/32/64 are kept; int8 is kept when ``int8_codes`` (codes with scales), and other
    integers become float64. Finiteness is not checked here (it costs a pass over ``N·d``);
    callers check the scores instead (:func:`check_finite_scores`).

    Raises
    ------
    RetrievalError
        Ragged, not real numbers, not 2-D, no rows or no columns, or not int8 when
        ``int8_codes``.
    """
    E = as_array(E, name)
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
    """``q`` as a ``(Q, dim)`` array of ``dtype`` and whether it was a single ``(dim,)`` vector.

    ``Q`` may be 0 (an empty batch gives empty results).

    Raises
    ------
    RetrievalError
        Ragged, not real numbers, not ``(dim,)`` / ``(Q, dim)``, or NaN / infinity.
    """
    q = as_array(q, "queries")
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


def check_finite(A: np.ndarray, name: str) -> np.ndarray:
    """``A`` unchanged; :class:`RetrievalError` naming ``name`` when it holds NaN or infinity."""
    if not np.isfinite(A).all():
        raise RetrievalError(f"{name} contains NaN or infinity")
    return A


def check_finite_scores(S: np.ndarray) -> None:
    """Raise :class:`RetrievalError` when a score is NaN or infinite (the corpus holds one)."""
    if not np.isfinite(S).all():
        raise RetrievalError("a score is NaN or infinite: the corpus contains NaN, infinity or overflows")
