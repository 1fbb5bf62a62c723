"""What each vocabulary entry stands for, read off the tokenizer: its kind and its own string.

"Its own string" (the *surface*) depends on the model family:

- byte-level vocabularies (GPT-2, tiktoken): the UTF-8 decoding of the entry's bytes
  (``"Ġthe"`` → ``" the"``); an entry whose bytes are not whole UTF-8 characters has no
  string of its own (kind :data:`PARTIAL`: it only occurs inside a longer character run);
- WordPiece (and BPE with a continuing-subword prefix): ``"##ing"`` is the continuation
  ``"ing"`` (kind :data:`CONTINUATION`: it can only follow another piece of the same word);
  other entries are their own text;
- Metaspace / SentencePiece vocabularies: ``▁`` stands for a space (``"▁the"`` → ``" the"``,
  a word start); a piece without a leading ``▁`` is a continuation;
- byte-fallback pieces (``<0xAB>``) stand for one byte (kind :data:`BYTE`), and the added
  tokens, the unknown token and SentencePiece control pieces are matched or emitted by rule,
  not by encoding text (kind :data:`SPECIAL`).

Public names: :class:`VocabEntry`, :func:`vocab_entries`, the kinds, :func:`glitch_flags`,
:func:`glitchy_entries`, :func:`legible`.
"""

from __future__ import annotations

import unicodedata
from itertools import accumulate
from typing import Any, Callable, NamedTuple

from core.errors import check_stop
from core.text.byte_alphabet import ByteLevelError, from_byte_level
from core.text.invisibles import zero_width_name

SPECIAL, BYTE, PARTIAL, WORD, CONTINUATION = "special", "byte", "partial", "word", "continuation"
STOP_EVERY = 4096  # entries between two should_stop() calls
_CONTROL_TYPES = (2, 3)  # SentencePiece UNKNOWN, CONTROL piece types


class VocabEntry(NamedTuple):
    """One vocabulary entry (a named tuple: one is built per entry, so it is cheap).

    Attributes
    ----------
    id : int
    token : str
        The entry as the file stores it (byte-level entries in GPT-2's alphabet).
    kind : str
        :data:`WORD`, :data:`CONTINUATION`, :data:`PARTIAL`, :data:`BYTE` or :data:`SPECIAL`.
    surface : str or None
        Its own string (None for partial UTF-8 and byte pieces).
    raw : bytes or None
        The bytes of a byte-level entry (None otherwise).
    """

    id: int
    token: str
    kind: str
    surface: str | None
    raw: bytes | None = None


def _id_tokens(tokenizer: Any) -> list[tuple[int, str]]:
    """``(id, token)`` of every entry by id, duplicate strings included (a Unigram or
    SentencePiece piece list keeps them; a dict vocabulary cannot). O(V)."""
    model = tokenizer.model
    pieces = getattr(model, "pieces", None)
    pairs = list(enumerate(pieces)) if isinstance(pieces, list) else [
        (i, t) for t, i in model.vocab.items()]
    known = {i for i, _ in pairs}
    pairs += [(t.id, t.content) for t in tokenizer.added.tokens if t.id not in known]
    return sorted(pairs)


def _special_ids(tokenizer: Any) -> set[int]:
    model = tokenizer.model
    out = {t.id for t in tokenizer.added.tokens}
    if tokenizer.token_rules.unk_id is not None:
        out.add(tokenizer.token_rules.unk_id)
    types = getattr(model, "types", None)
    if isinstance(types, list):
        out |= {i for i, t in enumerate(types) if t in _CONTROL_TYPES}
    return out


def vocab_entries(tokenizer: Any, should_stop: Callable[[], bool] | None = None) -> list[VocabEntry]:
    """Every entry of ``tokenizer`` with its kind and surface (see the module docstring).

    O(V · L) for V entries of at most L code points; ``should_stop`` is asked every
    :data:`STOP_EVERY` entries (``core.errors.Cancelled``).
    """
    rules = tokenizer.token_rules
    special, byte_ids = _special_ids(tokenizer), set(rules.byte_pieces)
    prefix, meta = rules.prefix, rules.metaspace
    pairs = _id_tokens(tokenizer)
    raws = _all_bytes([t for _, t in pairs]) if tokenizer.is_byte_level else None
    out = []
    for k, (id_, token) in enumerate(pairs):
        if not k % STOP_EVERY:
            check_stop(should_stop)
        if id_ in special:
            out.append(VocabEntry(id_, token, SPECIAL, token))
        elif id_ in byte_ids:
            out.append(VocabEntry(id_, token, BYTE, None))
        elif raws is not None:
            out.append(_byte_level_entry(id_, token, raws[k]))
        elif prefix and token.startswith(prefix) and len(token) > len(prefix):
            out.append(VocabEntry(id_, token, CONTINUATION, token[len(prefix):]))
        elif meta:
            kind = WORD if token.startswith(meta) else CONTINUATION
            out.append(VocabEntry(id_, token, kind, token.replace(meta, " ")))
        else:
            out.append(VocabEntry(id_, token, WORD, token))
    return out


