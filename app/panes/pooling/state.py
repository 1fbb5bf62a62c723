"""State of the pooling pane and the work its worker runs (no widgets here).

:class:`PoolingState` is what the user chose (text, model folder, pooling method, padding and
chunking settings); it round-trips through JSON for the settings file. :func:`compute` is the
one job the pane's :class:`~app.workers.TaskRunner` runs: it loads the model when needed, runs
the encoder on the sentences and the chunked document, and gathers every number the views
draw into a :class:`PoolingResult`. All numbers come from ``core``. The stand-in length sweeps
a pane has computed are kept in its :class:`SweepCache`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import ClassVar
from functools import lru_cache
from pathlib import Path

import numpy as np

from app.panes.stored import dataclass_values
from core.data import data_dir
from core.errors import Cancelled, SubwordScopeError
from core.encoder import ChunkedDocument, EncoderOutput, StandInEncoder, load_encoder
from core.pooling import METHODS, mean_pool
from core.pooling.compare import ChunkScores, MethodComparison, compare_methods, score_chunks
from core.pooling.standin import Sweep, evidence_sweep

DEFAULT_TEXT = (
    "All human beings are born free and equal in dignity and rights.\n"
    "Everyone has the right to life, liberty and security of person.\n"
    "No one shall be held in slavery or servitude.\n"
    "The tokenizer splits rare words into pieces.\n"
)
METHOD_NAMES = {"cls": "CLS", "mean": "Masked mean", "max": "Masked max", "attention": "Attention"}
SWEEP_LENGTHS = np.unique(np.round(np.geomspace(8, 4096, 19)).astype(int))
MAX_SENTENCES = 64
STANDIN_LABEL = "Synthetic stand-in (no model)"
EMPTY_PROMPT = "Type or paste a sentence (one per line) to encode it."


def shared_model_dir() -> Path | None:
    """The shared MiniLM folder when present (offered as a suggestion), else None."""
    d = data_dir() / "models" / "all-MiniLM-L6-v2"
    return d if (d / "config.json").is_file() else None


@dataclass
class PoolingState:
    """What the pooling pane shows; ``model_dir == ""`` means the synthetic stand-in."""

    text: str = DEFAULT_TEXT
    model_dir: str = ""
    method: str = "mean"
    sentence: int = 0
    pad_length: int = 64
    content: int = 32
    overlap: int = 8
    query: str = "human rights and liberty"
    strength: float = 3.0
    seed: int = 0

    def sentences(self) -> list[str]:
        """Non-empty lines of :attr:`text` (at most :data:`MAX_SENTENCES`)."""
        return [line.strip() for line in self.text.splitlines() if line.strip()][:MAX_SENTENCES]

    def document(self) -> str:
        """The whole text as one document (for chunking)."""
        return self.text.strip()

    def to_dict(self) -> dict:
        return asdict(self)

    # The controls' ranges (app/panes/pooling/controls.py).
    RANGES: ClassVar[dict[str, tuple[float, float]]] = {
        "sentence": (0, MAX_SENTENCES - 1), "pad_length": (1, 4096), "content": (1, 510),
        "overlap": (0, 509), "strength": (0.0, 20.0), "seed": (0, 10**6)}

    @classmethod
    def from_dict(cls, raw: object) -> "PoolingState":
        """Build from stored JSON, ignoring unknown or mistyped fields."""
        state = cls(**dataclass_values(cls, raw))
        if state.method not in METHODS:
            state.method = "mean"
        state.overlap = max(0, min(state.overlap, state.content - 1))
        return state


@dataclass(frozen=True)
class PoolingResult:
    """Everything the views draw for one state.

    Attributes
    ----------
    model_label : str — what produced the vectors.
    output : EncoderOutput — tokens, offsets, ids, mask and last hidden state of the sentences.
    comparison : MethodComparison — pooled vectors, cosine matrices, contributions.
    document : ChunkedDocument | None — the chunked text (None with ``chunk_error``).
    chunk_scores : ChunkScores | None
    sweep : Sweep | None — the stand-in length/evidence sweep (None until computed).
    chunk_error : str — why chunking failed, for an inline message.
    key : tuple — (model dir, sentences) the encoding belongs to (for reuse).
    """

    model_label: str
    output: EncoderOutput
    comparison: MethodComparison
    document: ChunkedDocument | None
    chunk_scores: ChunkScores | None
    sweep: Sweep | None
    chunk_error: str = ""
    key: tuple = field(default=())
    sweep_key: tuple = field(default=())


def open_model(model_dir: str):
    """The encoder for ``model_dir`` (``""``: the stand-in). Raises ``EncoderLoadError``."""
    return StandInEncoder() if not model_dir else load_encoder(model_dir)


class SweepCache:
    """The stand-in length sweeps one pane has computed, by (strength, seed): the 8 most
    recently used are kept (a sweep is deterministic in its arguments). Thread-safe: a
    cancelled task may still run beside the next one."""

    def __init__(self, maxsize: int = 8) -> None:
        self.sweep = lru_cache(maxsize=maxsize)(_sweep)


def _sweep(strength: float, seed: int) -> Sweep:
    return evidence_sweep(SWEEP_LENGTHS, seed=seed, strength=strength)


def compute(state: PoolingState, encoder=None, previous: PoolingResult | None = None, *,
            sweeps: SweepCache | None = None, progress=None, should_stop=None):
    """Load (if ``encoder`` is None), encode, compare, chunk and sweep; runs in a worker.

    A generator of ``(encoder, result)`` pairs: first without the sweep (``sweep`` is the
    previous one or None) so the views fill at once, then complete. Reuses ``previous``'s
    sentence encoding and sweep when their inputs did not change, and the sweeps kept in
    ``sweeps`` (the pane's; None: a fresh cache); the pane keeps the encoder.
    """
    sweeps = SweepCache() if sweeps is None else sweeps
    report = progress or (lambda f: None)
    if encoder is None:
        encoder = open_model(state.model_dir)
    report(0.1)
    sentences = state.sentences()
    if not sentences:  # the pane does not submit empty text; never encode a placeholder
        raise SubwordScopeError(EMPTY_PROMPT)
    key = (state.model_dir, tuple(sentences))
    if previous is not None and previous.key == key:
        output, comparison = previous.output, previous.comparison
    else:
        output = encoder.encode(sentences, progress=lambda f: report(0.1 + 0.5 * f), should_stop=should_stop)
        comparison = compare_methods(output.last_hidden_state, output.attention_mask)
    document, scores, error = _chunk(encoder, state, should_stop)
    report(0.8)
    sweep_key = (state.strength, state.seed)
    label = STANDIN_LABEL if not state.model_dir else str(state.model_dir)
    old_sweep = previous.sweep if previous is not None and previous.sweep_key == sweep_key else None
    result = PoolingResult(label, output, comparison, document, scores, old_sweep, error, key,
                           sweep_key if old_sweep is not None else ())
    yield encoder, result
    if old_sweep is None:
        sweep = sweeps.sweep(state.strength, state.seed)
        yield encoder, replace(result, sweep=sweep, sweep_key=sweep_key)


def _chunk(encoder, state: PoolingState, should_stop):
    try:
        doc = encoder.encode_document(state.document(), state.content, state.overlap,
                                      should_stop=should_stop)
        q = encoder.encode([state.query or "?"])
        qv = mean_pool(q.last_hidden_state, q.attention_mask)[0]
        return doc, score_chunks(doc.vectors, qv), ""
    except SubwordScopeError as exc:
        if isinstance(exc, Cancelled):  # a cancel (whatever core's error class), not a chunking error
            raise
        return None, None, str(exc)


def with_(state: PoolingState, **changes) -> PoolingState:
    """A copy of ``state`` with ``changes`` (the worker gets its own snapshot)."""
    return replace(state, **changes)
