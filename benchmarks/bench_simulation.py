"""How fast does the rules explorer play full games, with 1 and with 2 worker processes,
and does a worker's memory stay bounded over a long run?

Run from the repository root:

    python benchmarks/bench_simulation.py                      # the full benchmark
    python benchmarks/bench_simulation.py --games 40 --compare-games 20 --block 10  # quick

The target (issue 12): 1,000 full 4-player heuristic-bot games (11 rounds each, the
default turn limit) in at most 60 s with 2 workers on this 2-core machine.

1. 2 workers play all `--games` games through `explorer.play_games` (a fresh local pool,
   as the command line uses it), with a tqdm progress bar on stderr: measured, not
   extrapolated.
2. The 1-against-2-worker figure is measured on the same games, interleaved: the first
   `--compare-games` games are cut into blocks of `--block`; every block is played by a
   1-worker pool and by a 2-worker pool (both started once and warmed up), alternating
   which goes first, so a change in the machine's load falls on both alike. The facts
   both pools found are checked to be identical.
3. The resident memory (RSS) of each 2-worker process is read from /proc after every
   block and at the end of the long run; it should level off, not grow (the solver's
   caches have size limits).

The load average (/proc/loadavg) is printed before and after: other processes on a
2-core machine slow every measurement.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from toonerville import explorer as X  # noqa: E402
from toonerville.explorer.cli import ProgressBar  # noqa: E402

TARGET_SECONDS = 25.0  # issue 21 (the compiled engine); issue 12 asked for 60


def loadavg() -> str:
    with open("/proc/loadavg", encoding="ascii") as f:
        return f.read().strip()


def rss_mb(pool: ProcessPoolExecutor) -> list[float]:
    """Resident memory of each worker process of `pool`, in MB (Linux /proc)."""
    sizes = []
    for pid in sorted(pool._processes or {}):  # noqa: SLF001 - a benchmark may look inside
        try:
            with open(f"/proc/{pid}/status", encoding="ascii") as f:
                kb = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
            sizes.append(kb / 1024)
        except (OSError, StopIteration):
            pass
    return sizes


def interleaved(arm: X.Arm, games: int, block: int, seed: int) -> tuple[float, float, bool,
                                                                         list[str]]:
    """Seconds for 1 and for 2 workers over the same games, block by block, and whether
    their facts agree; plus the 2-worker pool's RSS after each block."""
    context = get_context("spawn")
    seconds = {1: 0.0, 2: 0.0}
    facts: dict[int, list[X.GameFacts]] = {1: [], 2: []}
    memory = []
    with ProcessPoolExecutor(1, mp_context=context) as one, \
            ProcessPoolExecutor(2, mp_context=context) as two:
        pools = {1: one, 2: two}
        for pool in (one, two):  # start and warm up every process: imports, first game
            list(pool.map(X.play_facts, [arm] * 2, [seed + 1] * 2, [0, 1]))
        for k, start in enumerate(range(0, games, block)):
            count = min(block, games - start)
            for workers in ((1, 2) if k % 2 == 0 else (2, 1)):
                began = time.perf_counter()
                part = [f for _, fs in pools[workers].map(
                    X.play_chunk, [0] * count, [arm] * count, [seed] * count,
                    range(start, start + count), [1] * count) for f in fs]
                seconds[workers] += time.perf_counter() - began
                facts[workers] += part
            memory.append(f"{start + count} games: " + " / ".join(
                f"{m:.0f}" for m in rss_mb(two)))
    return seconds[1], seconds[2], facts[1] == facts[2], memory


def long_run(arm: X.Arm, games: int, seed: int
             ) -> tuple[X.Simulation, list[float], list[str]]:
    """All the games on 2 workers, as `play_games` plays them, the workers' RSS at the
    end (read from a pool the run is given), and their RSS every tenth of the run."""
    context = get_context("spawn")
    bar = ProgressBar(sys.stderr, "2 workers")
    step = max(1, games // 10)
    samples: list[str] = []
    with ProcessPoolExecutor(2, mp_context=context) as pool:

        def progress(done: int, total: int) -> None:
            bar(done, total)
            if done >= step * (len(samples) + 1):
                samples.append(f"{done}: " + "/".join(f"{m:.0f}" for m in rss_mb(pool)))

        began = time.perf_counter()
        sim = X.play_games(arm, games, seed, workers=2, progress=progress, executor=pool)
        elapsed = time.perf_counter() - began
        memory = rss_mb(pool)
    bar.close()
    return X.Simulation(sim.arms, sim.games, sim.seed, sim.facts, sim.cancelled, elapsed, 2,
                        "2 local processes"), memory, samples


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games of the long run")
    parser.add_argument("--compare-games", type=int, default=200,
                        help="games played by both 1 and 2 workers, interleaved")
    parser.add_argument("--block", type=int, default=20, help="games per interleaved block")
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    arm = X.Arm(("heuristic",) * args.players)
    print(f"{args.players} heuristic bots, full games (11 rounds, turn limit "
          f"{arm.turn_limit}), seed {args.seed}, {os.cpu_count()} CPUs")
    print(f"load average before: {loadavg()}")

    sim, memory, samples = long_run(arm, args.games, args.seed)
    print(f"2 workers: {sim.games_played} games in {sim.seconds:.1f} s "
          f"({sim.games_per_second:.2f} games/s), measured; load average {loadavg()}")
    print("2 workers' RSS at the end of the long run (MB): "
          + " / ".join(f"{m:.0f}" for m in memory))
    print("2 workers' RSS during the long run (games done: MB per worker): "
          + "; ".join(samples))
    verdict = "meets" if sim.seconds * 1000 / max(1, sim.games_played) <= TARGET_SECONDS \
        else "misses"
    per_1000 = (f"{1000 / sim.games_per_second:.0f} s per 1,000 games"
                if sim.games_per_second > 0 else "no game played")
    print(f"target: 1,000 games in at most {TARGET_SECONDS:.0f} s with 2 workers — {verdict} "
          f"it ({per_1000})")

    n = args.compare_games
    if n <= 0:  # nothing to compare: say so rather than divide by nothing
        print("no comparison of 1 and 2 workers (--compare-games 0)")
        same = True
    else:
        one, two, same, rss = interleaved(arm, n, max(1, args.block), args.seed)
        print(f"the same {n} games, interleaved in blocks of {args.block}: 1 worker "
              f"{one:.1f} s ({n / one:.2f} games/s), 2 workers {two:.1f} s "
              f"({n / two:.2f} games/s); speed-up {one / two:.2f}×")
        print(f"identical facts from 1 and 2 workers: {same}")
        print("2 workers' RSS after each block (MB): " + "; ".join(rss))
    print(f"load average after: {loadavg()}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
