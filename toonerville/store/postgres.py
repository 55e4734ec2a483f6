"""Shared tables in PostgreSQL: several servers serving one class.

Owns the PostgreSQL backend. It is the only module that imports `psycopg` (version 3),
and only when a backend is made, so the engine and the SQLite store run without it.
Each thread has its own connection in autocommit mode; every write is one statement or
one explicit transaction. `append` is a single `INSERT … SELECT … WHERE` (last move
number = expected): two clients racing for the same number both pass the check, the
unique (code, number) key makes the second wait for the first and then fail, and that
failure is reported as "the table moved on".
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from .backend import TableRow, TournamentRow

if TYPE_CHECKING:
    import psycopg

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS tables (code TEXT PRIMARY KEY, format TEXT NOT NULL, "
    "start TEXT NOT NULL, setup TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS moves (code TEXT NOT NULL, number INTEGER NOT NULL, "
    "move TEXT NOT NULL, PRIMARY KEY (code, number))",
    "CREATE TABLE IF NOT EXISTS claims (scope TEXT NOT NULL, slot TEXT NOT NULL, "
    "secret TEXT NOT NULL, PRIMARY KEY (scope, slot))",
    "CREATE TABLE IF NOT EXISTS tournaments (code TEXT PRIMARY KEY, format TEXT NOT NULL, "
    "teacher TEXT NOT NULL, state TEXT NOT NULL, version INTEGER NOT NULL)",
)
#: pg_advisory_xact_lock key: servers starting at once create the schema one at a time
SCHEMA_LOCK = 0x7007E5


class PostgresBackend:
    """The store in a PostgreSQL database given by a URL (`postgresql://…`)."""

    def __init__(self, url: str) -> None:
        import psycopg  # only here: the rest of the kit is standard library

        self._psycopg = psycopg
        self.url = url
        self._local = threading.local()
        self._all: list[psycopg.Connection[Any]] = []
        self._lock = threading.Lock()
        con = self._con()
        with con.transaction():
            con.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            for statement in SCHEMA:
                con.execute(statement)

    def __repr__(self) -> str:
        return "PostgresBackend(<url>)"  # a URL may carry a password

    def _con(self) -> psycopg.Connection[Any]:
        con: psycopg.Connection[Any] | None = getattr(self._local, "con", None)
        if con is None or con.closed:
            con = self._psycopg.connect(self.url, autocommit=True)
            self._local.con = con
            with self._lock:
                self._all.append(con)
        return con

    def _insert(self, sql: str, params: tuple[object, ...]) -> bool:
        try:
            self._con().execute(sql, params)
        except self._psycopg.errors.UniqueViolation:
            return False
        return True

    def create_table(self, row: TableRow) -> bool:
        return self._insert(
            "INSERT INTO tables (code, format, start, setup) VALUES (%s, %s, %s, %s)",
            (row.code, row.format, row.start, row.setup))

    def table(self, code: str) -> TableRow | None:
        found = self._con().execute(
            "SELECT code, format, start, setup FROM tables WHERE code = %s", (code,)).fetchone()
        return None if found is None else TableRow(*found)

    def moves_since(self, code: str, number: int) -> list[tuple[int, str]]:
        rows = self._con().execute(
            "SELECT number, move FROM moves WHERE code = %s AND number > %s ORDER BY number",
            (code, number)).fetchall()
        return [(n, m) for n, m in rows]

    def append(self, code: str, number: int, move: str) -> bool:
        try:
            cur = self._con().execute(
                "INSERT INTO moves (code, number, move) SELECT %s, %s, %s WHERE "
                "(SELECT COALESCE(MAX(number), 0) FROM moves WHERE code = %s) = %s",
                (code, number, move, code, number - 1))
        except self._psycopg.errors.UniqueViolation:
            return False
        return cur.rowcount == 1

    def claim(self, scope: str, slot: str, secret_digest: str) -> bool:
        return self._insert("INSERT INTO claims (scope, slot, secret) VALUES (%s, %s, %s)",
                            (scope, slot, secret_digest))

    def claims(self, scope: str) -> dict[str, str]:
        rows = self._con().execute("SELECT slot, secret FROM claims WHERE scope = %s",
                                   (scope,)).fetchall()
        return {slot: secret for slot, secret in rows}

    def create_tournament(self, row: TournamentRow) -> bool:
        return self._insert(
            "INSERT INTO tournaments (code, format, teacher, state, version) "
            "VALUES (%s, %s, %s, %s, %s)",
            (row.code, row.format, row.teacher, row.state, row.version))

    def tournament(self, code: str) -> TournamentRow | None:
        found = self._con().execute(
            "SELECT code, format, teacher, state, version FROM tournaments WHERE code = %s",
            (code,)).fetchone()
        return None if found is None else TournamentRow(*found)

    def update_tournament(self, code: str, state: str, version: int) -> bool:
        cur = self._con().execute(
            "UPDATE tournaments SET state = %s, version = version + 1 "
            "WHERE code = %s AND version = %s", (state, code, version))
        return cur.rowcount == 1

    def close(self) -> None:
        with self._lock:
            for con in self._all:
                con.close()
            self._all.clear()
        self._local = threading.local()
