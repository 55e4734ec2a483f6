"""What a database must do to hold shared tables: the `Backend` protocol.

Owns the storage contract shared by the SQLite and PostgreSQL backends and the rows
they exchange. A backend knows nothing of the game: it stores a table's header (its
starting save and set-up), the table's moves numbered 1, 2, … with a unique
(table, number) key, seat claims as digests, and tournament states with a version. The
one operation that needs care is `append`: compare-and-append in ONE transaction, so of
two clients sending move n + 1 at once exactly one is stored, and only onto the history
it was computed from (issue 27).

A table's history is checked by its digest, not by its length: each move row carries
`chained(digest of the moves before it, the move's text)` (BLAKE2b, 16 bytes, as hex),
starting from `first_digest(code, header start)`; `append` stores move n only if row
n - 1 holds the digest the client computed on. A count alone would let a client whose
copy is ahead (moves deleted, a backup restored, commits lost) store its move on a
different history. Rows written before digests existed (`digest` NULL) are given theirs
by the first store that reads them (`fill_digests`).

Schema (the same on both): `tables(code PK, format, start, setup)`,
`moves(code, number, move, digest, PK (code, number))`, `claims(scope, slot, secret, PK
(scope, slot))`, `tournaments(code PK, format, teacher, state, version)`,
`seat_names(code, seat, name, PK (code, seat))` (the names learners gave themselves),
`classes(code PK, format, name, teacher, settings, version)`, `class_members(code, slot,
name, secret, joined, PK (code, slot))` and `class_handouts(code, slot, item, kind,
secret, PK (code, slot, item))` (a class, its learners, what they were handed),
`progress(class_code, learner, page, kind, detail, at)` (what the learners of a class did,
rows only added, indexed by class for the teacher's dashboard),
`seat_practice(owner PK, list, saved)` (a shared table's learner's practice list,
`seat_practice`); the
statements are in `statements`, and a database made before `digest` existed gets the
column when a store opens it. A backend says which of its driver's errors may pass if
tried again (`transient`); `retrying.RetryingBackend` tries those again and turns every
driver error into the store's own. Every row a backend reads back passes `checked_row`
(each column of its kind, JSON columns not nested deeper than `MAX_JSON_DEPTH`), so a row
another program wrote is refused with `CorruptTableError`, never met by the engine as a
wrong type.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ..engine.actions import excerpt
from ..engine.messages import msg
from ..engine.saves import json_depth
from .errors import CorruptTableError

#: The format written in every table header; a header of another format is refused.
TABLE_FORMAT = "toonerville-table/1"
TOURNAMENT_FORMAT = "toonerville-tournament/1"
CLASS_FORMAT = "toonerville-class/1"


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


@dataclass(frozen=True, slots=True)
class ClassRow:
    """A class: its name, the digest of its teacher's key, its settings (JSON)."""

    code: str
    format: str
    name: str
    teacher: str
    settings: str
    version: int


@dataclass(frozen=True, slots=True)
class MemberRow:
    """A learner of a class: `slot` is their name as compared (`names.name_key`),
    `secret` the digest of their key, `joined` when (whole seconds since 1970, UTC)."""

    code: str
    slot: str
    name: str
    secret: str
    joined: int


@dataclass(frozen=True, slots=True)
class HandoutRow:
    """Something a class's teacher handed to a learner (`slot`; "" for everyone):
    `item` a table's or tournament's code, `kind` what it is, `secret` the learner's key
    there ("" when none is needed), given only to a page holding the learner's class
    key (`classes.ClassStore.handouts`)."""

    code: str
    slot: str
    item: str
    kind: str
    secret: str


@dataclass(frozen=True, slots=True)
class ProgressRow:
    """One thing a learner of a class did (`progress`): never changed once added. `at`
    is wall-clock seconds."""

    class_code: str
    learner: str
    page: str
    kind: str
    detail: str
    at: float


