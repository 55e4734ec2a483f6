"""How much a round's review plays out: rounds played out and moves made, per review.

The review's budget is a number of worlds, never a time, so its work is counted, not
timed: every round a review plays out (`coach.strong.playout`) and the moves made in
it, for the reviews of `bench_coach_calibration.py` (a round of a game with the beginner
bot in seat 0: game seed `j // 11`, round `1 + j % 11`). Run it on two versions of the
code (PYTHONPATH) to compare their work on the same reviews; the load average is
printed, the seconds too (under that load).

    PYTHONPATH=. python benchmarks/bench_review_work.py --reviews 12
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from toonerville.coach import strong
from toonerville.coach.review import review_round
from toonerville.engine import actions as A
from toonerville.engine.game import Game
from toonerville.players.bots import HeuristicBot
from toonerville.players.simulate import play_game


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reviews", type=int, default=12)
    p.add_argument("--start", type=int, default=0, help="first review index j")
    p.add_argument("--players", type=int, default=4)
    args = p.parse_args()
    print(f"load average at start: {os.getloadavg()}", flush=True)
    counted = [0, 0]  # rounds played out, moves made in them
    original = strong.playout

    def counting(game: Game, seat: int, action: A.Action, bots: list[HeuristicBot],
                 seed: int) -> int:
        before = game.moves_made
        got = original(game, seat, action, bots, seed)
        counted[0] += 1
        counted[1] += game.moves_made - before
        return got

    strong.playout = counting  # type: ignore[assignment]
    rounds, moves, seconds, shown = [], [], [], 0
    games: dict[int, Game] = {}
    for j in range(args.start, args.start + args.reviews):
        seed = j // 11
        if seed not in games:
            games = {seed: play_game(["beginner", *(["heuristic"] * (args.players - 1))],
                                     seed, turn_limit=200)}
        counted[:] = [0, 0]
        start = time.perf_counter()
        shown += len(review_round(games[seed], 0, 1 + j % 11))
        seconds.append(time.perf_counter() - start)
        rounds.append(counted[0])
        moves.append(counted[1])
    print(f"{args.reviews} reviews (j {args.start}..{args.start + args.reviews - 1}), "
          f"{shown} decisions shown")
    print(f"  rounds played out per review: mean {statistics.fmean(rounds):.0f}, max "
          f"{max(rounds)}; total {sum(rounds)}")
    print(f"  moves played out per review: mean {statistics.fmean(moves):.0f}, max "
          f"{max(moves)}; total {sum(moves)}")
    print(f"  seconds per review (wall, under this load): median "
          f"{statistics.median(seconds):.1f}, max {max(seconds):.1f}")
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
