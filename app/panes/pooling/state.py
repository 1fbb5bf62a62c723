"""State of the pooling pane and the work its worker runs (no widgets here).

:class:`PoolingState` is what the user chose (text, model folder, pooling method, padding and
chunking settings); it round-trips through JSON for the settings file. :func:`compute` is the
one job the pane's :class:`~app.workers.TaskRunner` runs: it loads the model when needed, runs
the encoder on the sentences and the chunked document, and gathers every number the views
draw into a :class:`PoolingResult`. All numbers come from ``core``. The stand-in length sweeps
a pane has computed are kept in its :class:`SweepCache`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, ClassVar
from functools import lru_cache

import numpy as np

from app.panes.stored import StoredState
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
MAX_DOCUMENT_TOKENS = 4096  # the Chunking tab reads at most this many of the document's tokens
MAX_SHOWN_CHARS = 20_000  # code points of a sentence or the document drawn in a text view
WINDOW_IMAGE_MAX = (512, 2048)  # (rows, cols) of the Chunking tab's window image at most
STANDIN_LABEL = "Synthetic stand-in (no model)"
MAX_QUERY_CHARS = 100_000  # code points of a stored query
EMPTY_PROMPT = "Type or paste a sentence (one per line) to encode it."


@dataclass
class PoolingState(StoredState):
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

    # The controls' ranges (app/panes/pooling/controls.py takes them from here).
    RANGES: ClassVar[dict[str, tuple[float, float]]] = {
        "sentence": (0, MAX_SENTENCES - 1), "pad_length": (1, 4096), "content": (1, 510),
        "overlap": (0, 509), "strength": (0.0, 20.0), "seed": (0, 10**6)}
    CHOICES: ClassVar[dict[str, Any]] = {"method": METHODS}
    LENGTHS: ClassVar[dict[str, int | None]] = {"text": None, "query": MAX_QUERY_CHARS}

    @classmethod
    def checked(cls, values: dict[str, Any]) -> dict[str, Any]:
        """The overlap stays below the window's content."""
        values["overlap"] = max(0, min(values["overlap"], values["content"] - 1))
        return values


@dataclass(frozen=True)
class WindowImage:
    """Windows on the token axis, binned to at most :data:`WINDOW_IMAGE_MAX` cells.

    Attributes
    ----------
    image : (rows, cols) float ndarray — cell ``(r, c)`` is the highest score of the windows
        ``r*dy .. (r+1)*dy - 1`` that hold a token in ``c*dx .. (c+1)*dx - 1``; nan where none.
    dx : int — tokens per column (1 when the document fits).
    dy : int — windows per row (1 when they fit).
    """

    image: np.ndarray
    dx: int = 1
    dy: int = 1


