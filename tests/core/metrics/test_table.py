"""Languages × tokenizers table: hand-computed on a tiny corpus, then on the real UDHR files."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from core.errors import SubwordScopeError
from core.errors import Cancelled
from core.metrics import METRICS, compare_table, encoding_metrics, load_corpus


class SpaceTokenizer:
    """Splits on single spaces; every word in ``unknown`` becomes ``[UNK]``."""

    unk_token = "[UNK]"

    def __init__(self, name="space", unknown=()):
        self.name, self.unknown, self.calls = name, set(unknown), 0

    def encode(self, text):
        self.calls += 1
        tokens, offsets, pos = [], [], 0
        for word in text.split(" "):
            if word:
                tokens.append("[UNK]" if word in self.unknown else word)
                offsets.append((pos, pos + len(word)))
            pos += len(word) + 1
        return SimpleNamespace(tokens=tokens, offsets=offsets)


class CharTokenizer:
    name, unk_token = "chars", None

    def encode(self, text):
        return SimpleNamespace(tokens=list(text), offsets=[(i, i + 1) for i in range(len(text))])


@pytest.fixture
def tiny(tmp_path):
    (tmp_path / "eng.txt").write_text("the cat\n\nsat down\n", encoding="utf-8")
    (tmp_path / "fra.txt").write_text("le chat\nest assis l\u00e0\n", encoding="utf-8")
    return tmp_path


def test_tiny_corpus_by_hand(tiny):
    corpus = load_corpus(tiny)
    assert [f.code for f in corpus] == ["eng", "fra"] and corpus[1].name == "French"
    assert corpus[0].lines == ("the cat", "sat down")  # the empty line is skipped
    t = compare_table([SpaceTokenizer(unknown={"assis"}), CharTokenizer()], corpus, reference="eng")
    assert t.tokenizers == ("space", "chars")
    np.testing.assert_array_equal(t.values("tokens"), [[4, 15], [5, 19]])
    np.testing.assert_array_equal(t.values("words"), [[4, 4], [5, 5]])
    np.testing.assert_allclose(t.values("premium"), [[1, 1], [5 / 4, 19 / 15]])
    np.testing.assert_allclose(t.values("unknown_rate"), [[0, 0], [1 / 5, 0]])
    np.testing.assert_allclose(t.values("bytes_per_token")[1], [20 / 5, 20 / 19])  # "là" is 3 bytes
    assert t.words_are_characters() == [False, False]


def test_precomputed_values_are_the_same_and_each_call_gives_its_own_array(tiny):
    t = compare_table([SpaceTokenizer(unknown={"assis"}), CharTokenizer()], load_corpus(tiny), reference="eng")
    fresh = {m: t.values(m) for m in METRICS}
    same = compare_table([SpaceTokenizer(unknown={"assis"}), CharTokenizer()], load_corpus(tiny), reference="eng")
    assert same.precompute() is same and same == t
    for m in METRICS:
        np.testing.assert_array_equal(same.values(m), fresh[m])
    tokens = same.values("tokens")
    tokens[:] = -1  # a caller's change never reaches the table
    np.testing.assert_array_equal(same.values("tokens"), [[4, 15], [5, 19]])
    flags = same.words_are_characters()
    flags[0] = True
    assert same.words_are_characters() == [False, False]


def test_values_equal_cell_metrics_and_premium_without_reference(tiny):
    corpus = load_corpus(tiny)
    tok = SpaceTokenizer()
    t = compare_table([tok], corpus, reference="deu")
    assert np.isnan(t.values("premium")).all()
    line = corpus[1].lines[1]
    direct = encoding_metrics(tok.encode(corpus[1].lines[0]), corpus[1].lines[0]) + encoding_metrics(tok.encode(line), line)
    assert t.cells[1][0] == direct
    for key in METRICS:
        assert t.values(key).shape == (2, 1)
    with pytest.raises(SubwordScopeError):
        t.values("nonsense")


def test_cache_progress_and_cancel(tiny):
    corpus = load_corpus(tiny)
    tok, cache, seen = SpaceTokenizer(), {}, []
    compare_table([tok], corpus, cache=cache, progress=seen.append)
    calls = tok.calls
    assert seen == [0.5, 1.0] and len(cache) == 4  # metrics + round trip per (tokenizer, file)
    again = compare_table([tok], corpus, cache=cache)
    assert tok.calls == calls and again.cells[0][0].tokens == 4  # served from the cache
    (tiny / "eng.txt").write_text("the cat sat\n", encoding="utf-8")
    import os
    st = os.stat(tiny / "eng.txt")
    os.utime(tiny / "eng.txt", ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    fresh = compare_table([tok], load_corpus(tiny), cache=cache)
    assert fresh.cells[0][0].tokens == 3  # the changed file was re-encoded
    with pytest.raises(Cancelled):
        compare_table([tok], corpus, should_stop=lambda: True)


def test_load_corpus_errors(tmp_path):
    with pytest.raises(SubwordScopeError, match="not a folder"):
        load_corpus(tmp_path / "missing")
    with pytest.raises(SubwordScopeError, match="no .txt"):
        load_corpus(tmp_path)
    (tmp_path / "bad.txt").write_bytes(b"\xff\xfe\x00x")
    with pytest.raises(SubwordScopeError, match="not UTF-8"):
        load_corpus(tmp_path)


def test_udhr_with_reference_tokenizers(data_dir):
    from tests.reference_adapters import reference_tokenizer

    corpus = [f for f in load_corpus(data_dir / "udhr") if f.code in ("eng", "tha", "hin", "cmn_hans")]
    toks = [reference_tokenizer(data_dir, "bert-base-uncased"), reference_tokenizer(data_dir, "gpt2")]
    t = compare_table(toks, corpus)
    prem = t.values("premium")
    assert prem[t.languages.index("eng")].tolist() == [1.0, 1.0]
    assert t.words_are_characters() == [True, False, False, True]  # cmn_hans, eng, hin, tha
    unk = t.values("unknown_rate")
    assert unk[:, 1].max() == 0.0  # byte-level BPE never emits an unknown token
    assert unk[t.languages.index("tha"), 0] > 0.5  # BERT: Thai phrases without spaces become [UNK]
    cut = t.values("grapheme_cut_share")
    assert cut[t.languages.index("eng")].tolist() == [0.0, 0.0]
    assert cut[t.languages.index("hin")].min() > 0.1  # conjuncts split after the virama
    assert t.values("split_character_share")[t.languages.index("hin"), 1] > 0.5
    assert np.isfinite(t.values("fertility")).all()


def test_load_corpus_refuses_binary_files_with_the_shared_reader(tmp_path):
    from core.text.files import NotTextError

    (tmp_path / "eng.txt").write_text("\ufeffAll human beings\n\n", encoding="utf-8")
    assert load_corpus(tmp_path)[0].lines == ("All human beings",)  # BOM dropped by the reader
    (tmp_path / "zzz.txt").write_bytes(b"\x00\x01\x02" * 50)  # valid UTF-8 but binary
    with pytest.raises(NotTextError, match=r"zzz.txt: not UTF-8 text \(NUL"):
        load_corpus(tmp_path)
