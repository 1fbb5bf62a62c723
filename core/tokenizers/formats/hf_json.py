"""Hugging Face ``tokenizer.json``: build a :class:`Tokenizer` from the document.

The text is parsed with :func:`~core.tokenizers.formats._json.parse_json` (depth limit, no
non-finite numbers), every field is checked by
:func:`~core.tokenizers.formats.hf_schema.check_document` (ids, flags, ranges, choices, by
JSON path), then each section is built through its registry (:data:`MODELS` here,
``NORMALIZERS``, ``PRE_TOKENIZERS``, ``POST_PROCESSORS``, ``DECODERS`` in their packages'
``__init__``); a
missing key or a value of the wrong shape anywhere becomes a :class:`TokenizerLoadError`
naming the section (never a Python exception's own text).

Public names: :data:`MODELS`, :func:`build_tokenizer_json`, :func:`load_tokenizer_json`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from core.errors import TokenizerLoadError
from core.tokenizers._components import build_component
from core.tokenizers.added_tokens import AddedToken
from core.tokenizers.decoders import build_decoder
from core.tokenizers.formats._files import display_name, read_utf8
from core.tokenizers.formats._json import parsed_and_checked
from core.tokenizers.formats.hf_schema import check_document, guess_model_type
from core.tokenizers.models.bpe import BPE
from core.tokenizers.models.unigram import Unigram
from core.tokenizers.models.wordlevel import WordLevel
from core.tokenizers.models.wordpiece import WordPiece
from core.tokenizers.normalizers import build_normalizer
from core.tokenizers.pre_tokenizers import build_pre_tokenizer
from core.tokenizers.processors import build_post_processor
from core.tokenizers.tokenizer import Tokenizer
from core.tokenizers.surrogates import REFUSE


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
    return Unigram.from_tokenizer_json_model(cfg, checked=True)  # by check_document


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
    except KeyError as exc:
        raise TokenizerLoadError(f"malformed {key} section: missing field "
                                 f"{_quoted(exc.args[0] if exc.args else '')}") from None
    except (TypeError, ValueError, AttributeError, IndexError):
        # a Python message ("list index out of range") would say nothing to the user
        raise TokenizerLoadError(f"malformed {key} section: a field has the wrong shape or "
                                 "type (compare it with a tokenizer.json saved by the "
                                 "tokenizers library)") from None


def _quoted(key: object) -> str:
    return f"'{key}'" if isinstance(key, str) else "(a list position or a non-text key)"


def _model(cfg: Any) -> Any:
    if isinstance(cfg, dict) and "type" not in cfg and "vocab" in cfg:
        cfg = dict(cfg, type=guess_model_type(cfg))
    if cfg is None:
        raise TokenizerLoadError("the file has no model section")
    return build_component("model", cfg, MODELS)


def _added(cfg: Any) -> list[AddedToken]:
    if cfg is None:
        return []
    if not isinstance(cfg, list):
        raise TokenizerLoadError(f"added_tokens must be a list, not {type(cfg).__name__}")
    return [AddedToken.from_config(t) for t in cfg]


def _shown(cfg: Any) -> Any:
    if cfg is not None and not isinstance(cfg, dict):
        raise TokenizerLoadError(f"expected an object or null, not {type(cfg).__name__}")
    return cfg


def build_tokenizer_json(doc: Any, name: str, path: str) -> Tokenizer:
    """Build the pipeline described by a parsed ``tokenizer.json``.

    Raises
    ------
    TokenizerLoadError
        If the document is not an object, a section is malformed, or a component type is
        not supported (the message names it).
    TokenizerFieldError
        A field of the wrong type or out of range (the message starts with its JSON path).
    """
    if not isinstance(doc, dict):
        raise TokenizerLoadError(f"expected a JSON object at the top, found {type(doc).__name__}")
    if "model" not in doc:
        raise TokenizerLoadError("not a tokenizer.json: it has no 'model' section")
    check_document(doc)
    decoder = _section(doc, "decoder", build_decoder)
    tokenizer = Tokenizer(
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
    tokenizer.decoder = decoder  # None: tokens joined with spaces, as the reference
    tokenizer.lone_surrogates = REFUSE  # as tokenizers.Tokenizer.encode
    return tokenizer


def load_tokenizer_json(path: Path, **options: Any) -> Tokenizer:
    """Load a Hugging Face ``tokenizer.json``.

    Raises
    ------
    TokenizerLoadError
        If the file is not a regular file or too large (checked before reading), cannot be
        read, is not JSON, is nested too deep or holds non-finite numbers, or
        :func:`build_tokenizer_json` refuses it (the message names the file).
    """
    return parsed_and_checked(read_utf8(path), str(path), lambda doc: _built(doc, path))


def _built(doc: Any, path: Path) -> Tokenizer:
    """:func:`build_tokenizer_json` with the file's path in its error."""
    try:
        return build_tokenizer_json(doc, display_name(path), str(path))
    except TokenizerLoadError as exc:
        if exc.path:
            raise
        exc.path = str(path)  # keep the class (a TokenizerFieldError keeps its field)
        exc.args = (f"{path}: {exc}",)
        raise