def _all_bytes(tokens: list[str]) -> list[bytes | None]:
    """The bytes of every byte-level token (None: not in the alphabet), mapped in one call
    when all of them are in it. O(total length)."""
    try:
        joined = from_byte_level("".join(tokens))
    except ByteLevelError:
        return [_bytes_or_none(t) for t in tokens]
    ends = list(accumulate(map(len, tokens)))  # one byte per alphabet character
    return [joined[a:b] for a, b in zip([0] + ends[:-1], ends)]


def _bytes_or_none(token: str) -> bytes | None:
    try:
        return from_byte_level(token)
    except ByteLevelError:
        return None


def _byte_level_entry(id_: int, token: str, raw: bytes | None) -> VocabEntry:
    if raw is None:  # not in the alphabet: an entry stored as plain text
        return VocabEntry(id_, token, WORD, token)
    try:
        return VocabEntry(id_, token, WORD, raw.decode("utf-8"), raw)
    except UnicodeDecodeError:
        return VocabEntry(id_, token, PARTIAL, None, raw)


# -- how an entry looks ------------------------------------------------------------------

#: Glitch flags, in the order they are reported.
FLAGS = ("partial UTF-8", "control", "lone mark", "invisible", "unassigned", "private use",
         "surrogate", "replacement char")
_FILLERS = "\u115f\u1160\u3164\uffa0"  # Hangul fillers: letters that draw nothing
_CATEGORY_FLAGS = {"Cc": "control", "Cn": "unassigned", "Co": "private use", "Cs": "surrogate"}


def glitch_flags(entry: VocabEntry) -> tuple[str, ...]:
    """Why ``entry`` looks glitchy (a subset of :data:`FLAGS`, in that order; empty when
    it looks like ordinary text). A *lone mark* is an entry made only of combining marks
    (category M), which has no base character to sit on. O(L)."""
    found: set[str] = set()
    if entry.kind == PARTIAL:
        found.add("partial UTF-8")
    s = entry.surface if entry.kind != SPECIAL else None
    if s and not (s.isascii() and s.isprintable()):
        for ch in s:
            cat = unicodedata.category(ch)
            flag = _CATEGORY_FLAGS.get(cat)
            if flag is not None and not (flag == "control" and ch in "\t\n\r"):
                found.add(flag)
            elif ch == "\ufffd":
                found.add("replacement char")
            elif not ch.isascii() and (zero_width_name(ch) is not None or ch in _FILLERS):
                found.add("invisible")
        core = s.strip()
        if core and all(unicodedata.category(c).startswith("M") for c in core):
            found.add("lone mark")
    return tuple(f for f in FLAGS if f in found)


def glitchy_entries(entries: list[VocabEntry]) -> list[tuple[tuple[str, ...], VocabEntry]]:
    """``(glitch_flags(e), e)`` for the entries with a flag, in order. Each distinct
    character is classified once; an entry none of whose characters can raise a flag
    (controls, marks, unassigned, private-use, surrogate, replacement, invisible) is
    passed over by one ``str.translate``. O(V · L) in C, O(L) in Python per entry kept."""
    texts = [e.surface if e.kind != SPECIAL and e.surface else "" for e in entries]
    plain = {ord(c): None for c in set("".join(texts)) if not _may_flag(c)}
    out = []
    for e, s in zip(entries, texts):
        if e.kind == PARTIAL or (s and s.translate(plain)):
            flags = glitch_flags(e)
            if flags:
                out.append((flags, e))
    return out


def _may_flag(ch: str) -> bool:
    """Whether ``ch`` can make :func:`glitch_flags` raise a flag (a superset)."""
    cat = unicodedata.category(ch)
    return (cat in _CATEGORY_FLAGS or cat.startswith("M") or ch == "\ufffd" or ch in _FILLERS
            or (not ch.isascii() and zero_width_name(ch) is not None))


_ESCAPES = {"\t": "\\t", "\n": "\\n", "\r": "\\r", " ": "\u2423"}
DOTTED_CIRCLE = "\u25cc"


def legible(entry: VocabEntry) -> str:
    """A display form of ``entry`` that shows what draws nothing: spaces as ``␣``,
    controls as escapes (``\\n``, ``\\x07``), zero-width characters by name (``⟨ZWJ⟩``),
    a dotted circle under a combining mark that has no base, hex for the bytes of a
    partial or byte entry. O(L)."""
    if entry.kind == BYTE or entry.surface is None:
        data = entry.raw if entry.raw is not None else None
        if data is None:
            return entry.token
        shown = data.decode("utf-8", "backslashreplace")
        return "".join(_show_char(c, i == 0) for i, c in enumerate(shown))
    prefix = "##" if entry.kind == CONTINUATION and entry.token.startswith("##") else ""
    body = "".join(_show_char(c, i == 0 or entry.surface[i - 1] in " \t\n")
                   for i, c in enumerate(entry.surface))
    return prefix + body


def _show_char(ch: str, after_break: bool) -> str:
    """One character shown legibly; a combining mark at the start of a run gets ◌."""
    if ch in _ESCAPES:
        return _ESCAPES[ch]
    cat = unicodedata.category(ch)
    if cat in ("Cc", "Cs", "Cn", "Co"):
        o = ord(ch)
        return f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}" if o < 0x10000 else f"\\U{o:08x}"
    name = zero_width_name(ch) if not ch.isascii() else None
    if name is not None:
        return f"\u27e8{name}\u27e9"
    if after_break and cat.startswith("M"):
        return DOTTED_CIRCLE + ch
    return ch
