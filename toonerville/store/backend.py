"""What a database must do to hold shared tables: the `Backend` protocol.

Owns the storage contract shared by the SQLite and PostgreSQL backends and the rows
they exchange. A backend knows nothing of the game: it stores a table's header (its
starting save and set-up), the table's moves numbered 1, 2, … with a unique
(table, number) key, seat claims as digests, and tournament states with a version. The
one operation that needs care is `append`: compare-and-append in ONE transaction, so of
two clients sending move n + 1 at once exactly one is stored.

Schema (the same on both): `tables(code PK, format, start, setup)`,
`moves(code, number, move, PK (code, number))`, `claims(scope, slot, secret, PK (scope,
slot))`, `tournaments(code PK, format, teacher, state, version)`, `seat_names(code, seat,
name, PK (code, seat))` (the names learners gave themselves); the statements are in
`statements`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

#: The format written in every table header; a header of another format is refused.
TABLE_FORMAT = "toonerville-table/1"
TOURNAMENT_FORMAT = "toonerville-tournament/1"


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table's header: its game before any move (a save, JSON) and its set-up (JSON:
    bot seats, the last round played, the tournament it belongs to)."""

    code: str
    format: str
    start: str
    setup: str


@dataclass(frozen=True, slots=True)
class TournamentRow:
    code: str
    format: str
    teacher: str  # digest of the teacher's key
    state: str  # JSON of `tournament.Tournament`
    version: int


class Backend(Protocol):
    """One database holding many tables; safe to use from several threads."""

    def create_table(self, row: TableRow) -> bool:
        """Insert a header; False (and nothing stored) if the code is taken."""
        ...

    def table(self, code: str) -> TableRow | None: ...

    def moves_since(self, code: str, number: int) -> list[tuple[int, str]]:
        """The moves numbered above `number`, in order, as (number, notation)."""
        ...

    def append(self, code: str, number: int, move: str) -> bool:
        """Store `move` as move `number` iff the table has exactly `number - 1` moves,
        in one transaction; False when the table has moved on (nothing stored)."""
        ...

    def claim(self, scope: str, slot: str, secret_digest: str) -> bool:
        """Record a claim (a seat of a table, a name in a tournament); False if taken."""
        ...

    def claims(self, scope: str) -> dict[str, str]:
        """Every claim in `scope`: slot → digest."""
        ...

    def create_tournament(self, row: TournamentRow) -> bool: ...

    def tournament(self, code: str) -> TournamentRow | None: ...

    def update_tournament(self, code: str, state: str, version: int) -> bool:
        """Replace the state iff it is still at `version` (then it is `version + 1`)."""
        ...

    def name_seat(self, code: str, seat: int, name: str) -> None:
        """Record (or replace) the name a learner gave their seat."""
        ...

    def seat_names(self, code: str) -> dict[int, str]:
        """The names learners gave their seats at this table: seat → name."""
        ...

    def close(self) -> None: ...
