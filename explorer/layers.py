"""The package's layers and its import graph, read from the source (``python -m explorer.layers``).

Layers, lowest first; a module may import its own layer and the layers below, never above:

========  =============================================================================
core      ``explorer.core``: distributions, dice, packing, the exact engine, the one error type
scenario  ``explorer.scenario``: fields, the loader, provenance, reports, share links, traces, labs
games     ``explorer.games``: the registry and one package per game
resolver  ``explorer.resolver`` (scenario in, report out), ``explorer.share`` (links), ``explorer.sweep``
charts    ``explorer.charts``: pure functions from results to plotly figures
panels    ``explorer.panels``: ipywidgets, one folder per game plus the shared parts
front     the front ends: ``explorer`` itself, the app, the CLI, the lessons, the server
========  =============================================================================

Every ``import`` counts, at the top of a module, inside a function or under ``TYPE_CHECKING``.
`import_graph` lists them; `circles` finds the strongly connected groups of modules (none
allowed); `upward` the imports that point up a layer; `private_reaches` the imports by charts
and panels of a game's inner modules, and any import of a private (``_``) name of another module.

>>> layer_of("explorer.core.engine.dp"), layer_of("explorer.games.agot_lcg"), layer_of("explorer.cli")
('core', 'games', 'front')
>>> layer_of("explorer.share")
'resolver'
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

__all__ = ["LAYERS", "Import", "circles", "import_graph", "layer_of", "main", "private_reaches", "upward"]

LAYERS = ("core", "scenario", "games", "resolver", "charts", "panels", "front")
"""The layers, lowest first."""

PACKAGE = Path(__file__).resolve().parent

Import = tuple[str, str, tuple[str, ...]]
"""(importing module, imported module, names taken from it)."""


def layer_of(module: str) -> str:
    """The layer of a module of the package (see the module)."""
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else ""
    if top in ("share", "sweep"):
        return "resolver"
    return top if top in LAYERS[:-1] else "front"


def _modules(package: Path = PACKAGE) -> dict[str, Path]:
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _imports_of(module: str, path: Path, modules: Mapping[str, Path]) -> Iterator[Import]:
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield module, alias.name, ()
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")[: len(module.split(".")) - node.level + (1 if is_package else 0)]
                base = ".".join(anchor + ([base] if base else []))
            plain = []
            for alias in node.names:
                full = f"{base}.{alias.name}"
                if full in modules:  # `from package import module`
                    yield module, full, ()
                else:
                    plain.append(alias.name)
            if plain:
                yield module, base, tuple(plain)


def import_graph(package: Path = PACKAGE) -> list[Import]:
    """Every import of one module of the package by another (names resolved to modules)."""
    modules = _modules(package)
    graph = []
    for module, path in modules.items():
        for source, target, names in _imports_of(module, path, modules):
            while target not in modules and "." in target:
                target = target.rsplit(".", 1)[0]
            if target in modules and target != source and target.startswith("explorer"):
                graph.append((source, target, names))
    return graph


def circles(graph: list[Import]) -> list[list[str]]:
    """The groups of modules that import each other, directly or not (Tarjan's algorithm)."""
    edges: dict[str, set[str]] = {}
    for source, target, _ in graph:
        edges.setdefault(source, set()).add(target)
        edges.setdefault(target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(edges) + 100))
    try:
        for v in sorted(edges):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return found


def upward(graph: list[Import]) -> list[Import]:
    """The imports that point up a layer."""
    return [edge for edge in graph if LAYERS.index(layer_of(edge[1])) > LAYERS.index(layer_of(edge[0]))]


def private_reaches(graph: list[Import]) -> list[Import]:
    """Imports by charts and panels of a game's inner modules, and of another package's ``_`` names.

    A game's public face is its package (``explorer.games.<game>``); charts and panels import
    from it only. No module imports a name starting with ``_`` from another module.
    """
    bad = []
    for source, target, names in graph:
        if layer_of(source) in ("charts", "panels") and layer_of(target) == "games":
            if target.count(".") > 2:  # explorer.games.<game>.<module>
                bad.append((source, target, names))
                continue
        if any(n.startswith("_") for n in names):
            bad.append((source, target, tuple(n for n in names if n.startswith("_"))))
    return bad


def main() -> None:
    """Print the packages, their lines, and what each imports of the others, layer by layer."""
    graph = import_graph()
    modules = _modules()
    lines: dict[str, int] = {}
    for module, path in modules.items():
        group = ".".join(module.split(".")[:3]) if module.startswith("explorer.games.") else ".".join(module.split(".")[:2])
        lines[group] = lines.get(group, 0) + len(path.read_text(encoding="utf-8").splitlines())
    uses: dict[str, set[str]] = {}
    for source, target, _ in graph:
        def group_of(m: str) -> str:
            return ".".join(m.split(".")[:3]) if m.startswith("explorer.games.") else ".".join(m.split(".")[:2])
        a, b = group_of(source), group_of(target)
        if a != b:
            uses.setdefault(a, set()).add(b)
    for layer in reversed(LAYERS):
        print(f"[{layer}]")
        for group in sorted(g for g in lines if layer_of(g) == layer):
            print(f"  {group:<42} {lines[group]:>6} lines  -> {', '.join(sorted(uses.get(group, ()))) or '-'}")
    print(f"circles: {circles(graph) or 'none'}; upward imports: {len(upward(graph))}; "
          f"inner or private reaches: {len(private_reaches(graph))}")


if __name__ == "__main__":
    main()
