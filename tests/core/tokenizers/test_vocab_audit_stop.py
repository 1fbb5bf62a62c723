"""Issue 30 §5: the vocabulary audit stops within a bounded amount of work after its stop
request: probes are judged :data:`CHUNK` at a time, the corpus is searched for added tokens a
slice at a time, with ``should_stop`` asked between."""

from __future__ import annotations

import pytest

from core.errors import Cancelled
from core.tokenizers import load, vocab_audit
from core.tokenizers.vocab_audit.reach import CHUNK, _with_added, make_probes, texts_with_added
from core.tokenizers.vocab_audit.surface import vocab_entries
from tests.core.tokenizers.loaded import shared_tokenizer
from tests.core.tokenizers.small_docs import bpe_doc, write_doc
from tests.core.tokenizers.stops import flips_after



def test_the_audit_stops_within_a_thousand_probes_of_work(data_dir):
    tok = shared_tokenizer(data_dir, "gpt2/tokenizer.json")
    probes = len(make_probes(tok, vocab_entries(tok)))
    fractions = [0.0]
    with pytest.raises(Cancelled):  # stop asked for as soon as some probes are judged
        vocab_audit(tok, None, progress=fractions.append, should_stop=lambda: fractions[-1] > 0)
    judged = max(fractions) / 0.75 * probes  # the probes take the first 75 % of the progress
    assert 0 < round(judged) <= 1024 and CHUNK <= 1024


@pytest.fixture(scope="module")
def with_added(tmp_path_factory):
    doc = bpe_doc(unk=True, byte_fallback=False)
    doc["added_tokens"] = [{"id": 100, "content": "<x>", "single_word": False, "lstrip": False,
                            "rstrip": False, "normalized": False, "special": True}]
    return load(write_doc(tmp_path_factory.mktemp("audit_stop"), "added", doc))


def test_the_search_for_added_tokens_stops_between_slices(with_added):
    texts = ["ab " * 300] * 300  # 270,000 code points
    stop, calls = flips_after(2)
    with pytest.raises(Cancelled):
        texts_with_added(with_added, texts, stop)
    assert len(calls) == 3


def test_slices_find_the_texts_one_search_finds(with_added):
    texts = [("ab " * 500 if k % 7 else "a<x>b") + ("<" if k % 5 == 0 else "") for k in range(400)]
    texts[50] = "x>" + texts[50]  # "<" at the end of 49 ("<x>" runs into the separator: not a match)
    never, calls = flips_after(10**9)
    found = texts_with_added(with_added, texts, never)
    assert found == _with_added(with_added.added, texts) and len(found) == 58
    assert len(calls) > 20


def test_listing_the_entries_stops_every_few_thousand(data_dir):
    tok = shared_tokenizer(data_dir, "gpt2/tokenizer.json")
    stop, calls = flips_after(2)
    with pytest.raises(Cancelled):
        vocab_entries(tok, stop)
    assert len(calls) == 3
    stop, calls = flips_after(0)
    with pytest.raises(Cancelled):
        make_probes(tok, vocab_entries(tok), stop)
