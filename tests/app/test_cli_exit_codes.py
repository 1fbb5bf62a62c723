"""``subwordscope --screenshot … --tokenizer BAD`` and ``--text-file BAD``: one line on
stderr naming the typed error, exit code 2, no traceback, never blocked by a FIFO."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT


def _run(tmp_path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen",
               SUBWORDSCOPE_CONFIG_DIR=str(tmp_path / "config"))
    return subprocess.run([sys.executable, "-m", "app", "--screenshot", str(tmp_path / "x.png"),
                           *args], capture_output=True, text=True, timeout=120, env=env,
                          cwd=REPO_ROOT)


def _error_lines(result: subprocess.CompletedProcess) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("subwordscope:")]


def test_deep_json_tokenizer_exits_2_with_one_line(tmp_path):
    bad = tmp_path / "tokenizer.json"
    bad.write_text('{"model": ' + "[" * 100_000 + "]" * 100_000 + "}")
    result = _run(tmp_path, "--tokenizer", str(bad))
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    [line] = _error_lines(result)
    assert line.startswith(f"subwordscope: --tokenizer: {bad}: model[0][0]")
    assert "nested deeper than 128 levels" in line
    assert (tmp_path / "x.png").exists()  # the screenshot shows the banner


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("option,name", [("--tokenizer", "tokenizer.json"),
                                         ("--text-file", "text.txt")])
def test_a_fifo_exits_2_without_blocking(tmp_path, option, name):
    fifo = tmp_path / name
    os.mkfifo(fifo)
    result = _run(tmp_path, option, str(fifo))  # the timeout fails the test if it blocks
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert _error_lines(result) == [
        f"subwordscope: {option}: {fifo}: this is a FIFO (named pipe), not a regular file"]


def test_a_good_run_still_exits_0(tmp_path):
    text = tmp_path / "text.txt"
    text.write_text("hello")
    result = _run(tmp_path, "--text-file", str(text))
    assert result.returncode == 0, result.stderr
    assert not _error_lines(result)
