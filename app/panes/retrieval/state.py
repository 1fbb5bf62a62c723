"""State of the Retrieval pane (no widgets, no Qt): what the user chose, and where things are.

:class:`RetrievalState` round-trips through JSON for the settings file. The corpus is a folder
of one ``.txt`` per language (one paragraph a line): the folder the user chose, else the
shared UDHR (``$SUBWORDSCOPE_DATA/udhr``), else the small sample shipped with the app. The
encoder is the model folder the user chose, else the shared MiniLM, else (or when the user
asks for it) the model-free stand-in. The work the pane's workers run is in
:mod:`app.panes.retrieval.corpus` and :mod:`app.panes.retrieval.search`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar

from app.panes.stored import StoredState
from core.data import data_dir, shared_model_dir, udhr_sample_dir
from core.retrieval import SCORINGS, default_cache_dir

METHODS = ("exact", "float16", "int8", "ivf")
METHOD_NAMES = {"exact": "Exact (float32)", "float16": "float16 codes", "int8": "int8 codes",
                "ivf": "IVF (k-means cells)"}
SCORING_NAMES = {"cosine": "Cosine (unit vectors)",
                 "raw dot": "Mistake: raw dot product, nothing normalized",
                 "query not normalized": "Mistake: corpus normalized, query not"}
SWEEP_SOURCES = ("corpus", "synthetic")
CROSS_Y = ("share", "rank")
REFERENCE = "eng"
STANDIN_NOTICE = ("No model folder found (looked for {where}): using the stand-in encoder, a fixed "
                  "random vector per word — hits share words, not meaning. Choose a model folder "
                  "for real sentence embeddings.")
MAX_K = 100
MAX_NPROBE = 4096  # IVF cells searched at most (the spin box's top before an index is built)
MAX_RERANK = 1000
MAX_TAB = 2  # three tabs: Search, Cross-lingual, Index
MAX_QUERY_CHARS = 100_000


@dataclass
class RetrievalState(StoredState):
    """What the Retrieval pane shows.

    ``corpus_folder == ""`` means the shared UDHR when present, else the bundled sample;
    ``languages == []`` means every language of the corpus; ``use_model`` with
    ``model_dir == ""`` means the shared MiniLM (the stand-in when it is absent).
    """

    query: str = "right to education"
    corpus_folder: str = ""
    languages: list = field(default_factory=list)
    use_model: bool = True
    model_dir: str = ""
    method: str = "exact"
    nprobe: int = 4
    rerank: int = 0
    k: int = 10
    scoring: str = "cosine"
    cross_k: int = 10
    cross_y: str = "share"
    sweep_source: str = "corpus"
    tab: int = 0

    # The widgets' ranges (hits_view, crosslingual_view, the pane's tabs); stored numbers out
    # of range are clamped. nprobe's spin box lowers its top to the index's cell count.
    RANGES: ClassVar[dict[str, tuple[int, int]]] = {
        "nprobe": (1, MAX_NPROBE), "rerank": (0, MAX_RERANK), "k": (1, MAX_K), "cross_k": (1, MAX_K),
        "tab": (0, MAX_TAB)}
    CLAMP: ClassVar[bool] = True
    CHOICES: ClassVar[dict[str, Any]] = {"method": METHODS, "scoring": SCORINGS, "sweep_source": SWEEP_SOURCES,
                                         "cross_y": CROSS_Y}
    LENGTHS: ClassVar[dict[str, int | None]] = {"query": MAX_QUERY_CHARS}

    @classmethod
    def checked(cls, values: dict[str, Any]) -> dict[str, Any]:
        """Only the language codes (strings) of a stored list are kept."""
        values["languages"] = [x for x in values["languages"] if isinstance(x, str)]
        return values


def with_(state: RetrievalState, **changes) -> RetrievalState:
    """A copy of ``state`` with ``changes`` (a worker gets its own snapshot)."""
    return replace(state, languages=list(state.languages), **changes)


@dataclass(frozen=True)
class CorpusSource:
    """Where the corpus comes from: ``folder`` and a label for the view."""

    folder: Path
    label: str


def corpus_source(state: RetrievalState) -> CorpusSource:
    """The folder the corpus is read from (see the module notes)."""
    if state.corpus_folder and os.path.isdir(state.corpus_folder):
        return CorpusSource(Path(state.corpus_folder), f"Folder {state.corpus_folder}")
    shared = data_dir() / "udhr"
    if shared.is_dir() and any(shared.glob("*.txt")):
        return CorpusSource(shared, f"Shared UDHR ({shared})")
    return CorpusSource(udhr_sample_dir(), "Bundled UDHR sample (12 paragraphs per language)")


def list_languages(folder: Path) -> list[str]:
    """Language codes (file stems) of the ``.txt`` files in ``folder``, sorted; the
    reference language first. A directory listing only: no file is read."""
    codes = sorted(p.stem for p in Path(folder).glob("*.txt")) if Path(folder).is_dir() else []
    return sorted(codes, key=lambda c: c != REFERENCE)


def chosen_languages(state: RetrievalState, available: list[str]) -> list[str]:
    """The languages to search: the chosen ones that exist, in ``available``'s order (all
    of them when none is chosen)."""
    chosen = [c for c in available if c in state.languages]
    return chosen or list(available)


def model_folder(state: RetrievalState, found: str | None = None) -> str | None:
    """The model folder to load, or None for the stand-in: the chosen folder, else the
    shared MiniLM, else ``found`` (the encoder found in the Hugging Face cache, see
    :mod:`core.encoder.sources`)."""
    if not state.use_model:
        return None
    if state.model_dir and os.path.isdir(state.model_dir):
        return state.model_dir
    shared = shared_model_dir()
    return found if shared is None else str(shared)


def standin_notice(state: RetrievalState, found: str | None = None) -> str:
    """Why the stand-in is used although a model was asked for ("" when it was not)."""
    if not state.use_model or model_folder(state, found) is not None:
        return ""
    return STANDIN_NOTICE.format(where=state.model_dir or data_dir() / "models" / "all-MiniLM-L6-v2")


def embedding_cache_dir() -> Path:
    """Where corpus embeddings are cached: ``$SUBWORDSCOPE_CONFIG_DIR/embeddings`` when that
    override is set (tests, portable set-ups), else the user cache folder."""
    env = os.environ.get("SUBWORDSCOPE_CONFIG_DIR")
    return Path(env) / "embeddings" if env else default_cache_dir()
