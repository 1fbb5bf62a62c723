"""Word counts for training: the built-in corpus, pasted text, a file, or a folder of files.

Two pre-tokenizers split text into words before counting:

- the default splits on whitespace and punctuation: a word is a run of letters, marks, digits
  and underscores (``[\\p{L}\\p{M}\\p{N}_]+``), and every other non-space character is a word
  on its own (like BERT's basic tokenizer, without lowercasing);
- ``byte_level=True`` uses GPT-2's pattern (``encoder.py`` of openai/gpt-2), which keeps a leading space on a word (`` low``);
  a byte-level trainer then writes that space as ``Ġ``.

Counts are returned as a ``dict`` in order of first occurrence (the corpus order the
``"first"`` tie-break rule relies on). Files are read with :func:`core.text.files.read_text_file`:
a file that is not UTF-8 text is an error for :func:`word_counts_from_file` and is skipped (and
listed in :attr:`CorpusCounts.skipped`) by :func:`word_counts_from_folder`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import regex

from core.text.files import TextFileError, read_text_file
from core.tokenizers.pre_tokenizers.split_patterns import split_pattern
from core.training.symbols import TrainingError

#: The example corpus of Sennrich et al. (2016), Algorithm 1 (SPEC §4).
SENNRICH_CORPUS: dict[str, int] = {"low": 5, "lower": 2, "newest": 6, "widest": 3}

WORD_PATTERN = r"[\p{L}\p{M}\p{N}_]+|[^\s\p{L}\p{M}\p{N}_]"

_WORD_RE = regex.compile(WORD_PATTERN)
_GPT2_RE = regex.compile(split_pattern("gpt2"))

Progress = Callable[[float], None] | None
ShouldStop = Callable[[], bool] | None


def pretokenize(text: str, *, byte_level: bool = False) -> list[str]:
    """Split ``text`` into words (see the module docstring); whitespace-only pieces of the
    byte-level pattern are kept, the default pre-tokenizer drops whitespace."""
    return (_GPT2_RE if byte_level else _WORD_RE).findall(text)


def word_counts(text: str, *, byte_level: bool = False,
                counts: dict[str, int] | None = None) -> dict[str, int]:
    """Count the words of ``text`` (added to ``counts`` when given), in first-occurrence order."""
    out = {} if counts is None else counts
    for word in pretokenize(text, byte_level=byte_level):
        out[word] = out.get(word, 0) + 1
    return out


def word_counts_from_file(path: str | Path, *, byte_level: bool = False,
                          progress: Progress = None, should_stop: ShouldStop = None,
                          counts: dict[str, int] | None = None) -> dict[str, int]:
    """Count the words of a UTF-8 text file.

    ``progress`` gets the fraction of lines done; when ``should_stop()`` turns true the
    counts so far are returned. Raises :class:`TrainingError` when the file cannot be read
    or is not UTF-8 text (:func:`core.text.files.read_text_file`; the message names the file).
    """
    out = {} if counts is None else counts
    lines = _read(Path(path)).splitlines(keepends=True)
    for i, line in enumerate(lines):
        if should_stop is not None and i % 200 == 0 and should_stop():
            break
        word_counts(line, byte_level=byte_level, counts=out)
        if progress is not None and i % 500 == 499:
            progress((i + 1) / len(lines))
    if progress is not None:
        progress(1.0)
    return out


def text_files(folder: str | Path, pattern: str = "*.txt") -> list[Path]:
    """Files matching ``pattern`` under ``folder`` (recursively), sorted by path.

    Raises :class:`TrainingError` when ``folder`` is not a folder or holds no such file.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise TrainingError(f"{folder} is not a folder")
    files = sorted(p for p in folder.rglob(pattern) if p.is_file())
    if not files:
        raise TrainingError(f"no {pattern} files in {folder}")
    return files


@dataclass(frozen=True)
class SkippedFile:
    """A file :func:`word_counts_from_folder` left out, and why (``reason`` names the file)."""

    path: str
    reason: str


class CorpusCounts(dict):
    """Word counts (a ``dict``, first-occurrence order) of a folder, plus what was left out.

    Attributes
    ----------
    files : tuple of str
        The files whose words were counted, in path order.
    skipped : tuple of SkippedFile
        Files that were not UTF-8 text (or could not be read), in path order.
    """

    def __init__(self, counts: dict[str, int], files: tuple[str, ...], skipped: tuple[SkippedFile, ...]):
        super().__init__(counts)
        self.files = files
        self.skipped = skipped


def word_counts_from_folder(folder: str | Path, *, pattern: str = "*.txt",
                            byte_level: bool = False, progress: Progress = None,
                            should_stop: ShouldStop = None) -> CorpusCounts:
    """Count the words of every ``pattern`` file under ``folder`` in path order.

    Files that are not UTF-8 text (:func:`core.text.files.read_text_file`) or cannot be read
    are skipped and listed in the result's ``skipped``. ``progress`` gets the fraction of
    bytes read; when ``should_stop()`` turns true the counts so far are returned.

    Raises
    ------
    TrainingError
        As :func:`text_files` does, or when every file was skipped (the message names them).
    """
    files = text_files(folder, pattern)
    sizes = [max(1, p.stat().st_size) for p in files]
    total, done, out, used, skipped = sum(sizes), 0, {}, [], []
    for path, size in zip(files, sizes):
        if should_stop is not None and should_stop():
            break
        try:
            word_counts(read_text_file(path), byte_level=byte_level, counts=out)
            used.append(str(path))
        except TextFileError as exc:
            skipped.append(SkippedFile(str(path), str(exc)))
        done += size
        if progress is not None:
            progress(done / total)
    if skipped and not used:
        names = ", ".join(Path(s.path).name for s in skipped[:5]) + (", ..." if len(skipped) > 5 else "")
        raise TrainingError(f"no {pattern} file in {folder} is UTF-8 text ({names}); {skipped[0].reason}")
    return CorpusCounts(out, tuple(used), tuple(skipped))


def _read(path: Path) -> str:
    """:func:`core.text.files.read_text_file`, its errors as :class:`TrainingError`."""
    try:
        return read_text_file(path)
    except TextFileError as exc:
        raise TrainingError(str(exc)) from exc
