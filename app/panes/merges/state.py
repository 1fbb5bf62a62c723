"""State of the Merges pane and the worker-side functions it runs (no Qt in here).

:class:`MergesState` is everything the pane remembers and renders from (besides the trainer
itself); :func:`load_and_train`, :func:`load_replay_table` and
:meth:`~core.training.replay.MergeTable.from_tokenizer` are the slow parts, run through
the pane's :class:`~app.workers.TaskRunner` with ``progress`` / ``should_stop``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable, ClassVar

from app.panes.stored import StoredState
from app.widgets.text_format import plural
from core.training.bpe import BpeTrainer, train_bpe
from core.training.corpus import (
    SENNRICH_CORPUS,
    word_counts,
    word_counts_from_file,
    word_counts_from_folder,
)
from core.tokenizers import load
from core.training.replay import MergeTable
from core.training.symbols import MARKERS, TIE_BREAKS, TrainingError

SOURCES = ("builtin", "text", "file", "folder")
MAX_TARGET = 5000  # the merge slider's and spin box's top (app/panes/merges/controls.py)
SOURCE_LABELS = ("Built-in (Sennrich)", "Pasted text", "Text file", "Folder of .txt files")
MARKER_LABELS = ("end-of-word </w>", "continuation ##", "byte-level (GPT-2)")
TIE_LABELS = ("first in corpus", "alphabetical: smallest", "alphabetical: largest")
DEFAULT_TEXT = "low low low low low lower lower newest newest newest newest newest newest " \
               "widest widest widest"
REPLAY_TEXT = "lowest newer tokenization"  # no hidden leading space: the first word shows bare
_OLD_REPLAY_TEXT = " lowest newer tokenization"  # the earlier default, still in old settings
DIGITS_TEXT = "1234 1235 12345 2026 44444 1000000"  # the Digits tab's first text
MAX_TEXT_CHARS = 2_000_000  # code points of a stored training text or Unigram vocabulary
MAX_LINE_CHARS = 100_000  # code points of a stored word list or replay text


@dataclass
class UnigramInputs(StoredState):
    """The Unigram tab's inputs, kept in :attr:`MergesState.unigram` (``vocab == ""``: the
    built-in vocabulary); its spin boxes take their ranges from :attr:`RANGES`."""

    word: str = "lowest"
    max_len: int = 5
    n_best: int = 5
    vocab: str = ""
    trained: bool = False  # the vocabulary trained by EM on the pane's corpus instead of ``vocab``
    target_size: int = 17
    em_steps: int = 0  # training steps done after the seed vocabulary
    alpha: float = 1.0  # sampling exponent (subword regularisation)
    seed: int = 0
    draws: int = 10

    RANGES: ClassVar[dict[str, tuple[int, int]]] = {
        "max_len": (1, 32), "n_best": (1, 50), "target_size": (1, 5000), "em_steps": (0, 10_000),
        "alpha": (0.05, 50.0), "seed": (0, 2_147_483_647), "draws": (1, 1000)}
    LENGTHS: ClassVar[dict[str, int | None]] = {"word": MAX_LINE_CHARS, "vocab": MAX_TEXT_CHARS}


@dataclass
class MergesState(StoredState):
    """What the Merges pane shows and remembers between runs."""

    source: str = "builtin"
    path: str = ""
    text: str = DEFAULT_TEXT
    marker: str = "</w>"
    tie_break: str = "first"
    target: int = 8
    heldout: str = "lowest newer lowlow"
    unigram: dict | None = None
    replay_path: str = ""
    replay_text: str = REPLAY_TEXT
    replay_readable: bool = True
    tab: int = 0
    languages: dict | None = None  # the Languages tab's (checked by LanguagesView)
    digits_text: str = DIGITS_TEXT

    RANGES: ClassVar[dict[str, tuple[int, int]]] = {"target": (0, MAX_TARGET), "tab": (0, 9)}

    CHOICES: ClassVar[dict[str, Any]] = {"source": SOURCES, "marker": MARKERS, "tie_break": TIE_BREAKS}
    LENGTHS: ClassVar[dict[str, int | None]] = {"text": MAX_TEXT_CHARS, "heldout": MAX_LINE_CHARS,
                                                "replay_text": MAX_LINE_CHARS}

    @classmethod
    def checked(cls, values: dict[str, Any]) -> dict[str, Any]:
        """The Unigram inputs are checked as :class:`UnigramInputs` (only the keys stored are
        kept); the earlier default replay text becomes today's."""
        unigram = values["unigram"]
        if isinstance(unigram, dict):
            inputs = UnigramInputs.from_dict(unigram).to_dict()
            values["unigram"] = {k: v for k, v in inputs.items() if k in unigram}
        else:
            values["unigram"] = None
        if values["replay_text"] == _OLD_REPLAY_TEXT:
            values["replay_text"] = REPLAY_TEXT
        return values


