"""The README's commands are the ones CI runs."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _readme_blocks() -> list[list[str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [block.splitlines() for block in re.findall(r"```sh\n(.+?)\n```", text, re.DOTALL)]


def _readme_commands() -> list[str]:
    """The project's two commands: the last line of each ``sh`` block (run; test)."""
    return [block[-1] for block in _readme_blocks()]


def test_readme_gives_exactly_two_set_up_commands():
    blocks = _readme_blocks()
    assert len(blocks) == 2
    run, test = _readme_commands()
    assert "subwordscope" in run and "pytest" in test and "[test]" in test
    # before the run command: the system packages Qt needs, then the optional fonts
    system = blocks[0][:-1]
    assert len(system) == 2 and all(line.startswith("sudo apt-get install -y ") for line in system)
    assert "libxcb-cursor0" in system[0] and "libegl1" in system[0] and "optional" in system[1]
    assert len(blocks[1]) == 1


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert _readme_commands()[1] in ci
    assert any("QT_QPA_PLATFORM=offscreen" in line for line in ci)
