"""The vocabulary checks that need no encoding: byte coverage, merges, duplicate surfaces,
and the ids a corpus produces.

Public names: :func:`byte_coverage`, :func:`merge_gaps`, :func:`merge_orphans`,
:func:`duplicate_groups`, :func:`produced_ids`.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from typing import Any, Callable, Iterable

import numpy as np

from core.text.byte_alphabet import BYTE_TO_CHAR
from core.errors import check_stop
from core.tokenizers.vocab_audit.reach import segment_words, texts_with_added, word_level, words_alone
from core.tokenizers.vocab_audit.surface import BYTE, CONTINUATION, SPECIAL, VocabEntry


def byte_coverage(tokenizer: Any) -> tuple[str, list[int]]:
    """Which of the 256 bytes the vocabulary can spell, and how.

    Returns
    -------
    (mode, missing)
        ``mode`` is ``"byte-level"`` (every byte a symbol of GPT-2's alphabet),
        ``"byte fallback"`` (``<0xAB>`` pieces) or ``""`` (neither: characters missing from
        the vocabulary become the unknown token); ``missing`` the byte values without
        their symbol or piece (empty for ``""``). O(256).
    """
    if tokenizer.is_byte_level:
        vocab = tokenizer.model.vocab
        return "byte-level", [b for b, c in enumerate(BYTE_TO_CHAR) if c not in vocab]
    model = tokenizer.model
    pieces = tokenizer.token_rules.byte_pieces
    if pieces or getattr(model, "byte_fallback", False):
        present = set(pieces.values())
        return "byte fallback", [b for b in range(256) if b not in present]
    return "", []


def merge_gaps(vocab: dict[str, int], merges: Iterable[tuple[str, str]], prefix: str = ""
               ) -> list[tuple[int, str, str, tuple[str, ...]]]:
    """Merges whose parts or result are not vocabulary entries.

    The result of merging ``a`` and ``b`` is ``a + b`` with ``b``'s continuing-subword
    ``prefix`` removed (as the ``tokenizers`` library builds it). The loaders refuse such
    merges, so a loaded tokenizer has none; this checks merge lists from anywhere.

    Returns
    -------
    list of (rank, a, b, missing)
        ``missing``: the absent strings among ``a``, ``b`` and the result, in that order.
        O(M) for M merges.
    """
    out = []
    cut = len(prefix)
    for rank, (a, b) in enumerate(merges):
        missing = tuple(t for t in (a, b, a + b[cut:]) if t not in vocab)
        if missing:
            out.append((rank, a, b, missing))
    return out


def merge_orphans(vocab: dict[str, int], merges: Iterable[tuple[str, str]], prefix: str = "",
                  skip: set[int] = frozenset()) -> list[str]:
    """Entries of two or more symbols that no merge produces (BPE merging never builds
    them; only a whole-word lookup such as ``ignore_merges`` can emit them), sorted by id.
    A symbol is one character, or the ``prefix`` and one character. ``skip``: ids left
    out (added tokens). O(V + M)."""
    cut = len(prefix)
    made = {a + b[cut:] for a, b in merges}
    out = []
    for token, id_ in vocab.items():
        body = token[cut:] if prefix and token.startswith(prefix) else token
        if len(body) > 1 and token not in made and id_ not in skip:
            out.append((id_, token))
    return [t for _, t in sorted(out)]


def duplicate_groups(entries: list[VocabEntry]) -> list[list[VocabEntry]]:
    """Groups of entries (two or more ids) with the same readable string: the same surface
    in NFC, both word starts or both continuations (byte pieces and special tokens left
    out). Ordered by their first id. O(V · L)."""
    groups: dict[tuple[bool, str], list[VocabEntry]] = defaultdict(list)
    for e in entries:
        if e.surface is not None and e.kind not in (BYTE, SPECIAL):
            s = e.surface if e.surface.isascii() else unicodedata.normalize("NFC", e.surface)
            groups[(e.kind == CONTINUATION, s)].append(e)
    found = [g for g in groups.values() if len({e.id for e in g}) > 1]
    return sorted(found, key=lambda g: g[0].id)


def produced_ids(tokenizer: Any, texts: list[str], *,
                 progress: Callable[[float], None] | None = None,
                 should_stop: Callable[[], bool] | None = None) -> np.ndarray:
    """The distinct ids that encoding ``texts`` produces (no special tokens added).

    For a word-level pipeline the texts are pre-tokenized (no offsets are computed) and
    each distinct word is segmented once (:func:`~.reach.segment_words`); a
    text in which an added token matches, and any text of another pipeline, is encoded
    whole. O(total characters) plus one segmentation per distinct word.

    Raises
    ------
    TypeError
        If a text is not a ``str`` (it is named by index).
    core.errors.Cancelled
        When ``should_stop()`` returns True.
    """
    for k, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(f"corpus text {k} is a {type(text).__name__}, not a str")
    by_words = word_level(tokenizer)
    added = texts_with_added(tokenizer, texts, should_stop) if by_words else set()
    seen: list[np.ndarray] = []
    words: set[str] = set()
    for k, text in enumerate(texts):
        check_stop(should_stop)
        if by_words and k not in added:
            words.update(words_alone(tokenizer, text))
        else:
            ids = tokenizer.encode(text, should_stop=should_stop).ids
            seen.append(np.unique(np.asarray(ids, dtype=np.int64)))
        if progress is not None:
            progress((k + 1) / len(texts))
    if words:
        check_stop(should_stop)
        pieces = segment_words(tokenizer, sorted(words))
        seen.append(np.unique(np.fromiter((i for p in pieces for i in p[1]), np.int64)))
    return np.unique(np.concatenate(seen)) if seen else np.zeros(0, dtype=np.int64)
