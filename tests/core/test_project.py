"""The README's commands are the ones CI runs."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```sh\n(.+?)\n```", text)


def test_readme_gives_exactly_two_set_up_commands():
    cmds = _readme_commands()
    assert len(cmds) == 2
    assert "subwordscope" in cmds[0]
    assert "pytest" in cmds[1] and "[test]" in cmds[1]


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert _readme_commands()[1] in ci
    assert any("QT_QPA_PLATFORM=offscreen" in line for line in ci)
