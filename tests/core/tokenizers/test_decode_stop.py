"""Issue 30 §5: decoding asks ``should_stop`` before the decoder and between its steps, so a
superseded decode of a long id list stops after one step's work."""

from __future__ import annotations

import pytest

from core.align.round_trip import decode_kept
from core.errors import Cancelled
from core.tokenizers import load
from core.tokenizers.decoding import decode, decode_pieces
from tests.core.tokenizers.small_docs import unigram_doc, write_doc
from tests.core.tokenizers.stops import flips_after

STEPS = [{"type": "Replace", "pattern": {"String": "\u2581"}, "content": " "}, {"type": "ByteFallback"},
         {"type": "Fuse"}, {"type": "Strip", "content": " ", "start": 1, "stop": 0}]


@pytest.fixture(scope="module")
def llama_like(tmp_path_factory):
    doc = unigram_doc(byte_fallback=True)
    doc["decoder"] = {"type": "Sequence", "decoders": STEPS}
    return load(write_doc(tmp_path_factory.mktemp("decode_stop"), "llama_like", doc))



def test_decode_pieces_stop_between_decoder_steps(llama_like):
    ids = llama_like.encode("ab a b " * 2000).ids
    for n in range(len(STEPS) + 1):
        stop, calls = flips_after(n)
        with pytest.raises(Cancelled):
            decode_pieces(llama_like, ids, should_stop=stop)
        assert len(calls) == n + 1  # no step runs once it said stop
    never, calls = flips_after(10**9)
    assert decode_pieces(llama_like, ids, should_stop=never) == decode_pieces(llama_like, ids)
    assert len(calls) == len(STEPS) + 3


def test_decode_stops_before_the_decoder(llama_like):
    ids = llama_like.encode("ab a b " * 2000).ids
    stop, calls = flips_after(0)
    with pytest.raises(Cancelled):
        decode(llama_like, ids, should_stop=stop)
    never, _ = flips_after(10**9)
    assert decode(llama_like, ids, should_stop=never) == decode(llama_like, ids)


def test_the_tokenizer_and_the_round_trip_hand_should_stop_to_the_decoder(llama_like):
    text = "ab a b " * 200
    enc = llama_like.encode(text)
    for call in (lambda stop: llama_like.decode(enc.ids, should_stop=stop),
                 lambda stop: llama_like.decode_pieces(enc.ids, should_stop=stop),
                 lambda stop: decode_kept(llama_like, text, enc.ids, enc.offsets, stop)):
        stop, calls = flips_after(1)
        with pytest.raises(Cancelled):
            call(stop)
        assert len(calls) == 2
    assert decode_kept(llama_like, text, enc.ids, enc.offsets)[0] == llama_like.decode(enc.ids)
