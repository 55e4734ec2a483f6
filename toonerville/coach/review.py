"""A review of a round: the seat's decisions that cost the most, as the strong bot sees it.

Owns `review_round(game, seat, round_number)` → up to three `Mistake`s (most costly
first), `review_game` (every round) and `shortlist` (its first pass). Each mistake
names the engine's position before the move (`Mistake.moves`: `game.position_at(moves)`
is the board as it stood), the move made, the better move, the estimated cost in points
this round with the sample behind it, and a one-sentence reason with its rule id.

Three passes keep a round's review within seconds and its figures honest. The first
(`shortlist`) screens every decision of the seat where the move made is not the
heuristic bot's (the move made weighed against the strong bot's choices in a few
worlds): which decisions look costly, and the better move. The most costly-looking ones
are then re-priced — the move made against the better move — on fresh worlds that did
not select them (the screening worlds flatter the better move: they are the ones that
made it look better), both moves in the same worlds with the same luck. A decision is
chosen to be shown only when the re-priced difference is clear of its uncertainty (its
95 % interval above 0) and at least `LEAST_COST` points. Those worlds flatter the
decisions they choose in turn (of several noisy costs, the ones that cleared the bar
are mostly the ones that came out high), so their mean is not the cost shown: the third
pass prices each decision shown once more on fresh worlds of its own (half as many as
the second pass played out, shared among the decisions shown: `STATED_SHARE`), and the
cost shown, its 95 % interval and the reason's figures are the posterior, under the
prior of such costs (`shrink.REVIEW_PRIOR`), of the difference over both sets of
worlds: a posterior says what the prior and every world say, whatever chose the
decision. A missed lay-down or lay-off is weighed too (the bot's move against the move
made); the reason is then the bot's own sentence for it. Each mistake also says which
turn of the seat's round it was (`Mistake.turn`). Same game, same seat, same review,
however loaded the machine: the work is a number of worlds, never a time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from ..engine import actions as A
from ..engine.game import Game
from ..engine.messages import Message
from ..players.bots import HeuristicBot
from .hint import decide_at, price_at, round_start
from .shrink import REVIEW_PRIOR, posterior
from .strong import WHY_CHOSEN, Weighed, difference, move_words, why_better

#: worlds per decision in the first pass (screening), and (least, most) fresh worlds of
#: the second (re-pricing the move made against the better move, `strong.price`)
FIRST_WORLDS, SECOND_WORLDS = 4, (16, 48)
#: decisions re-priced in the second pass
SHORTLIST = 6
#: the third pass's worlds (stating the cost of each decision shown): at most this share
#: of the worlds the second pass played out, split evenly among the decisions shown,
#: and at least STATED_LEAST each if that share allows (a review then plays out at most
#: 1.5 times what it did when the second pass's worlds stated the costs too)
STATED_SHARE, STATED_LEAST = 0.5, 16
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
    low: float = 0.0  # the cost's 95 % interval
    high: float = 0.0
    turn: int = 0  # the seat's turn of the round (0: before its first turn)
    offer: bool = False  # a buy offer (on another seat's turn, after the seat's `turn`)

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


def _screen(game: Game, seat: int, k: int) -> tuple[float, A.Action | None]:
    """The first pass: how much the move made at `k` seems to cost against the strong
    bot's choice, in `FIRST_WORLDS` worlds, and that choice (None: nothing better). A
    move that is the heuristic bot's own is not weighed: the strong bot leaves it only on
    clear evidence, which a few worlds never give (and weighing every decision of a long
    round took most of a review's time)."""
    made = game.actions[k]
    pos = game.position_at(k)
    usual, _why = HeuristicBot().explain(pos.view(seat), pos.rules,
                                         partial(pos.legal_actions, seat))
    if usual == made:
        return 0.0, None
    decision = decide_at(game, seat, k, worlds=FIRST_WORLDS, time_budget=None, also=(made,))
    mine, best = decision.cost(made), decision.cost(decision.action)
    if mine is None or best is None or best.action == made:
        return 0.0, None
    return mine.points - best.points, best.action


def _turn(game: Game, seat: int, k: int, start: int) -> tuple[int, bool]:
    """Which of `seat`'s turns of the round (from position `start`) the decision at `k`
    belongs to, and whether it is a buy offer (on another seat's turn, after that one)."""
    actions = game.actions
    turns = sum(1 for a in actions[start:k] if a.seat == seat
                and isinstance(a, A.Draw | A.TakeDiscard))
    made = actions[k]
    if isinstance(made, A.Buy | A.Pass):
        return turns, True
    return turns + (1 if isinstance(made, A.Draw | A.TakeDiscard) else 0), False


def _repriced(game: Game, seat: int, k: int, better: A.Action
              ) -> tuple[Weighed, Weighed] | None:
    """The second pass: the better move and the move made at `k`, weighed on fresh
    worlds (None: one of them could not be played there)."""
    made = game.actions[k]
    priced = price_at(game, seat, k, (better, made), *SECOND_WORLDS)
    best = next((w for w in priced if w.action == better), None)
    mine = next((w for w in priced if w.action == made), None)
    return (best, mine) if best is not None and mine is not None else None


def _stated(game: Game, seat: int, k: int, better: A.Action, start: int,
            worlds: tuple[int, int], chosen: tuple[Weighed, Weighed]) -> Mistake:
    """The third pass: the decision at `k`, chosen to be shown on the second pass's
    worlds (`chosen`), priced once more on `worlds` (least, most) fresh worlds of its
    own; the cost shown is the posterior, under `shrink.REVIEW_PRIOR`, of the
    difference over both sets of worlds, with its 95 % interval (see the module)."""
    made = game.actions[k]
    priced = price_at(game, seat, k, (better, made), *worlds, purpose="state")
    best = next((w for w in priced if w.action == better), None)
    mine = next((w for w in priced if w.action == made), None)
    if best is not None and mine is not None:  # the two sets of worlds, pooled
        best, mine = _pooled(chosen[0], best), _pooled(chosen[1], mine)
    else:
        best, mine = chosen
    cost = difference(mine, best)
    post = posterior(REVIEW_PRIOR, cost)
    view = game.position_at(k).view(seat)
    card = view.offered or view.discard_top or ""
    if type(better) in WHY_CHOSEN and type(made) in WHY_CHOSEN:
        reason = why_better(best, (best, mine), made, view, REVIEW_PRIOR)
    else:  # a lay-off or a lay-down missed: the bot's own sentence for its move (the
        # heuristic bot's: the strong bot never weighs a lay-off)
        pos = game.position_at(k)
        reason = HeuristicBot().explain(view, pos.rules, partial(pos.legal_actions, seat))[1]
    turn, offer = _turn(game, seat, k, start)
    return Mistake(view.round_number, seat, k, made, better, post.mean, cost.n, reason,
                   move_words(made, card), move_words(better, card), post.low, post.high,
                   turn, offer)


def _pooled(a: Weighed, b: Weighed) -> Weighed:
    """One move weighed on the worlds of `a`, then those of `b`."""
    return Weighed.of(a.action, (*a.outcomes, *b.outcomes), a.stake)


class ReviewCancelled(Exception):
    """A review stopped by its caller's `cancel` (a page that no longer needs it)."""


def shortlist(game: Game, seat: int, round_number: int,
              cancel: Callable[[], bool] | None = None) -> tuple[tuple[int, A.Action], ...]:
    """The first pass: up to `SHORTLIST` of `seat`'s decisions in the round that look
    the most costly in a few worlds (most costly-looking first), each as its position
    (`game.position_at`) and the better move. `cancel` as `review_round`'s."""
    actions = game.actions
    first = []
    for k in _round_moves(game, round_number):
        if actions[k].seat == seat:
            if cancel is not None and cancel():
                raise ReviewCancelled(f"the review of round {round_number} was stopped")
            cost, better = _screen(game, seat, k)
            if better is not None and cost >= 0:  # a rare loss may not show in a few
                first.append((cost, k, better))  # worlds: re-priced if among the costliest
    first.sort(key=lambda x: (-x[0], x[1]))
    return tuple((k, better) for _cost, k, better in first[:SHORTLIST])


def review_round(game: Game, seat: int, round_number: int, most: int = 3,
                 least_cost: float = LEAST_COST,
                 cancel: Callable[[], bool] | None = None) -> tuple[Mistake, ...]:
    """Up to `most` of `seat`'s decisions in the round that cost at least `least_cost`
    points by the strong bot's estimate, most costly first. `cancel()` is asked before
    each decision is weighed; True stops the review (`ReviewCancelled`)."""
    def stop() -> None:
        if cancel is not None and cancel():
            raise ReviewCancelled(f"the review of round {round_number} was stopped")

    start = _round_moves(game, round_number).start
    chosen, spent = [], 0
    for k, better in shortlist(game, seat, round_number, cancel):
        stop()
        priced = _repriced(game, seat, k, better)
        if priced is None:
            continue
        cost = difference(priced[1], priced[0])
        spent += cost.n
        if cost.low > 0 and cost.mean >= least_cost:
            chosen.append((cost.mean, k, better, priced))
    chosen.sort(key=lambda x: (-x[0], x[1]))
    chosen = chosen[:most]
    # the statement worlds: a share of the second pass's, split among those shown
    share = int(spent * STATED_SHARE) // len(chosen) if chosen else 0
    worlds = (max(2, min(STATED_LEAST, share)), max(2, share))
    found = []
    for _cost, k, better, priced in chosen:
        stop()
        found.append(_stated(game, seat, k, better, start, worlds, priced))
    found.sort(key=lambda m: (-m.cost, m.moves))
    return tuple(found)


def review_game(game: Game, seat: int, most: int = 3) -> dict[int, tuple[Mistake, ...]]:
    """`review_round` of every round with moves so far, by round number."""
    return {r: review_round(game, seat, r, most) for r in range(1, game.round_number + 1)
            if _round_moves(game, r)}
