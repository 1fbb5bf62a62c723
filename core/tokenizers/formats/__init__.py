"""File-format detection and the loaders behind :func:`core.tokenizers.load`.

:data:`LOADERS` maps a format name to ``loader(path, **options) -> Tokenizer``;
:data:`FILE_RULES` decides a single file's format from its name, :data:`FOLDER_FILES`
which file of a folder to load (first match wins). One module per format:
:mod:`.hf_json` (``tokenizer.json``), :mod:`.vocab_txt`, :mod:`.gpt2_files`,
:mod:`.tiktoken_file`, :mod:`.sentencepiece`. To add a format: write its module with a
loader, put the loader in ``LOADERS``, list the options it accepts in :data:`OPTIONS` and
add a rule.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from core.errors import TokenizerLoadError
from core.tokenizers.formats.gpt2_files import load_gpt2
from core.tokenizers.formats.hf_json import load_tokenizer_json
from core.tokenizers.formats.sentencepiece.tokenizer import load_sentencepiece
from core.tokenizers.formats.tiktoken_file import load_tiktoken_file
from core.tokenizers.formats.vocab_txt import load_vocab_txt
from core.tokenizers.tokenizer import Tokenizer


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
