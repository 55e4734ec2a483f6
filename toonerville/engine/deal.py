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


@dataclass(frozen=True, slots=True)
class DealPlan:
    """A seeded deal exactly as `Game.new` deals round 1, as card values for a lesson to
    show step by step: the first dealer drawn with the seed (H2), the shoe shuffled with
    it, cards dealt one at a time from the dealer's left (T7), then the turn-up with any
    Rooks buried on the way (T8, H3). Made by `deal` itself, so there is one dealer."""

    players: int
    seed: int
    round_number: int
    dealer: int
    shoe: tuple[Card, ...]  # in the order dealt, top first
    deal_size: int
    turn_up: Card
    buried: tuple[Card, ...]
    stock_size: int  # after the turn-up

    @classmethod
    def make(cls, players: int, seed: int, round_number: int = 1,
             rules: Rules | None = None) -> DealPlan:
        import random

        from .cards import shoe as make_shoe

        rules = rules or Rules()
        size = rules.deal_size(round_number)  # refuses a round that does not exist
        universe = make_shoe(players)  # refuses a number of players the game is not for
        rng = random.Random(seed)
        first = rules.first_dealer
        dealer = rng.randrange(players) if first is None else first
        order = list(range(len(universe)))
        rng.shuffle(order)
        d = deal(order, universe, players, round_number, dealer, rules)
        return cls(players, seed, round_number, dealer, tuple(universe[i] for i in order),
                   size, universe[d.turned_up], tuple(universe[i] for i in d.buried),
                   len(d.stock))

    @property
    def total(self) -> int:
        return self.players * self.deal_size

    def seat_of(self, k: int) -> int:
        """Who gets the k-th card dealt (0-based): one at a time from the dealer's left."""
        return seat_of(k, self.dealer, self.players)

    def hands(self, dealt: int | None = None) -> tuple[tuple[Card, ...], ...]:
        """Every seat's cards after `dealt` cards (all of them by default)."""
        dealt = self.total if dealt is None else dealt
        out: list[list[Card]] = [[] for _seat in range(self.players)]
        for k in range(dealt):
            out[self.seat_of(k)].append(self.shoe[k])
        return tuple(tuple(h) for h in out)
