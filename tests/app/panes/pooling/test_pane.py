"""The pooling pane through its widgets: the plotted arrays equal what ``core`` computes."""

from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
import pytest

from app.panes.pooling import PoolingPane
from app.panes.pooling.pane import DEBOUNCE_MS
from app.panes.pooling.state import SWEEP_LENGTHS, STANDIN_LABEL, PoolingState
from app.settings import open_settings, read_state
from app.workers import is_working
from core.encoder import StandInEncoder, load_encoder
from core.pooling import METHODS, chunk_windows
from core.pooling.compare import compare_methods, padding_demo
from core.pooling.standin import evidence_sweep

MODEL = "models/all-MiniLM-L6-v2"

def shown_pane(qtbot, new_pane, settings=None, timeout=20000):
    """A pooling pane on ``settings``, shown, once its first result is in."""
    p = new_pane(PoolingPane, settings=settings)
    with qtbot.waitSignal(p.sig_result_changed, timeout=timeout):
        p.show()
    return p


def standin_settings():
    """Settings holding a Pooling state on the stand-in (a fresh start would instead run on
    the encoder found in the data folder or the Hugging Face cache)."""
    settings = open_settings()
    settings.setValue("pooling/state", json.dumps({"model_dir": ""}))
    return settings


@pytest.fixture
def pane(qtbot, new_pane):
    return shown_pane(qtbot, new_pane, standin_settings())


@pytest.fixture(scope="module")
def model_dir(data_dir):
    d = data_dir / MODEL
    if not (d / "model.safetensors").is_file():
        pytest.skip(f"MiniLM not found at {d}")
    return d


def _contrib_curve(pane, method):
    from app.panes.pooling.state import METHOD_NAMES

    return pane.tokens_view.contrib.curve_data(METHOD_NAMES[method])


def test_first_screen_is_the_standin_and_matches_core(pane):
    r = pane.result
    assert r.model_label == STANDIN_LABEL
    sentences = PoolingState().sentences()
    out = StandInEncoder().encode(sentences)
    cmp = compare_methods(out.last_hidden_state, out.attention_mask)
    n = len(out.tokens[0])
    for m in METHODS:
        x, y = _contrib_curve(pane, m)
        assert x.tolist() == list(range(n))
        np.testing.assert_allclose(y, cmp.contributions[m][0, :n])
        np.testing.assert_allclose(pane.similarity_view.plots[m].image(), cmp.cosine[m])
    np.testing.assert_allclose(pane.tokens_view.strip.image(), out.last_hidden_state[0, :n].T)
    sweep = evidence_sweep(SWEEP_LENGTHS, seed=0, strength=3.0)
    x, y = pane.sweep_view.plots["max"].curve_data("junk")
    assert x.tolist() == SWEEP_LENGTHS.tolist()
    np.testing.assert_array_equal(y, sweep.signal["junk"]["max"])
    assert pane.similarity_view.plots["cls"].note.text().startswith("Stand-in")


def test_a_result_that_comes_while_hidden_is_drawn_when_shown(qtbot, new_pane):
    """Plotting a result takes ~0.3 s of the GUI thread: a hidden pane (another tab is
    shown) draws it when it is shown, not when it arrives (it stalled a paste elsewhere)."""
    p = new_pane(PoolingPane, settings=standin_settings())
    with qtbot.waitSignal(p.sig_result_changed, timeout=20000):
        pass  # computed at start, never shown
    assert p.result is not None and p._stale
    assert not p.tokens_view.contrib.curves  # nothing plotted yet
    p.show()
    assert not p._stale
    n = len(p.result.output.tokens[0])
    assert _contrib_curve(p, "mean")[0].tolist() == list(range(n))


