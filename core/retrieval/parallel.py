"""Pairing the paragraphs of two translations, and "does the translation come back" on the pairs.

:func:`align_parallel` pairs a reference text (English) with another language line by line
where the two really say the same thing:

- **by articles** (the default whenever both texts have a readable
  :func:`~core.retrieval.articles.article_structure`): in every article both texts number,
  paragraph ``i`` of one is paragraph ``i`` of the other when both have the same number of
  paragraphs; other articles are left out. Text before the first heading (titles, preamble,
  publisher's notes) is never paired. The other text's searched corpus is all its lines but
  the headings, so unpaired paragraphs stay in as distractors;
- **by line index** when the other text has no readable structure but exactly as many lines
  as the reference (the bundled sample, whose files are parallel line by line); its corpus
  is all its lines;
- **not at all** otherwise (``method == "none"``, no pairs).

Either way a pair is kept only when the reference paragraph has at least ``min_chars``
code points, so that short headings (``Article 3``: any translation of it looks alike) never
inflate the share. :func:`aligned_recall` runs
:func:`~core.retrieval.crosslingual.translation_recall` on the pairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from core.retrieval._checks import RetrievalError, as_corpus, as_lines, whole_number
from core.retrieval.articles import ArticleStructure, article_structure
from core.retrieval.crosslingual import TranslationRecall, translation_recall

MIN_CHARS = 20
"""Default shortest reference paragraph (code points) that is paired."""
METHODS = ("articles", "line index", "none")


@dataclass(frozen=True)
class ParallelAlignment:
    """Paragraph pairs of a reference text and another text (:func:`align_parallel`).

    Attributes
    ----------
    method : {"articles", "line index", "none"}
    query_lines : (n,) int64 ndarray — reference line indices (the queries), ascending.
    target_lines : (n,) int64 ndarray — the other text's line of each query's translation.
    corpus_lines : (m,) int64 ndarray — the other text's lines to search, ascending; holds
        every target.
    articles : tuple[int, ...] — articles paired (empty unless ``method == "articles"``).
    skipped : tuple[int, ...] — articles of the reference left out: missing in the other
        text, or with a different number of paragraphs.
    note : str — one line saying how the texts were paired, for a view.
    """

    method: str
    query_lines: np.ndarray
    target_lines: np.ndarray
    corpus_lines: np.ndarray
    articles: tuple = ()
    skipped: tuple = ()
    note: str = ""

    @property
    def targets(self) -> np.ndarray:
        """``(n,) int64`` — the position of each target in :attr:`corpus_lines`."""
        return np.searchsorted(self.corpus_lines, self.target_lines).astype(np.int64)

    def __len__(self) -> int:
        return int(self.query_lines.size)


def _ids(values) -> np.ndarray:
    return np.asarray(list(values), dtype=np.int64)


def _by_articles(reference: Sequence[str], ref: ArticleStructure, other: ArticleStructure,
                 min_chars: int) -> ParallelAlignment:
    """Cost: O(P) for the P paragraphs of the articles both texts number."""
    pairs, paired, skipped = [], [], []
    for n in sorted(ref.sections):
        mine, theirs = ref.sections[n], other.sections.get(n)
        if theirs is None or len(theirs) != len(mine):
            skipped.append(n)
            continue
        paired.append(n)
        pairs += [(q, t) for q, t in zip(mine, theirs) if len(reference[q].strip()) >= min_chars]
    q, t = (_ids(c) for c in zip(*pairs)) if pairs else (_ids(()), _ids(()))
    note = (f"paired by article structure: {len(paired)} of {len(ref.sections)} articles, "
            f"{len(pairs)} paragraphs")
    if skipped:
        note += f"; articles left out (missing or split differently): {', '.join(map(str, skipped))}"
    return ParallelAlignment("articles", q, t, _ids(other.paragraphs), tuple(paired), tuple(skipped), note)


def align_parallel(reference: Sequence[str], other: Sequence[str], *,
                   min_chars: int = MIN_CHARS) -> ParallelAlignment:
    """Pair the paragraphs of ``other`` with those of ``reference`` (see the module notes).

    Cost: O(total length of both texts) to find their structures, O(P) to pair.

    Parameters
    ----------
    reference : sequence of str — the reference text's lines (e.g. English).
    other : sequence of str — the other language's lines.
    min_chars : int — shortest reference paragraph (code points) that is paired, >= 0.

    Returns
    -------
    ParallelAlignment
        ``method == "articles"`` when at least half of the reference's articles are numbered
        in ``other`` too; else ``"line index"`` or ``"none"``.

    Raises
    ------
    RetrievalError
        ``reference`` or ``other`` not a sequence of str, ``min_chars`` not a whole number
        >= 0.
    """
    reference, other = as_lines("reference", reference), as_lines("other", other)
    min_chars = whole_number("min_chars", min_chars, 0)
    ref = article_structure(reference)
    last = max(ref.sections, default=None)
    theirs = article_structure(other, last=last)
    common = set(ref.sections) & set(theirs.sections)
    if ref.sections and 2 * len(common) >= len(ref.sections):
        return _by_articles(reference, ref, theirs, min_chars)
    if len(other) == len(reference):
        heads = set(ref.headings)
        q = _ids(i for i, line in enumerate(reference) if i not in heads and len(line.strip()) >= min_chars)
        return ParallelAlignment("line index", q, q.copy(), _ids(range(len(other))),
                                 note=f"paired by line index ({len(other)} lines each): {q.size} paragraphs")
    why = (f"no article structure to pair by, and {len(other)} lines against the reference's "
           f"{len(reference)}")
    empty = _ids(())
    return ParallelAlignment("none", empty, empty, _ids(range(len(other))), note=f"not paired: {why}")


def aligned_recall(reference_vectors, other_vectors, alignment: ParallelAlignment,
                   k: int = 10) -> TranslationRecall:
    """Share of the paired reference paragraphs whose translation is in the top ``k``.

    Each paired reference line's vector is a query against the vectors of the other text's
    :attr:`~ParallelAlignment.corpus_lines`; its translation is the target line.

    Cost: O(n·m·d) (:func:`~core.retrieval.crosslingual.translation_ranks`).

    Parameters
    ----------
    reference_vectors : (R, d) float ndarray — one row per reference line.
    other_vectors : (L, d) float ndarray — one row per line of the other text.
    alignment : ParallelAlignment — from :func:`align_parallel` on those two texts.
    k : int — >= 1.

    Raises
    ------
    RetrievalError
        ``alignment`` not a :class:`ParallelAlignment`, no pairs (``method == "none"``),
        line indices outside the given rows, or as
        :func:`~core.retrieval.crosslingual.translation_recall`.
    """
    if not isinstance(alignment, ParallelAlignment):
        raise RetrievalError(f"alignment must be a ParallelAlignment (from align_parallel), "
                             f"got {type(alignment).__name__}")
    R, L = as_corpus(reference_vectors, "reference_vectors"), as_corpus(other_vectors, "other_vectors")
    if len(alignment) == 0:
        raise RetrievalError(f"no paragraph pairs to measure: {alignment.note}")
    if alignment.query_lines.max() >= R.shape[0] or alignment.corpus_lines.max() >= L.shape[0]:
        raise RetrievalError(f"the alignment names lines beyond the {R.shape[0]} reference and "
                             f"{L.shape[0]} other vectors given; embed every line of both texts")
    return translation_recall(R[alignment.query_lines], L[alignment.corpus_lines], k,
                              targets=alignment.targets)
