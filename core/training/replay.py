"""Replay the merges a real byte-level BPE encoder applies to a word, one merge at a time.

Works on plain data — a ``(left, right) → rank`` table over GPT-2's byte-to-unicode symbols —
so it serves GPT-2 ``vocab.json`` + ``merges.txt``, a byte-level BPE ``tokenizer.json`` and
tiktoken rank files alike. For a rank file the merges are recovered from the ranks the way
tiktoken's educational module (``tiktoken/_educational.py``) describes: each multi-byte token,
in rank order, is the merge of the two parts that BPE with only lower ranks leaves of it.

Encoding (as in tiktoken's ``_byte_pair_merge``): repeatedly merge the adjacent pair of
lowest rank, the leftmost one when it occurs twice, until no adjacent pair has a rank.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping, Sequence

import regex

from core.errors import TokenizerLoadError
from core.training.corpus import CL100K_PATTERN, GPT2_PATTERN
from core.training.symbols import Pair, byte_to_unicode, to_byte_symbols


@dataclass(frozen=True)
class ReplayStep:
    """One merge the encoder applies: its ``rank``, the ``pair``, the ``index`` of the pair's
    left symbol before the merge, and the ``symbols`` after it."""

    rank: int
    pair: Pair
    index: int
    symbols: tuple[str, ...]


@dataclass(frozen=True)
class MergeTable:
    """What replay needs from a byte-level BPE tokenizer.

    Attributes
    ----------
    ranks : dict of (str, str) to int
        Merge priority of each pair of byte-level symbols (lower merges first).
    vocab : dict of str to int
        Token id of each byte-level token string.
    pattern : str
        The pre-tokenization regular expression (``regex`` syntax).
    name : str
        A short label (file name).
    """

    ranks: dict[Pair, int]
    vocab: dict[str, int]
    pattern: str = GPT2_PATTERN
    name: str = ""
    _compiled: list = field(default_factory=list, repr=False, compare=False)

    def pretokenize(self, text: str) -> list[str]:
        """Split ``text`` with :attr:`pattern` (pieces keep their leading space)."""
        if not self._compiled:
            self._compiled.append(regex.compile(self.pattern))
        return self._compiled[0].findall(text)


def replay_merges(word: str | bytes | Sequence[str], ranks: Mapping[Pair, int]) -> list[ReplayStep]:
    """Every merge the encoder applies to one pre-tokenized piece, in order.

    Parameters
    ----------
    word : str, bytes or sequence of str
        The piece: text (encoded as UTF-8), raw bytes, or byte-level symbols as they are.
    ranks : mapping of (str, str) to int
        Merge ranks over byte-level symbols.

    Returns
    -------
    list of ReplayStep
        Empty when no merge applies; the last step's ``symbols`` are the final tokens.
    """
    symbols = list(to_byte_symbols(word) if isinstance(word, (str, bytes)) else word)
    steps = []
    while len(symbols) > 1:
        best_rank, best_i = None, -1
        for i in range(len(symbols) - 1):
            r = ranks.get((symbols[i], symbols[i + 1]))
            if r is not None and (best_rank is None or r < best_rank):
                best_rank, best_i = r, i
        if best_rank is None:
            break
        pair = (symbols[best_i], symbols[best_i + 1])
        symbols[best_i:best_i + 2] = [pair[0] + pair[1]]
        steps.append(ReplayStep(best_rank, pair, best_i, tuple(symbols)))
    return steps


def encode_piece(piece: str | bytes, table: MergeTable) -> tuple[list[str], list[int]]:
    """Final tokens and ids of one pre-tokenized piece; raises :class:`TokenizerLoadError`
    when a token is missing from the vocabulary (merges and vocabulary disagree)."""
    steps = replay_merges(piece, table.ranks)
    tokens = list(steps[-1].symbols) if steps else list(to_byte_symbols(piece))
    try:
        return tokens, [table.vocab[t] for t in tokens]
    except KeyError as exc:
        raise TokenizerLoadError(f"token {exc.args[0]!r} has no id in {table.name}") from None


def merges_from_tiktoken_ranks(ranks: Mapping[bytes, int]) -> dict[Pair, int]:
    """Recover the merge table of a tiktoken rank file.

    Parameters
    ----------
    ranks : mapping of bytes to int
        Token bytes → rank (also the token id).

    Returns
    -------
    dict of (str, str) to int
        For each multi-byte token, the pair of byte-level symbols it is merged from, with the
        token's rank. Tokens BPE cannot build from exactly two lower-ranked parts are left out.
    """
    table = byte_to_unicode()
    sym = {tok: "".join(table[b] for b in tok) for tok in ranks}
    merges: dict[Pair, int] = {}
    for token, rank in sorted(ranks.items(), key=lambda kv: kv[1]):
        if len(token) < 2:
            continue
        parts = _bpe_parts(ranks, token, rank)
        if len(parts) == 2:
            merges[(sym[parts[0]], sym[parts[1]])] = rank
    return merges


def _bpe_parts(ranks: Mapping[bytes, int], token: bytes, max_rank: int) -> list[bytes]:
    """BPE of ``token`` using only ranks below ``max_rank``."""
    parts = [token[i:i + 1] for i in range(len(token))]
    while len(parts) > 2:
        best_i, best_r = -1, max_rank
        for i in range(len(parts) - 1):
            r = ranks.get(parts[i] + parts[i + 1])
            if r is not None and r < best_r:
                best_i, best_r = i, r
        if best_i < 0:
            break
        parts[best_i:best_i + 2] = [parts[best_i] + parts[best_i + 1]]
    return parts


# -- loaders ------------------------------------------------------------------------------
def load_tiktoken_ranks(path: str | Path) -> dict[bytes, int]:
    """Read a ``.tiktoken`` file (one ``base64-token rank`` per line)."""
    ranks: dict[bytes, int] = {}
    for n, line in enumerate(_read_text(path).splitlines(), 1):
        if not line.strip():
            continue
        try:
            token, rank = line.split()
            ranks[base64.b64decode(token, validate=True)] = int(rank)
        except ValueError:
            raise TokenizerLoadError(f"line {n} is not 'base64-token rank': {line[:60]!r}",
                                     str(path)) from None
    if not ranks:
        raise TokenizerLoadError("no ranks in the file", str(path))
    return ranks


def load_tiktoken_table(path: str | Path, *, pattern: str | None = None) -> MergeTable:
    """A :class:`MergeTable` from a rank file; the pattern defaults to cl100k's when the file
    name says ``cl100k`` and to GPT-2's otherwise."""
    ranks = load_tiktoken_ranks(path)
    table = byte_to_unicode()
    vocab = {"".join(table[b] for b in tok): rank for tok, rank in ranks.items()}
    if pattern is None:
        pattern = CL100K_PATTERN if "cl100k" in Path(path).name else GPT2_PATTERN
    return MergeTable(merges_from_tiktoken_ranks(ranks), vocab, pattern, Path(path).name)


