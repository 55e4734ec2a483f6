"""How fast does the rules explorer play full games, with 1 and with 2 worker processes?

Run from the repository root:

    python benchmarks/bench_simulation.py                # the full benchmark
    python benchmarks/bench_simulation.py --games 40 --one-worker-games 10  # a quick look

The target (issue 4): 1,000 full 4-player heuristic-bot games (11 rounds each, the
default turn limit) in at most 2 minutes on a 2-core machine, with progress shown.

- 2 workers play all `--games` games (default 1,000) through `explorer.run`, with a
  progress line on stderr; the time is measured, not extrapolated.
- 1 worker plays the first `--one-worker-games` of the same run (default 200) and the
  time for all `--games` is extrapolated from that subset (printed as such). Pass
  `--one-worker-games 1000` to measure it in full.
- The games 1 worker played are checked to be identical to the same games played by 2
  workers (same seed, same facts).

The machine's load average is printed with the results: other processes on a 2-core
machine slow both measurements.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from toonerville import explorer as X  # noqa: E402
from toonerville.explorer_cli import ProgressLine  # noqa: E402

TARGET_SECONDS = 120.0


def timed(arm: X.Arm, games: int, seed: int, workers: int) -> X.Run:
    progress = ProgressLine(sys.stderr, f"{workers} worker{'s' if workers > 1 else ''}")
    return X.run(arm, games, seed, workers, progress=progress)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--one-worker-games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    arm = X.Arm(("heuristic",) * args.players)
    print(f"{args.players} heuristic bots, full games (11 rounds, turn limit "
          f"{arm.turn_limit}), seed {args.seed}, {os.cpu_count()} CPUs, "
          f"load average before {os.getloadavg()[0]:.1f}")

    one = timed(arm, args.one_worker_games, args.seed, 1)
    one_rate = one.games_per_second
    extrapolated = "" if args.one_worker_games == args.games else \
        f" (measured on {one.games_played} games, extrapolated)"
    print(f"1 worker : {one_rate:6.2f} games/s; {args.games} games would take "
          f"{args.games / one_rate:6.1f} s{extrapolated}")

    two = timed(arm, args.games, args.seed, 2)
    two_rate = two.games_per_second
    print(f"2 workers: {two_rate:6.2f} games/s; {two.games_played} games took "
          f"{two.seconds:6.1f} s (measured)")
    print(f"speed-up with 2 workers: {two_rate / one_rate:.2f}×; "
          f"load average after {os.getloadavg()[0]:.1f}")

    same = two.facts[0][:one.games_played] == one.facts[0]
    print(f"the {one.games_played} games played by both are identical: {same}")
    verdict = "meets" if two.seconds <= TARGET_SECONDS * args.games / 1000 else "misses"
    print(f"target: 1,000 games in at most {TARGET_SECONDS:.0f} s with 2 workers — {verdict} "
          f"it ({1000 / two_rate:.0f} s per 1,000 games)")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
