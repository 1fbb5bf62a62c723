"""Pipeline plumbing other components rely on: text-rewriting pre-tokenizers, added tokens
matched after normalization, sequences of per-character normalizers."""

from __future__ import annotations

import pytest

from core.errors import Cancelled
from core.text.normalize import NormalizedText
from core.tokenizers import demo_tokenizer
from core.tokenizers.added_tokens import AddedToken
from core.tokenizers.models.wordpiece import WordPiece
from core.tokenizers.normalizers import BertNormalizer, Lowercase, Sequence, StripAccents, Decompose
from core.tokenizers.pre_tokenizers import PreTokenizer, whitespace_split
from core.tokenizers.pipeline import STOP_CHECK_WORDS
from core.tokenizers.tokenizer import Tokenizer


class MarkWords(PreTokenizer):
    """Metaspace-like: each whitespace-separated word is rewritten as "▁" + word; the marker
    stands for no normalized character (an empty span at the word's start)."""

    type_name = "MarkWords"
    transforms = True

    def split(self, text):
        words, starts = whitespace_split().split(text)
        return ["\u2581" + w for w in words], starts

    def word_map(self, text, word, start):
        n = len(word) - 1
        return [start] + [start + k for k in range(n)], [start] + [start + k + 1 for k in range(n)]


def _tok(**kw):
    vocab = {"[UNK]": 0, "\u2581": 1, "\u2581ab": 2, "##c": 3, "ab": 4, "<x>": 5}
    return Tokenizer(name="t", model=WordPiece(vocab), **kw)


def test_rewriting_pre_tokenizer_maps_offsets_through_its_word_map():
    tok = _tok(normalizer=Lowercase(), pre_tokenizer=MarkWords())
    enc = tok.encode("  ABc Q")
    assert enc.tokens == ["\u2581ab", "##c", "[UNK]"]
    assert enc.offsets == [(2, 4), (4, 5), (6, 7)]
    assert tok.pre_tokenize("  ABc Q") == [("\u2581abc", (2, 5)), ("\u2581q", (6, 7))]


def test_normalized_added_token_is_matched_after_normalization():
    added = [AddedToken("<x>", 5, special=False, normalized=True)]
    tok = _tok(normalizer=Lowercase(), pre_tokenizer=whitespace_split(), added_tokens=added)
    enc = tok.encode("ab<X>ab")
    assert enc.tokens == ["ab", "<x>", "ab"]
    assert enc.offsets == [(0, 2), (2, 5), (5, 7)]
    assert enc.word_ids == [0, 1, 2]


def test_sequence_of_char_maps_equals_bert_strip_and_lowercase():
    text = "\u00c9T\u00c9 Zoe\u0301 \u0130 \ufb01"
    seq = Sequence([Decompose("NFD"), StripAccents(), Lowercase()])
    a = seq.normalize(NormalizedText.identity(text))
    b = BertNormalizer(clean_text=False, handle_chinese_chars=False).normalize(
        NormalizedText.identity(text))
    assert a.text == b.text == "ete zoe i \ufb01"
    assert a.spans == b.spans
    assert a.spans[4:8] == [(4, 5), (5, 6), (6, 7), (8, 9)]  # the dropped mark is in no span


def test_encode_asks_should_stop_between_chunks_of_words_and_stops():
    """Cancel means stop: a superseded encode raises Cancelled at its next check (every
    STOP_CHECK_WORDS words), and checking changes nothing about the result."""
    tok = demo_tokenizer()
    text = "zoe flew to istanbul " * (3 * STOP_CHECK_WORDS)
    asked = []
    enc = tok.encode(text, should_stop=lambda: asked.append(1) and False)
    plain = tok.encode(text)
    assert (enc.ids, enc.offsets) == (plain.ids, plain.offsets)
    words = 4 * 3 * STOP_CHECK_WORDS
    assert len(asked) >= words // STOP_CHECK_WORDS  # asked at least once per chunk of words
    calls = []

    def stop_at_third():
        calls.append(1)
        return len(calls) >= 3

    with pytest.raises(Cancelled):
        tok.encode(text, should_stop=stop_at_third)
    assert len(calls) == 3
