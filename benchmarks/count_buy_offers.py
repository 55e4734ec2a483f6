"""How many buy offers a human answers in one seeded game of the play app (notebook 07),
under each buy-offer setting ("helpful", the default; "always"; "never").

A counting tool, not a timing: the human's seat is played by the heuristic bot through
the app's session model (`widgets.session.PlaySession`), exactly as the page would
stop for a person: every time the session hands the game back with a buy offer open,
that is one offer answered; every draw is one own turn. The same seed deals the same
game under each setting, but the games part ways once an answer differs.

    python benchmarks/count_buy_offers.py                 # seeds 1-5, 3 heuristic bots
    python benchmarks/count_buy_offers.py --seeds 7 --bots 4
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from toonerville.engine import actions as A  # noqa: E402
from toonerville.engine.events import Phase  # noqa: E402
from toonerville.players.bots import HeuristicBot  # noqa: E402
from toonerville.widgets.session import PlaySession  # noqa: E402
from toonerville.widgets.session_words import BUY_OFFERS  # noqa: E402

HUMAN = 0


def count(seed: int, bots: int, setting: str) -> dict[str, int]:
    """Offers answered (and bought), own turns, in one game under `setting`."""
    session = PlaySession(seed=seed, bots=bots, buy_offers=setting)
    me, rng = HeuristicBot(), random.Random(seed)
    offers = bought = turns = 0
    game = session.game
    while not game.is_over:
        view = game.view(HUMAN)
        action = me.choose(view, game.rules, lambda: game.legal_actions(HUMAN), rng)
        if view.phase is Phase.BUY:
            offers += 1
            bought += isinstance(action, A.Buy)
        elif view.phase is Phase.DRAW:
            turns += 1
        if not session.act(action):  # never expected: the bot asks the engine
            raise RuntimeError(f"refused: {action} ({session.message[1]})")
    return {"offers": offers, "bought": bought, "turns": turns}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("--bots", type=int, default=3)
    args = parser.parse_args()
    with open("/proc/loadavg") as load:
        print(f"load average: {load.read().strip()}")
    print(f"{'seed':>4} {'setting':>8} {'offers':>7} {'bought':>7} {'own turns':>10}")
    totals = {key: [0, 0, 0] for key, _label in BUY_OFFERS}
    for seed in args.seeds:
        for key, _label in BUY_OFFERS:
            got = count(seed, args.bots, key)
            for i, name in enumerate(("offers", "bought", "turns")):
                totals[key][i] += got[name]
            print(f"{seed:>4} {key:>8} {got['offers']:>7} {got['bought']:>7} "
                  f"{got['turns']:>10}")
    for key, (offers, bought, turns) in totals.items():
        print(f" all {key:>8} {offers:>7} {bought:>7} {turns:>10}")


if __name__ == "__main__":
    main()
