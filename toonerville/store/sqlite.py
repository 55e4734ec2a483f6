"""Shared tables in an SQLite file: the default, nothing to install, one server.

Owns the SQLite backend (standard library `sqlite3`): the file is in WAL mode so pages
polling for moves never block a writer, each thread has its own connection, and every
write is one transaction. Opening a new file from several processes at once is safe
(`_set_up` tries a locked set-up again; it also gives a file made before moves carried
their history's digest the `digest` column). `append` takes the write lock first (`BEGIN
IMMEDIATE`), then inserts the move only if the table's last move is the one the client
computed on (its number and its history's digest); the (code, number) primary key would
refuse a duplicate even without the check. A "database is locked" past the busy timeout
is `transient`: `retrying.RetryingBackend` tries it again. The statements are in
`statements`, shared with the PostgreSQL backend.
"""

from __future__ import annotations

import random
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from . import statements as sql
from .backend import (
    ClassRow,
    HandoutRow,
    MemberRow,
    ProgressRow,
    TableRow,
    TournamentRow,
    chained,
    claims_of,
    class_row,
    handout_rows,
    member_rows,
    practice_of,
    seat_names_of,
    table_row,
    tournament_row,
)

BUSY_TIMEOUT_S = 30.0


class SQLiteBackend:
    """The store in one SQLite file (created with its tables on first use)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._set_up(self._con())

    def __repr__(self) -> str:
        return f"SQLiteBackend({self.path!r})"

    @staticmethod
    def _set_up(con: sqlite3.Connection) -> None:
        """WAL mode and the tables, safe when several processes open a new file at the
        same moment: switching to WAL does not wait for a busy file as statements do (it
        answered "database is locked" at once to 4 of 240 pages opening together), so a
        locked set-up is tried again, after a short random pause, until `BUSY_TIMEOUT_S`.
        The tables are made in one write transaction: all of them or none, with the
        `digest` column added to the moves of a file made before it existed."""
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        pause = random.Random()
        while True:
            try:
                if con.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                    con.execute("PRAGMA journal_mode=WAL")
                con.execute("BEGIN IMMEDIATE")
                for statement in sql.SCHEMA:
                    con.execute(statement)
                if "digest" not in {row[1] for row in con.execute("PRAGMA table_info(moves)")}:
                    con.execute(sql.ADD_DIGEST)
                con.execute("COMMIT")
                return
            except sqlite3.OperationalError as err:
                if con.in_transaction:
                    con.execute("ROLLBACK")
                busy = "locked" in str(err) or "busy" in str(err)
                if not busy or time.monotonic() > deadline:
                    raise
                time.sleep(pause.uniform(0.005, 0.05))

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
        return None if found is None else table_row(found, code)

    def moves_since(self, code: str, number: int) -> list[tuple[int, str]]:
        rows = self._con().execute(sql.SELECT_MOVES, (code, number)).fetchall()
        return [(n, m) for n, m in rows]

    def history_from(self, code: str, number: int) -> list[tuple[int, str, str | None]]:
        rows = self._con().execute(sql.SELECT_HISTORY, (code, number)).fetchall()
        return [(n, m, d) for n, m, d in rows]

    def append(self, code: str, number: int, move: str, previous: str) -> bool:
        params = sql.append_params(code, number, move, previous, chained(previous, move))
        return self._transaction(lambda con: con.execute(
            sql.INSERT_MOVE_IF_HISTORY, params).rowcount == 1)

    def fill_digests(self, code: str, digests: Sequence[tuple[int, str]]) -> None:
        def work(con: sqlite3.Connection) -> bool:
            con.executemany(sql.FILL_DIGEST, [(d, code, n) for n, d in digests])
            return True

        self._transaction(work)

    def _transaction(self, work: Callable[[sqlite3.Connection], bool]) -> bool:
        """`work` in one write transaction, taking the write lock first; False (nothing
        stored) if `work` says so or a unique key refuses a row."""
        con = self._con()
        con.execute("BEGIN IMMEDIATE")
        try:
            done = work(con)
        except sqlite3.IntegrityError:
            con.execute("ROLLBACK")
            return False
        except BaseException:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise
        con.execute("COMMIT" if done else "ROLLBACK")
        return done

    def claim(self, scope: str, slot: str, secret_digest: str) -> bool:
        return self._insert(sql.INSERT_CLAIM, (scope, slot, secret_digest))

    def claims(self, scope: str) -> dict[str, str]:
        rows = self._con().execute(sql.SELECT_CLAIMS, (scope,)).fetchall()
        return claims_of(rows, scope)

    def reclaim(self, scope: str, slot: str, old_digest: str | None, new_digest: str
                ) -> bool:
        if old_digest is None:
            return self.claim(scope, slot, new_digest)
        cursor = self._con().execute(sql.UPDATE_CLAIM, (new_digest, scope, slot, old_digest))
        return cursor.rowcount == 1

    def create_tournament(self, row: TournamentRow,
                          claims: Sequence[tuple[str, str, str]] = ()) -> bool:
        def work(con: sqlite3.Connection) -> bool:
            con.execute(sql.INSERT_TOURNAMENT,
                        (row.code, row.format, row.teacher, row.state, row.version))
            con.executemany(sql.INSERT_CLAIM, claims)
            return True

        return self._transaction(work)

    def tournament(self, code: str) -> TournamentRow | None:
        found = self._con().execute(sql.SELECT_TOURNAMENT, (code,)).fetchone()
        return None if found is None else tournament_row(found, code)

    def update_tournament(self, code: str, state: str, version: int) -> bool:
        cur = self._con().execute(sql.UPDATE_TOURNAMENT, (state, code, version))
        return cur.rowcount == 1

    def name_seat(self, code: str, seat: int, name: str) -> None:
        self._con().execute(sql.UPSERT_SEAT_NAME, (code, seat, name))

    def seat_names(self, code: str) -> dict[int, str]:
        rows = self._con().execute(sql.SELECT_SEAT_NAMES, (code,)).fetchall()
        return seat_names_of(rows, code)

    def create_class(self, row: ClassRow) -> bool:
        return self._insert(sql.INSERT_CLASS, (row.code, row.format, row.name, row.teacher,
                                               row.settings, row.version))

    def class_row(self, code: str) -> ClassRow | None:
        found = self._con().execute(sql.SELECT_CLASS, (code,)).fetchone()
        return None if found is None else class_row(found, code)

    def update_class(self, code: str, settings: str, version: int) -> bool:
        cur = self._con().execute(sql.UPDATE_CLASS, (settings, code, version))
        return cur.rowcount == 1

    def add_member(self, row: MemberRow) -> bool:
        return self._insert(sql.INSERT_MEMBER,
                            (row.code, row.slot, row.name, row.secret, row.joined))

    def members(self, code: str) -> list[MemberRow]:
        return member_rows(self._con().execute(sql.SELECT_MEMBERS, (code,)).fetchall(), code)

    def hand_out(self, rows: Sequence[HandoutRow]) -> None:
        def work(con: sqlite3.Connection) -> bool:
            con.executemany(sql.UPSERT_HANDOUT, [(r.code, r.slot, r.item, r.kind, r.secret)
                                                 for r in rows])
            return True

        self._transaction(work)

    def handouts(self, code: str) -> list[HandoutRow]:
        return handout_rows(self._con().execute(sql.SELECT_HANDOUTS, (code,)).fetchall(),
                            code)

    def add_progress(self, row: ProgressRow) -> None:
        self._con().execute(sql.INSERT_PROGRESS, (row.class_code, row.learner, row.page,
                                                  row.kind, row.detail, row.at))

    def progress(self, class_code: str) -> list[tuple[object, ...]]:
        rows = self._con().execute(sql.SELECT_PROGRESS, (class_code,)).fetchall()
        return [tuple(r) for r in rows]

    def keep_practice(self, owner: str, packed: str, saved: int, expire_before: int
                      ) -> None:
        self._con().execute(sql.UPSERT_PRACTICE, (owner, packed, saved))
        self._con().execute(sql.DELETE_OLD_PRACTICE, (expire_before,))

    def practice_list(self, owner: str) -> tuple[str, int] | None:
        return practice_of(self._con().execute(sql.SELECT_PRACTICE, (owner,)).fetchone())

    @staticmethod
    def transient(err: BaseException) -> bool | None:
        if not isinstance(err, sqlite3.Error):
            return None
        text = str(err)
        return isinstance(err, sqlite3.OperationalError) and ("locked" in text
                                                              or "busy" in text)

    def close(self) -> None:
        with self._lock:
            for con in self._all:
                con.close()
            self._all.clear()
        self._local = threading.local()