def load_gpt2_table(vocab_path: str | Path, merges_path: str | Path) -> MergeTable:
    """A :class:`MergeTable` from GPT-2's ``vocab.json`` and ``merges.txt``."""
    vocab = _read_json(vocab_path)
    if not isinstance(vocab, dict):
        raise TokenizerLoadError("expected a JSON object of token → id", str(vocab_path))
    lines = _read_text(merges_path).splitlines()
    return MergeTable(_parse_merges(lines, merges_path), vocab, GPT2_PATTERN,
                      Path(merges_path).parent.name or Path(merges_path).name)


def load_tokenizer_json_table(path: str | Path) -> MergeTable:
    """A :class:`MergeTable` from a Hugging Face ``tokenizer.json`` with a byte-level BPE model."""
    data = _read_json(path)
    model = data.get("model", {}) if isinstance(data, dict) else {}
    if model.get("type") != "BPE" or "ByteLevel" not in json.dumps(data.get("pre_tokenizer")):
        raise TokenizerLoadError("not a byte-level BPE tokenizer (model BPE with a ByteLevel "
                                 "pre-tokenizer is needed for merge replay)", str(path))
    merges = [" ".join(m) if isinstance(m, list) else m for m in model.get("merges", [])]
    name = Path(path).parent.name or Path(path).name
    return MergeTable(_parse_merges(merges, path), dict(model.get("vocab", {})), GPT2_PATTERN, name)


def load_merge_table(path: str | Path) -> MergeTable:
    """Load whatever byte-level BPE file ``path`` is (detected by name).

    Accepts a ``.tiktoken`` file, ``merges.txt`` or ``vocab.json`` (the other must sit beside
    it), a ``tokenizer.json``, or a folder holding one of these.

    Raises
    ------
    TokenizerLoadError
        Missing, unreadable or malformed files, or a tokenizer that is not byte-level BPE.
    """
    p = Path(path)
    if p.is_dir():
        for name in ("merges.txt", "tokenizer.json"):
            if (p / name).is_file():
                return load_merge_table(p / name)
        found = sorted(p.glob("*.tiktoken"))
        if found:
            return load_tiktoken_table(found[0])
        raise TokenizerLoadError("no merges.txt, tokenizer.json or .tiktoken file here", str(p))
    if p.suffix == ".tiktoken":
        return load_tiktoken_table(p)
    if p.name.endswith("merges.txt"):
        return load_gpt2_table(p.with_name(p.name.replace("merges.txt", "vocab.json")), p)
    if p.name.endswith("vocab.json"):
        return load_gpt2_table(p, p.with_name(p.name.replace("vocab.json", "merges.txt")))
    if p.suffix == ".json":
        return load_tokenizer_json_table(p)
    raise TokenizerLoadError("choose a .tiktoken, merges.txt, vocab.json or tokenizer.json "
                             "file", str(p))


def _parse_merges(lines: Iterable[str], path) -> dict[Pair, int]:
    ranks: dict[Pair, int] = {}
    for n, line in enumerate(lines, 1):
        if not line or line.startswith("#version"):
            continue
        parts = line.split(" ")
        if len(parts) != 2:
            raise TokenizerLoadError(f"merge {n} is not two symbols: {line[:60]!r}", str(path))
        ranks.setdefault((parts[0], parts[1]), len(ranks))
    return ranks


def _read_text(path: str | Path) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TokenizerLoadError(f"cannot read the file: {exc}", str(path)) from None


def _read_json(path: str | Path):
    try:
        return json.loads(_read_text(path))
    except json.JSONDecodeError as exc:
        raise TokenizerLoadError(f"not valid JSON: {exc}", str(path)) from None


