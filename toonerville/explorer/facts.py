"""What one explorer game leaves behind: `GameFacts` and its `RoundFacts`.

Owns the compact, picklable facts a worker sends back for one game (`facts_of` turns a
`simulate.GameRecord` into them), the questions asked of a round (positions, buys, what
followed a buy) and `hand_meets` (does a dealt hand already hold the contract?).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from ..engine.cards import Card, format_cards
from ..engine.rules import Rules
from ..engine.scoring import winners
from ..players.simulate import GameRecord


@dataclass(frozen=True, slots=True)
class RoundFacts:
    """A finished round (see `views.RoundRecord`), plus whether each dealt hand already
    held the contract's melds, and the dealt hands in notation."""

    round_number: int
    dealer: int
    went_out: int | None
    ended_by: str
    turns: int
    restocks: int
    points: tuple[int, ...]
    down_turn: tuple[int | None, ...]
    buy_turns: tuple[tuple[int, ...], ...]
    dealt_meets: tuple[bool, ...]
    dealt: tuple[str, ...] = ()

    @property
    def players(self) -> int:
        return len(self.points)

    def position(self, seat: int) -> int:
        """1 for the player who plays first (the dealer's left) … players for the dealer."""
        return (seat - self.dealer - 1) % self.players + 1

    def seat_at(self, position: int) -> int:
        return (self.dealer + position) % self.players

    def seat_of_turn(self, turn: int) -> int:
        """Turn 1 is the first player's, then turns pass to the left."""
        return (self.dealer + turn) % self.players

    @property
    def first_down(self) -> int | None:
        """The turn of the round's first lay-down (all players' turns counted)."""
        turns = [t for t in self.down_turn if t is not None]
        return min(turns) if turns else None

    def buys(self) -> Iterable[tuple[int, int]]:
        """Every buy as (seat, turn)."""
        for seat, turns in enumerate(self.buy_turns):
            for t in turns:
                yield seat, t

    def next_own_turn(self, seat: int, turn: int) -> int:
        """The first turn after `turn` that is `seat`'s."""
        return turn + (seat - self.seat_of_turn(turn) - 1) % self.players + 1

    def buy_outcome(self, seat: int, turn: int) -> str:
        """What followed a buy: "already_down", "next_turn" (the buyer laid down at their
        very next turn), "later" (later in the round) or "never"."""
        down = self.down_turn[seat]
        if down is not None and down < turn:
            return "already_down"
        if down is None:
            return "never"
        return "next_turn" if down == self.next_own_turn(seat, turn) else "later"


@dataclass(frozen=True, slots=True)
class GameFacts:
    """One bot game of a simulation: its index and seed, the bots by seat, every round."""

    index: int
    seed: int
    bots: tuple[str, ...]
    first_dealer: int
    rounds: tuple[RoundFacts, ...]

    @property
    def players(self) -> int:
        return len(self.bots)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(r.points[i] for r in self.rounds) for i in range(self.players))

    @property
    def winners(self) -> tuple[int, ...]:
        return winners(self.totals)

    @property
    def turns(self) -> int:
        """Every player's turns in the whole game."""
        return sum(r.turns for r in self.rounds)

    def game_position(self, seat: int) -> int:
        """1 for the player who plays first in round 1 … players for the first dealer."""
        return (seat - self.first_dealer - 1) % self.players + 1

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "seed": self.seed, "bots": list(self.bots),
                "first_dealer": self.first_dealer, "totals": list(self.totals),
                "rounds": [{f.name: _jsonable(getattr(r, f.name)) for f in fields(r)}
                           for r in self.rounds]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameFacts:
        """Read back `to_dict()` (e.g. from a simulation saved with `run_json`)."""
        rounds = tuple(RoundFacts(
            r["round_number"], r["dealer"], r["went_out"], r["ended_by"], r["turns"],
            r["restocks"], tuple(r["points"]), tuple(r["down_turn"]),
            tuple(tuple(b) for b in r["buy_turns"]), tuple(r["dealt_meets"]),
            tuple(r["dealt"])) for r in data["rounds"])
        return cls(data["index"], data["seed"], tuple(data["bots"]), data["first_dealer"],
                   rounds)


def _jsonable(value: Any) -> Any:
    return [_jsonable(v) for v in value] if isinstance(value, tuple) else value


def hand_meets(hand: Sequence[Card], round_number: int, rules: Rules) -> bool:
    """Does this hand already hold the melds of the round's contract (the solver)?"""
    from ..engine.solver import find_contract

    return find_contract(tuple(hand), round_number, rules) is not None


def _turns_played(turns: int, ended_by: str) -> int:
    """The engine's turn counter has already moved past the limit when a round ends by
    the turn limit; the turns played are one fewer."""
    return turns - 1 if ended_by == "turn_limit" else turns


def facts_of(record: GameRecord, rules: Rules) -> GameFacts:
    """The compact facts of a finished game (what the workers send back)."""
    rounds = tuple(RoundFacts(
        round_number=r.round_number, dealer=r.dealer, went_out=r.went_out,
        ended_by=r.ended_by, turns=_turns_played(r.turns, r.ended_by), restocks=r.restocks,
        points=tuple(r.points),
        down_turn=tuple(r.down_turn), buy_turns=tuple(tuple(b) for b in r.buy_turns),
        dealt_meets=tuple(hand_meets(h, r.round_number, rules) for h in r.dealt),
        dealt=tuple(format_cards(h) for h in r.dealt)) for r in record.rounds)
    return GameFacts(record.index, record.seed, record.bots, record.first_dealer, rounds)
