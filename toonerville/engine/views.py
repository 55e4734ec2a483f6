"""What the game hands out: frozen pictures of it, never its live state.

Owns `PlayerView` (what one seat may see: its own hand, the table, the piles, the
others' hand sizes) and `RoundRecord` (the facts of a finished round, for the score
sheet, the simulator and the explorer). `Phase` and `Event` live in `events`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from .cards import Card
from .events import Phase
from .melds import Meld
from .rules import Contract


class PlayerView(NamedTuple):
    """Everything one seat may see. Other players' hands appear only as their sizes.

    A named tuple rather than a frozen dataclass: a game hands out one view per decision,
    and a tuple is built several times faster, immutable all the same."""

    seat: int
    names: tuple[str, ...]
    round_number: int
    contract: Contract
    phase: Phase
    current: int
    dealer: int
    deciders: tuple[int, ...]
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    table: tuple[tuple[Meld, ...], ...]
    down: tuple[bool, ...]
    discard_top: Card | None
    discard_size: int
    stock_size: int
    offered: Card | None  # the discard in the buy window
    taken_this_turn: Card | None  # T14: the card taken from the discard pile this turn
    buys_this_round: tuple[int, ...]
    may_lay_off: bool  # down, and (H9) not barred from laying off this turn
    scores: tuple[tuple[int, ...], ...]

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(col) for col in zip(*self.scores, strict=True)) if self.scores \
            else tuple(0 for _ in self.names)


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """The facts of one finished round."""

    round_number: int
    dealer: int
    went_out: int | None
    ended_by: str  # "out", "stock" (H6) or "turn_limit"
    turns: int
    dealt: tuple[tuple[Card, ...], ...]
    down_turn: tuple[int | None, ...]  # the turn each seat laid down, None if never
    buy_turns: tuple[tuple[int, ...], ...]  # the turns on which each seat bought
    points: tuple[int, ...]
    restocks: int

    def __reduce__(self) -> tuple[type[RoundRecord], tuple[Any, ...]]:
        """Pickled as its fields, made again through `__init__` (as a compiled class is):
        the explorer's worker processes send records back."""
        return RoundRecord, (self.round_number, self.dealer, self.went_out, self.ended_by,
                             self.turns, self.dealt, self.down_turn, self.buy_turns,
                             self.points, self.restocks)

    @property
    def buys(self) -> tuple[int, ...]:
        return tuple(len(t) for t in self.buy_turns)
