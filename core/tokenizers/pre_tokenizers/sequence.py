"""The Sequence pre-tokenizer: pre-tokenizers applied in turn, each to every word of the
previous one, with the character maps of rewriting members composed.

Maps are flat int64 arrays of normalized code-point spans, one entry per character of the
(rewritten) words, as :meth:`PreTokenizer.split_mapped` describes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core.tokenizers.pre_tokenizers.base import PreTokenizer, Words


class Sequence(PreTokenizer):
    """Applies pre-tokenizers in turn, each to every word of the previous one.

    A member that rewrites its words (ByteLevel, Metaspace) makes the whole sequence a
    rewriting one; later members split rewritten words and their character maps are
    composed, so offsets still point at normalized characters.
    """

    type_name = "Sequence"

    def __init__(self, pre_tokenizers: list[PreTokenizer]):
        self.pre_tokenizers = list(pre_tokenizers)
        self.transforms = any(p.transforms for p in self.pre_tokenizers)
        self.byte_level = any(p.byte_level for p in self.pre_tokenizers)
        self._caches: list[dict] = [{} for _ in self.pre_tokenizers]

    @property
    def batch_split(self) -> str | None:
        """``"plain"`` when no member rewrites; ``"then_meta"``/``"then_bytes"`` when
        plain members end in a Metaspace step or a ByteLevel step that only rewrites;
        else None (see :class:`PreTokenizer`)."""
        if not self.transforms:
            return "plain"
        *plain, last = self.pre_tokenizers
        if any(p.transforms for p in plain):
            return None
        if last.batch_split == "metaspace":
            return "then_meta"
        if last.batch_split == "byte_level" and last.rewrites_only:
            return "then_bytes"
        return None

    def describe(self) -> dict[str, Any]:
        return {"type": "Sequence", "pretokenizers": [p.describe() for p in self.pre_tokenizers]}

    def split(self, text: str) -> Words:
        words, starts, _ = self.split_mapped(text)
        return words, starts

    def safe_cut(self, text: str, at: int) -> int | None:
        # the later members split each word of the first one: its safe cuts are theirs
        return self.pre_tokenizers[0].safe_cut(text, at) if self.pre_tokenizers else None

    def split_mapped(self, text: str, first: bool = True):
        words, starts, maps = ([text], [0], None) if text else ([], [], None)
        for p, cache in zip(self.pre_tokenizers, self._caches):
            if maps is None and not p.transforms:
                words, starts = _split_plain(p, words, starts)
            elif maps is None:
                bulk = getattr(p, "split_many", None)
                done = bulk(words, starts, first) if bulk is not None else None
                words, starts, maps = done or _rewrite_plain(p, cache, words, starts, first)
            else:
                words, starts, maps = _rewrite_mapped(p, words, starts, maps, first)
        return words, starts, maps

    def split_mapped_flat(self, texts: list[str], at: list[int] | None = None
                          ) -> tuple[list[str], list[int], Any, list[int]]:
        """:meth:`PreTokenizer.split_mapped_flat`: where one plain member is followed by
        a rewriting member that rewrites many words at once, one word for one (its
        ``split_many``: ByteLevel after a Split, as Llama 3 and Qwen3 have it), the first
        splits all the texts (:meth:`PreTokenizer.split_texts`) and the last rewrites the
        words of all of them in one call (a chat prompt's many short turns); else text by
        text. O(characters) besides the members' own work, with no numpy call per text."""
        *plain, last = self.pre_tokenizers or [None]
        bulk = getattr(last, "split_many", None)
        if bulk is None or len(plain) != 1 or plain[0].transforms or not last.transforms:
            return super().split_mapped_flat(texts, at)
        words, starts, counts = plain[0].split_texts(texts, at)
        got = bulk(words, starts, 0)
        if got is None:
            return super().split_mapped_flat(texts, at)
        return (*got, counts)


def _split_plain(p: PreTokenizer, words: list[str], starts: list[int]
                 ) -> tuple[list[str], list[int]]:
    """A non-rewriting member's split of every word (starts made absolute)."""
    if len(words) == 1:
        w2, s2 = p.split(words[0])
        return w2, ([starts[0] + s for s in s2] if starts[0] else s2)
    nw, ns = [], []
    for word, base in zip(words, starts):
        w2, s2 = p.split(word)
        nw += w2
        ns += [base + s for s in s2]
    return nw, ns


def _identity_maps(words: list[str]) -> tuple[np.ndarray, np.ndarray]:
    lo = np.arange(sum(map(len, words)), dtype=np.int64)
    return lo, lo + 1


def _rewrite_plain(p, cache, words, starts, first):
    """Apply ``p`` to unrewritten words (memoized per word, maps relative to the word)."""
    nw, ns, rel_lo, rel_hi, bases, lens = [], [], [], [], [], []
    if len(cache) > 200_000:
        cache.clear()
    for word, base in zip(words, starts):
        key = (word, base < first)
        hit = cache.get(key)
        if hit is None:
            w2, s2, m2 = p.split_mapped(word, key[1])
            hit = cache[key] = (w2, s2, m2 if m2 is not None else _identity_maps(w2))
        w2, s2, (lo, hi) = hit
        nw += w2
        ns += [base + s for s in s2]
        rel_lo.append(lo)
        rel_hi.append(hi)
        bases.append(base)
        lens.append(len(lo))
    if not nw:
        return nw, ns, (np.zeros(0, np.int64), np.zeros(0, np.int64))
    shift = np.repeat(np.asarray(bases, dtype=np.int64), lens)
    return nw, ns, (np.concatenate(rel_lo) + shift, np.concatenate(rel_hi) + shift)


def _rewrite_mapped(p, words, starts, maps, first):
    """Apply ``p`` to rewritten words, composing its character maps with theirs."""
    nw, ns, los, his = [], [], [], []
    k = 0
    for word, base in zip(words, starts):
        n = len(word)
        lo_w, hi_w = maps[0][k:k + n], maps[1][k:k + n]
        k += n
        w2, s2, m2 = p.split_mapped(word, base < first)
        lo2, hi2 = m2 if m2 is not None else _identity_maps(w2)
        if m2 is None:
            lo2 = np.concatenate([np.arange(s, s + len(w)) for w, s in zip(w2, s2)] or [lo2])
            hi2 = lo2 + 1
        lo = lo_w[np.minimum(lo2, n - 1)]
        hi = hi_w[np.clip(hi2 - 1, 0, n - 1)]
        empty = hi2 <= lo2
        lo[empty & (lo2 >= n)] = hi_w[n - 1]
        hi[empty] = lo[empty]
        nw += w2
        ns += [int(x) for x in lo[np.cumsum([0] + [len(w) for w in w2[:-1]])]] if w2 else []
        los.append(lo)
        his.append(hi)
    if not nw:
        return nw, ns, (np.zeros(0, np.int64), np.zeros(0, np.int64))
    return nw, ns, (np.concatenate(los), np.concatenate(his))