def test_switch_pooling_and_sentence(pane, qtbot):
    pane.method_box.setCurrentIndex(METHODS.index("max"))
    assert pane.state.method == "max"
    widths = {m: pane.tokens_view.contrib.curves[n].opts["pen"].width()
              for m, n in (("max", "Masked max"), ("mean", "Masked mean"))}
    assert widths["max"] > widths["mean"]
    pane.sentence_box.setCurrentIndex(2)
    r = pane.result
    n = len(r.output.tokens[2])
    x, y = _contrib_curve(pane, "max")
    np.testing.assert_allclose(y, r.comparison.contributions["max"][2, :n])
    assert pane.tokens_view.text_view.text() == r.output.texts[2]
    # token <-> text linking: a token marks its span, a character marks its token
    tv = pane.tokens_view
    with qtbot.waitSignal(tv.sig_token_hovered) as blocker:
        tv.mark_token(3)
    assert blocker.args == [3] and tv.text_view.linked_spans() == [r.output.offsets[2][3]]
    assert tv.contrib.markers["token"].value() == 3 and tv.contrib.markers["token"].isVisible()
    s, e = r.output.offsets[2][2]
    with qtbot.waitSignal(tv.sig_token_hovered) as blocker:
        # private: a hover at a code point (no public seam; a mouse move needs the layout)
        tv._on_char_hovered(e - 1)
    assert blocker.args == [2]
    demo = padding_demo(r.output.last_hidden_state[2, :n], 64)
    np.testing.assert_allclose(pane.padding_view.values.curve_data("unmasked mean")[1], demo.unmasked_mean[:32])


def test_padding_length(pane):
    pane.pad_spin.setValue(100)
    r = pane.result
    n = int(r.output.attention_mask[0].sum())
    demo = padding_demo(r.output.last_hidden_state[0, :n], 100)
    x, y = pane.padding_view.ratio.curve_data("‖unmasked mean‖ / ‖masked mean‖")
    assert x[0] == n and x[-1] == 100
    assert y[x.tolist().index(100)] == pytest.approx(n / 100)
    np.testing.assert_allclose(pane.padding_view.values.curve_data("masked mean")[1], demo.masked_mean[:32])
    assert "n/L = " in pane.padding_view.summary.text()


def test_enter_sentences(pane, qtbot):
    with qtbot.waitSignal(pane.sig_result_changed, timeout=20000):
        pane.text_edit.setPlainText("cats purr\ncats purr loudly\n\ndogs bark")
    r = pane.result
    assert r.output.texts == ("cats purr", "cats purr loudly", "dogs bark")
    assert pane.similarity_view.plots["mean"].image().shape == (3, 3)
    assert pane.sentence_box.count() == 3
    assert r.output.tokens[1] == ("[CLS]", "cats", "purr", "loudly", "[SEP]")


def test_change_chunking(pane, qtbot):
    with qtbot.waitSignal(pane.sig_result_changed, timeout=20000):
        pane.content_spin.setValue(10)
    with qtbot.waitSignal(pane.sig_result_changed, timeout=20000):
        pane.overlap_spin.setValue(3)
    doc = pane.result.document
    n = len(doc.tokens)
    assert doc.windows == tuple(chunk_windows(n, 10, 3))
    img = pane.chunk_view.windows.image()
    assert img.shape == (len(doc.windows), n)
    for j, (s, e) in enumerate(doc.windows):
        covered = np.flatnonzero(~np.isnan(img[j]))
        assert covered.tolist() == list(range(s, e))
        assert img[j, s] == pytest.approx(pane.result.chunk_scores.probabilities[j])
    x, y = pane.chunk_view.scores.curve_data("window score")
    np.testing.assert_allclose(y, pane.result.chunk_scores.probabilities)
    # private: the spans the view draws (no public getter)
    assert pane.chunk_view.text_view._spans == list(doc.char_spans)
    # overlap can never reach the window content
    with qtbot.waitSignal(pane.sig_result_changed, timeout=20000):
        pane.content_spin.setValue(3)
    assert pane.overlap_spin.value() == 2 and pane.state.overlap == 2


