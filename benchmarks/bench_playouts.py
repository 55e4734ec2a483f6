"""The strong bot's playouts: its own loop (before issue 26) against `Table` (now).

Positions: every decision of seat 0 in heuristic games of three players (game seeds
0..`--games`-1, first `--decisions` decisions of each game) that the strong bot weighs.
At each, the position's worlds are dealt as `coach.strong.weigh` deals them, and every
option is played out twice per world: by the loop the playouts had of their own (copied
below as the baseline: one `random.Random` for the whole playout, bots called directly)
and by `coach.strong.playout` (a `Table` keyed on the world's seed), in turn, interleaved
world by world so that both see the same load. Printed: moves per second of each, the
ratio, whether every playout ended with the same points, and the load average.

    python benchmarks/bench_playouts.py                 # 4 games, 30 decisions each
    python benchmarks/bench_playouts.py --games 10 --worlds 12
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Sequence
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from toonerville.coach.memory import Memory, sample_world  # noqa: E402
from toonerville.coach.strong import StrongBot, playout  # noqa: E402
from toonerville.engine import actions as A  # noqa: E402
from toonerville.engine.game import Game  # noqa: E402
from toonerville.engine.rules import Rules  # noqa: E402
from toonerville.players.bots import HeuristicBot  # noqa: E402
from toonerville.players.simulate import play_game  # noqa: E402


def old_playout(game: Game, seat: int, action: A.Action, bots: Sequence[HeuristicBot],
                rules: Rules, rng: random.Random) -> int:
    """The playouts' own loop before issue 26 (the baseline)."""
    r = game.round_number
    first = True
    while not game.is_over and game.round_number == r:
        deciders = game.deciders
        if first and seat in deciders:
            first, move, who = False, action, seat
        else:
            who = deciders[0]
            move = bots[who].choose(game.view(who), rules,
                                    partial(game.legal_actions, who), rng)
        game.apply(move)
    return game.scores[r - 1][seat]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--decisions", type=int, default=30)
    parser.add_argument("--worlds", type=int, default=6)
    args = parser.parse_args()
    times = {"old": 0.0, "table": 0.0}
    moves = {"old": 0, "table": 0}
    differ = playouts = 0
    for g in range(args.games):
        game = play_game(("heuristic",) * 3, seed=g, turn_limit=20)
        strong = StrongBot()
        heuristic = HeuristicBot()
        memory = Memory()
        seen = 0
        for k in range(len(game.actions)):
            pos = game.position_at(k)
            if 0 not in pos.deciders:
                continue
            view = pos.view(0)
            memory.observe(view)
            action, _ = heuristic.explain(view, pos.rules, partial(pos.legal_actions, 0))
            options = strong._options(view, pos.rules, action, partial(pos.legal_actions, 0))
            if len(options) < 2:
                continue
            seen += 1
            if seen > args.decisions:
                break
            bots = [HeuristicBot() for _ in range(pos.players)]
            for w in range(args.worlds):
                seed = random.Random(f"{g}:{k}:{w}").getrandbits(48)
                world, lead = sample_world(view, pos.rules, memory, random.Random(seed))
                for option in options:
                    if not world.is_legal(option):
                        continue
                    got = {}
                    order = ("old", "table") if (k + w) % 2 else ("table", "old")
                    for which in order:
                        played = world.position_at(lead)
                        start = time.perf_counter()
                        if which == "old":
                            got[which] = old_playout(played, 0, option, bots, pos.rules,
                                                     random.Random(seed ^ 0x5EED))
                        else:
                            got[which] = playout(played, 0, option, bots, seed ^ 0x5EED)
                        times[which] += time.perf_counter() - start
                        moves[which] += played.moves_made - lead
                    playouts += 1
                    differ += got["old"] != got["table"]
    rate = {k: moves[k] / times[k] for k in times}
    print(f"{playouts} playouts, {moves['old']} moves each way")
    for k in times:
        print(f"  {k:6} {times[k]:7.2f} s  {rate[k]:9.0f} moves/s")
    print(f"  table / old: {rate['table'] / rate['old']:.3f} of the speed")
    print(f"  playouts ending with other points: {differ}")
    print(f"  load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
