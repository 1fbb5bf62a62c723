"""A model's chat template, loaded from its ``tokenizer_config.json`` and rendered as
``transformers.apply_chat_template`` renders it.

The environment matches transformers' (``utils/chat_template_utils.py``, read as the
reference, not copied): ``jinja2.sandbox.ImmutableSandboxedEnvironment`` with
``trim_blocks`` and ``lstrip_blocks``, the ``loopcontrols`` extension and a
``{% generation %} … {% endgeneration %}`` block that records the rendered span of its
body; the filter ``tojson(x, ensure_ascii=False, indent=None, separators=None,
sort_keys=False)`` (``json.dumps``, no HTML escaping); the globals ``raise_exception(msg)``,
``strftime_now(fmt)``, a ``dict`` that only builds dicts and a ``namespace`` that refuses
underscore names. The variables are ``messages``, ``tools``, ``documents``,
``add_generation_prompt``, the named special tokens of the config (``bos_token``,
``eos_token``, ``unk_token``, ``sep_token``, ``pad_token``, ``cls_token``, ``mask_token``
and a dict ``extra_special_tokens``' ``*_token`` names) and any extra keyword
(``enable_thinking=False``), extra keywords winning. Messages are passed as plain JSON data,
keys whose value is None dropped, a message's reasoning aliased under ``reasoning_content``
and ``thinking`` as transformers does.

Known difference: transformers adds class defaults to the special tokens of some tokenizer
classes (``GemmaTokenizer``'s ``mask_token``); only what the files say is passed here, which
changes nothing for a template that does not read those names.

Public names: :class:`ChatTemplate`, :class:`Rendered`, :func:`load_chat_template`,
:data:`SPECIAL_TOKEN_NAMES`.
"""

from __future__ import annotations

import json
import re
import traceback
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from os import PathLike
from pathlib import Path
from typing import Any

import jinja2
import jinja2.ext
import jinja2.nodes
from jinja2.sandbox import ImmutableSandboxedEnvironment

from core.chat.errors import NoChatTemplateError, TemplateError
from core.chat.messages import check_messages
from core.text.files import TextFileError, read_text_file

__all__ = ["SPECIAL_TOKEN_NAMES", "ChatTemplate", "Rendered", "load_chat_template"]

SPECIAL_TOKEN_NAMES = ("bos_token", "eos_token", "unk_token", "sep_token", "pad_token",
                       "cls_token", "mask_token")
"""The named special tokens a template sees (transformers' ``SPECIAL_TOKENS_ATTRIBUTES``)."""

CONFIG_FILE, TEMPLATE_FILE, SPECIAL_MAP_FILE = ("tokenizer_config.json", "chat_template.jinja",
                                                "special_tokens_map.json")
GENERATION_TAG = re.compile(r"\{%-?\s*generation\s*-?%\}")
REASONING_FIELDS = ("reasoning_content", "thinking", "reasoning")


@dataclass(frozen=True)
class Rendered:
    """A rendered chat: ``text`` and the code-point spans ``[start, end)`` of every
    ``{% generation %}`` block's output, in rendering order (empty without such blocks)."""

    text: str
    generation_spans: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class ChatTemplate:
    """A chat template and the special tokens its config names.

    Attributes
    ----------
    source : str
        The Jinja text.
    special_tokens : dict[str, str]
        Template variables for the config's named special tokens (``{"bos_token": "<bos>"}``).
    added_tokens : tuple[tuple[str, bool], ...]
        The config's ``added_tokens_decoder`` as ``(content, special)``, in id order: the
        strings a faithful tokenizer must read as single tokens.
    path : str | None
        Where it was read from.
    """

    source: str
    special_tokens: dict[str, str] = field(default_factory=dict)
    added_tokens: tuple[tuple[str, bool], ...] = ()
    path: str | None = None

    @property
    def has_generation(self) -> bool:
        """The template marks the assistant's text with ``{% generation %}`` (the test
        transformers applies before ``return_assistant_tokens_mask``)."""
        return GENERATION_TAG.search(self.source) is not None

    @property
    def bos_token(self) -> str | None:
        return self.special_tokens.get("bos_token")

    def render(self, messages: Any, *, add_generation_prompt: bool = False,
               tools: list[dict] | None = None, documents: list[dict] | None = None,
               **kwargs: Any) -> Rendered:
        """Render ``messages`` (checked by :func:`core.chat.messages.check_messages`) as
        ``apply_chat_template(messages, tokenize=False, …)`` does. O(template work).

        Raises
        ------
        core.chat.errors.MessagesError
            A malformed message list.
        TemplateError
            The template does not parse or fails while rendering (its message and line).
        """
        messages = _aliased(_plain(check_messages(messages)))
        variables = {**self.special_tokens, **_plain(kwargs)}
        compiled = _compiled(self.source)
        blocks: list[str] = []
        spans: list[tuple[int, int]] = []
        try:
            with _tracking(blocks, spans):
                for block in compiled.generate(messages=messages, tools=_plain(tools),
                                               documents=_plain(documents),
                                               add_generation_prompt=bool(add_generation_prompt),
                                               **variables):
                    blocks.append(block)
        except Exception as exc:  # the template is untrusted code: every failure is its own
            raise _template_error(exc) from None
        return Rendered("".join(blocks), tuple(spans))


