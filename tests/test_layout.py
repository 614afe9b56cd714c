"""The package layout: imports run one way down the layers (docs/architecture.md).

The import graph is read from the source with `ast`: module-level and function-level imports
both count (a lazy import is still a dependency); imports under `if TYPE_CHECKING:` do not.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator

import pytest

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "mjtools")

# Lowest first. A module may import its own layer and any layer below it, never one above.
# Modules directly in mjtools/ are the base (they import nothing of mjtools but each other),
# except __main__, which is the command line's.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("mjtools", "mjtools.errors", "mjtools.cache", "mjtools.messages", "mjtools.output"),
    ("mjtools.tiles",),
    ("mjtools.analysis",),
    ("mjtools.patterns",),
    ("mjtools.rules",),
    ("mjtools.scoring",),
    ("mjtools.gamelog",),
    ("mjtools.sim",),
    ("mjtools.batch",),
    ("mjtools.explain",),
    ("mjtools.cli", "mjtools.__main__"),
)
MAX_TOP_LEVEL = 6


def modules() -> dict[str, str]:
    out = {}
    for dirpath, _, files in os.walk(ROOT):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, os.path.dirname(ROOT))[:-3].replace(os.sep, ".")
                out[rel.removesuffix(".__init__")] = path
    return out


def _is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in ast.iter_child_nodes(tree):
        if _is_type_checking(node):
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        yield from _imports(node)


def graph() -> dict[str, set[str]]:
    mods = modules()

    def known(name: str) -> str | None:
        while name:
            if name in mods:
                return name
            name = name.rpartition(".")[0]
        return None

    edges: dict[str, set[str]] = {}
    for mod, path in mods.items():
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        package = mod if path.endswith("__init__.py") else mod.rpartition(".")[0]
        found = set()
        for node in _imports(tree):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]
            for t in targets:
                k = known(t) if t.startswith("mjtools") else None
                if k and k != mod:
                    found.add(k)
        edges[mod] = found
    return edges


def layer_of(mod: str) -> int:
    best = None
    for i, prefixes in enumerate(LAYERS):
        for p in prefixes:
            if (mod == p or mod.startswith(p + ".")) and p != "mjtools":
                best = i
    if best is None:
        assert mod.count(".") == 1 or mod == "mjtools", f"{mod} belongs to no layer"
        return 0
    return best


def folder(mod: str) -> str:
    return mod if mod.count(".") == 0 else ".".join(mod.split(".")[:2]) if mod.split(".")[1] in _PACKAGES else "mjtools"


_PACKAGES = {d for d in os.listdir(ROOT) if os.path.isfile(os.path.join(ROOT, d, "__init__.py"))}


def test_every_module_has_a_layer():
    for mod in modules():
        layer_of(mod)


def test_imports_never_go_up_the_layers():
    up = [f"{m} ({LAYERS[layer_of(m)][0]}) imports {t} ({LAYERS[layer_of(t)][0]})" for m, ts in graph().items() for t in sorted(ts) if layer_of(t) > layer_of(m)]
    assert not up, "\n".join(up)


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            node, it = work[-1]
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(edges.get(nxt, ())))))
                    break
                if nxt in on:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == node:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def test_no_import_cycle_spans_two_folders():
    bad = [c for c in _cycles(graph()) if len({folder(m) for m in c}) > 1]
    assert not bad, bad


def test_few_modules_directly_in_the_package():
    top = sorted(f for f in os.listdir(ROOT) if f.endswith(".py"))
    assert len(top) <= MAX_TOP_LEVEL, top


def test_base_modules_import_only_the_base():
    for m, ts in graph().items():
        if layer_of(m) == 0:
            assert all(layer_of(t) == 0 for t in ts), (m, ts)


@pytest.mark.parametrize("pkg", sorted(_PACKAGES))
def test_each_package_says_what_it_holds(pkg):
    with open(os.path.join(ROOT, pkg, "__init__.py"), encoding="utf-8") as f:
        doc = ast.get_docstring(ast.parse(f.read()))
    assert doc, f"mjtools/{pkg}/__init__.py has no docstring"


def test_the_check_finds_a_planted_cycle_and_an_upward_import():
    edges = {"mjtools.tiles.hand": {"mjtools.analysis.fast"}, "mjtools.analysis.fast": {"mjtools.tiles.hand"}}
    assert _cycles(edges) == [["mjtools.analysis.fast", "mjtools.tiles.hand"]]
    assert layer_of("mjtools.analysis.fast") > layer_of("mjtools.tiles.hand")
