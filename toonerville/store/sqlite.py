"""Shared tables in an SQLite file: the default, nothing to install, one server.

Owns the SQLite backend (standard library `sqlite3`): the file is in WAL mode so pages
polling for moves never block a writer, each thread has its own connection, and every
write is one transaction. `append` takes the write lock first (`BEGIN IMMEDIATE`),
checks the table's last move number and inserts; the (code, number) primary key would
refuse a duplicate even without the check. The statements are in `statements`, shared
with the PostgreSQL backend.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from . import statements as sql
from .backend import TableRow, TournamentRow

BUSY_TIMEOUT_S = 30.0


class SQLiteBackend:
    """The store in one SQLite file (created with its tables on first use)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        con = self._con()
        con.execute("PRAGMA journal_mode=WAL")
        for statement in sql.SCHEMA:
            con.execute(statement)

    def __repr__(self) -> str:
        return f"SQLiteBackend({self.path!r})"

    def _con(self) -> sqlite3.Connection:
        con: sqlite3.Connection | None = getattr(self._local, "con", None)
        if con is None:
            con = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None,
                                  check_same_thread=False)
            con.execute("PRAGMA synchronous=NORMAL")
            self._local.con = con
            with self._lock:
                self._all.append(con)
        return con

    def _insert(self, statement: str, params: tuple[object, ...]) -> bool:
        try:
            self._con().execute(statement, params)
        except sqlite3.IntegrityError:
            return False
        return True

    def create_table(self, row: TableRow) -> bool:
        return self._insert(sql.INSERT_TABLE, (row.code, row.format, row.start, row.setup))

    def table(self, code: str) -> TableRow | None:
        found = self._con().execute(sql.SELECT_TABLE, (code,)).fetchone()
        return None if found is None else TableRow(*found)

    def moves_since(self, code: str, number: int) -> list[tuple[int, str]]:
        rows = self._con().execute(sql.SELECT_MOVES, (code, number)).fetchall()
        return [(n, m) for n, m in rows]

    def append(self, code: str, number: int, move: str) -> bool:
        con = self._con()
        con.execute("BEGIN IMMEDIATE")
        try:
            (last,) = con.execute(sql.LAST_MOVE, (code,)).fetchone()
            if last != number - 1:
                con.execute("ROLLBACK")
                return False
            con.execute(sql.INSERT_MOVE, (code, number, move))
        except sqlite3.IntegrityError:
            con.execute("ROLLBACK")
            return False
        except BaseException:
            con.execute("ROLLBACK")
            raise
        con.execute("COMMIT")
        return True

    def claim(self, scope: str, slot: str, secret_digest: str) -> bool:
        return self._insert(sql.INSERT_CLAIM, (scope, slot, secret_digest))

    def claims(self, scope: str) -> dict[str, str]:
        rows = self._con().execute(sql.SELECT_CLAIMS, (scope,)).fetchall()
        return {slot: secret for slot, secret in rows}

    def create_tournament(self, row: TournamentRow) -> bool:
        return self._insert(sql.INSERT_TOURNAMENT,
                            (row.code, row.format, row.teacher, row.state, row.version))

    def tournament(self, code: str) -> TournamentRow | None:
        found = self._con().execute(sql.SELECT_TOURNAMENT, (code,)).fetchone()
        return None if found is None else TournamentRow(*found)

    def update_tournament(self, code: str, state: str, version: int) -> bool:
        cur = self._con().execute(sql.UPDATE_TOURNAMENT, (state, code, version))
        return cur.rowcount == 1

    def name_seat(self, code: str, seat: int, name: str) -> None:
        self._con().execute(sql.UPSERT_SEAT_NAME, (code, seat, name))

    def seat_names(self, code: str) -> dict[int, str]:
        rows = self._con().execute(sql.SELECT_SEAT_NAMES, (code,)).fetchall()
        return {int(seat): name for seat, name in rows}

    def close(self) -> None:
        with self._lock:
            for con in self._all:
                con.close()
            self._all.clear()
        self._local = threading.local()
