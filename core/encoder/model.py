"""A BERT-family sentence encoder's forward pass in numpy (float32).

Embeddings (word + learned absolute position + token type, then LayerNorm), then post-norm
layers: ``x = LN(x + Attn(x))``, ``x = LN(x + FFN(x))`` with exact (erf) GELU, attention over
real tokens only (padding keys get a large negative score). Architecture as in Devlin et al.
(2019), "BERT", §3 and the public ``BertModel`` layout of its checkpoints.

A model directory holds ``config.json``, ``model.safetensors`` (read with the ``safetensors``
package's numpy API) and ``tokenizer.json`` (read with :func:`core.tokenizers.load`).

Public names: :func:`load_encoder`, :class:`Encoder`, :class:`EncoderOutput`,
:class:`EncoderConfig`, :class:`EncoderLoadError`, :class:`EncoderInputError`,
:func:`core.encoder.ops.gelu` (the result records and batching helpers live in :mod:`core.encoder.batches`).
A cancelled run raises :class:`core.errors.Cancelled`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np

from core.encoder.weights import (
    EncoderConfig,
    EncoderLoadError,
    Layer,
    Weights,
    read_config,
    read_weights,
)
from core.encoder.batches import (
    ChunkedDocument,
    EncoderOutput,
    Progress,
    ShouldStop,
    batch_progress,
    fit_batch,
    frame_windows,
    pad_ids,
)
from core.encoder.inputs import EncoderInputError, as_texts, whole_number
from core.encoder.ops import gelu_of_scaled_, layer_norm_
from core.errors import Cancelled, SubwordScopeError
from core.pooling import chunk_windows, mean_pool, window_spans
from core.tokenizers import load as load_tokenizer

class _Workspace:
    """The float32 buffers one forward pass reuses across its layers (allocated per call, so
    concurrent calls never share them): fused QKV ``(B·T, 3d)``, context and attention
    output ``(B·T, d)``, FFN hidden ``(B·T, d_ff)``, a column of ones ``(T, 1)`` (row sums
    as a product), and one sequence's scores ``(H, T, T)``, their row sums ``(H, T, 1)`` and
    the heads' largest scores ``(H, 1, 1)``."""

    def __init__(self, B: int, T: int, cfg: EncoderConfig):
        d, f, H = cfg.hidden_size, cfg.intermediate_size, cfg.num_attention_heads
        self.B, self.T = B, T
        self.qkv = np.empty((B * T, 3 * d), dtype=np.float32)
        self.ctx = np.empty((B * T, d), dtype=np.float32)
        self.y = np.empty((B * T, d), dtype=np.float32)
        self.h = np.empty((B * T, f), dtype=np.float32)
        self.scores = np.empty((H, T, T), dtype=np.float32)
        self.row = np.empty((H, T, 1), dtype=np.float32)
        self.ones = np.ones((T, 1), dtype=np.float32)
        self.peak = np.empty((H, 1, 1), dtype=np.float32)


_LOW_SUM = np.float32(2.0**-86)
"""A softmax row whose powers of two, shifted by its head's largest score, sum below this (its
own top score about 86 below that one, in base 2) is recomputed shifted by its own maximum
(:func:`_rescore_low_rows`). A row above it holds a term >= 2^-86 / T, so what underflows
(< 2^-126) is at most 2^-31 of its largest term for T = 512."""


def _rescore_low_rows(s: np.ndarray, sums: np.ndarray, q: np.ndarray, k: np.ndarray,
                      bias: np.ndarray | None) -> None:
    """Recompute the softmax numerators (``s``, (H, T, T)) and ``sums`` ((H, T, 1)) of the rows
    whose sums fell below :data:`_LOW_SUM`, each shifted by its own maximum; ``q`` (H, T, dh)
    and ``k`` (H, dh, T) are the head's queries and keys, ``bias`` the (T,) key mask bias.
    Cost: O(rows · T · dh)."""
    low = sums[..., 0] < _LOW_SUM
    for h in np.flatnonzero(low.any(axis=1)):
        rows = np.flatnonzero(low[h])
        r = q[h, rows] @ k[h]  # (rows, T)
        if bias is not None:
            r += bias
        r -= r.max(axis=-1, keepdims=True)
        np.exp2(r, out=r)
        s[h, rows] = r
        sums[h, rows, 0] = r.sum(axis=-1)


