"""No import cycles inside ``core`` and ``app``, and no function-level imports hiding one.

Every module of the packages in :data:`ROOTS` is parsed with :mod:`ast` (nothing is
imported). Each ``import`` statement anywhere in a module — at module level, under
``if TYPE_CHECKING:``, or inside a function — is an edge to the module it names:
``import a.b`` and ``from a import b`` resolve to ``a.b`` when that is a module (or package)
of the tree, else to the nearest enclosing one (``from a.b import name`` → ``a.b``); a package
stands for its ``__init__``. Relative imports are resolved against the importing module.

Checked for every module under :data:`CHECKED` (all of ``core`` and ``app``):

- no strongly connected component with more than one module (or a module importing itself);
- no import of a ``core``/``app`` module inside a function, unless a comment on the import
  says it is ``lazy`` (kept for start-up time), e.g. ``import x  # lazy: start-up time``.

Run alone: ``python -m pytest -q tests/core/test_import_cycles.py``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Top-level packages whose modules make up the graph.
ROOTS = ("core", "app")
#: Module prefixes whose cycles and function-level imports fail the test.
CHECKED = ROOTS


@dataclass(frozen=True)
class Edge:
    """``importer`` imports ``target`` at ``line``; ``in_function``: inside a def/lambda."""

    importer: str
    target: str
    line: int
    in_function: bool
    lazy: bool


def module_files(root: Path, packages: tuple[str, ...] = ROOTS) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` file of ``packages`` under ``root``."""
    out: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """``name`` or its nearest enclosing module that is in the tree (None: outside it)."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def _base(importer: str, node: ast.ImportFrom, modules: dict[str, Path]) -> str:
    if not node.level:
        return node.module or ""
    package = importer if modules[importer].name == "__init__.py" else importer.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


class _Imports(ast.NodeVisitor):
    def __init__(self) -> None:
        self.found: list[tuple[ast.AST, list[str], bool]] = []
        self.depth = 0

    def _nested(self, node: ast.AST) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _nested

    def visit_Import(self, node: ast.Import) -> None:
        self.found.append((node, [a.name for a in node.names], self.depth > 0))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        self.found.append((node, [], self.depth > 0))


def import_edges(modules: dict[str, Path]) -> list[Edge]:
    """Every import of a tree module by a tree module (see the module docstring)."""
    edges: list[Edge] = []
    for importer, path in modules.items():
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        visitor = _Imports()
        visitor.visit(ast.parse(source, str(path)))
        for node, names, in_function in visitor.found:
            if isinstance(node, ast.ImportFrom):
                base = _base(importer, node, modules)
                names = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                         for a in node.names]
            span = lines[node.lineno - 1:node.end_lineno]
            lazy = any("lazy" in line.partition("#")[2].lower() for line in span)
            for name in names:
                target = _resolve(name, modules)
                if target is not None:
                    edges.append(Edge(importer, target, node.lineno, in_function, lazy))
    return edges


def strongly_connected(nodes: list[str], edges: list[Edge]) -> list[list[str]]:
    """Tarjan's strongly connected components with a cycle (size > 1, or a self-import)."""
    succ: dict[str, set[str]] = {n: set() for n in nodes}
    for e in edges:
        succ[e.importer].add(e.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(succ[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(succ[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in succ[node]:
                    out.append(sorted(component))
    return out


def cycle_through(component: list[str], edges: list[Edge]) -> list[str]:
    """One concrete cycle inside ``component``, as ``[m0, m1, ..., m0]`` (for the message)."""
    members = set(component)
    succ: dict[str, list[str]] = {m: [] for m in component}
    for e in edges:
        if e.importer in members and e.target in members:
            succ[e.importer].append(e.target)
    start = component[0]
    path, seen = [start], {start}
    while True:
        nxt = next((t for t in sorted(succ[path[-1]]) if t == start or t not in seen), None)
        if nxt is None:  # dead end inside the component: back up
            path.pop()
            continue
        path.append(nxt)
        if nxt == start:
            return path
        seen.add(nxt)


def _checked(module: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in CHECKED)


def test_no_import_cycles():
    modules = module_files(ROOT)
    edges = import_edges(modules)
    bad = [c for c in strongly_connected(sorted(modules), edges) if any(map(_checked, c))]
    assert not bad, "import cycles:\n" + "\n".join(
        f"{' -> '.join(cycle_through(c, edges))}  (all of: {', '.join(c)})" for c in bad)


def test_no_function_level_imports_of_our_modules():
    modules = module_files(ROOT)
    bad = [e for e in import_edges(modules) if e.in_function and not e.lazy
           and _checked(e.importer)]
    assert not bad, "function-level imports (mark a start-up one with a '# lazy' comment):\n" + \
        "\n".join(f"{modules[e.importer].relative_to(ROOT)}:{e.line}: {e.target}" for e in bad)


def test_the_checker_finds_cycles_and_hidden_imports(tmp_path):
    pkg = tmp_path / "core" / "pkg"
    pkg.mkdir(parents=True)
    (tmp_path / "core" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("from core.pkg.a import A\n")
    (pkg / "a.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                              "    from core.pkg.b import B\nA = 1\n")
    (pkg / "b.py").write_text("from . import a\nB = 2\n")
    (pkg / "c.py").write_text("def f():\n    from core.pkg import b\n"
                              "def g():\n    import core.pkg.a  # lazy: start-up time\n")
    modules = module_files(tmp_path, ("core",))
    edges = import_edges(modules)
    assert {(e.importer, e.target) for e in edges} == {
        ("core.pkg", "core.pkg.a"), ("core.pkg.a", "core.pkg.b"), ("core.pkg.b", "core.pkg.a"),
        ("core.pkg.c", "core.pkg.b"), ("core.pkg.c", "core.pkg.a")}
    (component,) = strongly_connected(sorted(modules), edges)
    assert component == ["core.pkg.a", "core.pkg.b"]
    assert cycle_through(component, edges) == ["core.pkg.a", "core.pkg.b", "core.pkg.a"]
    hidden = [(e.target, e.lazy) for e in edges if e.in_function]
    assert sorted(hidden) == [("core.pkg.a", True), ("core.pkg.b", False)]
