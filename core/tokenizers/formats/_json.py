"""Parsing tokenizer JSON safely: a depth limit, no non-finite numbers,
ids in range, and JSON paths for every complaint.

Python's ``json`` accepts ``NaN``/``Infinity``/``-Infinity`` (and turns ``1e400`` into
infinity) and recurses once per nesting level, so a document nested past the interpreter's
recursion limit raises ``RecursionError`` (cleanly: the C scanner checks the limit).
:func:`parse_json` parses with a hook that marks the ``NaN``/``Infinity`` literals, then
refuses nesting deeper than :data:`MAX_JSON_DEPTH` — the limit of the reference library's
JSON reader — measured on the parsed document level by level (:func:`too_deep`; the
``RecursionError`` counts as too deep), naming where it happens, and names the first
non-finite number by its JSON path. :func:`nesting_depth` measures the raw text instead
(brackets outside strings, no parse), for readers that check before parsing. A float that
overflows (``1e400``) becomes infinity, which every numeric field check refuses
(:mod:`.hf_schema`: ids and counts must be integers, scores finite, dropout in [0, 1]).

Paths read like ``model.vocab["x"]``, ``normalizer.normalizers[1].lowercase``: field names
after dots, object keys chosen by the file (token strings) in ``["…"]``, list indices in
``[i]`` (see :func:`key_path`, :func:`index_path`).

Public names: :data:`MAX_JSON_DEPTH`, :data:`MAX_ID`, :func:`parse_json`, :func:`key_path`,
:func:`field_path`, :func:`index_path`, :func:`shown`, :func:`check_id`, :func:`nesting_depth`,
:func:`too_deep`, :func:`parsed_and_checked`.
"""

from __future__ import annotations

import json
from itertools import chain
from typing import Any, Callable

import numpy as np
import orjson
import regex

from core.errors import TokenizerFieldError, TokenizerLoadError
from core.tokenizers.formats._files import utf8_text

MAX_JSON_DEPTH = 128
"""Deepest nesting of arrays and objects accepted (the reference's serde_json limit)."""

MAX_ID = 2**31 - 1
"""Largest token id accepted (ids index int32 arrays; the reference's limit is 2**32 - 1)."""

_CHUNK = 1 << 24  # bytes per step of the depth scan (bounds its numpy temporaries)
_BRACKET_STEP = np.zeros(256, dtype=np.int8)
_BRACKET_STEP[[0x5B, 0x7B]] = 1  # [ {
_BRACKET_STEP[[0x5D, 0x7D]] = -1  # ] }
_TOKEN = regex.compile(r'("(?:[^"\\]|\\.)*+")\s*+(:?)|[\[\]{},]', regex.DOTALL)


class _NonFinite(float):
    """A number JSON cannot hold, kept with its spelling until its path is found."""

    def __new__(cls, spelling: str):
        out = super().__new__(cls, "nan")
        out.spelling = spelling
        return out


def shown(value: Any, limit: int = 60) -> str:
    """``value`` as JSON (``"yes"``, ``-3``, ``null``), cut to ``limit`` characters."""
    if isinstance(value, _NonFinite):
        return value.spelling
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def key_path(parent: str, key: str) -> str:
    """The path of an object entry chosen by the file: ``parent["key"]``."""
    return f"{parent}[{shown(key)}]"


def field_path(parent: str, name: str) -> str:
    """The path of a named field: ``parent.name`` (``name`` at the top)."""
    if not name.isidentifier():
        return key_path(parent, name)
    return f"{parent}.{name}" if parent else name


def index_path(parent: str, index: int) -> str:
    """The path of a list item: ``parent[index]``."""
    return f"{parent}[{index}]"


def check_id(value: Any, field: str, source: str | None = None) -> int:
    """``value`` as a token id: a JSON integer from 0 to :data:`MAX_ID`.

    Raises
    ------
    TokenizerFieldError
        Naming ``field`` and the value.
    """
    if type(value) is not int or not 0 <= value <= MAX_ID:
        raise TokenizerFieldError(field, f"an id must be a whole number from 0 to {MAX_ID:,}, "
                                         f"not {shown(value)}", source)
    return value


def nesting_depth(text: str) -> int:
    """Deepest nesting of ``[``/``{`` in JSON text, brackets inside strings ignored.

    O(n) in the text length with no recursion: escaped backslashes and quotes are dropped,
    a bracket is inside a string when an odd number of quotes precede it, and the depth is
    a cumulative sum — all in numpy, :data:`_CHUNK` bytes at a time.
    """
    data = text.encode("utf-8", "surrogatepass").replace(b"\\\\", b"").replace(b'\\"', b"")
    depth = quotes_before = deepest = 0
    for start in range(0, len(data), _CHUNK):
        codes = np.frombuffer(data, np.uint8, count=min(_CHUNK, len(data) - start), offset=start)
        quotes = np.flatnonzero(codes == 0x22)
        steps = _BRACKET_STEP[codes]
        at = np.flatnonzero(steps)
        outside = (np.searchsorted(quotes, at) + quotes_before) % 2 == 0
        running = np.cumsum(steps[at][outside], dtype=np.int64) + depth
        if len(running):
            deepest, depth = max(deepest, int(running.max())), int(running[-1])
        quotes_before += len(quotes)
    return deepest


