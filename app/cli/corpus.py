"""A corpus folder read in pieces: ``<lang>.txt`` files cut into line-aligned byte chunks.

``compare`` and ``audit`` never hold a corpus in memory: :func:`plan_chunks` only looks at
file sizes and seeks to line starts, and each worker reads its own chunk line by line
(:func:`read_chunk`). The lines are those of :func:`core.metrics.load_corpus` — each file's
text split with ``str.splitlines`` (a byte-order mark at the start dropped), blank lines left
out — so the counts equal the Compare pane's. A file is text by the rule of
:mod:`core.text.files` (UTF-8, no NUL, at most :data:`MAX_CONTROL_SHARE` control characters),
checked per chunk instead of per file, without the size cap.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from core.errors import SubwordScopeError
from core.text.files import MAX_CONTROL_SHARE, check_regular_file

CHUNK_BYTES = 1 << 20
"""Default chunk size: 1 MiB of a file (cut at the next line start)."""

NO_CAP = 1 << 62  # corpus files are streamed: no size limit
_CONTROL = re.compile("[\x00-\x08\x0e-\x1f\x7f]")  # as core.text.files counts them


class CorpusError(SubwordScopeError):
    """A corpus folder or file the commands cannot read (the message names it)."""


@dataclass(frozen=True)
class Chunk:
    """Bytes ``[start, end)`` of one language's file, both at line starts.

    ``number`` orders chunks across the corpus (file by file, then by position); ``part`` is
    the chunk's index within its file.
    """

    number: int
    language: str
    path: str
    part: int
    start: int
    end: int

    @property
    def size(self) -> int:
        return self.end - self.start


def corpus_files(folder: str | Path) -> list[Path]:
    """The ``*.txt`` files of ``folder`` sorted by name (absolute paths), each checked to be a
    regular file.

    Raises
    ------
    CorpusError
        The folder does not exist or holds no ``.txt`` file.
    core.text.files.TextFileError
        A ``.txt`` entry is a folder, FIFO or device.
    """
    root = Path(folder).expanduser().resolve()
    if not root.is_dir():
        raise CorpusError(f"{folder}: not a folder; give a folder of one .txt file per language")
    files = sorted(root.glob("*.txt"))
    if not files:
        raise CorpusError(f"{folder}: no .txt files; the corpus needs one text file per language")
    for path in files:
        check_regular_file(path, NO_CAP)
    return files


def plan_chunks(files: list[Path], chunk_bytes: int = CHUNK_BYTES) -> list[Chunk]:
    """Cut each file into chunks of about ``chunk_bytes`` bytes ending at line starts.

    Reads one line per cut (to find the next line start): O(chunks) seeks, never the whole
    file.
    """
    chunks: list[Chunk] = []
    for path in files:
        size = path.stat().st_size
        cuts = [0]
        with path.open("rb") as fh:
            while cuts[-1] + chunk_bytes < size:
                fh.seek(cuts[-1] + chunk_bytes - 1)
                fh.readline()
                cuts.append(min(fh.tell(), size))
        if cuts[-1] < size or size == 0:
            cuts.append(size)
        for part, (a, b) in enumerate(zip(cuts, cuts[1:])):
            chunks.append(Chunk(len(chunks), path.stem, str(path), part, a, b))
    return chunks


def read_chunk(chunk: Chunk) -> tuple[list[tuple[int, str]], int]:
    """The non-blank lines of the chunk as ``(line, text)`` pairs, and how many
    newline-terminated lines it has (a last line without newline counts). ``line`` counts
    from 1 within the chunk: add the lines of the file's earlier chunks for the line number
    in the file. O(bytes of the chunk); only the chunk is held in memory.

    Raises
    ------
    CorpusError
        A line is not UTF-8 (a lone surrogate's bytes included), holds a NUL, or the chunk
        holds more than :data:`MAX_CONTROL_SHARE` control characters.
    """
    controls = characters = number = 0
    lines: list[tuple[int, str]] = []
    with open(chunk.path, "rb") as fh:
        fh.seek(chunk.start)
        pos = chunk.start
        while pos < chunk.end:
            raw = fh.readline()
            if not raw:
                break
            text = _decode(raw, chunk, pos)
            if pos == 0:
                text = text.removeprefix("\ufeff")
            pos, number = pos + len(raw), number + 1
            if not text.isprintable():
                controls += len(_CONTROL.findall(text))
            characters += len(text)
            lines.extend((number, line) for line in text.splitlines() if line.strip())
    if controls > MAX_CONTROL_SHARE * max(characters, 1):
        raise CorpusError(f"{chunk.path}: not UTF-8 text ({controls:,} control characters in "
                          f"{characters:,}); it looks like a binary file")
    return lines, number


def _decode(raw: bytes, chunk: Chunk, pos: int) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CorpusError(f"{chunk.path}: not UTF-8 text ({exc.reason} at byte {pos + exc.start}); "
                          "save it as UTF-8 or remove it") from None
    if "\x00" in text:
        raise CorpusError(f"{chunk.path}: not UTF-8 text (NUL character at byte "
                          f"{pos + raw.index(0)}); it looks like a binary file or UTF-16 text")
    return text
