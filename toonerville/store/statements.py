"""The SQL both store backends run: one copy of every statement, for SQLite and PostgreSQL.

Owns the schema and the queries of `backend.Backend`, written once in the dialect both
databases accept, with `?` as the parameter mark (SQLite's). `for_psycopg` gives the
same text with psycopg's `%s` marks; no statement holds a literal `?` or `%`, so the
rewrite is exact. The one thing the backends do differently is how `append` makes its
check and its insert one transaction (see each backend), and how each finds whether a
database made before `moves.digest` existed needs the column (`ADD_DIGEST`). The three
`class…` tables hold classes (`classes.ClassStore`): a class, its members, and what the
teacher handed out to them (a table's or tournament's key for one learner);
`seat_practice` the practice lists of learners at shared tables.
"""

from __future__ import annotations

#: the learners' progress in a class (`progress`), rows only ever added; the dashboard's
#: one query reads the index alone (it holds every column the query asks for)
PROGRESS_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS progress (class_code TEXT NOT NULL, learner TEXT NOT NULL, "
    "page TEXT NOT NULL, kind TEXT NOT NULL, detail TEXT NOT NULL, "
    "at DOUBLE PRECISION NOT NULL)",
    "CREATE INDEX IF NOT EXISTS progress_by_class ON progress (class_code, learner, kind, "
    "page, detail, at)",
)

#: a learner's practice list from a shared table (`seat_practice`): one row per seat holder,
#: `owner` the digest of the table's code and the seat's key, `list` the list packed as
#: text, `saved` whole seconds since 1970 (rows not kept again for a while are deleted)
PRACTICE_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS seat_practice (owner TEXT PRIMARY KEY, list TEXT NOT NULL, "
    "saved BIGINT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS seat_practice_saved ON seat_practice (saved)",
)

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS tables (code TEXT PRIMARY KEY, format TEXT NOT NULL, "
    "start TEXT NOT NULL, setup TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS moves (code TEXT NOT NULL, number INTEGER NOT NULL, "
    "move TEXT NOT NULL, digest TEXT, PRIMARY KEY (code, number))",
    "CREATE TABLE IF NOT EXISTS claims (scope TEXT NOT NULL, slot TEXT NOT NULL, "
    "secret TEXT NOT NULL, PRIMARY KEY (scope, slot))",
    "CREATE TABLE IF NOT EXISTS tournaments (code TEXT PRIMARY KEY, format TEXT NOT NULL, "
    "teacher TEXT NOT NULL, state TEXT NOT NULL, version INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS seat_names (code TEXT NOT NULL, seat INTEGER NOT NULL, "
    "name TEXT NOT NULL, PRIMARY KEY (code, seat))",
    "CREATE TABLE IF NOT EXISTS classes (code TEXT PRIMARY KEY, format TEXT NOT NULL, "
    "name TEXT NOT NULL, teacher TEXT NOT NULL, settings TEXT NOT NULL, "
    "version INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS class_members (code TEXT NOT NULL, slot TEXT NOT NULL, "
    "name TEXT NOT NULL, secret TEXT NOT NULL, joined INTEGER NOT NULL, "
    "PRIMARY KEY (code, slot))",
    "CREATE TABLE IF NOT EXISTS class_handouts (code TEXT NOT NULL, slot TEXT NOT NULL, "
    "item TEXT NOT NULL, kind TEXT NOT NULL, secret TEXT NOT NULL, "
    "PRIMARY KEY (code, slot, item))",
    *PROGRESS_SCHEMA,
    *PRACTICE_SCHEMA,
)

INSERT_TABLE = "INSERT INTO tables (code, format, start, setup) VALUES (?, ?, ?, ?)"
SELECT_TABLE = "SELECT code, format, start, setup FROM tables WHERE code = ?"
#: a database made before moves carried the digest of their history gets the column
#: (nullable: a server of the kit before it still inserts rows without one)
ADD_DIGEST = "ALTER TABLE moves ADD COLUMN digest TEXT"
SELECT_MOVES = "SELECT number, move FROM moves WHERE code = ? AND number > ? ORDER BY number"
SELECT_HISTORY = ("SELECT number, move, digest FROM moves WHERE code = ? AND number >= ? "
                  "ORDER BY number")