class Encoder:
    """A loaded BERT-family encoder; build it with :func:`load_encoder`.

    Attributes
    ----------
    config : EncoderConfig
    tokenizer : a ``core.tokenizers`` tokenizer, or None when only :meth:`forward` is used.
    path : Path — the model directory.
    """

    def __init__(self, config: EncoderConfig, weights: Weights, tokenizer=None, path=None):
        self.config, self._w, self.tokenizer = config, weights, tokenizer
        self.path = None if path is None else Path(path)

    @property
    def dim(self) -> int:
        """Hidden size ``d``."""
        return self.config.hidden_size

    # -- forward -------------------------------------------------------------------------
    def forward(
        self,
        input_ids: np.ndarray,
        attention_mask: np.ndarray | None = None,
        token_type_ids: np.ndarray | None = None,
        *,
        progress: Progress = None,
        should_stop: ShouldStop = None,
    ) -> np.ndarray:
        """Run the layers on token ids.

        Parameters
        ----------
        input_ids : (B, T) int ndarray — ``T <= max_position_embeddings``.
        attention_mask : (B, T) 0/1 ndarray, optional (default: all ones).
        token_type_ids : (B, T) int ndarray, optional (default: zeros).
        progress : callable(fraction 0..1), optional — called after each layer.
        should_stop : callable() -> bool, optional — checked before each layer.

        Returns
        -------
        (B, T, d) float32 ndarray — the last hidden state.

        Raises
        ------
        SubwordScopeError
            Bad shapes, ids out of the vocabulary, or ``T`` above the position limit.
        Cancelled
            ``should_stop()`` returned true.
        """
        ids, mask, types = self._check_inputs(input_ids, attention_mask, token_type_ids)
        cfg, w = self.config, self._w
        B, T = ids.shape
        x = w.word[ids]  # (B, T, d) float32, a fresh array: summed into in place
        x += w.position[:T][None]
        x += w.token_type[types]
        x = layer_norm_(x.reshape(B * T, -1), w.ln_gamma, w.ln_beta, cfg.layer_norm_eps)
        bias = None if mask.all() else np.where(mask[:, None, None, :] > 0, np.float32(0),
                                                np.float32(-1e9))
        work = _Workspace(B, T, cfg)
        for i, layer in enumerate(w.layers):
            if should_stop is not None and should_stop():
                raise Cancelled("encoding was cancelled")
            self._layer(x, layer, bias, work)
            if progress is not None:
                progress((i + 1) / len(w.layers))
        return x.reshape(B, T, -1)

    def _layer(self, x: np.ndarray, layer: Layer, bias: np.ndarray | None,
               work: "_Workspace") -> None:
        """One post-norm layer, in place on ``x`` ((B·T, d) float32).

        The four large products (BLAS threads them) write into buffers of ``work``
        (``out=``); every step between them works in place, in float32, on the calling
        thread (split over two threads beside BLAS's, they gained nothing measurable on two
        cores, where BLAS's own threads wait for work by spinning after each product). The
        attention runs one sequence at a time so that its (H, T, T) scores stay in cache,
        reads q, k, v as strided views of the fused QKV product (no transposed copies; only
        the query bias is added, see :class:`core.encoder.weights.Layer`), shifts each
        head's scores by the head's largest one (one contiguous max instead of one per row;
        rows that would underflow are redone by :func:`_rescore_low_rows`), sums the rows as
        a product with a column of ones and divides by the sums after the context product
        ((H, T, dh) values instead of (H, T, T)). The FFN works on ``x/√2``
        (:func:`core.encoder.ops.gelu_of_scaled_`, its bias added block by block).
        Cost: O(B·T·d·(d + d_ff) + B·H·T²·dh) per layer."""
        cfg = self.config
        B, T = work.B, work.T
        d, H = cfg.hidden_size, cfg.num_attention_heads
        dh = d // H
        qkv = np.matmul(x, layer.qkv_w, out=work.qkv)
        qkv5 = qkv.reshape(B, T, 3, H, dh)
        ctx = work.ctx.reshape(B, T, H, dh)
        eps = cfg.layer_norm_eps

        qkv[:, :d] += layer.q_b
        s, sums, shift = work.scores, work.row, work.peak
        for b in range(B):
            q, k = qkv5[b, :, 0].transpose(1, 0, 2), qkv5[b, :, 1].transpose(1, 2, 0)
            np.matmul(q, k, out=s)
            if bias is not None:  # -1e9 at padding keys
                s += bias[b]
            np.max(s, axis=(1, 2), keepdims=True, out=shift)  # one shift per head
            s -= shift
            np.exp2(s, out=s)  # the scores are in base 2, see Layer
            np.matmul(s, work.ones, out=sums)  # row sums (BLAS)
            if sums.min() < _LOW_SUM:
                _rescore_low_rows(s, sums, q, k, None if bias is None else bias[b, 0, 0])
            np.reciprocal(sums, out=sums)
            out = ctx[b].transpose(1, 0, 2)
            np.matmul(s, qkv5[b, :, 2].transpose(1, 0, 2), out=out)
            out *= sums

        y = np.matmul(work.ctx, layer.out_w, out=work.y)
        y += layer.out_b
        y += x
        layer_norm_(y, layer.ln1_g, layer.ln1_b, eps)
        h = np.matmul(y, layer.ff1_w, out=work.h)
        gelu_of_scaled_(h, layer.ff1_b)
        np.matmul(h, layer.ff2_w, out=x)
        x += layer.ff2_b
        x += y
        layer_norm_(x, layer.ln2_g, layer.ln2_b, eps)

    def _check_inputs(self, input_ids, attention_mask, token_type_ids):
        ids = np.asarray(input_ids)
        if ids.ndim != 2 or ids.shape[1] == 0 or ids.dtype.kind not in "iu":
            raise SubwordScopeError(f"input_ids must be a non-empty (B, T) int array; got {ids.shape}")
        cfg = self.config
        if ids.shape[1] > cfg.max_position_embeddings:
            raise SubwordScopeError(
                f"{ids.shape[1]} tokens exceed this model's {cfg.max_position_embeddings} "
                "positions; truncate or split the text into chunks"
            )
        if ids.min() < 0 or ids.max() >= cfg.vocab_size:
            raise SubwordScopeError(f"token ids must lie in 0 .. {cfg.vocab_size - 1}")
        mask = np.ones_like(ids) if attention_mask is None else np.asarray(attention_mask)
        types = np.zeros_like(ids) if token_type_ids is None else np.asarray(token_type_ids)
        for name, arr in (("attention_mask", mask), ("token_type_ids", types)):
            if arr.shape != ids.shape:
                raise SubwordScopeError(f"{name} shape {arr.shape} differs from input_ids {ids.shape}")
        if types.min() < 0 or types.max() >= cfg.type_vocab_size:
            raise SubwordScopeError(f"token_type_ids must lie in 0 .. {cfg.type_vocab_size - 1}")
        return ids.astype(np.int64), mask.astype(np.int64), types.astype(np.int64)

    # -- texts ---------------------------------------------------------------------------
    def tokenize(self, texts: Sequence[str]) -> EncoderOutput:
        """Tokenize ``texts`` and pad them to the longest; ``last_hidden_state`` is empty.

        Texts longer than ``max_position_embeddings`` tokens (specials included) are
        truncated: the first ``max - 1`` tokens are kept plus the final special token
        (``[SEP]``); ``truncated`` says how many were cut. Split long documents with
        :func:`core.pooling.chunk_windows` instead when every token matters.

        Parameters
        ----------
        texts : str or sequence of str
            A bare ``str`` is one text (``"hello"`` is treated as ``["hello"]``, never as
            five one-character texts).

        Raises
        ------
        EncoderInputError
            No texts, or an item that is not a ``str``.
        SubwordScopeError
            The encoder was loaded without a tokenizer.
        """
        if self.tokenizer is None:
            raise SubwordScopeError("this encoder was loaded without a tokenizer; use forward()")
        texts = as_texts(texts)
        batch = getattr(self.tokenizer, "encode_batch", None)  # one call: shared set-up
        encodings = (batch(texts, add_special_tokens=True) if callable(batch) else
                     [self.tokenizer.encode(t, add_special_tokens=True) for t in texts])
        rows = [self._tokenize_one(enc) for enc in encodings]
        ids, mask = pad_ids([r[0] for r in rows], self.config.pad_token_id)
        empty = np.zeros((*ids.shape, 0), dtype=np.float32)
        return EncoderOutput(ids, mask, empty, tuple(r[1] for r in rows),
                             tuple(r[2] for r in rows), texts, tuple(r[3] for r in rows))

    def _tokenize_one(self, enc):
        ids, tokens = list(enc.ids), list(enc.tokens)
        offsets = [tuple(int(v) for v in o) for o in enc.offsets]
        special = list(getattr(enc, "special_tokens_mask", [0] * len(ids)))
        real = getattr(enc, "attention_mask", None)
        if real is not None:  # drop padding a tokenizer.json padding setting may have added
            keep = [i for i, m in enumerate(real) if m]
            ids, tokens = [ids[i] for i in keep], [tokens[i] for i in keep]
            offsets, special = [offsets[i] for i in keep], [special[i] for i in keep]
        limit = self.config.max_position_embeddings
        cut = max(0, len(ids) - limit)
        if cut:
            tail = 1 if special and special[-1] else 0
            head = limit - tail
            ids = ids[:head] + ids[len(ids) - tail:]
            tokens = tokens[:head] + tokens[len(tokens) - tail:]
            offsets = offsets[:head] + offsets[len(offsets) - tail:]
        return ids, tuple(tokens), tuple(offsets), cut

    def encode(
        self,
        texts: Sequence[str],
        *,
        batch_size: int = 16,
        progress: Progress = None,
        should_stop: ShouldStop = None,
    ) -> EncoderOutput:
        """Tokenize ``texts`` and run the forward pass (see :meth:`tokenize`, :meth:`forward`).

        Texts go through the model ``batch_size`` at a time (fewer for long texts, so that one
        layer's attention scores stay under :data:`SCORE_BUDGET` bytes), each batch padded
        to its own longest text.

        Parameters
        ----------
        texts : str or sequence of str
            A bare ``str`` is one text, as for :meth:`tokenize`.
        batch_size : int
            Texts per forward pass, >= 1.

        Raises
        ------
        EncoderInputError
            No texts, an item that is not a ``str``, or a bad ``batch_size``.
        Cancelled
            ``should_stop()`` turned true.

        Returns
        -------
        EncoderOutput
            ``last_hidden_state`` is ``(B, T, d)`` float32; padding rows are whatever the
            model computes there (mask them out when pooling).
        """
        batch_size = whole_number("batch_size", batch_size, 1)
        out = self.tokenize(texts)
        B, T = out.input_ids.shape
        hidden = np.zeros((B, T, self.dim), dtype=np.float32)
        batch_size = fit_batch(batch_size, T, self.config.num_attention_heads)
        starts = list(range(0, B, batch_size))
        for j, s in enumerate(starts):
            e = min(B, s + batch_size)
            t = int(out.attention_mask[s:e].sum(axis=1).max())
            sub = batch_progress(progress, j, len(starts))
            hidden[s:e, :t] = self.forward(out.input_ids[s:e, :t], out.attention_mask[s:e, :t],
                                           progress=sub, should_stop=should_stop)
        return EncoderOutput(out.input_ids, out.attention_mask, hidden, out.tokens,
                             out.offsets, out.texts, out.truncated)

    def encode_document(
        self,
        text: str,
        content: int = 510,
        overlap: int = 128,
        *,
        batch_size: int = 8,
        progress: Progress = None,
        should_stop: ShouldStop = None,
    ) -> ChunkedDocument:
        """Split ``text`` into windows of ``content`` tokens overlapping by ``overlap``.

        Each window is encoded as ``[CLS] window [SEP]`` and mean-pooled over its real tokens.

        Raises
        ------
        EncoderInputError
            ``text`` is not a ``str``, or ``content``, ``overlap`` or ``batch_size`` is not a
            whole number in range.
        SubwordScopeError
            No tokens, ``content + 2`` above the position limit, bad window settings, or a
            tokenizer without ``[CLS]`` / ``[SEP]``.
        """
        if not isinstance(text, str):
            raise EncoderInputError(f"the document must be a str, got {type(text).__name__}")
        content, overlap = whole_number("content", content, 1), whole_number("overlap", overlap, 0)
        batch_size = whole_number("batch_size", batch_size, 1)
        limit = self.config.max_position_embeddings - 2
        if content > limit:
            raise SubwordScopeError(f"window content {content} exceeds {limit} (positions minus [CLS], [SEP])")
        tokens, ids, offsets = self._content_tokens(text)
        windows = chunk_windows(len(ids), content, overlap)
        cls, sep = (self.tokenizer.token_to_id(t) for t in ("[CLS]", "[SEP]"))
        if cls is None or sep is None:  # XLM-R-tokenized models (multilingual MiniLM, e5)
            cls, sep = (self.tokenizer.token_to_id(t) for t in ("<s>", "</s>"))
        if cls is None or sep is None:
            raise SubwordScopeError("the tokenizer has no [CLS] / [SEP] (or <s> / </s>) token; "
                                    "cannot frame windows")
        all_ids, mask = frame_windows(ids, windows, cls, sep, self.config.pad_token_id)
        T = all_ids.shape[1]
        batch_size = fit_batch(batch_size, T, self.config.num_attention_heads)
        vectors = np.zeros((len(windows), self.dim))
        starts = range(0, len(windows), batch_size)
        for j, s in enumerate(starts):
            sub = batch_progress(progress, j, len(starts))
            sl = slice(s, s + batch_size)
            H = self.forward(all_ids[sl], mask[sl], progress=sub, should_stop=should_stop)
            vectors[sl] = mean_pool(H, mask[sl])
        return ChunkedDocument(text, tokens, offsets, tuple(windows),
                               tuple(window_spans(offsets, windows)), vectors)

    def _content_tokens(self, text: str):
        if self.tokenizer is None:
            raise SubwordScopeError("this encoder was loaded without a tokenizer; use forward()")
        enc = self.tokenizer.encode(text, add_special_tokens=False)
        keep = [i for i, m in enumerate(getattr(enc, "attention_mask", None) or [1] * len(enc.ids)) if m]
        if not keep:
            raise SubwordScopeError("the text has no tokens to chunk")
        offsets = tuple(tuple(int(v) for v in enc.offsets[i]) for i in keep)
        return tuple(enc.tokens[i] for i in keep), [int(enc.ids[i]) for i in keep], offsets


