"""Merges ▸ Unigram: the vocabulary trained by EM with pruning, stepped with undo / run to end,
and sampled segmentations with a seed, read from the tab's tables."""

from __future__ import annotations

import pytest

from app.panes.merges import MergesPane
from core.training.unigram import builtin_log_probs
from core.training.unigram_em import segmentation_probability


@pytest.fixture
def pane(new_pane):
    return new_pane(MergesPane)


def _trained(qtbot, view) -> None:
    """Wait for the worker's training step (forward steps run off the GUI thread)."""
    qtbot.waitUntil(lambda: not view.training, timeout=30000)


def test_em_training_steps_undo_and_runs_to_the_end(pane, qtbot):
    pane.apply_state({"source": "builtin", "tab": 1,
                      "unigram": {"trained": True, "target_size": 17, "em_steps": 3, "word": "lowest"}})
    view = pane.unigram_view
    _trained(qtbot, view)
    steps = view.steps_model.rows()
    assert [r[1] for r in steps] == ["seed", "em", "em", "prune"]
    assert view.vocab_edit.isHidden() and not view.trained_vocab.isHidden()
    assert view.trained_vocab.text().startswith(f"Trained, {steps[3][2]} pieces (p): ")
    assert steps[3][2] < steps[2][2] and steps[3][4]  # the prune removed pieces
    assert float(steps[2][3]) >= float(steps[1][3]) >= float(steps[0][3])  # EM raises the likelihood
    view.em_undo.click()  # back: immediate, from the kept history
    assert not view.training
    assert len(view.steps_model.rows()) == 3 and pane.state.unigram["em_steps"] == 2
    view.em_end.click()
    assert view.training and not view.em_end.isEnabled()  # forward: on the worker
    _trained(qtbot, view)
    rows = view.steps_model.rows()
    assert rows[-1][2] == 17 and not view.em_step.isEnabled()
    assert "training is over" in view.train_label.text()
    # the trained vocabulary segments the reading's words as its given vocabulary does
    assert view.nbest_model.rows()[0][1] == "low + est"
    view.em_reset.click()
    _trained(qtbot, view)
    assert [r[1] for r in view.steps_model.rows()] == ["seed"]


def test_a_long_training_runs_off_the_gui_thread_and_a_newer_request_supersedes_it(pane, qtbot):
    words = " ".join(f"w{i}ord{i % 7}x{i % 13}" for i in range(600))
    pane.apply_state({"source": "text", "text": words, "tab": 1,
                      "unigram": {"trained": True, "target_size": 30, "em_steps": 0}})
    view = pane.unigram_view
    _trained(qtbot, view)
    view.em_end.click()
    assert view.training  # the GUI thread returned at once
    view.em_undo.click()  # the user changes their mind: it stops at the step shown, at once
    assert not view.training and view.trainer.n_steps == 0
    _trained(qtbot, view)
    assert [r[1] for r in view.steps_model.rows()] == ["seed"]


def test_sampling_is_seeded_and_follows_alpha(pane):
    pane.apply_state({"tab": 1, "unigram": {"word": "lowest", "alpha": 1.0, "seed": 3, "draws": 200}})
    view = pane.unigram_view
    rows = view.samples_model.rows()
    assert sum(r[1] for r in rows) == 200
    assert rows[0][0] == "low + est"  # the most probable segmentation is drawn most
    lp = builtin_log_probs()
    assert rows[0][2] == f"{segmentation_probability(('low', 'est'), 'lowest', lp):.4f}"
    again = [tuple(r) for r in rows]
    view.seed_spin.setValue(4)
    view.recompute()
    assert [tuple(r) for r in view.samples_model.rows()] != again
    view.seed_spin.setValue(3)
    view.recompute()
    assert [tuple(r) for r in view.samples_model.rows()] == again
    view.alpha_spin.setValue(50.0)
    view.recompute()
    assert [r[:2] for r in view.samples_model.rows()] == [["low + est", 200]]
    assert pane.state.unigram["alpha"] == 50.0


def test_training_refuses_a_big_corpus_with_a_note(pane, monkeypatch):
    import app.panes.merges.unigram as unigram
    monkeypatch.setattr(unigram, "UNIGRAM_MAX_TYPES", 2)
    pane.apply_state({"source": "builtin", "tab": 1, "unigram": {"trained": True}})
    assert "up to 2 word types" in pane.unigram_view.train_label.text()
    assert "up to 2 word types" in pane.unigram_view.message.text()
