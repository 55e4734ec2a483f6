"""One source, two builds (issue 21): the package says which engine runs, TOONERVILLE_PURE=1
forces the pure one, a stale in-place build is never used, and the compiled engine (when
this run has it) answers wrong input, seeded games and the solver exactly as the pure one.

`make test` runs the engine tests twice, with TOONERVILLE_EXPECT_BUILD=compiled and then
with TOONERVILLE_PURE=1 and TOONERVILLE_EXPECT_BUILD=pure, so a run that silently lost its
compiled engine fails here."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import toonerville
from toonerville import buildinfo
from toonerville.__main__ import main

REPO = Path(__file__).resolve().parent.parent


def run_python(code: str, *, pure: bool) -> str:
    """`code` in a fresh interpreter on this checkout, with the pure engine or the default."""
    env = {k: v for k, v in os.environ.items() if k != buildinfo.ENV}
    if pure:
        env[buildinfo.ENV] = "1"
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=REPO,
                          capture_output=True, text=True, check=True)
    return done.stdout


def test_the_run_has_the_build_it_asks_for() -> None:
    expected = os.environ.get("TOONERVILLE_EXPECT_BUILD")
    if not expected:
        pytest.skip("TOONERVILLE_EXPECT_BUILD is not set (make test sets it)")
    assert expected == toonerville.BUILD
    assert toonerville.__build__ == expected


def test_the_build_is_reported_and_matches_the_modules_loaded() -> None:
    from toonerville.engine import cards, solver

    assert toonerville.BUILD in ("compiled", "pure")
    compiled = buildinfo.compiled_modules()
    assert (toonerville.BUILD == "compiled") == ("toonerville.engine.cards" in compiled)
    assert (toonerville.BUILD == "compiled") == ("toonerville.engine.solver.partition" in compiled)
    assert cards.__file__ is not None and solver.partition.__file__ is not None
    assert cards.__file__.endswith(".py") == (toonerville.BUILD == "pure")
    # the boundary stays plain Python in both builds: the game and its moves, the rules,
    # errors, saves, the package itself
    assert not {"toonerville.engine.game", "toonerville.engine.actions",
                "toonerville.engine.rules", "toonerville.engine.errors",
                "toonerville.engine.saves", "toonerville.buildinfo"} & set(compiled)


def test_TOONERVILLE_PURE_forces_the_pure_engine() -> None:
    out = run_python("import toonerville, toonerville.engine.cards as a, "
                     "toonerville.engine.solver.contract as c; "
                     "print(toonerville.BUILD, a.__file__, c.__file__)", pure=True)
    build, cards_file, contract_file = out.split()
    assert build == "pure"
    assert cards_file.endswith("cards.py") and contract_file.endswith("contract.py")


def test_version_says_which_engine_runs(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    line = capsys.readouterr().out
    assert line.startswith("toonerville ")
    assert ("compiled engine (mypyc" in line) == (toonerville.BUILD == "compiled")


def test_a_stale_in_place_build_is_seen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    source = "toonerville/engine/cards.py"
    digest = hashlib.sha256((REPO / source).read_bytes()).hexdigest()
    stamp = tmp_path / "stamp.txt"
    monkeypatch.setattr(buildinfo, "STAMP", stamp)
    assert buildinfo.stale_sources() == []  # no in-place build: nothing is stale
    stamp.write_text(f"{digest}  {source}\n")
    assert buildinfo.stale_sources() == []
    stamp.write_text(f"{'0' * 64}  {source}\n{digest}  {source}\n")
    assert buildinfo.stale_sources() == [source]


def test_the_pure_finder_finds_sources_only() -> None:
    finder = buildinfo.SourceOnlyFinder()
    import toonerville.engine

    spec = finder.find_spec("toonerville.engine.cards", toonerville.engine.__path__)
    assert spec is not None and spec.origin is not None and spec.origin.endswith("cards.py")
    assert finder.find_spec("json", None) is None


def test_wrong_input_gets_the_same_answer_from_both_builds() -> None:
    """Every public entry point, given values of the wrong kind: the engine's own error
    (or the same answer) whichever build runs; never a compiled build's TypeError."""
    sys.path.insert(0, str(REPO / "tests"))
    try:
        from entry_probe import outcomes
    finally:
        sys.path.pop(0)
    here = outcomes()
    pure = json.loads(run_python("import runpy; runpy.run_path('tests/entry_probe.py', "
                                 "run_name='__main__')", pure=True))
    assert pure["build"] == "pure"
    differ = {k: (pure["outcomes"][k], v) for k, v in here.items()
              if pure["outcomes"][k] != v}
    assert differ == {}


SEEDED = """
import hashlib, json
from toonerville import Rules, best_lay_down, find_contract, play_game
games = [play_game(["heuristic"] * 4, seed=s) for s in (1, 2)]
games += [play_game(["random"] * 3, seed=5, rules=Rules(extra_melds=True, penalty_cards=2))]
moves = [" | ".join(a.notation() for a in g.actions) for g in games]
hands = ["R1 R2 R3 R4 Y7 G7 B7 RK", "R5 R6 R8 RK RK Y9 Y9 G9 B2 B3 B4 B5", "G1 G2 G3 G4 G5 G6"]
answers = [str(find_contract(h, r)) + str(best_lay_down(h, r)) for h in hands
           for r in (1, 2, 5, 8, 10)]
print(json.dumps({"totals": [g.totals for g in games],
                  "moves": hashlib.sha256(repr(moves).encode()).hexdigest(),
                  "answers": answers}))
"""


def test_both_builds_play_the_same_games_and_solve_alike() -> None:
    assert json.loads(run_python(SEEDED, pure=False)) == json.loads(
        run_python(SEEDED, pure=True))


def test_the_engines_values_pickle_in_either_build() -> None:
    """The explorer's worker processes (and Dask) send records back pickled: a compiled
    class pickles only through its `__init__` (`__reduce__`)."""
    import pickle

    from toonerville import Card, Meld, best_lay_down
    from toonerville.players.simulate import simulate

    record = next(simulate(1, bots=("heuristic", "random", "random")))
    values = [Card.parse("R7"), Card(None, 0), Meld.parse("R5 R6 RK=R7 R8"),
              Meld.parse("Y9 G9 RK"), record, record.rounds[-1],
              best_lay_down("R1 R2 R3 R4 Y5 G5 B5 R9", 1)]
    for value in values:
        again = pickle.loads(pickle.dumps(value))
        assert again == value and type(again) is type(value)
    assert pickle.loads(pickle.dumps(Card.parse("B14"))) is not None