def load_encoder(model_dir, *, tokenizer: bool = True) -> Encoder:
    """Load a BERT-family encoder from ``model_dir``.

    Parameters
    ----------
    model_dir : str or Path — holds ``config.json``, ``model.safetensors`` and (when
        ``tokenizer`` is true) ``tokenizer.json`` (else a ``vocab.txt`` or SentencePiece
        ``.model`` that :func:`core.tokenizers.load` reads from the folder).
    tokenizer : bool — also load ``tokenizer.json`` with :func:`core.tokenizers.load`.

    Raises
    ------
    EncoderLoadError
        The directory or a file is missing or unreadable, the architecture is not
        BERT-family, or a weight is missing or has the wrong shape (the message names the file
        and the key).
    """
    root = Path(model_dir)
    if not root.is_dir():
        raise EncoderLoadError("not a model directory", path=root)
    config = read_config(root / "config.json")
    weights = read_weights(root / "model.safetensors", config)
    tok = _load_tokenizer(root / "tokenizer.json" if (root / "tokenizer.json").is_file()
                          else root) if tokenizer else None
    return Encoder(config, weights, tok, root)


def _load_tokenizer(path: Path):
    """``tokenizer.json``, else (``path`` the model folder) the tokenizer file
    :func:`core.tokenizers.load` finds there (``vocab.txt``, a SentencePiece ``.model``…)."""
    if not path.exists():
        raise EncoderLoadError("missing; the encoder needs its tokenizer.json", path=path)
    try:
        tok = load_tokenizer(str(path))
    except SubwordScopeError as exc:
        raise EncoderLoadError(f"could not load the tokenizer: {exc}", path=path) from exc
    for name in ("no_padding", "no_truncation"):  # the encoder pads and truncates itself
        if callable(getattr(tok, name, None)):
            getattr(tok, name)()
    return tok