_CONTAINERS = frozenset({list, dict})


def too_deep(doc: Any, limit: int) -> bool:
    """Whether parsed JSON nests arrays and objects more than ``limit`` deep.

    Level by level, without recursion. A level of up to :data:`_FEW` containers is looked
    at a container at a time: one ``set(map(type, ...))`` pass over each one's values, and
    the values go on whole when they are all containers or none is (a vocabulary's ints,
    a merge list's pairs), so a big section is never filtered value by value; a section
    of :data:`_FLAT_FROM` or more containers that hold only scalars (merge pairs, a Unigram
    vocabulary's pairs) is done with at the next level, unless that level is past
    ``limit``; a level of many containers that all hold
    only scalars (a Unigram vocabulary's pairs) is the last, found in one pass. A larger
    level's children are gathered in C-level chains and filtered only when they mix
    containers and scalars. O(values in the document).
    """
    level = [doc] if type(doc) in _CONTAINERS else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return True
        if len(level) <= _FEW:
            if len(level) >= _FLAT_FROM and _flat(level):  # (a Unigram vocabulary's pairs)
                return False  # only scalars below: the deepest level
            parts = [_containers_in(c if type(c) is list else c.values()) for c in level]
            if depth < limit:  # a big section of flat containers (merge pairs, a Unigram
                # vocabulary's pairs) ends the next level
                parts = [() if len(p) >= _FLAT_FROM and _flat(p) else p for p in parts]
            level = list(chain.from_iterable(parts))
            continue
        lists = [c for c in level if type(c) is list]
        children = list(chain(chain.from_iterable(lists), chain.from_iterable(
            map(dict.values, [c for c in level if type(c) is dict] if len(lists) < len(level)
                else ()))))
        level = _containers_in(children)
    return False


_FEW = 100_000  # containers in a level looked at one by one (each a C-level pass)
_FLAT_FROM = 1024  # containers in a level from which one pass first asks if all are flat


def _flat(containers: Any) -> bool:
    """Whether every one of ``containers`` (all lists or all objects) holds only scalars."""
    kinds = set(map(type, containers))
    if kinds == {list}:
        inside = chain.from_iterable(containers)
    elif kinds == {dict}:
        inside = chain.from_iterable(map(dict.values, containers))
    else:
        return False
    return set(map(type, inside)).isdisjoint(_CONTAINERS)


def _containers_in(values: Any) -> Any:
    """The arrays and objects among ``values``: all of them, none, or those filtered out."""
    kinds = set(map(type, values))
    if kinds.isdisjoint(_CONTAINERS):
        return ()
    if kinds <= _CONTAINERS:
        return values
    return [v for v in values if type(v) in _CONTAINERS]


def _deep_path(text: str, limit: int) -> tuple[str, int]:
    """The path (shortened in the middle) and line where nesting first exceeds ``limit``."""
    stack: list[list[Any]] = []  # [kind, key or index]
    for m in _TOKEN.finditer(text):
        tok = m.group()
        if tok[0] == '"':
            if m.group(2) and stack and stack[-1][0] == "{":
                stack[-1][1] = _key(m.group(1))
        elif tok in "[{":
            stack.append([tok, 0 if tok == "[" else None])
            if len(stack) > limit:
                return _path_of(stack[:-1]), text.count("\n", 0, m.start()) + 1
        elif tok in "]}":
            if stack:
                stack.pop()
        elif tok == "," and stack and stack[-1][0] == "[":
            stack[-1][1] += 1
    return "", 1


def _key(quoted: str) -> str:
    try:
        return json.loads(quoted)
    except ValueError:
        return quoted[1:-1]


def _path_of(stack: list[list[Any]]) -> str:
    parts = [f"[{key}]" if kind == "[" else field_path("_", key)[1:]
             for kind, key in stack if kind == "[" or isinstance(key, str)]
    if len(parts) > 12:
        parts = parts[:6] + [f"…({len(parts) - 12} more levels)…"] + parts[-6:]
    return "".join(parts).lstrip(".")


