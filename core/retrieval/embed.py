"""Sentence embeddings of a corpus with an encoder, cached on disk.

:func:`embed_corpus` runs ``encoder.encode`` on batches of texts (sorted by token count so a
batch pads little), pools each text's token vectors over its real tokens and scales every
vector to unit length, so inner products are cosines. The result is cached as one ``.npy``
file named by a SHA-256 of the model files (``config.json``, ``model.safetensors``,
``tokenizer.json``), the texts and the pooling; a second call with the same inputs reads it
back instead of running the model.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np
import platformdirs

from core.encoder.download import NEEDED
from core.errors import Cancelled
from core.pooling import cls_pool, max_pool, mean_pool
from core.retrieval._checks import RetrievalError, as_lines, whole_number
from core.text.files import check_regular_file

POOLINGS = ("mean", "cls", "max")
MODEL_FILES = NEEDED  # the files of an encoder folder its embeddings are keyed on
CACHE_VERSION = 1
MAX_EMBEDDING_BYTES = 1 << 30
"""Largest result :func:`embed_corpus` builds: 1 GiB (about 700,000 texts at 384 dims)."""


def default_cache_dir() -> Path:
    """``<user cache dir of subwordscope>/embeddings`` (``platformdirs``, as ``app.settings``)."""
    return Path(platformdirs.user_cache_dir("subwordscope", "subwordscope")) / "embeddings"


@lru_cache(maxsize=64)
def _file_digest(path: str, size: int, mtime_ns: int) -> str:
    """SHA-256 of a file's bytes; memoized per (path, size, mtime) so a process hashes once.

    Cost: O(file size); the loop reads 4 MiB blocks.
    """
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 22), b""):
            h.update(block)
    return h.hexdigest()


def cache_key(model_dir, texts: Sequence[str], pooling: str) -> str:
    """Hex SHA-256 of the model files' contents, the texts (length-prefixed) and the pooling.

    Cost: O(model bytes + text bytes) the first time in a process; the model part is
    memoized, the texts are hashed each call (the loop runs over texts, O(total length)).

    Raises
    ------
    RetrievalError
        ``model_dir`` not a path, ``texts`` not a sequence of str, or an unknown
        ``pooling``.
    """
    if not isinstance(model_dir, (str, os.PathLike)):
        raise RetrievalError(f"model_dir must be a folder path, got {type(model_dir).__name__}")
    texts = as_lines("texts", texts, "text")
    _check_pooling(pooling)
    h = hashlib.sha256(f"v{CACHE_VERSION}|{pooling}|".encode())
    root = Path(model_dir)
    for name in MODEL_FILES:
        p = root / name
        if p.is_file():
            st = p.stat()
            h.update(f"{name}:{_file_digest(str(p.resolve()), st.st_size, st.st_mtime_ns)}|".encode())
    for t in texts:
        b = t.encode("utf-8", "surrogatepass")
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()


def _pool(H: np.ndarray, mask: np.ndarray, pooling: str) -> np.ndarray:
    if pooling == "mean":
        return mean_pool(H, mask)
    if pooling == "cls":
        return cls_pool(H, mask)
    return max_pool(H, mask).vector


def _check_texts(texts) -> list[str]:
    texts = as_lines("texts", texts, "text")
    if not texts:
        raise RetrievalError("the corpus is empty: give one or more texts")
    return texts


def _check_pooling(pooling) -> None:
    if not isinstance(pooling, str) or pooling not in POOLINGS:
        raise RetrievalError(f"unknown pooling {pooling!r}; choose one of {', '.join(POOLINGS)}")


def _check_encoder(encoder) -> int:
    """The encoder's ``dim``; RetrievalError when it has no ``encode`` or no usable ``dim``."""
    if not callable(getattr(encoder, "encode", None)):
        raise RetrievalError(f"encoder must have an encode(texts) method, got {type(encoder).__name__}")
    return whole_number("encoder.dim", getattr(encoder, "dim", None))


def _load_cached(path: Path) -> np.ndarray | None:
    """A cached array, or None when ``path`` is absent, not a regular file of at most
    :data:`MAX_EMBEDDING_BYTES` (plus its header; checked before opening: a FIFO planted in
    the cache cannot block the worker) or unreadable."""
    try:
        check_regular_file(path, MAX_EMBEDDING_BYTES + 4096)
        return np.load(path, allow_pickle=False)
    except (OSError, ValueError):  # TextFileError is a ValueError
        return None


def _read_cache(path: Path, n: int) -> np.ndarray | None:
    E = _load_cached(path)
    if E is None:
        return None
    ok = E.ndim == 2 and E.shape[0] == n and E.dtype == np.float32
    return E if ok else None


def _write_cache(path: Path, E: np.ndarray) -> None:
    """Write atomically (temporary file, then rename); a cache that cannot be written is skipped."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".npy.tmp")
        with os.fdopen(fd, "wb") as f:
            np.save(f, E)
        os.replace(tmp, path)
    except OSError:
        return


def _norms_path(path: Path) -> Path:
    """Where the pooled vectors' lengths sit beside the cached unit vectors (``<key>.norms``)."""
    return path.with_suffix(".norms")


