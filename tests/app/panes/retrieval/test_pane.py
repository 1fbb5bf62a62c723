"""The Retrieval pane through its widgets: hits, methods, mistakes, cancel, state, exports."""

from __future__ import annotations

import csv
import json
import threading

import numpy as np
import pytest

from app.panes.retrieval import corpus as corpus_module
from app.panes.retrieval import search as search_module
from app.panes.retrieval.state import METHODS, RetrievalState
from app.settings import open_settings, read_state
from core.data import udhr_sample_dir
from core.encoder import StandInEncoder
from core.errors import Cancelled
from core.metrics import load_corpus
from core.retrieval import (
    align_parallel,
    aligned_recall,
    embed_corpus,
    ivf_sweep,
    matched_spans,
    memory_table,
    recall_at_k,
    rerank,
    top_k,
)

from .conftest import TIMEOUT, is_ready


def query_vector(text: str) -> np.ndarray:
    return embed_corpus(StandInEncoder(), [text], cache=False)[0]


def test_first_screen_searches_the_sample_and_hits_equal_core_top_k(make_pane):
    pane = make_pane(languages=[])  # every language
    ix, r = pane.index, pane.result
    corpus = {cf.code: cf.lines for cf in load_corpus(udhr_sample_dir())}
    assert set(ix.searched) == set(corpus) and ix.n == 16 * 12  # the sample has no headings
    for code, lines in corpus.items():  # the index holds the core embeddings of every line
        assert np.array_equal(ix.vectors[code], embed_corpus(StandInEncoder(), list(lines), cache=False))
    q = query_vector("right to education")
    assert np.allclose(r.query.q, q)
    assert [h.row for h in r.hits] == top_k(ix.E, q, 10).tolist()
    assert [h.text for h in r.hits] == [ix.text(i) for i in top_k(ix.E, q, 10)]
    assert pane.hits_view.model.rowCount() == 10
    assert [pane.hits_view.model.row(i)[3] for i in range(10)] == [h.language for h in r.hits]
    assert "stand-in" in pane.panel.message.text().lower() or pane.panel.message.isHidden()
    assert pane.panel.model_label.text().startswith("Stand-in")


def test_matched_query_tokens_are_highlighted_in_the_hit_texts(make_pane):
    pane = make_pane()
    view = pane.hits_view.text_view
    text = view.text()
    for hit, start in zip(pane.result.hits, pane.hits_view.starts):
        assert text[start:start + len(hit.text)] == hit.text
        toks = StandInEncoder().encode([hit.text])
        content = [(t, o) for t, o in zip(toks.tokens[0], toks.offsets[0]) if o[1] > o[0]]
        want = matched_spans(["right", "to", "education"], [t for t, _ in content], [o for _, o in content])
        assert hit.spans == want
    shown = pane.hits_view.shown_spans
    assert shown == [(s + st, e + st) for h, st in zip(pane.result.hits, pane.hits_view.starts) for s, e in h.spans]
    assert any(text[s:e].lower() == "education" for s, e in shown)


@pytest.mark.parametrize("method, extra", [("float16", {}), ("int8", {}), ("ivf", {"nprobe": 1}),
                                           ("ivf", {"nprobe": 1, "rerank": 40})])
def test_switching_the_method_updates_recall_against_exact(make_pane, qtbot, method, extra):
    pane = make_pane()
    h = pane.hits_view
    for name, value in extra.items():
        with qtbot.waitSignal(pane.sig_hits_changed, timeout=TIMEOUT):
            getattr(h, f"{name}_spin").setValue(value)
    with qtbot.waitSignal(pane.sig_hits_changed, timeout=TIMEOUT):
        h.method_box.setCurrentIndex(METHODS.index(method))
    ix, r = pane.index, pane.result
    assert r.method == method and pane.state.method == method
    q = r.query.q
    exact = top_k(ix.E, q, 10)
    if method == "ivf":
        ids, scanned = ix.ivf.search(q, max(10, extra.get("rerank", 0)), 1)
        if extra.get("rerank"):
            ids = rerank(ix.E, q, ids, 10)[0]
        assert r.scanned == pytest.approx(scanned / ix.n) and r.scanned < 1
    else:
        ids = ix.flat[method].search(q, 10)[0]
    assert [hit.row for hit in r.hits] == [int(i) for i in ids[:10] if i >= 0]
    assert r.recall_query == recall_at_k(ids[:10], exact)
    sample_ids = search_module.method_search(ix, ix.E[ix.sample], 10, method, 1, extra.get("rerank", 0))[0]
    assert r.recall_sample == recall_at_k(sample_ids, ix.sample_exact)
    assert f"{r.recall_query:.2f}" in h.stats.text() and f"{r.recall_sample:.3f}" in h.stats.text()
    assert h.nprobe_spin.isEnabled() == (method == "ivf") and h.rerank_spin.isEnabled()


