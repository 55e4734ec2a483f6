"""Helpers of the store tests: the two databases as one fixture, clients, raw rows.

`where` is parametrized over an SQLite file (per test) and the session's PostgreSQL
server (`pgserver.postgres_url`); `clients()` opens one more store object on it, each
like one learner's kernel. Test modules import the fixtures as `where_fixture` and
`clients_fixture`; pytest knows them by their `name=`. `raw_execute` writes rows behind
the store's back, as a damaged or foreign program would.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from gamehelpers import never_lays_down as never_lays_down_in

from toonerville.engine import actions as A
from toonerville.players.bots import HeuristicBot
from toonerville.store import Seat, TableStore, open_store


@pytest.fixture(name="where", params=["sqlite", "postgres"])
def where_fixture(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "tables.sqlite")
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture(name="clients")
def clients_fixture(where: str) -> Iterator[Callable[[], TableStore]]:
    """`clients()` opens one more store on the test's database (closed at the end)."""
    opened: list[TableStore] = []

    def new() -> TableStore:
        store = open_store(where)
        opened.append(store)
        return store

    yield new
    for store in opened:
        store.close()


def raw_execute(where: str, sql: str, params: tuple[object, ...]) -> None:
    """Run one statement (`?` placeholders) on the database directly."""
    if where.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(where, autocommit=True) as con:
            con.execute(sql.replace("?", "%s"), params)  # type: ignore[arg-type]
        return
    con = sqlite3.connect(where)
    with con:
        con.execute(sql, params)
    con.close()


def raw_rows(where: str, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """The rows of one query (`?` placeholders), read from the database directly."""
    if where.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(where, autocommit=True) as con:
            return [tuple(r) for r in con.execute(sql.replace("?", "%s"),  # type: ignore[arg-type]
                                                  params)]
    con = sqlite3.connect(where)
    rows = [tuple(r) for r in con.execute(sql, params)]
    con.close()
    return rows


def raw_count(where: str, code: str) -> int:
    """How many move rows the database holds for a table."""
    if where.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(where, autocommit=True) as con:
            row = con.execute("SELECT COUNT(*) FROM moves WHERE code = %s", (code,)).fetchone()
            assert row is not None
            return int(row[0])
    con = sqlite3.connect(where)
    (count,) = con.execute("SELECT COUNT(*) FROM moves WHERE code = ?", (code,)).fetchone()
    con.close()
    return int(count)


def raw_tournament_codes(where: str) -> list[str]:
    """The codes of every tournament the database holds."""
    if where.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(where, autocommit=True) as con:
            return [str(r[0]) for r in con.execute("SELECT code FROM tournaments")]
    con = sqlite3.connect(where)
    codes = [str(r[0]) for r in con.execute("SELECT code FROM tournaments")]
    con.close()
    return codes


def choose(seat: Seat, seed: int = 0) -> str:
    """What a sensible learner at `seat` would play now (a heuristic bot's choice)."""
    rules = seat.store._caught_up(seat.code).game.rules
    action = HeuristicBot().choose(seat.view, rules, seat.legal_actions,
                                   random.Random(f"{seed}:{seat.number}"))
    return action.notation()


def never_lays_down(seat: Seat) -> A.Action:
    """`gamehelpers.never_lays_down` for a store's seat."""
    return never_lays_down_in(seat.legal_actions(), seat.view.hand)


def play_until_human(store: TableStore, code: str, seats: list[Seat]) -> Seat | None:
    """Let the bots move until one of `seats` must decide; that seat (None: game over)."""
    while True:
        store.play_bots(code)
        for s in seats:
            s.refresh()
            if s.finished:
                return None
            if s.seat in s.view.deciders:
                return s
