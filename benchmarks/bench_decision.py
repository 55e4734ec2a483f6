"""How long does the strong bot take per decision, as the strong level plays?

Plays the first `--rounds` rounds of `--games` games (seeds 0, 1, ...) with the strong
bot in seat 0 and heuristic bots elsewhere, and times every decision of the strong bot:
prints how many decisions and how many were searched, the median, 90th percentile and
maximum seconds per decision (over all, and over the searched ones), both wall-clock and
the process's CPU time (on a loaded machine the CPU time is what one free core would
take; the wall-clock time is what a player waits here now, and the bot's time budget
is wall-clock), and the load average before and after. `--before`: also the strong bot
without the level's sharper worlds, at the same decisions, the two in turn.

    nice python benchmarks/bench_decision.py --games 2 --rounds 3
    python benchmarks/bench_decision.py --games 2 --first-round 8 --rounds 11 --before
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from functools import partial

from toonerville.coach.strong import DEFAULT_TIME_BUDGET, DEFAULT_WORLDS, StrongBot
from toonerville.engine.game import Game
from toonerville.players.bots import HeuristicBot


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--rounds", type=int, default=3, help="the last round played")
    p.add_argument("--first-round", type=int, default=1, help="seat 0 is played by the "
                   "heuristic bot (untimed) before this round (round 9-11 hands are the "
                   "largest)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--worlds", type=int, default=DEFAULT_WORLDS)
    p.add_argument("--budget", type=float, default=DEFAULT_TIME_BUDGET,
                   help="seconds per decision (wall-clock); 0: no time cap, every world")
    p.add_argument("--before", action="store_true",
                   help="also time, at the same decisions and in turn with it, the strong "
                   "bot without the level's sharper worlds (kept 0, the stock as dealt, no "
                   "worlds added to close calls: the strong level before 2026-12-06)")
    args = p.parse_args()
    print(f"load average at start: {os.getloadavg()}", flush=True)
    names = ["the level", *(["before"] if args.before else [])]
    times: dict[str, dict[str, list[float]]] = {
        n: {"wall": [], "searched wall": [], "CPU": [], "searched CPU": []} for n in names}
    for seed in range(args.games):
        game = Game.new(players=args.players, seed=seed, turn_limit=200)
        bots = {"the level": StrongBot(worlds=args.worlds, time_budget=args.budget or None)}
        if args.before:
            bots["before"] = StrongBot(worlds=args.worlds, time_budget=args.budget or None,
                                       kept=0, aligned=False, closer=0)
        others = [HeuristicBot() for _ in range(args.players)]
        rng = random.Random(seed)
        while not game.is_over and game.round_number <= args.rounds:
            seat = game.deciders[0]
            view, legal = game.view(seat), partial(game.legal_actions, seat)
            if seat == 0 and game.round_number >= args.first_round:
                decided = {}
                turn = names if game.moves_made % 2 else names[::-1]  # in turn: who first
                for name in turn:
                    start, start_cpu = time.perf_counter(), time.process_time()
                    decided[name] = bots[name].decide(
                        view, game.rules, legal, random.Random(f"{seed}:{game.moves_made}"))
                    spent = time.perf_counter() - start
                    spent_cpu = time.process_time() - start_cpu
                    times[name]["wall"].append(spent)
                    times[name]["CPU"].append(spent_cpu)
                    if decided[name].weighed:
                        times[name]["searched wall"].append(spent)
                        times[name]["searched CPU"].append(spent_cpu)
                action = decided["the level"].action  # the game goes on as the level plays
            else:
                action = others[seat].choose(view, game.rules, legal, rng)
            game.apply(action)
    for name in names:
        got = times[name]
        print(f"{name}: {len(got['wall'])} decisions of the strong bot "
              f"({len(got['searched wall'])} searched), worlds {args.worlds}, budget "
              f"{args.budget} s, {args.games} games, rounds {args.first_round}-{args.rounds}")
        for label, xs in (("all decisions, wall", got["wall"]),
                          ("searched decisions, wall", got["searched wall"]),
                          ("all decisions, CPU", got["CPU"]),
                          ("searched decisions, CPU", got["searched CPU"])):
            if xs:
                q = statistics.quantiles(xs, n=10)[-1] if len(xs) > 1 else xs[0]
                print(f"  {label}: median {statistics.median(xs):.3f} s, 90th percentile "
                      f"{q:.3f} s, max {max(xs):.3f} s")
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
