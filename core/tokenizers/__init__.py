"""Real tokenizer pipelines with offsets that match the reference libraries.

Public names: :func:`load` (detects the file format), :func:`demo_tokenizer` (the toy
WordPiece of SPEC §2), :class:`Tokenizer`, :class:`Encoding`, :class:`TokenizerLoadError`.

Pipeline and extension points (registries): ``normalizers.NORMALIZERS``,
``pre_tokenizers.PRE_TOKENIZERS``, ``hf_json.MODELS``, ``post_processors.POST_PROCESSORS``,
``formats.LOADERS`` / ``FILE_RULES`` / ``FOLDER_FILES``.
"""

from __future__ import annotations

from os import PathLike
from pathlib import Path
from typing import Any

from core.errors import TokenizerLoadError
from core.tokenizers.encoding import Encoding
from core.tokenizers.formats import LOADERS, detect
from core.tokenizers.normalizers import Teaching
from core.tokenizers.pre_tokenizers import bert_pre_tokenizer
from core.tokenizers.tokenizer import Tokenizer
from core.tokenizers.wordpiece import WordPiece, read_vocab_txt

__all__ = ["Encoding", "Tokenizer", "TokenizerLoadError", "demo_tokenizer", "load"]


def load(path: str | PathLike[str], **options: Any) -> Tokenizer:
    """Load a tokenizer file or folder, detecting its format.

    Parameters
    ----------
    path : str or path-like
        A ``tokenizer.json``, a BERT ``vocab.txt``, or a folder holding one
        (``tokenizer.json`` preferred).
    **options
        Passed to the format's loader (e.g. ``lowercase=False`` for a cased ``vocab.txt``).

    Raises
    ------
    TokenizerLoadError
        If the path is missing, the format is unknown or not supported yet, or the file is
        malformed (the message says which file and what is wrong).
    """
    fmt, file = detect(Path(path))
    return LOADERS[fmt](file, **options)


def demo_tokenizer() -> Tokenizer:
    """The toy WordPiece of SPEC §2: the 15-entry vocabulary in ``resources/demo_vocab.txt``,
    the teaching normalizer (SPEC §1 defaults), whitespace + punctuation pre-tokenization
    and greedy longest-match WordPiece."""
    from resources import read_text

    vocab = read_vocab_txt(read_text("demo_vocab.txt"))
    return Tokenizer(name="demo (SPEC §2 toy WordPiece)", model=WordPiece(vocab),
                     normalizer=Teaching(), pre_tokenizer=bert_pre_tokenizer(),
                     source={"format": "built-in"})
