"""The atlas: the shipped UDHR collection, its filters, the cached cells, and token counts equal
to the `tokenizers` library's on 30 languages across scripts × the shared tokenizer.json files."""

from __future__ import annotations

import json

import numpy as np
import pytest

from core.collection import filter_languages, languages, read_texts, with_scripts
from core.errors import Cancelled
from core.metrics import compare_table
from core.metrics.atlas import (CellStore, atlas_table, collection_corpus, collection_languages,
                                file_digest, measure_text, text_digest)
from core.metrics.table import METRICS, CorpusFile
from core.tokenizers import load

FILES = ("llama-3", "gemma-3", "qwen3", "gpt-4o", "bert-base-uncased", "gpt2", "pegasus-unigram")


def test_collection_index_and_lazy_texts():
    langs = languages()
    assert len(langs) == 532 and len({lang.code for lang in langs}) == 532
    eng = next(lang for lang in langs if lang.code == "eng")
    assert (eng.name, eng.bcp47, eng.direction, eng.stage) == ("English", "en", "ltr", 4)
    assert eng.latitude is not None and eng.longitude is not None
    texts = dict(read_texts(["eng", "arb", "tha"]))
    assert set(texts) == {"eng", "arb", "tha"} and "Universal Declaration of Human Rights" in texts["eng"]
    scripted = with_scripts([lang for lang in langs if lang.code in texts], texts)
    by_code = {lang.code: lang for lang in scripted}
    assert by_code["arb"].script == "Arabic" and by_code["arb"].direction == "rtl"
    assert by_code["tha"].script == "Thai" and not by_code["tha"].spaced and by_code["eng"].spaced
    assert sorted(lang.code for lang in filter_languages(scripted, scripts={"Arabic", "Thai"})) == ["arb", "tha"]
    assert [lang.code for lang in filter_languages(scripted, directions={"rtl"})] == ["arb"]
    assert filter_languages(scripted, stages={1}) == []
    assert len(filter_languages(scripted)) == 3


def _sample_codes() -> list[str]:
    """30 texts: the first of each script, then Latin texts to make up 30 (stored scripts
    would need the whole collection; the first 3,000 characters of each decide)."""
    texts = dict(read_texts())
    langs = with_scripts(languages(), texts)
    picked, seen = [], set()
    for lang in langs:
        if lang.script not in seen:
            seen.add(lang.script)
            picked.append(lang.code)
    picked += [lang.code for lang in langs if lang.code not in picked and lang.script == "Latin"]
    return picked[:30]


@pytest.fixture(scope="module")
def sample(data_dir):
    codes = _sample_codes()
    return [CorpusFile(f.code, f.path, 0, f.lines[:3]) for f in collection_corpus(codes)]


@pytest.mark.slow
@pytest.mark.parametrize("name", FILES)
def test_token_counts_equal_the_tokenizers_library(data_dir, sample, name):
    tokenizers = pytest.importorskip("tokenizers")
    path = str(data_dir / "tokenizers" / name / "tokenizer.json")
    ref = tokenizers.Tokenizer.from_file(path)
    ref.no_truncation()  # the shared files pad BERT to 128 and truncate GPT-2 at 50: the atlas
    ref.no_padding()     # counts every token of a line, as the app encodes it
    scripts = {lang.script for lang in collection_languages(sample, CellStore(data_dir / "nonexistent"))}
    assert len(scripts) >= 20
    for f in sample:
        [(cell, _trip)] = measure_text([path], f)
        expected = sum(len(e.ids) for e in ref.encode_batch(list(f.lines), add_special_tokens=False))
        assert cell.tokens == expected, (name, f.code)


def test_cache_reopen_and_one_more_column(tmp_path, data_dir):
    paths = [str(data_dir / "tokenizers" / n / "tokenizer.json") for n in ("gpt2", "bert-base-uncased")]
    corpus = [CorpusFile(f.code, f.path, 0, f.lines[:4]) for f in collection_corpus(["eng", "hin", "cmn_hans"])]
    store = CellStore(tmp_path)
    seen = []
    first = atlas_table(paths[:1], corpus, jobs=1, store=store, progress=lambda d, t: seen.append((d, t)))
    assert seen[0] == (0, 3) and seen[-1] == (3, 3)
    seen.clear()
    both = atlas_table(paths, corpus, jobs=1, store=store, progress=lambda d, t: seen.append((d, t)))
    assert seen[0] == (3, 6) and len(seen) == 4  # the cached column counts as done at once
    reference = compare_table([load(p) for p in paths], corpus)
    for m in METRICS:
        assert np.allclose(both.values(m), reference.values(m), equal_nan=True), m
    assert np.array_equal(first.values("tokens")[:, 0], both.values("tokens")[:, 0])
    # reopened: nothing measured (a tokenizer that cannot be loaded is never touched)
    seen.clear()
    again = atlas_table(paths, corpus, jobs=1, store=store, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(6, 6)]
    assert np.allclose(again.values("round_trip_share"), both.values("round_trip_share"), equal_nan=True)
    # cancelled after the first text: its cells are stored
    other = [CorpusFile(f.code, f.path, 0, f.lines[:2]) for f in collection_corpus(["fra", "deu_1996"])]
    calls = []
    with pytest.raises(Cancelled):
        atlas_table(paths[:1], other, jobs=1, store=store, should_stop=lambda: calls.append(1) or len(calls) > 1)
    assert len(CellStore(tmp_path).cells(file_digest(paths[0]))) == 4  # 3 + the first of these


def test_every_collection_text_gets_its_script(tmp_path):
    """No text of the collection has an "Unknown" script (eight did: Tai Dam, Chakma, Pular in
    Adlam, Nuosu, Khün, Sanskrit in Grantha, Tagalog in Baybayin, Vai), and scripts detected
    by an older detection (a store's old scripts file) are detected again."""
    langs = with_scripts(languages(), dict(read_texts()))
    assert not [(lang.code, lang.script) for lang in langs if lang.script in (None, "Unknown")]
    by_code = {lang.code: lang.script for lang in langs}
    assert {c: by_code[c] for c in ("blt", "ccp", "fuf_adlm", "iii", "kkh_lana", "san_gran", "tgl_tglg", "vai")} == {
        "blt": "Tai_Viet", "ccp": "Chakma", "fuf_adlm": "Adlam", "iii": "Yi", "kkh_lana": "Tai_Tham",
        "san_gran": "Grantha", "tgl_tglg": "Tagalog", "vai": "Vai"}
    corpus = collection_corpus(["vai", "eng"])
    store = CellStore(tmp_path)
    store.root.mkdir(parents=True)
    old = {text_digest(f): ["Unknown", True] for f in corpus}
    (store.root / "scripts.json").write_text(json.dumps(old), encoding="utf-8")
    scripts = {lang.code: lang.script for lang in collection_languages(corpus, store)}
    assert scripts == {"vai": "Vai", "eng": "Latin"}
