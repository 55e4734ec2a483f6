"""Does the coach tell the truth? Its stated costs against a reference of many fresh worlds.

Hints: decisions of seat `i % players` in heuristic games (game seed `i // 11`, round
`1 + i % 11`, so that any first part of the run spreads over the rounds), each one where
the page's hint (`widgets.coach_view`: `HINT_WORLDS` choosing worlds, `HINT_PRICE`
pricing worlds) weighs alternatives. For each, a reference: the hint's move and every
alternative played out in `--reference` worlds of their own (seeds from the position
and "reference", independent of the hint's), the same worlds and luck for every move;
the reference cost of an alternative is its mean world-by-world difference from the
hint's move. Printed: the mean absolute error of the stated costs, the share of stated
95 % intervals that cover the reference, how many alternatives the reference rates
better by 5 points or more are shown as a cost ("costs about …"), and the same error
for the baseline, the figures of the worlds that chose the move (what a hint showed
before issue 28, floored at 0 as it was).

Reviews: every fifth decision, a round of a game with the beginner bot in seat 0 (game
seed `j // 11`, round `1 + j % 11`) is reviewed (`coach.review.review_round`), and each
decision it shows is given a reference (the move made against the better move, in
`--reference` fresh worlds). Printed: the share of shown decisions the reference rates
truly worse, and the mean |stated − reference| cost.

Each decision's figures go to `--out` as a JSON line as soon as they are known (the
summary is printed from that file, so a run can be stopped, resumed with `--resume`, or
summed up while it runs with `--summary`). The load average is printed.

    nice -n 10 python benchmarks/bench_coach_calibration.py --out calibration.jsonl
    python benchmarks/bench_coach_calibration.py --quick          # 22 decisions, 100 worlds
    python benchmarks/bench_coach_calibration.py --out calibration.jsonl --summary
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from toonerville.coach.hint import decide_at, hint_of, memory_for
from toonerville.coach.review import review_round
from toonerville.coach.strong import difference, weigh, world_seeds
from toonerville.engine import actions as A
from toonerville.engine.game import Game
from toonerville.players.bots import HeuristicBot
from toonerville.players.simulate import play_game
from toonerville.widgets.coach_view import HINT_PRICE, HINT_WORLDS

ROUNDS = 11


def reference(game: Game, seat: int, k: int, options: list[A.Action], worlds: int
              ) -> list[float]:
    """Each option's mean world-by-world difference from the first, in `worlds` fresh
    worlds of the position (the reference)."""
    pos = game.position_at(k)
    bots = [HeuristicBot() for _ in range(pos.players)]
    weighed = weigh(pos.view(seat), pos.rules, options, memory_for(game, seat, k),
                    random.Random(0), worlds, None, bots,
                    seeds=world_seeds(f"calibration:{game.seed}:{k}:{seat}", "reference", 0,
                                      worlds))
    by = {w.action: w for w in weighed}
    first = by[options[0]]
    return [difference(by[a], first).mean if a in by else float("nan") for a in options]


def _game(seed: int, bots: list[str], cache: dict[tuple[int, str], Game]) -> Game:
    key = (seed, ",".join(bots))
    if key not in cache:
        cache.clear()
        cache[key] = play_game(bots, seed, turn_limit=200)
    return cache[key]


def hint_decision(i: int, players: int, worlds: int, cache: dict[tuple[int, str], Game]
                  ) -> dict[str, Any] | None:
    """Decision `i`: the hint, its baseline and the reference (None: no weighed decision
    of that seat in that round)."""
    seat, round_number, seed = i % players, 1 + i % ROUNDS, i // ROUNDS
    game = _game(seed, ["heuristic"] * players, cache)
    ks = [k for k in range(game.moves_made) if game.actions[k].seat == seat
          and game.position_at(k).round_number == round_number]
    random.Random(i).shuffle(ks)
    for k in ks[:12]:
        decision = decide_at(game, seat, k, worlds=HINT_WORLDS, time_budget=None,
                             price=HINT_PRICE)
        pos = game.position_at(k)
        found = hint_of(decision, pos.view(seat))
        if not found.alternatives:
            continue
        options = [found.action, *(a.action for a in found.alternatives)]
        ref = reference(game, seat, k, options, worlds)
        chosen = decision.cost(found.action)
        rows = []
        for alt, r in zip(found.alternatives, ref[1:], strict=True):
            mine = decision.cost(alt.action)
            base = max(0.0, mine.points - chosen.points) if mine and chosen else None
            rows.append({"move": alt.action.notation(), "stated": alt.cost,
                         "low": alt.low, "high": alt.high, "verdict": alt.verdict,
                         "samples": alt.samples, "reference": r, "baseline": base})
        return {"kind": "hint", "i": i, "seed": seed, "round": round_number, "seat": seat,
                "moves": k, "action": found.action.notation(), "alternatives": rows}
    return None


def review_decisions(j: int, players: int, worlds: int, cache: dict[tuple[int, str], Game]
                     ) -> dict[str, Any]:
    """Review `j`: a round of a beginner's game, each decision shown with its reference."""
    round_number, seed = 1 + j % ROUNDS, j // ROUNDS
    game = _game(seed, ["beginner", *(["heuristic"] * (players - 1))], cache)
    start = time.perf_counter()
    found = review_round(game, 0, round_number)
    spent = time.perf_counter() - start
    rows = []
    for m in found:
        ref = reference(game, 0, m.moves, [m.better, m.made], worlds)[1]
        rows.append({"moves": m.moves, "made": m.made.notation(),
                     "better": m.better.notation(), "stated": m.cost, "low": m.low,
                     "high": m.high, "samples": m.samples, "reference": ref})
    return {"kind": "review", "j": j, "seed": seed, "round": round_number,
            "seconds": spent, "shown": rows}


