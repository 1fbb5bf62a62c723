"""tiktoken rank files (``.tiktoken``): byte-level BPE by rank, with split-pattern presets.

A rank file has one token a line: the token's bytes in base64, one space, its rank (which is
also its id). It carries neither the pre-tokenization pattern nor the special tokens; those
were published with tiktoken per encoding, and :data:`PRESETS` repeats them (source:
``tiktoken_ext/openai_public.py`` of the tiktoken package). The preset is detected from the
file name (``cl100k_base.tiktoken`` → ``cl100k_base``) or given explicitly. Special tokens are
added only when asked for, because tiktoken's ``encode_ordinary`` never produces them.

Public names: :class:`TiktokenPreset`, :data:`PRESETS`, :class:`TiktokenFile`,
:func:`read_ranks`, :func:`detect_preset`, :func:`load_tiktoken` (the model and pattern),
:func:`load_tiktoken_file` (the tokenizer).
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass, field
from pathlib import Path

from core.errors import SubwordScopeError, TokenizerLoadError
from core.tokenizers.added_tokens import AddedToken
from core.tokenizers.decoders import ByteLevel as ByteLevelDecoder
from core.tokenizers.formats._files import display_name, read_bytes
from core.tokenizers.formats._json import MAX_ID
from core.tokenizers.models.bpe import BPE
from core.tokenizers.pre_tokenizers.byte_level import ByteLevel
from core.tokenizers.pre_tokenizers.split_patterns import PATTERNS, compile_pattern
from core.tokenizers.tokenizer import Tokenizer
from core.tokenizers.surrogates import REPLACE

ENDOFTEXT = "<|endoftext|>"
FIM_PREFIX = "<|fim_prefix|>"
FIM_MIDDLE = "<|fim_middle|>"
FIM_SUFFIX = "<|fim_suffix|>"
ENDOFPROMPT = "<|endofprompt|>"


@dataclass(frozen=True)
class TiktokenPreset:
    """A published encoding: its split pattern and special tokens (name → id)."""

    name: str
    pattern: str
    special_tokens: tuple[tuple[str, int], ...]


PRESETS: dict[str, TiktokenPreset] = {
    p.name: p for p in (
        TiktokenPreset("gpt2", PATTERNS["gpt2"], ((ENDOFTEXT, 50256),)),
        TiktokenPreset("r50k_base", PATTERNS["r50k_base"], ((ENDOFTEXT, 50256),)),
        TiktokenPreset("p50k_base", PATTERNS["p50k_base"], ((ENDOFTEXT, 50256),)),
        TiktokenPreset("cl100k_base", PATTERNS["cl100k_base"], (
            (ENDOFTEXT, 100257), (FIM_PREFIX, 100258), (FIM_MIDDLE, 100259),
            (FIM_SUFFIX, 100260), (ENDOFPROMPT, 100276))),
        TiktokenPreset("o200k_base", PATTERNS["o200k_base"], (
            (ENDOFTEXT, 199999), (ENDOFPROMPT, 200018))),
    )
}


@dataclass(frozen=True)
class TiktokenFile:
    """A loaded rank file.

    Attributes
    ----------
    path : str
    preset : str | None
        Name of the preset whose pattern is used, or None for a user-given pattern.
    pattern : str
        Split pattern (``regex`` syntax).
    model : BPE
        The by-rank model; tokens are byte-level alphabet strings, ids are ranks.
    special_tokens : dict[str, int]
        Empty unless asked for.
    """

    path: str
    preset: str | None
    pattern: str
    model: BPE = field(repr=False, compare=False)
    special_tokens: dict[str, int] = field(default_factory=dict, compare=False)


def _parse_line(line: bytes, n: int, path: Path) -> tuple[bytes, int]:
    fields = line.split()
    try:
        if len(fields) != 2:
            raise ValueError
        token = base64.b64decode(fields[0], validate=True)
        rank = int(fields[1])
        if not fields[1].isdigit() or rank > MAX_ID:
            raise ValueError
    except (ValueError, binascii.Error):
        raise TokenizerLoadError(
            f"line {n}: expected a base64 token, one space and a rank from 0 to {MAX_ID:,}, found "
            f"{line[:60].decode('utf-8', 'replace')!r}", path) from None
    return token, rank


def read_ranks(path: str | Path) -> dict[bytes, int]:
    """Read a rank file into ``{token bytes: rank}``; blank lines are skipped.

    Raises
    ------
    TokenizerLoadError
        Not a regular file or too large (checked before reading), unreadable or empty, a line
        that is not base64 + an integer from 0 to ``MAX_ID``, or a token or rank given twice (tiktoken refuses duplicate ranks too) — the message names the line.
    """
    path = Path(path)
    data = read_bytes(path)
    lines = data.split(b"\n")
    try:  # fast path; any problem is located by the line-by-line pass below
        pairs = [line.split() for line in lines if line.strip()]
        ranks = {base64.b64decode(t, validate=True): int(r) for t, r in pairs}
        unique = len(ranks) == len(pairs) == len(set(ranks.values()))
        if ranks and unique and all(r.isdigit() for _, r in pairs) and max(ranks.values()) <= MAX_ID:
            return ranks
    except (ValueError, binascii.Error):
        pass
    return _read_ranks_slowly(lines, path)


def _read_ranks_slowly(lines: list[bytes], path: Path) -> dict[bytes, int]:
    ranks: dict[bytes, int] = {}
    seen_ranks: dict[int, int] = {}
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        token, rank = _parse_line(line, n, path)
        if token in ranks or rank in seen_ranks:
            what = f"token {token!r}" if token in ranks else f"rank {rank}"
            raise TokenizerLoadError(f"line {n}: {what} appears twice", path)
        ranks[token] = rank
        seen_ranks[rank] = n
    if not ranks:
        raise TokenizerLoadError("the file is empty (no ranks)", path)
    return ranks


def detect_preset(path: str | Path) -> str | None:
    """Preset named by the file name (``.../cl100k_base.tiktoken`` → ``"cl100k_base"``)."""
    name = Path(path).name.lower()
    for preset in sorted(PRESETS, key=len, reverse=True):
        if preset in name:
            return preset
    return None


def load_tiktoken(path: str | Path, *, pattern: str | None = None,
                  special_tokens: bool = False) -> TiktokenFile:
    """Load a rank file as a by-rank :class:`BPE` with its split pattern.

    Parameters
    ----------
    path : the ``.tiktoken`` file.
    pattern : a preset name of :data:`PRESETS` or a regex; default: detected from the name.
    special_tokens : also return the preset's special tokens (off by default).

    Raises
    ------
    TokenizerLoadError
        File errors (see :func:`read_ranks`), an undetectable or invalid pattern, special
        tokens asked for without a preset, or a special token id that is already a rank.
    """
    path = Path(path)
    preset_name = pattern if pattern in PRESETS else None
    if pattern is None:
        preset_name = detect_preset(path)
        if preset_name is None:
            raise TokenizerLoadError(
                "cannot tell the split pattern from the file name; choose one of "
                f"{', '.join(PRESETS)} or give a regex", path)
    regex_text = PRESETS[preset_name].pattern if preset_name else pattern
    try:
        compile_pattern(regex_text)
    except SubwordScopeError as exc:
        raise TokenizerLoadError(str(exc), path) from None
    ranks = read_ranks(path)
    model = BPE.from_tiktoken_ranks(ranks, source=str(path))
    specials = _special_tokens(preset_name, ranks, path) if special_tokens else {}
    return TiktokenFile(str(path), preset_name, regex_text, model, specials)


def load_tiktoken_file(path: Path, *, pattern: str | None = None,
                       special_tokens: bool = False) -> Tokenizer:
    """Load a tiktoken rank file: byte-level BPE by rank, split pattern detected from the
    file name or given (a preset name or a regex); the preset's special tokens are parsed
    in the text only with ``special_tokens=True``. Offsets are untrimmed."""
    tf = load_tiktoken(path, pattern=pattern, special_tokens=bool(special_tokens))
    specials = [AddedToken(t, i, special=True) for t, i in tf.special_tokens.items()]
    tokenizer = Tokenizer(name=display_name(path), model=tf.model,
                          pre_tokenizer=ByteLevel(False, False, True, pattern=tf.pattern),
                          added_tokens=specials, byte_level=True,
                          source={"format": "tiktoken", "path": str(path),
                                  "pattern": tf.preset or tf.pattern,
                                  "special_tokens": bool(special_tokens)})
    # tiktoken.decode: the bytes joined, errors="replace"; an unknown id raises (KeyError)
    tokenizer.decoder, tokenizer.strict_ids = ByteLevelDecoder(), True
    tokenizer.lone_surrogates = REPLACE  # tiktoken repairs the text through UTF-16
    return tokenizer


def _special_tokens(preset_name: str | None, ranks: dict[bytes, int], path: Path) -> dict[str, int]:
    if preset_name is None:
        raise TokenizerLoadError("special tokens are only known for the presets "
                                 f"{', '.join(PRESETS)}; pick one as the pattern", path)
    specials = dict(PRESETS[preset_name].special_tokens)
    taken = set(ranks.values()).intersection(specials.values())
    if taken:
        raise TokenizerLoadError(f"special token id {min(taken)} of {preset_name} is already a "
                                 "rank in this file; is it the right preset?", path)
    return specials
