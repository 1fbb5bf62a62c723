"""Files shipped with the app: the teaching vocabulary, four real tokenizers, a UDHR sample.

:data:`BUILTIN_TOKENIZERS` lists the real tokenizers in ``resources/tokenizers/`` (stored
xz-compressed with their licence files; :func:`core.data.builtin_tokenizer` unpacks one
into the cache folder and returns the path to load).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

RESOURCES_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True)
class BuiltinTokenizer:
    """A real tokenizer shipped compressed under ``resources/tokenizers/<name>/``.

    Attributes
    ----------
    name : str
        Its folder name, e.g. ``"bert-base-uncased"``.
    files : tuple of str
        The plain file names; each is stored as ``<file>.xz``.
    entry : str
        The file to hand to ``core.tokenizers.load`` once unpacked (the others sit beside it).
    description : str
        One line for menus.
    """

    name: str
    files: tuple[str, ...]
    entry: str
    description: str

    def compressed(self, file: str) -> Path:
        """Absolute path of ``file``'s compressed copy (``<file>.xz``)."""
        return RESOURCES_DIR / "tokenizers" / self.name / f"{file}.xz"


#: name -> the shipped tokenizer (the first one is the app's first-run default).
BUILTIN_TOKENIZERS: dict[str, BuiltinTokenizer] = {
    t.name: t
    for t in (
        BuiltinTokenizer("bert-base-uncased", ("vocab.txt",), "vocab.txt",
                         "BERT uncased WordPiece (30,522 entries, lowercases and strips accents)"),
        BuiltinTokenizer("gpt2", ("vocab.json", "merges.txt"), "vocab.json",
                         "GPT-2 byte-level BPE (50,257 entries)"),
        BuiltinTokenizer("gpt-4o", ("tokenizer.json", "tokenizer_config.json"), "tokenizer.json",
                         "GPT-4o o200k_base byte-level BPE (200,000 entries)"),
        BuiltinTokenizer("qwen3", ("tokenizer.json", "tokenizer_config.json"), "tokenizer.json",
                         "Qwen3 byte-level BPE (151,643 entries, NFC, chat tokens)"),
    )
}


def path(name: str) -> Path:
    """Absolute path of a shipped resource file."""
    return RESOURCES_DIR / name


def read_text(name: str) -> str:
    """A shipped text resource, decoded as UTF-8."""
    return path(name).read_text(encoding="utf-8")
