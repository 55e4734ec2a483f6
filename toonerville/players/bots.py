"""Computer players.

Owns the bot protocol — a bot sees only its own `PlayerView` and chooses one action —
the one registry of bots (`BOTS`, `BOT_KINDS`, `make_bot`) and three bots: `RandomBot`,
which picks uniformly among the legal moves; `HeuristicBot`, which plays like a sensible
beginner: it keeps cards that work toward the contract, takes or buys a discard that
helps enough, lays down as soon as it can, lays off everything that fits (using the
Rook swap when that frees a card), and discards its most costly useless card; and
`NoBuyBot`, the heuristic bot that never buys. `HeuristicBot.explain` gives the move it
would make with a one-sentence reason, as a hint for a learner.

The bot keeps no rules knowledge of its own: where a card or a Rook can be laid off is
`melding.lay_off_spots`, which Rooks can be swapped out is `legal.rooks_in_reach`, and
when one of its moves might strand the player (T13a) it asks the game's own list of
legal moves.
"""

from __future__ import annotations

import math
import random
from bisect import bisect
from collections.abc import Callable, Sequence
from typing import Any, Final, Protocol

from ..engine import actions as A
from ..engine._native import mypyc_attr
from ..engine.cards import ROOK, Card, deck
from ..engine.errors import RulesError
from ..engine.events import Phase
from ..engine.legal import discard_move, rooks_in_reach, simple_move
from ..engine.melding import lay_off_spots
from ..engine.melds import Meld
from ..engine.messages import N_, Message, msg
from ..engine.rules import ROUNDS, Contract, Rules
from ..engine.solver import Arrangement, best_lay_down, find_contract, whole_hand
from ..engine.views import PlayerView

Legal = Callable[[], list[A.Action]]
Key = tuple[int, ...]  # a hand as a multiset: the sorted `Card.index` of its cards
Why = tuple[str, str | None, dict[str, Any]]  # a reason: template, rule id, parameters


class Bot(Protocol):
    name: str

    def choose(self, view: PlayerView, rules: Rules, legal: Legal,
               rng: random.Random) -> A.Action:
        """One action for `view.seat`; `legal()` lists the legal moves when needed."""
        ...


# other modules build their bots on these (a compiled class allows that only so)
@mypyc_attr(allow_interpreted_subclasses=True)
class RandomBot:
    """Picks uniformly at random among the legal moves."""

    name = "random"

    def choose(self, view: PlayerView, rules: Rules, legal: Legal,
               rng: random.Random) -> A.Action:
        options = legal()
        return options[rng.randrange(len(options))]