class Backend(Protocol):
    """One database holding many tables; safe to use from several threads."""

    def create_table(self, row: TableRow) -> bool:
        """Insert a header; False (and nothing stored) if the code is taken."""
        ...

    def table(self, code: str) -> TableRow | None: ...

    def moves_since(self, code: str, number: int) -> list[tuple[int, str]]:
        """The moves numbered above `number`, in order, as (number, notation)."""
        ...

    def history_from(self, code: str, number: int) -> list[tuple[int, str, str | None]]:
        """The moves numbered `number` and above, in order, as (number, notation, digest
        or None for a row written before digests)."""
        ...

    def append(self, code: str, number: int, move: str, previous: str) -> bool:
        """Store `move` as move `number`, with digest `chained(previous, move)`, iff the
        table has exactly `number - 1` moves and the last of them holds the digest
        `previous` (for move 1: no move yet), in one transaction; False when the table
        has moved on or holds another history (nothing stored)."""
        ...

    def fill_digests(self, code: str, digests: Sequence[tuple[int, str]]) -> None:
        """Give rows written before digests existed theirs: (number, digest) pairs; a
        row that already has a digest keeps it."""
        ...

    def claim(self, scope: str, slot: str, secret_digest: str) -> bool:
        """Record a claim (a seat of a table, a name in a tournament); False if taken."""
        ...

    def claims(self, scope: str) -> dict[str, str]:
        """Every claim in `scope`: slot → digest."""
        ...

    def reclaim(self, scope: str, slot: str, old_digest: str | None, new_digest: str
                ) -> bool:
        """Hand the claim of `slot` on to `new_digest`, only if it is still `old_digest`
        (None: there was no claim yet); False (nothing changed) if it was not."""
        ...

    def create_tournament(self, row: TournamentRow,
                          claims: Sequence[tuple[str, str, str]] = ()) -> bool:
        """Insert a tournament and the claims (scope, slot, digest) that go with it (the
        learners' keys), all in one transaction; False (and nothing stored) if the code
        or any claim is taken."""
        ...

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

    def create_class(self, row: ClassRow) -> bool:
        """Insert a class; False (and nothing stored) if the code is taken."""
        ...

    def class_row(self, code: str) -> ClassRow | None: ...

    def update_class(self, code: str, settings: str, version: int) -> bool:
        """Replace a class's settings iff it is still at `version`."""
        ...

    def add_member(self, row: MemberRow) -> bool:
        """Insert a learner of a class; False (nothing stored) if the slot is taken."""
        ...

    def members(self, code: str) -> list[MemberRow]:
        """The learners of a class, first joined first."""
        ...

    def hand_out(self, rows: Sequence[HandoutRow]) -> None:
        """Record (or replace) handouts, all in one transaction."""
        ...

    def handouts(self, code: str) -> list[HandoutRow]: ...

    def add_progress(self, row: ProgressRow) -> None:
        """Add a row of a learner's progress (rows are never changed)."""
        ...

    def progress(self, class_code: str) -> list[tuple[object, ...]]:
        """A class's progress folded in one query: (learner, kind, page, detail, how many
        rows, the latest `at`) for each learner, kind, page and detail (not checked:
        `progress.folded` skips a row of another program)."""
        ...

    def keep_practice(self, owner: str, packed: str, saved: int, expire_before: int
                      ) -> None:
        """Keep the practice list `packed` under `owner` (replacing the one before), and
        delete the lists last kept before `expire_before` (whole seconds since 1970)."""
        ...

    def practice_list(self, owner: str) -> tuple[str, int] | None:
        """The practice list kept under `owner` and when (checked: a text and a whole
        number), or None."""
        ...

    def transient(self, err: BaseException) -> bool | None:
        """None if `err` is not this database's error; True if trying again may succeed
        (the server restarting, a connection dropped, the file locked); False if not."""
        ...

    def close(self) -> None: ...


# -- the history of a table ---------------------------------------------------------------
def first_digest(code: str, start: str) -> str:
    """The digest of a table's history before any move: its code and starting save."""
    return hashlib.blake2b(f"{code}\n{start}".encode(), digest_size=16,
                           person=b"toonerville-head").hexdigest()


def chained(previous: str, move: str) -> str:
    """The digest of a history after `move`, from the digest of the history before it."""
    return hashlib.blake2b(f"{previous}\n{move}".encode(), digest_size=16,
                           person=b"toonerville-move").hexdigest()


# -- rows written behind the store's back ---------------------------------------------------
#: the deepest nesting of lists and objects in a JSON column (a tournament's state nests
#: 4 deep, a table's set-up 2): deeper is refused before any parser reads it
MAX_JSON_DEPTH = 32
TEXT, NUMBER, JSON = "text", "number", "json"