def window_image(windows, scores, n_tokens: int, max_cells: tuple[int, int] = WINDOW_IMAGE_MAX) -> WindowImage:
    """The :class:`WindowImage` of ``windows`` (half-open token ranges) coloured by ``scores``
    (one per window) over ``n_tokens`` tokens, at most ``max_cells = (rows, cols)`` cells:
    O(rows · cols + len(windows)) whatever the document's length."""
    k = len(windows)
    dy = max(1, -(-k // max_cells[0]))
    dx = max(1, -(-n_tokens // max_cells[1]))
    img = np.full((-(-k // dy), -(-n_tokens // dx)), np.nan)
    for j, ((s, e), p) in enumerate(zip(windows, scores)):
        row = img[j // dy, s // dx:(e - 1) // dx + 1]
        np.fmax(row, p, out=row)
    return WindowImage(img, dx, dy)


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
    texts : tuple[str, ...] — per sentence, the part the views draw: up to the end of the
        last token the model read, at most :data:`MAX_SHOWN_CHARS` code points.
    notices : tuple[str, ...] — what was cut ("first N tokens of M — …"), for the pane.
    window_image : WindowImage | None — the Chunking tab's image (None with ``chunk_error``).
    cover : (len(document.text),) int ndarray | None — windows covering each character.
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
    texts: tuple = ()
    notices: tuple = ()
    window_image: WindowImage | None = None
    cover: np.ndarray | None = None


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
    texts, notices = read_parts(output)
    document, scores, error, doc_notice = _chunk(encoder, state, should_stop)
    report(0.8)
    image = cover = None
    if document is not None:
        image = window_image(document.windows, scores.probabilities, len(document.tokens))
        cover = window_cover(len(document.text), document.char_spans)
    sweep_key = (state.strength, state.seed)
    label = STANDIN_LABEL if not state.model_dir else str(state.model_dir)
    old_sweep = previous.sweep if previous is not None and previous.sweep_key == sweep_key else None
    result = PoolingResult(label, output, comparison, document, scores, old_sweep, error, key,
                           sweep_key if old_sweep is not None else (), texts,
                           notices + ((doc_notice,) if doc_notice else ()), image, cover)
    yield encoder, result
    if old_sweep is None:
        sweep = sweeps.sweep(state.strength, state.seed)
        yield encoder, replace(result, sweep=sweep, sweep_key=sweep_key)


def read_parts(output: EncoderOutput) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Per sentence, the text the views draw (up to the end of the last token the model read,
    at most :data:`MAX_SHOWN_CHARS` code points), and the notices saying what was cut:
    "Sentence 1: first 512 tokens of 66,002 — the model reads at most 512." O(tokens read)."""
    texts, cut_rows = [], []
    for b, text in enumerate(output.texts):
        cut = output.truncated[b] if output.truncated else 0
        end = len(text)
        if cut:
            end = max((e for _, e in output.offsets[b]), default=0)
            cut_rows.append(b)
        texts.append(text[:min(end, MAX_SHOWN_CHARS)])
    notices = []
    if cut_rows:
        n = len(output.tokens[cut_rows[0]])  # every cut sentence keeps the model's maximum
        totals = [len(output.tokens[b]) + output.truncated[b] for b in cut_rows]
        if len(cut_rows) == 1:
            head = f"Sentence {cut_rows[0] + 1}: first {n:,} tokens of {totals[0]:,}"
        else:
            shown = ", ".join(str(b + 1) for b in cut_rows[:8]) + (", …" if len(cut_rows) > 8 else "")
            head = (f"Sentences {shown}: first {n:,} tokens of each (the longest has "
                    f"{max(totals):,})")
        notices.append(f"{head} — the model reads at most {n:,}.")
    long_rows = [b for b, t in enumerate(texts) if len(t) == MAX_SHOWN_CHARS < len(output.texts[b])]
    if long_rows:
        notices.append(f"Sentence {long_rows[0] + 1}: the Tokens tab shows its first "
                       f"{MAX_SHOWN_CHARS:,} characters.")
    return tuple(texts), tuple(notices)


def document_part(encoder, text: str, limit: int = MAX_DOCUMENT_TOKENS,
                  max_chars: int = MAX_SHOWN_CHARS) -> tuple[str, str]:
    """The start of ``text`` the Chunking tab reads: at most its first ``limit`` tokens and
    ``max_chars`` code points; and a notice when that is not all of it ("" otherwise).
    Tokenizes the text (in the worker); never runs the model on it."""
    counted = _token_ends(encoder, text, limit)
    if counted is None:  # an encoder we cannot count on: only the character limit applies
        return text[:max_chars], ("" if len(text) <= max_chars else
                                  f"Chunking: first {max_chars:,} characters of {len(text):,}.")
    total, ends = counted
    if total <= limit and (not ends or ends[-1] <= max_chars):
        return text[:max_chars], ""  # every token fits (what follows the last one is no token)
    keep = sum(1 for e in ends if e <= max_chars) if ends[-1] > max_chars else len(ends)
    part = text[:ends[keep - 1]] if keep else text[:max_chars]
    # a cut inside a word may re-tokenize into more pieces: back off until the part fits
    back = 1
    while keep > 1 and _token_ends(encoder, part, limit)[0] > keep:
        keep = max(1, keep - back)
        part, back = text[:ends[keep - 1]], 2 * back
    if keep < min(limit, total) or not keep:
        return part, (f"Chunking: first {keep:,} tokens of {total:,} (at most {max_chars:,} characters) — "
                      f"the Chunking tab reads at most {limit:,} tokens and {max_chars:,} characters.")
    return part, f"Chunking: first {keep:,} tokens of {total:,} — the Chunking tab reads at most {limit:,}."


def _token_ends(encoder, text: str, limit: int):
    """``(total tokens, end offsets of the first ``limit``)`` of ``text`` without specials, or
    None when ``encoder`` offers no way to tokenize it."""
    if isinstance(encoder, StandInEncoder):  # its own words: ask for limit of them (+ specials)
        probe = StandInEncoder(encoder.dim, encoder.seed, max_tokens=limit + 2)
        out = probe.encode([text])
        ends = [e for _, e in out.offsets[0][1:-1]]
        return len(ends) + out.truncated[0], ends
    tokenizer = getattr(encoder, "tokenizer", None)
    if tokenizer is None:
        return None
    enc = tokenizer.encode(text, add_special_tokens=False)
    mask = getattr(enc, "attention_mask", None) or [1] * len(enc.ids)
    ends = [int(o[1]) for o, m in zip(enc.offsets, mask) if m]
    return len(ends), ends[:limit]


def window_cover(n_chars: int, char_spans) -> np.ndarray:
    """How many windows cover each of ``n_chars`` code points (``char_spans``: half-open)."""
    diff = np.zeros(n_chars + 1, dtype=np.int64)
    for s, e in char_spans:
        diff[s] += 1
        diff[e] -= 1
    return np.cumsum(diff[:-1])


def _chunk(encoder, state: PoolingState, should_stop):
    try:
        text, notice = document_part(encoder, state.document())
        doc = encoder.encode_document(text, state.content, state.overlap, should_stop=should_stop)
        q = encoder.encode([state.query or "?"])
        qv = mean_pool(q.last_hidden_state, q.attention_mask)[0]
        return doc, score_chunks(doc.vectors, qv), "", notice
    except SubwordScopeError as exc:
        if isinstance(exc, Cancelled):  # a cancel (whatever core's error class), not a chunking error
            raise
        return None, None, str(exc), ""


def with_(state: PoolingState, **changes) -> PoolingState:
    """A copy of ``state`` with ``changes`` (the worker gets its own snapshot)."""
    return replace(state, **changes)