def load_chat_template(path: str | PathLike[str], name: str | None = None) -> ChatTemplate:
    """The chat template of a tokenizer: ``path`` is its ``tokenizer_config.json``, a file
    beside it (``tokenizer.json``) or their folder. A ``chat_template.jinja`` in the folder
    wins over the config's ``chat_template`` (as in transformers 5); a config holding several
    named templates gives ``name`` (default ``"default"``). Special tokens come from the
    config, else from ``special_tokens_map.json``.

    Raises
    ------
    NoChatTemplateError
        No config and no template file there, or no template in them (GPT-4o's, BERT's).
    TemplateError
        A config that is not JSON, or a template that does not parse (with its line).
    """
    p = Path(path)
    folder = p if p.is_dir() else p.parent
    config_path = p if p.is_file() and p.name == CONFIG_FILE else folder / CONFIG_FILE
    config = _read_json(config_path) if config_path.is_file() else {}
    source: Any = config.get("chat_template")
    if (folder / TEMPLATE_FILE).is_file():
        source = _read_file(folder / TEMPLATE_FILE)
    where = str(config_path if config_path.is_file() else folder)
    if isinstance(source, list):  # [{"name": ..., "template": ...}, ...]
        named = {t.get("name"): t.get("template") for t in source if isinstance(t, dict)}
        if (name or "default") not in named:
            raise NoChatTemplateError(f"no chat template named {name or 'default'!r} "
                                      f"(the config has {', '.join(map(str, named))})", where)
        source = named[name or "default"]
    if not config_path.is_file() and source is None:
        raise NoChatTemplateError(f"no {CONFIG_FILE} (nor {TEMPLATE_FILE}) here: "
                                  "this tokenizer comes without a chat template", str(folder))
    if not isinstance(source, str) or not source:
        raise NoChatTemplateError("this tokenizer has no chat template (no \"chat_template\" in its "
                                  f"config, no {TEMPLATE_FILE} beside it)", where)
    specials = dict(config)
    if (folder / SPECIAL_MAP_FILE).is_file():
        for k, v in _read_json(folder / SPECIAL_MAP_FILE).items():
            if not specials.get(k):
                specials[k] = v
    template = ChatTemplate(source, _special_tokens(specials), _added_tokens(config), where)
    _compiled(source)  # a syntax error now, with its line, rather than at the first render
    return template


# -- the environment ------------------------------------------------------------------------

_TRACKER: ContextVar[tuple[list[str], list[tuple[int, int]]] | None] = ContextVar(
    "core_chat_generation_tracker", default=None)


class GenerationBlock(jinja2.ext.Extension):
    """``{% generation %} … {% endgeneration %}``: renders its body unchanged and, while a
    render is tracked, records the span of that output as transformers does (its start is
    the length of the blocks rendered so far)."""

    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(("name:endgeneration",), drop_needle=True)
        return jinja2.nodes.CallBlock(self.call_method("_body"), [], [], body).set_lineno(lineno)

    def _body(self, caller):
        text = caller()
        tracked = _TRACKER.get()
        if tracked is not None:
            blocks, spans = tracked
            start = sum(map(len, blocks))
            spans.append((start, start + len(text)))
        return text


@contextmanager
def _tracking(blocks: list[str], spans: list[tuple[int, int]]):
    token = _TRACKER.set((blocks, spans))
    try:
        yield
    finally:
        _TRACKER.reset(token)


def _raise_exception(message: Any):
    raise jinja2.exceptions.TemplateError(message)


def _tojson(x: Any, ensure_ascii: bool = False, indent: Any = None, separators: Any = None,
            sort_keys: bool = False) -> str:
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators,
                      sort_keys=sort_keys)


def _strftime_now(fmt: str) -> str:
    return datetime.now().strftime(fmt)


class _DictMaker:
    """The template's ``dict``: builds dicts, exposes nothing else of the type."""

    def __call__(self, *args: Any, **kwargs: Any) -> dict:
        return dict(*args, **kwargs)

    def fromkeys(self, *args: Any) -> dict:
        return dict.fromkeys(*args)


