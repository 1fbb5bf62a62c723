"""The field types of a ``tokenizer.json``, checked as strictly as the reference library does.

:func:`check_document` runs before the pipeline is built and refuses what the ``tokenizers``
library refuses — ids that are negative or out of range, flags that are not ``true``/``false``
(``"yes"``), a dropout outside [0, 1], a choice outside its set, a pattern that is not
``{"String": …}`` or ``{"Regex": …}``, an unknown decoder type, an unknown top-level field or
version — with a :class:`~core.errors.TokenizerFieldError` whose message starts with the
field's JSON path and shows the value. Non-finite numbers and deep nesting were already
refused by :func:`core.tokenizers.formats._json.parse_json`.

A component's ``type`` must be a string (``normalizer.normalizers[1].type: must be a string
naming the normalizer type (…), not ["NFC"]``) and a member of a ``Sequence`` an object; the
reference's serde reads a component as a tagged enum first and reports a ``type`` of the
wrong JSON kind as "data did not match any variant of untagged enum …" (no path).

Deliberate differences: a *missing* field takes its default here (the reference demands some,
e.g. ``ByteLevel.add_prefix_space``), and ids stop at :data:`~._json.MAX_ID` (2**31 - 1)
where the reference allows 2**32 - 1. Where a normalizer, post-processor or decoder has a
missing, unknown or non-string ``type``, the reference falls back to guessing the component
from its other fields (its "legacy" untagged form, e.g. ``{"type": ["x"], "prefix": "##",
"cleanup": true}`` loads as a WordPiece decoder); here the type must be named. Unknown
normalizer, pre-tokenizer, processor and model type names are refused by their registries
when the pipeline is built.

Every walk is iterative (a work list), so the cost is O(number of fields) with no recursion.

Public names: :data:`FIELDS`, :data:`TYPES`, :func:`check_document`, :func:`guess_model_type`.
"""

from __future__ import annotations

import math
from operator import itemgetter
from typing import Any, Callable, Collection

from core.errors import TokenizerFieldError
from core.tokenizers.decoders import DECODERS
from core.tokenizers.formats._json import MAX_ID, check_id, field_path, index_path, key_path, shown
from core.tokenizers.normalizers import NORMALIZERS
from core.tokenizers.pre_tokenizers import PRE_TOKENIZERS
from core.tokenizers.pre_tokenizers.base import BEHAVIORS
from core.tokenizers.processors import POST_PROCESSORS

Check = Callable[[Any, str, list], None]
"""``check(value, path, todo)``: raise for a bad value; append nested components to ``todo``."""


def _fail(path: str, wanted: str, value: Any) -> None:
    raise TokenizerFieldError(path, f"must be {wanted}, not {shown(value)}")


def _bool(value: Any, path: str, todo: list) -> None:
    if not isinstance(value, bool):
        _fail(path, "true or false", value)


def _opt_bool(value: Any, path: str, todo: list) -> None:
    if value is not None:
        _bool(value, path, todo)


def _str(value: Any, path: str, todo: list) -> None:
    if not isinstance(value, str):
        _fail(path, "a string", value)


def _char(value: Any, path: str, todo: list) -> None:
    if not isinstance(value, str) or len(value) != 1:
        _fail(path, "one character", value)


def _opt_str(value: Any, path: str, todo: list) -> None:
    if value is not None:
        _str(value, path, todo)


def _id(value: Any, path: str, todo: list) -> None:
    check_id(value, path)


def _count(value: Any, path: str, todo: list) -> None:
    if type(value) is not int or not 0 <= value < 2**63:
        _fail(path, "a whole number ≥ 0", value)


def _opt_count(value: Any, path: str, todo: list) -> None:
    if value is not None:
        _count(value, path, todo)


def _dropout(value: Any, path: str, todo: list) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                              or not 0 <= value <= 1):
        _fail(path, "a number from 0 to 1 (or null)", value)