#: the insert and its check in one statement (`append_params`): the table has exactly
#: number - 1 moves, and move number - 1 holds the digest the client computed on (for
#: move 1 there is no such row, and the fallback makes the comparison true)
INSERT_MOVE_IF_HISTORY = (
    "INSERT INTO moves (code, number, move, digest) SELECT ?, ?, ?, ? WHERE "
    "(SELECT COALESCE(MAX(number), 0) FROM moves WHERE code = ?) = ? AND "
    "COALESCE((SELECT digest FROM moves WHERE code = ? AND number = ?), ?) = ?")
FILL_DIGEST = "UPDATE moves SET digest = ? WHERE code = ? AND number = ? AND digest IS NULL"
INSERT_CLAIM = "INSERT INTO claims (scope, slot, secret) VALUES (?, ?, ?)"
SELECT_CLAIMS = "SELECT slot, secret FROM claims WHERE scope = ?"
#: a claim handed on: only if it is still the one the caller read (compare-and-set)
UPDATE_CLAIM = "UPDATE claims SET secret = ? WHERE scope = ? AND slot = ? AND secret = ?"
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
INSERT_CLASS = ("INSERT INTO classes (code, format, name, teacher, settings, version) "
                "VALUES (?, ?, ?, ?, ?, ?)")
SELECT_CLASS = ("SELECT code, format, name, teacher, settings, version FROM classes "
                "WHERE code = ?")
UPDATE_CLASS = ("UPDATE classes SET settings = ?, version = version + 1 "
                "WHERE code = ? AND version = ?")
INSERT_MEMBER = ("INSERT INTO class_members (code, slot, name, secret, joined) "
                 "VALUES (?, ?, ?, ?, ?)")
SELECT_MEMBERS = ("SELECT code, slot, name, secret, joined FROM class_members "
                  "WHERE code = ? ORDER BY joined, slot")
#: a handout given again (a table's key handed out once more) replaces the one before
UPSERT_HANDOUT = ("INSERT INTO class_handouts (code, slot, item, kind, secret) "
                  "VALUES (?, ?, ?, ?, ?) ON CONFLICT (code, slot, item) "
                  "DO UPDATE SET kind = excluded.kind, secret = excluded.secret")
SELECT_HANDOUTS = ("SELECT code, slot, item, kind, secret FROM class_handouts "
                   "WHERE code = ? ORDER BY item, slot")
#: the learners' progress (`progress`): rows are only ever added
INSERT_PROGRESS = ("INSERT INTO progress (class_code, learner, page, kind, detail, at) "
                   "VALUES (?, ?, ?, ?, ?, ?)")
#: a class's progress folded by the database: one row per learner, kind, page and detail,
#: with how many times and when last (the dashboard's one query per refresh)
SELECT_PROGRESS = ("SELECT learner, kind, page, detail, COUNT(*), MAX(at) FROM progress "
                   "WHERE class_code = ? GROUP BY learner, kind, page, detail")

#: a practice list kept again replaces the one before
UPSERT_PRACTICE = ("INSERT INTO seat_practice (owner, list, saved) VALUES (?, ?, ?) "
                   "ON CONFLICT (owner) DO UPDATE SET list = excluded.list, "
                   "saved = excluded.saved")
SELECT_PRACTICE = "SELECT list, saved FROM seat_practice WHERE owner = ?"
DELETE_OLD_PRACTICE = "DELETE FROM seat_practice WHERE saved < ?"


def append_params(code: str, number: int, move: str, previous: str, digest: str
                  ) -> tuple[object, ...]:
    """The parameters of `INSERT_MOVE_IF_HISTORY`: store `move` with `digest` as move
    `number` if the history so far has the digest `previous`."""
    fallback = previous if number == 1 else ""  # a row without digest matches nothing
    return (code, number, move, digest, code, number - 1, code, number - 1, fallback,
            previous)


def for_psycopg(sql: str) -> str:
    """`sql` with psycopg's parameter marks."""
    return sql.replace("?", "%s")