def test_ivf_with_one_cell_misses_hits_that_all_cells_find(make_pane, qtbot):
    pane = make_pane(method="ivf", nprobe=1)
    assert pane.result.method == "ivf"
    with qtbot.waitSignal(pane.sig_hits_changed, timeout=TIMEOUT):
        pane.hits_view.nprobe_spin.setValue(pane.index.ivf.nlist)
    assert pane.result.recall_sample == 1.0 and pane.result.scanned == 1.0


def test_the_scoring_mistakes(make_pane, qtbot):
    pane = make_pane()
    cosine = [h.row for h in pane.result.hits]
    with qtbot.waitSignal(pane.sig_hits_changed, timeout=TIMEOUT):
        pane.hits_view.scoring_box.setCurrentIndex(2)  # corpus normalized, query not
    r = pane.result
    assert [h.row for h in r.hits] == cosine and r.same_ranking
    assert [h.score for h in r.hits] == pytest.approx([h.cosine * r.query.norm for h in r.hits], rel=1e-5)
    assert "same ranking" in pane.hits_view.note.text() and not pane.hits_view.method_box.isEnabled()
    with qtbot.waitSignal(pane.sig_hits_changed, timeout=TIMEOUT):
        pane.hits_view.scoring_box.setCurrentIndex(1)  # raw dot product
    ix, r = pane.index, pane.result
    raw = (ix.E * ix.norms_rows[:, None]) @ (r.query.q * r.query.norm)
    assert [h.row for h in r.hits] == np.argsort(-raw, kind="stable")[:10].tolist()
    assert not pane.hits_view.table.isColumnHidden(2)  # the cosine column beside the raw score


def test_an_empty_query_asks_for_one(make_pane, qtbot):
    pane = make_pane()
    pane.set_query("   ")
    qtbot.waitUntil(lambda: "Type a query" in pane.hits_view.stats.text(), timeout=TIMEOUT)
    assert pane.hits_view.model.rowCount() == 0 and pane.hits_view.query_edit.text() == "   "


def test_cross_lingual_rows_equal_core_on_the_aligned_paragraphs(make_pane, qtbot):
    pane = make_pane()
    assert pane.cross_view.model.rowCount() == 0  # a hidden tab is drawn when it is shown
    pane.tabs.setCurrentIndex(1)
    ix = pane.index
    rows = {r.code: r for r in ix.cross}
    assert set(rows) == set(ix.searched) - {"eng"}
    fra = rows["fra"]
    al = align_parallel(ix.lines["eng"], ix.lines["fra"])
    want = aligned_recall(ix.vectors["eng"], ix.vectors["fra"], al, pane.state.cross_k)
    assert fra.alignment.method == "line index" and np.array_equal(fra.recall.ranks, want.ranks)
    x, y = pane.cross_view.by_fertility.curve_data("languages")
    shown = [r for r in ix.cross if r.recall is not None]
    assert x.tolist() == pytest.approx([r.metrics.fertility for r in shown])
    assert y.tolist() == pytest.approx([r.recall.at(pane.state.cross_k).hit_share for r in shown])
    pane.cross_view.k_spin.setValue(1)
    _, y1 = pane.cross_view.by_unknown.curve_data("languages")
    assert y1.tolist() == pytest.approx([float((r.recall.ranks <= 1).mean()) for r in shown])
    pane.cross_view.y_box.setCurrentIndex(1)
    _, ranks = pane.cross_view.by_unknown.curve_data("languages")
    assert ranks.tolist() == pytest.approx([r.recall.mean_rank for r in shown])
    assert pane.cross_view.model.rowCount() == len(ix.cross)


