"""Every pane has the same shape: its state module loads no Qt, it runs alone
(``python -m app.panes.<name>``), and the import rules between the main window, the panes,
the widgets and the workers hold (checked over the source with ``ast``)."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest
import shiboken6
from PySide6.QtWidgets import QApplication

import app.panes.base as base
from app.panes.base import Pane
from app.settings import open_settings, state_file

PANES = ("alignment", "merges", "positions", "pooling", "compare", "retrieval")
REPO = Path(__file__).resolve().parents[3]
APP = REPO / "app"
QT = ("PySide6", "shiboken6", "pyqtgraph")


@pytest.mark.parametrize("name", PANES)
def test_state_module_loads_no_qt(name):
    code = (f"import sys, app.panes.{name}.state\n"
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {QT!r}))")
    run = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]", f"importing app.panes.{name}.state loaded {run.stdout}"


class _RunningApp:
    """Stands in for the ``QApplication`` of :func:`app.panes.base.run_alone`: the test's
    application is already running, and ``exec`` returns at once with the panes shown."""

    def __init__(self) -> None:
        self.shown: list[Pane] = []

    def instance(self) -> _RunningApp:
        return self

    def exec(self) -> int:
        self.shown = [w for w in QApplication.topLevelWidgets() if isinstance(w, Pane) and w.isVisible()]
        return 0


@pytest.mark.parametrize("name", PANES)
def test_each_pane_runs_alone(name, qtbot, monkeypatch):
    running = _RunningApp()
    monkeypatch.setattr(base, "QApplication", running)
    main = importlib.import_module(f"app.panes.{name}.__main__").main
    package = importlib.import_module(f"app.panes.{name}")
    (cls_name,) = package.__all__
    pane_cls = getattr(package, cls_name)  # the package's face: the pane class
    try:
        assert main() == 0
        (pane,) = running.shown
        assert type(pane) is pane_cls and pane.key == name
        assert pane.windowTitle() == f"Subword Scope — {pane.title}"
        settings = open_settings()  # the pane saved its state on exit (big ones in state.json)
        assert name in settings.childGroups() or state_file(settings).has(f"{name}/state")
    finally:
        for pane in running.shown:
            shiboken6.delete(pane)  # at once: no timer of the pane may fire after the test


# -- import rules (the lead's import-linter contracts say the same; these name the file) ---
def _modules() -> dict[str, Path]:
    out = {}
    for path in APP.rglob("*.py"):
        parts = list(path.relative_to(REPO).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _imports(module: str) -> list[tuple[str, ast.AST, bool]]:
    """``(imported module, node, at module level)`` for every import in ``module``; ``from
    package import name`` counts as importing ``package.name`` when that is a module."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = set(map(id, tree.body))
    for node in tree.body:  # ``if TYPE_CHECKING:`` blocks count as module level
        if isinstance(node, ast.If):
            top.update(map(id, node.body))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, node, id(node) in top) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base_name = node.module or ""
            if node.level:
                base_name = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1]
                                     + ([base_name] if base_name else []))
            for a in node.names:
                full = f"{base_name}.{a.name}"
                out.append((full if full in MODULES else base_name, node, id(node) in top))
    return out


def _pane_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["app", "panes"] and parts[2] in PANES else None


def test_panes_never_import_each_other_or_the_main_window():
    bad = []
    for module in MODULES:
        pane = _pane_of(module)
        if pane is None:
            continue
        for target, node, _ in _imports(module):
            other = _pane_of(target)
            if (other is not None and other != pane) or target.startswith("app.main_window"):
                bad.append(f"{MODULES[module].relative_to(REPO)}:{node.lineno} imports {target}")
    assert bad == []


def test_widgets_and_workers_import_no_pane_and_no_main_window():
    bad = [f"{MODULES[m].relative_to(REPO)}:{node.lineno} imports {target}"
           for m in MODULES if m.startswith(("app.widgets", "app.workers", "app.settings"))
           for target, node, _ in _imports(m)
           if target.startswith(("app.panes", "app.main_window"))]
    assert bad == []


def test_function_level_imports_say_why():
    """A function-level import is allowed only when a comment on its line says it is lazy."""
    bad = []
    for module, path in MODULES.items():
        lines = path.read_text(encoding="utf-8").splitlines()
        for target, node, at_top in _imports(module):
            if not at_top and "lazy" not in lines[node.lineno - 1]:
                bad.append(f"{path.relative_to(REPO)}:{node.lineno} imports {target} in a function")
    assert bad == []


def test_no_import_cycles_in_the_app():
    graph = {m: {t for t, _, _ in _imports(m) if t in MODULES and t != m} for m in MODULES}
    cycles, state = [], {}

    def visit(m, stack):
        state[m] = "open"
        stack.append(m)
        for t in sorted(graph[m]):
            if state.get(t) == "open":
                cycles.append(stack[stack.index(t):] + [t])
            elif t not in state:
                visit(t, stack)
        stack.pop()
        state[m] = "done"

    for m in sorted(MODULES):
        if m not in state:
            visit(m, [])
    assert cycles == []


def test_main_window_imports_the_panes_statically():
    from app.main_window import PANES as WINDOW_PANES

    assert [name for name, _ in WINDOW_PANES] == list(PANES)
    targets = {t for t, _, top in _imports("app.main_window") if top}
    assert {f"app.panes.{name}" for name in PANES} <= targets
    assert not any(t.startswith("importlib") for t, _, _ in _imports("app.main_window"))
