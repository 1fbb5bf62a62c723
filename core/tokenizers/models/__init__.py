"""Tokenization models: one pre-tokenized word in, tokens with word-relative code-point spans
out (the pipeline form ``Piece`` of :mod:`.base`).

Modules: :mod:`.base` (the memoizing base class), :mod:`.wordpiece`, :mod:`.bpe` (with the
merge loops of :mod:`.bpe_merge` and the checks of :mod:`.bpe_build`), :mod:`.unigram`,
:mod:`.wordlevel`, :mod:`.sentencepiece` (SentencePiece's whole-text segmenter). The
``tokenizer.json`` builders of the models are :data:`core.tokenizers.formats.hf_json.MODELS`.
"""

from core.tokenizers.models.base import CachedModel, Piece
from core.tokenizers.models.bpe import BPE
from core.tokenizers.models.unigram import Unigram
from core.tokenizers.models.wordlevel import WordLevel
from core.tokenizers.models.wordpiece import WordPiece

__all__ = ["BPE", "CachedModel", "Piece", "Unigram", "WordLevel", "WordPiece"]
