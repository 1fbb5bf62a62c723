"""Hugging Face ``tokenizer.json``: build a :class:`Tokenizer` from the document.

Each section is built through its registry (:data:`MODELS` here, ``NORMALIZERS``,
``PRE_TOKENIZERS``, ``POST_PROCESSORS`` in their packages' ``__init__``); a missing key or a
value of the wrong type anywhere becomes a :class:`TokenizerLoadError` naming the section.

Public names: :data:`MODELS`, :func:`build_tokenizer_json`, :func:`load_tokenizer_json`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from core.errors import TokenizerLoadError
from core.tokenizers._components import build_component
from core.tokenizers.added_tokens import AddedToken
from core.tokenizers.formats._files import display_name, read_text
from core.tokenizers.models.bpe import BPE
from core.tokenizers.models.unigram import Unigram
from core.tokenizers.models.wordlevel import WordLevel
from core.tokenizers.models.wordpiece import WordPiece
from core.tokenizers.normalizers import build_normalizer
from core.tokenizers.pre_tokenizers import build_pre_tokenizer
from core.tokenizers.processors import build_post_processor
from core.tokenizers.tokenizer import Tokenizer


def _vocab_map(cfg: dict) -> dict[str, int]:
    vocab = cfg["vocab"]
    if not isinstance(vocab, dict) or not all(
        isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
        for k, v in vocab.items()
    ):
        raise TokenizerLoadError("model.vocab must map token strings to integer ids")
    return vocab


def _wordpiece(cfg: dict) -> WordPiece:
    return WordPiece(_vocab_map(cfg), cfg.get("unk_token", "[UNK]"),
                     cfg.get("continuing_subword_prefix", "##"),
                     cfg.get("max_input_chars_per_word", 100))


def _bpe(cfg: dict) -> BPE:
    return BPE.from_tokenizer_json_model(cfg)


def _unigram(cfg: dict) -> Unigram:
    return Unigram.from_tokenizer_json_model(cfg)


def _wordlevel(cfg: dict) -> WordLevel:
    return WordLevel(_vocab_map(cfg), cfg.get("unk_token", "<unk>"))


#: ``tokenizer.json`` model ``type`` -> builder taking the ``model`` object.
MODELS: dict[str, Callable[[dict], Any]] = {
    "WordPiece": _wordpiece, "BPE": _bpe, "Unigram": _unigram, "WordLevel": _wordlevel}


def _section(doc: dict, key: str, build: Callable[[Any], Any]) -> Any:
    try:
        return build(doc.get(key))
    except TokenizerLoadError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        what = f"missing key {exc}" if isinstance(exc, KeyError) else str(exc)
        raise TokenizerLoadError(f"malformed {key} section: {what}") from exc


def _model(cfg: Any) -> Any:
    if isinstance(cfg, dict) and "type" not in cfg and "vocab" in cfg:
        cfg = dict(cfg, type=_guess_model_type(cfg))
    if cfg is None:
        raise TokenizerLoadError("the file has no model section")
    return build_component("model", cfg, MODELS)


def _guess_model_type(cfg: dict) -> str | None:
    """Older files omit the model type; tell it from the keys, as the reference does."""
    if "merges" in cfg:
        return "BPE"
    if "max_input_chars_per_word" in cfg:
        return "WordPiece"
    if isinstance(cfg.get("vocab"), list):
        return "Unigram"
    return "WordLevel" if "unk_token" in cfg else None


def _added(cfg: Any) -> list[AddedToken]:
    if cfg is None:
        return []
    if not isinstance(cfg, list):
        raise TypeError("added_tokens must be a list")
    return [AddedToken.from_config(t) for t in cfg]


def _shown(cfg: Any) -> Any:
    if cfg is not None and not isinstance(cfg, dict):
        raise TypeError(f"expected an object or null, not {type(cfg).__name__}")
    return cfg


def build_tokenizer_json(doc: Any, name: str, path: str) -> Tokenizer:
    """Build the pipeline described by a parsed ``tokenizer.json``.

    Raises
    ------
    TokenizerLoadError
        If the document is not an object, a section is malformed, or a component type is
        not supported (the message names it).
    """
    if not isinstance(doc, dict):
        raise TokenizerLoadError(f"expected a JSON object at the top, found {type(doc).__name__}")
    if "model" not in doc:
        raise TokenizerLoadError("not a tokenizer.json: it has no 'model' section")
    return Tokenizer(
        name=name,
        model=_section(doc, "model", _model),
        normalizer=_section(doc, "normalizer", build_normalizer),
        pre_tokenizer=_section(doc, "pre_tokenizer", build_pre_tokenizer),
        post_processor=_section(doc, "post_processor", build_post_processor),
        added_tokens=_section(doc, "added_tokens", _added),
        padding=_section(doc, "padding", _shown),
        truncation=_section(doc, "truncation", _shown),
        source={"format": "tokenizer.json", "path": path,
                "decoder": doc.get("decoder") if isinstance(doc.get("decoder"), dict) else None},
    )


def load_tokenizer_json(path: Path, **options: Any) -> Tokenizer:
    """Load a Hugging Face ``tokenizer.json``.

    Raises
    ------
    TokenizerLoadError
        If the file cannot be read, is not JSON, or :func:`build_tokenizer_json` refuses it
        (the message names the file).
    """
    text = read_text(path)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TokenizerLoadError(
            f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg} "
            "(is the file truncated?)", str(path)) from exc
    try:
        return build_tokenizer_json(doc, display_name(path), str(path))
    except TokenizerLoadError as exc:
        if exc.path:
            raise
        raise TokenizerLoadError(str(exc), str(path)) from exc