# -- a hand as counts -----------------------------------------------------------------------
_CARDS: Final[tuple[Card, ...]] = deck()  # by `Card.index`
_ROOK: Final = ROOK.index
_COLOUR: Final = [i // 14 for i in range(56)] + [-1]
_NUMBER: Final = [i % 14 + 1 for i in range(56)] + [0]
_SAME: Final = (0.0, 2.5, 6.0, 3.0)  # what 0..3 other cards of a card's number are worth (sets)
# what the cards of a card's colour within 3 of its number are worth (runs), by the 7-bit
# window of numbers n-3 .. n+3 held (the middle bit, the card itself, counts nothing)
#: the order the bot tries its cards for a lay-off, by card index: natural cards first,
#: most costly first, then in card order; the Rook last
_LAY_OFF_ORDER: Final = [(c.is_rook, -c.points, c.index) for c in _CARDS]
_NEAR: Final = [sum(3.0 - 0.7 * abs(k - 3) for k in range(7) if k != 3 and w >> k & 1)
         for w in range(128)]


@mypyc_attr(acyclic=True, free_list_len=1)  # lists of numbers only; see `state.Change`
class Tally:
    """A hand as counts: cards of each number, numbers held in each colour, Rooks."""

    __slots__ = ("numbers", "masks", "rooks")

    def __init__(self, key: Key) -> None:
        numbers, masks, rooks = [0] * 15, [0, 0, 0, 0], 0
        for i in key:
            if i == _ROOK:
                rooks += 1
            else:
                numbers[_NUMBER[i]] += 1
                masks[_COLOUR[i]] |= 1 << _NUMBER[i]
        self.numbers, self.masks, self.rooks = numbers, masks, rooks

    def window(self, card: Card) -> int:
        """The numbers of `card`'s colour from 3 below to 3 above it held (7 bits)."""
        return (self.masks[_COLOUR[card.index]] << 3 >> card.number) & 127

    def could_extend(self, card: Card) -> bool:
        """Could `card` join a meld made with these cards: a Rook, a card of a number
        held, or one near a held card of its colour?"""
        return card.is_rook or self.rooks > 0 or self.numbers[card.number] > 0 \
            or self.window(card) != 0

    def least_useful(self, cards: Sequence[Card], contract: Contract) -> Card:
        """Of `cards` (all held), the first that helps least toward `contract` once its
        points are counted: `usefulness(card, contract, True) * 1.5 - points / 5`, the
        same sums in the same order, worked out in one loop."""
        numbers, masks = self.numbers, self.masks
        sets = (1 + 0.1 * contract.sets) if contract.sets else 0.0
        runs = (1 + 0.1 * contract.runs) if contract.runs else 0.0
        best: Card | None = None
        lowest = math.inf
        for card in cards:
            if card.is_rook:
                score = 20.0
            else:
                score = 0.0
                if sets:
                    same = numbers[card.number] - 1
                    score += _SAME[same if same < 3 else 3] * sets
                if runs:
                    window = (masks[_COLOUR[card.index]] << 3 >> card.number) & 127
                    score += _NEAR[window] * runs
            value = score * 1.5 - card.points / 5
            if value < lowest:
                best, lowest = card, value
        assert best is not None, "least_useful of no cards"
        return best

    def usefulness(self, card: Card, contract: Contract, held: bool) -> float:
        """`usefulness` of `card` against these cards (`held`: one of them is `card`)."""
        if card.is_rook:
            return 20.0
        score = 0.0
        if contract.sets:
            same = self.numbers[card.number] - held
            score += _SAME[same if same < 3 else 3] * (1 + 0.1 * contract.sets)
        if contract.runs:
            score += _NEAR[self.window(card)] * (1 + 0.1 * contract.runs)
        return score


def hand_key(hand: Sequence[Card]) -> Key:
    """A hand as a multiset, the key of a `Tally`: the sorted `Card.index` of its cards."""
    return tuple(sorted([c.index for c in hand]))


def _one_more(key: Key, less: Key) -> bool:
    """Is `key` the hand `less` with one card more?"""
    if len(key) != len(less) + 1:
        return False
    at = 0
    for at, i in enumerate(less):  # noqa: B007 - `at` is the first place they differ
        if key[at] != i:
            break
    else:
        return True
    return key[at + 1:] == less[at:]


def _plus(key: Key, card: Card) -> Key:
    i = card.index
    at = bisect(key, i)
    return (*key[:at], i, *key[at:])


def _minus(key: Key, card: Card) -> Key:
    at = key.index(card.index)
    return key[:at] + key[at + 1:]


def _cards(key: Key) -> list[Card]:
    return [_CARDS[i] for i in key]


def usefulness(card: Card, hand: Sequence[Card], contract: Contract) -> float:
    """How much `card` helps `hand` toward the contract: Rooks most, then cards that
    pair with others of their number (sets) or sit near cards of their colour (runs).
    If the hand holds `card`, one copy of it is not counted as its own partner."""
    return Tally(hand_key(hand)).usefulness(card, contract, card in hand)


def _rook_stands_in(rules: Rules) -> int:
    """The most Rooks a hand may hold for this to be exact: if the hand plus a natural
    card meets the contract, the hand plus a Rook does too (the Rook takes the card's
    place). It fails only where the swap breaks H1: a meld left with no natural card,
    more Rooks than a meld may hold, more Rooks than naturals."""
    most = 1
    if rules.max_rooks_per_meld is not None:
        most = min(most, rules.max_rooks_per_meld - 1)
    if rules.rooks_at_most_naturals:
        most = 0
    return most

#: the reasons of the draw and the buy window, by what `HeuristicBot._helps` found
_TAKE: Final = {
    "fits": N_("take {card}: it fits a meld on the table"),
    "more": N_("take {card}: with it more of your hand goes into melds"),
    "completes": N_("take {card}: it completes your contract"),
    "helps": N_("take {card}: it helps toward your contract"),
}
_DRAW: Final = {
    "fits-not": N_("draw from the stock: {card} fits no meld on the table"),
    "alone": N_("draw from the stock: {card} goes with none of your cards"),
    "met": N_("draw from the stock: your hand meets the contract without {card}"),
    "more-not": N_("draw from the stock: {card} would not go into your melds"),
    "helps": N_("draw from the stock: {card} helps too little toward your contract"),
}
_BUY: Final = {
    "completes": N_("buy {card}: it completes your contract"),
    "helps": N_("buy {card}: it helps your contract enough to take a penalty card too"),
}
_PASS: Final = {
    "alone": N_("pass on {card}: it goes with none of your cards"),
    "met": N_("pass on {card}: you can lay down your contract without it"),
    "helps": N_("pass on {card}: it does not help enough to take a penalty card too"),
}


@mypyc_attr(allow_interpreted_subclasses=True)
class HeuristicBot:
    """A sensible beginner; see the module docstring. `take_threshold` and
    `buy_threshold` tune its greed."""

    name = "heuristic"

    def __init__(self, take_threshold: float = 5.0, buy_threshold: float = 7.0) -> None:
        self.take_threshold = take_threshold
        self.buy_threshold = buy_threshold
        self._rules: Rules | None = None
        self._exact = 1
        self._met: dict[tuple[int, Key], bool] = {}
        self._best: dict[tuple[int, int, Key], Arrangement | None] = {}
        self._within: dict[tuple[int, Key, int], bool] = {}
        self._points: dict[tuple[int, Key], int] = {}
        self._tallies: dict[Key, Tally] = {}
        self._hand: tuple[Card, ...] = ()  # the hand of the last view, and its key
        self._hand_key: Key = ()
        self._before: Key = ()  # the hand before that (before the last draw, say)

    # -- cached questions about a hand ------------------------------------------------
    def _reset(self, rules: Rules) -> None:
        """Answers are kept per `Rules`: a bot playing under others starts afresh."""
        self._rules = rules
        self._exact = _rook_stands_in(rules)
        self._met.clear()
        self._best.clear()
        self._within.clear()
        self._points.clear()

    def _tally(self, key: Key) -> Tally:
        found = self._tallies.get(key)
        if found is None:
            if len(self._tallies) > 256:
                self._tallies.clear()
            found = self._tallies[key] = Tally(key)
        return found

    def _meets(self, key: Key, round_number: int, rules: Rules, infer: bool = False
               ) -> bool:
        """Does the hand hold the contract? Cached; with `infer`, a hand just drawn to is
        first worked out from what is known of the hand before the draw: if that met it,
        so does this one; if that hand with a Rook added did not, neither does this one
        (exactly, see `_rook_stands_in`) — which answers most hands just drawn to. (Other
        hands of one card fewer are almost never known: trying each cost more than it
        saved.)"""
        met = self._met
        found = met.get((round_number, key))
        if found is not None:
            return found
        if infer and _one_more(key, self._before):
            less = self._before
            if met.get((round_number, less)):
                found = True
            elif len(key) - bisect(key, _ROOK - 1) <= self._exact and \
                    met.get((round_number, (*less, _ROOK))) is False:
                found = False
        if found is None:
            found = find_contract(_cards(key), round_number, rules) is not None
        if len(met) > 8192:
            met.clear()
        met[(round_number, key)] = found
        return found

    def _best_lay_down(self, key: Key, round_number: int, rules: Rules,
                       keep: int = 0) -> Arrangement | None:
        """The solver's lay-down leaving fewest points (cached: it is the costliest
        question a bot asks, and a hand that cannot meet the contract is not searched)."""
        if not self._meets(key, round_number, rules):
            return None
        ck = (round_number, keep, key)
        if ck not in self._best:
            if len(self._best) > 1024:
                self._best.clear()
            self._best[ck] = best_lay_down(_cards(key), round_number, rules, keep=keep)
        return self._best[ck]

    def _left_points(self, key: Key, round_number: int, rules: Rules) -> int:
        """Points the best lay-down of this hand would leave (a large number if none)."""
        known = self._points.get((round_number, key))
        if known is not None:
            return known
        best = self._best_lay_down(key, round_number, rules)
        if best is None:
            return 10_000
        self._points[(round_number, key)] = best.points_left
        return best.points_left

    def _without_spare(self, key: Key, round_number: int, best: Arrangement, card: Card
                       ) -> None:
        """Note what the hand leaves once `card`, which its best lay-down `best` leaves
        over, is gone: that many points fewer (a lay-down of the smaller hand is one of
        this hand keeping the card, and `best` is one of the smaller hand)."""
        if len(self._points) > 1024:
            self._points.clear()
        self._points[(round_number, _minus(key, card))] = best.points_left - card.points

    def _leaves_at_most(self, key: Key, round_number: int, rules: Rules, points: int
                        ) -> bool:
        """Has this hand a lay-down leaving at most `points`? (the solver's quick yes or
        no, unless the best lay-down is known already)"""
        known = self._points.get((round_number, key))
        if known is not None:
            return known <= points
        ck0 = (round_number, 0, key)
        if ck0 in self._best:
            best = self._best[ck0]
            return best is not None and best.points_left <= points
        ck = (round_number, key, points)
        found = self._within.get(ck)
        if found is None:
            if len(self._within) > 1024:
                self._within.clear()
            found = self._within[ck] = self._meets(key, round_number, rules) and \
                best_lay_down(_cards(key), round_number, rules, at_most=points) is not None
        return found

    # -- deciding ---------------------------------------------------------------------
    def choose(self, view: PlayerView, rules: Rules, legal: Legal,
               rng: random.Random) -> A.Action:
        return self._decide(view, rules, legal)[0]

    def explain(self, view: PlayerView, rules: Rules, legal: Legal | None = None
                ) -> tuple[A.Action, Message]:
        """What the bot would do in `view.seat`'s place, and why, in one sentence (a hint
        for the learner). Without `legal` (the game's list of legal moves), a move that
        might strand the player (T13a) is left out rather than checked."""
        action, (template, rule, params) = self._decide(view, rules, legal)
        return action, msg(template, rule, **params)

    def _decide(self, view: PlayerView, rules: Rules, legal: Legal | None
                ) -> tuple[A.Action, Why]:
        if rules is not self._rules:
            self._reset(rules)
        hand = view.hand
        if hand == self._hand:  # buy windows between turns show the same hand again
            key = self._hand_key
        else:
            self._before = self._hand_key
            key = self._hand_key = hand_key(hand)
            self._hand = hand
        if view.phase is Phase.BUY:
            return self._answer(view, key, rules)
        if view.phase is Phase.DRAW:
            return self._draw(view, key, rules)
        return self._play(view, key, rules, legal)

    def helps(self, card: Card, view: PlayerView, rules: Rules) -> float:
        """How much `card` would help `view.seat`'s hand (0: not at all), as the bot
        weighs a discard to take or to buy (the strong bot weighs only such cards)."""
        if rules is not self._rules:
            self._reset(rules)
        return self._helps(card, view, hand_key(view.hand), rules)[0]

    # -- drawing and buying ------------------------------------------------------------
    def _helps(self, card: Card, view: PlayerView, key: Key, rules: Rules
               ) -> tuple[float, str]:
        """How much `card` would help this hand, and why (a word of `_TAKE` ...)."""
        r = view.round_number
        if view.down[view.seat]:
            if lay_off_spots(card, view.table, view.seat, rules):
                return 15.0, "fits"
            return 0.0, "fits-not"
        tally = self._tally(key)
        if not tally.could_extend(card):
            return 0.0, "alone"
        if self._meets(key, r, rules):
            if r != ROUNDS:
                return 0.0, "met"
            # round 11: worth it when it shrinks what the best lay-down leaves over
            before = self._left_points(key, r, rules)
            if self._leaves_at_most(_plus(key, card), r, rules,
                                    max(0, before - card.points)):
                return 30.0, "more"
            return 0.0, "more-not"
        # one card from the contract? Then a Rook in that card's place would do too, so a
        # hand that a Rook does not complete is not completed by this card: one cached
        # question per hand instead of a solver call per card offered
        if self._meets((*key, _ROOK), r, rules) and \
                self._meets(_plus(key, card), r, rules):
            return 30.0, "completes"
        return tally.usefulness(card, view.contract, False), "helps"

    def _draw(self, view: PlayerView, key: Key, rules: Rules) -> tuple[A.Action, Why]:
        top, draw = view.discard_top, simple_move(A.Draw, view.seat)
        if top is None:
            return draw, (N_("draw from the stock: the discard pile is empty"), "T9", {})
        value, why = self._helps(top, view, key, rules)
        if value >= self.take_threshold:
            return simple_move(A.TakeDiscard, view.seat), (_TAKE.get(why, _TAKE["helps"]),
                                                           "T9", {"card": top})
        return draw, (_DRAW.get(why, _DRAW["helps"]), "T9", {"card": top})

    def _answer(self, view: PlayerView, key: Key, rules: Rules) -> tuple[A.Action, Why]:
        card, no = view.offered, simple_move(A.Pass, view.seat)
        if card is None:
            return no, (N_("pass: nothing is offered"), "T10", {})
        if view.down[view.seat]:
            return no, (N_("pass on {card}: you are down, and a penalty card would only add "
                           "to your hand"), "H5", {"card": card})
        if view.round_number == ROUNDS and self._meets(key, ROUNDS, rules):
            # a bought card brings a penalty card, which the whole hand must absorb too
            return no, (N_("pass on {card}: your hand meets the contract, and in round 11 a "
                           "penalty card would have to go into melds too"), "T17",
                        {"card": card})
        value, why = self._helps(card, view, key, rules)
        # every buy adds a penalty card; late in a round it is rarely worth it
        if value >= self.buy_threshold + rules.penalty_cards * 2:
            return simple_move(A.Buy, view.seat), (_BUY.get(why, _BUY["helps"]), "T10",
                                                   {"card": card})
        return no, (_PASS.get(why, _PASS["helps"]), "H5", {"card": card})

    # -- playing -----------------------------------------------------------------------
    def _play(self, view: PlayerView, key: Key, rules: Rules, legal: Legal | None
              ) -> tuple[A.Action, Why]:
        found: tuple[A.Action, Why] | None
        if not view.down[view.seat]:
            found = self._lay_down(view, key, rules, legal)
        else:
            found = self._lay_off(view, key, rules, legal)
        return found if found is not None else self._discard(view, key, rules)

    def _safe(self, view: PlayerView, action: A.Action, rest: Sequence[Card],
              used: Sequence[Card], legal: Legal | None) -> bool:
        """Is `action` (after which the hand holds `rest`, having played `used`) sure not
        to strand the player? Only a move leaving just the card taken from the discard
        pile might (T13a); the game's own list of legal moves then decides."""
        taken = view.taken_this_turn
        if taken is None or len(rest) != 1 or rest[0] != taken or taken in used:
            return True
        return legal is not None and action in legal()

    def _lay_down(self, view: PlayerView, key: Key, rules: Rules, legal: Legal | None
                  ) -> tuple[A.Action, Why] | None:
        r, seat = view.round_number, view.seat
        if r == ROUNDS:
            # the best lay-down (which the discard asks for next anyway) leaves nothing
            # over exactly when the whole hand can go down: only then is the whole hand
            # looked for, in the order it is held
            best = self._best_lay_down(key, r, rules) \
                if self._meets(key, r, rules, infer=True) else None
            if best is not None and not best.left:
                whole = whole_hand(view.hand, r, rules)
                if whole is not None:
                    return A.LayDown(seat, whole), (
                        N_("lay down your whole hand: every card goes into the contract's "
                        "melds"), "T17", {})
            return self._swap_into_lay_down(view, key, rules, legal, whole_only=True)
        if not self._meets(key, r, rules, infer=True):
            return self._swap_into_lay_down(view, key, rules, legal, whole_only=False)
        for keep in (0, 2):
            best = self._best_lay_down(key, r, rules, keep)
            if best is None:
                continue
            action = A.LayDown(seat, best.melds)
            used = [c for m in best.melds for c in m.cards]
            if self._safe(view, action, best.left, used, legal):
                return action, (N_("lay down now: your hand meets the contract ({contract})"),
                                "T15", {"contract": view.contract})
        if legal is not None:  # the game's own suggestion, which never strands
            for option in legal():
                if isinstance(option, A.LayDown):
                    return option, (N_("lay down now: your hand meets the contract "
                                    "({contract})"), "T15", {"contract": view.contract})
        return None

    def _swap_into_lay_down(self, view: PlayerView, key: Key, rules: Rules,
                            legal: Legal | None, whole_only: bool
                            ) -> tuple[A.Action, Why] | None:
        if not rules.rook_swap or rules.swap_only_when_down:
            return None
        r = view.round_number
        for source, meld, natural in rooks_in_reach(view):
            swapped = (*_minus(key, natural), _ROOK)
            if not self._meets(swapped, r, rules):
                continue
            found: tuple[Meld, ...] | None
            if whole_only:
                found = whole_hand(_cards(swapped), r, rules)
            else:
                best = self._best_lay_down(swapped, r, rules)
                found = best.melds if best else None
            if not found or not any(m.rooks for m in found):
                continue
            action = A.SwapRook(view.seat, natural, source, lay_down=found)
            rest = _cards(swapped)
            used = [natural]
            for m in found:
                for c in m.cards:
                    rest.remove(c)
                    used.append(c)
            if self._safe(view, action, rest, used, legal):
                return action, (N_("swap {natural} for the Rook in {meld} and lay down: with "
                                "the Rook your hand meets the contract"), "T18",
                                {"natural": natural, "meld": meld})
        return None

    def _lay_off(self, view: PlayerView, key: Key, rules: Rules, legal: Legal | None
                 ) -> tuple[A.Action, Why] | None:
        seat, hand = view.seat, view.hand
        if not view.may_lay_off:
            return None
        # natural cards first, most costly first; the Rook last (it fits almost anywhere)
        for i in sorted(dict.fromkeys(key), key=_LAY_OFF_ORDER.__getitem__):
            card = _CARDS[i]
            spots = lay_off_spots(card, view.table, seat, rules)
            if not spots:
                continue
            onto, as_card = _first_spot(spots)
            action = A.LayOff(seat, card, onto, as_card)
            rest = list(hand)
            rest.remove(card)
            if self._safe(view, action, rest, (card,), legal):
                owner, index = onto
                return action, (N_("lay off {card} onto {meld}: one card fewer in your hand"),
                                "H9", {"card": card, "meld": view.table[owner][index]})
        if rules.rook_swap:
            for (owner, index), meld, natural in rooks_in_reach(view):
                table = [list(ms) for ms in view.table]
                table[owner][index] = meld.swap_rook(natural)
                spots = lay_off_spots(ROOK, table, seat, rules)
                if not spots:
                    continue
                onto, as_card = _first_spot(spots)
                swap = A.SwapRook(seat, natural, (owner, index), onto, as_card)
                rest = list(hand)
                rest.remove(natural)
                if self._safe(view, swap, rest, (natural,), legal):
                    return swap, (N_("swap {natural} for the Rook in {meld} and lay the Rook "
                                    "off: one card fewer in your hand"), "T18",
                                    {"natural": natural, "meld": meld})
        return None

    def _discard(self, view: PlayerView, key: Key, rules: Rules) -> tuple[A.Action, Why]:
        taken = view.taken_this_turn
        # the cards that may go, distinct and in card order (the key is sorted): not the
        # card just taken from the discard pile unless a twin of it is held (T14) or it is
        # all there is
        ids = list(dict.fromkeys(key))
        if taken is not None and len(ids) > 1 and key.count(taken.index) == 1:
            ids.remove(taken.index)
        r, seat = view.round_number, view.seat
        if r == ROUNDS and not view.down[seat] and self._meets(key, r, rules):
            # round 11 goes out only with the whole hand: shed what the best lay-down leaves
            best = self._best_lay_down(key, r, rules)
            allowed = set(ids)
            spare = [c for c in (best.left if best else ())
                     if c.index in allowed and not c.is_rook]
            if spare:
                card = max(spare, key=lambda c: (c.points, c.sort_key))
                assert best is not None
                self._without_spare(key, r, best, card)
                return discard_move(seat, card), (
                    N_("discard {card}: your best lay-down leaves it over, and in round 11 "
                    "the whole hand must go down"), "T17", {"card": card})
        ordered = [_CARDS[i] for i in ids]
        if view.down[seat]:
            # keep a Rook (it fits almost anywhere); otherwise shed the most points
            card = min(ordered, key=lambda c: (100.0 if c.is_rook else 0.0) - c.points)
            return discard_move(seat, card), (
                N_("discard {card}: it fits no meld on the table and costs the most points"),
                "T13", {"card": card})
        card = self._tally(key).least_useful(ordered, view.contract)
        if self._met.get((r, key)) is False:
            # a hand that does not hold the contract does not with a card fewer either: the
            # answer for the hand kept is known, which the next draw and buy offers ask
            self._met[(r, _minus(key, card))] = False
        return discard_move(seat, card), (
            N_("discard {card}: of your cards it helps least toward the contract ({contract})"),
            "T13", {"card": card, "contract": view.contract})


def _first_spot(spots: list[tuple[tuple[int, int], Card | None]]
                ) -> tuple[tuple[int, int], Card | None]:
    """The first meld `lay_off_spots` lists; for a Rook with both ends of a run open,
    the higher end (as the engine takes it when a player does not say, T6)."""
    onto = spots[0][0]
    ends = [as_card for ref, as_card in spots if ref == onto]
    if len(ends) > 1 and all(e is not None for e in ends):
        return onto, max(ends, key=lambda c: c.number if c is not None else 0)
    return onto, ends[0]


@mypyc_attr(allow_interpreted_subclasses=True)
class NoBuyBot(HeuristicBot):
    """The heuristic bot that never buys: seat it next to heuristic bots to see whether
    buying pays."""

    name = "nobuy"

    def __init__(self) -> None:
        super().__init__(buy_threshold=math.inf)


#: The one registry of bots by name: the play app, the explorer and `simulate` use it.
#: The coach, a layer above, registers its bots here when the package is imported
#: (`register_bot`: "beginner" and "strong"). The levels a learner chooses from
#: (`coach.levels.LEVELS`, each with its sentence) are "beginner", "heuristic" and "strong".
BOTS: dict[str, Callable[[], Bot]] = {
    "heuristic": HeuristicBot, "random": RandomBot, "nobuy": NoBuyBot}
#: every kind of bot, those the coach registers included
BOT_KINDS: tuple[str, ...] = ("heuristic", "random", "nobuy", "beginner", "strong")


def register_bot(kind: str, make: Callable[[], Bot]) -> None:
    """Make bots of `kind` with `make` (a layer above the players adds its own bots this
    way: `toonerville.coach` registers "beginner" and "strong")."""
    BOTS[kind] = make


#: each bot kind's name as a page shows it (English source, translated when shown:
#: `widgets.words.bot_kind_word`, the explorer's tables)
BOT_KIND_WORDS = {"beginner": N_("beginner"), "heuristic": N_("heuristic"),
                  "strong": N_("strong"), "random": N_("random"), "nobuy": N_("never buys")}
#: the levels, weakest first
BOT_LEVELS: tuple[str, ...] = ("beginner", "heuristic", "strong")


def make_bot(kind: str | Bot) -> Bot:
    """A bot by name ("heuristic", "random", "nobuy", "beginner", "strong"), or the bot
    itself."""
    if not isinstance(kind, str):
        return kind
    try:
        return BOTS[kind]()
    except KeyError:
        raise RulesError(msg("unknown bot {kind!r}: choose from {kinds}", None, kind=kind,
                             kinds=", ".join(BOTS))) from None
