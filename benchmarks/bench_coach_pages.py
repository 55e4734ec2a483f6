"""How long do the pages' coach features take in the kernel: a hint, and a round's review?

Hints: plays the first `--rounds` rounds of `--games` games (seeds 0, 1, ...) with
heuristic bots in every seat and, at every decision of seat 0, asks the page's hint
(`widgets.coach_view.hint_for_game`: its budget of work, `HINT_WORLDS` worlds, and no
clock) and times it; prints how many hints and how many weighed
alternatives, the median, 90th percentile and maximum seconds, wall-clock and the
process's CPU time. Reviews: plays `--games` games with the beginner bot in seat 0
(the learner) and heuristic bots elsewhere, and times `coach.review.review_round` of
each of the first `--review-rounds` rounds for seat 0 (what the recap's review runs in
its thread). The load average is printed before and after: on a loaded machine the CPU
time is what one free core would take, the wall-clock time what a learner waits here.

    nice python benchmarks/bench_coach_pages.py --games 2 --rounds 2 --review-rounds 3
    nice python benchmarks/bench_coach_pages.py --games 1 --rounds 11 --every 7 --review-rounds 11
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from functools import partial

from toonerville.coach.review import review_round
from toonerville.engine.game import Game
from toonerville.players.bots import HeuristicBot, make_bot
from toonerville.players.simulate import play_game
from toonerville.widgets import coach_view


def _figures(name: str, xs: list[float]) -> str:
    if not xs:
        return f"{name}: none"
    q = statistics.quantiles(xs, n=10)[-1] if len(xs) > 1 else xs[0]
    return (f"{name}: n={len(xs)} median {statistics.median(xs):.3f} s, "
            f"90th pct {q:.3f} s, max {max(xs):.3f} s")


def hints(games: int, rounds: int, players: int, every: int = 1) -> None:
    wall: list[float] = []
    cpu: list[float] = []
    weighed_wall: list[float] = []
    weighed_cpu: list[float] = []
    for seed in range(games):
        game = Game.new(players=players, seed=seed, turn_limit=200)
        bot, rng = HeuristicBot(), random.Random(seed)
        while not game.is_over and game.round_number <= rounds:
            seat = game.deciders[0]
            if seat == 0 and game.moves_made % every == 0:
                start, start_cpu = time.perf_counter(), time.process_time()
                found = coach_view.hint_for_game(game, 0)
                spent, spent_cpu = time.perf_counter() - start, time.process_time() - start_cpu
                wall.append(spent)
                cpu.append(spent_cpu)
                if found.alternatives:
                    weighed_wall.append(spent)
                    weighed_cpu.append(spent_cpu)
            game.apply(bot.choose(game.view(seat), game.rules,
                                  partial(game.legal_actions, seat), rng))
    print(f"hints (HINT_WORLDS={coach_view.HINT_WORLDS}), rounds 1-{rounds}:")
    for name, xs in (("  wall, every hint", wall), ("  CPU, every hint", cpu),
                     ("  wall, hints with costs", weighed_wall),
                     ("  CPU, hints with costs", weighed_cpu)):
        print(_figures(name, xs), flush=True)


def reviews(games: int, rounds: int, players: int) -> None:
    for seed in range(games):
        bots = [make_bot("beginner"), *(["heuristic"] * (players - 1))]
        game = play_game(bots, seed, turn_limit=200)
        for r in range(1, min(rounds, game.round_number) + 1):
            start, start_cpu = time.perf_counter(), time.process_time()
            found = review_round(game, 0, r)
            spent, spent_cpu = time.perf_counter() - start, time.process_time() - start_cpu
            print(f"review seed {seed} round {r}: {len(found)} decisions, wall {spent:.2f} s,"
                  f" CPU {spent_cpu:.2f} s", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--rounds", type=int, default=2, help="the last round of the hints")
    p.add_argument("--review-rounds", type=int, default=3,
                   help="rounds reviewed per game (0: no reviews)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--every", type=int, default=1,
                   help="time the hint only at positions whose move number is a multiple "
                   "of this (a sample spread over a long game)")
    args = p.parse_args()
    print(f"load average at start: {os.getloadavg()}", flush=True)
    hints(args.games, args.rounds, args.players, args.every)
    print(f"load average: {os.getloadavg()}", flush=True)
    if args.review_rounds:
        reviews(args.games, args.review_rounds, args.players)
    print(f"load average at the end: {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
