"""Bot levels: who they are, the beginner bot, and what a level is worth in points.

Owns `LEVELS` (the levels a page offers, weakest first, each with a sentence that
describes it, translated), `BeginnerBot` (the heuristic bot with a learner's slips: now
and then, by its seeded generator, it misses a lay-off, a good buy or a useful discard)
and `compare_levels` (paired games: each deal played twice, one seat played once by each
level, the other seats heuristic, the seat rotated game by game; one `Pair` per deal;
`explorer.arms.level_difference` sums them up).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..engine import actions as A
from ..engine.events import Phase
from ..engine.messages import N_, Message, msg
from ..engine.rules import Rules
from ..engine.views import PlayerView
from ..players.bots import Bot, HeuristicBot, Legal, make_bot
from ..players.simulate import DEFAULT_TURN_LIMIT, game_seed, play_game

#: the levels a page offers, weakest first, with the sentence that describes each
LEVELS: dict[str, str] = {
    "beginner": N_("Plays like a person learning the game: now and then it misses a "
                   "lay-off or a good buy."),
    "heuristic": N_("Plays like a sensible beginner: keeps cards that work toward the "
                    "contract, lays down as soon as it can and lays off everything that "
                    "fits."),
    "strong": N_("Weighs each real choice by playing the round out many times with the "
                 "cards it cannot see dealt at random, and leaves the usual move only for "
                 "one that clearly leaves it fewer points."),
}


#: the levels' names, as a page shows them (translated)
LEVEL_NAMES = {"beginner": N_("beginner"), "heuristic": N_("heuristic"),
               "strong": N_("strong")}


def describe_level(kind: str) -> Message:
    """The sentence that describes a level (or any bot of the registry)."""
    from ..players.bots import BOTS

    if kind in LEVELS:
        return msg(LEVELS[kind], None)
    if kind not in BOTS:
        make_bot(kind)  # the registry's own refusal
    return msg(_OTHERS.get(kind, N_("A computer player.")), None)


_OTHERS = {
    "random": N_("Picks any legal move at random."),
    "nobuy": N_("The heuristic bot that never buys a discard."),
}


class BeginnerBot(HeuristicBot):
    """The heuristic bot with a learner's slips (see the module); `slip` is the chance
    of each slip, drawn from the generator the game hands it (same seed, same slips)."""

    name = "beginner"

    def __init__(self, slip: float = 0.35) -> None:
        super().__init__()
        self.slip = slip

    def choose(self, view: PlayerView, rules: Rules, legal: Legal,
               rng: random.Random) -> A.Action:
        action = super().choose(view, rules, legal, rng)
        if isinstance(action, A.Buy) and rng.random() < self.slip:
            return A.Pass(view.seat)  # a good buy missed
        if isinstance(action, A.TakeDiscard) and rng.random() < self.slip / 2:
            return A.Draw(view.seat)  # a useful discard not seen
        if isinstance(action, A.LayOff) and rng.random() < self.slip:
            # a lay-off missed: the discard it would make instead, if that is legal
            options = legal()
            discards = [a for a in options if isinstance(a, A.Discard)
                        and a.card != action.card]
            if discards and view.phase is Phase.PLAY:
                return max(discards, key=lambda a: (a.card.points, a.card.sort_key))
        return action


@dataclass(frozen=True, slots=True)
class Pair:
    """One deal played twice: the seat that changed level, and its total each time."""

    index: int
    seed: int
    seat: int
    a: int  # the seat's game total with level A in it
    b: int  # ... with level B


def compare_levels(level_a: str | Callable[[], Bot], level_b: str | Callable[[], Bot],
                   games: int, seed: int = 0, players: int = 4, start: int = 0,
                   rules: Rules | None = None, others: str = "heuristic",
                   turn_limit: int | None = DEFAULT_TURN_LIMIT) -> Iterator[Pair]:
    """Deals `start` .. `start + games - 1` of the run seeded `seed`, each played twice
    (see the module); a level is a bot kind or a function making a fresh bot."""
    for index in range(start, start + games):
        s = game_seed(seed, index)
        seat = index % players
        totals = []
        for level in (level_a, level_b):
            bot = make_bot(level) if isinstance(level, str) else level()
            bots: list[Bot | str] = [others] * players
            bots[seat] = bot
            game = play_game(bots, s, rules, turn_limit)
            totals.append(game.totals[seat])
        yield Pair(index, s, seat, totals[0], totals[1])
