"""A sweep of 8 house-rule configurations on a local Dask cluster of 2 workers, beside
the local process pool for the same work.

Run from the repository root (the lead runs the full size; `--games` makes it small):

    python benchmarks/bench_sweep.py                 # 8 configurations × 500 games
    python benchmarks/bench_sweep.py --games 10      # a quick look

The sweep is penalty_cards=0,1 × max_buys_per_round=none,3 × round11_deal=12,14 with 4
heuristic bots. Both runs play the same games (the same seed); their facts are checked
to be identical. The Dask cluster is `distributed.LocalCluster(n_workers=2,
threads_per_worker=1, processes=True)`: a scheduler and two worker processes on this
machine, reached over TCP like a remote one. The two take turns, block by block of
`--block` configurations (which goes first alternates), so that the machine's load
falls on both alike. The time of each includes starting it (a pool's processes for
every block; the cluster's scheduler and workers once). The load average
(/proc/loadavg) is printed with the results.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from toonerville import explorer as X  # noqa: E402
from toonerville.explorer.cli import ProgressBar  # noqa: E402

SWEEP = ["penalty_cards=0,1", "max_buys_per_round=none,3", "round11_deal=12,14"]


def loadavg() -> str:
    with open("/proc/loadavg", encoding="ascii") as f:
        return f.read().strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500, help="games per configuration")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--block", type=int, default=2,
                        help="configurations per block (pool and Dask take turns)")
    args = parser.parse_args(argv)
    from distributed import LocalCluster

    arms = X.sweep_arms(X.Arm(("heuristic",) * args.players), X.parse_sweep(SWEEP))
    total = len(arms) * args.games
    print(f"{len(arms)} configurations × {args.games} games = {total} games "
          f"({' '.join(SWEEP)}), seed {args.seed}")
    print(f"load average before: {loadavg()}")

    # the configurations in blocks, each played by the pool and by the cluster in turn
    # (which goes first alternates), so a change in the machine's load falls on both
    blocks = [arms[i:i + args.block] for i in range(0, len(arms), args.block)]
    began = time.perf_counter()
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        cluster_s = time.perf_counter() - began
        print(f"Dask cluster (a scheduler, 2 worker processes) started in {cluster_s:.1f} s")
        timed: dict[str, float] = {"pool": 0.0, "dask": cluster_s}
        found: dict[str, list[X.Simulation]] = {"pool": [], "dask": []}
        for k, block in enumerate(blocks):
            for where in (("pool", "dask") if k % 2 == 0 else ("dask", "pool")):
                began = time.perf_counter()
                if where == "pool":
                    sim = X.play_games(block, args.games, args.seed, workers=2,
                                       progress=ProgressBar(sys.stderr, "local pool"))
                else:
                    sim = X.play_games(block, args.games, args.seed,
                                       scheduler=cluster.scheduler_address,
                                       progress=ProgressBar(sys.stderr, "dask"))
                timed[where] += time.perf_counter() - began
                found[where].append(sim)
            print(f"block {k + 1} of {len(blocks)} ({len(block)} configurations): pool "
                  f"{timed['pool']:.1f} s, Dask {timed['dask']:.1f} s so far; load average "
                  f"{loadavg()}", flush=True)
    local_s, dask_s = timed["pool"], timed["dask"]
    local, dask = (X.Simulation(tuple(arms), args.games, args.seed,
                                tuple(f for sim in found[w] for f in sim.facts),
                                seconds=timed[w]) for w in ("pool", "dask"))
    print(f"local pool, 2 processes: {local_s:.1f} s ({total / local_s:.2f} games/s), "
          f"each block's pool started afresh")
    print(f"Dask, 2 worker processes: {dask_s:.1f} s ({total / dask_s:.2f} games/s), the "
          f"cluster's start included")
    same = dask.facts == local.facts
    print(f"Dask / local pool time: {dask_s / local_s:.2f}; identical facts: {same}; load "
          f"average {loadavg()}")
    print()
    print(X.sweep_table(local))
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