def embed_corpus(
    encoder,
    texts: Sequence[str],
    *,
    pooling: str = "mean",
    batch_size: int = 16,
    cache_dir=None,
    cache: bool = True,
    progress: Callable[[float], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    return_norms: bool = False,
) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Unit-length sentence vectors of ``texts``, cached on disk.

    Cost: the encoder's forward pass over every text (none on a cache hit). The loop runs over
    batches of ``batch_size`` texts, not over texts.

    Parameters
    ----------
    encoder : ``core.encoder.Encoder`` or anything with ``encode(texts, *, progress,
        should_stop) -> EncoderOutput`` and ``dim``; its ``path`` (model folder) keys the
        cache — an encoder without one is never cached.
    texts : sequence of str
        The corpus, one text per vector (an empty string is allowed: ``[CLS] [SEP]``). A
        text longer than the model's positions is truncated by the encoder.
    pooling : {"mean", "cls", "max"}
        Masked mean (sentence-transformers' MiniLM default), first token, or masked max.
    batch_size : int
        Texts per ``encode`` call, >= 1.
    cache_dir : str or Path, optional
        Folder of the cache files (default :func:`default_cache_dir`).
    cache : bool
        False to neither read nor write the cache.
    progress : callable(fraction 0..1), optional
        Called as batches finish (weighted by their length); 1.0 at the end, also on a hit.
    should_stop : callable() -> bool, optional
        Checked before each batch and passed to the encoder (checked before each layer).
    return_norms : bool
        Also return each pooled vector's length before scaling (cached beside the vectors
        as ``<key>.norms``; a cache without it is recomputed), e.g. to show what a raw dot
        product on unnormalized vectors would rank.

    Returns
    -------
    E : (len(texts), d) float32 ndarray
        Row ``i`` is text ``i``'s pooled vector scaled to unit length (a zero vector stays 0).
    norms : (len(texts),) float32 ndarray
        Only with ``return_norms``: ``E[i] * norms[i]`` is the pooled vector.

    Raises
    ------
    RetrievalError
        ``encoder`` without ``encode`` or a whole-number ``dim``; ``texts`` empty, a bare
        str, not a sequence or holding a non-str; unknown ``pooling``; bad ``batch_size``;
        a result above :data:`MAX_EMBEDDING_BYTES` (1 GiB).
    Cancelled
        ``should_stop()`` returned true.
    """
    texts = _check_texts(texts)
    _check_pooling(pooling)
    batch_size = whole_number("batch_size", batch_size)
    dim = _check_encoder(encoder)
    if 4 * len(texts) * dim > MAX_EMBEDDING_BYTES:
        raise RetrievalError(f"{len(texts)} vectors of {dim} dims exceed the "
                             f"{MAX_EMBEDDING_BYTES >> 20} MiB limit; embed the corpus in parts")
    model_dir = getattr(encoder, "path", None)
    path = None
    if cache and model_dir is not None:
        key = cache_key(model_dir, texts, pooling)
        path = Path(cache_dir if cache_dir is not None else default_cache_dir()) / f"{key}.npy"
        hit = _read_cache(path, len(texts))
        norms = _read_norms(_norms_path(path), len(texts)) if hit is not None and return_norms else None
        if hit is not None and (norms is not None or not return_norms):
            if progress is not None:
                progress(1.0)
            return (hit, norms) if return_norms else hit
    E, norms = _run(encoder, texts, pooling, batch_size, progress, should_stop)
    if path is not None:
        _write_cache(path, E)
        _write_cache(_norms_path(path), norms)
    return (E, norms) if return_norms else E


def _read_norms(path: Path, n: int) -> np.ndarray | None:
    norms = _load_cached(path)
    if norms is None:
        return None
    return norms if norms.shape == (n,) and norms.dtype == np.float32 else None


def _lengths(encoder, texts, should_stop) -> np.ndarray:
    """Token count of each text (the encoder's ``tokenize`` when it has one), else UTF-8 bytes.

    Sorting by it makes a batch's texts about equally long: on the UDHR paragraphs, batches of
    16 then pad 3 % extra tokens instead of 62 % when sorted by bytes. Cost: one tokenization
    (under a second for the 2,654 UDHR paragraphs); the loop runs over blocks of 256 texts.
    """
    tokenize = getattr(encoder, "tokenize", None)
    if not callable(tokenize):
        return np.array([len(t.encode("utf-8", "surrogatepass")) + 1 for t in texts], dtype=np.float64)
    parts = []
    for s in range(0, len(texts), 256):
        if should_stop is not None and should_stop():
            raise Cancelled("embedding the corpus was cancelled")
        parts.append(np.asarray(tokenize(texts[s:s + 256]).attention_mask).sum(axis=1))
    return np.concatenate(parts).astype(np.float64)


def _run(encoder, texts, pooling, batch_size, progress, should_stop) -> tuple[np.ndarray, np.ndarray]:
    """Encode length-sorted batches, pool, normalize; returns the unit vectors and the norms.

    Cost: one tokenization plus the forward pass; the loop runs over batches of
    ``batch_size`` texts (one ``encode`` call each).
    """
    lengths = _lengths(encoder, texts, should_stop)
    order = np.argsort(lengths, kind="stable")
    total, done = float(lengths.sum()), 0.0
    E = np.zeros((len(texts), int(encoder.dim)), dtype=np.float32)
    for s in range(0, len(texts), batch_size):
        if should_stop is not None and should_stop():
            raise Cancelled("embedding the corpus was cancelled")
        rows = order[s:s + batch_size]
        weight = float(lengths[rows].sum())
        sub = None if progress is None else (lambda f, d=done, w=weight: progress((d + f * w) / total))
        out = encoder.encode([texts[i] for i in rows], progress=sub, should_stop=should_stop)
        E[rows] = _pool(out.last_hidden_state, out.attention_mask, pooling)
        done += weight
    norms = np.linalg.norm(E, axis=1, keepdims=True)
    np.divide(E, norms, out=E, where=norms > 0)
    if progress is not None:
        progress(1.0)
    return E, norms[:, 0].astype(np.float32)
