"""Fetching a real sentence encoder into the Hugging Face cache with ``huggingface_hub``.

:data:`OFFERS` are the models the app proposes (name, languages, size). :func:`download_encoder`
reads the repository's file list (the Hub's model-info API), then fetches only the files an
encoder needs with ``hf_hub_download`` into the hub cache (``$HF_HUB_CACHE`` …, see
:func:`core.hf_cache.hub_cache_dir`), where ``transformers`` and ``sentence-transformers`` find
them too. A large (LFS) file is fetched into ``blobs/<sha256>.incomplete`` first, which stays
when the user cancels or the connection drops, and the next attempt resumes it with an HTTP
``Range`` request (``huggingface_hub`` 1.x+ no longer resumes across calls); it is checked
against the size and SHA-256 the Hub lists before it is renamed into place, a wrong one
deleted and refused. ``HF_ENDPOINT`` (or ``endpoint=``) points at another
server (the tests serve the shared model from 127.0.0.1).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from core.errors import Cancelled, SubwordScopeError
from core.hf_cache import hub_cache_dir

NEEDED = ("config.json", "model.safetensors", "tokenizer.json")
OPTIONAL = ("tokenizer_config.json", "special_tokens_map.json", "modules.json",
            "sentence_bert_config.json", "1_Pooling/config.json", "vocab.txt",
            "sentencepiece.bpe.model")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True)
class Offer:
    """A model the download dialog proposes."""

    repo_id: str
    languages: str
    size_mb: int  # the files fetched, rounded
    note: str

    @property
    def name(self) -> str:
        return self.repo_id.rsplit("/", 1)[-1]


OFFERS = (
    Offer("sentence-transformers/all-MiniLM-L6-v2", "English", 90,
          "6 layers, 384 dims; the model the course material uses"),
    Offer("sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2", "50+ languages", 470,
          "12 layers, 384 dims, XLM-R tokenizer; made to match sentences across languages"),
    Offer("intfloat/multilingual-e5-small", "about 100 languages", 470,
          "12 layers, 384 dims, XLM-R tokenizer; expects 'query: ' / 'passage: ' prefixes"),
)


class DownloadError(SubwordScopeError):
    """A model could not be fetched (the message says why and what to do)."""


class DownloadOffline(DownloadError):
    """The server could not be reached (no network, a proxy, ``HF_HUB_OFFLINE``)."""


class DownloadCorrupt(DownloadError):
    """A file arrived with the wrong size or checksum; it was deleted, nothing is kept."""


@dataclass(frozen=True)
class RemoteFile:
    name: str
    size: int | None
    sha256: str | None  # LFS files only


def _offline_message(repo_id: str, exc: BaseException) -> str:
    return (f"Could not reach the Hugging Face Hub to fetch {repo_id} ({type(exc).__name__}). "
            "Check the network connection (or a proxy setting), then try again; a partial "
            "download is kept and resumes. Or open a model folder you already have: "
            "File ▸ Open Encoder….")


def remote_files(repo_id: str, revision: str = "main", *, endpoint: str | None = None) -> list[RemoteFile]:
    """The files of ``repo_id`` an encoder needs (:data:`NEEDED` and those of
    :data:`OPTIONAL` present), with size and (LFS) SHA-256, from the model-info API.

    Raises
    ------
    DownloadOffline
        No connection. 
    DownloadError
        Unknown repository, or one without the :data:`NEEDED` files.
    """
    from huggingface_hub import HfApi
    from huggingface_hub.errors import RepositoryNotFoundError, RevisionNotFoundError

    import httpx2 as httpx  # huggingface_hub's HTTP client

    try:
        info = HfApi(endpoint=endpoint).model_info(repo_id, revision=revision, files_metadata=True)
    except (RepositoryNotFoundError, RevisionNotFoundError) as exc:
        raise DownloadError(f"{repo_id} ({revision}) is not on the Hub: {exc}") from exc
    except (httpx.TransportError, OSError) as exc:
        raise DownloadOffline(_offline_message(repo_id, exc)) from exc
    by_name = {}
    for s in info.siblings or ():
        lfs = getattr(s, "lfs", None)
        by_name[s.rfilename] = RemoteFile(s.rfilename, getattr(s, "size", None),
                                          getattr(lfs, "sha256", None) if lfs else None)
    missing = [n for n in NEEDED if n not in by_name]
    if missing:
        raise DownloadError(f"{repo_id} has no {', '.join(missing)}: it is not an encoder the app "
                            "can run (it needs config.json, model.safetensors and tokenizer.json)")
    return [by_name[n] for n in (*NEEDED, *OPTIONAL) if n in by_name]


def _progress_bar(hook: Callable[[int], None]):
    """A silent ``tqdm`` subclass whose ``update(n)`` calls ``hook(n)`` (bytes received)."""
    from tqdm import tqdm

    class _Bar(tqdm):
        def __init__(self, *args, **kwargs):
            kwargs["disable"] = True
            super().__init__(*args, **kwargs)

        def update(self, n=1):
            hook(int(n or 0))

    return _Bar


def _sha256(path: Path) -> str:
    """SHA-256 of a file, O(size), 4 MiB blocks."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 22), b""):
            h.update(block)
    return h.hexdigest()


def _refuse(path: Path, message: str) -> None:
    """Delete the downloaded file (the snapshot link and its blob) and raise DownloadCorrupt."""
    blob = path.resolve()
    for p in (path, blob):
        try:
            p.unlink()
        except OSError:
            pass
    raise DownloadCorrupt(message)


