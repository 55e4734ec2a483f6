"""CPU time per player decision in random-bot playouts: this engine, compiled and pure,
against OpenSpiel's gin rummy (C++, driven from Python).

Run from the repository root (after `python tools/compile_engine.py` for the compiled side):

    python benchmarks/bench_openspiel.py                 # 5 rounds of A B C (about a minute)
    python benchmarks/bench_openspiel.py --rounds 3 --ours-games 1 --openspiel-games 100

Ours: `toonerville.play_game` with four "random" bots, a new seed for every game; a
decision is one action the game applied (`len(game.actions)`); "compiled" is the default
import (its `toonerville.BUILD` is checked), "pure" runs with TOONERVILLE_PURE=1.
OpenSpiel: `open_spiel` from PyPI, `pyspiel.load_game("gin_rummy")`, each seat picking
uniformly among `state.legal_actions()` with Python's `random`, chance outcomes drawn by
their probabilities; a decision is one player action (chance steps are not counted, but
their cost is in the CPU time, as the deal is in ours).

OpenSpiel lives in its own virtual environment, which this script creates on first use
(`--venv`, default `benchmarks/.venv-openspiel`, git-ignored) with `open_spiel` from PyPI.
Each measurement runs in a fresh process (this file again, with `--worker`), the sides
interleaved A B C A B C ... so that a change in the machine's load hits all alike; a
worker plays one warm-up game, then measures the process CPU time (`time.process_time`)
of its games only, not of its imports. The script prints every round, each side's median
microseconds per decision, the ratios to OpenSpiel (at most 1 means ours is as fast or
faster) and the load average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from peer_venv import ensure_peer

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OPENSPIEL = "open_spiel==2.0.2"
DEFAULT_VENV = HERE / ".venv-openspiel"


# -- the workers (each runs in a process of its own) --------------------------------------
def work_ours(games: int, seed: int) -> dict[str, float | str]:
    sys.path.insert(0, str(ROOT))
    import toonerville
    from toonerville import play_game

    play_game(["random"] * 4, seed=seed - 1)  # warm-up, not measured
    decisions = 0
    start = time.process_time()
    for i in range(games):
        decisions += len(play_game(["random"] * 4, seed=seed + i).actions)
    return {"cpu": time.process_time() - start, "decisions": decisions,
            "build": toonerville.BUILD}


def work_openspiel(games: int, seed: int) -> dict[str, float | str]:
    import random

    import pyspiel

    rng = random.Random(seed)
    game = pyspiel.load_game("gin_rummy")

    def playout() -> int:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
        return decisions

    playout()  # warm-up, not measured
    decisions = 0
    start = time.process_time()
    for _ in range(games):
        decisions += playout()
    return {"cpu": time.process_time() - start, "decisions": decisions, "build": "C++"}


# -- the driver ---------------------------------------------------------------------------
def measure(python: Path | str, side: str, games: int, seed: int,
            pure: bool = False) -> dict[str, float | str]:
    env = {k: v for k, v in os.environ.items() if k != "TOONERVILLE_PURE"}
    if pure:
        env["TOONERVILLE_PURE"] = "1"
    out = subprocess.run([str(python), str(Path(__file__).resolve()), "--worker", side,
                          "--games", str(games), "--seed", str(seed)],
                         capture_output=True, text=True, check=True, cwd=ROOT, env=env)
    result: dict[str, float | str] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def loadavg() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="A B C rounds to measure")
    parser.add_argument("--ours-games", type=int, default=2,
                        help="4-player random-bot games per measurement of ours")
    parser.add_argument("--openspiel-games", type=int, default=200,
                        help="gin rummy games per measurement of OpenSpiel's")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--no-pure", action="store_true", help="leave out the pure engine")
    parser.add_argument("--venv", type=Path, default=DEFAULT_VENV,
                        help="where OpenSpiel's virtual environment is (made if missing)")
    parser.add_argument("--worker", choices=("ours", "openspiel"), help=argparse.SUPPRESS)
    parser.add_argument("--games", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.worker:
        work = work_ours if args.worker == "ours" else work_openspiel
        print(json.dumps(work(args.games, args.seed)))
        return 0

    os_python = ensure_peer(args.venv, OPENSPIEL, "OpenSpiel")
    sides: list[tuple[str, Path | str, str, int, bool]] = [
        ("compiled", sys.executable, "ours", args.ours_games, False)]
    if not args.no_pure:
        sides.append(("pure", sys.executable, "ours", args.ours_games, True))
    sides.append(("openspiel", os_python, "openspiel", args.openspiel_games, False))
    print(f"random bots, CPU time per decision: ours = 4-player toonerville "
          f"({args.ours_games} games a run), OpenSpiel = {OPENSPIEL} gin_rummy "
          f"({args.openspiel_games} games a run); {args.rounds} rounds, in turn")
    print(f"load average before: {loadavg()}")
    per: dict[str, list[float]] = {name: [] for name, *_ in sides}
    for r in range(args.rounds):
        seed = args.seed + 1000 * r
        line = [f"round {r + 1}:"]
        for name, python, worker, games, pure in sides:
            got = measure(python, worker, games, seed, pure)
            if worker == "ours" and got["build"] != ("pure" if pure else "compiled"):
                raise SystemExit(f"the {name} side ran the {got['build']} engine: build it "
                                 "with `python tools/compile_engine.py` first")
            us = 1e6 * float(got["cpu"]) / float(got["decisions"])
            per[name].append(us)
            line.append(f"{name} {us:6.1f} us ({int(got['decisions'])} decisions)")
        print("  ".join(line), flush=True)
    medians = {name: statistics.median(v) for name, v in per.items()}
    print("median us/decision: " + ", ".join(f"{k} {v:.1f}" for k, v in medians.items()))
    theirs = medians["openspiel"]
    for name in medians:
        if name != "openspiel":
            ratio = medians[name] / theirs
            print(f"ratio {name} / OpenSpiel = {ratio:.2f}"
                  + (f" ({'PASS' if ratio <= 1 else 'FAIL'}: target <= 1)"
                     if name == "compiled" else ""))
    print(f"load average after: {loadavg()} ({os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