def test_choose_model_directory(pane, qtbot, model_dir):
    reference = json.loads((model_dir / "reference_outputs.json").read_text(encoding="utf-8"))
    pane.text_edit.blockSignals(True)
    pane.text_edit.setPlainText("\n".join(reference["sentences"]))
    pane.text_edit.blockSignals(False)
    pane.state.text = pane.text_edit.toPlainText()
    with qtbot.waitSignal(pane.sig_result_changed, timeout=60000):
        pane.set_model_dir(str(model_dir))
        assert is_working(pane)  # loading + the first forward pass run off the GUI thread
        assert "loading" in pane.model_label.text()
    r = pane.result
    assert r.model_label == str(model_dir)
    assert r.output.input_ids.tolist() == reference["input_ids"]
    np.testing.assert_allclose(pane.similarity_view.plots["mean"].image(),
                               reference["cosine_masked_mean_unit"], atol=1e-4)
    enc = load_encoder(model_dir)
    out = enc.encode(reference["sentences"])
    cmp = compare_methods(out.last_hidden_state, out.attention_mask)
    for m in METHODS:
        np.testing.assert_allclose(pane.similarity_view.plots[m].image(), cmp.cosine[m], atol=1e-5)
    assert pane.similarity_view.plots["cls"].note.text() == ""
    pane.save_state()
    assert read_state(pane.settings, "pooling/state", {})["model_dir"] == str(model_dir)


def test_model_directory_is_remembered(qtbot, new_pane, model_dir):
    settings = open_settings()
    settings.setValue("pooling/state", json.dumps({"model_dir": str(model_dir), "content": 16, "overlap": 4}))
    p = shown_pane(qtbot, new_pane, settings, timeout=60000)
    assert p.result.model_label == str(model_dir) and p.content_spin.value() == 16
    assert p.result.output.last_hidden_state.shape[-1] == 384


def test_bad_model_directory_shows_a_message(pane, qtbot, tmp_path):
    (tmp_path / "config.json").write_text('{"model_type": "gpt2"}', encoding="utf-8")
    # private: the worker's error (the pane shows it, but only after this signal)
    with qtbot.waitSignal(pane._runner.sig_errored, timeout=20000):
        pane.set_model_dir(str(tmp_path))
    assert pane.message.isVisible() or not pane.isVisible()
    assert "Could not load the model" in pane.message.text() and "model_type" in pane.message.text()
    assert pane.state.model_dir == ""  # back to what worked
    assert pane.result.model_label == STANDIN_LABEL


@pytest.mark.parametrize("config", ["[" * 100_000 + "]" * 100_000,
                                    '{"model_type": ["bert"]}'], ids=["deep nesting", "a list"])
def test_a_hostile_model_config_is_named_and_the_label_cleared(pane, qtbot, tmp_path, config):
    (tmp_path / "config.json").write_text(config, encoding="utf-8")
    # private: the worker's error (the pane shows it, but only after this signal)
    with qtbot.waitSignal(pane._runner.sig_errored, timeout=20000):
        pane.set_model_dir(str(tmp_path))
    assert f"Could not load the model: {tmp_path / 'config.json'}" in pane.message.text()
    assert "Error" not in pane.message.text()  # no RecursionError: shown
    assert pane.model_label.text() == STANDIN_LABEL


def test_remembered_broken_model_falls_back_to_standin(qtbot, new_pane, tmp_path):
    settings = open_settings()
    settings.setValue("pooling/state", json.dumps({"model_dir": str(tmp_path)}))  # no config.json
    p = shown_pane(qtbot, new_pane, settings)
    assert p.result.model_label == STANDIN_LABEL
    assert "config.json" in p.message.text() and not p.message.isHidden()


def test_empty_text_prompts_and_encodes_nothing(pane, qtbot):
    shown = pane.result
    pane.text_edit.setPlainText("  \n\n")
    qtbot.waitUntil(lambda: pane.message.isVisible() and "Type or paste a sentence" in pane.message.text(),
                    timeout=3000)
    assert not is_working(pane) and pane.result is shown  # nothing encoded, last plots kept
    assert "(empty)" not in "".join(pane.result.output.texts)
    assert "last encoded text" in pane.message.text()
    assert pane.text_edit.placeholderText().startswith("Type or paste a sentence")
    with qtbot.waitSignal(pane.sig_result_changed, timeout=20000):
        pane.text_edit.setPlainText("One sentence only.")
    assert list(pane.result.output.texts) == ["One sentence only."] and pane.message.isHidden()


