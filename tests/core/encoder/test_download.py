"""Fetching an encoder from a Hub served on 127.0.0.1 (the shared MiniLM's files): the whole
path, an interrupted and a cancelled download resumed, wrong size and checksum refused,
offline named. No test touches the network."""

from __future__ import annotations

import socket

import numpy as np
import pytest

from core.data import data_dir
from core.encoder import load_encoder
from core.encoder.download import (
    DownloadCorrupt,
    DownloadError,
    DownloadOffline,
    download_encoder,
)
from core.encoder.sources import HF_CACHE, default_encoder, find_encoders
from core.errors import Cancelled
from tests.core.encoder.hub_server import Hub, model_files

REPO = "sentence-transformers/all-MiniLM-L6-v2"
SHARED = data_dir() / "models" / "all-MiniLM-L6-v2"
pytestmark = pytest.mark.skipif(not (SHARED / "model.safetensors").is_file(),
                                reason="needs the shared all-MiniLM-L6-v2 (SUBWORDSCOPE_DATA)")


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch):
    """tests/conftest.py sets HF_HUB_OFFLINE; these tests reach only the server on 127.0.0.1
    (every call passes its URL), so offline mode is lifted for them alone."""
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)


@pytest.fixture(scope="module")
def files():
    return model_files(SHARED)


def _gets(hub, name):
    return [(m, r) for m, p, r in hub.requests if p.endswith("/" + name) and m == "GET"]


def test_download_lands_in_the_hub_cache_and_runs(tmp_path, files):
    fractions = []
    with Hub(REPO, files) as hub:
        folder = download_encoder(REPO, cache_dir=tmp_path, endpoint=hub.url,
                                  progress=fractions.append)
    assert folder == tmp_path / "models--sentence-transformers--all-MiniLM-L6-v2" / "snapshots" / (
        "0123456789abcdef0123456789abcdef01234567")
    assert (tmp_path / "models--sentence-transformers--all-MiniLM-L6-v2" / "refs" / "main").read_text() \
        == "0123456789abcdef0123456789abcdef01234567"
    assert (folder / "model.safetensors").read_bytes() == files["model.safetensors"]
    assert fractions[-1] == 1.0 and fractions == sorted(fractions) and len(fractions) > 3
    assert not (folder / "reference_outputs.json").exists()  # only the files an encoder needs
    found = find_encoders(tmp_path / "no-data", tmp_path)
    assert default_encoder(found).path == folder and found[0].source == HF_CACHE
    a = load_encoder(folder).encode(["right to education"]).last_hidden_state
    b = load_encoder(SHARED).encode(["right to education"]).last_hidden_state
    np.testing.assert_array_equal(a, b)


def test_a_dropped_connection_resumes_with_a_range_request(tmp_path, files):
    with Hub(REPO, files) as hub:
        hub.drop_after = [25_000_000]  # the client writes whole 10 MB chunks
        folder = download_encoder(REPO, cache_dir=tmp_path, endpoint=hub.url)
        ranges = [r for _, r in _gets(hub, "model.safetensors")]
    assert len(ranges) == 2 and ranges[0] is None and ranges[1].startswith("bytes=")
    assert 0 < int(ranges[1][6:-1]) <= 25_000_000 and ranges[1].endswith("-")
    assert (folder / "model.safetensors").read_bytes() == files["model.safetensors"]


def test_a_cancelled_download_resumes_where_it_stopped(tmp_path, files):
    seen = []

    def stop():
        return bool(seen) and seen[-1] > 0.3

    with Hub(REPO, files) as hub:
        with pytest.raises(Cancelled):
            download_encoder(REPO, cache_dir=tmp_path, endpoint=hub.url, progress=seen.append,
                             should_stop=stop)
        partial = list(tmp_path.glob("models--*/blobs/*.incomplete"))
        assert len(partial) == 1 and partial[0].stat().st_size > 0
        kept = partial[0].stat().st_size
        folder = download_encoder(REPO, cache_dir=tmp_path, endpoint=hub.url)
        ranges = [r for _, r in _gets(hub, "model.safetensors")]
    assert ranges == [None, f"bytes={kept}-"]
    assert (folder / "model.safetensors").read_bytes() == files["model.safetensors"]


def test_a_wrong_checksum_is_refused_and_deleted(tmp_path, files):
    with Hub(REPO, files) as hub:
        hub.corrupt = True
        with pytest.raises(DownloadCorrupt, match="SHA-256"):
            download_encoder(REPO, cache_dir=tmp_path, endpoint=hub.url)
    assert not list(tmp_path.glob("models--*/blobs/*")) or all(
        p.name != "model.safetensors" for p in tmp_path.glob("models--*/blobs/*"))
    assert not list(tmp_path.glob("models--*/snapshots/*/model.safetensors"))
    assert find_encoders(tmp_path / "no-data", tmp_path) == []


def test_a_wrong_size_is_refused(tmp_path, files):
    with Hub(REPO, files) as hub:
        hub.short = True
        with pytest.raises(DownloadCorrupt, match="arrived with 90,868,366 bytes, the Hub lists 90,868,376"):
            download_encoder(REPO, cache_dir=tmp_path, endpoint=hub.url)
    assert not list(tmp_path.glob("models--*/snapshots/*/model.safetensors"))
    assert not list(tmp_path.glob("models--*/blobs/*.incomplete"))


def test_offline_mode_is_named(tmp_path, monkeypatch):
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    with pytest.raises(DownloadOffline, match="OfflineModeIsEnabled"):
        download_encoder(REPO, cache_dir=tmp_path, endpoint="http://127.0.0.1:9")


def test_offline_is_named(tmp_path):
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(DownloadOffline, match="Could not reach"):
        download_encoder(REPO, cache_dir=tmp_path, endpoint=f"http://127.0.0.1:{port}")


def test_a_repository_without_model_files_is_refused(tmp_path, files):
    with Hub(REPO, {"config.json": files["config.json"]}) as hub:
        with pytest.raises(DownloadError, match="model.safetensors"):
            download_encoder(REPO, cache_dir=tmp_path, endpoint=hub.url)
