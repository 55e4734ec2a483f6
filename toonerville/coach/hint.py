"""Hints that weigh the choices: the strong bot's move, why, and what the others cost.

Owns `hint(game, seat)` → `Hint`: the move the strong bot would make in `seat`'s place,
its reason (a `Message` with its rule id), and the alternatives it weighed, each priced
against that move on fresh worlds — not the worlds that chose the move, which flatter
it — with every alternative played in the same worlds with the same luck as the move.
The worlds give the mean of world-by-world differences and its standard error
(`strong.difference`); the cost stated is that measurement's posterior under the prior
of true costs of its kind of decision (`shrink`: a few dozen worlds measure a cost to
within several points, and most true costs are a couple of points, so the raw mean is
pulled toward what such costs usually are, the less the more worlds agree), with the
posterior's 95 % interval and the number of played-out rounds behind it.
`Alternative.message()` says what the figures allow: "discarding G11 instead costs
about 6 points this round (2 to 10 points; 32 rounds played out)" when the interval is
above 0, "about the same" when it covers 0, "may be better, by about 5 points" when it
is below 0 — and never a cost when the worlds' own mean found the move better (nor
"better" the other way round), whatever the prior. Also `memory_for` — the notes a seat
would have taken this round, rebuilt from that seat's own views of the game's
positions (never another seat's cards). A move in words is `strong.move_words`.

A hint is data; a page shows it. Same game, same seat, same answer, however loaded the
machine: the work is a number of worlds, never a time.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from ..engine import actions as A
from ..engine.errors import NotYourTurnError, WrongPhaseError
from ..engine.game import Game
from ..engine.messages import N_, Message, msg
from ..engine.views import PlayerView
from ..players.bots import HeuristicBot
from .memory import Memory
from .shrink import Prior, posterior, prior_for
from .strong import (
    ADVICE,
    DEFAULT_TIME_BUDGET,
    DEFAULT_WORLDS,
    PRICE_LEAST,
    PRICE_MOST,
    Decision,
    StrongBot,
    Weighed,
    difference,
    move_words,
    price,
)

#: how many worlds a hint prices its alternatives on, at least and at most (`strong.price`)
HINT_PRICE = (PRICE_LEAST, PRICE_MOST)

#: what an alternative's figures allow a hint to say
COSTS = N_("{move} instead costs about {points} points this round ({low} to {high} "
           "points; {n} rounds played out)")
SAME = N_("{move} instead: about the same this round (from {better} points better to "
          "{worse} points worse; {n} rounds played out)")
UNCHANGED = N_("{move} instead: the same this round in each of the {n} rounds played out")
BETTER = N_("{move} may be better, by about {points} points this round ({low} to {high} "
            "points; {n} rounds played out)")


@dataclass(frozen=True, slots=True)
class Alternative:
    """A move the strong bot weighed and did not choose: how many points more than the
    chosen move it leaves this round on average (< 0: fewer), with the 95 % interval
    `low`..`high` of that difference, over how many played-out rounds. In a hint these
    are the posterior's (`shrink`: `stated_alternative`), as in a class's verdict and a
    practice answer, and `measured` the worlds' own mean difference; without `measured`
    (no prior for the kind of decision) the worlds' own figures."""

    action: A.Action
    cost: float
    samples: int
    words: Message
    low: float = 0.0
    high: float = 0.0
    measured: float | None = None  # the worlds' own mean difference, if `cost` is shrunk

    @property
    def verdict(self) -> str:
        """"costs" (the interval is above 0, by a point or more), "better" (below 0,
        by a point or more) or "same"; never "costs" when the worlds' own mean found the
        move better (nor "better" when they found it costlier), whatever the prior."""
        if self.low > 0 and round(self.cost) >= 1 and (self.measured is None
                                                        or self.measured > 0):
            return "costs"
        if self.high < 0 and round(-self.cost) >= 1 and (self.measured is None
                                                          or self.measured < 0):
            return "better"
        return "same"

    def message(self) -> Message:
        verdict, n = self.verdict, self.samples
        if verdict == "costs":
            return msg(COSTS, None, move=self.words, points=round(self.cost),
                       low=max(0, round(self.low)), high=round(self.high), n=n)
        if verdict == "better":
            return msg(BETTER, None, move=self.words, points=round(-self.cost),
                       low=max(0, round(-self.high)), high=round(-self.low), n=n)
        if self.low == self.high == self.cost == 0:  # no difference in any world
            return msg(UNCHANGED, None, move=self.words, n=n)
        if not (math.isfinite(self.low) and math.isfinite(self.high)):  # one world
            return msg(SAME, None, move=self.words, better="?", worse="?", n=n)
        return msg(SAME, None, move=self.words, better=max(0, round(-self.low)),
                   worse=max(0, round(self.high)), n=n)


@dataclass(frozen=True, slots=True)
class Hint:
    """The strong bot's move for `seat`, why, and its alternatives (cheapest first)."""

    seat: int
    action: A.Action
    reason: Message
    alternatives: tuple[Alternative, ...]
    samples: int  # played-out rounds behind the chosen move's estimate (0: no search)


