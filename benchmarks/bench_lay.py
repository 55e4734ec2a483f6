"""How fast are `best_lay_down` and `whole_hand` on the hands play asks them about?

Run from the repository root:

    python benchmarks/bench_lay.py                 # this tree's solver, 20 games
    python benchmarks/bench_lay.py --ref main      # and a git revision's, interleaved
    python benchmarks/bench_lay.py --profile       # cProfile of this tree's replay

It plays `--games` seeded games of 4 heuristic bots (seed `--seed` on), with a recorder
wrapped round `best_lay_down` and `whole_hand` where the engine's callers look them up
(as `solver_diff.py` does), and notes every question. Then it replays the questions
`--repeat` times, by the thread's CPU clock, and prints per row (function, round, and
"best" / "at_most" / "keep" for `best_lay_down`) the calls per game, the median and the
mean, and the ms per game the row costs; the fastest replay of each question is kept.
Before each timed call `find_contract` is asked the same hand, untimed, as the bots do,
so that the time is that of the partition search (`contract_sets` finds the plan kept).
With `--ref`, the revision's solver (loaded as `solver_diff.py` loads it) is timed on
the same questions, A B A B, and both columns are shown.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import time
from collections import defaultdict
from types import ModuleType
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

from solver_diff import Query, load_reference, recording  # noqa: E402

import toonerville.engine.solver as solver  # noqa: E402
from toonerville.players.simulate import play_game  # noqa: E402


def record(games: int, seed: int) -> list[Query]:
    """The `best_lay_down` and `whole_hand` questions of seeded heuristic games."""
    queries: list[Query] = []
    with recording(queries):
        for i in range(games):
            play_game(["heuristic"] * 4, seed=seed + i)
    return [q for q in queries if q[0] != "find_contract"]


def row_of(q: Query) -> tuple[str, int, str]:
    f, r, _, _, kw = q
    kind = "" if f == "whole_hand" else \
        "at_most" if kw.get("at_most") is not None else "keep" if kw.get("keep") else "best"
    return f, r, kind


def replay(module: ModuleType, queries: list[Query]) -> list[int]:
    """CPU ns of each question, `find_contract` asked first, untimed."""
    clock = time.thread_time_ns
    fc = module.find_contract
    calls = {"best_lay_down": module.best_lay_down, "whole_hand": module.whole_hand}
    out = []
    for f, r, hand, rules, kw in queries:
        fc(hand, r, rules)
        call = calls[f]
        start = clock()
        call(hand, r, rules, **kw)
        out.append(clock() - start)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--ref", default=None)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    queries = record(args.games, args.seed)
    if args.profile:
        prof = cProfile.Profile()
        prof.runcall(replay, solver, queries)
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
        return 0
    modules: dict[str, ModuleType] = {"new": solver}
    if args.ref:
        modules = {"ref": load_reference(args.ref), "new": solver}
    best: dict[str, list[int]] = {}
    for _ in range(args.repeat):
        for label, module in modules.items():
            took = replay(module, queries)
            best[label] = took if label not in best else list(map(min, best[label], took))
    rows: dict[tuple[str, int, str], list[int]] = defaultdict(list)
    for i, q in enumerate(queries):
        rows[row_of(q)].append(i)
    labels = list(modules)
    head = "".join(f" {lab + ' med':>9} {lab + ' mean':>9} {lab + ' ms/g':>9}" for lab in labels)
    print(f"{'row':<26} {'calls/g':>7}{head}")
    totals: dict[str, float] = dict.fromkeys(labels, 0.0)
    for key in sorted(rows):
        idx = rows[key]
        cells = ""
        for lab in labels:
            times: list[Any] = [best[lab][i] / 1000 for i in idx]
            per_game = sum(times) / 1000 / args.games
            totals[lab] += per_game
            cells += f" {statistics.median(times):9.1f} {statistics.fmean(times):9.1f}" \
                     f" {per_game:9.2f}"
        name = f"{key[0]} r{key[1]} {key[2]}"
        print(f"{name:<26} {len(idx) / args.games:7.1f}{cells}")
    print("total ms/game: " + ", ".join(f"{lab} {totals[lab]:.2f}" for lab in labels) +
          f"; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
