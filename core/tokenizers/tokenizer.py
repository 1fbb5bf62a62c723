"""The ``Tokenizer``: its components, vocabulary, and the encode pipeline run over them:
added tokens -> normalizer -> pre-tokenizer -> model -> post-processor.

The stages live in :mod:`core.tokenizers.pipeline` (each passes
:class:`~core.tokenizers.pipeline.TextSplit` records on), the assembly in
:mod:`core.tokenizers.builder`. Offsets are tracked all the way through: the normalizer
yields a :class:`core.text.normalize.NormalizedText` (normalized character -> original span),
the pre-tokenizer yields words with normalized spans, the model yields word-relative spans,
and the two maps compose into original code-point spans, as the ``tokenizers`` library
reports.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol, Sequence

from core.collector import collector_paused
from core.errors import check_stop
from core.text.normalize import NormalizedText
from core.tokenizers import pipeline as stages
from core.tokenizers.added_tokens import AddedToken, AddedVocabulary
from core.tokenizers.batch import BatchEncoder
from core.tokenizers.builder import EncodingBuilder
from core.tokenizers.decoding import DecodedPiece, decode, decode_pieces
from core.tokenizers.encoding import Encoding
from core.tokenizers.models.base import Piece
from core.tokenizers.normalizers.base import Normalizer
from core.tokenizers.pipeline import TextSplit
from core.tokenizers.pre_tokenizers.base import PreTokenizer
from core.tokenizers.processors.base import PostProcessor
from core.tokenizers.surrogates import PASS, check_texts_surrogates, repair_for
from core.tokenizers.token_rules import TokenRules, rules_for


class Model(Protocol):
    """What the pipeline needs from a model (WordPiece, BPE, Unigram, WordLevel)."""

    type_name: str
    vocab: dict[str, int]
    unk_token: str | None

    def tokenize_word(self, word: str) -> Piece: ...

    def tokenize_words(self, words: list[str],
                       should_stop: Callable[[], bool] | None = None) -> list[Piece]: ...

    def tokenize_flat(self, words: list[str],
                      should_stop: Callable[[], bool] | None = None) -> tuple | None:
        """Many words' tokens laid end to end, or None where the model has no such path
        (see :meth:`core.tokenizers.models.bpe.BPE.tokenize_flat`)."""
        ...

    def describe(self) -> dict[str, Any]: ...


class Tokenizer:
    """A loaded tokenizer.

    Parameters
    ----------
    name : str
        Shown to the user (usually the file or folder name).
    model : Model
    normalizer, pre_tokenizer, post_processor : optional components
    added_tokens : list[AddedToken]
    padding, truncation : dict or None
        The file's settings, reported by :meth:`describe`, never applied.
    source : dict
        Where it came from (``{"format": ..., "path": ...}``).
    byte_level : bool or None
        Tokens are in GPT-2's byte alphabet (default: the pre-tokenizer or the normalizer
        contains a ByteLevel step). Sets :attr:`is_byte_level` and ``Encoding.byte_level``.
    """

    def __init__(self, *, name: str, model: Model, normalizer: Normalizer | None = None,
                 pre_tokenizer: PreTokenizer | None = None,
                 post_processor: PostProcessor | None = None,
                 added_tokens: list[AddedToken] | None = None, padding: dict | None = None,
                 truncation: dict | None = None, source: dict | None = None,
                 byte_level: bool | None = None):
        self.name = name
        self.model = model
        self.normalizer = normalizer
        self.pre_tokenizer = pre_tokenizer
        self.post_processor = post_processor
        self.added = AddedVocabulary(added_tokens or [],
                                     normalize=self._normalize_added)
        self.padding, self.truncation = padding, truncation
        self.source = dict(source or {})
        self._vocab = dict(model.vocab)
        for t in self.added.tokens:
            self._vocab.setdefault(t.content, t.id)
        self._inverse = dict(zip(model.vocab.values(), model.vocab))  # (C-level)
        self.is_byte_level = bool(byte_level) if byte_level is not None else (
            bool(pre_tokenizer is not None and pre_tokenizer.byte_level)
            or bool(normalizer is not None and normalizer.byte_level))
        for t in self.added.tokens:
            self._inverse[t.id] = t.content

    #: Token strings back to text (set by the loader; None: joined with spaces, as the
    #: reference does without a decoder); ``strict_ids``: unknown ids raise instead of
    #: being skipped (tiktoken, SentencePiece). See :mod:`core.tokenizers.decoding`.
    decoder: Any = None
    strict_ids: bool = False
    #: What ``encode`` does with a lone surrogate, as the format's reference library does
    #: (:mod:`core.tokenizers.surrogates`; set by the loader): "refuse", "replace" or "pass".
    lone_surrogates: str = PASS

    def decode(self, ids, *, skip_special_tokens: bool = True,
               should_stop: Callable[[], bool] | None = None) -> str:
        """The text ``ids`` stand for, as the format's reference library decodes them
        (:func:`core.tokenizers.decoding.decode`; raises ``UnknownIdError`` there, and
        ``Cancelled`` when ``should_stop()`` turns True between the decoder's steps)."""
        return decode(self, ids, skip_special_tokens=skip_special_tokens, should_stop=should_stop)

    def decode_pieces(self, ids, *, skip_special_tokens: bool = True,
                      should_stop: Callable[[], bool] | None = None) -> list[DecodedPiece]:
        """Per id, its share of :meth:`decode`'s text and the bytes of characters it holds
        only partly (:func:`core.tokenizers.decoding.decode_pieces`; ``should_stop`` as in
        :meth:`decode`)."""
        return decode_pieces(self, ids, skip_special_tokens=skip_special_tokens,
                             should_stop=should_stop)

    # -- vocabulary ---------------------------------------------------------------------

    @property
    def model_type(self) -> str:
        """``"WordPiece"``, ``"BPE"``, ``"Unigram"`` or ``"WordLevel"``."""
        return self.model.type_name

    @property
    def vocab_size(self) -> int:
        """Number of distinct tokens, added tokens included (like ``get_vocab_size()``)."""
        return len(self._vocab)

    @property
    def unk_token(self) -> str | None:
        return getattr(self.model, "unk_token", None)

    @property
    def special_tokens(self) -> list[str]:
        """Contents of the added tokens marked special, in file order."""
        return [t.content for t in self.added.tokens if t.special]

    def token_to_id(self, token: str) -> int | None:
        return self._vocab.get(token)

    def id_to_token(self, id_: int) -> str | None:
        return self._inverse.get(id_)

    def describe(self) -> dict[str, Any]:
        """Every component with its settings, plus the file's padding and truncation
        (shown, never applied) and whether tokens are byte-level."""
        def show(c):
            return None if c is None else c.describe()
        return {
            "name": self.name, **self.source, "model": self.model.describe(),
            "normalizer": show(self.normalizer), "pre_tokenizer": show(self.pre_tokenizer),
            "post_processor": show(self.post_processor), "decoder": show(self.decoder),
            "added_tokens": [dict(vars(t)) for t in self.added.tokens],
            "padding": self.padding, "truncation": self.truncation,
            "vocab_size": self.vocab_size, "byte_level": self.is_byte_level,
        }

    @property
    def token_rules(self) -> TokenRules:
        """What this tokenizer's tokens stand for (unknown id, byte-fallback pieces,
        markers), read off the model and pipeline on first use and kept."""
        rules = self.__dict__.get("_token_rules")
        if rules is None:
            rules = self.__dict__["_token_rules"] = rules_for(self)
        return rules

    # -- pipeline (the stages: core.tokenizers.pipeline; assembly: core.tokenizers.builder) --

    def _normalized_splits(self, text: str, should_stop: Callable[[], bool] | None = None,
                           parse_special: bool = True) -> list[TextSplit]:
        """Stages 1-2: the text cut at added tokens matched before normalization (special
        ones only when ``parse_special``), each text split normalized."""
        return stages.normalize(self.normalizer,
                                stages.split_added(self.added, text, should_stop, parse_special),
                                should_stop)

    def _normalize_added(self, content: str) -> str:
        """An added token's content as the normalizer writes it (matched in normalized text)."""
        if self.normalizer is None:
            return content
        return self.normalizer.normalize(NormalizedText.identity(content)).text

    def normalize(self, text: str) -> NormalizedText:
        """The whole normalized text; added tokens found in it are kept verbatim."""
        return stages.joined_normalized(text, self._normalized_splits(text))

    def pre_tokenize(self, text: str) -> list[tuple[str, tuple[int, int]]]:
        """Pre-tokenized words with their ORIGINAL code-point spans (added tokens included)."""
        out: list[tuple[str, tuple[int, int]]] = []
        splits = stages.pre_tokenize(self.added, self.pre_tokenizer, self._normalized_splits(text))
        for split in splits:
            nt, shift = split.normalized, split.shift
            if split.token is not None:
                a, b = nt.to_original(split.start, split.end)
                out.append((split.token.content, (a + shift, b + shift)))
                continue
            for word, s, e in stages.word_spans(split):
                a, b = nt.to_original(s, max(s, e))
                out.append((word, (a + shift, b + shift)))
        return out

    def encode(self, text: str, *, add_special_tokens: bool = False,
               should_stop: Callable[[], bool] | None = None,
               parse_special_tokens: bool = True) -> Encoding:
        """Encode ``text``; offsets are code points into ``text``.

        The stages of :mod:`core.tokenizers.pipeline` (added tokens, normalizer,
        pre-tokenizer, model) pass :class:`~core.tokenizers.pipeline.TextSplit` records
        on; :class:`~core.tokenizers.builder.EncodingBuilder` post-processes and assembles.

        Parameters
        ----------
        text : str
            Any string (lone surrogates and control characters included).
        add_special_tokens : bool
            Apply the post-processor's template (``[CLS] … [SEP]`` for BERT).
        should_stop : callable, optional
            Asked before normalizing and pre-tokenizing each piece of text, before every
            :data:`~core.tokenizers.pipeline.STOP_CHECK_WORDS` words the model tokenizes
            (every :data:`~core.tokenizers.pipeline.FLAT_CHUNK` words where it merges many
            new words together), inside long words' merging, and every few thousand code
            points while added tokens are looked for; True stops the encoding.
        parse_special_tokens : bool
            False: special added tokens written in the text are encoded as plain text (the
            reference's ``encode_special_tokens = True``); non-special added tokens are
            still found.

        Returns
        -------
        Encoding
            ``n`` tokens with ids, original code-point offsets, word ids, special-tokens
            mask, type ids and the whole normalized text. The file's padding and
            truncation settings are not applied.

        Raises
        ------
        TypeError
            If ``text`` is not a ``str``.
        core.errors.LoneSurrogateError
            If ``text`` holds a lone surrogate and the format refuses them
            (:attr:`lone_surrogates`; "replace" encodes tiktoken's repaired text instead).
        core.errors.Cancelled
            If ``should_stop()`` returned True.
        """
        if not isinstance(text, str):
            raise TypeError(f"text must be str, not {type(text).__name__}")
        if (fix := repair_for(self.lone_surrogates, text)) is not None:
            return fix.restore(self.encode(fix.text, add_special_tokens=add_special_tokens,
                                           should_stop=should_stop,
                                           parse_special_tokens=parse_special_tokens))
        check_stop(should_stop)
        with collector_paused():  # many small tuples, no cycles (see core.collector)
            pieces = self._normalized_splits(text, should_stop, parse_special_tokens)
            splits = stages.pre_tokenize(self.added, self.pre_tokenizer, pieces, should_stop,
                                         parse_special_tokens)
            stages.tokenize(self.model, splits, should_stop)
            builder = EncodingBuilder(len(text))
            builder.add_many(splits, should_stop)
            check_stop(should_stop)
            normalized = stages.joined_normalized(text, pieces)
            check_stop(should_stop)
            return builder.build(self, text, normalized, add_special_tokens)

    def encode_batch(self, texts: Sequence[str], *, add_special_tokens: bool = False,
                     should_stop: Callable[[], bool] | None = None,
                     parse_special_tokens: bool = True) -> list[Encoding]:
        """:meth:`encode` of every text, equal field for field, without its per-call
        set-up: short texts take the cached stages of :mod:`core.tokenizers.batch` (word
        caches kept across calls), long ones go through :meth:`encode`; both end in
        :func:`core.tokenizers.builder.build_encoding`.

        Parameters
        ----------
        texts : sequence of str
            Any strings (empty ones and lone surrogates included); not a single ``str``.
        add_special_tokens : bool
            As in :meth:`encode`.
        should_stop : callable, optional
            Asked before every text (and inside long ones, as :meth:`encode` asks).
        parse_special_tokens : bool
            As in :meth:`encode`.

        Returns
        -------
        list[Encoding]
            One per text, in order. O(total code points) plus one model call per word
            never seen before.

        Raises
        ------
        TypeError
            If ``texts`` is a ``str`` or an item is not a ``str`` (naming its index); raised
            before anything is encoded.
        core.errors.LoneSurrogateError
            As :meth:`encode`, for the first text holding one, before anything is encoded.
        core.errors.Cancelled
            If ``should_stop()`` returned True.
        """
        texts = check_texts(texts)
        repaired = check_texts_surrogates(self.lone_surrogates, texts)
        if not parse_special_tokens:
            return [self.encode(t, add_special_tokens=add_special_tokens, should_stop=should_stop,
                                parse_special_tokens=False) for t in texts]
        fast = self.__dict__.get("_batch")
        if fast is None:
            fast = self.__dict__["_batch"] = BatchEncoder(self)
        out: list[Encoding] = []
        with collector_paused():
            for k, (text, enc) in enumerate(zip(texts, fast.encode_many(texts, add_special_tokens, should_stop))):
                out.append(enc if enc is not None and k not in repaired else self.encode(
                    text, add_special_tokens=add_special_tokens, should_stop=should_stop))
        return out


def check_texts(texts: Sequence[str]) -> list[str]:
    """``texts`` as a list, every item checked to be a ``str``.

    Raises
    ------
    TypeError
        If ``texts`` is itself a ``str`` or not iterable, or an item is not a ``str``
        (the message names the first such index).
    """
    if isinstance(texts, str):
        raise TypeError("texts must be a list of str, not one str (wrap it: [text])")
    try:
        texts = list(texts)
    except TypeError:
        raise TypeError(f"texts must be a list of str, not {type(texts).__name__}") from None
    for k, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(f"texts[{k}] must be str, not {type(text).__name__}")
    return texts