def round_start(game: Game, round_number: int, upto: int | None = None) -> int:
    """The first position of round `round_number` in `game` (searched among positions
    0..`upto`, default all; rounds only go up, so a binary search)."""
    lo, hi = 0, game.moves_made if upto is None else upto
    while lo < hi:
        mid = (lo + hi) // 2
        if game.position_at(mid).round_number < round_number:
            lo = mid + 1
        else:
            hi = mid
    return lo


def memory_for(game: Game, seat: int, moves: int | None = None) -> Memory:
    """The notes `seat` would have taken this round up to position `moves` (default:
    now), from its own views of the game's positions only."""
    end = game.moves_made if moves is None else moves
    lo = round_start(game, game.position_at(end).round_number, end)
    memory = Memory()
    for k in range(lo, end):
        pos = game.position_at(k)
        if seat in pos.deciders:
            memory.observe(pos.view(seat))
    return memory


def decide_at(game: Game, seat: int, moves: int | None = None, worlds: int = DEFAULT_WORLDS,
              time_budget: float | None = DEFAULT_TIME_BUDGET,
              also: tuple[A.Action, ...] = (),
              price: tuple[int, ...] | None = None) -> Decision:
    """The strong bot's decision for `seat` at position `moves` (default: now), with the
    notes that seat would have taken; seeded by the game and the position alone.
    `price`: (least, most) fresh worlds to price the moves weighed on (a hint's figures)."""
    at = game.moves_made if moves is None else moves
    pos = game.position_at(at)
    bot = StrongBot(worlds=worlds, time_budget=time_budget, price=price, clear=ADVICE,
                    kept=0, aligned=False, closer=0)  # the worlds the calibration measured
    bot.memory = memory_for(game, seat, at)
    rng = random.Random(f"coach:{game.seed}:{at}:{seat}")
    return bot.decide(pos.view(seat), pos.rules, partial(pos.legal_actions, seat), rng,
                      also=also)


def price_at(game: Game, seat: int, moves: int, options: Sequence[A.Action], least: int,
             most: int, purpose: str = "price") -> tuple[Weighed, ...]:
    """`options` for `seat` at position `moves`, priced on fresh worlds of their own
    (`strong.price`: the first option is the one the others are priced against), with
    the notes that seat would have taken; seeded by the game, the position and
    `purpose` alone (another purpose: other worlds, independent of these)."""
    pos = game.position_at(moves)
    bots = [HeuristicBot() for _ in range(pos.players)]
    return price(pos.view(seat), pos.rules, options, memory_for(game, seat, moves),
                 f"coach-{purpose}:{game.seed}:{moves}:{seat}", bots, least, most)


def hint(game: Game, seat: int | None = None, worlds: int = DEFAULT_WORLDS,
         time_budget: float | None = DEFAULT_TIME_BUDGET,
         price: tuple[int, ...] = HINT_PRICE) -> Hint:
    """A hint for `seat` (default: the first seat that must decide) in `game` as it
    stands; see the module."""
    if seat is None:
        if not game.deciders:
            raise WrongPhaseError(msg("the game is over: all 11 rounds have been played",
                                      "T7"))
        seat = game.deciders[0]
    if seat not in game.deciders:
        raise NotYourTurnError(msg("it is {name}'s turn, not {who}'s", "T9",
                                   name=game.names[game.current], who=game.names[seat]))
    decision = decide_at(game, seat, worlds=worlds, time_budget=time_budget, price=price)
    return hint_of(decision, game.view(seat))


def hint_of(decision: Decision, view: PlayerView) -> Hint:
    """The hint a strong bot's `decision` in `view` gives (a page that holds only the
    seat's views asks its own `StrongBot` and turns the decision into a hint here). The
    figures are the pricing worlds' (`StrongBot(price=…)`); a decision not priced falls
    back on the worlds that chose it."""
    seat = view.seat
    card = view.offered or view.discard_top or ""
    figures = decision.priced if len(decision.priced) >= 2 else decision.weighed
    chosen = next((w for w in figures if w.action == decision.action), None)
    # the prior was fitted for the pricing worlds' figures, not the choosing worlds'
    prior = prior_for(decision.action) if len(decision.priced) >= 2 else None
    alternatives = tuple(stated_alternative(w, chosen, move_words(w.action, card), prior)
                         for w in figures if w.action != decision.action) \
        if chosen is not None else ()
    return Hint(seat, decision.action, decision.reason, alternatives,
                chosen.samples if chosen is not None else 0)


def stated_alternative(w: Weighed, chosen: Weighed, words: Message, prior: Prior | None
                       ) -> Alternative:
    """`w` priced against `chosen` on the same worlds, as the coach states it: the
    posterior of its cost under `prior` (`shrink`), with the worlds' own mean difference
    kept as `measured`, or, without a prior, that mean difference and its 95 % interval.
    A hint, a class's verdict and a practice answer all state their costs here."""
    cost = difference(w, chosen)
    if prior is not None and cost.n > 1:
        post = posterior(prior, cost)
        return Alternative(w.action, post.mean, cost.n, words, post.low, post.high,
                           cost.mean)
    low, high = (cost.low, cost.high) if cost.n > 1 else (float("-inf"), float("inf"))
    return Alternative(w.action, cost.mean, cost.n, words, low, high)
