"""GPT-2 style ``vocab.json`` + ``merges.txt``, and the BPE model object of ``tokenizer.json``.

``vocab.json`` is one JSON object mapping token to id. ``merges.txt`` has one merge a line,
two tokens separated by exactly one space, in rank order; lines starting with ``#version``
(GPT-2's ``#version: 0.2`` header) are skipped, as the ``tokenizers`` library does. Tokens are
in the GPT-2 byte-level alphabet (``Ġ`` for the space byte), so the files describe byte-level
BPE; split text with :data:`core.tokenizers.bytelevel.GPT2_PATTERN` first.

Public names: :func:`read_vocab_json`, :func:`read_merges_txt`, :func:`load_gpt2_files`,
:func:`bpe_options_from_json`, :func:`parse_merge_entry`, :func:`check_vocab`,
:func:`merge_tables`, :class:`MergeError`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.errors import TokenizerLoadError

if TYPE_CHECKING:
    from core.tokenizers.bpe import BPE


class MergeError(TokenizerLoadError):
    """A merge names a token (or yields a token) that is not in the vocabulary.

    Attributes
    ----------
    index : int
        0-based position of the bad merge in the merge list.
    """

    def __init__(self, message: str, index: int, path: str | None = None):
        self.index = index
        super().__init__(message, path)


def check_vocab(vocab: Any, source: str | None) -> dict[str, int]:
    """Check a token → id mapping; raise :class:`TokenizerLoadError` naming a bad entry."""
    if not isinstance(vocab, dict):
        raise TokenizerLoadError(
            f"the vocabulary must be an object mapping token to id, not a {type(vocab).__name__}",
            source)
    for token, i in vocab.items():
        if not isinstance(token, str) or type(i) is not int or i < 0:
            raise TokenizerLoadError(
                f"vocabulary entry {token!r}: {i!r} is not a token with a non-negative "
                "integer id", source)
    return dict(vocab)


def merge_tables(vocab: dict[str, int], merges: list[tuple[str, str]], prefix: str,
                 source: str | None) -> tuple[dict, dict]:
    """Pair → rank and pair → merged token; the merged token drops ``b``'s prefix.

    A pair listed twice keeps its last rank, as in ``tokenizers``.

    Raises
    ------
    MergeError
        If a merge is not two strings, or a token it names or forms is not in ``vocab``.
    """
    pair_rank: dict[tuple[str, str], int] = {}
    pair_new: dict[tuple[str, str], str] = {}
    cut = len(prefix)
    for rank, pair in enumerate(merges):
        if type(pair) is not tuple or len(pair) != 2 or not all(isinstance(t, str) for t in pair):
            raise MergeError(f"merge {rank + 1} is not a pair of tokens: {pair!r}", rank, source)
        a, b = pair
        new = a + b[cut:]
        if a not in vocab or b not in vocab or new not in vocab:
            t, what = next((t, w) for t, w in ((a, "token"), (b, "token"), (new, "merged token"))
                           if t not in vocab)
            raise MergeError(f"merge {rank + 1} ({a!r} {b!r}): {what} {t!r} is not in "
                             "the vocabulary", rank, source)
        pair_rank[pair] = rank
        pair_new[pair] = new
    return pair_rank, pair_new


def _read_text(path: Path) -> str:
    """The file's text (strict UTF-8); errors name the line of a bad byte."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TokenizerLoadError(f"cannot read the file: {exc.strerror or exc}", path) from None
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
        Unreadable, empty, not UTF-8, not JSON (with line and column), not an object, or an
        entry that is not ``"token": non-negative integer``.
    """
    path = Path(path)
    text = _read_text(path)
    try:
        vocab = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TokenizerLoadError(f"line {exc.lineno}, column {exc.colno}: not valid JSON "
                                 f"({exc.msg})", path) from None
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


def load_gpt2_files(vocab_path: str | Path, merges_path: str | Path | None = None) -> "BPE":
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
    from core.tokenizers.bpe import BPE  # bpe imports this module

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


# tokenizer.json ---------------------------------------------------------------------------

def parse_merge_entry(entry: Any, index: int, source: str | None) -> tuple[str, str]:
    """One merge of a ``tokenizer.json``: ``"a b"`` (exactly one space) or ``["a", "b"]``."""
    if isinstance(entry, str):
        pair = entry.split(" ")
    elif isinstance(entry, list):
        pair = entry
    else:
        pair = None
    if pair is None or len(pair) != 2 or not all(isinstance(t, str) for t in pair):
        raise MergeError(f"merge {index + 1} is not \"a b\" or [\"a\", \"b\"]: {entry!r}",
                         index, source)
    return pair[0], pair[1]


_STR_OPTIONS = ("unk_token", "continuing_subword_prefix", "end_of_word_suffix")
_BOOL_OPTIONS = ("byte_fallback", "fuse_unk", "ignore_merges")


def _option(model: dict, key: str, types: tuple, source: str | None) -> Any:
    value = model.get(key)
    wrong_bool = isinstance(value, bool) and bool not in types
    if value is not None and (not isinstance(value, types) or wrong_bool):
        raise TokenizerLoadError(f"BPE option {key!r} has the wrong type: {value!r}", source)
    return value


def bpe_options_from_json(model: Any, source: str | None = None
                          ) -> tuple[Any, list[tuple[str, str]], dict[str, Any]]:
    """Vocabulary, merges and options of a ``tokenizer.json`` BPE ``"model"`` object.

    Returns
    -------
    (vocab, merges, options)
        ``BPE(vocab, merges, **options)`` builds the model (the vocabulary is checked there).

    Raises
    ------
    TokenizerLoadError
        Not an object, not of type BPE, no vocab/merges, or an option of the wrong type.
    """
    if not isinstance(model, dict):
        raise TokenizerLoadError(f"the model must be an object, not a {type(model).__name__}",
                                 source)
    kind = model.get("type", "BPE")
    if kind != "BPE":
        raise TokenizerLoadError(f"model type {kind!r} is not BPE", source)
    for key in ("vocab", "merges"):
        if key not in model:
            raise TokenizerLoadError(f"the BPE model has no {key!r}", source)
    if not isinstance(model["merges"], list):
        raise TokenizerLoadError("the BPE model's 'merges' must be a list", source)
    options: dict[str, Any] = {k: _option(model, k, (str,), source) for k in _STR_OPTIONS}
    options.update({k: bool(_option(model, k, (bool,), source)) for k in _BOOL_OPTIONS})
    options["dropout"] = _option(model, "dropout", (int, float), source)
    merges = [parse_merge_entry(e, i, source) for i, e in enumerate(model["merges"])]
    return model["vocab"], merges, options
