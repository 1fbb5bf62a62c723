"""The parallel texts of the Merges ▸ Languages tab and the training it runs in the worker
(no Qt in here).

The texts are the UDHR translations, one paragraph a line: the 29 of the shared data folder
(``<SUBWORDSCOPE_DATA>/udhr``) when present, else the 16-language sample the app ships
(``resources/udhr_sample``). :func:`train_both` builds a classic and a parity-aware
:class:`~core.training.parity.MultilingualBpeTrainer` on the chosen languages and runs both to
``n`` merges.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from core.data import udhr_files, udhr_sample_dir
from core.text.files import TextFileError, read_text_file
from core.text.scripts import language_name
from core.training.corpus import word_counts
from core.training.parity import MultilingualBpeTrainer
from core.training.symbols import TrainingError

SAMPLE_WORDS = 4  # words of the text shown beside a language's name


@dataclass(frozen=True)
class ParallelText:
    """One language's text: its code (the file stem), English name, file and first words."""

    code: str
    name: str
    path: str
    sample: str


def parallel_texts() -> tuple[str, list[ParallelText]]:
    """A description of the collection in use and its texts, sorted by code: the shared
    ``udhr/`` folder when present, else the shipped sample. O(files) small reads."""
    files = udhr_files()
    what = f"shared UDHR ({len(files)} languages)"
    if not files:
        files = sorted(udhr_sample_dir().glob("*.txt"))
        what = f"shipped UDHR sample ({len(files)} languages)"
    texts = []
    for p in files:
        try:
            first = read_text_file(p).split(maxsplit=SAMPLE_WORDS)[:SAMPLE_WORDS]
        except TextFileError:
            continue
        texts.append(ParallelText(p.stem, language_name(p.stem), str(p), " ".join(first)))
    return what, texts


@dataclass(frozen=True)
class PairResult:
    """What :func:`train_both` returns: the languages (codes, in order) and both trainers."""

    codes: tuple[str, ...]
    classic: MultilingualBpeTrainer
    parity: MultilingualBpeTrainer


def train_both(texts: list[ParallelText], n: int, normalization: str = "parallel", *,
               progress: Callable[[float], None] | None = None,
               should_stop: Callable[[], bool] | None = None) -> PairResult:
    """Count each text's words, build a classic and a parity-aware trainer and run both to
    ``n`` merges (progress: counting 10 %, each trainer 45 %).

    Raises :class:`TrainingError` for no text, a file that cannot be read (named), or a
    setting the trainer refuses."""
    if not texts:
        raise TrainingError("tick at least one language to train on")
    corpora = {}
    for t in texts:
        try:
            corpora[t.code] = word_counts(read_text_file(Path(t.path)))
        except TextFileError as exc:
            raise TrainingError(str(exc)) from exc
    if progress is not None:
        progress(0.1)
    out = []
    for i, strategy in enumerate(("classic", "parity")):
        trainer = MultilingualBpeTrainer(corpora, strategy=strategy, normalization=normalization)
        lo = 0.1 + 0.45 * i
        trainer.run_to(n, should_stop=should_stop,
                       progress=None if progress is None else (lambda f, lo=lo: progress(lo + 0.45 * f)))
        out.append(trainer)
    return PairResult(tuple(corpora), *out)