def download_encoder(
    repo_id: str,
    revision: str = "main",
    *,
    cache_dir=None,
    endpoint: str | None = None,
    progress: Callable[[float], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> Path:
    """Fetch the encoder files of ``repo_id`` into the hub cache; returns the snapshot folder.

    Files already in the cache are not fetched again; a partial file resumes. Cost: the
    bytes not yet in the cache, plus a SHA-256 pass over each LFS file (O(size)).

    Parameters
    ----------
    cache_dir : the hub cache (default :func:`core.hf_cache.hub_cache_dir`).
    endpoint : the Hub's URL (default ``$HF_ENDPOINT``, else huggingface.co).
    progress : callable(fraction 0..1) — bytes received over the files' total.
    should_stop : callable() -> bool — asked as bytes arrive.

    Raises
    ------
    DownloadOffline
        The server could not be reached (the partial file is kept).
    DownloadCorrupt
        A file of the wrong size or SHA-256 (deleted).
    DownloadError
        Unknown repository, or not an encoder.
    core.errors.Cancelled
        ``should_stop()`` returned True (the partial file is kept and resumes next time).
    """
    from huggingface_hub import hf_hub_download
    from huggingface_hub.errors import LocalEntryNotFoundError

    import httpx2 as httpx

    endpoint = endpoint or os.environ.get("HF_ENDPOINT") or None
    cache = Path(cache_dir) if cache_dir is not None else hub_cache_dir()
    files = remote_files(repo_id, revision, endpoint=endpoint)
    total = float(sum(f.size or 0 for f in files)) or 1.0
    done = [0.0]

    def hook(n: int) -> None:
        if should_stop is not None and should_stop():
            raise Cancelled("the download was cancelled; it resumes where it stopped")
        done[0] += n
        if progress is not None:
            progress(min(1.0, done[0] / total))

    folder = None
    for f in files:
        if should_stop is not None and should_stop():
            raise Cancelled("the download was cancelled; it resumes where it stopped")
        try:
            _fetch_blob(repo_id, f, revision, cache, endpoint, hook)
            path = Path(hf_hub_download(repo_id, f.name, revision=revision, cache_dir=str(cache),
                                        endpoint=endpoint, tqdm_class=_progress_bar(hook)))
        except (LocalEntryNotFoundError, httpx.TransportError) as exc:
            raise DownloadOffline(_offline_message(repo_id, exc)) from exc
        except OSError as exc:
            raise DownloadOffline(_offline_message(repo_id, exc)) from exc
        if f.size is not None and path.stat().st_size != f.size:
            _refuse(path, f"{f.name} of {repo_id} is {path.stat().st_size:,} bytes, the Hub lists "
                          f"{f.size:,}; it was deleted. Try again.")
        folder = path.parent if "/" not in f.name else folder
    if progress is not None:
        progress(1.0)
    return folder


RETRIES = 3
"""Dropped connections resumed within one call before giving up (each resumes with Range)."""


def _fetch_blob(repo_id: str, f: RemoteFile, revision: str, cache: Path, endpoint, hook) -> None:
    """Fetch an LFS file into ``blobs/<sha256>`` resumably: bytes go to
    ``blobs/<sha256>.incomplete`` (kept on cancel or a lost connection; the next call asks
    for the rest with ``Range``), then the size and SHA-256 are checked and the file renamed.
    ``hf_hub_download`` then finds the blob and only lays out the snapshot link and refs.
    Small (git) files are left to ``hf_hub_download``. Cost: O(file size).

    Raises DownloadCorrupt (file deleted), Cancelled (partial kept), httpx errors."""
    if not (f.sha256 and _SHA256.match(f.sha256)):
        return
    from huggingface_hub import hf_hub_url
    from huggingface_hub.utils import build_hf_headers, get_session, hf_raise_for_status

    import httpx2 as httpx

    blobs = cache / ("models--" + repo_id.replace("/", "--")) / "blobs"
    blob = blobs / f.sha256
    if blob.is_file():
        return
    blobs.mkdir(parents=True, exist_ok=True)
    part = blobs / f"{f.sha256}.incomplete"
    url = hf_hub_url(repo_id, f.name, revision=revision, endpoint=endpoint)
    for attempt in range(RETRIES + 1):
        have = part.stat().st_size if part.is_file() else 0
        if have:
            hook(have) if attempt == 0 else None
        if f.size is not None and have >= f.size:
            break
        headers = build_hf_headers()
        headers["Accept-Encoding"] = "identity"
        if have:
            headers["Range"] = f"bytes={have}-"
        try:
            with get_session().stream("GET", url, headers=headers, follow_redirects=True,
                                      timeout=30) as r:
                hf_raise_for_status(r)
                mode = "ab" if have and r.status_code == 206 else "wb"
                with open(part, mode) as out:
                    for chunk in r.iter_bytes(1 << 20):
                        hook(len(chunk))
                        out.write(chunk)
            break
        except (httpx.RemoteProtocolError, httpx.ReadError, httpx.ReadTimeout):
            if attempt == RETRIES:
                raise
    size = part.stat().st_size
    if f.size is not None and size != f.size:
        part.unlink(missing_ok=True)
        raise DownloadCorrupt(f"{f.name} of {repo_id} arrived with {size:,} bytes, the Hub lists "
                              f"{f.size:,}; it was deleted. Try again.")
    if _sha256(part) != f.sha256:
        part.unlink(missing_ok=True)
        raise DownloadCorrupt(f"{f.name} of {repo_id} does not match its SHA-256 checksum "
                              f"({f.sha256[:12]}…); it was deleted. Try again.")
    os.replace(part, blob)
