"""File-format detection and loaders behind :func:`core.tokenizers.load`.

:data:`LOADERS` maps a format name to ``loader(path, **options) -> Tokenizer``;
:data:`FILE_RULES` decides a single file's format from its name, :data:`FOLDER_FILES`
which file of a folder to load (first match wins). To add a format: write the loader,
put it in ``LOADERS`` and add a rule (formats known but not implemented yet are
registered with :func:`_not_yet`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from core.errors import TokenizerLoadError
from core.tokenizers.hf_json import build_tokenizer_json
from core.tokenizers.normalizers import BertNormalizer
from core.tokenizers.added_tokens import AddedToken
from core.tokenizers.post_processors import BertProcessing
from core.tokenizers.pre_tokenizers import bert_pre_tokenizer
from core.tokenizers.tokenizer import Tokenizer
from core.tokenizers.wordpiece import WordPiece, read_vocab_txt

BERT_SPECIALS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")


def read_text(path: Path) -> str:
    """The file as UTF-8 text.

    Raises
    ------
    TokenizerLoadError
        If it cannot be read, is empty, holds NUL bytes (binary) or is not UTF-8.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TokenizerLoadError(f"cannot read the file ({exc.strerror or exc})", str(path)) from exc
    if not data.strip():
        raise TokenizerLoadError("the file is empty", str(path))
    if b"\x00" in data:
        raise TokenizerLoadError("this is a binary file, not a text tokenizer file", str(path))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TokenizerLoadError(
            f"the file is not UTF-8 text (bad byte at position {exc.start})", str(path)) from exc


def load_tokenizer_json(path: Path, **options: Any) -> Tokenizer:
    """Load a Hugging Face ``tokenizer.json``."""
    text = read_text(path)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TokenizerLoadError(
            f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg} "
            "(is the file truncated?)", str(path)) from exc
    try:
        return build_tokenizer_json(doc, _name(path), str(path))
    except TokenizerLoadError as exc:
        if exc.path:
            raise
        raise TokenizerLoadError(str(exc), str(path)) from exc


def load_vocab_txt(path: Path, **options: Any) -> Tokenizer:
    """Load a BERT ``vocab.txt`` with the standard BERT-uncased pipeline.

    Options ``lowercase`` (default True) and ``strip_accents`` (default: follows
    ``lowercase``) select a cased model's setup.
    """
    try:
        vocab = read_vocab_txt(read_text(path))
        model = WordPiece(vocab, "[UNK]", "##", 100)
    except TokenizerLoadError as exc:
        raise TokenizerLoadError(str(exc), str(path)) if not exc.path else exc
    specials = [AddedToken(t, vocab[t], special=True) for t in BERT_SPECIALS if t in vocab]
    post = None
    if "[CLS]" in vocab and "[SEP]" in vocab:
        post = BertProcessing(("[SEP]", vocab["[SEP]"]), ("[CLS]", vocab["[CLS]"]))
    normalizer = BertNormalizer(True, True, options.get("strip_accents"),
                                options.get("lowercase", True))
    return Tokenizer(name=_name(path), model=model, normalizer=normalizer,
                     pre_tokenizer=bert_pre_tokenizer(), post_processor=post,
                     added_tokens=specials, source={"format": "vocab.txt", "path": str(path)})


def _name(path: Path) -> str:
    return f"{path.parent.name}/{path.name}" if path.parent.name else path.name


def _not_yet(what: str) -> Callable[..., Tokenizer]:
    def loader(path: Path, **options: Any) -> Tokenizer:
        raise TokenizerLoadError(f"{what} files are not supported yet", str(path))
    return loader


#: format name -> loader(path, **options)
LOADERS: dict[str, Callable[..., Tokenizer]] = {
    "tokenizer.json": load_tokenizer_json,
    "vocab.txt": load_vocab_txt,
    "gpt2": _not_yet("GPT-2 style vocab.json + merges.txt"),
    "tiktoken": _not_yet("tiktoken rank (.tiktoken)"),
    "sentencepiece": _not_yet("SentencePiece .model"),
}

#: (predicate on a file path, format name); first match wins.
FILE_RULES: list[tuple[Callable[[Path], bool], str]] = [
    (lambda p: p.name in ("vocab.json", "merges.txt"), "gpt2"),
    (lambda p: p.suffix == ".json", "tokenizer.json"),
    (lambda p: p.suffix == ".txt", "vocab.txt"),
    (lambda p: p.suffix == ".tiktoken", "tiktoken"),
    (lambda p: p.suffix == ".model", "sentencepiece"),
]

#: (glob inside a folder, format name), in order of preference.
FOLDER_FILES: list[tuple[str, str]] = [
    ("tokenizer.json", "tokenizer.json"),
    ("vocab.txt", "vocab.txt"),
    ("vocab.json", "gpt2"),
    ("*.tiktoken", "tiktoken"),
    ("*.model", "sentencepiece"),
]


def detect(path: Path) -> tuple[str, Path]:
    """The format name and the file to read for ``path`` (a file or a folder).

    Raises
    ------
    TokenizerLoadError
        If the path does not exist or no known tokenizer file is recognised.
    """
    if path.is_dir():
        for pattern, fmt in FOLDER_FILES:
            hits = sorted(path.glob(pattern))
            if hits:
                return fmt, hits[0]
        raise TokenizerLoadError(
            "no tokenizer file found in this folder (looked for tokenizer.json, vocab.txt, "
            "vocab.json, *.tiktoken, *.model)", str(path))
    if not path.exists():
        raise TokenizerLoadError("no such file or folder", str(path))
    for rule, fmt in FILE_RULES:
        if rule(path):
            return fmt, path
    raise TokenizerLoadError(
        "unrecognised tokenizer file (expected tokenizer.json, vocab.txt, vocab.json + "
        "merges.txt, .tiktoken or .model)", str(path))
