"""What the compiled build (tools/compile_engine.py, mypyc) needs to know about a class,
said in the source without making the pure engine depend on anything.

`mypyc_attr` is mypy_extensions' class marker when that package is installed (it comes with
mypy), else a decorator that does nothing: the pure engine, under Pyodide too, runs on the
standard library alone. Its uses: `allow_interpreted_subclasses=True` on a class whose
objects are made with `Cls.__new__(Cls)` (a copy that skips `__init__`), which a compiled
class allows only then; `acyclic=True` on a class whose objects never take part in a
reference cycle (the cyclic collector then does not track them: a game keeps thousands of
positions); `free_list_len=1` on one made and freed at every decision (a freed object is
reused). None of them changes what the code does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # no mypy here: the marker only matters to the compiler
    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[T], T]:
        return lambda cls: cls

__all__ = ["mypyc_attr"]