class _Namespace(jinja2.utils.Namespace):
    """``namespace(…)`` refusing underscore-prefixed attributes (no way to CPython internals)."""

    def __init__(*args: Any, **kwargs: Any):  # Jinja's signature trick: ``namespace(self=…)`` works
        self, rest = args[0], args[1:]
        attrs = dict(*rest, **kwargs)
        for key in attrs:
            _Namespace._check(key)
        jinja2.utils.Namespace.__init__(self, attrs)

    def __setitem__(self, key: Any, value: Any) -> None:
        _Namespace._check(key)
        jinja2.utils.Namespace.__setitem__(self, key, value)

    @staticmethod
    def _check(key: Any) -> None:
        if isinstance(key, str) and key.startswith("_"):
            raise jinja2.exceptions.SecurityError(
                f"a chat template cannot store {key!r} on a namespace (underscore names are refused)")


@lru_cache(maxsize=32)
def _environment() -> ImmutableSandboxedEnvironment:
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True,
                                        extensions=[GenerationBlock, jinja2.ext.loopcontrols])
    env.filters["tojson"] = _tojson
    env.globals.update(raise_exception=_raise_exception, strftime_now=_strftime_now,
                       dict=_DictMaker(), namespace=_Namespace)
    return env


@lru_cache(maxsize=32)
def _compiled(source: str) -> jinja2.Template:
    """The compiled template (cached by its text). Raises TemplateError with the line."""
    try:
        return _environment().from_string(source)
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateError(f"syntax error: {exc.message}", exc.lineno) from None


def _template_error(exc: BaseException) -> TemplateError:
    """``exc`` (raised while rendering) as a TemplateError with the template line that
    failed (Jinja's traceback frames of ``<template>`` carry the template's line numbers)."""
    if isinstance(exc, TemplateError):
        return exc
    line = getattr(exc, "lineno", None)
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == "<template>":
            line = frame.lineno
    message = str(exc) if isinstance(exc, jinja2.TemplateError) and str(exc) else (
        f"{type(exc).__name__}: {exc}")
    return TemplateError(message, line)


# -- data the template sees --------------------------------------------------------------

def _plain(value: Any) -> Any:
    """``value`` rebuilt from plain JSON types; anything else becomes ``"<TypeName>"`` (the
    sandbox must not see objects with methods of their own). O(size)."""
    if value is None or type(value) in (str, int, float, bool):
        return value
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return int.__int__(value)
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    return f"<{type(value).__name__}>"


def _aliased(messages: list[dict]) -> list[dict]:
    """A message's reasoning (under any of :data:`REASONING_FIELDS`) also given as
    ``reasoning_content`` and ``thinking``, the names templates read."""
    out = []
    for m in messages:
        reasoning = next((m[k] for k in REASONING_FIELDS if m.get(k) is not None), None)
        out.append(m if reasoning is None else {"thinking": reasoning, **m, "reasoning_content": reasoning})
    return out


def _token_text(value: Any) -> str | None:
    """A config's token value: a string or an AddedToken dict ``{"content": …}``."""
    if isinstance(value, dict):
        value = value.get("content")
    return value if isinstance(value, str) else None


def _special_tokens(config: dict) -> dict[str, str]:
    out = {k: t for k in SPECIAL_TOKEN_NAMES if (t := _token_text(config.get(k))) is not None}
    extra = config.get("extra_special_tokens")
    if isinstance(extra, dict):  # model-specific names (Gemma 3's boi_token, image_token)
        for k, v in extra.items():
            if isinstance(k, str) and (t := _token_text(v)) is not None:
                out.setdefault(k, t)
    return out


def _added_tokens(config: dict) -> tuple[tuple[str, bool], ...]:
    decoder = config.get("added_tokens_decoder")
    if not isinstance(decoder, dict):
        return ()
    rows = []
    for key, tok in decoder.items():
        content = _token_text(tok)
        if content and str(key).isdigit():
            rows.append((int(key), content, bool(tok.get("special", False)) if isinstance(tok, dict) else False))
    return tuple((c, s) for _, c, s in sorted(rows))


def _read_file(path: Path) -> str:
    """The text of ``path`` as :func:`core.text.files.read_text_file` reads it (a regular
    file only, checked before it is opened: a FIFO or a device would block the read;
    size-capped; UTF-8).

    Raises
    ------
    NoChatTemplateError
        It cannot be read, is not a regular file, is too large or is not text.
    """
    try:
        return read_text_file(path)
    except TextFileError as exc:
        reason = str(exc).removeprefix(f"{exc.path}: ")
        raise NoChatTemplateError(f"cannot read it: {reason}", str(path)) from None


def _read_json(path: Path) -> dict:
    text = _read_file(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TemplateError(f"{path}: not JSON ({exc.msg} at line {exc.lineno})") from None
    except RecursionError:
        raise TemplateError(f"{path}: JSON nested too deep") from None
    if not isinstance(data, dict):
        raise TemplateError(f"{path}: expected a JSON object")
    return data
