"""Finding and fetching encoders in the app: a fresh install with a Hugging Face cache that
holds all-MiniLM-L6-v2 opens Pooling and Retrieval on it with no setting; the download dialog
fetches from a Hub served on 127.0.0.1 and names an offline Hub. No test touches the network."""

from __future__ import annotations

import os
import socket

import pytest

from app.dialogs import encoders
from app.dialogs.encoders import GetEncoderDialog
from app.panes.pooling import PoolingPane
from app.panes.retrieval import RetrievalPane
from app.settings import open_settings, set_json
from core.data import data_dir
from core.encoder.sources import HF_CACHE, find_encoders
from tests.core.encoder.hub_server import COMMIT, Hub, model_files

REPO = "sentence-transformers/all-MiniLM-L6-v2"
SHARED = data_dir() / "models" / "all-MiniLM-L6-v2"  # read before a test empties the data folder


@pytest.fixture
def shared_model():
    if not (SHARED / "model.safetensors").is_file():
        pytest.skip(f"MiniLM not found at {SHARED} (set SUBWORDSCOPE_DATA)")
    return SHARED


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """A fresh install: no model in the data folder, an empty hub cache, a new finder."""
    hub = tmp_path / "hub"
    hub.mkdir()
    empty = tmp_path / "data"
    empty.mkdir()
    monkeypatch.setenv("HF_HUB_CACHE", str(hub))
    monkeypatch.setenv("SUBWORDSCOPE_DATA", str(empty))
    monkeypatch.setattr(encoders, "_finder", None)
    return hub


def fake_hf_cache(hub, shared_model):
    """The shared MiniLM laid out as the Hugging Face cache does (files linked, not copied)."""
    model = hub / "models--sentence-transformers--all-MiniLM-L6-v2"
    snap = model / "snapshots" / COMMIT
    snap.mkdir(parents=True)
    (model / "refs").mkdir()
    (model / "refs" / "main").write_text(COMMIT)
    for name in ("config.json", "model.safetensors", "tokenizer.json", "vocab.txt"):
        os.symlink(shared_model / name, snap / name)
    return snap


def test_a_fresh_install_runs_pooling_on_the_cached_model(qtbot, new_pane, fresh, shared_model):
    snap = fake_hf_cache(fresh, shared_model)
    found = find_encoders()
    assert [(f.name, f.path, f.source) for f in found] == [(REPO, snap, HF_CACHE)]
    pane = new_pane(PoolingPane, settings=open_settings())
    pane.show()
    qtbot.waitUntil(lambda: pane.result is not None and pane.result.model_label == str(snap),
                    timeout=60000)
    assert pane.state.model_dir == str(snap)
    assert pane.source_label.text() == "all-MiniLM-L6-v2 — Hugging Face cache"
    assert pane.result.output.last_hidden_state.shape[-1] == 384


def test_a_fresh_install_runs_retrieval_on_the_cached_model(qtbot, new_pane, fresh, shared_model):
    snap = fake_hf_cache(fresh, shared_model)
    corpus = fresh.parent / "corpus"  # a small corpus keeps the test short; no model setting
    corpus.mkdir()
    for code, line in (("eng", "Everyone has the right to education."),
                       ("fra", "Toute personne a droit à l'éducation.")):
        (corpus / f"{code}.txt").write_text(f"{line}\nNo one shall be held in slavery.\n",
                                            encoding="utf-8")
    settings = open_settings()
    set_json(settings, "retrieval/state", {"corpus_folder": str(corpus)})
    pane = new_pane(RetrievalPane, 1400, 900, settings=settings)
    pane.show()
    qtbot.waitUntil(lambda: pane.index is not None and pane.index.complete
                    and pane.index.model_label == "all-MiniLM-L6-v2", timeout=120000)
    assert pane.index.dim == 384 and pane.index.key[1] == str(snap)
    assert pane.panel.source_label.text() == "all-MiniLM-L6-v2 — Hugging Face cache"
    pane.cancel()


def test_with_nothing_found_the_standin_is_named_with_the_way_to_a_model(qtbot, new_pane, fresh):
    pane = new_pane(PoolingPane, settings=open_settings())
    pane.show()
    qtbot.waitUntil(lambda: encoders.finder().found is not None, timeout=20000)
    qtbot.waitUntil(lambda: pane.result is not None, timeout=20000)
    text = pane.source_label.text()
    assert text.startswith("Stand-in: a fixed random vector per word — hits share words, not meaning")
    assert "<a href='get'>Get a real model…</a>" in text
    assert pane.state.model_dir == ""


@pytest.fixture
def online(monkeypatch):
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)  # loopback only (endpoint given)


def test_the_dialog_downloads_into_the_cache(qtbot, fresh, shared_model, online):
    dialog = GetEncoderDialog()
    qtbot.addWidget(dialog)
    assert [dialog.table.item(r, 0).text() for r in range(dialog.table.rowCount())][0] == REPO
    assert dialog.table.item(0, 1).text() == "English" and dialog.table.item(0, 2).text() == "90 MB"
    with Hub(REPO, model_files(shared_model)) as hub:
        with qtbot.waitSignal(dialog.sig_downloaded, timeout=120000) as got:
            dialog.start(REPO, endpoint=hub.url)
    snap = fresh / "models--sentence-transformers--all-MiniLM-L6-v2" / "snapshots" / COMMIT
    assert got.args == [str(snap)] and dialog.folder == str(snap)
    assert dialog.progress.value() == 1000 and "is in the Hugging Face cache" in dialog.message.text()
    qtbot.waitUntil(lambda: encoders.finder().default() is not None, timeout=20000)
    assert encoders.finder().default().path == snap


def test_the_dialog_names_an_unreachable_hub(qtbot, fresh, online):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    dialog = GetEncoderDialog()
    qtbot.addWidget(dialog)
    dialog.start(REPO, endpoint=f"http://127.0.0.1:{port}")
    # the error and the end of the task are two signals: wait for both (the buttons come back
    # with the second)
    qtbot.waitUntil(lambda: "Could not reach the Hugging Face Hub" in dialog.message.text()
                    and dialog.download_button.isEnabled(), timeout=60000)
    assert dialog.download_button.isEnabled() and not dialog.cancel_button.isEnabled()
