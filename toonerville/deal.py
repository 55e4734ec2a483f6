"""One deal, as a value: who gets which cards, the stock and the first discard.

Owns T2 (one shoe of a deck per player), T7 (the deal size of each round), T8 (the rest
is the stock and its top card is turned up) and H3 (a Rook turned up is buried in the
stock). `deal` is a pure function of the shoe's order, so the game, the lessons' step by
step dealing and the explorer all deal the same way. Cards are physical ids, indices into
the shoe.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card
from .rules import RookTurnUp, Rules


@dataclass(frozen=True, slots=True)
class Deal:
    """A round's deal: `hands[seat]` in the order dealt, `stock` with its top card last,
    the turned-up card that starts the discard pile, and the Rooks buried (H3) on the
    way, in the order they were turned up."""

    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    turned_up: int
    buried: tuple[int, ...]


def seat_of(k: int, dealer: int, players: int) -> int:
    """The seat that receives the `k`-th card dealt (0-based): one card at a time,
    starting at the dealer's left (T7)."""
    return (dealer + 1 + k) % players


def deal(order: Sequence[int], cards: Sequence[Card], players: int, round_number: int,
         dealer: int, rules: Rules) -> Deal:
    """Deal `order` (the shoe's physical ids, top first) for a round (T7, T8, H3)."""
    size = rules.deal_size(round_number)
    hands: list[list[int]] = [[] for _ in range(players)]
    for k in range(players * size):
        hands[seat_of(k, dealer, players)].append(order[k])
    stock = list(order[players * size:][::-1])
    top = stock.pop()
    buried: list[int] = []
    while (cards[top].is_rook and rules.rook_turn_up is RookTurnUp.BURY
           and len(buried) < len(stock)):
        stock.insert(0, top)
        buried.append(top)
        top = stock.pop()
    return Deal(tuple(tuple(h) for h in hands), tuple(stock), top, tuple(buried))