def _choice(*allowed: str) -> Check:
    def check(value: Any, path: str, todo: list) -> None:
        if value not in allowed or not isinstance(value, str):
            _fail(path, "one of " + ", ".join(f'"{a}"' for a in allowed), value)
    return check


def _pattern(value: Any, path: str, todo: list) -> None:
    if (not isinstance(value, dict) or len(value) != 1
            or next(iter(value)) not in ("String", "Regex")):
        _fail(path, 'an object {"String": …} or {"Regex": …}', value)
    kind, text = next(iter(value.items()))
    _str(text, field_path(path, kind), todo)


def _components(kind: str) -> Check:
    def check(value: Any, path: str, todo: list) -> None:
        if not isinstance(value, list):
            _fail(path, f"a list of {_LABELS[kind]}s", value)
        for i, item in enumerate(value):
            if not isinstance(item, dict):
                _fail(index_path(path, i), f"an object naming a {_LABELS[kind]} type", item)
        todo.extend((kind, item, index_path(path, i)) for i, item in enumerate(value))
    return check


def _id_pair(value: Any, path: str, todo: list) -> None:
    if not isinstance(value, list) or len(value) != 2 or not isinstance(value[0], str):
        _fail(path, 'a pair ["token", id]', value)
    check_id(value[1], index_path(path, 1))


def _vocab_map(value: Any, path: str, todo: list) -> None:
    if not isinstance(value, dict):
        _fail(path, "an object mapping tokens to ids", value)
    ids = value.values()
    if not set(map(type, ids)) - {int} and (not ids or 0 <= min(ids) and max(ids) <= MAX_ID):
        return
    for token, i in value.items():
        check_id(i, key_path(path, token))


def _unigram_vocab(value: Any, path: str, todo: list) -> None:
    if not isinstance(value, list):
        _fail(path, "a list of [piece, score] pairs", value)
    if _all_pairs_right(value):
        return
    for i, entry in enumerate(value):
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str)):
            _fail(index_path(path, i), 'a pair ["piece", score]', entry)
        score = entry[1]
        if isinstance(score, bool) or not isinstance(score, (int, float)) or not _finite(score):
            _fail(index_path(index_path(path, i), 1), "a finite number", score)


def _finite(score: int | float) -> bool:
    """Whether ``score`` is a finite float (an integer beyond the float range is not)."""
    try:
        return math.isfinite(score)
    except OverflowError:
        return False


def _all_pairs_right(value: list) -> bool:
    """Every entry a ``["piece", finite number]`` list (bools refused), checked in C-level
    passes; False sends :func:`_unigram_vocab` to its loop, which names the wrong one."""
    if set(map(type, value)) - {list} or set(map(len, value)) - {2}:
        return False
    scores = list(map(itemgetter(1), value))
    if set(map(type, map(itemgetter(0), value))) - {str} or set(map(type, scores)) - {float, int}:
        return False
    try:
        return all(map(math.isfinite, scores))
    except OverflowError:  # an int beyond float range
        return False


def _special_tokens(value: Any, path: str, todo: list) -> None:
    if not isinstance(value, dict):
        _fail(path, "an object of special tokens", value)
    for name, token in value.items():
        where = key_path(path, name)
        if not isinstance(token, dict):
            _fail(where, 'an object {"id": …, "ids": […], "tokens": […]}', token)
        _opt_str(token.get("id"), field_path(where, "id"), todo)
        ids = token.get("ids", [])
        if not isinstance(ids, list):
            _fail(field_path(where, "ids"), "a list of ids", ids)
        for k, i in enumerate(ids):
            check_id(i, index_path(field_path(where, "ids"), k))


def _padding_strategy(value: Any, path: str, todo: list) -> None:
    if value == "BatchLongest":
        return
    if not isinstance(value, dict) or list(value) != ["Fixed"]:
        _fail(path, '"BatchLongest" or {"Fixed": length}', value)
    _count(value["Fixed"], field_path(path, "Fixed"), todo)


