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
before issue 28, floored at 0 as it was). Each alternative's line keeps the pricing
worlds' own paired difference (`raw_mean`, `raw_se`, `raw_n`, `raw_low`, `raw_high`):
the figures are also printed for that raw difference with its t interval (what a hint
stated before the shrinkage of `coach.shrink`) and for its posterior under the priors
in the code, recomputed (so one run measures both, on the same worlds, and a refitted
prior can be checked without playing anything again).

Reviews: every fifth decision, a round of a game with the beginner bot in seat 0 (game
seed `j // 11`, round `1 + j % 11`) is reviewed (`coach.review.review_round`), and each
decision it shows is given a reference (the move made against the better move, in
`--reference` fresh worlds). Printed: the share of shown decisions the reference rates
truly worse, and the mean |stated − reference| cost.

Each decision's figures go to `--out` as a JSON line as soon as they are known (the
summary is printed from that file, so a run can be stopped, resumed with `--resume`, or
summed up while it runs with `--summary`). The load average is printed.

`--start I` begins at decision I (reviews at I // 5): other games, e.g. 5000 for the
calibration data `benchmarks/fit_cost_prior.py` fits the priors on, apart from the
games the evaluation (from 0) measures. `--stop I` ends a shard of a run before decision
I; shards run side by side and are summed up together (`--summary --out a.jsonl
--also b.jsonl …`: the first `--decisions` hints from `--start`, and the reviews made on
the way, as one process would have made them).

`--rehint [LEAST,]MOST,MOVES` plays nothing of the reference again: it takes the hint
decisions of `--out` (of the kinds `--kinds`), gives each the page's hint again with LEAST
(default the page's) to MOST pricing worlds and MOVES moves played out at most, and
prints their mean |stated − reference| against the references in the file (the same hint
budget reproduces the file's figures exactly), the whole run's with the other kinds as
stated, and the hints' seconds (what another pricing budget would buy, and cost); and
how much of the error is the reference's own: its standard errors' root mean square
against the error's, and what is left for the hint's own error against the true costs.

`--deepen WORLDS --into FILE` plays the hint decisions of `--out` again on deeper
references: each decision's reference on WORLDS worlds, the same sequence of worlds as
the file's (its first worlds give the file's figures exactly) and more, into FILE (one
line a decision, resumed; `--start`/`--stop` take a share of the decisions, so shards
can run side by side into one FILE). The hint's figures stay as they are. A 500-world
reference has a standard error of its own of about 2 points on a take, draw or buy; a
deeper one measures the hint's error against costs nearer the true ones (`--rehint`
and `fit_cost_prior.py` read FILE as they read `--out`).

    nice -n 10 python benchmarks/bench_coach_calibration.py --out calibration.jsonl
    python benchmarks/bench_coach_calibration.py --quick          # 22 decisions, 100 worlds
    python benchmarks/bench_coach_calibration.py --out calibration.jsonl --summary
    python benchmarks/bench_coach_calibration.py --out calibration.jsonl --rehint 96,40000
    python benchmarks/bench_coach_calibration.py --out c.jsonl --rehint 12,32,4000 --kinds buy
    python benchmarks/bench_coach_calibration.py --out c.jsonl --deepen 4000 --into d.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from toonerville.coach.hint import Alternative, decide_at, hint_of, memory_for, price_at
from toonerville.coach.review import SECOND_WORLDS, review_round, shortlist
from toonerville.coach.shrink import KINDS as SHRINK_KINDS
from toonerville.coach.shrink import PRIORS, posterior
from toonerville.coach.strong import Difference, difference, move_words, weigh, world_seeds
from toonerville.engine import actions as A
from toonerville.engine.game import Game
from toonerville.players.bots import HeuristicBot
from toonerville.players.simulate import play_game
from toonerville.widgets.coach_view import HINT_PRICE, HINT_WORLDS

ROUNDS = 11


def reference(game: Game, seat: int, k: int, options: list[A.Action], worlds: int
              ) -> list[tuple[float, float]]:
    """Each option's mean world-by-world difference from the first, in `worlds` fresh
    worlds of the position (the reference), with its standard error."""
    pos = game.position_at(k)
    bots = [HeuristicBot() for _ in range(pos.players)]
    weighed = weigh(pos.view(seat), pos.rules, options, memory_for(game, seat, k),
                    random.Random(0), worlds, None, bots,
                    seeds=world_seeds(f"calibration:{game.seed}:{k}:{seat}", "reference", 0,
                                      worlds))
    by = {w.action: w for w in weighed}
    first = by[options[0]]
    nan = float("nan")
    return [(difference(by[a], first).mean, difference(by[a], first).se) if a in by
            else (nan, nan) for a in options]


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
        priced_chosen = decision.price(found.action)
        rows = []
        for alt, (r, r_se) in zip(found.alternatives, ref[1:], strict=True):
            mine = decision.cost(alt.action)
            base = max(0.0, mine.points - chosen.points) if mine and chosen else None
            priced = decision.price(alt.action)
            raw = difference(priced, priced_chosen) if priced and priced_chosen else None
            rows.append({"move": alt.action.notation(), "stated": alt.cost,
                         "low": alt.low, "high": alt.high, "verdict": alt.verdict,
                         "samples": alt.samples, "reference": r, "reference_se": r_se,
                         "baseline": base,
                         # the pricing worlds' own paired difference (what a hint stated
                         # before the shrinkage): mean, standard error, worlds, interval
                         "raw_mean": raw.mean if raw else None,
                         "raw_se": raw.se if raw else None,
                         "raw_n": raw.n if raw else None,
                         "raw_low": raw.low if raw and raw.n > 1 else None,
                         "raw_high": raw.high if raw and raw.n > 1 else None})
        return {"kind": "hint", "i": i, "seed": seed, "round": round_number, "seat": seat,
                "moves": k, "action": found.action.notation(),
                "decision": type(found.action).__name__, "alternatives": rows}
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
        ref, ref_se = reference(game, 0, m.moves, [m.better, m.made], worlds)[1]
        rows.append({"moves": m.moves, "made": m.made.notation(),
                     "better": m.better.notation(), "stated": m.cost, "low": m.low,
                     "high": m.high, "samples": m.samples, "reference": ref,
                     "reference_se": ref_se})
    return {"kind": "review", "j": j, "seed": seed, "round": round_number,
            "seconds": spent, "shown": rows}


#: the kind of decision by the name of the type of the hint's move (`coach.shrink.KINDS`)
KINDS = {move.__name__: kind for move, kind in SHRINK_KINDS.items()}


def _verdict(cost: float, low: float, high: float, measured: float | None = None) -> str:
    return Alternative(A.Draw(0), cost, 2, move_words(A.Draw(0)), low, high,
                       measured).verdict


def _raw(a: dict[str, Any]) -> tuple[float, float, float, str]:
    """What main stated before the shrinkage: the pricing worlds' mean and interval."""
    low, high = a["raw_low"], a["raw_high"]
    return a["raw_mean"], low, high, _verdict(a["raw_mean"], low, high)


def _shrunk(a: dict[str, Any]) -> tuple[float, float, float, str]:
    """What the current prior makes of the pricing worlds' figures (`hint.hint_of`)."""
    post = posterior(PRIORS[a["kind"]], Difference(a["raw_mean"], a["raw_se"], a["raw_n"]))
    return post.mean, post.low, post.high, _verdict(post.mean, post.low, post.high,
                                                      a["raw_mean"])


def _hint_figures(name: str, rows: list[tuple[dict[str, Any], float, float, float, str]]
                  ) -> None:
    """The calibration figures of one way of stating the alternatives' costs."""
    print(f"  {name}:")
    err = [abs(cost - a["reference"]) for a, cost, _l, _h, _v in rows]
    cover = [low <= a["reference"] <= high for a, _c, low, high, _v in rows]
    wrong = [a for a, _c, _l, _h, v in rows if v == "costs" and a["reference"] <= -5]
    print(f"    mean |stated − reference|: {statistics.fmean(err):.2f} points "
          f"(median {statistics.median(err):.2f}; target ≤ 2)")
    print(f"    stated 95 % intervals covering the reference: {sum(cover)}/{len(cover)} "
          f"= {sum(cover) / len(cover):.1%} (target ≥ 90 %)")
    print(f"    alternatives the reference rates better by ≥ 5 points shown as a cost: "
          f"{len(wrong)} (target 0)")
    for kind in sorted({str(a["kind"]) for a, *_ in rows}):
        mine = [(a, cost) for a, cost, *_ in rows if str(a["kind"]) == kind]
        some = [abs(cost - a["reference"]) for a, cost in mine]
        print(f"    {kind}: {len(some)}, mean |stated − reference| "
              f"{statistics.fmean(some):.2f}; {_split(mine)}")
    verdicts = {v: sum(x[4] == v for x in rows) for v in ("costs", "same", "better")}
    for verdict in ("costs", "better", "same"):
        some = [abs(cost - a["reference"]) for a, cost, _l, _h, v in rows if v == verdict]
        if some:
            print(f"    shown as {verdict!r}: {len(some)}, mean |stated − reference| "
                  f"{statistics.fmean(some):.2f} points")
    print(f"    verdicts: {verdicts}; mean stated worlds "
          f"{statistics.fmean(a['samples'] for a, *_ in rows):.1f}")


def _split(rows: list[tuple[dict[str, Any], float]]) -> str:
    """How much of an error against the reference is the reference's own: its noise alone
    would give a mean |error| of about 0.8 of its standard error (a normal's mean absolute
    value), and the stated figure's own root-mean-square error against the truth is
    about sqrt(mean (stated − reference)² − mean reference_se²) (the two errors are
    independent: the reference's worlds are its own)."""
    ref_var = statistics.fmean(a["reference_se"] ** 2 for a, _c in rows)
    square = statistics.fmean((cost - a["reference"]) ** 2 for a, cost in rows)
    floor = math.sqrt(2 / math.pi) * statistics.fmean(a["reference_se"] for a, _c in rows)
    return (f"the reference's noise alone would give {floor:.2f}; the stated figure's own "
            f"error, root mean square: about {math.sqrt(max(0.0, square - ref_var)):.2f}")


def _oracle(rows: list[dict[str, Any]]) -> None:
    """How far shrinking the pricing worlds' means under one normal prior per kind of
    decision could go: the posterior mean under the normal prior fitted on these very
    references (their mean, and their variance less the references' own noise, at least
    1), a prior no hint can know. What it leaves is mostly the pricing worlds' own noise
    (a mixture prior, as `coach.shrink`'s, may do a little better: compare the line
    above)."""
    print("  the pricing worlds' means shrunk under a prior fitted on these references "
          "(an oracle: how far a normal prior of each kind could take them):")
    every = []
    for kind in sorted({str(a["kind"]) for a in rows}):
        mine = [a for a in rows if str(a["kind"]) == kind]
        refs = [a["reference"] for a in mine]
        centre = statistics.fmean(refs)
        spread = statistics.pvariance(refs) - statistics.fmean(a["reference_se"] ** 2
                                                                for a in mine)
        tau2 = max(spread, 1.0)
        err = [abs((centre * a["raw_se"] ** 2 + a["raw_mean"] * tau2)
                   / (a["raw_se"] ** 2 + tau2) - a["reference"]) for a in mine]
        every += err
        print(f"    {kind}: {len(err)}, mean |stated − reference| {statistics.fmean(err):.2f}"
              f" (prior mean {centre:.1f}, spread {math.sqrt(tau2):.1f})")
    print(f"    all: mean |stated − reference| {statistics.fmean(every):.2f} (target ≤ 2)")


def shortlist_decisions(j: int, players: int, worlds: int,
                        cache: dict[tuple[int, str], Game]) -> dict[str, Any]:
    """Review `j`'s shortlist (every decision its second pass re-prices, before any is
    chosen): the second pass's figures and the reference of each (the data the
    review's prior, `coach.shrink.REVIEW_PRIOR`, is fitted on)."""
    round_number, seed = 1 + j % ROUNDS, j // ROUNDS
    game = _game(seed, ["beginner", *(["heuristic"] * (players - 1))], cache)
    rows = []
    for k, better in shortlist(game, 0, round_number):
        made = game.actions[k]
        priced = price_at(game, 0, k, (better, made), *SECOND_WORLDS)
        if len(priced) < 2:
            continue
        d = difference(priced[1], priced[0])
        ref, ref_se = reference(game, 0, k, [better, made], worlds)[1]
        rows.append({"moves": k, "made": made.notation(), "better": better.notation(),
                     "decision": type(made).__name__, "raw_mean": d.mean, "raw_se": d.se,
                     "raw_n": d.n, "raw_low": d.low, "raw_high": d.high,
                     "reference": ref, "reference_se": ref_se})
    return {"kind": "shortlist", "j": j, "seed": seed, "round": round_number,
            "decisions": rows}


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
    alts = [{**a, "kind": KINDS.get(x.get("decision", ""))} for x in hints
            for a in x["alternatives"] if a["reference"] == a["reference"]]
    rounds = sorted({x["round"] for x in hints})
    print(f"hints: {len(hints)} decisions (rounds {rounds}), {len(alts)} alternatives")
    if alts:
        base = [abs(a["baseline"] - a["reference"]) for a in alts if a["baseline"] is not None]
        print(f"  baseline (the choosing worlds' figures, floored at 0, as before issue "
              f"28): {statistics.fmean(base):.2f} points")
        _hint_figures("as stated", [(a, a["stated"], a["low"], a["high"], a["verdict"])
                                    for a in alts])
        raw = [a for a in alts if a.get("raw_n")]
        if raw:  # the pricing worlds' own figures, and their posterior under PRIORS
            _hint_figures("the pricing worlds' raw mean and t interval (main before the "
                          "shrinkage)", [(a, *_raw(a)) for a in raw])
            _hint_figures("their posterior under coach.shrink.PRIORS, recomputed",
                          [(a, *_shrunk(a)) for a in raw])
            _oracle(raw)
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


def rehint(lines: list[dict[str, Any]], budget: tuple[int, int, int], kinds: set[str],
           players: int) -> None:
    """See the module: the hints of `lines` of `kinds` again, priced on `budget` (least
    and most worlds, most moves), against the same references."""
    seen: set[int] = set()
    hints = []
    for x in lines:
        if x["kind"] == "hint" and x["i"] not in seen:
            seen.add(x["i"])
            hints.append(x)
    cache: dict[tuple[int, str], Game] = {}
    again: dict[str, list[float]] = {}
    before: dict[str, list[float]] = {}
    seconds: list[float] = []
    by_verdict: dict[str, list[float]] = {}  # errors of the alternatives given again
    same = covered = wrong = moved = 0
    regret_before: list[float] = []  # the reference's cost of the move recommended
    regret_now: list[float] = []
    squares: list[tuple[float, float]] = []  # (error², the reference's own variance)
    for x in hints:
        kind = KINDS[x["decision"]]
        alts = [a for a in x["alternatives"] if a["reference"] == a["reference"]]
        if kind not in kinds:
            before.setdefault(kind, []).extend(abs(a["stated"] - a["reference"]) for a in alts)
            again.setdefault(kind, []).extend(abs(a["stated"] - a["reference"]) for a in alts)
            continue
        game = _game(x["seed"], ["heuristic"] * players, cache)
        began = time.perf_counter()
        decision = decide_at(game, x["seat"], x["moves"], worlds=HINT_WORLDS,
                             time_budget=None, price=budget)
        seconds.append(time.perf_counter() - began)
        found = hint_of(decision, game.position_at(x["moves"]).view(x["seat"]))
        by = {alt.action.notation(): alt for alt in found.alternatives}
        # each move's reference against the file's hint move; against the move recommended
        # now, if it is another, the difference of the two (the same reference worlds)
        refs = {x["action"]: 0.0, **{a["move"]: a["reference"] for a in alts}}
        now = decision.action.notation()
        if now not in refs:
            print(f"\nhint {x['i']}: {now} has no reference; left out", file=sys.stderr)
            continue
        moved += now != x["action"]
        regret_before.append(-min(refs.values()))
        regret_now.append(refs[now] - min(refs.values()))
        before.setdefault(kind, []).extend(abs(a["stated"] - a["reference"]) for a in alts)
        for move, alt in by.items():
            if move not in refs:
                continue
            reference = refs[move] - refs[now]
            new = alt.cost
            old = next((a["stated"] for a in alts if a["move"] == move), None)
            same += new == old
            covered += alt.low <= reference <= alt.high
            wrong += alt.verdict == "costs" and reference <= -5
            by_verdict.setdefault(alt.verdict, []).append(abs(new - reference))
            again.setdefault(kind, []).append(abs(new - reference))
            if now == x["action"]:  # the file's reference and its standard error
                se = next(a["reference_se"] for a in alts if a["move"] == move)
                squares.append(((new - reference) ** 2, se * se))
        print(f"\r{len(seconds)} hints given again", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"hints given again ({', '.join(sorted(kinds))}) priced on {budget[0]} to "
          f"{budget[1]} worlds and at most {budget[2]} moves: {len(seconds)}; seconds each "
          f"(under this load) median {statistics.median(seconds):.3f}, max "
          f"{max(seconds):.3f}")
    for kind in sorted(again):
        print(f"  {kind}: {len(again[kind])} alternatives, mean |stated − reference| "
              f"{statistics.fmean(before[kind]):.2f} in the file, "
              f"{statistics.fmean(again[kind]):.2f} now")
    every = [e for errs in again.values() for e in errs]
    given = sum(len(again[k]) for k in kinds if k in again)
    print(f"  given again: intervals covering the reference {covered}/{given} = "
          f"{covered / max(1, given):.1%} (target ≥ 90 %); alternatives the reference rates "
          f"better by ≥ 5 points shown as a cost: {wrong} (target 0)")
    for verdict in sorted(by_verdict):
        print(f"  given again, said as '{verdict}': {len(by_verdict[verdict])}, mean |stated "
              f"− reference| {statistics.fmean(by_verdict[verdict]):.2f}")
    changed = given - same
    print(f"  all: {len(every)} alternatives of {len(hints)} decisions, mean |stated − "
          f"reference| {statistics.fmean(every):.2f} (target ≤ 2); stated figures given "
          f"again: {same} unchanged, {changed} changed")
    if squares:  # how much of the error is the reference's own (independent) noise
        rms = math.sqrt(statistics.fmean(e for e, _v in squares))
        noise = math.sqrt(statistics.fmean(v for _e, v in squares))
        print(f"  given again ({len(squares)} alternatives): root mean square of stated − "
              f"reference {rms:.2f}, of which the reference's own standard error "
              f"{noise:.2f}; the hint's own, against the true costs, about "
              f"{math.sqrt(max(0.0, rms * rms - noise * noise)):.2f}")
    print(f"  given again: {moved} of {len(regret_now)} recommend another move than the "
          f"file's; the reference's cost of the move recommended, a decision: "
          f"{statistics.fmean(regret_before):.2f} in the file, "
          f"{statistics.fmean(regret_now):.2f} now")


def deepen(line: dict[str, Any], worlds: int, players: int,
           cache: dict[tuple[int, str], Game]) -> dict[str, Any]:
    """Hint decision `line` with its references made again on `worlds` worlds: the same
    sequence of reference worlds, longer (its first worlds are the line's own), so the
    reference's own standard error shrinks and the hint's error is measured against
    costs nearer the true ones. The hint's figures stay as they are."""
    game = _game(line["seed"], ["heuristic"] * players, cache)
    rules = game.position_at(line["moves"]).rules
    options = [A.parse_action(line["action"], rules),
               *(A.parse_action(a["move"], rules) for a in line["alternatives"])]
    ref = reference(game, line["seat"], line["moves"], options, worlds)
    alternatives = [{**a, "reference": r, "reference_se": r_se}
                    for a, (r, r_se) in zip(line["alternatives"], ref[1:], strict=True)]
    return {**line, "alternatives": alternatives, "reference_worlds": worlds}


def _read(path: Path) -> list[dict[str, Any]]:
    """The JSON lines of a run's file."""
    return [json.loads(line) for line in path.read_text().splitlines() if line]


def _first(lines: list[dict[str, Any]], start: int, decisions: int
           ) -> list[dict[str, Any]]:
    """The lines of a run of `decisions` hint decisions from index `start`, as one
    process would have made them (from shards that went further, or overlapped): the
    first `decisions` hints from `start` on, and the reviews made on the way."""
    hints = sorted({x["i"] for x in lines if x["kind"] == "hint" and x["i"] >= start})
    if len(hints) < decisions:
        return lines
    last = hints[decisions - 1]
    return [x for x in lines if (x["kind"] in ("hint", "none") and start <= x["i"] <= last)
            or (x["kind"] == "review" and start <= 5 * x["j"] + 4 <= last)]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--decisions", type=int, default=154)
    p.add_argument("--reference", type=int, default=500, help="reference worlds")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--start", type=int, default=0,
                   help="first decision index (reviews from start // 5): another start "
                        "gives other games, e.g. 5000 for calibration data apart from "
                        "the evaluation's")
    p.add_argument("--stop", type=int, default=None,
                   help="stop before this decision index (a shard of a run: several "
                        "shards' files, summed up together, make the whole run)")
    p.add_argument("--hints-only", action="store_true", help="no reviews")
    p.add_argument("--shortlists", type=int, default=None, metavar="J",
                   help="only reviews' shortlists, J of them (start // 5 onwards): the "
                        "review prior's calibration data")
    p.add_argument("--reviews-only", type=int, default=None, metavar="J",
                   help="only reviews, J of them (start // 5 onwards)")
    p.add_argument("--quick", action="store_true", help="22 decisions, 100 worlds")
    p.add_argument("--out", type=Path, default=None)
    p.add_argument("--also", type=Path, nargs="*", default=[],
                   help="more files to sum up with --out (other shards of the run)")
    p.add_argument("--resume", action="store_true")
    p.add_argument("--summary", action="store_true", help="only sum up --out")
    p.add_argument("--rehint", default=None, metavar="[LEAST,]MOST,MOVES",
                   help="give --out's hints again with this pricing budget (see the module)")
    p.add_argument("--deepen", type=int, default=None, metavar="WORLDS",
                   help="the hint decisions of --out again, each reference on WORLDS "
                        "worlds (the same worlds and more), into --into (see the module)")
    p.add_argument("--into", type=Path, default=None,
                   help="with --deepen: the file the deepened decisions go to (resumed)")
    p.add_argument("--kinds", default=",".join(sorted(set(KINDS.values()))),
                   help="with --rehint: the kinds of decision given again (of "
                        "coach.shrink.KINDS; default all)")
    args = p.parse_args()
    if args.quick:
        args.decisions, args.reference = 22, 100
    print(f"load average at start: {os.getloadavg()}", flush=True)
    lines: list[dict[str, Any]] = []
    if args.out and args.out.exists() and (args.resume or args.summary or args.rehint
                                           or args.deepen is not None):
        lines = _read(args.out)
    for path in [p for p in args.also if p.exists()] if args.summary else []:
        lines += _read(path)
    if args.deepen is not None:
        if args.into is None or not (args.out and args.out.exists()):
            p.error("--deepen needs --out, an existing run's file, and --into, a file "
                    "for the deepened decisions")
        if args.deepen < 2:
            p.error("--deepen: a reference needs at least 2 worlds")
        if args.into.resolve() == args.out.resolve():
            p.error("--deepen: --into must be another file than --out (the run stays as "
                    "it was)")
        had = _read(args.into) if args.into.exists() else []
        done = {x["i"] for x in had if x.get("reference_worlds") == args.deepen}
        if any(x.get("reference_worlds") != args.deepen for x in had):
            p.error(f"--into {args.into} holds references of another number of worlds")
        todo = [x for x in _first(lines, 0, args.decisions)
                if x["kind"] == "hint" and x["i"] not in done and x["i"] >= args.start
                and (args.stop is None or x["i"] < args.stop)]
        cache: dict[tuple[int, str], Game] = {}
        begun = time.perf_counter()
        for n, x in enumerate(todo, 1):
            with args.into.open("a") as f:
                f.write(json.dumps(deepen(x, args.deepen, args.players, cache)) + "\n")
            print(f"\r{n}/{len(todo)} decisions deepened, "
                  f"{time.perf_counter() - begun:.0f} s", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        print(f"load average at end: {os.getloadavg()}")
        return
    if args.rehint:
        unknown = set(args.kinds.split(",")) - set(KINDS.values())
        if unknown:
            p.error(f"--kinds: no such kind of decision {sorted(unknown)}; the kinds are "
                    f"{sorted(set(KINDS.values()))}")
        given = [int(v) for v in args.rehint.split(",")]
        budget = (HINT_PRICE[0], *given) if len(given) == 2 else tuple(given)
        if len(budget) != 3:
            p.error("--rehint takes MOST,MOVES or LEAST,MOST,MOVES")
        rehint(_first(lines, args.start, args.decisions), (budget[0], budget[1], budget[2]),
               set(args.kinds.split(",")), args.players)
        print(f"load average at end: {os.getloadavg()}")
        return
    if not args.summary:
        print(f"hint budget: {HINT_WORLDS} choosing worlds, {HINT_PRICE} pricing worlds; "
              f"reference {args.reference} worlds", flush=True)
        done = {("hint", x["i"]) if x["kind"] == "hint" else (x["kind"], x["j"])
                for x in lines if x["kind"] != "none"}
        done |= {("hint", x["i"]) for x in lines if x["kind"] == "none"}
        cache: dict[tuple[int, str], Game] = {}

        def record(got: dict[str, Any]) -> None:
            lines.append(got)
            if args.out:
                with args.out.open("a") as f:
                    f.write(json.dumps(got) + "\n")

        hints, i, start = 0, args.start, time.perf_counter()
        try:
            if args.shortlists is not None:
                args.reviews_only = 0
                for j in range(args.start // 5, args.start // 5 + args.shortlists):
                    if ("shortlist", j) not in done:
                        record(shortlist_decisions(j, args.players, args.reference, cache))
                    print(f"\rshortlist {j}, {time.perf_counter() - start:.0f} s", end="",
                          file=sys.stderr, flush=True)
            if args.reviews_only is not None:
                for j in range(args.start // 5, args.start // 5 + args.reviews_only):
                    if ("review", j) not in done:
                        record(review_decisions(j, args.players, args.reference, cache))
                    print(f"\rreview {j}, {time.perf_counter() - start:.0f} s", end="",
                          file=sys.stderr, flush=True)
            while args.reviews_only is None and hints < args.decisions and (
                    args.stop is None or i < args.stop):
                if ("hint", i) not in done:
                    record(hint_decision(i, args.players, args.reference, cache)
                           or {"kind": "none", "i": i})
                hints = sum(x["kind"] == "hint" and x["i"] >= args.start for x in lines)
                if i % 5 == 4 and not args.hints_only and ("review", i // 5) not in done:
                    record(review_decisions(i // 5, args.players, args.reference, cache))
                print(f"\r{hints}/{args.decisions} decisions, "
                      f"{time.perf_counter() - start:.0f} s", end="", file=sys.stderr,
                      flush=True)
                i += 1
        except KeyboardInterrupt:
            print("\nstopped early", file=sys.stderr)
        print(file=sys.stderr)
    summary(_first(lines, args.start, args.decisions))
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
