"""The moves open to the deciding players.

Owns `legal_actions(game, seat)`: drawing and taking, buying and passing, every discard
and lay-off that fits, and — for lay-downs and Rook swaps, where the possibilities are
too many to list — the solver's suggestions. Every listed move is confirmed with
`game.is_legal`, so the list never offers something the game would refuse.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from . import actions as A
from .cards import ROOK, Card
from .errors import ToonervilleError
from .melds import Meld
from .rules import ROUNDS
from .views import Phase, PlayerView

if TYPE_CHECKING:
    from .game import Game


def legal_actions(game: Game, seat: int | None = None) -> list[A.Action]:
    deciders = game.deciders
    if seat is not None and seat not in deciders:
        return []
    if game.phase is Phase.BUY:
        seats = deciders if seat is None else (seat,)
        return [a for s in seats for a in (A.Buy(s), A.Pass(s))]
    if game.phase is Phase.GAME_OVER:
        return []
    view = game.view(game.current)
    if game.phase is Phase.DRAW:
        options: list[A.Action] = [A.Draw(view.seat)]
        if view.discard_top is not None:
            options.insert(0, A.TakeDiscard(view.seat))
        return options
    candidates: list[A.Action] = [
        *(A.LayDown(view.seat, melds) for melds in lay_down_suggestions(game, view)),
        *lay_off_options(view), *swap_options(game, view)]
    discards = [A.Discard(view.seat, c) for c in _distinct(view.hand)
                if game.discard_refusal(view.seat, c) is None]
    return [a for a in candidates if game.is_legal(a)] + discards


def _distinct(cards: tuple[Card, ...]) -> list[Card]:
    return sorted(set(cards), key=lambda c: c.sort_key)


#: hands larger than this (many buys) get only the quick minimal suggestion: the search for
#: the best lay-down grows fast with the hand
BEST_LAY_DOWN_CARDS = 17


def lay_down_suggestions(game: Game, view: PlayerView, hand: tuple[Card, ...] | None = None,
                         best: bool = True) -> list[tuple[Meld, ...]]:
    """Lay-downs the solver finds for a hand (by default the seat's own): the one leaving
    fewest points (`best`, for hands of ordinary size) and the smallest one."""
    from .solver import best_lay_down, find_contract, whole_hand

    if view.down[view.seat]:
        return []
    hand = view.hand if hand is None else hand
    r = view.round_number
    minimal = find_contract(hand, r, game.rules)
    if minimal is None:
        return []
    if r == ROUNDS:
        whole = whole_hand(hand, r, game.rules)
        return [whole] if whole else []
    found = [minimal]
    if best and len(hand) <= BEST_LAY_DOWN_CARDS:
        fewest = best_lay_down(hand, r, game.rules)
        if fewest is not None and fewest.melds != minimal:
            found.insert(0, fewest.melds)
    return found


def lay_off_options(view: PlayerView) -> list[A.LayOff]:
    """Every card of the hand that fits a meld on the table (the game still checks H9)."""
    if not view.down[view.seat]:
        return []
    out = []
    for card in _distinct(view.hand):
        for owner, melds in enumerate(view.table):
            for index, meld in enumerate(melds):
                for as_card in _rook_places(meld) if card.is_rook else [None]:
                    try:
                        meld.lay_off(card, as_card)
                    except ToonervilleError:
                        continue
                    out.append(A.LayOff(view.seat, card, (owner, index), as_card))
    return out


def _rook_places(meld: Meld) -> list[Card | None]:
    if not meld.is_run:
        return [None]
    assert meld.colour is not None
    return [Card(meld.colour, n) for n in (meld.low - 1, meld.high + 1) if 1 <= n <= 14]


def rooks_in_reach(view: PlayerView) -> Iterator[tuple[tuple[int, int], Meld, Card]]:
    """Every Rook in a run on the table whose natural card the hand holds (T18): the
    meld's place, the meld, and that natural card."""
    held = Counter(view.hand)
    for owner, melds in enumerate(view.table):
        for index, meld in enumerate(melds):
            for natural in meld.rook_positions():
                if held[natural]:
                    yield (owner, index), meld, natural


def swap_options(game: Game, view: PlayerView) -> list[A.SwapRook]:
    """Rook swaps the hand allows, each with one place for the freed Rook."""
    out: list[A.SwapRook] = []
    for source, _meld, natural in rooks_in_reach(view):
        if view.down[view.seat]:
            out.extend(_swap_then_lay_off(view, natural, source))
        else:
            hand = list(view.hand)
            hand.remove(natural)
            for melds_down in lay_down_suggestions(game, view, (*hand, ROOK),
                                                   best=False):
                if any(m.rooks for m in melds_down):
                    out.append(A.SwapRook(view.seat, natural, source,
                                          lay_down=melds_down))
                    break
    return out


def _swap_then_lay_off(view: PlayerView, natural: Card,
                       source: tuple[int, int]) -> list[A.SwapRook]:
    out = []
    for owner, melds in enumerate(view.table):
        for index, meld in enumerate(melds):
            target = meld.swap_rook(natural) if (owner, index) == source else meld
            for as_card in _rook_places(target):
                try:
                    target.lay_off(ROOK, as_card)
                except ToonervilleError:
                    continue
                out.append(A.SwapRook(view.seat, natural, source, (owner, index), as_card))
    return out