def checked_row(row: Sequence[object], columns: Sequence[tuple[str, str]], code: str,
                tournament: bool = False) -> tuple[object, ...]:
    """`row` as read from the database, each column of the kind `columns` says (TEXT,
    NUMBER: a whole number, JSON: a text nesting at most `MAX_JSON_DEPTH` deep), or
    `CorruptTableError` saying which column holds what. SQLite keeps any value in any
    column, and any program may write rows: the store refuses such a row with its own
    sentence, before the engine would meet a wrong type or a parser run out of stack."""
    for (column, kind), value in zip(columns, row, strict=True):
        why = None
        if kind == NUMBER:
            if type(value) is not int:
                why = msg("its column '{column}' holds {value}, where a whole number belongs",
                          None, column=column, value=excerpt(value))
        elif not isinstance(value, str):
            why = msg("its column '{column}' holds {value}, where a text belongs", None,
                      column=column, value=excerpt(value))
        elif kind == JSON and json_depth(value) > MAX_JSON_DEPTH:
            why = msg("its column '{column}' nests lists and objects more than {limit} deep",
                      None, column=column, limit=MAX_JSON_DEPTH)
        if why is not None:
            if tournament:
                raise CorruptTableError(msg("tournament {code} cannot be read ({why}); it is "
                                            "left as it is", "T22", code=code, why=why),
                                        code, None, None)
            raise CorruptTableError(msg("table {code} cannot be read ({why}); it is left as "
                                        "it is", None, code=code, why=why), code, None, None)
    return tuple(row)


TABLE_COLUMNS = (("code", TEXT), ("format", TEXT), ("start", JSON), ("setup", JSON))
TOURNAMENT_COLUMNS = (("code", TEXT), ("format", TEXT), ("teacher", TEXT), ("state", JSON),
                      ("version", NUMBER))
CLAIM_COLUMNS = (("slot", TEXT), ("secret", TEXT))
SEAT_NAME_COLUMNS = (("seat", NUMBER), ("name", TEXT))


CLASS_COLUMNS = (("code", TEXT), ("format", TEXT), ("name", TEXT), ("teacher", TEXT),
                 ("settings", JSON), ("version", NUMBER))
MEMBER_COLUMNS = (("code", TEXT), ("slot", TEXT), ("name", TEXT), ("secret", TEXT),
                  ("joined", NUMBER))
HANDOUT_COLUMNS = (("code", TEXT), ("slot", TEXT), ("item", TEXT), ("kind", TEXT),
                   ("secret", TEXT))


def class_row(found: Sequence[object], code: str) -> ClassRow:
    """A `classes` row, checked (`checked_row`)."""
    return ClassRow(*checked_row(found, CLASS_COLUMNS, code))  # type: ignore[arg-type]


def member_rows(rows: Sequence[Sequence[object]], code: str) -> list[MemberRow]:
    """`class_members` rows, each checked (`checked_row`)."""
    return [MemberRow(*checked_row(row, MEMBER_COLUMNS, code))  # type: ignore[arg-type]
            for row in rows]


def handout_rows(rows: Sequence[Sequence[object]], code: str) -> list[HandoutRow]:
    """`class_handouts` rows, each checked (`checked_row`)."""
    return [HandoutRow(*checked_row(row, HANDOUT_COLUMNS, code))  # type: ignore[arg-type]
            for row in rows]


def table_row(found: Sequence[object], code: str) -> TableRow:
    """A `tables` row, checked (`checked_row`)."""
    return TableRow(*checked_row(found, TABLE_COLUMNS, code))  # type: ignore[arg-type]


def tournament_row(found: Sequence[object], code: str) -> TournamentRow:
    """A `tournaments` row, checked (`checked_row`)."""
    return TournamentRow(*checked_row(  # type: ignore[arg-type]
        found, TOURNAMENT_COLUMNS, code, tournament=True))


def claims_of(rows: Sequence[Sequence[object]], scope: str) -> dict[str, str]:
    """The `claims` rows of a scope as slot → digest, each checked (`checked_row`)."""
    out: dict[str, str] = {}
    for row in rows:
        slot, secret = checked_row(row, CLAIM_COLUMNS, scope)
        out[str(slot)] = str(secret)
    return out


def seat_names_of(rows: Sequence[Sequence[object]], code: str) -> dict[int, str]:
    """The `seat_names` rows of a table as seat → name, each checked (`checked_row`)."""
    out: dict[int, str] = {}
    for row in rows:
        seat, name = checked_row(row, SEAT_NAME_COLUMNS, code)
        assert isinstance(seat, int)
        out[seat] = str(name)
    return out


def practice_of(found: Sequence[object] | None) -> tuple[str, int] | None:
    """A `seat_practice` row's list and when it was kept, or None for no row;
    `CorruptTableError` if another program wrote something else there."""
    if found is None:
        return None
    packed, saved = tuple(found)
    if not isinstance(packed, str) or type(saved) is not int:
        raise unreadable_practice()
    return packed, saved


def unreadable_practice() -> CorruptTableError:
    """The refusal of a practice list that cannot be read (`seat_practice`)."""
    return CorruptTableError(msg("the practice positions kept for this seat cannot be "
                                 "read; they are left as they are", None), "", None, None)