@dataclass(frozen=True)
class TrainResult:
    """What a training task returns: the corpus counts and a trainer run to the target."""

    counts: dict[str, int]
    trainer: BpeTrainer
    description: str


def corpus_counts(state: MergesState, *, progress: Callable[[float], None] | None = None,
                  should_stop: Callable[[], bool] | None = None) -> tuple[dict[str, int], str]:
    """Word counts of the state's corpus source and a short description of it.

    Raises :class:`TrainingError` when the source gives no words.
    """
    byte_level = state.marker == "byte"
    if state.source == "folder":
        counts = word_counts_from_folder(state.path, byte_level=byte_level, progress=progress,
                                         should_stop=should_stop)
        what = f"folder {state.path}"
    elif state.source == "file":
        counts = word_counts_from_file(state.path, byte_level=byte_level, progress=progress,
                                       should_stop=should_stop)
        what = f"file {state.path}"
    elif state.source == "text":
        counts, what = word_counts(state.text, byte_level=byte_level), "pasted text"
    else:
        counts, what = dict(SENNRICH_CORPUS), "Sennrich et al. example"
    if not counts:
        raise TrainingError(f"no words in the {what}: add some text")
    return counts, what


def load_and_train(state: MergesState, n: int, counts: dict[str, int] | None = None, *,
                   description: str = "", progress: Callable[[float], None] | None = None,
                   should_stop: Callable[[], bool] | None = None) -> TrainResult:
    """Count the corpus words (unless ``counts`` is given) and run ``n`` merges.

    Progress: counting is the first half, training the second. ``description`` names a
    corpus passed as ``counts``.
    """
    def part(lo: float, hi: float):
        return None if progress is None else (lambda f: progress(lo + (hi - lo) * f))

    what = description or "corpus"
    if counts is None:
        counts, what = corpus_counts(state, progress=part(0.0, 0.5), should_stop=should_stop)
    trainer = train_bpe(counts, n, tie_break=state.tie_break, marker=state.marker,
                        progress=part(0.5, 1.0), should_stop=should_stop)
    return TrainResult(counts, trainer, what)


def skipped_note(counts: dict) -> str:
    """A line naming the folder's files that were left out of the counts (not UTF-8 text or
    unreadable; ``core.training.corpus`` lists them in ``counts.skipped``), "" when none."""
    skipped = getattr(counts, "skipped", ())
    if not skipped:
        return ""
    names = ", ".join(os.path.basename(f.path) for f in skipped[:3]) + (", …" if len(skipped) > 3 else "")
    first = skipped[0]
    reason = first.reason.removeprefix(f"{first.path}: ")
    return f"Skipped {plural(len(skipped), 'file')} that {'is' if len(skipped) == 1 else 'are'} " \
           f"not UTF-8 text: {names} ({os.path.basename(first.path)}: {reason})."


def load_replay_table(path: str, should_stop: Callable[[], bool] | None = None) -> MergeTable:
    """Load a byte-level BPE tokenizer file with :func:`core.tokenizers.load` and take its
    merge table (a rank file's vocabulary is used as it is: no merge list is derived).

    Raises :class:`~core.errors.TokenizerLoadError` for unreadable files and tokenizers that
    are not byte-level BPE.
    """
    return MergeTable.from_tokenizer(load(path), should_stop)
