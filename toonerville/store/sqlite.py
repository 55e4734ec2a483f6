"""Shared tables in an SQLite file: the default, nothing to install, one server.

Owns the SQLite backend (standard library `sqlite3`): the file is in WAL mode so pages
polling for moves never block a writer, each thread has its own connection, and every
write is one transaction. `append` takes the write lock first (`BEGIN IMMEDIATE`),
checks the table's last move number and inserts; the (code, number) primary key would
refuse a duplicate even without the check.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from .backend import TableRow, TournamentRow

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY, format TEXT NOT NULL, start TEXT NOT NULL, setup TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS moves (
    code TEXT NOT NULL, number INTEGER NOT NULL, move TEXT NOT NULL,
    PRIMARY KEY (code, number));
CREATE TABLE IF NOT EXISTS claims (
    scope TEXT NOT NULL, slot TEXT NOT NULL, secret TEXT NOT NULL,
    PRIMARY KEY (scope, slot));
CREATE TABLE IF NOT EXISTS tournaments (
    code TEXT PRIMARY KEY, format TEXT NOT NULL, teacher TEXT NOT NULL, state TEXT NOT NULL,
    version INTEGER NOT NULL);
"""

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
        con.executescript(SCHEMA)

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

    def _insert(self, sql: str, params: tuple[object, ...]) -> bool:
        try:
            self._con().execute(sql, params)
        except sqlite3.IntegrityError:
            return False
        return True

    def create_table(self, row: TableRow) -> bool:
        return self._insert("INSERT INTO tables (code, format, start, setup) VALUES (?,?,?,?)",
                            (row.code, row.format, row.start, row.setup))

    def table(self, code: str) -> TableRow | None:
        found = self._con().execute(
            "SELECT code, format, start, setup FROM tables WHERE code = ?", (code,)).fetchone()
        return None if found is None else TableRow(*found)

    def moves_since(self, code: str, number: int) -> list[tuple[int, str]]:
        rows = self._con().execute(
            "SELECT number, move FROM moves WHERE code = ? AND number > ? ORDER BY number",
            (code, number)).fetchall()
        return [(n, m) for n, m in rows]

    def append(self, code: str, number: int, move: str) -> bool:
        con = self._con()
        con.execute("BEGIN IMMEDIATE")
        try:
            (last,) = con.execute("SELECT COALESCE(MAX(number), 0) FROM moves WHERE code = ?",
                                  (code,)).fetchone()
            if last != number - 1:
                con.execute("ROLLBACK")
                return False
            con.execute("INSERT INTO moves (code, number, move) VALUES (?,?,?)",
                        (code, number, move))
        except sqlite3.IntegrityError:
            con.execute("ROLLBACK")
            return False
        except BaseException:
            con.execute("ROLLBACK")
            raise
        con.execute("COMMIT")
        return True

    def claim(self, scope: str, slot: str, secret_digest: str) -> bool:
        return self._insert("INSERT INTO claims (scope, slot, secret) VALUES (?,?,?)",
                            (scope, slot, secret_digest))

    def claims(self, scope: str) -> dict[str, str]:
        rows = self._con().execute("SELECT slot, secret FROM claims WHERE scope = ?",
                                   (scope,)).fetchall()
        return {slot: secret for slot, secret in rows}

    def create_tournament(self, row: TournamentRow) -> bool:
        return self._insert(
            "INSERT INTO tournaments (code, format, teacher, state, version) "
            "VALUES (?,?,?,?,?)", (row.code, row.format, row.teacher, row.state, row.version))

    def tournament(self, code: str) -> TournamentRow | None:
        found = self._con().execute(
            "SELECT code, format, teacher, state, version FROM tournaments WHERE code = ?",
            (code,)).fetchone()
        return None if found is None else TournamentRow(*found)

    def update_tournament(self, code: str, state: str, version: int) -> bool:
        cur = self._con().execute(
            "UPDATE tournaments SET state = ?, version = version + 1 "
            "WHERE code = ? AND version = ?", (state, code, version))
        return cur.rowcount == 1

    def close(self) -> None:
        with self._lock:
            for con in self._all:
                con.close()
            self._all.clear()
        self._local = threading.local()
