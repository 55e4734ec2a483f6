"""Engine figures: full 11-round 4-player heuristic-bot games per second on one core, and
the heuristic bot against the random bot over 200 seeded 4-player games.

    python benchmarks/bench_engine.py [--games 50] [--versus 200]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from toonerville.simulate import simulate  # noqa: E402


def games_per_second(games: int) -> None:
    start = time.perf_counter()
    cpu = time.process_time()
    turns = 0
    for record in simulate(games, bots=("heuristic",) * 4, seed=2026):
        turns += sum(r.turns for r in record.rounds)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"heuristic 4-player games: {games} in {wall:.1f} s wall ({cpu:.1f} s CPU) = "
          f"{games / wall:.2f} games/s wall, {games / cpu:.2f} games/s CPU; "
          f"{turns / games:.0f} turns per game")


def heuristic_versus_random(games: int) -> None:
    """Two heuristic and two random bots per table, seats alternating; a seat's total is
    its score over the 11 rounds (lower is better)."""
    heuristic: list[int] = []
    random_: list[int] = []
    start = time.perf_counter()
    for i, record in enumerate(simulate(games, bots=("heuristic", "random") * 2, seed=7), 1):
        heuristic += [record.totals[0], record.totals[2]]
        random_ += [record.totals[1], record.totals[3]]
        if i % 20 == 0:
            print(f"  {i}/{games} games", file=sys.stderr)
    wall = time.perf_counter() - start
    for name, totals in (("heuristic", heuristic), ("random", random_)):
        mean = statistics.fmean(totals)
        half = 1.96 * statistics.stdev(totals) / len(totals) ** 0.5
        print(f"{name:9s} bot: mean total {mean:7.1f} ± {half:5.1f} (95% CI) over "
              f"{len(totals)} seat-games")
    print(f"({games} games in {wall:.0f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--versus", type=int, default=200)
    args = parser.parse_args()
    games_per_second(args.games)
    heuristic_versus_random(args.versus)


if __name__ == "__main__":
    main()
