"""A model-free stand-in with the :class:`core.encoder.Encoder` text interface.

The pooling pane runs on it when no model folder is chosen: tokens are words and punctuation
marks, each with a fixed random vector and no context — what an untrained model would show.

Public names: :class:`StandInEncoder`.
"""

from __future__ import annotations

import re
import zlib

import numpy as np

from core.encoder.batches import ChunkedDocument, EncoderOutput
from core.errors import SubwordScopeError
from core.pooling import chunk_windows, window_spans

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
        rng = np.random.default_rng((self.seed, zlib.crc32(token.encode("utf-8", "surrogatepass"))))
        return rng.standard_normal(self.dim).astype(np.float32)

    def _words(self, text: str):
        found = [(m.group().lower(), (m.start(), m.end())) for m in _WORD.finditer(text)]
        return [t for t, _ in found], [o for _, o in found]

    def encode(self, texts, *, progress=None, should_stop=None):
        """Tokenize and embed ``texts``; returns a :class:`core.encoder.EncoderOutput`."""
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
            ids[b, : len(toks)] = [zlib.crc32(t.encode("utf-8", "surrogatepass")) % 30000 + 1 for t in toks]
        if progress is not None:
            progress(1.0)
        return EncoderOutput(ids, mask, H, tuple(tuple(r[0]) for r in rows),
                             tuple(tuple(r[1]) for r in rows), texts, tuple(r[2] for r in rows))

    def encode_document(self, text, content=510, overlap=128, *, progress=None, should_stop=None):
        """Chunk ``text`` into token windows and mean-pool each (see ``Encoder.encode_document``)."""
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
