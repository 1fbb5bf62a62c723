"""Cross-lingual retrieval: does an English paragraph find its own translation?

For each language, every English paragraph vector is a query against that language's
paragraph vectors; the translation is the paragraph with the same index (the UDHR texts have
the same paragraphs in every language, one a line), or the row a ``targets`` array names where
a text splits or adds paragraphs (the shared Finnish file, for one, opens with four extra
lines). Reported: the share of English paragraphs
whose translation comes back in the top ``k``, and the mean rank of the translation (1 = best).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from core.retrieval._checks import (
    MAX_SCORE_BYTES,
    RetrievalError,
    as_corpus,
    as_ids,
    check_finite_scores,
    query_chunk,
    whole_number,
)


@dataclass(frozen=True)
class TranslationRecall:
    """Result of :func:`translation_recall`.

    Attributes
    ----------
    hit_share : float — share of queries whose translation ranks within the top ``k``.
    mean_rank : float — mean rank of the translation (1 = first).
    ranks : (n,) int64 ndarray — each query's translation rank.
    k : int
    """

    hit_share: float
    mean_rank: float
    ranks: np.ndarray
    k: int

    def at(self, k: int) -> "TranslationRecall":
        """The same ranks measured at another ``k`` (no scoring again). Cost: O(n).

        Raises
        ------
        RetrievalError
            ``k`` not a whole number >= 1.
        """
        k = whole_number("k", k)
        return TranslationRecall(float((self.ranks <= k).mean()), self.mean_rank, self.ranks, k)


def translation_ranks(queries, corpus, *, targets=None, cap: int = MAX_SCORE_BYTES) -> np.ndarray:
    """Rank (1-based) of query ``i``'s translation ``corpus[targets[i]]`` among all corpus rows.

    Rank = 1 + rows scoring higher + equal-scoring rows with a smaller index (the tie rule of
    :func:`~core.retrieval.exact.top_k`, so rank <= k exactly when ``top_k`` returns it).

    Cost: O(n·m·d); the loop runs over query chunks of at most ``cap`` bytes of scores.

    Parameters
    ----------
    queries : (n, d) float ndarray — e.g. English paragraph vectors.
    corpus : (m, d) float ndarray — row ``targets[i]`` is the translation of query ``i``.
    targets : (n,) int ndarray, optional — default ``0 .. n-1`` (then ``m >= n``).

    Returns
    -------
    (n,) int64 ndarray

    Raises
    ------
    RetrievalError
        Not 2-D (ragged lists included), empty, different widths, ``targets`` not ``(n,)``
        integer ids of corpus rows, ``cap`` below 1, or NaN scores.
    """
    cap = whole_number("cap", cap)
    Qm, C = as_corpus(queries, "queries"), as_corpus(corpus, "corpus")
    if Qm.shape[1] != C.shape[1]:
        raise RetrievalError(f"queries {Qm.shape} and corpus {C.shape} differ in width")
    n, m = Qm.shape[0], C.shape[0]
    t = np.arange(n) if targets is None else as_ids(targets, "targets", (1,))
    if t.shape != (n,) or t.min() < 0 or t.max() >= m:
        raise RetrievalError(f"targets must be {n} row ids in 0 .. {m - 1} (one per query); "
                             f"the corpus has {m} rows")
    dtype = np.result_type(Qm.dtype, C.dtype, np.float32)
    Qm, C = Qm.astype(dtype, copy=False), C.astype(dtype, copy=False)
    ranks = np.empty(n, dtype=np.int64)
    cols = np.arange(m)
    step = query_chunk(m, dtype.itemsize, cap)
    for s in range(0, n, step):
        S = Qm[s:s + step] @ C.T
        check_finite_scores(S)
        rows = np.arange(s, min(n, s + step))
        own = S[rows - s, t[rows]][:, None]
        better = (S > own) | ((S == own) & (cols[None, :] < t[rows][:, None]))
        ranks[rows] = 1 + better.sum(axis=1)
    return ranks


def translation_recall(queries, corpus, k: int = 10, *, targets=None) -> TranslationRecall:
    """Share of queries whose translation is in the top ``k``, and its mean rank.

    See :func:`translation_ranks` for shapes, ``targets``, cost and errors (and ``k >= 1``).
    """
    k = whole_number("k", k)
    ranks = translation_ranks(queries, corpus, targets=targets)
    return TranslationRecall(float((ranks <= k).mean()), float(ranks.mean()), ranks, k)


def crosslingual_table(english, languages: Mapping[str, np.ndarray], k: int = 10, *,
                       targets: Mapping[str, np.ndarray] | None = None) -> dict[str, TranslationRecall]:
    """:func:`translation_recall` of the English vectors against each language's.

    Cost: O(L·n·m·d) for L languages; the loop runs over languages.

    Parameters
    ----------
    english : (n, d) float ndarray
    languages : mapping of language code to (m, d) float ndarray
    targets : mapping of language code to (n,) int ndarray, optional — a language missing
        from it is aligned by index (its rows beyond ``n`` are distractors).

    Returns
    -------
    dict — language code to :class:`TranslationRecall`, in the mapping's order.

    Raises
    ------
    RetrievalError
        ``languages`` (or ``targets``) not a mapping, or as :func:`translation_recall` for
        any language.
    """
    for name, value in (("languages", languages), ("targets", targets)):
        if value is not None and not isinstance(value, Mapping):
            raise RetrievalError(f"{name} must map language codes to arrays, got "
                                 f"{type(value).__name__}")
    if languages is None:
        raise RetrievalError("languages must map language codes to arrays, got None")
    targets = {} if targets is None else targets
    return {lang: translation_recall(english, vectors, k, targets=targets.get(lang))
            for lang, vectors in languages.items()}


@dataclass(frozen=True)
class EncoderComparison:
    """Two encoders' :class:`TranslationRecall` on the same paragraph pairs of one language
    (:func:`compare_encoders`).

    Attributes
    ----------
    base, other : TranslationRecall — e.g. the English-only and the multilingual model,
        measured at the same ``k``.
    share_gain : float — ``other.hit_share - base.hit_share`` (shares, -1 .. 1).
    improved, worsened : int — pairs whose translation ranks better (worse) under ``other``.
    """

    base: TranslationRecall
    other: TranslationRecall
    share_gain: float
    improved: int
    worsened: int

    def at(self, k: int) -> "EncoderComparison":
        """The comparison measured at another ``k`` (no scoring again). Cost: O(n).

        Raises
        ------
        RetrievalError
            ``k`` not a whole number >= 1.
        """
        return compare_encoders(self.base.at(k), self.other.at(k))


def compare_encoders(base: TranslationRecall, other: TranslationRecall) -> EncoderComparison:
    """Compare two encoders' ranks of the same translations, pair by pair.

    Cost: O(n) for n pairs.

    Raises
    ------
    RetrievalError
        Not two :class:`TranslationRecall`, different numbers of pairs (not the same pairs)
        or different ``k``.
    """
    if not (isinstance(base, TranslationRecall) and isinstance(other, TranslationRecall)):
        raise RetrievalError("compare_encoders needs two TranslationRecall results, got "
                             f"{type(base).__name__} and {type(other).__name__}")
    if base.ranks.shape != other.ranks.shape:
        raise RetrievalError(f"the encoders were measured on different pairs ({base.ranks.size} and "
                             f"{other.ranks.size}); measure both on the same alignment")
    if base.k != other.k:
        raise RetrievalError(f"the encoders were measured at k = {base.k} and k = {other.k}")
    return EncoderComparison(base, other, other.hit_share - base.hit_share,
                             int((other.ranks < base.ranks).sum()), int((other.ranks > base.ranks).sum()))


def rank_correlation(x, y) -> float:
    """Spearman's ρ of ``x`` and ``y``: Pearson's correlation of their ranks, ties given their
    average rank (Spearman 1904; as ``scipy.stats.spearmanr``). NaN (not an error) when
    fewer than 3 finite pairs remain or either side is constant.

    Cost: O(n log n) for n values (two sorts).

    Parameters
    ----------
    x, y : (n,) float array-likes — e.g. each language's fertility and its top-k share;
        pairs where either is NaN are left out.

    Raises
    ------
    RetrievalError
        Not two 1-D arrays of numbers of the same length.
    """
    try:
        a, b = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    except (TypeError, ValueError) as exc:  # None, a dict, ragged lists, strings
        raise RetrievalError(f"rank_correlation needs two 1-D arrays of numbers: {exc}") from None
    if a.ndim != 1 or a.shape != b.shape:
        raise RetrievalError(f"rank_correlation needs two 1-D arrays of one length, got {a.shape} and {b.shape}")
    keep = np.isfinite(a) & np.isfinite(b)
    a, b = a[keep], b[keep]
    if a.size < 3:
        return float("nan")
    ra, rb = _average_ranks(a), _average_ranks(b)
    ra -= ra.mean()
    rb -= rb.mean()
    denom = float(np.sqrt((ra * ra).sum() * (rb * rb).sum()))
    return float((ra * rb).sum() / denom) if denom > 0 else float("nan")


def _average_ranks(v: np.ndarray) -> np.ndarray:
    """1-based ranks of ``v``, ties sharing their average rank. Cost: O(n log n)."""
    order = np.argsort(v, kind="stable")
    sorted_v = v[order]
    starts = np.flatnonzero(np.r_[True, sorted_v[1:] != sorted_v[:-1]])
    ends = np.r_[starts[1:], v.size]
    avg = (starts + ends + 1) / 2.0  # mean of the 1-based ranks starts+1 .. ends
    ranks = np.empty(v.size, dtype=np.float64)
    ranks[order] = np.repeat(avg, ends - starts)
    return ranks
