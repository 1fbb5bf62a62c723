"""SentencePiece ``.model`` files: :mod:`.proto` reads the ``ModelProto``, :mod:`.model`
normalizes and encodes as the ``sentencepiece`` library does (segmenting with
:mod:`core.tokenizers.models.sentencepiece`), :mod:`.tokenizer` puts the model behind the
:class:`~core.tokenizers.tokenizer.Tokenizer` interface and holds the loader."""

from core.tokenizers.formats.sentencepiece.model import (
    SentencePieceModel, load_sentencepiece_model)
from core.tokenizers.formats.sentencepiece.tokenizer import (
    SentencePieceTokenizer, load_sentencepiece)

__all__ = ["SentencePieceModel", "SentencePieceTokenizer", "load_sentencepiece",
           "load_sentencepiece_model"]