def test_compute_refuses_empty_text():
    from app.panes.pooling.state import compute
    from core.errors import SubwordScopeError

    with pytest.raises(SubwordScopeError, match="Type or paste"):
        next(compute(PoolingState(text=" \n ")))


def test_plural_words_agree_with_the_count():
    from app.widgets.text_format import plural

    assert plural(1, "sentence") == "1 sentence"
    assert plural(0, "token") == "0 tokens"
    assert plural(12000, "word type") == "12,000 word types"
    assert plural(1, "boundary differs", "boundaries differ") == "1 boundary differs"
    assert plural(2, "boundary differs", "boundaries differ") == "2 boundaries differ"


def test_similarity_ticks_are_thinned_for_many_sentences():
    from app.panes.pooling.views import sentence_ticks

    assert [k for k, _ in sentence_ticks(4)[0]] == [1, 2, 3, 4]
    major, minor = sentence_ticks(64)
    assert [k for k, _ in major] == [1, 10, 20, 30, 40, 50, 60]
    assert len(major) + len(minor) == 64 and all(label == "" for _, label in minor)


def test_sweep_legends_sit_below_the_curves(pane, qtbot):
    pane.tabs.setCurrentWidget(pane.sweep_view)
    for plot in pane.sweep_view.plots.values():
        assert plot.legend.parentItem() is not plot.plot.getViewBox()
        assert len(plot.legend.items) == 4
        qtbot.waitUntil(lambda p=plot: p.legend.sceneBoundingRect().top()
                        >= p.plot.getViewBox().sceneBoundingRect().bottom() > 0, timeout=3000)


def test_a_long_sentence_labels_every_kth_token_on_its_axes(qtbot):
    """55 tokens (a Hindi sentence through an English WordPiece) get at most 16 labels, each
    at most 8 characters, and a tick at every token: the labels no longer overlap."""
    import pyqtgraph as pg

    # private: the axis helper is tested on a bare plot, without an encoder to run
    from app.panes.pooling.views import TOKEN_LABELS, _token_ticks

    widget = pg.PlotWidget()  # owned by qtbot: deleted on the GUI thread at teardown
    qtbot.addWidget(widget)
    frame = SimpleNamespace(plot=widget.getPlotItem())
    tokens = ["[CLS]"] + [f"##अधिकार{k}" for k in range(53)] + ["[SEP]"]
    _token_ticks(frame, tokens)
    major, minor = frame.plot.getAxis("bottom")._tickLevels  # private: pyqtgraph has no getter
    assert 1 < len(major) <= TOKEN_LABELS and all(len(label) <= 8 for _, label in major)
    assert sorted(i for i, _ in major + minor) == list(range(len(tokens)))


def test_a_hidden_tab_encodes_when_it_is_shown(qtbot):
    """In the main window the Pooling pane encodes only while shown: an edit made while
    another tab is shown (a lesson's, the encoder scan's choice at start) waits, and runs
    when the tab is shown; the tab the user works in keeps the CPU."""
    from app.main_window import MainWindow
    from app.workers import wait_until_settled

    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.show_pane("alignment")
    pane = window.panes["pooling"]
    wait_until_settled(window)
    before = pane.result
    pane.set_text("A sentence typed while the tab was hidden.\nAnother one.")
    qtbot.wait(2 * DEBOUNCE_MS)
    assert not is_working(pane) and pane.result is before
    with qtbot.waitSignal(pane.sig_result_changed, timeout=60_000):
        window.show_pane("pooling")
    assert pane.result.output.texts[0] == "A sentence typed while the tab was hidden."
