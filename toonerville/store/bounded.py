"""Records kept under a key in an SQLite file, bounded so a visitor cannot grow it: `Bounded`.

Owns the connection and the one transaction that the solo games (`solo`) and the practice
lists (`practice`) share. `Bounded(path, table, columns, schema)` opens the file in WAL
mode and sets its table up (a file another process is setting up at the same moment
answers "locked" at once, which is tried again for a while); `replace(key, values, now)`
writes the one record under `key`, then deletes the records not kept again for
`keep_days` and, past `most` records, the ones kept longest ago, all in one transaction,
so a failed write leaves the file as it was; `row(key)` reads a record's columns and when
it was kept; `forget(key)` deletes it. One connection, used under a lock, so a page may
keep its record from any thread. The callers check keys and sizes before they write and
own what their columns mean.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

BUSY_TIMEOUT_S = 30.0


class Bounded:
    """The records of `table` (its key column `key`, its `columns`, and `saved`, when
    each was kept) in the SQLite file at `path`; `schema` creates the table and its
    index on `saved`."""

    def __init__(self, path: str | Path, table: str, columns: Sequence[str],
                 schema: Sequence[str], *, keep_days: float, most: int) -> None:
        self.path = str(path)
        self.keep_days, self.most = keep_days, most
        listed = ", ".join(columns)
        self._upsert = (
            f"INSERT INTO {table} (key, {listed}, saved) VALUES "
            f"(?, {', '.join('?' for _ in columns)}, ?) ON CONFLICT (key) DO UPDATE SET "
            + ", ".join(f"{c} = excluded.{c}" for c in (*columns, "saved")))
        self._select = f"SELECT {listed}, saved FROM {table} WHERE key = ?"
        self._expire = f"DELETE FROM {table} WHERE saved < ?"
        self._count = f"SELECT COUNT(*) FROM {table}"
        #: the records past the first `most`, newest first
        self._trim = (f"DELETE FROM {table} WHERE saved <= (SELECT saved FROM {table} "
                      "ORDER BY saved DESC LIMIT 1 OFFSET ?)")
        self._delete = f"DELETE FROM {table} WHERE key = ?"
        self._lock = threading.Lock()
        self._con = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None,
                                    check_same_thread=False)
        self._set_up(schema)

    def _set_up(self, schema: Sequence[str]) -> None:
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        con = self._con
        while True:
            try:
                con.execute("PRAGMA synchronous=NORMAL")
                if con.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                    con.execute("PRAGMA journal_mode=WAL")
                for statement in schema:
                    con.execute(statement)
                return
            except sqlite3.OperationalError as err:
                if "locked" not in str(err) and "busy" not in str(err) \
                        or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    def expired(self, saved: float, now: float) -> bool:
        """Was a record kept at `saved` kept too long ago to be read at `now`?"""
        return saved < now - self.keep_days * 86_400

    def replace(self, key: str, values: Sequence[Any], now: float) -> None:
        """Keep `values` under `key`, replacing what was there, and bound the table."""
        with self._lock:
            con = self._con
            con.execute("BEGIN IMMEDIATE")
            try:
                con.execute(self._upsert, (key, *values, now))
                con.execute(self._expire, (now - self.keep_days * 86_400,))
                (count,) = con.execute(self._count).fetchone()
                if count > self.most:
                    con.execute(self._trim, (self.most,))
            except BaseException:
                con.execute("ROLLBACK")
                raise
            con.execute("COMMIT")

    def row(self, key: str) -> tuple[Any, ...] | None:
        """The record under `key`: its columns, then when it was kept; None if none."""
        with self._lock:
            row: tuple[Any, ...] | None = self._con.execute(self._select, (key,)).fetchone()
        return row

    def forget(self, key: str) -> None:
        """Delete the record under `key` (if any)."""
        with self._lock:
            self._con.execute(self._delete, (key,))

    def close(self) -> None:
        with self._lock:
            self._con.close()
