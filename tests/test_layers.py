"""The package's layout is its architecture (docs/layout.md): layers as folders, each
importing only from its own layer and the ones below it; no import circles; no private
name imported from another module.

Every import counts, those inside functions too (a circle hidden in a function's import is
still a circle), except the ones made for type checking only (`if TYPE_CHECKING:`).
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "toonerville"

#: the layers, lowest first: a module may import from its own layer and the ones before it
LAYERS = ("engine", "players", "coach", "explorer", "store", "pages", "serving", "widgets")
#: the package's face (`toonerville/__init__.py`, `__main__.py`) and the build's choice
#: (`buildinfo.py`) sit above every layer and may import any of them
TOP = ("toonerville", "toonerville.__main__", "toonerville.buildinfo")
#: the one import allowed to go up: the engine's values draw themselves in a notebook
#: (`_repr_html_`, python-chess's pattern) with the pictures of pages.render, imported
#: inside the method when a notebook asks
DRAWN_BY_RENDER = {"toonerville.engine.cards", "toonerville.engine.melds",
                   "toonerville.engine.game"}
RENDER = "toonerville.pages.render"


@dataclass(frozen=True)
class Import:
    importer: str  # the module that imports, "toonerville.engine.cards"
    target: str  # the module imported, "toonerville.pages.render"
    names: tuple[str, ...]  # the names taken from it (() for `import x`)
    line: int
    in_function: bool


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def is_module(name: str) -> bool:
    return name in modules()


def imports(path: Path) -> Iterator[Import]:
    """Every import of a package module in `path` (type checking's aside)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(node) for block in ast.walk(tree) if isinstance(block, ast.If)
                   and ast.unparse(block.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")
                   for node in ast.walk(block)}
    in_function = {id(node) for fn in ast.walk(tree)
                   if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef)
                   for node in ast.walk(fn)}
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if not source.startswith("toonerville"):
                continue
            for alias in node.names:  # `from . import cards`: the module cards
                sub = f"{source}.{alias.name}"
                if is_module(sub):
                    yield Import(name, sub, (), node.lineno, id(node) in in_function)
                else:
                    yield Import(name, source, (alias.name,), node.lineno,
                                 id(node) in in_function)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("toonerville"):
                    yield Import(name, alias.name, (), node.lineno, id(node) in in_function)


@functools.cache
def all_imports() -> list[Import]:
    return [imp for path in modules().values() for imp in imports(path)]


def layer(module: str) -> int | None:
    """The layer's place in LAYERS (None for the package's face and build)."""
    parts = module.split(".")
    if module in TOP or len(parts) < 2:
        return None
    return LAYERS.index(parts[1]) if parts[1] in LAYERS else -1


def test_every_module_is_in_a_layer_or_the_package_s_face() -> None:
    loose = [m for m in modules() if m not in TOP and layer(m) == -1]
    assert loose == [], f"modules outside the layers {LAYERS}: {loose}"


def test_the_layers_import_only_downwards() -> None:
    upward = []
    for imp in all_imports():
        mine, theirs = layer(imp.importer), layer(imp.target)
        if mine is None or theirs is None or theirs <= mine:
            continue
        if (imp.importer in DRAWN_BY_RENDER and imp.target == RENDER
                and imp.in_function):
            continue
        upward.append(f"{imp.importer}:{imp.line} imports {imp.target} "
                      f"({LAYERS[mine]} < {LAYERS[theirs]})")
    assert upward == []


def test_the_engine_imports_only_the_standard_library_and_itself() -> None:
    engine = PACKAGE / "engine"
    outside = []
    for path in sorted(engine.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top not in _STDLIB and top not in ("mypy_extensions",):
                    outside.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {name}")
    assert outside == []


_STDLIB = frozenset(__import__("sys").stdlib_module_names) | {"__future__"}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def import_graph() -> dict[str, set[str]]:
    """Module → the package modules it imports (a package's `__init__` included when a
    name is taken from it), the render drawing aside."""
    edges: dict[str, set[str]] = {}
    for imp in all_imports():
        if imp.importer in DRAWN_BY_RENDER and imp.target == RENDER and imp.in_function:
            continue
        if imp.target != imp.importer and imp.importer not in TOP:
            edges.setdefault(imp.importer, set()).add(imp.target)
    return edges


def test_no_import_circles() -> None:
    assert circles(import_graph()) == []


def test_the_circle_finder_finds_one() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_private_name_is_imported_from_another_module() -> None:
    # the gettext function `_` is the message catalogue's public spelling
    private = [f"{imp.importer}:{imp.line} takes {name} from {imp.target}"
               for imp in all_imports() for name in imp.names
               if name.startswith("_") and name != "_" and not name.startswith("__")]
    assert private == []