_SCHEME = _choice("first", "never", "always")
_METASPACE = {"replacement": _str, "str_rep": _str, "prepend_scheme": _SCHEME, "split": _bool,
              "add_prefix_space": _bool}
_BYTE_LEVEL = {"add_prefix_space": _bool, "trim_offsets": _bool, "use_regex": _bool}

#: kind -> type -> field -> check. A type listed with no fields takes none the walk checks.
FIELDS: dict[str, dict[str, dict[str, Check]]] = {
    "normalizer": {
        "BertNormalizer": {"clean_text": _bool, "handle_chinese_chars": _bool,
                           "strip_accents": _opt_bool, "lowercase": _bool},
        "Strip": {"strip_left": _bool, "strip_right": _bool},
        "Replace": {"pattern": _pattern, "content": _str},
        "Prepend": {"prepend": _str},
        "Precompiled": {"precompiled_charsmap": _opt_str},
        "Sequence": {"normalizers": _components("normalizer")},
    },
    "pre_tokenizer": {
        "ByteLevel": _BYTE_LEVEL,
        "Metaspace": _METASPACE,
        "Split": {"pattern": _pattern, "behavior": _choice(*BEHAVIORS), "invert": _bool},
        "Punctuation": {"behavior": _choice(*BEHAVIORS)},
        "Digits": {"individual_digits": _bool},
        "CharDelimiterSplit": {"delimiter": _str},
        "Sequence": {"pretokenizers": _components("pre_tokenizer")},
    },
    "post_processor": {
        "BertProcessing": {"sep": _id_pair, "cls": _id_pair},
        "RobertaProcessing": {"sep": _id_pair, "cls": _id_pair, "trim_offsets": _bool,
                              "add_prefix_space": _bool},
        "ByteLevel": _BYTE_LEVEL,
        "TemplateProcessing": {"special_tokens": _special_tokens},
        "Sequence": {"processors": _components("post_processor")},
    },
    "decoder": {
        "BPEDecoder": {"suffix": _str},
        "ByteLevel": _BYTE_LEVEL,
        "WordPiece": {"prefix": _str, "cleanup": _bool},
        "Metaspace": {**_METASPACE, "replacement": _char},
        "CTC": {"pad_token": _str, "word_delimiter_token": _str, "cleanup": _bool},
        "Sequence": {"decoders": _components("decoder")},
        "Replace": {"pattern": _pattern, "content": _str},
        "Fuse": {}, "ByteFallback": {},
        "Strip": {"content": _char, "start": _count, "stop": _count},
    },
    "model": {
        "WordPiece": {"vocab": _vocab_map, "unk_token": _str, "continuing_subword_prefix": _str,
                      "max_input_chars_per_word": _count},
        "WordLevel": {"vocab": _vocab_map, "unk_token": _str},
        "BPE": {"vocab": _vocab_map, "dropout": _dropout, "unk_token": _opt_str,
                "continuing_subword_prefix": _opt_str, "end_of_word_suffix": _opt_str,
                "fuse_unk": _bool, "byte_fallback": _bool, "ignore_merges": _bool},
        "Unigram": {"vocab": _unigram_vocab, "unk_id": _opt_count, "byte_fallback": _bool},
    },
    "added_token": {
        "": {"id": _id, "content": _str, "single_word": _bool, "lstrip": _bool,
             "rstrip": _bool, "normalized": _bool, "special": _bool},
    },
    "padding": {
        "": {"strategy": _padding_strategy, "direction": _choice("Left", "Right"),
             "pad_to_multiple_of": _opt_count, "pad_id": _id, "pad_type_id": _id,
             "pad_token": _str},
    },
    "truncation": {
        "": {"direction": _choice("Left", "Right"), "max_length": _count, "stride": _count,
             "strategy": _choice("LongestFirst", "OnlyFirst", "OnlySecond")},
    },
}