def test_index_tab_plots_the_sweep_and_the_memory_of_this_corpus(make_pane, qtbot, monkeypatch):
    pane = make_pane()
    with qtbot.waitSignal(pane.sig_sweep_changed, timeout=TIMEOUT):
        pane.tabs.setCurrentIndex(2)
    ix = pane.index
    x, y = pane.index_view.sweep.curve_data("recall@10 (ours)")
    want = ivf_sweep(ix.E, ix.E[ix.sample], ix.ivf.nlist, ix.sweep.nprobe, index=ix.ivf, exact=ix.sample_exact)
    assert x.tolist() == list(want.nprobe) and y.tolist() == pytest.approx(want.recall)
    _, scanned = pane.index_view.sweep.curve_data("scanned (ours)")
    assert scanned.tolist() == pytest.approx(want.fraction_scanned) and scanned[-1] == 1.0
    rows = memory_table(ix.n, ix.dim)
    assert pane.index_view.memory_n.values == [r.mb for r in rows]
    assert pane.index_view.memory_100n.values == [r.mb_scaled for r in rows]
    monkeypatch.setattr(search_module, "SYNTHETIC", (3000, 16, 16))  # the seed's sweep, scaled down
    with qtbot.waitSignal(pane.sig_sweep_changed, timeout=TIMEOUT):
        pane.index_view.source_box.setCurrentIndex(1)
    x, y = pane.index_view.sweep.curve_data("recall@10 (ours)")
    assert x[0] == 1 and y[-1] == 1.0 and pane.state.sweep_source == "synthetic"


def test_choosing_languages_searches_only_those_and_keeps_english_as_reference(make_pane, qtbot):
    pane = make_pane()
    pane.panel.check_only({"fra", "tha"})
    qtbot.waitUntil(lambda: is_ready(pane) and pane.index.searched == ("fra", "tha"), timeout=TIMEOUT)
    assert {h.language for h in pane.result.hits} <= {"fra", "tha"}
    assert [r.code for r in pane.index.cross] == ["fra", "tha"] and pane.index.languages[0] == "eng"
    assert pane.state.languages == ["fra", "tha"]


class BlockingEncoder(StandInEncoder):
    """The stand-in, but each batch waits until the job is cancelled (and says so)."""

    def __init__(self):
        super().__init__()
        self.started, self.stopped = threading.Event(), threading.Event()

    def encode(self, texts, *, progress=None, should_stop=None):
        self.started.set()
        while not (should_stop is not None and should_stop()):
            self.stopped.wait(0.01)
        self.stopped.set()
        raise Cancelled("stopped")


def test_cancel_stops_the_embedding_and_keeps_the_pane_usable(make_pane, qtbot, monkeypatch):
    blocking = BlockingEncoder()
    monkeypatch.setattr(corpus_module, "open_encoder", lambda folder: blocking)
    pane = make_pane(wait=False)
    qtbot.waitUntil(blocking.started.is_set, timeout=TIMEOUT)
    assert pane.panel.cancel_button.isEnabled() and pane.panel.progress.isVisible()
    pane.panel.cancel_button.click()
    qtbot.waitUntil(blocking.stopped.is_set, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: not pane.panel.cancel_button.isEnabled(), timeout=TIMEOUT)
    assert pane.index is None and "Cancelled" in pane.panel.message.text()
    assert not pane.panel.progress.isVisible()
    monkeypatch.setattr(corpus_module, "open_encoder", lambda folder: StandInEncoder())
    pane.embed_now()  # and it works again
    qtbot.waitUntil(lambda: is_ready(pane), timeout=TIMEOUT)


