"""Clicks per ordinary turn at a shared table of three learners (issue 17).

Three `SharedTable` pages (09) share one SQLite table of three seats, all learners. The
learner whose turn it is draws from the stock and discards the first card the engine
accepts (3 clicks: Draw, the card, Discard); every buy offer a page shows is answered
with a click on Pass. Played once with each learner's buy-offer setting at "always" (what
a shared table did before: every draw waited for every other learner's Pass) and once at
"helpful" (the default now: the seat view passes for a learner a discard that does not
help them). Prints clicks per turn, the Pass clicks per draw, and the wall time from a
click on Draw to the moment the drawer may discard (kernel side, no browser), with
`os.getloadavg()`.

    python benchmarks/bench_seat_clicks.py [--turns 30] [--seed 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from toonerville.engine import actions as A  # noqa: E402
from toonerville.engine.events import Phase  # noqa: E402
from toonerville.store import open_store  # noqa: E402
from toonerville.widgets.classroom import SharedTable  # noqa: E402


def play(setting: str, turns: int, seed: int) -> tuple[float, float, list[float]]:
    """(clicks per turn, Pass clicks per draw, seconds from Draw to may-discard)."""
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.sqlite"
        pages = [SharedTable(open_store(db)) for _ in range(3)]
        code = pages[0].open_table(players=3, learners=3, seed=seed)
        for p in pages[1:]:
            p.join(code)
        for p in pages:
            p.seat_view.buy_offers.value = setting
        clicks = passes = draws = 0
        waits: list[float] = []
        for _step in range(turns * 20):
            if draws >= turns:
                break
            for p in pages:
                p.poll()
            offered = [p for p in pages if p.seat is not None
                       and p.seat.view.phase is Phase.BUY and p.seat.seat in p.seat.view.deciders]
            for p in offered:
                p.pass_button.click()
                clicks += 1
                passes += 1
            if offered:
                continue
            me = next(p for p in pages if p.seat is not None
                      and p.seat.view.current == p.seat.seat)
            assert me.seat is not None
            view = me.seat.view
            if view.phase is Phase.DRAW:
                start = time.perf_counter()
                me.draw_button.click()
                clicks += 1
                draws += 1
                for _wait in range(20):  # the others answer the offer (or their pages do)
                    for p in pages:
                        p.poll()
                    if me.seat.view.phase is Phase.PLAY:
                        break
                    for p in pages:
                        if p.seat is not None and p.seat.view.phase is Phase.BUY \
                                and p.seat.seat in p.seat.view.deciders:
                            p.pass_button.click()
                            clicks += 1
                            passes += 1
                waits.append(time.perf_counter() - start)
            elif view.phase is Phase.PLAY:
                legal = [a for a in me.seat.legal_actions() if isinstance(a, A.Discard)]
                me.hand.pick([legal[0].card])
                me.discard_button.click()
                clicks += 2
        return clicks / max(draws, 1), passes / max(draws, 1), waits


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args(argv)
    for setting in ("always", "helpful"):
        per_turn, passes, waits = play(setting, args.turns, args.seed)
        print(f"{setting:>8}: {per_turn:.2f} clicks per turn, {passes:.2f} Pass clicks per "
              f"draw, Draw to may-discard median {statistics.median(waits) * 1000:.0f} ms "
              f"(kernel side, {len(waits)} draws)")
    print(f"load average: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