_LABELS = {"normalizer": "normalizer", "pre_tokenizer": "pre-tokenizer",
           "post_processor": "post-processor", "decoder": "decoder", "model": "model"}

#: kind -> the type names the pipeline can build (the registries; models: :data:`FIELDS`).
TYPES: dict[str, Collection[str]] = {
    "normalizer": NORMALIZERS, "pre_tokenizer": PRE_TOKENIZERS,
    "post_processor": POST_PROCESSORS, "decoder": DECODERS, "model": FIELDS["model"]}

_TOP = ("version", "truncation", "padding", "added_tokens", "normalizer", "pre_tokenizer",
        "post_processor", "decoder", "model")


def guess_model_type(cfg: dict) -> str | None:
    """Older files omit the model type; tell it from the keys, as the reference does."""
    if "merges" in cfg:
        return "BPE"
    if "max_input_chars_per_word" in cfg:
        return "WordPiece"
    if isinstance(cfg.get("vocab"), list):
        return "Unigram"
    return "WordLevel" if "unk_token" in cfg else None


def check_document(doc: dict) -> None:
    """Check every field of a parsed ``tokenizer.json`` whose type this module knows.

    Raises
    ------
    TokenizerFieldError
        The first bad field, by JSON path, with the value and what it must be.
    """
    unknown = [k for k in doc if k not in _TOP]
    if unknown:
        raise TokenizerFieldError(unknown[0], "not a tokenizer.json field (they are "
                                              f"{', '.join(_TOP)})")
    if "version" in doc and doc["version"] != "1.0":
        _fail("version", '"1.0" (the only tokenizer.json version)', doc["version"])
    todo: list[tuple[str, Any, str]] = [
        (kind, doc.get(kind), kind) for kind in ("normalizer", "pre_tokenizer",
                                                 "post_processor", "decoder", "model",
                                                 "padding", "truncation")]
    for key in ("padding", "truncation"):
        if doc.get(key) is not None and not isinstance(doc[key], dict):
            _fail(key, "an object or null", doc[key])
    added = doc.get("added_tokens")
    if added is not None and not isinstance(added, list):
        _fail("added_tokens", "a list of added tokens", added)
    if isinstance(added, list):
        todo.extend(("added_token", t, index_path("added_tokens", i)) for i, t in enumerate(added))
    while todo:
        _check_component(*todo.pop(), todo)


def _check_component(kind: str, cfg: Any, path: str, todo: list) -> None:
    if kind == "decoder" and cfg is not None and not isinstance(cfg, dict):
        _fail(path, "an object with a decoder type (or null)", cfg)
    if not isinstance(cfg, dict):
        return  # null, or a shape the builder refuses with its own message
    types = FIELDS[kind]
    if kind in TYPES and not isinstance(cfg.get("type", ""), str):
        _fail(field_path(path, "type"), f"a string naming the {_LABELS[kind]} type (one of "
                                         f"{', '.join(sorted(TYPES[kind]))})", cfg["type"])
    name = cfg.get("type") if "" not in types else ""
    if kind == "model" and "type" not in cfg:
        name = guess_model_type(cfg)
    if name not in types:
        if kind == "decoder":
            raise TokenizerFieldError(field_path(path, "type"), f"unknown decoder type "
                                      f"{shown(name)} (known: {', '.join(sorted(types))})")
        return  # the registry refuses unknown types when the pipeline is built
    for field, check in types[name].items():
        if field in cfg:
            try:
                check(cfg[field], field_path(path, field), todo)
            except TokenizerFieldError as exc:
                if not name:
                    raise
                what = str(exc).removeprefix(f"{exc.field}: ")
                raise TokenizerFieldError(exc.field, f"{what} (in the {name} "
                                                     f"{kind.replace('_', '-')})") from None
