"""Issue 30 §5: a long word's lattice (Unigram, SentencePiece Unigram and BPE) asks
``should_stop`` as it goes, so a superseded encode of one 50,000-character word stops after a
bounded amount of work instead of finishing the word."""

from __future__ import annotations

import io

import pytest

from core.errors import Cancelled
from core.tokenizers.formats.sentencepiece.model import SentencePieceModel
from core.tokenizers.models import sentencepiece as sp
from core.tokenizers.models import unigram
from core.tokenizers.models.unigram import Unigram
from tests.core.tokenizers.stops import flips_after

WORD = "abcab" * 10_000  # one word: no space to cut it at



def test_a_unigram_lattice_stops_inside_a_long_word():
    model = Unigram([("<unk>", 0.0), ("a", -1.0), ("b", -1.0), ("c", -1.0), ("ab", -1.5), ("abc", -2.0)], 0)
    stop, calls = flips_after(3)
    with pytest.raises(Cancelled):
        model.tokenize_words([WORD], should_stop=stop)
    assert len(calls) == 4  # the word-level check, then three lattice checks and the stop
    never, _ = flips_after(10**9)
    assert model.tokenize_words(["ab", WORD], should_stop=never) == model.tokenize_words(["ab", WORD])
    # bounded: one call per word, per stretch of positions and per slice length tried
    assert len(_) <= 2 + len(WORD) // unigram.STOP_EVERY + 1 + len("abc")


def _trained(model_type):
    spm = pytest.importorskip("sentencepiece")
    lines = ["abc abcab cab bca", "abcabc ab ca bc", "cabbage acab"] * 50
    out = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=iter(lines), model_writer=out, model_type=model_type,
                                   vocab_size=20, minloglevel=2, num_threads=1, hard_vocab_limit=False)
    return SentencePieceModel.from_bytes(out.getvalue())


@pytest.mark.parametrize("model_type", ["unigram", "bpe"])
def test_a_sentencepiece_word_stops_inside_its_segmentation(model_type):
    model = _trained(model_type)
    stop, calls = flips_after(2)
    with pytest.raises(Cancelled):
        model.encode_parts(WORD, stop)
    assert len(calls) == 3
    never, asked = flips_after(10**9)
    assert model.encode_parts(WORD, never)[:4] == model.encode_parts(WORD)[:4]
    assert len(asked) <= 3 * (len(WORD) // sp.STOP_EVERY + 2)
