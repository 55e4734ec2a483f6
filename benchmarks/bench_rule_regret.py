"""The strong bot's rule for leaving the heuristic's move, judged decision by decision.

At each hint decision of the calibration (`benchmarks/calibration/eval-after.jsonl`:
positions of heuristic games, each option's cost measured on 500 worlds of its own), the
strong bot weighs its options on `--worlds` worlds (dealt as the coach deals them: no
`kept`, `aligned` or `closer`, whose close calls depend on the rule), and each rule
`strong.chosen` may apply (`--rules`: standard errors and points the best estimate must
beat the heuristic's move by) takes one of them. Printed, for each worlds count and
rule: the mean regret of the moves taken, in points this round (the reference's cost of
the move taken over the reference's best option), with its standard error, and the load
average.

A quick look, not a verdict on strength: the reference plays the round out with the
heuristic bot in every seat from the sampler's worlds, so it shares whatever those get
wrong. On 2026-12-06 this benchmark rated "leave it for any better mean" (0,0) among
the best at 12 worlds (1.11 points a decision, as did (0.5,0)) against 1.99 for the
strong level's (1.5,1), while 74 paired games (`benchmarks/strength/`) found (0,0)
the weaker player by 50 points a game (8 to 93). Strength is measured by
`bench_strength.py`.

    python benchmarks/bench_rule_regret.py
    python benchmarks/bench_rule_regret.py --worlds 12,20 --rules 0,0 1.5,1 2,0
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from toonerville.coach.hint import memory_for  # noqa: E402
from toonerville.coach.strong import StrongBot, chosen  # noqa: E402
from toonerville.engine.game import Game  # noqa: E402
from toonerville.players.bots import HeuristicBot  # noqa: E402
from toonerville.players.simulate import play_game  # noqa: E402

HERE = Path(__file__).resolve().parent
NEVER = (1e9, 1e9)  # a rule no estimate clears: the heuristic bot's own move


def decisions(path: Path) -> list[dict[str, Any]]:
    """The file's hint decisions whose every option has a reference figure."""
    out, seen = [], set()
    for line in path.read_text().splitlines():
        x = json.loads(line)
        if x["kind"] != "hint" or x["i"] in seen:
            continue
        seen.add(x["i"])
        if all(a["reference"] == a["reference"] for a in x["alternatives"]):
            out.append(x)
    return out


def regrets(xs: list[dict[str, Any]], worlds: list[int],
            rules: list[tuple[float, float]], players: int
            ) -> dict[tuple[int, tuple[float, float]], list[float]]:
    """Each (worlds, rule)'s regret at each decision of `xs` where every rule's move at
    every worlds count has a reference figure (the same decisions for all: the rules
    are compared pair by pair); the decisions left out are counted under `None`."""
    got: dict[tuple[int, tuple[float, float]], list[float]] = {
        (w, r): [] for w in worlds for r in rules}
    left_out = 0
    games: dict[int, Game] = {}
    for done, x in enumerate(xs, 1):
        if x["seed"] not in games:
            games.clear()
            games[x["seed"]] = play_game(["heuristic"] * players, x["seed"], turn_limit=200)
        game, k, seat = games[x["seed"]], x["moves"], x["seat"]
        pos = game.position_at(k)
        # each option's reference cost (the hint's move is the reference's 0)
        ref = {x["action"]: 0.0, **{a["move"]: a["reference"] for a in x["alternatives"]}}
        floor = min(ref.values())
        usual, _why = HeuristicBot().explain(pos.view(seat), pos.rules,
                                             partial(pos.legal_actions, seat))
        here: dict[tuple[int, tuple[float, float]], float] = {}
        for w in worlds:
            bot = StrongBot(worlds=w, kept=0, aligned=False, closer=0)  # the rule alone
            bot.memory = memory_for(game, seat, k)
            decision = bot.decide(pos.view(seat), pos.rules, partial(pos.legal_actions, seat),
                                  random.Random(f"coach:{game.seed}:{k}:{seat}"))
            weighed = decision.weighed
            if not any(x.action == usual for x in weighed):
                continue  # not weighed here: the heuristic's move stands, unpriced
            for rule in rules:
                move = chosen(weighed, usual, rule).action.notation()
                if move in ref:
                    here[(w, rule)] = ref[move] - floor
        if len(here) == len(got):
            for key, regret in here.items():
                got[key].append(regret)
        else:
            left_out += 1
        print(f"\r{done}/{len(xs)} decisions", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"decisions left out (a move without a reference figure): {left_out}")
    return got


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--calibration", type=Path,
                   default=HERE / "calibration" / "eval-after.jsonl")
    p.add_argument("--worlds", default="12,20", help="worlds counts, comma-separated")
    p.add_argument("--rules", nargs="+", default=["0,0", "0.5,0", "1,0", "1.5,1", "2,0"],
                   metavar="SE,POINTS")
    p.add_argument("--players", type=int, default=4)
    args = p.parse_args()
    worlds = [int(w) for w in args.worlds.split(",")]
    rules = [(float(a), float(b)) for a, b in (r.split(",") for r in args.rules)]
    print(f"load average at start: {os.getloadavg()}")
    xs = decisions(args.calibration)
    got = regrets(xs, worlds, [*rules, NEVER], args.players)
    print(f"{len(got[(worlds[0], NEVER)])} of the {len(xs)} decisions of "
          f"{args.calibration.name}; regret = the reference's cost of "
          "the move taken over its best option, points this round")
    if not got[(worlds[0], NEVER)]:
        p.error("no decision of the file could be judged")
    for w in worlds:
        for rule in [*rules, NEVER]:
            v = got[(w, rule)]
            name = "heuristic's move" if rule == NEVER else f"rule {rule[0]:g} SE, {rule[1]:g} pt"
            print(f"  {w} worlds, {name}: mean regret {statistics.fmean(v):.2f} "
                  f"(standard error {statistics.stdev(v) / len(v) ** 0.5 if len(v) > 1 else 0:.2f}"
                  f", n = {len(v)})")
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
