"""Merges pane: stepping via buttons, keys and the run-to controls; worker loading/cancel."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import Qt

from app.panes.merges import MergesPane
from core.tokenizers import load

GOLDEN_TOKENS = [95, 86, 77, 68, 61, 54, 48, 42, 36]


@pytest.fixture
def pane(new_pane):
    return new_pane(MergesPane)


def rows(model):
    return [[model.data(model.index(r, c)) for c in range(model.columnCount())]
            for r in range(model.rowCount())]


def current_point(pane):
    x, y = pane.bpe_view.tokens_plot.curve_data("current step")
    return float(x[0]), float(y[0])


def test_first_screen_is_the_golden_run(pane, qtmodeltester):
    model = pane.bpe_view.merge_model
    assert [r[1] for r in rows(model)] == ["e + s", "es + t", "est + </w>", "l + o", "lo + w",
                                           "n + e", "ne + w", "new + est</w>"]
    assert [r[2] for r in rows(model)] == [9, 9, 9, 7, 7, 6, 6, 6]
    assert rows(model)[0][4] == "⚑ 3 tied" and rows(model)[2][4] == ""
    assert [r[0] for r in rows(model)] == list(range(1, 9))  # merge 8 is the plot's "merge 8"
    assert pane.bpe_view.tokens_plot.markers["current"].label.toPlainText() == "merge 8"
    x, y = pane.bpe_view.tokens_plot.curve_data("corpus tokens")
    assert list(y) == GOLDEN_TOKENS and list(x) == list(range(11, 20))
    _, avg = pane.bpe_view.avg_plot.curve_data("symbols per word type")
    assert avg[0] == 6.0 and avg[-1] == 2.75
    assert current_point(pane) == (19.0, 36.0)
    assert pane.bpe_view.heldout_segmentations() == [
        ["low", "est</w>"], ["new", "e", "r", "</w>"], ["low", "low", "</w>"]]
    for m in (model, pane.bpe_view.word_model, pane.bpe_view.bpe_model, pane.bpe_view.wp_model,
              pane.unigram_view.nbest_model, pane.replay_view.steps_model):
        qtmodeltester.check(m)


def test_buttons_step_undo_and_reset(pane, qtbot):
    with qtbot.waitSignal(pane.sig_step_changed) as blocker:
        qtbot.mouseClick(pane.controls.undo_button, Qt.MouseButton.LeftButton)
    assert blocker.args == [7]
    assert pane.bpe_view.merge_model.rowCount() == 7
    assert current_point(pane) == (18.0, 42.0)
    # the plot keeps the longer run computed before, with the marker moved back
    assert list(pane.bpe_view.tokens_plot.curve_data("corpus tokens")[1]) == GOLDEN_TOKENS
    assert pane.bpe_view.tokens_plot.markers["current"].value() == 18
    next_pair = pane.bpe_view.bpe_model.row(0)[1]
    qtbot.mouseClick(pane.controls.step_button, Qt.MouseButton.LeftButton)
    assert pane.bpe_view.merge_model.rowCount() == 8
    assert pane.bpe_view.merge_model.data(pane.bpe_view.merge_model.index(7, 1)) == next_pair
    changed = pane.trainer.history[-1].changed_words
    wm = pane.bpe_view.word_model
    assert [w for r, w in enumerate(["low", "lower", "newest", "widest"]) if wm.is_changed(r)] \
        == list(changed) == ["newest"]
    assert wm.data(wm.index(2, 0), Qt.ItemDataRole.BackgroundRole) is not None
    assert wm.data(wm.index(0, 0), Qt.ItemDataRole.BackgroundRole) is None
    qtbot.mouseClick(pane.controls.reset_button, Qt.MouseButton.LeftButton)
    assert pane.bpe_view.merge_model.rowCount() == 0 and current_point(pane) == (11.0, 95.0)
    assert not pane.controls.undo_button.isEnabled()


def test_run_to_with_spin_and_slider(pane, qtbot):
    with qtbot.waitSignal(pane.sig_step_changed, timeout=3000):
        pane.controls.target_spin.setValue(3)
    assert pane.bpe_view.merge_model.rowCount() == 3 and pane.controls.slider.value() == 3
    assert current_point(pane) == (14.0, 68.0)
    with qtbot.waitSignal(pane.sig_step_changed, timeout=3000):
        pane.controls.slider.setValue(12)
    assert pane.bpe_view.merge_model.rowCount() == 12 == pane.controls.target_spin.value()
    x, _ = pane.bpe_view.tokens_plot.curve_data("corpus tokens")
    assert len(x) == 13 and current_point(pane)[0] == 23.0


def test_keyboard_shortcuts(pane, qtbot):
    pane.show()
    qtbot.waitExposed(pane)
    pane.activateWindow()
    pane.bpe_view.merge_view.setFocus()
    qtbot.waitUntil(lambda: pane.isActiveWindow())
    qtbot.keyClick(pane.bpe_view.merge_view, Qt.Key.Key_Left, Qt.KeyboardModifier.ControlModifier)
    assert pane.bpe_view.merge_model.rowCount() == 7 and current_point(pane) == (18.0, 42.0)
    qtbot.keyClick(pane.bpe_view.merge_view, Qt.Key.Key_Right, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(pane.bpe_view.merge_view, Qt.Key.Key_Right, Qt.KeyboardModifier.ControlModifier)
    assert pane.bpe_view.merge_model.rowCount() == 9 and current_point(pane)[0] == 20.0
    qtbot.keyClick(pane.bpe_view.merge_view, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    assert pane.bpe_view.merge_model.rowCount() == 0


def test_settings_change_retrains(pane, qtbot):
    with qtbot.waitSignal(pane.sig_trainer_changed):
        pane.controls.tie_combo.setCurrentIndex(1)  # alphabetical: smallest
    assert [r[1] for r in rows(pane.bpe_view.merge_model)][:6] == [
        "e + s", "es + t", "est + </w>", "l + o", "lo + w", "e + w"]
    with qtbot.waitSignal(pane.sig_trainer_changed):
        pane.controls.marker_combo.setCurrentIndex(1)  # ## continuation
    assert pane.trainer.marker == "##" and len(pane.trainer.merges) == 8
    wp = rows(pane.bpe_view.wp_model)
    assert wp and float(wp[0][2]) >= float(wp[-1][2])


def test_pasted_text_and_bad_input(pane, qtbot):
    pane.train_on("text")
    with qtbot.waitSignal(pane.sig_trainer_changed, timeout=3000):
        pane.controls.text_edit.setPlainText("aa aa ab")
    assert pane.counts == {"aa": 2, "ab": 1}
    pane.controls.text_edit.setPlainText("   ")
    qtbot.waitUntil(lambda: "no words" in pane.controls.message.text(), timeout=3000)
    assert pane.counts == {"aa": 2, "ab": 1}  # the last good corpus stays


def _folder(tmp_path, n_files, words_per_file):
    for i in range(n_files):
        text = " ".join(f"w{i}x{j % 97}y" for j in range(words_per_file))
        (tmp_path / f"f{i:03d}.txt").write_text(text + "\nlow lower newest widest\n")
    return tmp_path


def test_loading_a_folder_runs_in_the_worker(pane, qtbot, tmp_path):
    folder = _folder(tmp_path, 3, 200)
    with qtbot.waitSignal(pane.sig_trainer_changed, timeout=20000):
        pane.train_on("folder", str(folder))
        assert pane.runner.busy and pane.controls.cancel_button.isEnabled()
        assert not pane.controls.step_button.isEnabled()
    assert pane.counts["low"] == 3 and len(pane.trainer.merges) == 8
    assert "folder" in pane.controls.corpus_label.text()
    qtbot.waitUntil(lambda: pane.controls.step_button.isEnabled() and not pane.runner.busy)


def test_cancelling_a_folder_load_keeps_the_old_corpus(pane, qtbot, tmp_path):
    folder = _folder(tmp_path, 40, 3000)
    before = pane.trainer
    pane.train_on("folder", str(folder))
    assert pane.runner.busy
    with qtbot.waitSignal(pane.runner.sig_busy_changed) as blocker:
        qtbot.mouseClick(pane.controls.cancel_button, Qt.MouseButton.LeftButton)
    assert blocker.args == [False]
    assert pane.trainer is before and pane.controls.message.text() == "Cancelled."
    assert pane.controls.step_button.isEnabled() and not pane.controls.cancel_button.isEnabled()
    with qtbot.assertNotEmitted(pane.sig_trainer_changed, wait=400):
        pass
    assert pane.trainer is before


def test_unigram_tab(pane, qtbot):
    view = pane.unigram_view
    bars = view.plot.bar_data()
    assert [(p, s, e) for p, s, e, row in bars if row == 0] == [("low", 0, 3), ("est", 3, 6)]
    assert all(row > 0 for p, s, e, row in bars if p not in ("low", "est"))
    assert [r[1:] for r in rows(view.nbest_model)][:2] == [["low + est", "-3.978"],
                                                           ["lo + west", "-6.329"]]
    view.word_edit.setText("lox")
    qtbot.waitUntil(lambda: "'x'" in view.message.text(), timeout=3000)
    assert view.nbest_model.rowCount() == 0
    view.word_edit.setText("lowers")
    qtbot.waitUntil(lambda: view.nbest_model.rowCount() > 0, timeout=3000)
    assert rows(view.nbest_model)[0][1:] == ["low + er + s", "-8.156"]


def test_replay_tab_with_gpt2_and_ignored_tokenizers(pane, qtbot, data_dir):
    gpt2 = data_dir / "tokenizers" / "gpt2"
    with qtbot.waitSignal(pane.sig_replay_loaded, timeout=20000):
        pane.load_replay(str(gpt2 / "merges.txt"))
    view = pane.replay_view
    view.text_edit.setText(" lowest")
    qtbot.waitUntil(lambda: view.final_tokens() == ["Ġlowest"], timeout=3000)
    assert [r[2] for r in rows(view.steps_model)] == [18, 44, 66, 139, 1621, 8760]
    assert "9016" in view.result_label.text()
    view.slider.setValue(0)
    assert view.steps_model.highlight == -1
    qtbot.mouseClick(view.next_button, Qt.MouseButton.LeftButton)
    assert view.steps_model.highlight == 0
    bert = data_dir / "tokenizers" / "bert-base-uncased" / "vocab.txt"
    pane.set_tokenizer(load(bert), str(bert))
    assert view.table is not None and "not byte-level BPE" in view.note.text()
    assert view.message.isHidden() and not pane.runner.busy


def test_replay_shows_byte_level_symbols_readable_by_default(pane, qtbot, data_dir):
    gpt2 = data_dir / "tokenizers" / "gpt2"
    with qtbot.waitSignal(pane.sig_replay_loaded, timeout=20000):
        pane.load_replay(str(gpt2 / "merges.txt"))
    view = pane.replay_view
    view.text_edit.setText("नमस्ते café")
    view.recompute()
    steps = rows(view.steps_model)
    assert view.readable_box.isChecked()
    assert steps[0][3] == "⟨E0⟩ + ⟨A4⟩"  # a Devanagari letter's first two bytes, no letter yet
    assert "⟨E0 A4⟩ · ⟨A8⟩" in steps[0][4]
    assert any("é" in r[4] for r in steps) and not any("Ã" in r[3] + r[4] for r in steps)
    assert "é" in view.result_label.text() and "à¤" not in view.result_label.text()
    view.readable_box.setChecked(False)  # the file's own alphabet, as before
    steps = rows(view.steps_model)
    assert steps[0][3] == "à + ¤" and any("Ã©" in r[4] for r in steps)
    assert pane.state.replay_readable is False


def test_remembered_replay_file_survives_a_non_bpe_broadcast(new_pane, qtbot, data_dir, tmp_path):
    """Restart on the replay tab: a WordPiece broadcast leaves a note; the file is restored."""
    from app.settings import open_settings, set_json
    from app.panes.merges.state import MergesState

    merges = str(data_dir / "tokenizers" / "gpt2" / "merges.txt")
    settings = open_settings()
    set_json(settings, "merges/state", MergesState(replay_path=merges, tab=2).to_dict())
    pane = new_pane(MergesPane, settings=settings)
    assert pane.tabs.currentWidget() is pane.replay_view
    bert = data_dir / "tokenizers" / "bert-base-uncased" / "vocab.txt"
    assert not pane.runner.busy  # nothing is loaded before the replay is on screen
    with qtbot.waitSignal(pane.sig_replay_loaded, timeout=20000) as blocker:
        pane.show()
        pane.set_tokenizer(load(bert), str(bert))  # the main window broadcasts at start-up
    assert blocker.args == [merges] and pane.replay_view.table is not None
    assert pane.replay_view.message.isHidden()
    assert "not byte-level BPE" in pane.replay_view.note.text()
    # the default text has no hidden leading space: the first word is not "Ġlowest"
    assert pane.replay_view.text_edit.text() == "lowest newer tokenization"
    qtbot.waitUntil(lambda: len(pane.replay_view.final_tokens()) > 3, timeout=3000)
    first = pane.replay_view.final_tokens()[0]
    assert first.startswith("low") and not first.startswith("Ġ")


def test_old_default_replay_text_loses_its_leading_space():
    from app.panes.merges.state import MergesState

    assert MergesState().replay_text == "lowest newer tokenization"
    assert MergesState.from_dict({"replay_text": " lowest newer tokenization"}).replay_text \
        == "lowest newer tokenization"
    assert MergesState.from_dict({"replay_text": " mine"}).replay_text == " mine"


def test_broadcast_byte_level_tokenizer_is_used_without_reloading(pane, qtbot, data_dir,
                                                                  monkeypatch):
    import app.panes.merges.state as merges_state

    monkeypatch.setattr(merges_state, "load", lambda *a, **k: pytest.fail("file re-loaded"))
    path = data_dir / "tokenizers" / "gpt2" / "tokenizer.json"
    tokenizer = load(path)
    pane.show()
    pane.set_tokenizer(tokenizer, str(path))
    assert not pane.runner.busy and pane.replay_view.table is None  # replay tab not shown
    with qtbot.waitSignal(pane.sig_replay_loaded, timeout=20000) as blocker:
        pane.tabs.setCurrentWidget(pane.replay_view)
    assert blocker.args == [str(path)]
    view = pane.replay_view
    assert view.table.vocab is tokenizer.model.vocab and pane.state.replay_path == str(path)
    view.text_edit.setText("hi<|endoftext|>")
    qtbot.waitUntil(lambda: view.final_tokens() == ["hi", "<|endoftext|>"], timeout=3000)
    assert "50256" in view.result_label.text() and view.message.isHidden()


def test_state_is_remembered(pane, new_pane):
    pane.bpe_view.heldout_edit.setText("newest lowly")
    pane.undo()
    pane.save_state()
    again = new_pane(MergesPane)
    assert again.bpe_view.heldout_edit.text() == "newest lowly"
    assert len(again.trainer.merges) == 7


def test_heldout_animation_walks_through_the_merges(pane, qtbot):
    view = pane.bpe_view
    # private: the replay's timer, sped up so the test sees every step
    view._timer.setInterval(5)
    view.heldout_edit.setText("lowest")
    seen = []
    view._timer.timeout.connect(lambda: seen.append(view.heldout_view.toPlainText()))
    qtbot.mouseClick(view.animate_button, Qt.MouseButton.LeftButton)
    assert "after: merge" not in view.heldout_view.toPlainText()  # frame 0: the initial split
    qtbot.waitUntil(lambda: not view.animate_button.isChecked(), timeout=5000)
    assert any("after: merge 1, e + s" in s for s in seen)  # merges count from 1, as on the plot
    assert any("after: merge 5, lo + w" in s for s in seen)
    assert view.heldout_segmentations() == [["low", "est</w>"]]


def test_long_run_on_a_big_corpus_goes_to_the_worker(pane, qtbot, tmp_path):
    syllables = [f"{a}{b}" for a in "bcdfgklmnp" for b in "aeiou"]
    words = [f"{x}{y}{z}" for x in syllables[:20] for y in syllables[:15] for z in syllables[:12]]
    (tmp_path / "big.txt").write_text(" ".join(words + words[::7]))
    with qtbot.waitSignal(pane.sig_trainer_changed, timeout=20000):
        pane.train_on("file", str(tmp_path / "big.txt"))
    assert pane.trainer.n_words > 3000 and "file" in pane.controls.corpus_label.text()
    with qtbot.waitSignal(pane.sig_trainer_changed, timeout=30000):
        pane.run_to(260)
        assert pane.runner.busy  # more than 200 merges on a big corpus: off the GUI thread
    assert len(pane.trainer.merges) == 260 == pane.controls.target_spin.value()
    assert pane.bpe_view.merge_model.rowCount() == 260
    assert "file" in pane.controls.corpus_label.text()


def test_cancelled_file_dialog_keeps_the_corpus(pane, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: "")
    before = pane.trainer
    pane.controls.source_combo.activated.emit(3)  # "Folder of .txt files"
    assert pane.controls.source_combo.currentIndex() == 0 and pane.trainer is before


def test_unigram_vocabulary_errors_show_inline(pane, qtbot):
    view = pane.unigram_view
    view.vocab_edit.setPlainText("low 7 est")
    qtbot.waitUntil(lambda: "'est' has no count" in view.message.text(), timeout=3000)
    view.vocab_edit.setPlainText("low 7 est nine")
    qtbot.waitUntil(lambda: "positive whole number" in view.message.text(), timeout=3000)
    view.vocab_edit.setPlainText("low 7 est 9")
    qtbot.waitUntil(lambda: view.message.text() == "", timeout=3000)
    expected = math.log(7 / 16) + math.log(9 / 16)
    assert rows(view.nbest_model) == [[1, "low + est", f"{expected:.3f}"]]


def test_symbols_are_never_shown_blank():
    from app.panes.merges.models import show_pair, show_symbols

    assert show_pair(("\u0308", "i</w>")) == "◌\u0308 + i</w>"
    assert show_symbols(["a", "\u093e", " "]) == "a · ◌\u093e · ␣"


def test_binary_files_in_a_folder_are_reported_not_trained_on(pane, qtbot, tmp_path):
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    (mixed / "a.txt").write_text("low lower newest widest", encoding="utf-8")
    (mixed / "b.txt").write_bytes(bytes(range(256)) * 4)  # a binary file named .txt
    with qtbot.waitSignal(pane.sig_trainer_changed, timeout=20000):
        pane.train_on("folder", str(mixed))
    assert "\ufffd" not in "".join(pane.counts)
    assert set(pane.counts) == {"low", "lower", "newest", "widest"}
    text = pane.controls.message.text()
    assert text.startswith("Skipped 1 file that is not UTF-8 text: b.txt (b.txt: not UTF-8")
    assert str(mixed) not in text and not pane.controls.message.isHidden()
    binary = tmp_path / "binary"
    binary.mkdir()
    (binary / "c.txt").write_bytes(b"\x00\xff\xfe" * 100)
    pane.train_on("folder", str(binary))
    qtbot.waitUntil(lambda: "UTF-8" in pane.controls.message.text() and not pane.runner.busy, timeout=20000)
    assert "c.txt" in pane.controls.message.text()
    assert "Training failed" not in pane.controls.message.text()
    assert set(pane.counts) == {"low", "lower", "newest", "widest"}  # the last good corpus stays


@pytest.fixture
def no_merge_list(monkeypatch):
    """Deriving a merge list from ranks raises (in the worker) and is recorded: the test
    asserts the record is empty."""
    from core.tokenizers.models.bpe import BPE

    original, calls = BPE.merge_list, []

    def guarded(self, *args, **kwargs):
        if self.describe()["merge_rule"].startswith("token rank"):
            calls.append(self)
            raise AssertionError("merge_list called for a rank tokenizer")
        return original(self, *args, **kwargs)

    monkeypatch.setattr(BPE, "merge_list", guarded)
    yield calls
    assert calls == []


def test_cl100k_replay_builds_no_merge_list_and_matches_tiktoken(pane, qtbot, data_dir,
                                                                 no_merge_list):
    tiktoken = pytest.importorskip("tiktoken")
    from tiktoken.load import load_tiktoken_bpe

    from core.tokenizers.pre_tokenizers.split_patterns import split_pattern

    path = data_dir / "tokenizers" / "cl100k_base" / "cl100k_base.tiktoken"
    enc = tiktoken.Encoding("cl100k_test", pat_str=split_pattern("cl100k_base"),
                            mergeable_ranks=load_tiktoken_bpe(str(path)), special_tokens={})
    pane.show()
    pane.tabs.setCurrentWidget(pane.replay_view)
    with qtbot.waitSignal(pane.sig_replay_loaded, timeout=20000) as blocker:
        pane.set_tokenizer(load(path), str(path))
    assert blocker.args == [str(path)]
    view = pane.replay_view
    assert "merged by token rank" in view.source_label.text()
    text = " tokenization"
    want = enc.encode_ordinary(text)
    with qtbot.waitSignal(view.steps_model.modelReset, timeout=3000):
        view.text_edit.setText(text)
    assert view.result_label.text().endswith("<b>ids</b>: " + " ".join(map(str, want)))
    assert view.final_tokens() == ["Ġtoken", "ization"] and len(want) == 2
    assert [r[4] for r in rows(view.steps_model)][-1] == "␣token · ization"  # readable
    view.readable_box.setChecked(False)
    steps = rows(view.steps_model)
    assert [r[4] for r in steps][-1] == "Ġtoken · ization"
    ranks = [r[2] for r in steps]  # each merge's rank is its token's id, lowest first here
    assert all(enc.encode_single_token(m.replace("Ġ", " ").replace(" + ", "").encode())
               == r for m, r in zip((r[3] for r in steps), ranks))


def test_hidden_replay_builds_nothing_and_a_newer_tokenizer_supersedes(pane, qtbot, data_dir,
                                                                      no_merge_list):
    gpt2 = data_dir / "tokenizers" / "gpt2" / "tokenizer.json"
    cl100k = data_dir / "tokenizers" / "cl100k_base" / "cl100k_base.tiktoken"
    pane.show()
    pane.set_tokenizer(load(cl100k), str(cl100k))
    assert not pane.runner.busy  # the BPE training tab is shown: no replay table is built
    loaded = []
    pane.sig_replay_loaded.connect(loaded.append)
    pane.tabs.setCurrentWidget(pane.replay_view)
    assert pane.runner.busy  # the cl100k table is being built ...
    with qtbot.waitSignal(pane.sig_replay_loaded, timeout=20000):
        pane.set_tokenizer(load(gpt2), str(gpt2))  # ... and is superseded by GPT-2's
    qtbot.waitUntil(lambda: pane.runner.running == 0, timeout=20000)
    assert loaded == [str(gpt2)] and pane.replay_view.table.n_merges == 50_000


def test_replay_text_is_bounded(pane):
    from app.panes.merges.replay import REPLAY_MAX_CHARS

    pane.replay_view.text_edit.setText("\N{GRINNING FACE}" * 1000)  # 2 UTF-16 units each
    assert pane.replay_view.text_edit.text() == "\N{GRINNING FACE}" * (REPLAY_MAX_CHARS // 2)


TRADE_OFF_TEXT = " ".join(["the"] * 5 + ["tokenizer", "tokenizes", "text", "transformer", "transforms"]
                          + ["tokens"] * 2 + ["a", "learner", "learns", "learned"])


@pytest.mark.parametrize("heldout, totals, flagged", [
    ("the learner learns", "All: 5 tokens, 16 characters, 0.31 tokens per character", ""),
    ("The Learner Learns", "All: 16 tokens, 16 characters, 1.00 tokens per character; "
                           "3 symbols outside the alphabet (red)", "not in alphabet: L"),
    ("learner 2026 44444", "All: 13 tokens, 16 characters, 0.81 tokens per character; "
                           "9 symbols outside the alphabet (red)", "not in alphabet: 4"),
    ("der lernende lernt", "All: 15 tokens, 16 characters, 0.94 tokens per character", ""),
])
def test_heldout_box_shows_the_pathology_figures(pane, qtbot, heldout, totals, flagged):
    """The lecture reading's pathology table after 30 merges of the trade-off corpus."""
    pane.apply_state({"source": "text", "text": TRADE_OFF_TEXT, "target": 30, "heldout": heldout})
    assert len(pane.trainer.merges) == 30 and pane.bpe_view.heldout_edit.text() == heldout
    assert pane.bpe_view.totals_label.text() == totals
    shown = pane.bpe_view.heldout_view.toPlainText()
    assert (flagged in shown) if flagged else ("not in alphabet" not in shown)
    if heldout.startswith("der"):
        assert "8 tokens / 8 chars = 1.00 tok/char" in shown
