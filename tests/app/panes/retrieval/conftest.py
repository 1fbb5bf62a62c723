"""Retrieval pane fixtures: a pane on the bundled UDHR sample with the stand-in encoder (fast),
its corpus indexed and its first query answered."""

from __future__ import annotations

import pytest

from app.panes.retrieval import RetrievalPane
from app.settings import open_settings, set_json
from core.data import udhr_sample_dir

TIMEOUT = 60000
LANGUAGES = ["eng", "fra", "deu_1996", "tha", "amh"]  # Latin, Thai and Ethiopic; a third of the sample


def settings_with(**state):
    """Fresh settings holding a Retrieval state (the test's own config folder)."""
    settings = open_settings()
    set_json(settings, "retrieval/state", state)
    return settings


def is_ready(pane) -> bool:
    """The corpus is complete and the shown hits belong to it and to the current query."""
    ix, r = pane.index, pane.result
    return (ix is not None and ix.complete and r is not None and r.index_key == ix.key
            # private: the query worker only (the pane has three runners)
            and r.query.text == pane.state.query and not pane._query_runner.busy)


@pytest.fixture
def make_pane(qtbot, new_pane):
    """``make_pane(**state)``: a shown pane on those settings (default: five languages of the
    sample, the stand-in), once ready; its jobs are cancelled at the end of the test."""
    made = []

    def make(settings=None, wait=True, **state):
        state = {"use_model": False, "corpus_folder": str(udhr_sample_dir()), "languages": LANGUAGES, **state}
        pane = new_pane(RetrievalPane, 1400, 900, settings=settings or settings_with(**state))
        made.append(pane)
        pane.show()
        if wait:
            qtbot.waitUntil(lambda: is_ready(pane), timeout=TIMEOUT)
        return pane

    yield make
    for pane in made:
        pane.cancel()
