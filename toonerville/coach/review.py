"""A review of a round: the seat's decisions that cost the most, as the strong bot sees it.

Owns `review_round(game, seat, round_number)` → up to three `Mistake`s (most costly
first) and `review_game` (every round). Each mistake names the engine's position before
the move (`Mistake.moves`: `game.position_at(moves)` is the board as it stood), the move
made, the better move, the estimated cost in points this round with the sample behind
it, and a one-sentence reason with its rule id.

Two passes keep a round's review within seconds: every decision of the seat where the
move made is not the strong bot's (or is one the bot weighs: draw or take, buy or pass,
which discard) is first weighed in a few worlds against the bot's choices, then the most
costly-looking ones again in more; only the second pass's figures are reported. A missed
lay-down or lay-off is weighed too (the bot's move against the move made); the reason
is then the bot's own sentence for it. Same game, same seat, same review.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .. import actions as A
from ..game import Game
from ..messages import Message
from .hint import decide_at, move_words, round_start
from .strong import _CHOSEN, _reason

#: worlds per decision in the first pass and the second
FIRST_WORLDS, SECOND_WORLDS = 2, 8
#: decisions weighed again in the second pass
SHORTLIST = 6
#: a move that costs less than this many points is not worth a learner's attention
LEAST_COST = 2.0


@dataclass(frozen=True, slots=True)
class Mistake:
    """One costly decision (see the module)."""

    round_number: int
    seat: int
    moves: int  # game.position_at(moves) is the position; game.actions[moves] the move
    made: A.Action
    better: A.Action
    cost: float
    samples: int
    reason: Message
    made_words: Message
    better_words: Message

    def position(self, game: Game) -> Game:
        """The game as it stood when the move was made (the engine's own position)."""
        return game.position_at(self.moves)


def _round_moves(game: Game, round_number: int) -> range:
    """The positions at which round `round_number`'s moves were made."""
    start = round_start(game, round_number)
    end = round_start(game, round_number + 1)
    if end == game.moves_made and game.position_at(end).round_number == round_number:
        end = game.moves_made  # the round still going: every move made so far
    return range(start, end)


def _cost(game: Game, seat: int, k: int, worlds: int) -> tuple[float, Mistake | None]:
    made = game.actions[k]
    decision = decide_at(game, seat, k, worlds=worlds, time_budget=None, also=(made,))
    mine = decision.cost(made)
    if mine is None or not decision.weighed:
        return 0.0, None
    best = decision.cost(decision.action)
    if best is None:
        return 0.0, None
    cost = mine.points - best.points
    if best.action == made or cost <= 0:
        return 0.0, None
    view = game.position_at(k).view(seat)
    card = view.offered or view.discard_top or ""
    return cost, Mistake(view.round_number, seat, k, made, best.action, cost,
                         min(best.samples, mine.samples),
                         _reason(best, decision.weighed, made, view)
                         if type(best.action) in _CHOSEN and type(made) in _CHOSEN
                         else decision.reason,
                         move_words(made, card), move_words(best.action, card))


class ReviewCancelled(Exception):
    """A review stopped by its caller's `cancel` (a page that no longer needs it)."""


def review_round(game: Game, seat: int, round_number: int, most: int = 3,
                 least_cost: float = LEAST_COST,
                 cancel: Callable[[], bool] | None = None) -> tuple[Mistake, ...]:
    """Up to `most` of `seat`'s decisions in the round that cost at least `least_cost`
    points by the strong bot's estimate, most costly first. `cancel()` is asked before
    each decision is weighed; True stops the review (`ReviewCancelled`)."""
    def weighed(k: int, worlds: int) -> tuple[float, Mistake | None]:
        if cancel is not None and cancel():
            raise ReviewCancelled(f"the review of round {round_number} was stopped")
        return _cost(game, seat, k, worlds)

    actions = game.actions
    ks = [k for k in _round_moves(game, round_number) if actions[k].seat == seat]
    first = sorted(((weighed(k, FIRST_WORLDS)[0], k) for k in ks), reverse=True)
    shortlist = [k for c, k in first[:SHORTLIST] if c > 0]
    found = []
    for k in shortlist:
        cost, mistake = weighed(k, SECOND_WORLDS)
        if mistake is not None and cost >= least_cost:
            found.append(mistake)
    found.sort(key=lambda m: (-m.cost, m.moves))
    return tuple(found[:most])


def review_game(game: Game, seat: int, most: int = 3) -> dict[int, tuple[Mistake, ...]]:
    """`review_round` of every round with moves so far, by round number."""
    return {r: review_round(game, seat, r, most) for r in range(1, game.round_number + 1)
            if _round_moves(game, r)}
