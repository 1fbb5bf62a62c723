"""SentencePiece ``.model`` files: read the ModelProto, encode as the ``sentencepiece`` library.

A ``.model`` file is a serialized protobuf ``ModelProto`` (sentencepiece_model.proto):
``pieces`` (1: piece, score, type), ``trainer_spec`` (2: model_type, byte_fallback, ...),
``normalizer_spec`` (3: name, precompiled_charsmap, add_dummy_prefix,
remove_extra_whitespaces, escape_whitespaces). It is read with a small wire-format reader
(:func:`~core.tokenizers.formats.sentencepiece.proto.parse_model_proto`) rather than the
``protobuf`` package's generated classes: ``core`` may not import ``sentencepiece`` (which
ships the schema), generated code is tied to the ``protobuf`` runtime version, and a hand
reader of the dozen fields needed skips everything else and can name the byte offset of any
damage in its error message.

Encoding follows the library (``normalizer.cc``, ``unigram_model.cc`` ``EncodeOptimized``,
``bpe_model.cc``, ``SentencePieceProcessor::PopulateSentencePieceText``):

1. normalize: user-defined symbols are kept verbatim; otherwise the longest charsmap key
   at each position is replaced (:meth:`Charsmap.longest_match`); leading, trailing and
   repeated spaces are dropped (``remove_extra_whitespaces``); a space is prepended
   (``add_dummy_prefix``); spaces become ``▁`` (``escape_whitespaces``). Each normalized
   character remembers the original position where its chunk started (``norm_to_orig``);
2. segment the whole normalized string: Unigram = Viterbi with float32 sums (compared in
   float32; the library rescales path scores past -100,000), unknown characters scored
   ``min(normal scores) - 10``, user-defined pieces scored ``bytes * max_score - 0.1``,
   solved one whitespace-delimited word at a time with a word cache
   (:class:`~core.tokenizers.models.sentencepiece.UnigramViterbi`); BPE = repeatedly merge the adjacent pair whose merged piece
   has the highest score (leftmost on ties), then split unused pieces back;
3. runs of unknown pieces are merged into one; with byte fallback an unknown piece is
   spelled as ``<0xAB>`` pieces, only the last of which carries the original span.

Spans are code points of the original text: ``(norm_to_orig[begin], norm_to_orig[end])``
of the piece's normalized range, exactly as the library's byte offsets, converted.
Cost: O(n) for normalization of n code points (runs without charsmap keys or user symbols,
spaces included, are copied as slices), segmentation as documented there, O(pieces) for the
rest; one int per normalized character for each offset list, no per-character strings.

Segmentation itself is :mod:`core.tokenizers.models.sentencepiece` (with the piece type
constants).

Public names: :class:`SentencePieceModel`, :class:`SentencePieceToken`,
:func:`load_sentencepiece_model`, :data:`SPACE`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Callable

from core.errors import TokenizerLoadError
from core.text.normalize import NormalizedText
from core.tokenizers.formats._files import read_bytes
from core.tokenizers.formats.sentencepiece.proto import ModelProto, parse_model_proto
from core.tokenizers.models.sentencepiece import (
    BPE, BYTE, MODEL_TYPES, NORMAL, UNIGRAM, UNKNOWN, UNUSED, USER_DEFINED, UnigramViterbi,
    bpe_path, unigram_path)
from core.tokenizers.models.unigram import byte_piece
from core.tokenizers.normalizers.charsmap import Charsmap, compile_cached

__all__ = ["SPACE", "SentencePieceModel", "SentencePieceToken", "load_sentencepiece_model"]

SPACE = "\u2581"
_FLT_MIN = 1.1754943508222875e-38  # float32 FLT_MIN, SentencePiece's initial max_score
_SPACE_RUNS = re.compile("  +")


# -- the model ------------------------------------------------------------------------------

@dataclass(frozen=True)
class SentencePieceToken:
    """One piece: its text, id and span of original code points (``start == end`` when it
    covers nothing, e.g. a dummy-prefix ``▁`` or a byte piece before the last)."""

    piece: str
    id: int
    start: int
    end: int


class SentencePieceModel:
    """A SentencePiece model that encodes exactly as ``sentencepiece.SentencePieceProcessor``.

    Parameters
    ----------
    proto : ModelProto
    name : str
        Shown to the user.

    Raises
    ------
    TokenizerLoadError
        Where the library refuses the model: an empty or duplicated piece, no or two
        unknown pieces, byte pieces without ``byte_fallback`` or ``byte_fallback`` without
        all 256, a Word/Char model, a corrupt charsmap.
    """

    def __init__(self, proto: ModelProto, name: str = "sentencepiece"):
        self.proto, self.name = proto, name
        if proto.model_type not in (UNIGRAM, BPE):
            kind = MODEL_TYPES.get(proto.model_type, f"type {proto.model_type}")
            raise TokenizerLoadError(f"SentencePiece {kind} models are not supported (Unigram and BPE are)")
        self.pieces = [p for p, _, _ in proto.pieces]
        self.scores = [s for _, s, _ in proto.pieces]
        self.types = [t for _, _, t in proto.pieces]
        self._normal: dict[str, int] = {}    # NORMAL / USER_DEFINED / UNUSED: matchable
        self._reserved: dict[str, int] = {}  # CONTROL / UNKNOWN / BYTE
        for i, (piece, _, kind) in enumerate(proto.pieces):
            table = self._normal if kind in (NORMAL, USER_DEFINED, UNUSED) else self._reserved
            if not piece:
                raise TokenizerLoadError(f"piece {i} is empty")
            if piece in self._normal or piece in self._reserved:
                raise TokenizerLoadError(f"piece {piece!r} is defined twice")
            table[piece] = i
        self._check_special(proto)
        self.unk_id = self.types.index(UNKNOWN)
        normal = [s for s, t in zip(self.scores, self.types) if t == NORMAL]
        self.min_score = min(normal, default=3.4028234663852886e38)
        self.max_score = max([_FLT_MIN, *normal])
        self._user = {p for p, t in zip(self.pieces, self.types) if t == USER_DEFINED}
        self._user_reach = max(map(len, self._user), default=0)
        cmap = proto.precompiled_charsmap
        self.charsmap = Charsmap(cmap) if cmap else None
        self.vocab = {p: i for i, p in enumerate(self.pieces)}

    def _check_special(self, proto: ModelProto) -> None:
        unknown = [i for i, t in enumerate(self.types) if t == UNKNOWN]
        if len(unknown) != 1:
            raise TokenizerLoadError("the model has no unknown piece" if not unknown
                                     else f"the model has {len(unknown)} unknown pieces")
        byte_pieces = {p for p, t in zip(self.pieces, self.types) if t == BYTE}
        if byte_pieces and not proto.byte_fallback:
            raise TokenizerLoadError("the model has byte pieces although byte_fallback is off")
        if byte_pieces - {byte_piece(b) for b in range(256)}:
            raise TokenizerLoadError(f"invalid byte piece {sorted(byte_pieces)[0]!r}")
        if proto.byte_fallback and len(byte_pieces) != 256:
            raise TokenizerLoadError(f"byte_fallback is on but the model has {len(byte_pieces)} of 256 byte pieces")

    @classmethod
    def from_bytes(cls, data: bytes, name: str = "sentencepiece") -> "SentencePieceModel":
        return cls(parse_model_proto(data), name)

    # -- vocabulary ----------------------------------------------------------------------

    type_name = property(lambda self: MODEL_TYPES[self.proto.model_type])
    vocab_size = property(lambda self: len(self.pieces), doc="Number of pieces.")
    unk_token = property(lambda self: self.pieces[self.unk_id])

    def token_to_id(self, token: str) -> int | None:
        return self.vocab.get(token)

    def id_to_token(self, id_: int) -> str | None:
        return self.pieces[id_] if 0 <= id_ < len(self.pieces) else None

    def get_vocab(self) -> dict[str, int]:
        return dict(self.vocab)

    @property
    def byte_pieces(self) -> dict[int, int]:
        """Id -> byte value of every piece of type BYTE (``<0xAB>``; empty without byte fallback)."""
        return {i: int(self.pieces[i][3:5], 16) for i, t in enumerate(self.types) if t == BYTE}

    metaspace = SPACE  # the normalized text spells spaces (and the dummy prefix) as ``▁``

    def describe(self) -> dict[str, Any]:
        p = self.proto
        return {
            "type": f"SentencePiece {self.type_name}", "vocab_size": self.vocab_size,
            "unk_token": self.unk_token, "byte_fallback": p.byte_fallback,
            "normalizer": p.normalizer_name or ("precompiled" if self.charsmap else "identity"),
            "add_dummy_prefix": p.add_dummy_prefix,
            "remove_extra_whitespaces": p.remove_extra_whitespaces,
            "escape_whitespaces": p.escape_whitespaces,
            "treat_whitespace_as_suffix": p.treat_whitespace_as_suffix,
            "user_defined_symbols": sorted(self._user),
        }

    # -- normalization -------------------------------------------------------------------

    def _prefix(self, text: str, pos: int) -> tuple[str, int]:
        """(normalized chunk, code points consumed) at ``pos``: ``NormalizePrefix``."""
        for k in range(min(self._user_reach, len(text) - pos), 0, -1):
            if text[pos:pos + k] in self._user:
                return text[pos:pos + k], k
        hit = self.charsmap.longest_match(text, pos) if self.charsmap else None
        if hit is None:
            return text[pos], 1
        return hit[1], hit[0]

    @cached_property
    def _plain_space(self) -> bool:
        """True when no user symbol starts with a space and the charsmap leaves a space
        alone, so spaces can be handled in bulk (see :meth:`_copy`)."""
        return (not any(u.startswith(" ") for u in self._user)
                and (self.charsmap is None or self.charsmap.leaves_alone(" ")))

    def _trigger(self, text: str) -> re.Pattern:
        """Positions where normalization may do more than copy: user-defined symbols,
        charsmap keys and, unless :attr:`_plain_space`, spaces."""
        parts = [] if self._plain_space else ["[ ]"]
        if self._user:
            parts.append("[" + "".join(re.escape(u[0]) for u in sorted(self._user)) + "]")
        if self.charsmap is not None:
            found = self.charsmap.trigger_pattern(set(text) - ({" "} if self._plain_space else set()))
            if found:
                parts.append(found)
        return compile_cached("|".join(parts) or "(?!)")

    def _copy(self, text: str, pos: int, stop: int, prev_space: bool, out: list[str],
              starts: list[int], ends: list[int]) -> bool:
        """Append ``text[pos:stop]`` (nothing in it but spaces can change) with its offsets;
        with ``remove_extra_whitespaces``, spaces after a space are dropped. Returns whether
        the appended text ends in a space that later spaces must not follow. O(stop - pos)."""
        if not self.proto.remove_extra_whitespaces:
            _append_run(text, pos, stop, out, starts, ends)
            return False
        if prev_space:
            while pos < stop and text[pos] == " ":
                pos += 1
        for m in _SPACE_RUNS.finditer(text, pos, stop):
            cut = m.start() + 1  # keep the first space of the run
            _append_run(text, pos, cut, out, starts, ends)
            pos = m.end()
        _append_run(text, pos, stop, out, starts, ends)
        return text[stop - 1] == " "  # a trailing run keeps its first space

    def _normalize(self, text: str) -> tuple[str, list[int], list[int], int]:
        """Normalized text, each normalized character's source chunk (``starts``, ``ends``:
        one entry per character) and the original position the text ends at. O(n) for n
        code points; unchanged runs are copied as slices (no object per character but the
        offsets)."""
        p = self.proto
        space = SPACE if p.escape_whitespaces else " "
        out: list[str] = []
        starts: list[int] = []
        ends: list[int] = []
        pos, n = 0, len(text)
        if p.remove_extra_whitespaces:
            while pos < n:
                chunk, used = self._prefix(text, pos)
                if chunk != " ":
                    break
                pos += used
        if pos == n:
            return "", [], [], pos
        if p.add_dummy_prefix and not p.treat_whitespace_as_suffix:
            out.append(space), starts.append(pos), ends.append(pos)
        prev_space = p.remove_extra_whitespaces
        search = self._trigger(text).search
        while pos < n:
            m = search(text, pos)
            stop = n if m is None else m.start()
            if stop > pos:  # nothing here can change but spaces: copy in bulk
                prev_space, pos = self._copy(text, pos, stop, prev_space, out, starts, ends), stop
                continue
            chunk, used = self._prefix(text, pos)
            if prev_space:
                chunk = chunk.lstrip(" ")
            if chunk:
                out.append(chunk)
                starts.extend([pos] * len(chunk))
                ends.extend([pos + used] * len(chunk))
                prev_space = chunk.endswith(" ")
            pos += used
            if not p.remove_extra_whitespaces:
                prev_space = False
        norm, consumed = "".join(out).replace(" ", space), pos
        if p.remove_extra_whitespaces:
            kept = len(norm.rstrip(space))
            if kept < len(norm):
                consumed = starts[kept]
                norm = norm[:kept]
                del starts[kept:], ends[kept:]
        if p.add_dummy_prefix and p.treat_whitespace_as_suffix:
            norm += space
            starts.append(consumed), ends.append(consumed)
        return norm, starts, ends, consumed

    def normalize(self, text: str) -> NormalizedText:
        """The library's normalized text, each character mapped to the original chunk it
        came from (an inserted ``▁`` gets an empty span)."""
        norm, starts, ends, _ = self._normalize(text)
        return NormalizedText(text, norm, starts, ends)

    # -- segmentation --------------------------------------------------------------------

    @cached_property
    def viterbi(self) -> UnigramViterbi:
        """The Unigram segmenter with its prefix table and word cache (built on first use)."""
        return UnigramViterbi(self, SPACE if self.proto.escape_whitespaces else " ")

    def _piece_id(self, w: str) -> int:
        id_ = self._reserved.get(w)
        return id_ if id_ is not None else self._normal.get(w, self.unk_id)

    def encode_parts(self, text: str, should_stop: Callable[[], bool] | None = None
                     ) -> tuple[list[str], list[int], list[int], list[int], NormalizedText]:
        """Pieces, ids, original code-point starts and ends (parallel lists), and the
        normalized text, as ``SentencePieceProcessor.encode``. O(n) besides segmentation.

        Raises
        ------
        TypeError
            If ``text`` is not a ``str``.
        core.errors.Cancelled
            If ``should_stop()`` returned True (asked while segmenting).
        """
        if not isinstance(text, str):
            raise TypeError(f"text must be str, not {type(text).__name__}")
        norm, starts, ends, consumed = self._normalize(text)
        normalized = NormalizedText(text, norm, starts, ends)
        if not norm:
            return [], [], [], [], normalized
        if self.proto.model_type == BPE:
            triples = bpe_path(self, norm, should_stop)
            a_s, b_s, id_s = [t[0] for t in triples], [t[1] for t in triples], [t[2] for t in triples]
        else:
            a_s, b_s, id_s = unigram_path(self, norm, should_stop)
        n2o = starts + [consumed]
        pieces: list[str] = []
        ids: list[int] = []
        begins: list[int] = []
        finishes: list[int] = []
        unk, fallback, prev_unk = self.unk_id, self.proto.byte_fallback, False
        vocab = self.pieces
        for a, b, id_ in zip(a_s, b_s, id_s):
            is_unk = id_ == unk
            if is_unk and fallback:
                self._spell_bytes(norm[a:b], n2o[a], n2o[b], pieces, ids, begins, finishes)
            elif is_unk and prev_unk:
                pieces[-1] += norm[a:b]
                finishes[-1] = n2o[b]
            else:  # a known piece is the vocabulary's own string: no new object per piece
                pieces.append(norm[a:b] if is_unk else vocab[id_])
                ids.append(id_), begins.append(n2o[a]), finishes.append(n2o[b])
            prev_unk = is_unk
        return pieces, ids, begins, finishes, normalized

    def _spell_bytes(self, w: str, begin: int, end: int, pieces, ids, begins, finishes) -> None:
        """Append one ``<0xAB>`` piece per UTF-8 byte of ``w``; only the last carries the
        span's end (the library's offsets)."""
        data = w.encode("utf-8", "surrogatepass")
        for k, byte in enumerate(data):
            piece = byte_piece(byte)
            pieces.append(piece), ids.append(self._piece_id(piece)), begins.append(begin)
            finishes.append(end if k == len(data) - 1 else begin)

    def encode(self, text: str) -> list[SentencePieceToken]:
        """Pieces, ids and original code-point spans, as ``SentencePieceProcessor.encode``.

        Raises
        ------
        TypeError
            If ``text`` is not a ``str``.
        """
        return [SentencePieceToken(*t) for t in zip(*self.encode_parts(text)[:4])]

    def encode_as_pieces(self, text: str) -> list[str]:
        return self.encode_parts(text)[0]

    def encode_as_ids(self, text: str) -> list[int]:
        return self.encode_parts(text)[1]


def _append_run(text: str, a: int, b: int, out: list[str], starts: list[int],
                ends: list[int]) -> None:
    """Append ``text[a:b]``, copied unchanged, with its offsets (character ``k`` from
    ``(k, k + 1)``); ``ends`` shares the int objects of ``starts``. O(b - a)."""
    if b <= a:
        return
    k = len(starts)
    out.append(text[a:b])
    starts.extend(range(a, b))
    ends.extend(starts[k + 1:])
    ends.append(b)


def load_sentencepiece_model(path: str | Path) -> SentencePieceModel:
    """Read a ``.model`` file.

    Raises
    ------
    TokenizerLoadError
        If the file cannot be read, is not a regular file or is larger than
        :data:`~core.tokenizers.formats._files.MAX_TOKENIZER_FILE_BYTES` (checked before
        reading), or is not a valid SentencePiece model (the message names the file).
    """
    path = Path(path)
    data = read_bytes(path)
    try:
        return SentencePieceModel.from_bytes(data, name=path.name)
    except TokenizerLoadError as exc:
        raise TokenizerLoadError(str(exc), str(path)) from None
