"""CPU time per player decision in random-bot playouts: this engine against RLCard's gin rummy.

Run from the repository root:

    python benchmarks/bench_rlcard.py                 # 5 rounds of A B (about a minute)
    python benchmarks/bench_rlcard.py --rounds 3 --ours-games 1 --rlcard-games 100

Ours: `toonerville.play_game` with four "random" bots, a new seed for every game; a
decision is one action the game applied (`len(game.actions)`). RLCard: `rlcard==1.2.0`,
`rlcard.make("gin-rummy")` with its own `RandomAgent` in every seat, games played by
`env.run()`; a decision is one `env.step` (RLCard records each in `env.action_recorder`).

RLCard lives in its own virtual environment, which this script creates on first use
(`--venv`, default `benchmarks/.venv-rlcard`, git-ignored) and fills from PyPI with
`rlcard==1.2.0` and what it needs. Each measurement runs in a fresh process (this file
again, with `--worker`), the two sides interleaved A B A B ... so that a change in the
machine's load hits both alike; a worker plays one warm-up game, then measures the
process CPU time (`time.process_time`) of its games only, not of its imports. The
script prints every round, each side's median microseconds per decision, the ratio
ours / RLCard (below 1 means ours is faster) and the load average before and after.
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
RLCARD = "rlcard==1.2.0"
DEFAULT_VENV = HERE / ".venv-rlcard"


# -- the two workers (each runs in a process of its own) ----------------------------------
def work_ours(games: int, seed: int) -> dict[str, float]:
    sys.path.insert(0, str(ROOT))
    from toonerville import play_game

    play_game(["random"] * 4, seed=seed - 1)  # warm-up, not measured
    decisions = 0
    start = time.process_time()
    for i in range(games):
        decisions += len(play_game(["random"] * 4, seed=seed + i).actions)
    return {"cpu": time.process_time() - start, "decisions": decisions}


def work_rlcard(games: int, seed: int) -> dict[str, float]:
    import numpy as np
    import rlcard
    from rlcard.agents import RandomAgent

    np.random.seed(seed)  # RandomAgent draws from numpy's global generator
    env = rlcard.make("gin-rummy", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    env.run(is_training=False)  # warm-up, not measured
    decisions = 0
    start = time.process_time()
    for _ in range(games):
        env.run(is_training=False)
        decisions += len(env.action_recorder)  # one entry per env.step
    return {"cpu": time.process_time() - start, "decisions": decisions}


# -- the driver ---------------------------------------------------------------------------
def measure(python: Path | str, side: str, games: int, seed: int) -> dict[str, float]:
    out = subprocess.run([str(python), str(Path(__file__).resolve()), "--worker", side,
                          "--games", str(games), "--seed", str(seed)],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def loadavg() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="A B pairs to measure")
    parser.add_argument("--ours-games", type=int, default=2,
                        help="4-player random-bot games per measurement of ours")
    parser.add_argument("--rlcard-games", type=int, default=200,
                        help="gin rummy games per measurement of RLCard's")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--venv", type=Path, default=DEFAULT_VENV,
                        help="where RLCard's virtual environment is (made if missing)")
    parser.add_argument("--worker", choices=("ours", "rlcard"), help=argparse.SUPPRESS)
    parser.add_argument("--games", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.worker:
        work = work_ours if args.worker == "ours" else work_rlcard
        print(json.dumps(work(args.games, args.seed)))
        return 0

    rl_python = ensure_peer(args.venv, RLCARD, "RLCard")
    print(f"random bots, CPU time per decision: ours = 4-player toonerville "
          f"({args.ours_games} games a run), RLCard = {RLCARD} gin-rummy "
          f"({args.rlcard_games} games a run); {args.rounds} rounds A B")
    print(f"load average before: {loadavg()}")
    per: dict[str, list[float]] = {"ours": [], "rlcard": []}
    for r in range(args.rounds):
        seed = args.seed + 1000 * r
        line = [f"round {r + 1}:"]
        for side, python, games in (("ours", sys.executable, args.ours_games),
                                    ("rlcard", rl_python, args.rlcard_games)):
            got = measure(python, side, games, seed)
            us = 1e6 * got["cpu"] / got["decisions"]
            per[side].append(us)
            line.append(f"{side} {us:7.1f} us/decision ({int(got['decisions'])} decisions, "
                        f"{got['cpu']:.2f} s CPU)")
        print("  ".join(line), flush=True)
    ours, theirs = statistics.median(per["ours"]), statistics.median(per["rlcard"])
    print(f"median: ours {ours:.1f} us/decision, RLCard {theirs:.1f} us/decision")
    print(f"ratio ours / RLCard = {ours / theirs:.2f} "
          f"({'PASS' if ours <= theirs else 'FAIL'}: target <= 1)")
    print(f"load average after: {loadavg()} ({os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
