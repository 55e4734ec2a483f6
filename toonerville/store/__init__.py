"""Shared tables: learners at one table from their own browsers, and tournaments.

The shared state of a table is its game's move log in a database: an SQLite file by
default (`sqlite` — standard library, nothing to install, one server) or PostgreSQL when
given a URL (`postgres` — several servers serving one class; needs `psycopg`, the
`classroom` extra). Both implement `backend.Backend`; everything about the game —
checking a move before it is stored, replaying the log, bots, seat secrets — is in
`tables` (one table) and `tournaments` (a tournament's rounds of tables), the same for
both databases; `classes` keeps a teacher's class, its learners and its settings
(`ClassStore(store.backend)`).

    store = open_store("class.sqlite")          # or "postgresql://…"
    code = store.open_table(players=4, bots={2: "heuristic", 3: "heuristic"})
    me = store.claim(code)                       # keep me.secret in the page
    me.play("0: draw")                           # TableMovedOnError if someone was first
"""

from __future__ import annotations

import os
from pathlib import Path

from .backend import Backend, TableRow, TournamentRow
from .classes import ClassOpened, ClassSettings, ClassStore, Handout, Member
from .codes import normalise_code
from .errors import (
    CorruptTableError,
    NameTakenError,
    NoSuchClassError,
    NoSuchTableError,
    SeatError,
    StoreError,
    StoreUnavailableError,
    TableMovedOnError,
    TableOverError,
    TeacherKeyError,
)
from .retrying import RetryingBackend
from .sqlite import SQLiteBackend
from .tables import WATCHER, Seat, TableInfo, TableStore, Watcher
from .tournaments import TournamentDesk

#: where the store lives when nothing is given: $TOONERVILLE_STORE, else this file
DEFAULT_PATH = "toonerville-tables.sqlite"


def open_store(where: str | Path | None = None) -> TableStore:
    """The store at `where`: a `postgresql://` (or `postgres://`) URL, or the path of an
    SQLite file (created on first use); None means $TOONERVILLE_STORE or
    `toonerville-tables.sqlite` in the current folder. A database that does not answer
    for a moment (a server restarting, a file locked) is waited for
    (`retrying.RetryingBackend`); past that, `StoreUnavailableError` says so."""
    if where is None:
        where = os.environ.get("TOONERVILLE_STORE") or DEFAULT_PATH
    text = str(where)
    if text.startswith(("postgresql://", "postgres://")):
        from .postgres import PostgresBackend

        return TableStore(RetryingBackend.open(PostgresBackend, text))
    return TableStore(RetryingBackend.open(SQLiteBackend, text))


__all__ = [
    "DEFAULT_PATH", "WATCHER", "Backend", "ClassOpened", "ClassSettings", "ClassStore",
    "CorruptTableError", "Handout", "Member", "NameTakenError", "NoSuchClassError",
    "NoSuchTableError",
    "RetryingBackend", "SQLiteBackend", "Seat", "SeatError", "StoreError",
    "StoreUnavailableError", "TableInfo", "TableMovedOnError",
    "TableOverError", "TableRow", "TableStore", "TeacherKeyError", "TournamentDesk",
    "TournamentRow",
    "Watcher", "normalise_code", "open_store",
]