def test_state_is_restored_after_a_restart(make_pane, qtbot):
    pane = make_pane()
    with qtbot.waitSignal(pane.sig_hits_changed, timeout=TIMEOUT):
        pane.set_query("freedom of opinion")
        pane.search_now()
    for box, value in ((pane.hits_view.k_spin, 5), (pane.hits_view.nprobe_spin, 2), (pane.cross_view.k_spin, 3)):
        box.setValue(value)
    pane.hits_view.method_box.setCurrentIndex(METHODS.index("int8"))
    pane.tabs.setCurrentIndex(2)
    pane.panel.check_only({"eng", "tha"})
    pane.save_state()
    stored = read_state(open_settings(), "retrieval/state", {})
    assert stored["query"] == "freedom of opinion" and stored["method"] == "int8"
    again = make_pane(settings=open_settings(), wait=False)
    qtbot.waitUntil(lambda: is_ready(again), timeout=TIMEOUT)
    assert again.hits_view.query_edit.text() == "freedom of opinion"
    assert (again.hits_view.k_spin.value(), again.hits_view.nprobe_spin.value()) == (5, 2)
    assert again.hits_view.method_box.currentIndex() == METHODS.index("int8") and again.tabs.currentIndex() == 2
    assert again.cross_view.k_spin.value() == 3 and again.panel.checked_languages() == ["eng", "tha"]
    assert again.result.method == "int8" and len(again.result.hits) == 5
    assert again.index.searched == ("eng", "tha")


def test_stored_state_with_wrong_types_falls_back_to_defaults():
    s = RetrievalState.from_dict({"method": "hnsw", "k": 0, "languages": ["eng", 3], "scoring": 1,
                                  "cross_y": "both", "nprobe": -4, "query": 12})
    d = RetrievalState()
    assert (s.method, s.k, s.languages, s.scoring, s.cross_y, s.nprobe, s.query) == \
        (d.method, 1, ["eng"], d.scoring, d.cross_y, 1, d.query)


