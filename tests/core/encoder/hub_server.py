"""A loopback stand-in for the Hugging Face Hub: serves a model folder's files the way the Hub
does for ``huggingface_hub`` (model-info API, ``/resolve/<rev>/<file>`` with ETag,
X-Repo-Commit, Content-Length and Range), with faults to inject. No test touches the network."""

from __future__ import annotations

import hashlib
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlparse

COMMIT = "0123456789abcdef0123456789abcdef01234567"
LFS = ("model.safetensors",)


class Hub:
    """Serves ``files`` (name -> bytes) as repository ``repo_id`` on 127.0.0.1.

    Faults: ``drop_after`` (bytes of model.safetensors sent before the connection is cut,
    once per entry of the list), ``corrupt`` (flip a byte of model.safetensors, same size),
    ``short`` (serve model.safetensors 10 bytes short while the model info and
    X-Linked-Size list its full size)."""

    def __init__(self, repo_id: str, files: dict[str, bytes]):
        self.repo_id, self.files = repo_id, files
        self.drop_after: list[int] = []
        self.corrupt = self.short = False
        self.requests: list[tuple[str, str, str | None]] = []  # (method, path, Range)
        hub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_HEAD(self):
                hub.serve(self, body=False)

            def do_GET(self):
                hub.serve(self, body=True)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()

    def etag(self, name: str) -> str:
        data = self.files[name]
        return hashlib.sha256(data).hexdigest() if name in LFS else hashlib.sha1(data).hexdigest()

    def payload(self, name: str) -> bytes:
        data = self.files[name]
        if name in LFS and self.corrupt:
            data = bytes([data[0] ^ 1]) + data[1:]
        if name in LFS and self.short:
            data = data[:-10]
        return data

    def serve(self, h: BaseHTTPRequestHandler, body: bool) -> None:
        path = unquote(urlparse(h.path).path)
        self.requests.append((h.command, path, h.headers.get("Range")))
        info = f"/api/models/{self.repo_id}/revision/"
        resolve = f"/{self.repo_id}/resolve/"
        if path.startswith(info):
            siblings = []
            for n, d in self.files.items():
                s = {"rfilename": n, "size": len(d), "blobId": hashlib.sha1(d).hexdigest()}
                if n in LFS:
                    s["lfs"] = {"sha256": hashlib.sha256(d).hexdigest(), "size": len(d),
                                "pointerSize": 134}
                siblings.append(s)
            data = json.dumps({"id": self.repo_id, "modelId": self.repo_id, "sha": COMMIT,
                               "private": False, "siblings": siblings}).encode()
            return self.send(h, 200, {"Content-Type": "application/json"}, data, body)
        if not path.startswith(resolve):
            return self.send(h, 404, {"X-Error-Code": "RepoNotFound"}, b"not found", body)
        name = path[len(resolve):].split("/", 1)[1]
        if name not in self.files:
            return self.send(h, 404, {"X-Error-Code": "EntryNotFound", "X-Repo-Commit": COMMIT},
                              b"not found", body)
        data = self.payload(name)
        full = len(self.files[name])
        headers = {"X-Repo-Commit": COMMIT, "ETag": f'"{self.etag(name)}"',
                   "Accept-Ranges": "bytes", "Content-Type": "application/octet-stream"}
        if name in LFS:
            headers["X-Linked-Etag"] = headers["ETag"]
            headers["X-Linked-Size"] = str(full)
        start, status = 0, 200
        rng = h.headers.get("Range")
        if rng and rng.startswith("bytes="):
            start = int(rng[6:].split("-")[0])
            status = 206
            headers["Content-Range"] = f"bytes {start}-{full - 1}/{full}"
        chunk = data[start:]
        if not body:
            headers["Content-Length"] = str(full - start)
            return self.send(h, status, headers, b"", False)
        if name in LFS and self.drop_after:
            headers["Content-Length"] = str(full - start)  # announced whole, then cut
            cut = self.drop_after.pop(0)
            h.send_response(status)
            for k, v in headers.items():
                h.send_header(k, v)
            h.end_headers()
            h.wfile.write(chunk[:cut])
            h.wfile.flush()
            h.close_connection = True
            h.connection.shutdown(2)
            return
        self.send(h, status, headers, chunk, True)

    @staticmethod
    def send(h, status, headers, data, body):
        h.send_response(status)
        if body or "Content-Length" not in headers:  # a HEAD announces the GET's length
            headers = {**headers, "Content-Length": str(len(data))}
        for k, v in headers.items():
            h.send_header(k, v)
        h.end_headers()
        if body:
            h.wfile.write(data)


def model_files(folder: Path) -> dict[str, bytes]:
    """The files a Hub repository of the shared MiniLM would hold."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}
