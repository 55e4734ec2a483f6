"""Shared tables in PostgreSQL: several servers serving one class.

Owns the PostgreSQL backend. It is the only module that imports `psycopg` (version 3),
and only when a backend is made, so the engine and the SQLite store run without it.
Each thread has its own connection in autocommit mode; every write is one statement or
one explicit transaction. `append` is a single `INSERT … SELECT … WHERE` (the last
move's number and history digest are the ones the client computed on): two clients
racing for the same number both pass the check, the unique (code, number) key makes the
second wait for the first and then fail, and that failure is reported as "the table
moved on". A connection the server dropped (a restart) is forgotten (`_run`), and the
error is `transient`: `retrying.RetryingBackend` tries the call again on a new
connection, waiting for a restarting server. The statements are in `statements`, shared
with the SQLite backend; a database made before moves carried digests gets the column.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    import psycopg

#: pg_advisory_xact_lock key: servers starting at once create the schema one at a time
SCHEMA_LOCK = 0x7007E5
#: seconds to wait for a server to answer a new connection (a restarting one refuses at
#: once; one that does not answer at all is given up on, and the call tried again)
CONNECT_TIMEOUT_S = 5
#: is there a `digest` column in the moves table of the schema in use?
HAS_DIGEST = ("SELECT 1 FROM information_schema.columns WHERE table_schema = "
              "current_schema() AND table_name = 'moves' AND column_name = 'digest'")


class PostgresBackend:
    """The store in a PostgreSQL database given by a URL (`postgresql://…`)."""

    def __init__(self, url: str) -> None:
        import psycopg  # only here: the rest of the kit is standard library

        self._psycopg = psycopg
        self.url = url
        self._local = threading.local()
        self._all: list[psycopg.Connection[Any]] = []
        self._lock = threading.Lock()
        with self._transaction() as con:
            con.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            for statement in sql.SCHEMA:
                con.execute(statement)
            if con.execute(HAS_DIGEST).fetchone() is None:
                con.execute(sql.ADD_DIGEST)

    def __repr__(self) -> str:
        return "PostgresBackend(<url>)"  # a URL may carry a password

    def _con(self) -> psycopg.Connection[Any]:
        con: psycopg.Connection[Any] | None = getattr(self._local, "con", None)
        if con is None or con.closed:
            con = self._psycopg.connect(self.url, autocommit=True,
                                        connect_timeout=CONNECT_TIMEOUT_S)
            self._local.con = con
            with self._lock:
                self._all.append(con)
        return con

    def _run(self, statement: str, params: tuple[object, ...]) -> psycopg.Cursor[Any]:
        """One statement, one transaction in autocommit, so nothing is half-written. On a
        connection the server has dropped (a restart, an administrator's shutdown of the
        session) the connection is forgotten and the error raised: the caller
        (`retrying.RetryingBackend`) runs the statement again on a new one. A statement
        whose answer was lost is at worst run twice, and each write is guarded (a unique
        key, a version, an upsert, a history digest), so the second run changes nothing."""
        try:
            return self._con().execute(sql.for_psycopg(statement), params)
        except (self._psycopg.OperationalError, self._psycopg.InterfaceError):
            self._drop_broken()
            raise

    @contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection[Any]]:
        """This thread's connection inside one transaction (forgotten if it broke)."""
        try:
            con = self._con()
            with con.transaction():
                yield con
        except (self._psycopg.OperationalError, self._psycopg.InterfaceError):
            self._drop_broken()
            raise

    def _drop_broken(self) -> bool:
        """Forget this thread's connection if the server has dropped it (True)."""
        con: psycopg.Connection[Any] | None = getattr(self._local, "con", None)
        if con is None or not (con.broken or con.closed):
            return False
        self._local.con = None
        with self._lock:
            if con in self._all:
                self._all.remove(con)
        con.close()
        return True

    def _insert(self, statement: str, params: tuple[object, ...]) -> bool:
        try:
            self._run(statement, params)
        except self._psycopg.errors.UniqueViolation:
            return False
        return True

    def create_table(self, row: TableRow) -> bool:
        return self._insert(sql.INSERT_TABLE, (row.code, row.format, row.start, row.setup))

    def table(self, code: str) -> TableRow | None:
        found = self._run(sql.SELECT_TABLE, (code,)).fetchone()
        return None if found is None else table_row(found, code)

    def moves_since(self, code: str, number: int) -> list[tuple[int, str]]:
        rows = self._run(sql.SELECT_MOVES, (code, number)).fetchall()
        return [(n, m) for n, m in rows]

    def history_from(self, code: str, number: int) -> list[tuple[int, str, str | None]]:
        rows = self._run(sql.SELECT_HISTORY, (code, number)).fetchall()
        return [(n, m, d) for n, m, d in rows]

    def append(self, code: str, number: int, move: str, previous: str) -> bool:
        params = sql.append_params(code, number, move, previous, chained(previous, move))
        try:
            cur = self._run(sql.INSERT_MOVE_IF_HISTORY, params)
        except self._psycopg.errors.UniqueViolation:
            return False
        return cur.rowcount == 1

    def fill_digests(self, code: str, digests: Sequence[tuple[int, str]]) -> None:
        with self._transaction() as con:
            con.cursor().executemany(sql.for_psycopg(sql.FILL_DIGEST),
                                     [(d, code, n) for n, d in digests])

    def claim(self, scope: str, slot: str, secret_digest: str) -> bool:
        return self._insert(sql.INSERT_CLAIM, (scope, slot, secret_digest))

    def claims(self, scope: str) -> dict[str, str]:
        rows = self._run(sql.SELECT_CLAIMS, (scope,)).fetchall()
        return claims_of(rows, scope)

    def reclaim(self, scope: str, slot: str, old_digest: str | None, new_digest: str
                ) -> bool:
        if old_digest is None:
            return self.claim(scope, slot, new_digest)
        cursor = self._run(sql.UPDATE_CLAIM, (new_digest, scope, slot, old_digest))
        return cursor.rowcount == 1

    def create_tournament(self, row: TournamentRow,
                          claims: Sequence[tuple[str, str, str]] = ()) -> bool:
        try:
            with self._transaction() as con:
                con.execute(sql.for_psycopg(sql.INSERT_TOURNAMENT),
                            (row.code, row.format, row.teacher, row.state, row.version))
                if claims:
                    con.cursor().executemany(sql.for_psycopg(sql.INSERT_CLAIM), claims)
        except self._psycopg.errors.UniqueViolation:
            return False
        return True

    def tournament(self, code: str) -> TournamentRow | None:
        found = self._run(sql.SELECT_TOURNAMENT, (code,)).fetchone()
        return None if found is None else tournament_row(found, code)

    def update_tournament(self, code: str, state: str, version: int) -> bool:
        cur = self._run(sql.UPDATE_TOURNAMENT, (state, code, version))
        return cur.rowcount == 1

    def name_seat(self, code: str, seat: int, name: str) -> None:
        self._run(sql.UPSERT_SEAT_NAME, (code, seat, name))

    def seat_names(self, code: str) -> dict[int, str]:
        rows = self._run(sql.SELECT_SEAT_NAMES, (code,)).fetchall()
        return seat_names_of(rows, code)

    def create_class(self, row: ClassRow) -> bool:
        return self._insert(sql.INSERT_CLASS, (row.code, row.format, row.name, row.teacher,
                                               row.settings, row.version))

    def class_row(self, code: str) -> ClassRow | None:
        found = self._run(sql.SELECT_CLASS, (code,)).fetchone()
        return None if found is None else class_row(found, code)

    def update_class(self, code: str, settings: str, version: int) -> bool:
        return self._run(sql.UPDATE_CLASS, (settings, code, version)).rowcount == 1

    def add_member(self, row: MemberRow) -> bool:
        return self._insert(sql.INSERT_MEMBER,
                            (row.code, row.slot, row.name, row.secret, row.joined))

    def members(self, code: str) -> list[MemberRow]:
        return member_rows(self._run(sql.SELECT_MEMBERS, (code,)).fetchall(), code)

    def hand_out(self, rows: Sequence[HandoutRow]) -> None:
        with self._transaction() as con:
            con.cursor().executemany(sql.for_psycopg(sql.UPSERT_HANDOUT),
                                     [(r.code, r.slot, r.item, r.kind, r.secret)
                                      for r in rows])

    def handouts(self, code: str) -> list[HandoutRow]:
        return handout_rows(self._run(sql.SELECT_HANDOUTS, (code,)).fetchall(), code)

    def add_progress(self, row: ProgressRow) -> None:
        self._run(sql.INSERT_PROGRESS, (row.class_code, row.learner, row.page, row.kind,
                                        row.detail, row.at))

    def progress(self, class_code: str) -> list[tuple[object, ...]]:
        return [tuple(r) for r in self._run(sql.SELECT_PROGRESS, (class_code,)).fetchall()]

    def keep_practice(self, owner: str, packed: str, saved: int, expire_before: int
                      ) -> None:
        self._run(sql.UPSERT_PRACTICE, (owner, packed, saved))
        self._run(sql.DELETE_OLD_PRACTICE, (expire_before,))

    def practice_list(self, owner: str) -> tuple[str, int] | None:
        return practice_of(self._run(sql.SELECT_PRACTICE, (owner,)).fetchone())

    @staticmethod
    def transient(err: BaseException) -> bool | None:
        import psycopg

        if not isinstance(err, psycopg.Error):
            return None
        return isinstance(err, psycopg.OperationalError | psycopg.InterfaceError)

    def close(self) -> None:
        with self._lock:
            for con in self._all:
                con.close()
            self._all.clear()
        self._local = threading.local()