def test_exports_write_hits_and_plots(make_pane, tmp_path):
    pane = make_pane()
    r = pane.result
    written = pane.export_hits(str(tmp_path / "hits.csv"), "csv")
    with open(written, encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == list(search_module.HIT_FIELDS) and len(rows) == 11
    assert [row[6] for row in rows[1:]] == [h.text for h in r.hits]
    assert [json.loads(row[7]) for row in rows[1:]] == [[list(s) for s in h.spans] for h in r.hits]
    data = json.loads(open(pane.export_hits(str(tmp_path / "hits.json"), "json"), encoding="utf-8").read())
    assert data["query"] == "right to education" and [x["row"] for x in data["hits"]] == [h.row for h in r.hits]
    assert data["hits"][0]["matched_spans"] == [list(s) for s in r.hits[0].spans]
    pane.tabs.setCurrentIndex(1)
    pane.tabs.setCurrentIndex(2)
    for frame in (pane.cross_view.by_fertility, pane.index_view.sweep, pane.index_view.memory_100n):
        for suffix in ("png", "svg"):
            out = frame.export_button.export_to(tmp_path / f"{frame.export_button.name}.{suffix}")
            assert out is not None and out.stat().st_size > 0
    table = pane.cross_view.csv_button.export_to(tmp_path / "cross.csv")
    assert len(table.read_text(encoding="utf-8").splitlines()) == 1 + len(pane.index.cross)
    assert pane.export_hits(str(tmp_path / "missing" / "hits.csv"), "csv") is None  # reported, not raised


def test_a_folder_without_texts_is_reported(make_pane, qtbot, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    pane = make_pane(corpus_folder=str(empty), wait=False)
    qtbot.waitUntil(lambda: "no .txt" in pane.panel.message.text(), timeout=TIMEOUT)
    assert pane.index is None


def test_a_missing_model_falls_back_to_the_stand_in_with_a_notice(make_pane, qtbot, monkeypatch, tmp_path):
    monkeypatch.setenv("SUBWORDSCOPE_DATA", str(tmp_path / "no-data"))
    pane = make_pane(use_model=True)
    assert pane.index.model_label.startswith("Stand-in")
    assert "No model folder found" in pane.panel.message.text() and pane.panel.message.isVisible()


def test_the_real_encoder_on_a_handful_of_paragraphs(make_pane, data_dir, tmp_path, qtbot):
    model = data_dir / "models" / "all-MiniLM-L6-v2"
    if not (model / "model.safetensors").is_file():
        pytest.skip(f"MiniLM not found at {model}")
    folder = tmp_path / "corpus"
    folder.mkdir()
    sample = {cf.code: cf.lines for cf in load_corpus(udhr_sample_dir())}
    for code in ("eng", "fra"):
        (folder / f"{code}.txt").write_text("\n".join(sample[code][-4:]) + "\n", encoding="utf-8")
    pane = make_pane(use_model=True, model_dir=str(model), corpus_folder=str(folder))
    ix, r = pane.index, pane.result
    assert ix.model_label == "all-MiniLM-L6-v2" and ix.dim == 384 and ix.n == 8
    q = embed_corpus(ix.encoder, ["right to education"], cache=False)[0]
    assert [h.row for h in r.hits] == top_k(ix.E, q, 8).tolist()
    assert r.hits[0].language == "eng" and r.hits[0].text.startswith("Everyone has the right to education")
    top = r.hits[0]
    assert [top.text[s:e] for s, e in top.spans[:3]] == ["right", "to", "education"]
    assert any(h.language == "fra" and "éducation" in [h.text[s:e] for s, e in h.spans] for h in r.hits)
    assert len(list((tmp_path / "config" / "embeddings").glob("*.npy"))) == 2  # one cache file per language


def test_a_corpus_that_fails_does_not_leave_embedding_in_the_status(make_pane, qtbot, tmp_path):
    pane = make_pane()
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "eng.txt").write_bytes(b"\x00\xff\xfe" * 1000)
    # private: the corpus worker's error (the pane has three runners)
    with qtbot.waitSignal(pane._corpus_runner.sig_errored, timeout=TIMEOUT):
        pane.set_corpus_folder(str(bad))
    assert "not UTF-8" in pane.panel.message.text()
    assert pane.panel.status.text() == "Not embedded. The hits shown still come from the previous corpus."


MINILM_CONFIG = {"model_type": "bert", "vocab_size": 30522, "hidden_size": 384,
                 "num_hidden_layers": 6, "num_attention_heads": 12, "intermediate_size": 1536,
                 "max_position_embeddings": 512, "type_vocab_size": 2, "pad_token_id": 0}


@pytest.mark.parametrize("config", [
    "[" * 100_000 + "]" * 100_000,
    json.dumps(dict(MINILM_CONFIG, pad_token_id=[0])),
    json.dumps(dict(MINILM_CONFIG, layer_norm_eps="NaN")).replace('"NaN"', "NaN"),
], ids=["deep nesting", "a list for an id", "NaN"])
def test_a_bad_model_config_is_named_and_the_label_cleared(make_pane, qtbot, tmp_path, config):
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text(config, encoding="utf-8")
    pane = make_pane()
    # private: the corpus worker's error (the pane has three runners)
    with qtbot.waitSignal(pane._corpus_runner.sig_errored, timeout=TIMEOUT):
        pane.set_model(True, str(model))
    message = pane.panel.message.text()
    assert f"Could not load the model: {model / 'config.json'}" in message, message
    assert "Error" not in message  # no RecursionError: / TypeError: shown
    qtbot.waitUntil(lambda: is_ready(pane), timeout=TIMEOUT)  # the stand-in took over
    assert pane.panel.model_label.text().startswith("Stand-in")
    assert "loading" not in pane.panel.model_label.text()
    pane.embed_now()  # embedding again (as the end of the encoder scan does) keeps the reason
    assert pane.panel.message.text() == message and pane.panel.message.isVisibleTo(pane)
    qtbot.waitUntil(lambda: is_ready(pane), timeout=TIMEOUT)


def test_a_failure_that_is_not_a_load_error_clears_the_loading_label(make_pane, qtbot, tmp_path,
                                                                      monkeypatch):
    def failing(model_dir):
        raise MemoryError("no memory left for the model")
    model = tmp_path / "model"
    model.mkdir()
    pane = make_pane()
    monkeypatch.setattr(corpus_module, "open_encoder", failing)
    # private: the corpus worker's error (the pane has three runners)
    with qtbot.waitSignal(pane._corpus_runner.sig_errored, timeout=TIMEOUT):
        pane.set_model(True, str(model))
    assert "no memory left" in pane.panel.message.text()
    assert "loading" not in pane.panel.model_label.text()
