"""Positions a teacher puts to the class on the live board, each with the seat to act.

Owns the four ways a live board's question finds its position, each giving a `Game` as
it stands and the seat that decides there (the first decider):

- `deal_position(seed, round, moves)`: a seeded game the heuristic bots play up to round
  `round`, then `moves` moves into it (0: the round's first decision, draw or take);
- `scenario_position(name, seed)`: a named teaching position (`SCENARIO_NAMES`: the
  play app's `scenarios.SCENARIOS`, and the lessons' buy offer and Rook swap);
- `saved_position(text)`: a saved game (`Game.from_json`) as it was saved;
- `review_position(game, mistake)`: a costly decision a review found
  (`review.Mistake`), as the board stood before it was made.

A position where nobody decides (a game over) is refused with the engine's sentence.
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine.errors import RulesError
from ..engine.game import Game
from ..engine.messages import msg
from ..engine.rules import ROUNDS
from ..players.scenarios import SCENARIOS, buy_position, player_names, rook_position
from ..players.table import Table
from .review import Mistake


def _buy(seed: int = 3) -> Game:
    """04's buy offer: Crow draws from the stock, so G3 is offered to the next seats."""
    game = Game.from_position(**buy_position(4, seed), names=player_names(4), seed=seed)
    game.draw(1)
    return game


def _rook(seed: int = 5) -> Game:
    return rook_position(seed=seed)


#: the named positions: the play app's scenarios, the buy offer and the Rook swap
MAKERS: dict[str, Callable[..., Game]] = {**SCENARIOS, "buy": _buy, "rook": _rook}
SCENARIO_NAMES = tuple(MAKERS)


def _decider(game: Game) -> tuple[Game, int]:
    if not game.deciders:
        raise RulesError(msg("nobody decides in this position: the game is over", None))
    return game, game.deciders[0]


def deal_position(seed: int, round_number: int = 1, moves: int = 0, players: int = 4
                  ) -> tuple[Game, int]:
    """Game `seed` played by heuristic bots up to round `round_number`, then `moves`
    moves into it."""
    if not 1 <= round_number <= ROUNDS:
        raise RulesError(msg("a game has rounds 1 to {n}, not {k}", None, n=ROUNDS,
                             k=round_number))
    game = Game.new(players=players, seed=seed, names=player_names(players))
    table = Table(game, dict.fromkeys(range(players), "heuristic"))
    while game.round_number < round_number and not game.is_over:
        table.step()
    for _move in range(moves):
        if game.round_number != round_number or table.step() is None:
            break
    return _decider(game)


def scenario_position(name: str, seed: int | None = None) -> tuple[Game, int]:
    """The named position `name` (of `SCENARIO_NAMES`), with its own seed or `seed`."""
    make = MAKERS.get(name)
    if make is None:
        raise RulesError(msg("there is no position called {name}: choose one of {names}",
                             None, name=name[:40], names=", ".join(SCENARIO_NAMES)))
    return _decider(make() if seed is None else make(seed=seed))


def saved_position(text: str | bytes) -> tuple[Game, int]:
    """A saved game as it was saved (`Game.from_json`: its refusals are the save's)."""
    return _decider(Game.from_json(text))


def review_position(game: Game, mistake: Mistake) -> tuple[Game, int]:
    """The board as it stood before the costly decision `mistake` was made."""
    return mistake.position(game), mistake.seat
