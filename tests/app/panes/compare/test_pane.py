"""Compare pane: add tokenizers, choose the folder, change metric, drill down — data equals core."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from PySide6.QtCore import QThreadPool

from app.panes.compare import ComparePane
from app.panes.compare.drilldown import DIFF
from app.panes.compare.state import TokenizerEntry
from app.settings import open_settings, read_state, write_state
from core.metrics import compare_table, differing_boundaries, load_corpus, temperature_shares
from core.metrics.normalization_damage import FORM_EXAMPLES, normalization_damage
from tests.reference_adapters import reference_tokenizer

LANGS = ("eng", "hin", "tha", "cmn_hans")


@pytest.fixture
def corpus(data_dir, tmp_path):
    folder = tmp_path / "udhr"
    folder.mkdir()
    for code in LANGS:
        shutil.copy(data_dir / "udhr" / f"{code}.txt", folder / f"{code}.txt")
    return folder


@pytest.fixture
def bert(data_dir):
    from core.tokenizers import load

    path = data_dir / "tokenizers" / "bert-base-uncased" / "tokenizer.json"
    try:
        return str(path), load(str(path))
    except ValueError as exc:  # core cannot read this format yet
        pytest.skip(f"core.tokenizers cannot load {path}: {exc}")


@pytest.fixture
def make_pane(new_pane, corpus):
    panes = []

    def make(paths=()):
        settings = open_settings()
        write_state(settings, "compare/state", {"corpus_folder": str(corpus),
                                                "tokenizer_paths": [[p.split("/")[-2], p] for p in paths]})
        pane = new_pane(ComparePane, 1200, 800, settings)
        pane.show()  # the first comparison starts when the pane is shown
        panes.append(pane)
        return pane

    yield make
    for pane in panes:
        pane.cancel()
    QThreadPool.globalInstance().waitForDone(60_000)


def stored(pane) -> dict:
    """The Compare state in the one store (``state.json``)."""
    return read_state(pane.settings, "compare/state")


def wait_result(qtbot, pane, trigger=None, timeout=60_000):
    with qtbot.waitSignal(pane.sig_result_changed, timeout=timeout):
        if trigger is not None:
            trigger()


def expected(pane, metric):
    return pane.result.table.values(metric)[pane.heatmap_rows()]


def test_first_screen_defaults_to_the_shared_udhr_folder_and_tokenizers(new_pane, data_dir):
    pane = new_pane(ComparePane, 1200, 800)
    assert pane.state.corpus_folder == str(data_dir / "udhr")
    assert [e.label for e in pane.entries] == ["bert-base-uncased", "gpt2", "pegasus-unigram", "cl100k_base"]
    assert pane.folder_edit.text() == str(data_dir / "udhr")
    assert not pane.busy  # nothing runs until the pane is shown


def test_add_tokenizers_heatmap_equals_core_metrics(qtbot, make_pane, corpus, bert, data_dir):
    path, bert_tok = bert
    pane = make_pane()
    wait_result(qtbot, pane)
    assert pane.result.table.tokenizers == ()
    wait_result(qtbot, pane, lambda: pane.add_tokenizer_file(path))
    gpt2 = reference_tokenizer(data_dir, "gpt2")
    wait_result(qtbot, pane, lambda: pane.add_tokenizer(gpt2, "gpt2"))
    table = pane.result.table
    assert table.tokenizers == ("bert-base-uncased", "gpt2")
    assert pane.tokenizer_list.count() == 2
    core_table = compare_table([bert_tok, gpt2], load_corpus(corpus), reference="eng")
    rows = pane.heatmap_rows()
    assert [table.languages[i] for i in rows] == sorted(LANGS)
    np.testing.assert_array_equal(pane.heatmap.image(), core_table.values("fertility")[rows])

    pane.metric_combo.setCurrentIndex(pane.metric_combo.findData("premium"))
    np.testing.assert_array_equal(pane.heatmap.image(), core_table.values("premium")[rows])
    assert pane.heatmap.image()[rows.index(table.languages.index("eng"))].tolist() == [1.0, 1.0]

    pane.sort_combo.setCurrentIndex(pane.sort_combo.findData("gpt2"))
    col = pane.heatmap.image()[:, 1]
    assert np.all(np.diff(col) <= 0)  # largest premium first
    np.testing.assert_array_equal(pane.heatmap.image(), core_table.values("premium")[pane.heatmap_rows()])

    pane.bar_mode.setCurrentIndex(pane.bar_mode.findData("language"))
    pane.bar_item.setCurrentIndex(pane.bar_item.findData("hin"))
    np.testing.assert_array_equal(pane.bars.bar_values(), core_table.values("premium")[table.languages.index("hin")])
    text = pane.heatmap.readout_at(1.5, 0.5)
    assert "gpt2" in text and f"{pane.heatmap.image()[0, 1]:.10g}" in text

    pane.bar_mode.setCurrentIndex(pane.bar_mode.findData("tokenizer"))
    pane.bar_item.setCurrentIndex(pane.bar_item.findData("bert-base-uncased"))
    np.testing.assert_array_equal(pane.bars.bar_values(), pane.heatmap.image()[:, 0])
    pane.heatmap.sig_cell_clicked.emit(0, 1)  # a click on the top row picks its language
    top = table.languages[pane.heatmap_rows()[0]]
    assert pane.bar_mode.currentData() == "language" and pane.bar_item.currentData() == top
    assert pane.drill_language.currentData() == top


def test_drill_down_marks_the_boundaries_core_says_differ(qtbot, make_pane, corpus, bert, data_dir):
    path, bert_tok = bert
    pane = make_pane([path])
    gpt2 = reference_tokenizer(data_dir, "gpt2")
    wait_result(qtbot, pane)
    wait_result(qtbot, pane, lambda: pane.add_tokenizer(gpt2, "gpt2"))
    pane.tabs.setCurrentWidget(pane.drill_tab)
    pane.drill_language.setCurrentIndex(pane.drill_language.findData("hin"))
    pane.drill_line.setValue(3)
    line = load_corpus(corpus)[sorted(LANGS).index("hin")].lines[2]
    qtbot.waitUntil(lambda: pane.drill_view.line == line and len(pane.drill_view.rows) == 2, timeout=10_000)
    encs = [bert_tok.encode(line), gpt2.encode(line)]
    assert pane.drill_view.differing == differing_boundaries(encs)
    assert pane.drill_view.differing  # byte-level BPE and WordPiece disagree on Hindi
    assert [r.tokens for r in pane.drill_view.rows] == [tuple(e.tokens) for e in encs]
    red = [{p for p, colour, _ in row.bars if colour == DIFF} for row in pane.drill_view.lines.lines()]
    assert set().union(*red) == pane.drill_view.differing  # a red bar exactly where boundaries differ


def test_choose_folder_bad_then_good(qtbot, make_pane, corpus, tmp_path):
    pane = make_pane()
    wait_result(qtbot, pane)
    pane.set_corpus_folder(str(tmp_path / "nowhere"))
    qtbot.waitUntil(lambda: "not a folder" in pane.message.text(), timeout=10_000)
    assert pane.result is not None  # the last good result stays on screen
    small = tmp_path / "small"
    small.mkdir()
    shutil.copy(corpus / "eng.txt", small / "eng.txt")
    with qtbot.waitSignal(pane.sig_result_changed, timeout=30_000):
        pane.set_corpus_folder(str(small))
    assert pane.result.table.languages == ("eng",)
    assert pane.message.text() == ""
    other = tmp_path / "other"
    other.mkdir()
    shutil.copy(corpus / "hin.txt", other / "hin.txt")
    with qtbot.waitSignal(pane.sig_result_changed, timeout=30_000):
        pane.set_corpus_folder(str(other))
    # English is not in this corpus: the reference moves to a language that is
    qtbot.waitUntil(lambda: pane.result.table.reference == "hin", timeout=30_000)
    pane.metric_combo.setCurrentIndex(pane.metric_combo.findData("premium"))
    assert pane.reference_combo.currentData() == "hin"
    assert stored(pane)["corpus_folder"] == str(other)
    assert stored(pane)["reference"] == "eng"  # the automatic choice is not remembered


def test_normalization_tab_equals_core(qtbot, make_pane, corpus):
    pane = make_pane()
    wait_result(qtbot, pane)
    nv = pane.normalization
    assert [(r[3], r[4], r[6]) for r in nv.form_model.rows()] == [(e[2], e[3], e[4]) for e in FORM_EXAMPLES]
    hin = "\n".join(load_corpus(corpus)[sorted(LANGS).index("hin")].lines)
    for form in ("strip_accents", "NFKC"):
        nv.form_combo.setCurrentIndex(nv.form_combo.findData(form))
        row = next(r for r in nv.damage_model.rows() if r[1] == "hin")
        ref = normalization_damage(hin, form)
        assert row[2:6] == [ref.characters, ref.changed, ref.dropped, ref.split]
    nv.form_combo.setCurrentIndex(nv.form_combo.findData("strip_accents"))
    nv.damage_view.selectRow([r[1] for r in nv.damage_model.rows()].index("hin"))
    assert nv.example_model.rows()[0][1] == "U+094D"  # the virama is what accent stripping removes most
    out = nv.example_csv.export_to(corpus.parent / "examples.csv")
    assert out.read_text(encoding="utf-8").splitlines()[1].startswith("\u25cc\u094d,U+094D")
    assert pane.state.damage_form == "strip_accents"


def test_sampling_tab_shares_and_curves(qtbot, make_pane, tmp_path):
    pane = make_pane()
    sv = pane.sampling
    sv.set_inputs("en 5000000\nfr 800000\nsw 20000", 2.0, 5_000_000)
    rows = sv.model.rows()
    np.testing.assert_allclose([r[3] for r in rows], temperature_shares([5e6, 8e5, 2e4], 2.0))
    assert round(rows[2][4], 1) == 10.8
    x, y = sv.plot.curve_data("sw")
    i = int(np.argmin(np.abs(x - 5.0)))
    assert y[i] == pytest.approx(temperature_shares([5e6, 8e5, 2e4], x[i])[2])
    with qtbot.waitSignal(sv.sig_status_requested):
        out = sv.csv_button.export_to(tmp_path / "shares.csv")
    assert len(out.read_text(encoding="utf-8").splitlines()) == 4
    sv.set_inputs("en lots", 2.0, 10)
    assert "not a number" in sv.message.text()
    assert len(sv.model.rows()) == 3  # the last good table stays


def test_broadcast_tokenizer_and_demo_join_the_comparison(qtbot, make_pane, bert):
    path, bert_tok = bert
    pane = make_pane()
    wait_result(qtbot, pane)
    wait_result(qtbot, pane, lambda: pane.set_tokenizer(bert_tok, path))
    assert pane.result.table.tokenizers == ("bert-base-uncased",)
    wait_result(qtbot, pane, lambda: pane.set_tokenizer(None, "built-in demo vocabulary"))
    assert len(pane.result.table.tokenizers) == 2
    pane.set_tokenizer(bert_tok, path)  # the same file again: refreshed, not duplicated
    assert len(pane.entries) == 2


def test_state_is_remembered_and_exports_write_files(qtbot, make_pane, bert, tmp_path):
    path, _ = bert
    pane = make_pane([path])
    wait_result(qtbot, pane)
    pane.metric_combo.setCurrentIndex(pane.metric_combo.findData("bytes_per_token"))
    pane.save_state()
    again = ComparePane(pane.settings)
    qtbot.addWidget(again)
    assert again.state.corpus_folder == pane.state.corpus_folder
    assert [e.path for e in again.entries] == [path]
    assert again.metric_combo.currentData() == "bytes_per_token"
    csv_path = tmp_path / "table.csv"
    assert pane.export_table_csv(str(csv_path))
    lines = csv_path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 + len(LANGS) and lines[0].startswith("language,language_name,tokenizer,fertility")
    png = pane.heatmap.export_button.export_to(tmp_path / "heat.png")
    assert png is not None and png.stat().st_size > 0
    heat_csv = pane.heatmap.export_button.export_to(tmp_path / "heat.csv")
    assert heat_csv.read_text().count("\n") == 1 + len(LANGS)
    again.cancel()


def test_cancel_drops_the_result(qtbot, make_pane, bert):
    path, _ = bert
    pane = make_pane()
    wait_result(qtbot, pane)
    pane.entries.clear()
    pane.add_tokenizer_file(path)
    pane.recompute()
    assert pane.busy and pane.cancel_button.isEnabled()
    with qtbot.assertNotEmitted(pane.sig_result_changed, wait=300):
        pane.cancel()
    assert not pane.busy and pane.compute_button.isEnabled()


def test_table_models_pass_the_model_tester(qtbot, qtmodeltester, make_pane):
    pane = make_pane()
    wait_result(qtbot, pane)
    for model in (pane.normalization.form_model, pane.normalization.damage_model,
                  pane.normalization.example_model, pane.sampling.model):
        qtmodeltester.check(model)


def test_heatmap_shows_computing_until_the_first_table(qtbot, make_pane):
    pane = make_pane()
    assert pane.heatmap.has_placeholder() and pane.heatmap.graphics.isHidden()
    assert pane.heatmap.placeholder.text() == "Computing…"
    wait_result(qtbot, pane)
    assert not pane.heatmap.has_placeholder() and pane.heatmap.graphics.isVisible()


def test_folder_of_empty_files_says_so(qtbot, make_pane, tmp_path):
    pane = make_pane()
    wait_result(qtbot, pane)
    empty = tmp_path / "empty"
    empty.mkdir()
    for code in ("eng", "fra"):
        (empty / f"{code}.txt").write_text("\n  \n", encoding="utf-8")
    wait_result(qtbot, pane, lambda: pane.set_corpus_folder(str(empty)))
    assert f"No text in {empty}" in pane.message.text()
    assert pane.heatmap.has_placeholder() and "No text in" in pane.heatmap.placeholder.text()
    (empty / "eng.txt").write_text("Hello world.\n", encoding="utf-8")
    wait_result(qtbot, pane, pane.recompute)
    assert pane.message.text() == "No text in fra.txt: its row is blank."
    assert not pane.heatmap.has_placeholder()


def test_failed_or_cancelled_corpus_change_keeps_the_shown_folder(qtbot, make_pane, corpus, tmp_path):
    pane = make_pane()
    wait_result(qtbot, pane)
    shown = pane.result
    bad = tmp_path / "nothing-here"
    bad.mkdir()
    pane.set_corpus_folder(str(bad))
    qtbot.waitUntil(lambda: "still showing" in pane.message.text(), timeout=10_000)
    assert pane.result is shown and pane.folder_edit.text() == str(corpus)
    assert pane.state.corpus_folder == str(corpus) == stored(pane)["corpus_folder"]
    other = tmp_path / "other"
    other.mkdir()
    shutil.copy(corpus / "eng.txt", other / "eng.txt")
    pane.set_corpus_folder(str(other))
    pane.recompute()
    assert pane.busy and pane.folder_edit.text() == str(other)
    assert pane.heatmap.note.text() == f"Computing {other}… the table still shows {corpus}."
    pane.cancel()
    assert pane.folder_edit.text() == str(corpus) and "still showing" in pane.message.text()
    assert "Computing" not in pane.heatmap.note.text()


def test_unloadable_tokenizer_file_is_refused_inline(qtbot, make_pane, tmp_path):
    pane = make_pane()
    wait_result(qtbot, pane)
    before = [e.label for e in pane.entries]
    garbage = tmp_path / "garbage.json"
    garbage.write_bytes(b"\x00\x01 not a tokenizer")
    wait_result(qtbot, pane, lambda: pane.add_tokenizer_file(str(garbage)))
    assert [e.label for e in pane.entries] == before
    assert pane.tokenizer_list.count() == len(before)
    assert pane.message.text().startswith(f"Could not add {garbage}: ")
    assert pane.message.text().count(str(garbage)) == 1
    assert str(garbage) not in json.dumps(stored(pane)["tokenizer_paths"])


def test_tokenizer_list_scrolls(qtbot, make_pane, bert):
    path, tok = bert
    pane = make_pane()
    for k in range(12):
        pane.entries.append(TokenizerEntry(f"tok {k}", None, tok))
    # private: entries with loaded objects are shown without starting a comparison
    pane._write_controls()
    qtbot.waitUntil(lambda: pane.tokenizer_list.verticalScrollBar().maximum() > 0, timeout=3000)
    pane.tokenizer_list.scrollToBottom()
    assert pane.tokenizer_list.verticalScrollBar().value() > 0


def test_sampling_huge_sizes_stay_finite_or_are_refused(make_pane):
    import warnings

    sv = make_pane().sampling
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sv.set_inputs("en 1e308\nfr 1e308\nsw 5", 2.0, 10)
    assert sv.message.text() == ""
    assert all(np.isfinite(r[2]) and np.isfinite(r[3]) for r in sv.model.rows())
    assert [r[2] for r in sv.model.rows()][:2] == [0.5, 0.5]
    sv.set_inputs("en 1e309\nfr 5", 2.0, 10)
    assert "too large" in sv.message.text()
    rows = sv.model.rows()
    sv.set_inputs("en 5e-324\nfr 1", 50.0, 10)  # core.metrics.sampling: passes too large to represent
    assert "too large to represent" in sv.message.text() and sv.model.rows() == rows


def test_sampling_log_axis_labels_only_1_2_5(make_pane):
    from app.widgets.plot_lines import log_tick_label

    assert [log_tick_label(np.log10(v), 2) for v in (1, 2, 3, 5, 7, 10, 20, 40, 50, 100)] == [
        "1", "2", "", "5", "", "10", "20", "", "50", "100"]
    assert [log_tick_label(np.log10(v), 6) for v in (1e-3, 2e-3, 1e6, 5e6)] == ["0.001", "", "1e6", ""]
    axis = make_pane().sampling.plot.plot.getAxis("bottom")
    values = [v for _, level in axis.tickValues(0.0, 2.0, 800) for v in level]
    labels = [s for s in axis.tickStrings(values, 1.0, 1.0) if s]
    assert set(labels) <= {"1", "2", "5", "10", "20", "50", "100"} and "10" in labels
