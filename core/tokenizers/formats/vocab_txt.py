"""BERT ``vocab.txt``: one token a line, loaded with the standard BERT-uncased pipeline.

Public names: :func:`read_vocab_txt`, :func:`load_vocab_txt`, :data:`BERT_SPECIALS`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.errors import TokenizerLoadError
from core.tokenizers import chars
from core.tokenizers.added_tokens import AddedToken
from core.tokenizers.decoders import WordPiece as WordPieceDecoder
from core.tokenizers.formats._files import display_name, read_text
from core.tokenizers.models.wordpiece import WordPiece
from core.tokenizers.normalizers.bert import BertNormalizer
from core.tokenizers.pre_tokenizers.separators import bert_pre_tokenizer
from core.tokenizers.processors.template import BertProcessing
from core.tokenizers.tokenizer import Tokenizer
from core.tokenizers.surrogates import REFUSE

#: The special tokens of a BERT vocabulary (those present become added special tokens).
BERT_SPECIALS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")


def read_vocab_txt(data: str) -> dict[str, int]:
    """Parse a BERT ``vocab.txt``: one token a line, id = line number (0-based).

    As in the reference, trailing whitespace is trimmed and a repeated token keeps the id
    of its last line.

    Raises
    ------
    TokenizerLoadError
        If there is no token at all.
    """
    lines = data.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    ws = "".join(chars.WHITESPACE)
    vocab = {line.rstrip(ws): i for i, line in enumerate(lines)}
    if not vocab or vocab.keys() == {""}:
        raise TokenizerLoadError("the vocabulary file has no tokens")
    return vocab


def load_vocab_txt(path: Path, **options: Any) -> Tokenizer:
    """Load a BERT ``vocab.txt`` with the standard BERT-uncased pipeline.

    Options ``lowercase`` (default True) and ``strip_accents`` (default: follows
    ``lowercase``) select a cased model's setup.

    Raises
    ------
    TokenizerLoadError
        If the file cannot be read or holds no tokens.
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
    tokenizer = Tokenizer(name=display_name(path), model=model, normalizer=normalizer,
                          pre_tokenizer=bert_pre_tokenizer(), post_processor=post,
                          added_tokens=specials, source={"format": "vocab.txt", "path": str(path)})
    tokenizer.decoder = WordPieceDecoder("##", cleanup=True)  # as BertWordPieceTokenizer
    tokenizer.lone_surrogates = REFUSE  # as tokenizers.Tokenizer.encode
    return tokenizer
