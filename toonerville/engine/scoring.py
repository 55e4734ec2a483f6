"""Scores: a round's points, the running totals, places with ties, and tournaments.

Owns T20 (the player who went out scores 0, everyone else the points of the cards left
in hand), T21 (lowest total wins; equal totals share a place) and T22 (a tournament's
master score sheet over several tables, with players changing tables between rounds).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .cards import Card, hand_points
from .errors import RulesError
from .messages import msg


def round_scores(hands: Sequence[Iterable[Card]], went_out: int | None) -> tuple[int, ...]:
    """Each seat's score for a round (T20): 0 for the one who went out (None: nobody)."""
    return tuple(0 if seat == went_out else hand_points(hand)
                 for seat, hand in enumerate(hands))


def totals(rows: Iterable[Sequence[int]]) -> tuple[int, ...]:
    """Column sums of a score sheet's rows."""
    out: list[int] = []
    for row in rows:
        if not out:
            out = [0] * len(row)
        out = [a + b for a, b in zip(out, row, strict=True)]
    return tuple(out)


def places(scores: Sequence[int]) -> tuple[int, ...]:
    """Place of each score, lowest first; equal totals share a place (T21): 1, 1, 3."""
    return tuple(1 + sum(1 for other in scores if other < s) for s in scores)


def place_label(place: int, shared: bool) -> str:
    return f"{place}=" if shared else str(place)


def place_labels(scores: Sequence[int]) -> tuple[str, ...]:
    """Each score's place as a score sheet writes it, ties marked (T21): "1=", "1=", "3"."""
    ranks = places(scores)
    return tuple(place_label(r, ranks.count(r) > 1) for r in ranks)


def winners(scores: Sequence[int]) -> tuple[int, ...]:
    """The seats with the lowest total (T21): several on a tie."""
    return tuple(seat for seat, place in enumerate(places(scores)) if place == 1)


@dataclass(frozen=True, slots=True)
class Standing:
    name: str
    total: int
    place: int
    shared: bool

    def __str__(self) -> str:
        return f"{place_label(self.place, self.shared)} {self.name} {self.total}"


def standings(total_by_name: Mapping[str, int]) -> tuple[Standing, ...]:
    """Everyone ranked by total, lowest first, ties sharing a place (T21, T22)."""
    names = list(total_by_name)
    ranks = places([total_by_name[n] for n in names])
    order = sorted(range(len(names)), key=lambda i: (ranks[i], names[i]))
    return tuple(Standing(names[i], total_by_name[names[i]], ranks[i],
                          sum(1 for r in ranks if r == ranks[i]) > 1) for i in order)


@dataclass
class MasterSheet:
    """T22: one score sheet for a whole tournament; record each table's round result."""

    names: tuple[str, ...]
    rows: dict[str, list[int]] = field(default_factory=dict)
    #: each player's table number per recorded round (None when not given)
    tables: dict[str, list[int | None]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(set(self.names)) != len(self.names):
            raise RulesError(msg("every player in a tournament needs a different name", "T22"))
        self.rows = {n: [] for n in self.names}
        self.tables = {n: [] for n in self.names}

    def record(self, round_number: int, scores: Mapping[str, int],
               table: int | None = None) -> None:
        """Add one table's scores for a round (and which table it was)."""
        for name in scores:
            if name not in self.rows:
                raise RulesError(msg("{name} is not in this tournament", "T22", name=name))
            if len(self.rows[name]) != round_number - 1:
                raise RulesError(msg("{name} already has a score for round {r}, or misses an "
                                     "earlier one", "T22", name=name, r=round_number))
        for name, score in scores.items():
            self.rows[name].append(score)
            self.tables[name].append(table)

    def standings(self) -> tuple[Standing, ...]:
        return standings({n: sum(r) for n, r in self.rows.items()})
