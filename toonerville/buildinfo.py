"""Which build of the engine runs: the compiled one (C extensions that mypyc made from this
same source, see tools/compile_engine.py) or the pure-Python one.

Owns the choice and the report of it. `toonerville/__init__.py` calls `choose()` before it
imports any engine module, then `report()` tells `BUILD` ("compiled" or "pure").

- `TOONERVILLE_PURE=1` (any value but "" and "0") forces the pure engine: the engine's
  modules are then imported from their .py sources even where extensions sit beside them.
- An in-place build (`make test`) leaves `_compiled_sources.txt` beside the sources, the
  SHA-256 of every compiled module's source: if one no longer matches, the extensions are
  older than the source, and the pure engine runs (with a warning) rather than stale code.
- A wheel's compiled engine has no such record: it runs as installed.

Only the standard library is used; under Pyodide there are no extensions and nothing to do.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

PACKAGE = __name__.rpartition(".")[0]
HERE = Path(__file__).resolve().parent
STAMP = HERE / "_compiled_sources.txt"
ENV = "TOONERVILLE_PURE"

#: why the pure engine was chosen ("" when nothing forced it)
reason = ""


def pure_requested() -> bool:
    return os.environ.get(ENV, "").strip() not in ("", "0")


def stale_sources() -> list[str]:
    """The compiled modules whose source changed since the in-place build ([] if none, or
    if there is no in-place build)."""
    try:
        lines = STAMP.read_text().splitlines()
    except OSError:
        return []
    root = HERE.parent
    stale = []
    for line in lines:
        digest, _, path = line.partition("  ")
        try:
            now = hashlib.sha256((root / path).read_bytes()).hexdigest()
        except OSError:
            now = ""
        if now != digest:
            stale.append(path)
    return stale


class SourceOnlyFinder:
    """Finds the package's modules as .py sources only (with their cached bytecode), never
    as extension modules: installed first on `sys.meta_path` when the pure engine is chosen."""

    def __init__(self) -> None:
        self._finders: dict[str, importlib.machinery.FileFinder] = {}

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if not fullname.startswith(PACKAGE + ".") or not path:
            return None
        for entry in path:
            finder = self._finders.get(entry)
            if finder is None:
                finder = importlib.machinery.FileFinder(
                    entry, (importlib.machinery.SourceFileLoader,
                            importlib.machinery.SOURCE_SUFFIXES))
                self._finders[entry] = finder
            spec = finder.find_spec(fullname, target)
            if spec is not None and spec.loader is not None:
                return spec
        return None


def choose() -> None:
    """Before any engine module is imported: send the imports to the sources if the pure
    engine is asked for, or if the in-place build is stale."""
    global reason
    if pure_requested():
        reason = f"{ENV} is set"
    else:
        stale = stale_sources()
        if stale:
            reason = ("the compiled engine is older than its source "
                      f"({', '.join(stale[:3])}{', ...' if len(stale) > 3 else ''})")
            warnings.warn(f"toonerville: {reason}; the pure engine runs. Rebuild it with "
                          "`python tools/compile_engine.py` (make test does).", stacklevel=3)
    if reason and not any(isinstance(f, SourceOnlyFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, SourceOnlyFinder())


def compiled_modules() -> tuple[str, ...]:
    """The engine modules imported so far that run as compiled extensions."""
    return tuple(sorted(
        name for name, module in list(sys.modules.items())
        if name.startswith(PACKAGE + ".") and isinstance(
            getattr(module, "__loader__", None), importlib.machinery.ExtensionFileLoader)))


def report() -> str:
    """"compiled" when the engine's modules run compiled (the cards, the first of them,
    stand for all: a build compiles them together), else "pure"."""
    return "compiled" if f"{PACKAGE}.engine.cards" in compiled_modules() else "pure"


def describe() -> str:
    """One line for `--version`: which build, and why the pure one if it was chosen."""
    compiled = compiled_modules()
    if report() == "compiled":
        return f"compiled engine (mypyc, {len(compiled)} modules)"
    return "pure-Python engine" + (f" ({reason})" if reason else "")
