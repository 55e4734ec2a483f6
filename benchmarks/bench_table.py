"""A shared table of three learners, at the store level: how long a draw keeps the table.

Three store objects on one database (each like one learner's kernel) play a game of
three learners with the default buy-offer setting ("helpful"). On every turn the player
whose turn it is declines the discard and draws from the stock, as a click on Draw does:
their page stores the draw and polls once (`TableStore.play_bots`, which answers the buy
window for every learner whose setting passes), as the page does after a move. Measured:

1. seconds from the draw to the drawer's next decision (the window closed, the drawn card
   in hand), over the windows that closed with no click, p50 / p90 / max;
2. the share of buy windows that were put to a learner (the card helped someone, who then
   clicks Buy or Pass), and so the clicks the others made per ordinary turn;
3. how long a table waits for an absent learner: the table's away limit (the opener's,
   `store.seats.AWAY_AFTER` by default), checked with a clock the script moves: the first
   poll after the limit plays for the learner.

The rest of each turn is a sensible learner's (a heuristic bot's choice). The load
average is printed beside the figures.

    python benchmarks/bench_table.py             # SQLite, 60 turns
    python benchmarks/bench_table.py --turns 200 --where postgresql://…
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from toonerville.engine import actions as A  # noqa: E402
from toonerville.engine.events import Phase  # noqa: E402
from toonerville.players.bots import HeuristicBot  # noqa: E402
from toonerville.store import Seat, TableStore, open_store  # noqa: E402
from toonerville.store.seats import AWAY_AFTER  # noqa: E402


def sensible(seat: Seat, store: TableStore) -> A.Action:
    rules = store._caught_up(seat.code).game.rules
    return HeuristicBot().choose(seat.view, rules, seat.legal_actions,
                                 random.Random(seat.number))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--where", default=None, help="a PostgreSQL URL (default: SQLite)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        where = args.where or str(Path(tmp) / "bench.sqlite")
        pages = [open_store(where) for _ in range(3)]
        code = pages[0].open_table(players=3, seed=17, names=["Ann", "Bo", "Cy"])
        seats = [page.claim(code) for page in pages]
        closed: list[float] = []
        asked = windows = turns = 0
        while turns < args.turns:
            for seat in seats:
                seat.refresh()
            mover = next((s for s in seats if s.seat in s.view.deciders), None)
            if mover is None or mover.finished:
                break
            page = pages[mover.seat]
            view = mover.view
            if view.phase is Phase.BUY:  # put to this learner: the card helps them
                asked += 1
                mover.play(A.Pass(mover.seat))
                page.play_bots(code)
                continue
            if view.phase is Phase.DRAW and view.discard_top is not None:
                turns += 1
                windows += 1
                start = time.perf_counter()
                mover.play(A.Draw(mover.seat))
                page.play_bots(code)
                mover.refresh()
                if mover.view.phase is Phase.PLAY and mover.seat in mover.view.deciders:
                    closed.append(time.perf_counter() - start)
                continue
            mover.play(sensible(mover, page))
            page.play_bots(code)
        # an absent learner: the limit on a clock the script moves
        clock = [0.0]
        probe = open_store(where)
        probe.clock = lambda: clock[0]
        probe.play_bots(code)
        waited = None
        for step in range(1, 3 * int(AWAY_AFTER) + 1):
            clock[0] = float(step)
            if probe.play_bots(code, limit=1):
                waited = step
                break
        for page in (*pages, probe):
            page.close()
    load = os.getloadavg()
    print(f"database: {'PostgreSQL' if args.where else 'SQLite'}; turns {turns}; "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    if closed:
        q = statistics.quantiles(closed, n=10) if len(closed) > 1 else [closed[0]] * 9
        print(f"draw -> the drawer's next decision, window closed with no click: "
              f"p50 {statistics.median(closed):.4f} s, p90 {q[8]:.4f} s, max "
              f"{max(closed):.4f} s over {len(closed)} windows")
    print(f"buy windows put to a learner: {asked} of {windows} "
          f"({asked / max(windows, 1):.0%}); clicks by the others per ordinary turn: "
          f"{asked / max(turns, 1):.2f} (before: one Pass per other learner, 2)")
    print(f"an absent learner on their turn: a bot plays for them after {waited} s "
          f"(the table's limit, default {AWAY_AFTER:g} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
