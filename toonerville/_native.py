"""What the compiled build (tools/compile_engine.py, mypyc) needs to know about a class,
said in the source without making the pure engine depend on anything.

`mypyc_attr` is mypy_extensions' class marker when that package is installed (it comes with
mypy), else a decorator that does nothing: the pure engine, under Pyodide too, runs on the
standard library alone. The one use so far: `allow_interpreted_subclasses=True` on a class
whose objects are made with `Cls.__new__(Cls)` (a copy that skips `__init__`), which a
compiled class allows only then.
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
