"""The SentencePiece ``ModelProto`` read with a small protobuf wire-format reader.

Only the fields this project uses are decoded (everything else is skipped): ``pieces``
(1: piece, score, type), ``trainer_spec`` (2: model_type, treat_whitespace_as_suffix,
byte_fallback, unk_id, unk_surface, unk_piece), ``normalizer_spec`` (3: name, precompiled_charsmap,
add_dummy_prefix, remove_extra_whitespaces, escape_whitespaces) — field numbers from
``sentencepiece_model.proto``. Damage is reported with its byte offset.

Public names: :class:`ModelProto`, :func:`parse_model_proto`. The piece and model type
constants are :mod:`core.tokenizers.models.sentencepiece`'s.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field
from typing import Any, Iterator

from core.errors import TokenizerLoadError
from core.tokenizers.models.sentencepiece import (
    BYTE, CONTROL, NORMAL, UNIGRAM, UNKNOWN, UNUSED, USER_DEFINED)

_F32 = struct.Struct("<f")


# -- protobuf wire format -------------------------------------------------------------------

class _Malformed(Exception):
    pass


def _varint(buf: bytes, pos: int, end: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= end:
            raise _Malformed(f"truncated varint at byte {pos}")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7
        if shift >= 70:
            raise _Malformed(f"varint longer than 10 bytes at byte {pos}")


def _fields(buf: bytes, pos: int, end: int) -> Iterator[tuple[int, int, Any]]:
    """``(field number, wire type, value)``; a length-delimited value is a ``(start, end)`` slice."""
    while pos < end:
        at = pos
        key, pos = _varint(buf, pos, end)
        number, wire = key >> 3, key & 7
        if number == 0:
            raise _Malformed(f"field number 0 at byte {at}")
        if wire == 0:
            value, pos = _varint(buf, pos, end)
        elif wire in (1, 5):
            size = 8 if wire == 1 else 4
            if pos + size > end:
                raise _Malformed(f"truncated fixed-size field {number} at byte {at}")
            value, pos = buf[pos:pos + size], pos + size
        elif wire == 2:
            size, pos = _varint(buf, pos, end)
            if pos + size > end:
                raise _Malformed(f"field {number} at byte {at} claims {size} bytes; only {end - pos} remain")
            value, pos = (pos, pos + size), pos + size
        else:
            raise _Malformed(f"unsupported wire type {wire} (field {number}) at byte {at}")
        yield number, wire, value


# field number -> (name, kind); kinds: str, bytes, msg, float, bool, int, enum
_PIECE = {1: ("piece", "str"), 2: ("score", "float"), 3: ("type", "enum")}
_TRAINER = {3: ("model_type", "enum"), 24: ("treat_whitespace_as_suffix", "bool"),
            35: ("byte_fallback", "bool"), 40: ("unk_id", "int"), 44: ("unk_surface", "str"),
            45: ("unk_piece", "str")}
_NORMALIZER = {1: ("name", "str"), 2: ("precompiled_charsmap", "bytes"),
               3: ("add_dummy_prefix", "bool"), 4: ("remove_extra_whitespaces", "bool"),
               5: ("escape_whitespaces", "bool")}
_WIRE = {"str": 2, "bytes": 2, "msg": 2, "float": 5, "bool": 0, "int": 0, "enum": 0}


def _message(buf: bytes, span: tuple[int, int], schema: dict, what: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for number, wire, value in _fields(buf, *span):
        if number not in schema:
            continue
        name, kind = schema[number]
        if wire != _WIRE[kind]:
            raise _Malformed(f"{what}.{name} (field {number}) has wire type {wire}, expected {_WIRE[kind]}")
        if kind == "str":
            try:
                out[name] = buf[value[0]:value[1]].decode("utf-8")
            except UnicodeDecodeError:
                raise _Malformed(f"{what}.{name} at byte {value[0]} is not UTF-8") from None
        elif kind == "bytes":
            out[name] = buf[value[0]:value[1]]
        elif kind == "float":
            out[name] = _F32.unpack(value)[0]
        elif kind == "bool":
            out[name] = bool(value)
        else:  # int32 / enum: 64-bit two's complement on the wire
            out[name] = value - (1 << 64) if value >= 1 << 63 else value
    return out


@dataclass(frozen=True)
class ModelProto:
    """The fields of a SentencePiece ``ModelProto`` this project uses (proto2 defaults)."""

    pieces: tuple[tuple[str, float, int], ...]  # (piece, score, type) by id
    model_type: int = UNIGRAM
    byte_fallback: bool = False
    treat_whitespace_as_suffix: bool = False
    normalizer_name: str = ""
    precompiled_charsmap: bytes = field(default=b"", repr=False)
    add_dummy_prefix: bool = True
    remove_extra_whitespaces: bool = True
    escape_whitespaces: bool = True
    unk_surface: str = " \u2047 "  # what decoding writes for the unknown piece


def parse_model_proto(data: bytes) -> ModelProto:
    """Decode a serialized ``ModelProto``.

    Raises
    ------
    TokenizerLoadError
        On truncated or malformed protobuf, a field of the wrong wire type, invalid UTF-8
        in a piece, an unknown piece type, a NaN or infinite score, no pieces at all, or a missing
        ``trainer_spec``/``normalizer_spec`` (always written by the trainer: a file cut
        between two fields would otherwise pass as a model with default settings).
    """
    if not isinstance(data, (bytes, bytearray)):
        raise TokenizerLoadError(f"a SentencePiece model must be bytes, not {type(data).__name__}")
    buf = bytes(data)
    pieces, trainer, normalizer, seen = [], {}, {}, set()
    try:
        for number, wire, value in _fields(buf, 0, len(buf)):
            seen.add(number)
            if number in (1, 2, 3) and wire != 2:
                raise _Malformed(f"ModelProto field {number} has wire type {wire}, expected 2")
            if number == 1:
                p = _message(buf, value, _PIECE, f"pieces[{len(pieces)}]")
                pieces.append((p.get("piece", ""), p.get("score", 0.0), p.get("type", NORMAL)))
            elif number == 2:
                trainer.update(_message(buf, value, _TRAINER, "trainer_spec"))
            elif number == 3:
                normalizer.update(_message(buf, value, _NORMALIZER, "normalizer_spec"))
    except _Malformed as exc:
        raise TokenizerLoadError(f"not a valid SentencePiece model: {exc}") from None
    if not pieces:
        raise TokenizerLoadError("not a SentencePiece model: it has no pieces")
    if not {2, 3} <= seen:
        # The trainer always writes both; without them the file was cut between fields.
        raise TokenizerLoadError("the SentencePiece model looks truncated: "
                                 "trainer_spec or normalizer_spec is missing")
    for i, (piece, score, kind) in enumerate(pieces):
        if kind not in (NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE):
            raise TokenizerLoadError(f"piece {i} has unknown type {kind}")
        if not math.isfinite(score):
            raise TokenizerLoadError(f"pieces[{i}].score: piece {piece[:40]!r} has the score "
                                     f"{score}; scores must be finite numbers")
    return ModelProto(
        pieces=tuple(pieces), model_type=trainer.get("model_type", UNIGRAM),
        byte_fallback=trainer.get("byte_fallback", False),
        treat_whitespace_as_suffix=trainer.get("treat_whitespace_as_suffix", False),
        normalizer_name=normalizer.get("name", ""),
        precompiled_charsmap=normalizer.get("precompiled_charsmap", b""),
        add_dummy_prefix=normalizer.get("add_dummy_prefix", True),
        remove_extra_whitespaces=normalizer.get("remove_extra_whitespaces", True),
        escape_whitespaces=normalizer.get("escape_whitespaces", True),
        unk_surface=trainer.get("unk_surface", " \u2047 "),
    )
