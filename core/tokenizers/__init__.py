"""Real tokenizer pipelines with offsets that match the reference libraries.

Public names: :func:`load` (detects the file format), :func:`demo_tokenizer` (the toy
WordPiece of SPEC §2), :class:`Tokenizer`, :class:`TokenizerLike` (what callers need of
one, :mod:`.protocol`), :class:`Encoding`, :class:`TokenizerLoadError`,
:func:`vocab_audit` (unreachable, never-produced, glitchy… entries: :mod:`.vocab_audit`).

Formats: HF ``tokenizer.json`` (WordPiece, BPE, Unigram, WordLevel), BERT ``vocab.txt``,
GPT-2 ``vocab.json`` + ``merges.txt``, tiktoken rank files, SentencePiece ``.model``.
Byte-level vocabularies (GPT-2 files, ByteLevel tokenizer.json, tiktoken) report tokens in
GPT-2's byte alphabet as the reference does (``Tokenizer.is_byte_level``); the readable
form is ``Encoding.token_bytes`` / ``Encoding.readable_tokens``.

``Tokenizer.decode(ids, *, skip_special_tokens=True) -> str`` turns ids back into text as
the format's reference library does (the file's decoder chain, :mod:`.decoders`);
``Tokenizer.decode_pieces(ids)`` says per id which characters it produced and which bytes
of a character it holds only partly (:class:`~.decoding.DecodedPiece`;
:class:`~.decoding.UnknownIdError` for ids a strict format lacks).

Every ``Encoding`` also says which tokens are the model's unknown token and which are
byte-fallback pieces (``unknown_mask``, ``byte_fallback_mask``, by id, for every format) and
where each token's own content lies (``derived_offsets``: equal to ``offsets`` except where
the reference misplaces characters), all computed on first use.

Layout: :mod:`.tokenizer` (the ``Tokenizer``), :mod:`.pipeline` (the encode stages and the
``TextSplit`` record they pass on), :mod:`.builder` (post-processing and assembly: the one
path to an ``Encoding``), :mod:`.batch` (``encode_batch``'s cached stages), :mod:`.encoding`, :mod:`.token_rules` (what a
tokenizer's tokens stand for), :mod:`.derived` (derived offsets), :mod:`.added_tokens`,
:mod:`.chars` (the reference's character classes); one package per pipeline stage, each with
its registry in ``__init__``: :mod:`.normalizers` (``NORMALIZERS``), :mod:`.pre_tokenizers`
(``PRE_TOKENIZERS``), :mod:`.processors` (``POST_PROCESSORS``), :mod:`.decoders`
(``DECODERS``, with :mod:`.decoding` running them); :mod:`.models` (WordPiece,
BPE, Unigram, WordLevel, the SentencePiece segmenter; ``formats.hf_json.MODELS``) and
:mod:`.formats` (``LOADERS`` / ``OPTIONS`` / ``FILE_RULES`` / ``FOLDER_FILES``, one module per
format). Where the reference libraries have offset quirks they are reproduced on purpose
(the parity tests demand it) and documented where they happen
(``normalizers.precompiled``, ``pre_tokenizers.split``, ``processors.byte_level``).
"""

from __future__ import annotations

from os import PathLike
from pathlib import Path
from typing import Any

from core.collector import collector_paused
from core.errors import TokenizerLoadError
from core.tokenizers.decoders import WordPiece as WordPieceDecoder
from core.tokenizers.encoding import Encoding
from core.tokenizers.formats import LOADERS, check_options, detect
from core.tokenizers.formats.vocab_txt import read_vocab_txt
from core.tokenizers.models.wordpiece import WordPiece
from core.tokenizers.normalizers.teaching import Teaching
from core.tokenizers.pre_tokenizers.separators import bert_pre_tokenizer
from core.tokenizers.protocol import TokenizerLike
from core.tokenizers.tokenizer import Tokenizer
from core.tokenizers.vocab_audit import VocabAudit, vocab_audit
from resources import read_text as _read_resource

__all__ = ["DEMO_NAME", "Encoding", "Tokenizer", "TokenizerLike", "TokenizerLoadError", "VocabAudit",
           "demo_tokenizer", "load", "vocab_audit"]


def load(path: str | PathLike[str], **options: Any) -> Tokenizer:
    """Load a tokenizer file or folder, detecting its format.

    Parameters
    ----------
    path : str or path-like
        A Hugging Face ``tokenizer.json`` (WordPiece, BPE, Unigram or WordLevel), a BERT
        ``vocab.txt``, GPT-2's ``vocab.json`` or ``merges.txt`` (the other file must sit
        beside it), a tiktoken rank file (``*.tiktoken``), a SentencePiece ``*.model``, or
        a folder holding one (in that order of preference).
    **options
        Passed to the format's loader; unknown ones are refused.
        ``vocab.txt``: ``lowercase``, ``strip_accents``. GPT-2 files: ``add_prefix_space``,
        ``trim_offsets`` (both False). ``.tiktoken``: ``pattern`` (a preset name —
        ``gpt2``, ``r50k_base``, ``p50k_base``, ``cl100k_base``, ``o200k_base`` — or a
        regex; default detected from the file name), ``special_tokens`` (False: special
        tokens in the text are ordinary text, as ``encode_ordinary``). ``.model``:
        ``add_bos``, ``add_eos`` (False; with them ``add_special_tokens`` adds ``<s>`` /
        ``</s>``).

    Raises
    ------
    TokenizerLoadError
        If the path is missing, the format is unknown, an option is unknown, or the file is
        malformed (the message says which file and what is wrong).
    """
    fmt, file = detect(Path(path))
    check_options(fmt, file, options)
    with collector_paused():  # millions of strings, lists and tuples, no cycles (core.collector)
        return LOADERS[fmt](file, **options)


DEMO_NAME = "teaching example (15-entry WordPiece vocabulary)"
"""The name of :func:`demo_tokenizer`, wherever it is shown (the app's panes, the CLI)."""


def demo_tokenizer() -> Tokenizer:
    """The toy WordPiece of SPEC §2: the 15-entry vocabulary in ``resources/demo_vocab.txt``,
    the teaching normalizer (SPEC §1 defaults), whitespace + punctuation pre-tokenization
    and greedy longest-match WordPiece."""
    vocab = read_vocab_txt(_read_resource("demo_vocab.txt"))
    tokenizer = Tokenizer(name=DEMO_NAME, model=WordPiece(vocab),
                          normalizer=Teaching(), pre_tokenizer=bert_pre_tokenizer(),
                          source={"format": "built-in"})
    tokenizer.decoder = WordPieceDecoder("##", cleanup=True)
    return tokenizer
