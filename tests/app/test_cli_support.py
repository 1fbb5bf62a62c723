"""Helpers for the command-line tests (no tests here): running ``python -m app <subcommand> …``
in a subprocess, and small corpora for it."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

from resources import RESOURCES_DIR
from tests.conftest import REPO_ROOT

SAMPLE = RESOURCES_DIR / "udhr_sample"


def run_cli(*args: str, stdin: str | bytes | None = None, env: dict | None = None,
            timeout: float = 120) -> subprocess.CompletedProcess:
    """``python -m app ARGS`` from the repository root; stdout/stderr as text."""
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    result = subprocess.run([sys.executable, "-m", "app", *args], input=data, capture_output=True,
                            timeout=timeout, cwd=REPO_ROOT, env={**os.environ, **(env or {})})
    result.stdout = result.stdout.decode("utf-8")
    result.stderr = result.stderr.decode("utf-8")
    return result


def run_json(*args: str, **kw):
    """The parsed JSON output of a run that must succeed."""
    result = run_cli(*args, "--format", "json", **kw)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def error_line(result: subprocess.CompletedProcess) -> str:
    """The one ``subwordscope:`` line of a failed run (exit 2, no traceback)."""
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    [line] = [ln for ln in result.stderr.splitlines() if ln.startswith("subwordscope:")]
    return line


def small_corpus(folder: Path, languages=("eng", "hin", "tha", "jpn"), lines: int = 4) -> Path:
    """A corpus folder with the first ``lines`` lines of some UDHR sample languages."""
    folder.mkdir(parents=True, exist_ok=True)
    for code in languages:
        text = (SAMPLE / f"{code}.txt").read_text(encoding="utf-8")
        (folder / f"{code}.txt").write_text("\n".join(text.splitlines()[:lines]) + "\n", encoding="utf-8")
    return folder


def run_here(capsys, monkeypatch, *args: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess:
    """The same run in this process (no interpreter start-up: for the many small cases)."""
    from app.__main__ import main

    if stdin is not None:
        data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    try:
        code = main(list(args))
    except SystemExit as exc:  # argparse: --help, bad arguments
        code = exc.code
    captured = capsys.readouterr()
    return subprocess.CompletedProcess(list(args), code, captured.out, captured.err)
