"""Melding moves: laying down the contract (T15, T17, H7, H8), laying off (H9) and the
Rook swap (T18, T19, H10, H12) — each a check that only reads the position and returns a
plan, and an apply step that carries the plan out and cannot refuse.

Every check also makes sure the move leaves the player a way to end the turn (T13a): a
move after which the player, not going out, would hold only the card taken from the
discard pile — which T14 forbids discarding — while that card fits no meld they may lay
it off onto, is refused; so is (H12) a move that leaves a swapped-out Rook in hand with no
way left to play it. T14 with identical cards: the physical card taken from the discard
pile goes into melds first, so its twin stays in hand and may be discarded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from . import actions as A
from .cards import COLOURS, ROOK, Card, card_of, format_cards
from .errors import (
    AlreadyDownError,
    ContractNotMetError,
    DeadEndError,
    InvalidMeldError,
    LayOffError,
    RookSwapError,
    ToonervilleError,
)
from .events import EventKind, Joined
from .laydown import check_lay_down as check_contract
from .melds import Meld, MeldKind, check_meld
from .messages import Message, msg
from .rounds import go_out
from .rules import Rules, SwappedRook
from .solver import find_contract
from .state import Change, Placed, Position, Setup
from .turn import check_playing


def _valid(meld: Meld, rules: Rules) -> Meld:
    """`meld` checked afresh under these rules (a Meld value may have been made under
    others); the same meld or `InvalidMeldError`. Remembered per `Rules` under a key of
    the meld's fields with its cards as numbers: hashing a `Rules` (18 fields, enums
    among them) and a `Meld` (a Python `__hash__` per card) cost more than the check of
    a meld met before."""
    cache = _VALID.get(rules) if rules is not _LAST[0] else _LAST[1]
    if cache is None:
        if len(_VALID) >= 64:
            _VALID.clear()
        cache = _VALID[rules] = {}
    _LAST[0], _LAST[1] = rules, cache
    colour = meld.colour  # as its place, not the enum member (Python hashes those)
    key = (meld.kind is MeldKind.RUN, -1 if colour is None else COLOURS.index(colour), meld.low,
           tuple([card.index for card in meld.cards]))
    found = cache.get(key)
    if found is None:
        verdict = check_meld(str(meld), rules)
        if not verdict:
            raise InvalidMeldError(verdict.reason)
        if len(cache) >= 4096:
            cache.clear()
        found = cache[key] = verdict.meld_or_raise()
    return found


_VALID: Final[dict[Rules, dict[tuple[Any, ...], Meld]]] = {}
_LAST: Final[list[Any]] = [None, None]  # the Rules `_valid` was last asked under, and its melds


def rook_ends(meld: Meld) -> tuple[Card | None, ...]:
    """Where a Rook could be laid off onto this meld: for a run, the natural cards just
    below and above it that exist (one of them, both or none); for a set, anywhere."""
    if not meld.is_run:
        return (None,)
    assert meld.colour is not None
    return tuple(card_of(meld.colour, n) for n in (meld.low - 1, meld.high + 1) if 1 <= n <= 14)


def lay_off_spots(card: Card, table: Sequence[Sequence[Meld]], seat: int, rules: Rules
                  ) -> list[tuple[tuple[int, int], Card | None]]:
    """Every meld (and, for a Rook on a run, every card it could stand for) where `seat`
    may lay `card` off under these rules (H9)."""
    out = []
    for owner, melds in enumerate(table):
        if owner != seat and not rules.lay_off_on_others:
            continue
        for index, meld in enumerate(melds):
            if not meld.fits(card):
                continue
            for as_card in rook_ends(meld) if card.is_rook else (None,):
                try:
                    meld.lay_off(card, as_card, rules)
                except ToonervilleError:
                    continue
                out.append(((owner, index), as_card))
    return out


def lay_off_moves(hand: Sequence[Card], table: Sequence[Sequence[Meld]], seat: int,
                  rules: Rules) -> list[tuple[Card, tuple[int, int], Card | None]]:
    """Every (card, meld, what a Rook stands for) that `seat` could lay off from `hand`,
    found meld by meld from the few cards each meld can take (a run: the card below, the
    card above, a Rook; a set: its number, a Rook), in card order."""
    held = {c.index: c for c in hand}
    out: list[tuple[Card, tuple[int, int], Card | None]] = []
    for owner, melds in enumerate(table):
        if owner != seat and not rules.lay_off_on_others:
            continue
        for index, meld in enumerate(melds):
            if meld.is_run:
                wanted = [c for c in rook_ends(meld) if c is not None]
            else:
                wanted = [card_of(colour, meld.low) for colour in COLOURS]
            # a natural card just beyond a run's ends in its colour, or of a set's number,
            # is what `Meld.lay_off` takes without a question (no house rule limits it)
            out.extend([(held[c.index], (owner, index), None) for c in wanted
                        if c.index in held])
            if ROOK_KEY in held:
                for as_card in rook_ends(meld):
                    try:
                        meld.lay_off(ROOK, as_card, rules)
                    except ToonervilleError:
                        continue
                    out.append((ROOK, (owner, index), as_card))
    out.sort(key=lambda move: move[0].sort_key)
    return out


ROOK_KEY: Final = ROOK.index


def _may_lay_off(s: Position, setup: Setup, seat: int, down_turn: int | None) -> bool:
    return down_turn is not None and (setup.rules.lay_off_same_turn or down_turn != s.turn)


def dead_end(s: Position, setup: Setup, seat: int, hand: Sequence[int],
             table: Sequence[Sequence[Meld]], down_turn: int | None,
             swapped: int | None) -> Message | None:
    """Why a move that leaves `seat` holding `hand` (with `table` on the table and down
    since `down_turn`) would leave no way to end the turn (T13a, H12), or None."""
    if not hand:
        return None  # going out
    pending = swapped is not None and swapped in hand
    if not pending and (len(hand) != 1 or hand[0] != s.taken):
        return None  # the common case: a card to discard is left
    rules, c = setup.rules, s.cards
    may_lay_off = _may_lay_off(s, setup, seat, down_turn)
    rest = list(hand)
    if swapped is not None and swapped in hand:
        rest.remove(swapped)
        if down_turn is None:
            if not _could_lay_down([c[i] for i in hand], s.round_number, rules):
                return msg("you would keep the Rook you swapped out with no lay-down to play "
                           "it in, and your turn cannot end while you hold it", "H12")
        elif not (may_lay_off and lay_off_spots(ROOK, table, seat, rules)):
            return msg("you would keep the Rook you swapped out with no meld to lay it off "
                       "onto, and your turn cannot end while you hold it", "H12")
    if len(rest) == 1 and rest[0] == s.taken:
        card = c[rest[0]]
        if not (may_lay_off and lay_off_spots(card, table, seat, rules)):
            return msg("after this you would hold only {card}, the card you took from the "
                       "discard pile: you could not discard it (T14) and it fits no meld, "
                       "so your turn could not end", "T13a", card=card)
    return None


def _could_lay_down(hand: Sequence[Card], round_number: int, rules: Rules) -> bool:
    return find_contract(tuple(hand), round_number, rules) is not None


def _without(hand: Sequence[int], ids: Sequence[int]) -> list[int]:
    rest = list(hand)
    for i in ids:
        rest.remove(i)
    return rest


# -- laying down ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class LayDownPlan:
    placed: tuple[Placed, ...]
    goes_out: bool


def check_may_lay_down(s: Position, setup: Setup, seat: int) -> None:
    """`seat` may lay down now, melds aside: its turn, after drawing, not yet down."""
    check_playing(s, setup, seat, "lay down")
    if s.down_turn[seat] is not None:
        raise AlreadyDownError(msg(
            "you are already down; now you may lay off cards onto melds on the table", "H7"))


def check_lay_down(s: Position, setup: Setup, seat: int, melds: tuple[Meld, ...],
                   swapped: int | None = None) -> LayDownPlan:
    """Check a lay-down of `melds` by `seat` (T15, T17, H7, H8, T13a); `swapped` is the
    Rook a swap in the same move has just put in the hand, which must be among them."""
    rules = setup.rules
    check_may_lay_down(s, setup, seat)
    checked = tuple(_valid(m, rules) for m in melds)
    verdict = check_contract(checked, rules.contract(s.round_number), rules, s.round_number)
    if not verdict:
        raise ContractNotMetError(verdict.reason)
    pending = swapped if swapped is not None else s.swapped
    ids = s.pick(seat, [card for m in checked for card in m.cards], (pending, s.taken))
    if swapped is not None and swapped not in ids:
        raise RookSwapError(msg("the Rook you swapped out must be one of the cards you lay "
                                "down", "T18"))
    rest = _without(s.hands[seat], ids)
    if rest and not rules.may_go_out_by_discard(s.round_number):
        raise ContractNotMetError(msg(
            "in round 11 the whole hand goes down at once, and {left} would be left in your "
            "hand", "T17", left=format_cards(s.cards[i] for i in rest)))
    placed, k = [], 0
    for m in checked:
        placed.append((m, tuple(ids[k:k + len(m.cards)])))
        k += len(m.cards)
    why = None
    if len(rest) <= 2:  # only a nearly empty hand can be stranded (T13a, H12)
        table = [list(t) for t in s.melds()]
        table[seat].extend(checked)
        why = dead_end(s, setup, seat, rest, table, s.turn, s.swapped)
    if why is not None:
        raise DeadEndError(why)
    return LayDownPlan(tuple(placed), not rest)


def apply_lay_down(ch: Change, seat: int, plan: LayDownPlan, by_move: bool = True) -> None:
    s = ch.pos
    s.take_away(seat, *(i for _, ids in plan.placed for i in ids))
    s.add_melds(seat, plan.placed)
    s.set_down(seat, s.turn)
    melds = tuple(m for m, _ in plan.placed)
    ch.log(EventKind.LAY_DOWN, seat, tuple(c for m in melds for c in m.cards), by_move,
           melds=Joined(melds, " / "))
    if plan.goes_out:
        go_out(ch, seat)


# -- laying off ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class LayOffPlan:
    onto: tuple[int, int]
    card_id: int
    grown: Meld
    ids: tuple[int, ...]
    goes_out: bool


def meld_at(s: Position, ref: tuple[int, int]) -> Placed | None:
    owner, index = ref
    if 0 <= owner < len(s.table) and 0 <= index < len(s.table[owner]):
        return s.table[owner][index]
    return None


def check_lay_off(s: Position, setup: Setup, seat: int, card: Card, onto: tuple[int, int],
                  as_card: Card | None, rook_id: int | None = None) -> LayOffPlan:
    """Check laying `card` off onto the meld `onto` (H9, T6, T13a); `rook_id` is a Rook a
    swap in the same move has just put in the hand."""
    rules = setup.rules
    if rook_id is None:
        check_playing(s, setup, seat, "lay off")
    if s.down_turn[seat] is None:
        raise LayOffError(msg("you may lay off only once your contract is down", "H9"))
    if not rules.lay_off_same_turn and s.down_turn[seat] == s.turn:
        raise LayOffError(msg("in these house rules you may lay off only from the turn "
                              "after you lay down", "H9"))
    if onto[0] != seat and not rules.lay_off_on_others:
        raise LayOffError(msg("in these house rules you may lay off only onto your own "
                              "melds", "H9"))
    found = meld_at(s, onto)
    if found is None:
        raise LayOffError(msg("there is no meld {owner}.{index} on the table", None,
                              owner=onto[0], index=onto[1]))
    meld, ids = found
    grown = meld.lay_off(card, as_card, rules)
    prefer = (rook_id,) if rook_id is not None else (s.swapped, s.taken)
    (card_id,) = s.pick(seat, [card], prefer)
    below = grown.is_run and grown.low < meld.low
    new_ids = (card_id, *ids) if below else (*ids, card_id)
    rest = _without(s.hands[seat], [card_id])
    why = None
    if len(rest) <= 2:  # only a nearly empty hand can be stranded (T13a, H12)
        table = [list(t) for t in s.melds()]
        table[onto[0]][onto[1]] = grown
        why = dead_end(s, setup, seat, rest, table, s.down_turn[seat],
                       None if s.swapped == card_id else s.swapped)
    if why is not None:
        raise DeadEndError(why)
    return LayOffPlan(onto, card_id, grown, new_ids, not rest)


def apply_lay_off(ch: Change, seat: int, plan: LayOffPlan, by_move: bool = True) -> None:
    s = ch.pos
    s.take_away(seat, plan.card_id)
    s.set_meld(plan.onto, (plan.grown, plan.ids))
    card = s.cards[plan.card_id]
    played: object = card
    if card.is_rook and plan.grown.is_run:
        played = f"RK={plan.grown.stands_for(plan.ids.index(plan.card_id))}"
    ch.log(EventKind.LAY_OFF, seat, (card,), by_move, card=played, meld=plan.grown)
    if plan.goes_out:
        go_out(ch, seat)


# -- the Rook swap -------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SwapPlan:
    source: tuple[int, int]
    swapped: Meld
    ids: tuple[int, ...]
    natural_id: int
    rook_id: int
    then: LayDownPlan | LayOffPlan | None  # None: the Rook stays in hand for now (H12)


def check_swap(s: Position, setup: Setup, a: A.SwapRook) -> SwapPlan:
    """Check a Rook swap (T18, T19, H10, H12) and where the freed Rook goes."""
    rules, seat = setup.rules, a.seat
    if not rules.rook_swap:
        raise RookSwapError(msg("these house rules do not allow the Rook swap", "H10"))
    check_playing(s, setup, seat, "swap a Rook")
    if rules.swap_only_when_down and s.down_turn[seat] is None:
        raise RookSwapError(msg("in these house rules only a player who is down may swap a "
                                "Rook", "H10"))
    later = rules.swapped_rook is SwappedRook.THIS_TURN
    if a.lay_off_onto is not None and a.lay_down is not None:
        raise RookSwapError(msg("play the Rook you swap out once: lay it off onto a meld, or "
                                "lay down your contract with it, not both", "T18"))
    if a.lay_off_onto is None and a.lay_down is None and not later:
        raise RookSwapError(msg("the Rook must be played at once: lay it off onto a meld, "
                                "or lay down your contract with it", "T18"))
    if s.swapped is not None and s.swapped in s.hands[seat]:
        raise RookSwapError(msg("play the Rook you already swapped out before you swap "
                                "another", "H12"))
    found = meld_at(s, a.source)
    if found is None:
        raise RookSwapError(msg("there is no meld {owner}.{index} on the table", None,
                                owner=a.source[0], index=a.source[1]))
    meld, ids = found
    swapped = meld.swap_rook(a.natural)
    position = next(i for i, (old, new) in enumerate(zip(meld.cards, swapped.cards,
                                                         strict=True)) if old != new)
    rook_id = ids[position]
    (natural_id,) = s.pick(seat, [a.natural], (s.taken,))
    new_ids = list(ids)
    new_ids[position] = natural_id
    after = s.copy()  # the position once the swap itself is made, to check what follows
    after.set_meld(a.source, (swapped, tuple(new_ids)))
    after.take_away(seat, natural_id)
    after.give(seat, rook_id)
    then: LayDownPlan | LayOffPlan | None
    if a.lay_down is not None:
        then = check_lay_down(after, setup, seat, a.lay_down, swapped=rook_id)
    elif a.lay_off_onto is not None:
        if s.down_turn[seat] is None:
            raise RookSwapError(msg("you are not down, so the Rook you swap out must go into "
                                    "your contract lay-down in the same move", "T18"))
        then = check_lay_off(after, setup, seat, ROOK, a.lay_off_onto, a.rook_as, rook_id)
    else:
        then = None
        why = dead_end(after, setup, seat, after.hands[seat], after.melds(),
                       s.down_turn[seat], rook_id)
        if why is not None:
            raise DeadEndError(why)
    return SwapPlan(a.source, swapped, tuple(new_ids), natural_id, rook_id, then)


def apply_swap(ch: Change, a: A.SwapRook, plan: SwapPlan) -> None:
    s, seat = ch.pos, a.seat
    s.set_meld(plan.source, (plan.swapped, plan.ids))
    s.take_away(seat, plan.natural_id)
    s.give(seat, plan.rook_id)
    ch.log(EventKind.SWAP, seat, (a.natural,), True, meld=plan.swapped)
    if isinstance(plan.then, LayDownPlan):
        apply_lay_down(ch, seat, plan.then, by_move=False)
    elif isinstance(plan.then, LayOffPlan):
        apply_lay_off(ch, seat, plan.then, by_move=False)
    else:
        s.swapped = plan.rook_id
