"""File-format detection and loaders behind :func:`core.tokenizers.load`.

:data:`LOADERS` maps a format name to ``loader(path, **options) -> Tokenizer``;
:data:`FILE_RULES` decides a single file's format from its name, :data:`FOLDER_FILES`
which file of a folder to load (first match wins). To add a format: write the loader,
put it in ``LOADERS``, list the options it accepts in :data:`OPTIONS` and add a rule.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from core.errors import TokenizerLoadError
from core.tokenizers.bytelevel_steps import ByteLevel, ByteLevelProcessing
from core.tokenizers.gpt2_files import load_gpt2_files
from core.tokenizers.hf_json import build_tokenizer_json
from core.tokenizers.sentencepiece_model import load_sentencepiece_model
from core.tokenizers.sentencepiece_tokenizer import SentencePieceTokenizer
from core.tokenizers.tiktoken_file import load_tiktoken
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


def load_gpt2(path: Path, *, add_prefix_space: bool = False,
              trim_offsets: bool = False) -> Tokenizer:
    """Load GPT-2 style ``vocab.json`` + ``merges.txt`` (either file, its sibling is found)
    as byte-level BPE with GPT-2's split pattern; ``<|endoftext|>`` is a special token when
    the vocabulary has it. Defaults as the reference's ``ByteLevelBPETokenizer``."""
    vocab_path, merges_path = _gpt2_pair(path)
    model = load_gpt2_files(vocab_path, merges_path)
    specials = [AddedToken(t, model.vocab[t], special=True) for t in ("<|endoftext|>",)
                if t in model.vocab]
    return Tokenizer(name=_name(vocab_path), model=model,
                     pre_tokenizer=ByteLevel(add_prefix_space, trim_offsets, True),
                     post_processor=ByteLevelProcessing(trim_offsets, add_prefix_space),
                     added_tokens=specials, byte_level=True,
                     source={"format": "vocab.json+merges.txt", "path": str(vocab_path),
                             "merges": str(merges_path)})


def _gpt2_pair(path: Path) -> tuple[Path, Path]:
    name = path.name
    if name.endswith("merges.txt"):
        pair = (path.with_name(name[:-len("merges.txt")] + "vocab.json"), path)
    else:
        pair = (path, path.with_name(name[:-len("vocab.json")] + "merges.txt"))
    missing = next((p for p in pair if not p.is_file()), None)
    if missing is not None:
        raise TokenizerLoadError(f"a GPT-2 tokenizer needs vocab.json and merges.txt side by "
                                 f"side; {missing.name} is missing", str(path))
    return pair


def load_tiktoken_file(path: Path, *, pattern: str | None = None,
                       special_tokens: bool = False) -> Tokenizer:
    """Load a tiktoken rank file: byte-level BPE by rank, split pattern detected from the
    file name or given (a preset name or a regex); the preset's special tokens are parsed
    in the text only with ``special_tokens=True``. Offsets are untrimmed."""
    tf = load_tiktoken(path, pattern=pattern, special_tokens=bool(special_tokens))
    specials = [AddedToken(t, i, special=True) for t, i in tf.special_tokens.items()]
    return Tokenizer(name=_name(path), model=tf.model,
                     pre_tokenizer=ByteLevel(False, False, True, pattern=tf.pattern),
                     added_tokens=specials, byte_level=True,
                     source={"format": "tiktoken", "path": str(path),
                             "pattern": tf.preset or tf.pattern,
                             "special_tokens": bool(special_tokens)})


def load_sentencepiece(path: Path, *, add_bos: bool = False,
                       add_eos: bool = False) -> Tokenizer:
    """Load a SentencePiece ``.model`` file (Unigram or BPE)."""
    model = load_sentencepiece_model(path)
    return SentencePieceTokenizer(model, name=_name(path), path=str(path),
                                  add_bos=add_bos, add_eos=add_eos)


def _name(path: Path) -> str:
    return f"{path.parent.name}/{path.name}" if path.parent.name else path.name


#: format name -> loader(path, **options)
LOADERS: dict[str, Callable[..., Tokenizer]] = {
    "tokenizer.json": load_tokenizer_json,
    "vocab.txt": load_vocab_txt,
    "gpt2": load_gpt2,
    "tiktoken": load_tiktoken_file,
    "sentencepiece": load_sentencepiece,
}

#: format name -> the options its loader accepts (anything else is refused).
OPTIONS: dict[str, frozenset[str]] = {
    "tokenizer.json": frozenset(),
    "vocab.txt": frozenset({"lowercase", "strip_accents"}),
    "gpt2": frozenset({"add_prefix_space", "trim_offsets"}),
    "tiktoken": frozenset({"pattern", "special_tokens"}),
    "sentencepiece": frozenset({"add_bos", "add_eos"}),
}


def check_options(fmt: str, path: Path, options: dict[str, Any]) -> None:
    """Refuse options the format's loader does not know.

    Raises
    ------
    TokenizerLoadError
        Naming the unknown options and the accepted ones.
    """
    unknown = sorted(set(options) - OPTIONS.get(fmt, frozenset()))
    if unknown:
        known = ", ".join(sorted(OPTIONS.get(fmt, ()))) or "none"
        raise TokenizerLoadError(f"unknown option(s) {', '.join(unknown)} for a {fmt} file "
                                 f"(accepted: {known})", str(path))


#: (predicate on a file path, format name); first match wins.
FILE_RULES: list[tuple[Callable[[Path], bool], str]] = [
    (lambda p: p.name.endswith(("vocab.json", "merges.txt")) and _has_gpt2_sibling(p), "gpt2"),
    (lambda p: p.suffix == ".json", "tokenizer.json"),
    (lambda p: p.suffix == ".txt", "vocab.txt"),
    (lambda p: p.suffix == ".tiktoken", "tiktoken"),
    (lambda p: p.suffix == ".model", "sentencepiece"),
]

def _has_gpt2_sibling(p: Path) -> bool:
    if p.name in ("vocab.json", "merges.txt"):
        return True
    other = (p.name[:-len("merges.txt")] + "vocab.json" if p.name.endswith("merges.txt")
             else p.name[:-len("vocab.json")] + "merges.txt")
    return p.with_name(other).is_file()


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
