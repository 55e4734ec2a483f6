"""How much sharper is a take's or a buy's estimate when its worlds' stock is lined up?

At each take-or-draw and buy-or-pass decision of the calibration
(`benchmarks/calibration/eval-after.jsonl`: positions of heuristic games), the
heuristic bot's move and the other are played out on `--worlds` worlds twice: as dealt,
and with the take's or the buy's world lined up (`strong.weigh(aligned=True)`,
`memory.sample_world(shift=…)`: after a take one card fewer is drawn from the stock,
after a buy one more, so the later draws would otherwise all move by a card). The same
seeds both times. Printed, by kind: the world-by-world difference's variance both ways
(its ratio is what lining up is worth in worlds: 0.8 means a fifth fewer worlds for the
same standard error), and the mean of (lined up − as dealt) over the decisions with its
standard error: lining up only reorders a stock dealt in random order, so it must not
move the estimate (a figure near 0, within about two standard errors). The load
average is printed.

    python benchmarks/bench_aligned_worlds.py              # 100 worlds a decision
    python benchmarks/bench_aligned_worlds.py --worlds 300 --decisions 40
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_rule_regret import HERE, decisions  # noqa: E402

from toonerville.coach.hint import memory_for  # noqa: E402
from toonerville.coach.strong import StrongBot, difference, weigh  # noqa: E402
from toonerville.engine import actions as A  # noqa: E402
from toonerville.engine.game import Game  # noqa: E402
from toonerville.engine.legal import simple_move  # noqa: E402
from toonerville.players.bots import HeuristicBot  # noqa: E402
from toonerville.players.simulate import play_game  # noqa: E402

KINDS = {"TakeDiscard": "take or draw", "Draw": "take or draw", "Buy": "buy or pass",
         "Pass": "buy or pass"}
OTHER = {A.TakeDiscard: A.Draw, A.Draw: A.TakeDiscard, A.Buy: A.Pass, A.Pass: A.Buy}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--calibration", type=Path,
                   default=HERE / "calibration" / "eval-after.jsonl")
    p.add_argument("--worlds", type=int, default=100)
    p.add_argument("--decisions", type=int, default=None, help="at most (default: all)")
    p.add_argument("--players", type=int, default=4)
    args = p.parse_args()
    if args.worlds < 2:
        p.error("--worlds: at least 2 (a variance needs two)")
    print(f"load average at start: {os.getloadavg()}", flush=True)
    xs = [x for x in decisions(args.calibration) if x["decision"] in KINDS]
    xs = xs[:args.decisions] if args.decisions is not None else xs
    var: dict[str, dict[bool, list[float]]] = {}
    moved: dict[str, list[float]] = {}
    games: dict[int, Game] = {}
    for done, x in enumerate(xs, 1):
        if x["seed"] not in games:
            games.clear()
            games[x["seed"]] = play_game(["heuristic"] * args.players, x["seed"],
                                         turn_limit=200)
        game, k, seat = games[x["seed"]], x["moves"], x["seat"]
        pos = game.position_at(k)
        view = pos.view(seat)
        usual, _why = HeuristicBot().explain(view, pos.rules, partial(pos.legal_actions, seat))
        options = [usual, simple_move(OTHER[type(usual)], seat)]
        bots = [HeuristicBot() for _ in range(args.players)]
        seeds = [hash((x["seed"], k, w)) & (2**48 - 1) for w in range(args.worlds)]
        means = {}
        for aligned in (False, True):
            weighed = weigh(view, pos.rules, options, memory_for(game, seat, k),
                            random.Random(0), args.worlds, None, bots, seeds=seeds,
                            aligned=aligned)
            if len(weighed) < 2:
                break
            gain = difference(*sorted(weighed, key=lambda w: options.index(w.action)))
            var.setdefault(KINDS[x["decision"]], {}).setdefault(aligned, []).append(
                gain.se ** 2 * gain.n)
            means[aligned] = gain.mean
        if len(means) == 2:
            moved.setdefault(KINDS[x["decision"]], []).append(means[True] - means[False])
        print(f"\r{done}/{len(xs)} decisions", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"{args.worlds} worlds a decision, the same seeds as dealt and lined up; "
          f"{StrongBot().worlds} is the strong level's")
    for kind in sorted(var):
        plain, lined = statistics.fmean(var[kind][False]), statistics.fmean(var[kind][True])
        shift = moved[kind]
        se = statistics.stdev(shift) / len(shift) ** 0.5 if len(shift) > 1 else float("nan")
        print(f"  {kind}: {len(shift)} decisions; world-by-world difference's variance "
              f"{plain:.0f} as dealt (sd {plain ** 0.5:.1f}), {lined:.0f} lined up (sd "
              f"{lined ** 0.5:.1f}): ratio {lined / plain:.2f}; mean (lined up − as dealt) "
              f"{statistics.fmean(shift):+.2f} points (standard error {se:.2f})")
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
