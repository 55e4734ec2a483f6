"""Computer players.

Owns the bot protocol — a bot sees only its own `PlayerView` and chooses one action —
and two bots: `RandomBot`, which picks uniformly among the legal moves, and
`HeuristicBot`, which plays like a sensible beginner: it keeps cards that work toward
the contract, takes or buys a discard that helps enough, lays down as soon as it can,
lays off everything that fits (using the Rook swap when that frees a card), and discards
its most costly useless card.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Protocol

from . import actions as A
from .cards import ROOK, Card
from .errors import RulesError, ToonervilleError
from .legal import rooks_in_reach
from .melds import Meld
from .messages import msg
from .rules import ROUNDS, Contract, Rules
from .solver import Arrangement
from .views import Phase, PlayerView

Legal = Callable[[], list[A.Action]]


class Bot(Protocol):
    name: str

    def choose(self, view: PlayerView, rules: Rules, legal: Legal,
               rng: random.Random) -> A.Action:
        """One action for `view.seat`; `legal()` lists the legal moves when needed."""
        ...


class RandomBot:
    """Picks uniformly at random among the legal moves."""

    name = "random"

    def choose(self, view: PlayerView, rules: Rules, legal: Legal,
               rng: random.Random) -> A.Action:
        options = legal()
        return options[rng.randrange(len(options))]


def usefulness(card: Card, hand: Sequence[Card], contract: Contract) -> float:
    """How much `card` helps `hand` toward the contract: Rooks most, then cards that
    pair with others of their number (sets) or sit near cards of their colour (runs)."""
    if card.is_rook:
        return 20.0
    score = 0.0
    if contract.sets:
        same = sum(1 for c in hand if c.number == card.number and c is not card)
        score += (0.0, 2.5, 6.0, 3.0)[min(same, 3)] * (1 + 0.1 * contract.sets)
    if contract.runs:
        near = {c.number for c in hand if c.colour is card.colour and c is not card
                and 0 < abs(c.number - card.number) <= 3}
        score += sum(3.0 - 0.7 * abs(n - card.number) for n in near) * (1 + 0.1 * contract.runs)
    return score


class HeuristicBot:
    """A sensible beginner; see the module docstring. `buy_threshold` tunes its greed."""

    name = "heuristic"

    def __init__(self, take_threshold: float = 5.0, buy_threshold: float = 7.0) -> None:
        self.take_threshold = take_threshold
        self.buy_threshold = buy_threshold
        self._met: dict[tuple[int, tuple[int, ...]], bool] = {}
        self._left: dict[tuple[int, tuple[int, ...]], int] = {}
        self._best: dict[tuple[int, int, tuple[int, ...]], Arrangement | None] = {}

    def _meets(self, hand: Sequence[Card], round_number: int, rules: Rules) -> bool:
        """Does the hand hold the contract? (cached: the same hand is asked about often)"""
        from .solver import find_contract

        key = (round_number, _hand_key(hand))
        found = self._met.get(key)
        if found is None:
            if len(self._met) > 4096:
                self._met.clear()
            found = self._met[key] = find_contract(hand, round_number, rules) is not None
        return found

    def _best_lay_down(self, hand: Sequence[Card], round_number: int, rules: Rules,
                       keep: int = 0) -> Arrangement | None:
        """The solver's lay-down leaving fewest points (cached: it is the costliest
        question a bot asks, and a hand that cannot meet the contract is not searched)."""
        from .solver import best_lay_down

        if not self._meets(hand, round_number, rules):
            return None
        key = (round_number, keep, _hand_key(hand))
        if key not in self._best:
            if len(self._best) > 1024:
                self._best.clear()
            self._best[key] = best_lay_down(hand, round_number, rules, keep=keep)
        return self._best[key]

    def _left_points(self, hand: Sequence[Card], round_number: int, rules: Rules) -> int:
        """Points the best lay-down of this hand would leave (a large number if none)."""
        best = self._best_lay_down(hand, round_number, rules)
        return 10_000 if best is None else best.points_left

    def choose(self, view: PlayerView, rules: Rules, legal: Legal,
               rng: random.Random) -> A.Action:
        if view.phase is Phase.BUY:
            return self._answer(view, rules)
        if view.phase is Phase.DRAW:
            return self._draw(view, rules)
        return self._play(view, rules)

    # -- drawing and buying ------------------------------------------------------------
    def _helps(self, card: Card, view: PlayerView, rules: Rules) -> float:
        hand, r = view.hand, view.round_number
        if view.down[view.seat]:
            return 15.0 if _fits_table(card, view.table, rules) else 0.0
        if not _could_extend(card, hand):
            return 0.0  # nothing held to meld it with
        if self._meets(hand, r, rules):
            if r != ROUNDS or not _could_extend(card, hand):
                return 0.0  # it lays down this turn anyway / the card fits nothing held
            # round 11: worth it when it shrinks what the best lay-down leaves over
            before = self._left_points(hand, r, rules)
            after = self._left_points((*hand, card), r, rules)
            return 30.0 if after <= before - card.points or after == 0 else 0.0
        # one card from the contract? Then a Rook in that card's place would do too (it
        # only fails where the card would be a meld's one natural card), so a hand that a
        # Rook does not complete is not completed by this card: one cached check per hand
        # instead of a solver call per card offered.
        if self._meets((*hand, ROOK), r, rules) and self._meets((*hand, card), r, rules):
            return 30.0
        return usefulness(card, hand, view.contract)

    def _draw(self, view: PlayerView, rules: Rules) -> A.Action:
        top = view.discard_top
        if top is not None and self._helps(top, view, rules) >= self.take_threshold:
            return A.TakeDiscard(view.seat)
        return A.Draw(view.seat)

    def _answer(self, view: PlayerView, rules: Rules) -> A.Action:
        card = view.offered
        if card is None or view.down[view.seat] or (
                view.round_number == ROUNDS and self._meets(view.hand, ROUNDS, rules)):
            # a bought card brings a penalty card, which the whole hand must absorb too
            return A.Pass(view.seat)
        value = self._helps(card, view, rules)
        # every buy adds a penalty card; late in a round it is rarely worth it
        if value >= self.buy_threshold + rules.penalty_cards * 2:
            return A.Buy(view.seat)
        return A.Pass(view.seat)

    # -- playing -----------------------------------------------------------------------
    def _play(self, view: PlayerView, rules: Rules) -> A.Action:
        if not view.down[view.seat]:
            down = self._lay_down(view, rules)
            if down is not None:
                return down
        else:
            off = self._lay_off(view, rules)
            if off is not None:
                return off
        return self._discard(view, rules)

    def _lay_down(self, view: PlayerView, rules: Rules) -> A.Action | None:
        from .solver import whole_hand

        r, hand = view.round_number, view.hand
        if r == ROUNDS:
            whole = whole_hand(hand, r, rules) if self._meets(hand, r, rules) else None
            if whole is not None:
                return A.LayDown(view.seat, whole)
            return self._swap_into_lay_down(view, rules, whole_only=True)
        if not self._meets(hand, r, rules):
            return self._swap_into_lay_down(view, rules, whole_only=False)
        best = self._best_lay_down(hand, r, rules)
        if best is None:
            return None
        if len(best.left) == 1 and best.left[0] == view.taken_this_turn:
            # T14 would keep that card; lay down everything but a card we may discard
            best = self._best_lay_down(hand, r, rules, keep=2) or best
        return A.LayDown(view.seat, best.melds)

    def _swap_into_lay_down(self, view: PlayerView, rules: Rules,
                            whole_only: bool) -> A.Action | None:
        from .solver import whole_hand

        if not rules.rook_swap or rules.swap_only_when_down:
            return None
        for source, _meld, natural in rooks_in_reach(view):
            hand = list(view.hand)
            hand.remove(natural)
            hand.append(ROOK)
            if not self._meets(hand, view.round_number, rules):
                continue
            if whole_only:
                found = whole_hand(hand, view.round_number, rules)
            else:
                best = self._best_lay_down(hand, view.round_number, rules)
                found = best.melds if best else None
            if found and any(m.rooks for m in found):
                return A.SwapRook(view.seat, natural, source, lay_down=found)
        return None

    def _lay_off(self, view: PlayerView, rules: Rules) -> A.Action | None:
        seat = view.seat
        if not view.may_lay_off:
            return None
        # natural cards first, most costly first; the Rook last (it fits almost anywhere)
        for card in sorted(set(view.hand), key=lambda c: (c.is_rook, -c.points, c.sort_key)):
            spot = _fits_table(card, view.table, rules, seat)
            if spot is not None:
                ref, as_card = spot
                return A.LayOff(seat, card, ref, as_card)
        if rules.rook_swap:
            for (owner, index), meld, natural in rooks_in_reach(view):
                table = [list(ms) for ms in view.table]
                table[owner][index] = meld.swap_rook(natural)
                spot = _fits_table(ROOK, table, rules, seat)
                if spot is not None:
                    return A.SwapRook(seat, natural, (owner, index), spot[0], spot[1])
        return None

    def _discard(self, view: PlayerView, rules: Rules) -> A.Action:
        hand = list(view.hand)
        taken = view.taken_this_turn
        options = set(hand)
        if taken is not None and hand.count(taken) == 1:
            options.discard(taken)
        if not options:  # only the card just taken: T14 leaves nothing else to do
            options = set(hand)
        r = view.round_number
        if r == ROUNDS and not view.down[view.seat] and self._meets(hand, r, rules):
            # round 11 goes out only with the whole hand: shed what the best lay-down leaves
            best = self._best_lay_down(hand, r, rules)
            spare = [c for c in (best.left if best else ()) if c in options and not c.is_rook]
            if spare:
                return A.Discard(view.seat, max(spare, key=lambda c: (c.points, c.sort_key)))

        def keep_value(card: Card) -> float:
            rest = list(hand)
            rest.remove(card)
            if view.down[view.seat]:
                return (100.0 if card.is_rook else 0.0) - card.points
            return usefulness(card, rest, view.contract) * 1.5 - card.points / 5

        choice = min(sorted(options, key=lambda c: c.sort_key), key=keep_value)
        return A.Discard(view.seat, choice)


def _fits_table(card: Card, table: Sequence[Sequence[Meld]], rules: Rules,
                seat: int | None = None) -> tuple[tuple[int, int], Card | None] | None:
    """Where `card` can be laid off on the table (a meld and, for a Rook, what it is)."""
    for owner, melds in enumerate(table):
        if seat is not None and owner != seat and not rules.lay_off_on_others:
            continue
        for index, meld in enumerate(melds):
            if not meld.fits(card):
                continue
            places: list[Card | None] = [None]
            if card.is_rook and meld.is_run:
                assert meld.colour is not None
                places = [Card(meld.colour, n) for n in (meld.high + 1, meld.low - 1)
                          if 1 <= n <= 14]
            for as_card in places:
                try:
                    meld.lay_off(card, as_card, rules)
                except ToonervilleError:
                    continue
                return (owner, index), as_card
    return None


def _could_extend(card: Card, hand: Sequence[Card]) -> bool:
    """Could `card` join a meld made of these cards: a Rook, a card of a number held, or
    one next to a held card of its colour?"""
    if card.is_rook:
        return True
    return any(c.is_rook or c.number == card.number
               or (c.colour is card.colour and abs(c.number - card.number) <= 3)
               for c in hand)


def _KEY(card: Card) -> int:
    return card.sort_key


def _hand_key(hand: Sequence[Card]) -> tuple[int, ...]:
    """A hand as a multiset (the cache key of the bot's solver answers)."""
    return tuple(sorted([c.index for c in hand]))


class NoBuyBot(HeuristicBot):
    """The heuristic bot that never buys: seat it next to heuristic bots to see whether
    buying pays."""

    name = "nobuy"

    def __init__(self) -> None:
        super().__init__(buy_threshold=math.inf)


#: The one registry of bots by name: the play app, the explorer and `simulate` use it.
BOTS: dict[str, Callable[[], Bot]] = {
    "heuristic": HeuristicBot, "random": RandomBot, "nobuy": NoBuyBot}
BOT_KINDS: tuple[str, ...] = tuple(BOTS)


def make_bot(kind: str | Bot) -> Bot:
    """A bot by name ("heuristic", "random", "nobuy"), or the bot itself."""
    if not isinstance(kind, str):
        return kind
    try:
        return BOTS[kind]()
    except KeyError:
        raise RulesError(msg("unknown bot {kind!r}: choose from {kinds}", None, kind=kind,
                             kinds=", ".join(BOTS))) from None
