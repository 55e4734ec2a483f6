"""The package's public names, and the direction of the engine's imports."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import toonerville
from toonerville.engine import errors

PACKAGE = Path(toonerville.__file__).parent
ENGINE = PACKAGE / "engine"

#: names that notebooks, saved games' code and other people's code import from the package
PUBLIC = ("Game", "Phase", "Meld", "actions", "shoe", "deck", "play_game", "simulate",
          "MasterSheet", "places", "round_scores", "seat_tables", "Event", "Rules",
          "find_contract", "best_lay_down", "HeuristicBot")


def test_the_names_in_use_are_importable_from_the_package() -> None:
    missing = [name for name in PUBLIC if not hasattr(toonerville, name)]
    assert not missing
    assert [name for name in toonerville.__all__ if not hasattr(toonerville, name)] == []


def test_every_error_type_is_importable_from_the_package() -> None:
    kinds = [name for name, kind in inspect.getmembers(errors, inspect.isclass)
             if issubclass(kind, Exception) and kind.__module__ == errors.__name__]
    assert len(kinds) > 10
    assert [name for name in kinds if getattr(toonerville, name, None) is None] == []


def _runtime_imports(module: str) -> set[str]:
    """The package modules the engine module `module` imports when it runs (anywhere in
    it, functions included), leaving out imports made for type checking only."""
    tree = ast.parse((ENGINE / f"{module}.py").read_text(encoding="utf-8"))
    typing_only = {id(node) for block in ast.walk(tree) if isinstance(block, ast.If)
                   and ast.unparse(block.test) == "TYPE_CHECKING"
                   for node in ast.walk(block)}
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only or not isinstance(node, ast.ImportFrom) or not node.level:
            continue
        if node.module:
            found.add(node.module.split(".")[0])
        else:
            found.update(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize("client", ["legal", "saves", "seating", "scoring", "turn",
                                    "buying", "melding", "rounds", "state"])
def test_the_game_s_helpers_never_import_the_game(client: str) -> None:
    # the imports run one way: the game uses these, and none of them imports it back
    # (a circle hidden in a function's import is still a circle)
    assert "game" not in _runtime_imports(client)


def test_the_import_check_sees_imports_inside_functions() -> None:
    assert "tournament" not in _runtime_imports("scoring")
    assert "pages" in _runtime_imports("game")  # `_repr_html_` imports render when asked
