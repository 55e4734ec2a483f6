"""The strong bot: the heuristic bot's moves, weighed by playing the round out.

Owns `StrongBot` and the search behind it, `weigh`: at a real choice — take the top
discard or draw, buy or pass, which card to discard — it deals the cards it cannot see
at random, consistently with what it has seen (`memory.sample_world`), plays the rest
of the round out once per candidate move in each such world with the heuristic bot in
every seat (the same world and the same luck for every candidate, so the differences
are sharp), and picks the move that left it the fewest points on average. Everything
else (a single legal move, a lay-down, a lay-off, a card that goes with nothing) is the
heuristic bot's move at once.

The work is bounded by `worlds` (how many worlds: a budget of work, so the same seed
gives the same decision on any machine, however loaded). `time_budget` (seconds, a cap
that stops the search after a whole world) is off by default and kept only for scripts
that ask for it: a decision that depends on the clock changes with the machine's load.
A decision is a `Decision`: the move, the reason (a `Message` with its rule id) and the
estimate of every move weighed (`Weighed`: mean points this round, the sample behind
it, its spread).

The move: the best estimate when its world-by-world gain over the heuristic bot's move
is beyond a number of standard errors and of points (the bot's `clear`: `PLAYING` for the
strong level, the stricter `ADVICE` for what the coach recommends), else the heuristic
bot's (`chosen`). The strong level's worlds are sharper than the coach's (`LEVEL_KEPT`,
`LEVEL_CLOSER`): the others' hands dealt as players keep them (`memory.sample_world`'s
`kept`), a take's or a buy's stock lined up with the other move's (`aligned`,
`STOCK_SHIFT`), and a close call (`close_call`) weighed on more worlds (`joined`).

The figures a learner is shown (`price`, `StrongBot(price=…)`): the moves weighed again
on fresh worlds, seeded apart from the worlds that chose the move (`world_seeds`:
the chosen move looks better on the worlds that chose it than it is), every move on the
same worlds and luck, and each compared with the chosen one as a paired `difference`
with its standard error (what a hint states of it is that difference's posterior:
`shrink`). `move_words` says a move in words (the reasons here, the hint's and the
review's).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..engine import actions as A
from ..engine.cards import Card
from ..engine.events import Phase
from ..engine.game import Game
from ..engine.legal import discard_move, simple_move
from ..engine.messages import N_, Message, msg
from ..engine.rules import ROUNDS, Rules
from ..engine.views import PlayerView
from ..players.bots import HeuristicBot, Legal, Tally, hand_key
from ..players.simulate import collector_paused
from ..players.table import Table
from .memory import Memory, sample_world
from .shrink import Prior, posterior, prior_for

#: worlds per decision by default: the deterministic work budget
DEFAULT_WORLDS = 12
#: seconds per decision by default: none (the work budget alone bounds a decision)
DEFAULT_TIME_BUDGET: float | None = None
#: discards weighed at most
DEFAULT_CANDIDATES = 3
#: the coach's rule (a hint's or a review's move, `hint.decide_at`, `coach_view`):
#: standard errors of the world-by-world gain over the heuristic bot's own move that a
#: weighed move must clear to be recommended instead (about 95 %: the best-looking of
#: several noisy estimates looks better than it is, so what a learner is told must be
#: clear of the noise), and the points it must gain at least (none: the errors decide)
CLEAR = 2.0
MARGIN = 0.0
#: the strong level's rule as a player (`StrongBot()`): 1.5 standard errors and a point.
#: On the same 175 paired deals (`benchmarks/bench_strength.py --seed 3301`), this rule
#: scored 16.0 % fewer points than the heuristic bot and the coach's rule 12.0 %; stop 24
#: measured 18.1 % over 1,000 deals with it
PLAYING = (1.5, 1.0)
ADVICE = (CLEAR, MARGIN)
#: the strong level's choosing worlds (`StrongBot()`): the others' hands dealt as players
#: keep them, up to LEVEL_KEPT cards let go; a take's or a buy's stock lined up
#: (`aligned`); a close call weighed on LEVEL_CLOSER worlds more (more than 8 took the
#: slowest decision on the static site over 2 s). Paired deals against the same deals
#: without them: `benchmarks/strength/` (level-4401.jsonl against p12-4401.jsonl). The
#: coach's hint and review choose on the worlds its calibration measured: uniform hands,
#: the stock as dealt, no more worlds (`hint.decide_at`, `coach_view`)
LEVEL_KEPT, LEVEL_CLOSER = 3, 8
#: the stock lined up for a move (`weigh`, `memory.sample_world`'s `shift`): a take draws
#: one card fewer from the stock than a draw, so its world's top stock card goes to the
#: bottom; a buy draws one more (the penalty card) than a pass, so its world's bottom card
#: comes to the top. Every later draw of the other seats is then the same card after
#: either move, and the two moves' difference is the move's, not the luck of the draws
STOCK_SHIFT: dict[type, int] = {A.TakeDiscard: 1, A.Buy: -1}
#: pricing (a hint's or a review's figures, on fresh worlds): worlds at least, at most,
#: added a batch at a time until every difference's standard error is at most TARGET_SE
PRICE_LEAST, PRICE_MOST, PRICE_BATCH = 16, 64, 16
TARGET_SE = 1.5


@dataclass(frozen=True, slots=True)
class Weighed:
    """One move weighed: the seat's mean points at the end of this round after it, how
    many played-out rounds that mean is of, and their standard deviation."""

    action: A.Action
    points: float
    samples: int
    spread: float
    outcomes: tuple[int, ...] = ()  # the points of each played-out round, world by world
    stake: int = 0  # the points of the seat's hand at the decision (what a round can cost)

    @classmethod
    def of(cls, action: A.Action, got: Sequence[int], stake: int = 0) -> Weighed:
        """`action` weighed from the points `got` in each played-out round (at least one)."""
        mean = sum(got) / len(got)
        spread = math.sqrt(sum((x - mean) ** 2 for x in got) / (len(got) - 1)) \
            if len(got) > 1 else 0.0
        return cls(action, mean, len(got), spread, tuple(got), stake)


@dataclass(frozen=True, slots=True)
class Difference:
    """How many more points this round one move leaves than another, world by world on
    the same worlds and the same luck (common random numbers): the mean difference, its
    standard error and the worlds behind it; `low`..`high` is its 95 % interval."""

    mean: float
    se: float
    n: int

    @property
    def half_width(self) -> float:
        return _t95(self.n - 1) * self.se if self.n > 1 else math.inf

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width


_Z95 = statistics.NormalDist().inv_cdf(0.975)


def _t95(df: int) -> float:
    """Student's t 97.5 % quantile, closely enough for the coach's intervals (the normal
    quantile with its first Cornish-Fisher term: 2.14 for 15 degrees of freedom, against
    2.13; the explorer's exact table is not imported into the bot)."""
    return _Z95 + (_Z95 ** 3 + _Z95) / (4 * df)


def difference(a: Weighed, b: Weighed) -> Difference:
    """`a` − `b`, world by world (both weighed on the same worlds: `weigh`). Its standard
    error counts, besides the worlds' own spread of differences, two more worlds that
    differ from the mean by the spread of a round's points (the larger of the two
    moves' spreads; when every world ended alike, the points of the seat's hand), one
    either way: a difference that was the same in every one of a
    few worlds (often 0) may still differ in a rarer world, and a standard error of 0
    would claim certainty that a few worlds cannot give (the 500-world reference of
    `benchmarks/bench_coach_calibration.py` found such intervals missing it)."""
    gains = [x - y for x, y in zip(a.outcomes, b.outcomes, strict=False)]
    n = len(gains)
    if not n:
        return Difference(0.0, math.inf, 0)
    mean = sum(gains) / n
    if n < 2:
        return Difference(mean, math.inf, n)
    # a round's spread; if no world showed any, the points at stake in the seat's hand
    scale = max(a.spread, b.spread) or max(a.stake, b.stake)
    squares = sum((g - mean) ** 2 for g in gains) + 2 * scale ** 2
    return Difference(mean, math.sqrt(squares / (n - 1)) / math.sqrt(n), n)


def world_seeds(key: object, purpose: str, start: int, count: int) -> list[int]:
    """The seeds of worlds `start` .. `start + count - 1` for `purpose` ("choose",
    "price", …) of the decision keyed `key`: each world's seed depends on the key, the
    purpose and its number alone, so the worlds that price a move are independent of
    the worlds that chose it, and more worlds extend the same sequence."""
    return [random.Random(f"{key}:{purpose}:{i}").getrandbits(48)
            for i in range(start, start + count)]


@dataclass(frozen=True, slots=True)
class Decision:
    """The strong bot's move, why, and every move it weighed (best first; empty when the
    move was plain without a search). `priced`: the same moves weighed again on fresh
    worlds, independent of the ones that chose the move (a hint's figures; empty when
    not asked for)."""

    action: A.Action
    reason: Message
    weighed: tuple[Weighed, ...] = ()
    priced: tuple[Weighed, ...] = ()

    def cost(self, action: A.Action) -> Weighed | None:
        """`action`'s estimate, if weighed."""
        return next((w for w in self.weighed if w.action == action), None)

    def price(self, action: A.Action) -> Weighed | None:
        """`action`'s estimate on the pricing worlds, if priced."""
        return next((w for w in self.priced if w.action == action), None)


#: the reasons of a move the search chose over the heuristic bot's, by kind of move
#: (template, rule id): `why_better` fills them in; the review tells which kinds it explains
WHY_CHOSEN = {
    A.Discard: (N_("discard {card}: played out {n} times, this round ends about {points} "
                   "points better for you than discarding {other}"), "T13"),
    A.TakeDiscard: (N_("take {card}: played out {n} times, this round ends about {points} "
                       "points better for you than drawing from the stock"), "T9"),
    A.Draw: (N_("draw from the stock: played out {n} times, this round ends about {points} "
                "points better for you than taking {card}"), "T9"),
    A.Buy: (N_("buy {card}: played out {n} times, this round ends about {points} points "
               "better for you than passing"), "T10"),
    A.Pass: (N_("pass on {card}: played out {n} times, this round ends about {points} "
                "points better for you than buying it"), "T10"),
}


#: the reason of a move the search chose when the fresh worlds see no gain over the other
EVEN = N_("{move} or {other}: played out {n} times, this round ends about the same for "
          "you either way")


#: a move in words, by its kind
_WORDS = {
    A.Discard: N_("discarding {card}"),
    A.TakeDiscard: N_("taking {card}"),
    A.Draw: N_("drawing from the stock"),
    A.Buy: N_("buying {card}"),
    A.Pass: N_("passing on {card}"),
    A.LayOff: N_("laying off {card}"),
    A.LayDown: N_("laying down your contract"),
    A.SwapRook: N_("swapping {card} for a Rook"),
}


def move_words(action: A.Action, card: object = "") -> Message:
    """`action` in words ("discarding G11"); `card` is the card a take, buy or pass is
    about (the top discard)."""
    template = _WORDS.get(type(action))
    if template is None:  # a move a hint never weighs: its notation, untranslated
        return Message("{move}", {"move": action.notation().split(": ", 1)[-1]})
    if isinstance(action, A.SwapRook):
        return msg(template, None, card=action.natural)
    return msg(template, None, card=getattr(action, "card", card))


def _move_words(action: A.Action, view: PlayerView) -> Message:
    """`action` in words, for `EVEN`."""
    return move_words(action, view.offered or view.discard_top or "")


class StrongBot:
    """See the module. `worlds` (and `time_budget`, if given) bound each decision's
    work; `price`: (least, most) fresh worlds on which to price the moves weighed, for a
    hint's figures, and optionally the moves to play out in them at most (None: a
    player's decision, not priced); `clear`: (standard errors, points) by which a weighed
    move must beat the heuristic bot's to be chosen instead (a player's by default,
    `PLAYING`; the coach's, `ADVICE`); `kept`: the worlds that choose the move deal the
    others' hands as players keep them (`memory.sample_world`; 0: uniformly; the
    fresh worlds that price a hint are dealt as the coach's calibration was, uniformly);
    `aligned`: the choosing worlds line up the stock after a take or a buy with the
    other move's (`weigh`); `closer`: worlds added to a close call (`close_call`: the
    rule's verdict within `NEAR` standard errors of turning), the choice made again on
    all of them. By default the strong level's (`LEVEL_KEPT`, `LEVEL_CLOSER`); the
    coach's are 0, False and 0."""

    name = "strong"

    def __init__(self, worlds: int = DEFAULT_WORLDS,
                 time_budget: float | None = DEFAULT_TIME_BUDGET,
                 candidates: int = DEFAULT_CANDIDATES,
                 price: tuple[int, ...] | None = None,
                 clear: tuple[float, float] = PLAYING, kept: int = LEVEL_KEPT,
                 aligned: bool = True, closer: int = LEVEL_CLOSER) -> None:
        if worlds < 1 or candidates < 2:
            raise ValueError("a strong bot needs at least 1 world and 2 candidates")
        if kept < 0 or closer < 0:
            raise ValueError("kept is a number of cards and closer of worlds, neither "
                             "below 0")
        if len(clear) != 2 or min(clear) < 0:
            raise ValueError("clear is (standard errors, points), neither below 0")
        if price is not None and (len(price) not in (2, 3) or not 2 <= price[0] <= price[1]):
            raise ValueError("pricing needs at least 2 worlds")
        self.worlds, self.time_budget, self.candidates = worlds, time_budget, candidates
        self.price, self.clear = price, (float(clear[0]), float(clear[1]))
        self.kept, self.aligned, self.closer = kept, aligned, closer
        self.memory = Memory()
        self._heuristic = HeuristicBot()
        self._playout_bots: list[HeuristicBot] = []

    def choose(self, view: PlayerView, rules: Rules, legal: Legal,
               rng: random.Random) -> A.Action:
        return self.decide(view, rules, legal, rng).action

    def decide(self, view: PlayerView, rules: Rules, legal: Legal | None,
               rng: random.Random, also: Sequence[A.Action] = ()) -> Decision:
        """The move for `view.seat`, why, and the estimates behind it. `also`: moves to
        weigh besides the bot's own candidates (a review weighs the move made: a missed
        lay-off, say, is weighed against the lay-off)."""
        self.memory.observe(view)
        action, why = self._heuristic.explain(view, rules, legal)
        options = self._options(view, rules, action, legal)
        extra = [a for a in also if a not in options and a != action]
        if extra:  # weighed against the bot's own move, whatever their kinds
            options = [*(options or [action]), *extra]
        if len(options) < 2:
            return Decision(action, why)
        key = rng.getrandbits(64)
        bots = self._bots(len(view.names))
        weighed = weigh(view, rules, options, self.memory, rng, self.worlds,
                        self.time_budget, bots,
                        seeds=world_seeds(key, "choose", 0, self.worlds), kept=self.kept,
                        aligned=self.aligned)
        if not weighed:
            return Decision(action, why)
        if self.closer and close_call(weighed, action, self.clear):
            weighed = joined(weighed, weigh(
                view, rules, [w.action for w in weighed], self.memory, rng, self.closer,
                self.time_budget, bots,
                seeds=world_seeds(key, "choose", self.worlds, self.closer), kept=self.kept,
                aligned=self.aligned), options)
        best = chosen(weighed, action, self.clear)
        priced: tuple[Weighed, ...] = ()
        if self.price is not None:
            first = [best.action, *(w.action for w in weighed if w.action != best.action)]
            priced = price(view, rules, first, self.memory, key, bots, self.price[0],
                           self.price[1],
                           moves=self.price[2] if len(self.price) > 2 else None)
        if best.action == action:
            return Decision(action, why, weighed, priced)
        # the reason's figures: the fresh worlds' when priced (the worlds that chose a
        # move flatter it), else the choice's own
        # (the posterior of the fresh worlds' difference, as the hint states it)
        figures = priced if len(priced) >= 2 else weighed
        prior = prior_for(best.action) if len(priced) >= 2 else None
        return Decision(best.action, why_better(next(w for w in figures if w.action ==
                                                     best.action), figures, action, view,
                                                prior),
                        weighed, priced)

    def _bots(self, players: int) -> list[HeuristicBot]:
        if len(self._playout_bots) != players:
            self._playout_bots = [HeuristicBot() for _ in range(players)]
        return self._playout_bots

    # -- which moves are worth weighing -------------------------------------------------
    def _options(self, view: PlayerView, rules: Rules, action: A.Action,
                 legal: Legal | None) -> list[A.Action]:
        seat, h = view.seat, self._heuristic
        if view.phase is Phase.BUY:
            card = view.offered
            if card is None or view.down[seat] or view.round_number == ROUNDS:
                return []
            if h.helps(card, view, rules) <= 0:
                return []  # it goes with none of the cards: pass
            buy = simple_move(A.Buy, seat)
            if legal is not None and buy not in legal():
                return []
            return [action, simple_move(A.Pass if action == buy else A.Buy, seat)]
        if view.phase is Phase.DRAW:
            top = view.discard_top
            if top is None or view.down[seat] or top.is_rook:
                return []
            if h.helps(top, view, rules) <= 0:
                return []
            take, draw = simple_move(A.TakeDiscard, seat), simple_move(A.Draw, seat)
            return [action, draw if action == take else take]
        if not isinstance(action, A.Discard):
            return []  # a lay-down, a lay-off, a Rook swap: one card fewer is plain gain
        if view.round_number == ROUNDS and not view.down[seat]:
            return []  # round 11: what the best lay-down leaves over goes (T17)
        return [action, *(discard_move(seat, c) for c in
                          _other_discards(view, action.card, self.candidates - 1))]


def chosen(weighed: Sequence[Weighed], usual: A.Action,
           clear: tuple[float, float] = ADVICE) -> Weighed:
    """The move a rule `clear` (standard errors, points) takes of `weighed` (best
    first): the best estimate if it is `usual` (the heuristic bot's move) or clearly
    better than it, else `usual`'s (the best if `usual` was not weighed)."""
    best = weighed[0]
    mine = next((w for w in weighed if w.action == usual), None)
    if mine is not None and best.action != usual and not _clearly_better(best, mine,
                                                                         *clear):
        return mine
    return best


#: a close call (`close_call`): the best move's gain over the heuristic bot's, in standard
#: errors, from NEAR below the rule's to NEAR above it
NEAR = 1.0


def close_call(weighed: Sequence[Weighed], usual: A.Action,
               clear: tuple[float, float]) -> bool:
    """Is the choice among `weighed` (best first) a close call for the rule `clear`:
    the best move is not `usual`, and its world-by-world gain over `usual` is within
    `NEAR` standard errors of the rule's threshold either way (more worlds could turn
    the choice; a `StrongBot` with `closer` weighs such a choice on more worlds)?"""
    best = weighed[0]
    mine = next((w for w in weighed if w.action == usual), None)
    if mine is None or best.action == usual:
        return False
    gain = difference(mine, best)
    if gain.n < 2 or gain.se == 0:
        return False
    return abs(gain.mean / gain.se - clear[0]) <= NEAR


def joined(first: Sequence[Weighed], more: Sequence[Weighed],
           options: Sequence[A.Action]) -> tuple[Weighed, ...]:
    """The estimates of `first` and `more` (the same moves weighed on other worlds) as
    one, best first (ties in the order of `options`); a move missing from either (the
    engine refused it there) is left out, so every move keeps the same worlds."""
    theirs = {w.action: w for w in more}
    out = [Weighed.of(w.action, (*w.outcomes, *theirs[w.action].outcomes), w.stake)
           for w in first if w.action in theirs]
    order = {a: i for i, a in enumerate(options)}
    out.sort(key=lambda w: (w.points, order.get(w.action, len(order))))
    return tuple(out)


def _clearly_better(w: Weighed, usual: Weighed, ses: float = CLEAR,
                    margin: float = MARGIN) -> bool:
    """Does `w` beat `usual` by more than `ses` standard errors of the world-by-world
    gain and by at least `margin` points (and by something: a gain of 0 in every world
    is no gain)?"""
    gain = difference(usual, w)
    return (gain.n >= 2 and gain.mean > 0 and gain.mean >= margin
            and gain.mean > ses * gain.se)


def _other_discards(view: PlayerView, chosen: Card, k: int) -> list[Card]:
    """Up to `k` other cards worth weighing against discarding `chosen`: the next least
    useful toward the contract (or, once down, the next most costly)."""
    hand, taken = list(view.hand), view.taken_this_turn
    pool = list(dict.fromkeys(c for c in hand if c != chosen))
    if taken is not None and hand.count(taken) == 1 and taken in pool:
        pool.remove(taken)  # T14: not the card just taken from the discard pile
    out: list[Card] = []
    if view.down[view.seat]:
        pool.sort(key=lambda c: (c.is_rook, -c.points, c.sort_key))
        return pool[:k]
    tally = Tally(hand_key(hand))
    while pool and len(out) < k:
        card = tally.least_useful(pool, view.contract)
        out.append(card)
        pool.remove(card)
    return out


def why_better(best: Weighed, weighed: Sequence[Weighed], usual: A.Action,
               view: PlayerView, prior: Prior | None = None) -> Message:
    """Why the search's move `best` beats `usual` (the heuristic bot's, or the move
    a learner made) in `view`'s decision: by how many points, the worlds' mean
    difference, or, given the `prior` of such differences, its posterior mean
    (`shrink`: the figure the hint or the review states for `usual`)."""
    template, rule = WHY_CHOSEN[type(best.action)]
    other = next((w for w in weighed if w.action == usual), weighed[-1])
    gain = difference(other, best)
    points = posterior(prior, gain).mean if prior is not None and gain.n > 1 else gain.mean
    params: dict[str, object] = {"n": gain.n, "points": round(points)}
    if round(points) < 1:  # never "about 0 points better": say it is a close call
        return msg(EVEN, rule, n=gain.n, move=_move_words(best.action, view),
                   other=_move_words(other.action, view))
    if isinstance(best.action, A.Discard):
        params["card"] = best.action.card
        params["other"] = getattr(other.action, "card", "")
    else:
        params["card"] = view.offered or view.discard_top or ""
    return msg(template, rule, **params)


def weigh(view: PlayerView, rules: Rules, options: Sequence[A.Action], memory: Memory,
          rng: random.Random, worlds: int, time_budget: float | None,
          bots: Sequence[HeuristicBot], seeds: Sequence[int] | None = None,
          work: list[int] | None = None, kept: int = 0,
          aligned: bool = False) -> tuple[Weighed, ...]:
    """Every option's estimate (best first): in up to `worlds` worlds consistent with
    what the seat has seen (one per seed of `seeds`, default drawn from `rng`), each
    option played and the round played out by `bots` — every option in the same world
    with the same luck, so their differences are sharp; stops after a whole world once
    `time_budget` seconds have gone (None: never). An option the engine refuses in the
    world (its legality never depends on hidden cards) is left out. `work`, if given,
    counts the moves played out (`work[0]`); `kept`: the others' hands dealt as players
    keep them (`memory.sample_world`); `aligned`: a take's or a buy's world has its
    stock lined up with the other move's (`STOCK_SHIFT`: the same world as likely, the
    later draws the same cards)."""
    if seeds is None:
        seeds = [rng.getrandbits(48) for _ in range(worlds)]
    points: dict[A.Action, list[int]] = {a: [] for a in options}
    start = time.perf_counter()
    me = view.seat
    refused: set[A.Action] = set()
    # the collector is paused while the worlds are played out: playouts make no cycles
    # worth a collection, and collections every 700 objects walked the live positions
    with collector_paused():
        for seed in seeds:
            worlds_by_shift: dict[int, tuple[Game, int]] = {}
            for action in options:
                if action in refused:
                    continue
                shift = STOCK_SHIFT.get(type(action), 0) if aligned else 0
                if shift not in worlds_by_shift:
                    worlds_by_shift[shift] = sample_world(
                        view, rules, memory, random.Random(seed), playout=True, kept=kept,
                        shift=shift)
                world, lead = worlds_by_shift[shift]
                if not points[action] and not world.is_legal(action):
                    refused.add(action)
                    continue
                game = world.position_at(lead)
                points[action].append(playout(game, me, action, bots, seed ^ 0x5EED))
                if work is not None:
                    work[0] += game.moves_made - lead
            if time_budget is not None and time.perf_counter() - start > time_budget:
                break
    stake = sum(c.points for c in view.hand)
    out = [Weighed.of(action, got, stake) for action, got in points.items() if got]
    order = {a: i for i, a in enumerate(options)}
    out.sort(key=lambda w: (w.points, order[w.action]))
    return tuple(out)


def price(view: PlayerView, rules: Rules, options: Sequence[A.Action], memory: Memory,
          key: object, bots: Sequence[HeuristicBot], least: int = PRICE_LEAST,
          most: int = PRICE_MOST, batch: int = PRICE_BATCH,
          target_se: float = TARGET_SE, moves: int | None = None) -> tuple[Weighed, ...]:
    """`options` weighed on fresh worlds ("price" worlds of the decision keyed `key`,
    independent of the worlds that chose among them), in the order given (the first is
    the move the others are priced against): `least` worlds, then `batch` more at a time
    for the first and every option whose difference from it still has a standard error
    above `target_se` points (the first's playouts serve them all), up to `most` worlds
    and, if given, until `moves` moves have been played out in all. How many worlds
    depends on the outcomes alone, never on the clock."""
    got: dict[A.Action, list[int]] = {}
    done, work = 0, [0]
    stake = sum(c.points for c in view.hand)
    busy = list(options)
    while done < most:
        count = min(least if not done else batch, most - done)
        fresh = weigh(view, rules, busy, memory, random.Random(0), count, None, bots,
                      seeds=world_seeds(key, "price", done, count), work=work)
        for w in fresh:
            got.setdefault(w.action, []).extend(w.outcomes)
        done += count
        out = {a: Weighed.of(a, got[a], stake) for a in options if a in got}
        first = out.get(options[0])
        if first is None:
            break
        busy = [options[0], *(a for a in options[1:] if a in out and a in busy
                              and difference(out[a], first).se > target_se)]
        if len(busy) < 2 or (moves is not None and work[0] >= moves):
            break
    return tuple(Weighed.of(a, got[a], stake) for a in options if a in got)


def playout(game: Game, seat: int, action: A.Action, bots: Sequence[HeuristicBot],
            seed: int) -> int:
    """`seat`'s points at the end of the round after it plays `action` (its decision in
    `game`, which must be legal there) and `bots` play on, through a `Table` keyed on
    `seed` (its one random-number rule, safety limit and failing-bot rule)."""
    r = game.round_number
    game.apply(action)
    if not game.is_over and game.round_number == r:
        Table(game, dict(enumerate(bots)), seed=seed).run(round_only=True)
    return game.scores[r - 1][seat]
