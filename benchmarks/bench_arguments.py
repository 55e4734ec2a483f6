"""Does checking the public calls' arguments (issue 27) slow the bots down?

Times, by this process's CPU clock, what a bot game spends per decision (heuristic bots
and random bots, whose legal moves are built through `Meld.lay_off` and the solver's
`Meld`s), and the calls that gained a check: `Meld(...)`, `Meld.lay_off` on its fast path
and with a Rook, `check_meld`. Prints the figures and the load average.

Compare two engines by running this script against each, in turn, in fresh processes
(the engine imported is the one first on the path):

    PYTHONPATH=. python benchmarks/bench_arguments.py --games 3
    PYTHONPATH=/path/to/other/tree python benchmarks/bench_arguments.py --games 3

or with `--baseline DIR`, which does exactly that A B A B `--rounds` times and prints the
ratio of the medians (this tree over DIR's).
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

HERE = Path(__file__).resolve().parent.parent


def cpu(fn: object, *args: object) -> float:
    start = time.process_time()
    fn(*args)  # type: ignore[operator]
    return time.process_time() - start


def figures(games: int) -> dict[str, float]:
    import toonerville
    from toonerville import Meld, check_meld, play_game
    from toonerville.engine.cards import Card

    out: dict[str, float] = {}
    moves = 0

    def heuristic() -> None:
        nonlocal moves
        for seed in range(games):
            moves += len(play_game(["heuristic"] * 4, seed=seed).actions)

    seconds = cpu(heuristic)
    out["heuristic_us_per_decision"] = seconds / moves * 1e6
    moves = 0

    def random_bots() -> None:
        nonlocal moves
        for seed in range(games):
            moves += len(play_game(["random"] * 4, seed=seed, turn_limit=60).actions)

    seconds = cpu(random_bots)
    out["random_us_per_decision"] = seconds / moves * 1e6
    run = Meld.parse("R5 R6 RK R8")
    r9, rook, r4 = Card.parse("R9"), Card.parse("RK"), Card.parse("R4")
    n = 100_000

    def lay_off() -> None:
        for _ in range(n):
            run.lay_off(r9)

    def lay_off_rook() -> None:
        for _ in range(n):
            run.lay_off(rook, r4)

    def make() -> None:
        for _ in range(n):
            Meld(run.kind, run.cards, run.colour, run.low)

    def check() -> None:
        for _ in range(n // 10):
            check_meld("R5 R6 RK R8")

    out["lay_off_ns"] = cpu(lay_off) / n * 1e9
    out["lay_off_rook_ns"] = cpu(lay_off_rook) / n * 1e9
    out["meld_ns"] = cpu(make) / n * 1e9
    out["check_meld_us"] = cpu(check) / (n // 10) * 1e6
    out["build"] = toonerville.BUILD  # type: ignore[assignment]
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=3)
    p.add_argument("--baseline", type=Path, help="another tree: compare in turn with it")
    p.add_argument("--rounds", type=int, default=5)
    args = p.parse_args()
    if args.baseline is None:
        print(json.dumps(figures(args.games)))
        return
    print(f"load average at start: {os.getloadavg()}", flush=True)
    runs: dict[str, list[dict[str, float]]] = {"this": [], "baseline": []}
    for _ in range(args.rounds):
        for name, tree in (("this", HERE), ("baseline", args.baseline)):
            env = {**os.environ, "PYTHONPATH": str(tree)}
            text = subprocess.run([sys.executable, __file__, "--games", str(args.games)],
                                  env=env, capture_output=True, text=True, check=True).stdout
            runs[name].append(json.loads(text.strip().splitlines()[-1]))
    builds = {name: {r["build"] for r in rs} for name, rs in runs.items()}
    print(f"builds: {builds}")
    for key in runs["this"][0]:
        if key == "build":
            continue
        a = statistics.median(r[key] for r in runs["this"])
        b = statistics.median(r[key] for r in runs["baseline"])
        print(f"{key:28s} this {a:10.2f}  baseline {b:10.2f}  ratio {a / b:5.3f}")
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
