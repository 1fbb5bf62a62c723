"""A SentencePiece ``.model`` file behind the :class:`Tokenizer` interface.

SentencePiece segments the whole normalized text at once (it has no pre-tokenizer), so
this adapter does not run the generic pipeline: :meth:`encode` asks
:class:`core.tokenizers.formats.sentencepiece.model.SentencePieceModel` for pieces with
their original code-point spans and wraps them in an :class:`Encoding`.

Conventions: a *word* is a run of pieces starting at a piece that begins with ``▁`` (the
first piece starts word 0), so ``word_ids`` group the pieces of one whitespace-separated
word. ``add_special_tokens=True`` adds the beginning/end-of-sentence pieces only when the
loader was asked to (``add_bos`` / ``add_eos``), as ``SentencePieceProcessor.encode`` does
with its ``add_bos``/``add_eos`` flags — off by default, like there. They get span
``(0, 0)``, word id None and special-tokens-mask 1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from core.collector import collector_paused
from core.errors import TokenizerLoadError, check_stop
from core.text.normalize import NormalizedText
from core.tokenizers.added_tokens import AddedToken
from core.tokenizers.decoders.sentencepiece import SentencePieceDecoder
from core.tokenizers.encoding import Encoding
from core.tokenizers.formats._files import display_name
from core.tokenizers.formats.sentencepiece.model import (
    SPACE, SentencePieceModel, load_sentencepiece_model)
from core.tokenizers.models.sentencepiece import CONTROL
from core.tokenizers.surrogates import REFUSE, check_texts_surrogates, repair_for
from core.tokenizers.tokenizer import Tokenizer, check_texts


class SentencePieceTokenizer(Tokenizer):
    """A tokenizer backed by a SentencePiece model.

    Parameters
    ----------
    model : SentencePieceModel
    name : str
    path : str
    add_bos, add_eos : bool
        Add ``<s>`` / ``</s>`` (the model's control pieces) with ``add_special_tokens``.

    Raises
    ------
    TokenizerLoadError
        If ``add_bos``/``add_eos`` is asked for and the model has no such control piece.
    """

    def __init__(self, model: SentencePieceModel, *, name: str, path: str,
                 add_bos: bool = False, add_eos: bool = False):
        controls = [AddedToken(p, i, special=True)
                    for i, (p, t) in enumerate(zip(model.pieces, model.types)) if t == CONTROL]
        super().__init__(name=name, model=model, added_tokens=controls,
                         source={"format": "sentencepiece", "path": path,
                                 "add_bos": bool(add_bos), "add_eos": bool(add_eos)})
        self._bos = self._control(model, "<s>", path) if add_bos else None
        self._eos = self._control(model, "</s>", path) if add_eos else None
        p = model.proto  # SentencePieceProcessor.decode's rule; an id out of range raises
        self.decoder = SentencePieceDecoder(
            model.vocab, model.types, model.unk_id, add_dummy_prefix=p.add_dummy_prefix,
            remove_extra_whitespaces=p.remove_extra_whitespaces, unk_surface=p.unk_surface)
        self.strict_ids = True
        self.lone_surrogates = REFUSE  # as SentencePieceProcessor.encode

    @staticmethod
    def _control(model: SentencePieceModel, piece: str, path: str) -> tuple[str, int]:
        id_ = model.vocab.get(piece)
        if id_ is None or model.types[id_] != CONTROL:
            raise TokenizerLoadError(f"the model has no control piece {piece!r}", path)
        return piece, id_

    def normalize(self, text: str) -> NormalizedText:
        """SentencePiece's normalized text (``▁`` for spaces, dummy prefix included)."""
        return self.model.normalize(text)

    def pre_tokenize(self, text: str) -> list[tuple[str, tuple[int, int]]]:
        """Words of the normalized text (cut before each ``▁``) with original spans."""
        nt = self.model.normalize(text)
        out, start = [], 0
        for k in range(1, len(nt.text) + 1):
            if k == len(nt.text) or nt.text[k] == SPACE:
                out.append((nt.text[start:k], nt.to_original(start, k)))
                start = k
        return out

    def encode(self, text: str, *, add_special_tokens: bool = False,
               should_stop: Callable[[], bool] | None = None) -> Encoding:
        """Pieces, ids and original code-point spans, as ``SentencePieceProcessor.encode``;
        ``should_stop`` is asked before, while and after the model segments the text.

        Raises
        ------
        TypeError
            If ``text`` is not a ``str``.
        core.errors.LoneSurrogateError
            If ``text`` holds a lone surrogate (the library refuses them).
        core.errors.Cancelled
            If ``should_stop()`` returned True.
        """
        if not isinstance(text, str):
            raise TypeError(f"text must be str, not {type(text).__name__}")
        repair_for(self.lone_surrogates, text)
        check_stop(should_stop)
        tokens, ids, starts, ends, normalized = self.model.encode_parts(text, should_stop)
        check_stop(should_stop)
        offsets = list(zip(starts, ends))
        word_ids: list[int | None] = []
        wid = -1
        for k, t in enumerate(tokens):
            if k == 0 or t.startswith(SPACE):
                wid += 1
            word_ids.append(wid)
        mask = [0] * len(ids)
        if add_special_tokens:
            for special, at_end in ((self._bos, False), (self._eos, True)):
                if special is None:
                    continue
                k = len(tokens) if at_end else 0
                tokens.insert(k, special[0])
                ids.insert(k, special[1])
                offsets.insert(k, (0, 0))
                word_ids.insert(k, None)
                mask.insert(k, 1)
        return Encoding(tokens, ids, offsets, word_ids, mask, normalized,
                        [0] * len(ids), rules=self.token_rules)

    def encode_batch(self, texts, *, add_special_tokens: bool = False,
                     should_stop: Callable[[], bool] | None = None) -> list[Encoding]:
        """:meth:`encode` of every text (SentencePiece segments whole texts, so there is
        no per-word cache to share); ``should_stop`` is asked before every text.

        Raises
        ------
        TypeError
            If ``texts`` is a ``str`` or an item is not one (naming its index).
        core.errors.LoneSurrogateError
            For the first text holding a lone surrogate, before anything is encoded.
        core.errors.Cancelled
            If ``should_stop()`` returned True.
        """
        texts = check_texts(texts)
        check_texts_surrogates(self.lone_surrogates, texts)
        out: list[Encoding] = []
        with collector_paused():
            for text in texts:
                check_stop(should_stop)
                out.append(self.encode(text, add_special_tokens=add_special_tokens))
        return out

    def describe(self) -> dict[str, Any]:
        out = super().describe()
        out["model"] = self.model.describe()
        return out


def load_sentencepiece(path: Path, *, add_bos: bool = False,
                       add_eos: bool = False) -> SentencePieceTokenizer:
    """Load a SentencePiece ``.model`` file (Unigram or BPE).

    Raises
    ------
    TokenizerLoadError
        If the file cannot be read, is not a valid model, or ``add_bos``/``add_eos`` is
        asked for and the model lacks the control piece.
    """
    model = load_sentencepiece_model(path)
    return SentencePieceTokenizer(model, name=display_name(path), path=str(path),
                                  add_bos=add_bos, add_eos=add_eos)
