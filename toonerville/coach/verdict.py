"""The coach's verdict on a class's answers to one position: what each answer costs.

Owns `class_verdict(game, seat, answers)` → the coach's move and an `AnswerCost` for each
different answer the class gave: how many points more than the coach's move it leaves
this round on average, with its 95 % interval and the rounds played out behind it. The
coach's move is the strong bot's (`hint.decide_at`); the answers are then priced against
it on fresh worlds (`hint.price_at`: every answer in the same worlds with the same luck,
independent of the worlds that chose the move), as a hint prices its alternatives, and
stated as a hint states them (`hint.stated_alternative`): the posterior of the measured
difference under the prior of true costs of its kind of decision (`shrink`), the worlds'
own mean kept beside it (`measured`). Each cost is said in the hint's own sentences
(`hint.Alternative.message`: "costs about 6 points … (2 to 10 points; 32 rounds played
out)", "about the same", "may be better").

Same position, same answers, same verdict, however loaded the machine: the work is a
number of worlds, never a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engine import actions as A
from ..engine.game import Game
from ..engine.messages import Message, msg
from .hint import HINT_PRICE, Alternative, decide_at, price_at, stated_alternative
from .shrink import prior_for
from .strong import DEFAULT_WORLDS, move_words


@dataclass(frozen=True, slots=True)
class AnswerCost:
    """One answer priced against the coach's move (`best`: it is the coach's move): the
    cost stated and its 95 % interval (the posterior's, see the module), the rounds
    played out, and `measured`, the worlds' own mean difference (None: not shrunk)."""

    action: A.Action
    cost: float
    low: float
    high: float
    samples: int
    best: bool = False
    measured: float | None = None


def class_verdict(game: Game, seat: int, answers: Sequence[A.Action],
                  worlds: int = DEFAULT_WORLDS, price: tuple[int, int] = HINT_PRICE
                  ) -> tuple[AnswerCost, ...]:
    """The coach's move for `seat` in `game` as it stands (first, `best`), then each
    different answer of `answers`, cheapest first."""
    decision = decide_at(game, seat, worlds=worlds, time_budget=None)
    best = decision.action
    options = [best, *dict.fromkeys(a for a in answers if a != best)]
    if len(options) == 1:
        return (AnswerCost(best, 0.0, 0.0, 0.0, 0, True),)
    priced = price_at(game, seat, game.moves_made, options, *price)
    first = next((w for w in priced if w.action == best), None)
    out = [AnswerCost(best, 0.0, 0.0, 0.0, first.samples if first else 0, True)]
    for w in priced:
        if w.action == best or first is None:
            continue
        stated = stated_alternative(w, first, move_words(w.action), prior_for(best))
        out.append(AnswerCost(w.action, stated.cost, stated.low, stated.high,
                              stated.samples, measured=stated.measured))
    out[1:] = sorted(out[1:], key=lambda c: c.cost)
    return tuple(out)


def cost_message(cost: AnswerCost, card: object = "") -> Message:
    """`cost` in the hint's words: the coach's move, or what choosing it instead costs
    ("about the same", "costs about 6 points …", "may be better …"); `card` is the card a
    take, buy or pass is about."""
    words = move_words(cost.action, card)
    if cost.best:
        return msg("{move}: the coach's move", None, move=words)
    return Alternative(cost.action, cost.cost, cost.samples, words, cost.low,
                       cost.high, cost.measured).message()
