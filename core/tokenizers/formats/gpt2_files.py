"""GPT-2 style ``vocab.json`` + ``merges.txt``: the file readers and the loader.

``vocab.json`` is one JSON object mapping token to id. ``merges.txt`` has one merge a line,
two tokens separated by exactly one space, in rank order; lines starting with ``#version``
(GPT-2's ``#version: 0.2`` header) are skipped, as the ``tokenizers`` library does. Tokens are
in the GPT-2 byte-level alphabet (``Ġ`` for the space byte), so the files describe byte-level
BPE; text is split with
:data:`core.tokenizers.pre_tokenizers.split_patterns.GPT2_PATTERN` first.

Public names: :func:`read_vocab_json`, :func:`read_merges_txt`, :func:`load_gpt2_files` (the
model), :func:`load_gpt2` (the tokenizer).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.errors import TokenizerLoadError
from core.tokenizers.added_tokens import AddedToken
from core.tokenizers.decoders import ByteLevel as ByteLevelDecoder
from core.tokenizers.formats._files import display_name, read_bytes
from core.tokenizers.formats._json import MAX_ID, check_id, key_path, parsed_and_checked
from core.tokenizers.models.bpe import BPE
from core.tokenizers.models.bpe_build import MergeError, check_vocab
from core.tokenizers.pre_tokenizers.byte_level import ByteLevel
from core.tokenizers.processors.byte_level import ByteLevelProcessing
from core.tokenizers.tokenizer import Tokenizer
from core.tokenizers.surrogates import REFUSE


def _read_text(path: Path) -> str:
    """The file's text (strict UTF-8); errors name the line of a bad byte."""
    data = read_bytes(path)
    if not data.strip():
        raise TokenizerLoadError("the file is empty", path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise TokenizerLoadError(
            f"line {line}: byte 0x{data[exc.start]:02X} is not valid UTF-8 (is this a "
            "binary file?)", path) from None


def read_vocab_json(path: str | Path) -> dict[str, int]:
    """Read a ``vocab.json`` (token → id).

    Raises
    ------
    TokenizerLoadError
        Not a regular file or too large (checked before reading), unreadable, empty, not
        UTF-8, not JSON (with line and column), nested too deep, not an object.
    TokenizerFieldError
        An entry whose id is not an integer from 0 to ``MAX_ID`` or not finite (its path,
        ``["token"]``, and value are named).
    """
    path = Path(path)
    return parsed_and_checked(_read_text(path), str(path), lambda doc: _checked_vocab(doc, path),
                              token_map=True)


def _checked_vocab(vocab: Any, path: Path) -> dict[str, int]:
    """``vocab`` (a parsed ``vocab.json``) checked: an object of token -> id in range."""
    if isinstance(vocab, dict) and vocab:
        ids = vocab.values()
        if set(map(type, ids)) != {int} or min(ids) < 0 or max(ids) > MAX_ID:  # (C-level passes)
            for token, i in vocab.items():  # name the first bad entry
                check_id(i, key_path("", token), str(path))
    return check_vocab(vocab, str(path))


def _read_merges(path: Path) -> tuple[list[tuple[str, str]], list[int]]:
    lines = _read_text(path).split("\n")
    if lines[-1] == "":
        lines.pop()
    merges: list[tuple[str, str]] = []
    line_numbers: list[int] = []
    for n, line in enumerate(lines, 1):
        line = line.removesuffix("\r")
        if line.startswith("#version"):
            continue
        pair = line.split(" ")
        if len(pair) != 2 or not all(pair):
            raise TokenizerLoadError(
                f"line {n}: expected two tokens separated by one space, found {line[:60]!r}",
                path)
        merges.append((pair[0], pair[1]))
        line_numbers.append(n)
    return merges, line_numbers


def read_merges_txt(path: str | Path) -> list[tuple[str, str]]:
    """Read a ``merges.txt``: merge pairs in rank order (``#version`` lines skipped).

    Raises
    ------
    TokenizerLoadError
        Unreadable, empty, not UTF-8, or a line that is not two tokens and one space.
    """
    return _read_merges(Path(path))[0]


def load_gpt2_files(vocab_path: str | Path, merges_path: str | Path | None = None) -> BPE:
    """A byte-level :class:`BPE` from ``vocab.json`` and ``merges.txt``.

    Parameters
    ----------
    vocab_path : path of ``vocab.json``
    merges_path : path of ``merges.txt``; default: ``merges.txt`` beside ``vocab_path``.

    Raises
    ------
    TokenizerLoadError
        As the readers do, and when a merge names or forms a token missing from the
        vocabulary (message: merges file and line).
    """
    vocab_path = Path(vocab_path)
    if merges_path is None:
        merges_path = vocab_path.with_name("merges.txt")
    merges_path = Path(merges_path)
    vocab = read_vocab_json(vocab_path)
    merges, line_numbers = _read_merges(merges_path)
    try:
        return BPE(vocab, merges, source=str(merges_path))
    except MergeError as exc:
        detail = str(exc).removeprefix(f"{merges_path}: ")
        raise TokenizerLoadError(f"line {line_numbers[exc.index]}: {detail}", merges_path) from None


def load_gpt2(path: Path, *, add_prefix_space: bool = False,
              trim_offsets: bool = False) -> Tokenizer:
    """Load GPT-2 style ``vocab.json`` + ``merges.txt`` (either file, its sibling is found)
    as byte-level BPE with GPT-2's split pattern; ``<|endoftext|>`` is a special token when
    the vocabulary has it. Defaults as the reference's ``ByteLevelBPETokenizer``."""
    vocab_path, merges_path = _gpt2_pair(path)
    model = load_gpt2_files(vocab_path, merges_path)
    specials = [AddedToken(t, model.vocab[t], special=True) for t in ("<|endoftext|>",)
                if t in model.vocab]
    tokenizer = Tokenizer(name=display_name(vocab_path), model=model,
                          pre_tokenizer=ByteLevel(add_prefix_space, trim_offsets, True),
                          post_processor=ByteLevelProcessing(trim_offsets, add_prefix_space),
                          added_tokens=specials, byte_level=True,
                          source={"format": "vocab.json+merges.txt", "path": str(vocab_path),
                                  "merges": str(merges_path)})
    tokenizer.decoder = ByteLevelDecoder()  # as ByteLevelBPETokenizer
    tokenizer.lone_surrogates = REFUSE  # as tokenizers.Tokenizer.encode
    return tokenizer


def _gpt2_pair(path: Path) -> tuple[Path, Path]:
    name = path.name
    if name.endswith("merges.txt"):
        pair = (path.with_name(name[:-len("merges.txt")] + "vocab.json"), path)
    else:
        pair = (path, path.with_name(name[:-len("vocab.json")] + "merges.txt"))
    missing = next((p for p in pair if not p.is_file()), None)
    if missing is not None:
        raise TokenizerLoadError(f"a GPT-2 tokenizer needs vocab.json and merges.txt side by "
                                 f"side; {missing.name} is missing", str(path))
    return pair
