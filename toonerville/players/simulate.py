"""Playing many games with bots.

Owns `play_game` (one complete game between bots at a `table.Table`, each seeing only its
own view),
`simulate` (N seeded games, streamed one `GameRecord` at a time so a progress bar can
follow) and `collector_paused`, the pause of the cyclic collector while bots play (the
strong bot's playouts pause it too). Game i's seed is derived from the run's seed and i
alone, so the same seed gives the same records however the games are split between
processes.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from ..engine.game import Game
from ..engine.rules import Rules
from ..engine.views import RoundRecord
from .bots import Bot, make_bot
from .table import BotMistake, Table

#: rounds that reach this many turns end, scored as they stand (random bots rarely go out)
DEFAULT_TURN_LIMIT = 200
#: what bounds a bot game asked for with `turn_limit=None`: bots never tire, and a round of
#: random bots has run past 3,000 turns, so even then a round ends, scored as it stands,
#: after this many turns (a game of people, `Game(turn_limit=None)`, has no bound)
SAFETY_TURN_LIMIT = 1_000
# The cyclic collector is paused while bots play (`collector_paused`). A game allocates
# tens of thousands of objects, and each automatic collection walks the young ones still
# alive (the game's history and positions, the bots' caches): even collecting every 20,000
# allocations rather than Python's 700 cost ~8% of a heuristic game. What a game leaves as
# cycles is small (a few thousand objects, mostly the solver's recursive closures) and is
# collected once the game is gone: by `simulate` after each game, by Python's own next
# collection after a lone `play_game`.
#: in a run, a full collection after every this many games (a young one after the others)
FULL_COLLECTION_EVERY = 100


@dataclass(frozen=True, slots=True)
class GameRecord:
    """The facts of one finished bot game."""

    index: int
    seed: int
    bots: tuple[str, ...]
    scores: tuple[tuple[int, ...], ...]
    rounds: tuple[RoundRecord, ...]
    first_dealer: int

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(r[i] for r in self.scores) for i in range(len(self.bots)))

    @property
    def winners(self) -> tuple[int, ...]:
        best = min(self.totals)
        return tuple(i for i, t in enumerate(self.totals) if t == best)


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` in a run seeded `seed`."""
    return random.Random(f"toonerville:{seed}:{index}").randrange(2**31)


def play_game(bots: Sequence[Bot | str], seed: int, rules: Rules | None = None,
              turn_limit: int | None = DEFAULT_TURN_LIMIT,
              after_action: Callable[[Game], None] | None = None) -> Game:
    """Play one whole game between `bots` (one per seat) at a `Table`; returns the
    finished game. `turn_limit=None` still ends every round after `SAFETY_TURN_LIMIT`
    turns. A bot's mistake (`table.BotMistake`) is raised once the game is over."""
    players = [make_bot(b) for b in bots]
    if turn_limit is None:
        turn_limit = SAFETY_TURN_LIMIT
    game = Game.new(players=len(players), seed=seed, rules=rules, turn_limit=turn_limit,
                    names=[f"{p.name} {i}" for i, p in enumerate(players)])
    table = Table(game, dict(enumerate(players)))
    with collector_paused():
        if after_action is None:
            table.run()
        else:
            while table.step() is not None:
                after_action(game)
    if table.mistakes:
        raise table.mistakes[0]
    if table.stalled is not None:  # pragma: no cover - bot games have a turn limit
        raise BotMistake(str(table.stalled))
    return game


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic collector for a while, and resume it after (one paused by someone
    else is left paused)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def simulate(games: int, bots: Sequence[Bot | str] = ("heuristic",) * 4, seed: int = 0,
             rules: Rules | None = None, turn_limit: int | None = DEFAULT_TURN_LIMIT,
             start: int = 0) -> Iterator[GameRecord]:
    """Play games `start` .. `start + games - 1` of the run seeded `seed`, yielding each
    game's record as soon as it is finished. Every round ends by `turn_limit` turns
    (`None`: by `SAFETY_TURN_LIMIT`), so a run always finishes. The cyclic collector is
    paused while a game is played, and the game's few cycles are collected as soon as the
    game is gone, before its record is yielded (the collector runs as usual meanwhile)."""
    names = tuple(b if isinstance(b, str) else b.name for b in bots)
    for index in range(start, start + games):
        with collector_paused():  # never while the caller has the record: its code is its own
            s = game_seed(seed, index)
            game = play_game(bots, s, rules, turn_limit)
            record = GameRecord(index=index, seed=s, bots=names, scores=game.scores,
                                rounds=game.records, first_dealer=game.records[0].dealer)
            del game  # freed now, by reference counting: the collection walks only its cycles
            # the young objects, and now and then everything: what was still alive at one
            # collection and became garbage later would otherwise wait for the run's end
            gc.collect(0 if (index - start + 1) % FULL_COLLECTION_EVERY else 2)
        yield record
