"""The engine's documented examples run as tests: `docs/engine.md` (the public API in
examples, as python-chess and pokerkit document theirs) and every `>>>` example in an
engine module's docstrings. Both run in each build the test command runs; a compiled
module keeps no Python docstrings to search, so its examples are run from the source."""

from __future__ import annotations

import ast
import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import toonerville

ROOT = Path(__file__).resolve().parent.parent
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def test_the_engine_guide_runs_as_written() -> None:
    result = doctest.testfile(str(ROOT / "docs" / "engine.md"), module_relative=False,
                              optionflags=FLAGS, verbose=False, report=True)
    assert result.attempted >= 25, "docs/engine.md lost its examples"
    assert result.failed == 0, "docs/engine.md: an example no longer shows what it says"


def engine_modules_with_examples() -> list[str]:
    """The engine's modules (all but the widgets, serving and the store) whose source has
    a `>>>` example."""
    skip = ("toonerville.widgets", "toonerville.serving", "toonerville.store")
    names = []
    for info in pkgutil.walk_packages(toonerville.__path__, "toonerville."):
        path = ROOT / (info.name.replace(".", "/") + ("/__init__.py" if info.ispkg else ".py"))
        if not info.name.startswith(skip) and ">>>" in path.read_text(encoding="utf-8"):
            names.append(info.name)
    return names


def docstrings(source: str) -> list[tuple[ast.AST, str]]:
    """Every docstring in a module's source, with the node it documents."""
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    return [(node, doc) for node in ast.walk(ast.parse(source))
            if isinstance(node, kinds) and (doc := ast.get_docstring(node)) and ">>>" in doc]


@pytest.mark.parametrize("name", engine_modules_with_examples())
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    source = Path(module.__file__ or "")
    if source.suffix != ".py":  # compiled: parse the examples from the module's source
        source = source.with_name(source.name.split(".")[0] + ".py")
    text = source.read_text(encoding="utf-8")
    parser = doctest.DocTestParser()
    if source == Path(module.__file__ or ""):
        tests = doctest.DocTestFinder(parser=parser).find(module, globs=dict(vars(module)))
    else:
        tests = [parser.get_doctest(doc, dict(vars(module)), f"{name}:{getattr(node, 'lineno', 0)}",
                                    str(source), getattr(node, "lineno", 0))
                 for node, doc in docstrings(text)]
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for test in tests:
        runner.run(test)
    assert runner.summarize(verbose=False).attempted > 0, f"{name}: no example was run"
    assert runner.summarize(verbose=False).failed == 0, f"{name}: a docstring example fails"
