"""Playing many games with bots.

Owns `play_game` (one complete game between bots, each seeing only its own view) and
`simulate` (N seeded games, streamed one `GameRecord` at a time so a progress bar can
follow). Game i's seed is derived from the run's seed and i alone, so the same seed
gives the same records however the games are split between processes.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial

from .bots import Bot, make_bot
from .errors import IllegalActionError
from .game import Game
from .rules import Rules
from .views import RoundRecord

#: rounds that reach this many turns end, scored as they stand (random bots rarely go out)
DEFAULT_TURN_LIMIT = 200
#: what bounds a bot game asked for with `turn_limit=None`: bots never tire, and a round of
#: random bots has run past 3,000 turns, so even then a round ends, scored as it stands,
#: after this many turns (a game of people, `Game(turn_limit=None)`, has no bound)
SAFETY_TURN_LIMIT = 1_000
#: the cyclic collector's first threshold while bot games are played: a game allocates many
#: short-lived tuples and events and builds no cycles worth chasing, so collecting every 700
#: allocations (Python's default) would cost a few per cent of the game for nothing. A run of
#: games (`simulate`) keeps it for the whole run: putting 700 back after each game made the
#: next allocation collect the game's young objects at once, ~5% of a heuristic game's time
GAME_GC_THRESHOLD = 20_000


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


class BotMistake(RuntimeError):
    """A bot chose a move the game refused: a bug in the bot, never the player's fault."""


def play_game(bots: Sequence[Bot | str], seed: int, rules: Rules | None = None,
              turn_limit: int | None = DEFAULT_TURN_LIMIT,
              after_action: Callable[[Game], None] | None = None) -> Game:
    """Play one whole game between `bots` (one per seat); returns the finished game.
    `turn_limit=None` still ends every round after `SAFETY_TURN_LIMIT` turns."""
    players = [make_bot(b) for b in bots]
    if turn_limit is None:
        turn_limit = SAFETY_TURN_LIMIT
    game = Game.new(players=len(players), seed=seed, rules=rules, turn_limit=turn_limit,
                    names=[f"{p.name} {i}" for i, p in enumerate(players)])
    rngs = [random.Random(f"{seed}:bot:{i}") for i in range(len(players))]
    legal = [partial(game.legal_actions, seat) for seat in range(len(players))]
    rules = game.rules
    with _fewer_collections():
        while not game.is_over:
            seat = game.deciders[0]
            action = players[seat].choose(game.view(seat), rules, legal[seat], rngs[seat])
            try:
                game.apply(action)
            except IllegalActionError as err:
                raise BotMistake(f"{players[seat].name} bot at seat {seat} chose "
                                 f"{action.notation()!r}: {err}") from err
            if after_action is not None:
                after_action(game)
    return game


@contextmanager
def _fewer_collections() -> Iterator[None]:
    """Raise the collector's first threshold to `GAME_GC_THRESHOLD` for a while (never
    lower it), and put back what it was."""
    first, *rest = gc.get_threshold()
    if first >= GAME_GC_THRESHOLD:
        yield
        return
    gc.set_threshold(GAME_GC_THRESHOLD, *rest)
    try:
        yield
    finally:
        gc.set_threshold(first, *rest)


def simulate(games: int, bots: Sequence[Bot | str] = ("heuristic",) * 4, seed: int = 0,
             rules: Rules | None = None, turn_limit: int | None = DEFAULT_TURN_LIMIT,
             start: int = 0) -> Iterator[GameRecord]:
    """Play games `start` .. `start + games - 1` of the run seeded `seed`, yielding each
    game's record as soon as it is finished. Every round ends by `turn_limit` turns
    (`None`: by `SAFETY_TURN_LIMIT`), so a run always finishes. Until the run is finished
    (or the iterator closed), the collector's first threshold is `GAME_GC_THRESHOLD`."""
    names = tuple(b if isinstance(b, str) else b.name for b in bots)
    with _fewer_collections():  # for the whole run, not game by game (see GAME_GC_THRESHOLD)
        for index in range(start, start + games):
            s = game_seed(seed, index)
            game = play_game(bots, s, rules, turn_limit)
            yield GameRecord(index=index, seed=s, bots=names, scores=game.scores,
                             rounds=game.records, first_dealer=game.records[0].dealer)
