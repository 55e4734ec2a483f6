"""The SQL both store backends run: one copy of every statement, for SQLite and PostgreSQL.

Owns the schema and the queries of `backend.Backend`, written once in the dialect both
databases accept, with `?` as the parameter mark (SQLite's). `for_psycopg` gives the
same text with psycopg's `%s` marks; no statement holds a literal `?` or `%`, so the
rewrite is exact. The one thing the backends do differently is how `append` makes its
check and its insert one transaction (see each backend).
"""

from __future__ import annotations

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS tables (code TEXT PRIMARY KEY, format TEXT NOT NULL, "
    "start TEXT NOT NULL, setup TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS moves (code TEXT NOT NULL, number INTEGER NOT NULL, "
    "move TEXT NOT NULL, PRIMARY KEY (code, number))",
    "CREATE TABLE IF NOT EXISTS claims (scope TEXT NOT NULL, slot TEXT NOT NULL, "
    "secret TEXT NOT NULL, PRIMARY KEY (scope, slot))",
    "CREATE TABLE IF NOT EXISTS tournaments (code TEXT PRIMARY KEY, format TEXT NOT NULL, "
    "teacher TEXT NOT NULL, state TEXT NOT NULL, version INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS seat_names (code TEXT NOT NULL, seat INTEGER NOT NULL, "
    "name TEXT NOT NULL, PRIMARY KEY (code, seat))",
)

INSERT_TABLE = "INSERT INTO tables (code, format, start, setup) VALUES (?, ?, ?, ?)"
SELECT_TABLE = "SELECT code, format, start, setup FROM tables WHERE code = ?"
SELECT_MOVES = "SELECT number, move FROM moves WHERE code = ? AND number > ? ORDER BY number"
LAST_MOVE = "SELECT COALESCE(MAX(number), 0) FROM moves WHERE code = ?"
INSERT_MOVE = "INSERT INTO moves (code, number, move) VALUES (?, ?, ?)"
#: the insert and its check in one statement: params (code, number, move, code, number - 1)
INSERT_MOVE_IF_LAST = (
    "INSERT INTO moves (code, number, move) SELECT ?, ?, ? WHERE "
    "(SELECT COALESCE(MAX(number), 0) FROM moves WHERE code = ?) = ?")
INSERT_CLAIM = "INSERT INTO claims (scope, slot, secret) VALUES (?, ?, ?)"
SELECT_CLAIMS = "SELECT slot, secret FROM claims WHERE scope = ?"
INSERT_TOURNAMENT = ("INSERT INTO tournaments (code, format, teacher, state, version) "
                     "VALUES (?, ?, ?, ?, ?)")
SELECT_TOURNAMENT = ("SELECT code, format, teacher, state, version FROM tournaments "
                     "WHERE code = ?")
UPDATE_TOURNAMENT = ("UPDATE tournaments SET state = ?, version = version + 1 "
                     "WHERE code = ? AND version = ?")
#: a seat's name, given again, replaces the one before (both databases know ON CONFLICT)
UPSERT_SEAT_NAME = ("INSERT INTO seat_names (code, seat, name) VALUES (?, ?, ?) "
                    "ON CONFLICT (code, seat) DO UPDATE SET name = excluded.name")
SELECT_SEAT_NAMES = "SELECT seat, name FROM seat_names WHERE code = ?"


def for_psycopg(sql: str) -> str:
    """`sql` with psycopg's parameter marks."""
    return sql.replace("?", "%s")