def parse_json(text: str | bytes, source: str | None = None, *, token_map: bool = False,
               exact: bool = False) -> Any:
    """Parse JSON text (a ``str``, or UTF-8 ``bytes``: decoded only when ``orjson`` refuses
    them or a message needs the text) with the limits of this module.

    ``token_map``: the top-level object maps tokens to values (``vocab.json``), so its keys
    are shown as ``["token"]`` in paths. Unless ``exact``, ``orjson`` parses first
    (:func:`_fast_parse`); it reads an integer beyond 64 bits as a float, so a caller whose
    checks refuse the document parses it again with ``exact=True`` to name the value as the
    file spells it.

    Raises
    ------
    TokenizerFieldError
        Nesting deeper than :data:`MAX_JSON_DEPTH` (with the path where it happens), or a
        ``NaN``/``Infinity``/out-of-range number (with its path).
    TokenizerLoadError
        Not JSON (line and column given), not UTF-8, or an integer too long to convert.
    """
    doc = None if exact else _fast_parse(text)
    if doc is not None:
        if too_deep(doc, MAX_JSON_DEPTH):
            field, line = _deep_path(_as_str(text, source), MAX_JSON_DEPTH)
            raise TokenizerFieldError(field, f"JSON nested deeper than {MAX_JSON_DEPTH} levels "
                                             f"(line {line}); is this really a tokenizer file?", source)
        return doc
    text = _as_str(text, source)  # only a refused document or a message needs the text
    flagged: list[bool] = []

    def non_finite(spelling: str) -> float:
        flagged.append(True)
        return _NonFinite(spelling)

    deep = False
    try:
        doc = json.loads(text, parse_constant=non_finite)
    except json.JSONDecodeError as exc:
        raise TokenizerLoadError(f"invalid JSON at line {exc.lineno}, column {exc.colno}: "
                                 f"{exc.msg} (is the file truncated?)", source) from None
    except RecursionError:  # nested past the interpreter's recursion limit (~1,000)
        deep = True
    except ValueError:  # an integer of more than 4,300 digits
        raise TokenizerLoadError("the JSON holds a whole number too long to read (more than "
                                 "4,300 digits)", source) from None
    if deep or too_deep(doc, MAX_JSON_DEPTH):
        field, line = _deep_path(text, MAX_JSON_DEPTH)
        raise TokenizerFieldError(field, f"JSON nested deeper than {MAX_JSON_DEPTH} levels "
                                         f"(line {line}); is this really a tokenizer file?", source)
    if flagged:
        field, value = _find_non_finite(doc, token_map)
        raise TokenizerFieldError(field, f"{value.spelling} is not a finite number (JSON has no "
                                         "NaN or infinity)", source)
    return doc


def _as_str(text: str | bytes, source: str | None) -> str:
    """``text`` as a ``str`` (UTF-8 bytes decoded; :class:`TokenizerLoadError` if they are not UTF-8)."""
    return utf8_text(text, source) if isinstance(text, bytes) else text


def parsed_and_checked(text: str | bytes, source: str | None, check: Callable[[Any], Any], *,
                       token_map: bool = False) -> Any:
    """``check(parse_json(text))``; when ``check`` refuses the document
    (:class:`TokenizerLoadError`), it is parsed again exactly and checked again, so that the
    error names a value as the file spells it (:func:`_fast_parse`: an integer beyond 64
    bits). Returns what ``check`` returns."""
    try:
        return check(parse_json(text, source, token_map=token_map))
    except TokenizerLoadError:
        return check(parse_json(text, source, token_map=token_map, exact=True))


def _fast_parse(text: str | bytes) -> Any:
    """``text`` parsed by ``orjson`` (about twice as fast as ``json``: a third of a
    Unigram file's load), or None when it refuses the text — ``NaN``/``Infinity``, a number
    out of float range, a lone surrogate escape, nesting past 1,024, anything not JSON — and
    :func:`parse_json` parses with ``json`` to say what is wrong. The one value they read
    differently is an integer beyond 64 bits (``orjson``: a float), which every id and
    count check refuses either way (and the caller then parses again, exactly, to name it
    as written)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return None


_TOKEN_MAPS = ("vocab", "special_tokens")


def _find_non_finite(doc: Any, token_map: bool) -> tuple[str, _NonFinite]:
    """The path and value of the first :class:`_NonFinite` in ``doc`` (iterative walk)."""
    todo: list[tuple[str, Any]] = [("", doc)]
    while todo:
        path, node = todo.pop()
        if isinstance(node, _NonFinite):
            return path or "(the document)", node
        if isinstance(node, dict):
            keyed = path.endswith(_TOKEN_MAPS) or (token_map and not path)
            todo.extend((key_path(path, k) if keyed else field_path(path, k), v)
                        for k, v in reversed(node.items()))
        elif isinstance(node, list):
            todo.extend((index_path(path, i), v) for i, v in reversed(list(enumerate(node))))
    raise AssertionError("a flagged number was not found")  # pragma: no cover
