"""`core` stays free of Qt and of the app (napari-style contract, checked two ways)."""

from __future__ import annotations

import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import core

ROOT = Path(__file__).resolve().parents[2]


def test_importing_all_of_core_loads_no_qt():
    names = [m.name for m in pkgutil.walk_packages(core.__path__, "core.")]
    code = (
        "import importlib, sys\n"
        f"for n in {names!r}: importlib.import_module(n)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph', 'app', 'shiboken6')]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
    assert len(names) >= 4


def test_import_linter_contract():
    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.skip("import-linter is not installed (it comes with the [test] extra)")
    out = subprocess.run([exe], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
