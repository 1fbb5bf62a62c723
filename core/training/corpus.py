"""Word counts for training: the built-in corpus, pasted text, a file, or a folder of files.

Two pre-tokenizers split text into words before counting:

- the default splits on whitespace and punctuation: a word is a run of letters, marks, digits
  and underscores (``[\\p{L}\\p{M}\\p{N}_]+``), and every other non-space character is a word
  on its own (like BERT's basic tokenizer, without lowercasing);
- ``byte_level=True`` uses GPT-2's pattern (``encoder.py`` of openai/gpt-2), which keeps a leading space on a word (`` low``);
  a byte-level trainer then writes that space as ``Ġ``.

Counts are returned as a ``dict`` in order of first occurrence (the corpus order the
``"first"`` tie-break rule relies on).
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import regex

from core.tokenizers.bytelevel import split_pattern
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
    """Count the words of a UTF-8 text file (undecodable bytes become U+FFFD).

    ``progress`` gets the fraction of lines done; when ``should_stop()`` turns true the
    counts so far are returned. Raises :class:`TrainingError` when the file cannot be read.
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


def word_counts_from_folder(folder: str | Path, *, pattern: str = "*.txt",
                            byte_level: bool = False, progress: Progress = None,
                            should_stop: ShouldStop = None) -> dict[str, int]:
    """Count the words of every ``pattern`` file under ``folder`` in path order.

    ``progress`` gets the fraction of bytes read; when ``should_stop()`` turns true the
    counts so far are returned. Raises :class:`TrainingError` as :func:`text_files` does.
    """
    files = text_files(folder, pattern)
    sizes = [max(1, p.stat().st_size) for p in files]
    total, done, out = sum(sizes), 0, {}
    for path, size in zip(files, sizes):
        if should_stop is not None and should_stop():
            break
        word_counts(_read(path), byte_level=byte_level, counts=out)
        done += size
        if progress is not None:
            progress(done / total)
    return out


def _read(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8", errors="replace")
    except OSError as exc:
        raise TrainingError(f"cannot read {path}: {exc.strerror or exc}") from exc