def summary(lines: list[dict[str, Any]]) -> None:
    seen: set[tuple[str, int]] = set()
    unique = []
    for x in lines:  # one line per decision (two runs appending to one file repeat them)
        key = (x["kind"], x.get("i", x.get("j", -1)))
        if key not in seen:
            seen.add(key)
            unique.append(x)
    lines = unique
    hints = [x for x in lines if x["kind"] == "hint"]
    alts = [a for x in hints for a in x["alternatives"] if a["reference"] == a["reference"]]
    rounds = sorted({x["round"] for x in hints})
    print(f"hints: {len(hints)} decisions (rounds {rounds}), {len(alts)} alternatives")
    if alts:
        err = [abs(a["stated"] - a["reference"]) for a in alts]
        cover = [a["low"] <= a["reference"] <= a["high"] for a in alts]
        base = [abs(a["baseline"] - a["reference"]) for a in alts if a["baseline"] is not None]
        shown_cost = [a for a in alts if a["verdict"] == "costs"]
        wrong = [a for a in shown_cost if a["reference"] <= -5]
        verdicts = {v: sum(a["verdict"] == v for a in alts) for v in ("costs", "same",
                                                                       "better")}
        print(f"  mean |stated − reference|: {statistics.fmean(err):.2f} points "
              f"(median {statistics.median(err):.2f}; target ≤ 2)")
        print(f"  baseline (the choosing worlds' figures, floored at 0, as before issue "
              f"28): {statistics.fmean(base):.2f} points")
        print(f"  stated 95 % intervals covering the reference: {sum(cover)}/{len(cover)} "
              f"= {sum(cover) / len(cover):.1%} (target ≥ 90 %)")
        print(f"  alternatives the reference rates better by ≥ 5 points shown as a cost: "
              f"{len(wrong)} (target 0)")
        for verdict in ("costs", "better", "same"):
            some = [abs(a["stated"] - a["reference"]) for a in alts if a["verdict"] == verdict]
            if some:
                print(f"    shown as {verdict!r}: {len(some)}, mean |stated − reference| "
                      f"{statistics.fmean(some):.2f} points")
        print(f"  verdicts: {verdicts}; mean stated worlds "
              f"{statistics.fmean(a['samples'] for a in alts):.1f}")
    reviews = [x for x in lines if x["kind"] == "review"]
    shown = [m for x in reviews for m in x["shown"]]
    print(f"reviews: {len(reviews)} rounds reviewed, {len(shown)} decisions shown")
    if reviews:
        print(f"  seconds per review (wall, under this load): median "
              f"{statistics.median(x['seconds'] for x in reviews):.1f}, max "
              f"{max(x['seconds'] for x in reviews):.1f}")
    if shown:
        worse = sum(m["reference"] > 0 for m in shown)
        err = [abs(m["stated"] - m["reference"]) for m in shown]
        cover = sum(m["low"] <= m["reference"] <= m["high"] for m in shown)
        print(f"  truly worse by the reference: {worse}/{len(shown)} = "
              f"{worse / len(shown):.1%} (target ≥ 95 %)")
        print(f"  mean |stated − reference|: {statistics.fmean(err):.2f} points "
              f"(target ≤ 3); intervals covering: {cover}/{len(shown)}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--decisions", type=int, default=154)
    p.add_argument("--reference", type=int, default=500, help="reference worlds")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--quick", action="store_true", help="22 decisions, 100 worlds")
    p.add_argument("--out", type=Path, default=None)
    p.add_argument("--resume", action="store_true")
    p.add_argument("--summary", action="store_true", help="only sum up --out")
    args = p.parse_args()
    if args.quick:
        args.decisions, args.reference = 22, 100
    print(f"load average at start: {os.getloadavg()}", flush=True)
    lines: list[dict[str, Any]] = []
    if args.out and args.out.exists() and (args.resume or args.summary):
        lines = [json.loads(line) for line in args.out.read_text().splitlines() if line]
    if not args.summary:
        print(f"hint budget: {HINT_WORLDS} choosing worlds, {HINT_PRICE} pricing worlds; "
              f"reference {args.reference} worlds", flush=True)
        done = {("hint", x["i"]) if x["kind"] == "hint" else ("review", x["j"])
                for x in lines}
        done |= {("hint", x["i"]) for x in lines if x["kind"] == "none"}
        cache: dict[tuple[int, str], Game] = {}
        hints, i, start = sum(x["kind"] == "hint" for x in lines), 0, time.perf_counter()
        try:
            while hints < args.decisions:
                if ("hint", i) not in done:
                    got = hint_decision(i, args.players, args.reference, cache) \
                        or {"kind": "none", "i": i}
                    lines.append(got)
                    if args.out:
                        with args.out.open("a") as f:
                            f.write(json.dumps(got) + "\n")
                if lines and any(x.get("i") == i and x["kind"] == "hint" for x in lines):
                    hints = sum(x["kind"] == "hint" for x in lines)
                if i % 5 == 4 and ("review", i // 5) not in done:
                    got = review_decisions(i // 5, args.players, args.reference, cache)
                    lines.append(got)
                    if args.out:
                        with args.out.open("a") as f:
                            f.write(json.dumps(got) + "\n")
                print(f"\r{hints}/{args.decisions} decisions, "
                      f"{time.perf_counter() - start:.0f} s", end="", file=sys.stderr,
                      flush=True)
                i += 1
        except KeyboardInterrupt:
            print("\nstopped early", file=sys.stderr)
        print(file=sys.stderr)
    summary(lines)
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
