"""A shared table's seat log one learner cannot fill, on SQLite and PostgreSQL (issue 27).

A learner's buy-offer setting (and the table's limits) is a value, replaced when it
changes, not a log entry per click: thousands of toggles leave the stored rows, and what
a poll reads, as they were, and away marks and hand-overs keep working. A log that
grows for other reasons (away and back, hand-overs) has no limit that turns them off,
and a poll reads only its newest part. Tables stored by the kit before still load."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from pgserver import postgres_url_fixture  # noqa: F401
from storehelpers import clients_fixture, where_fixture  # noqa: F401

from toonerville.store import Seat, TableStore
from toonerville.store import seats as S

Clients = Callable[[], TableStore]
TOGGLES = 6_000


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _table(clients: Clients, clock: Clock) -> tuple[TableStore, str, str, list[Seat], Seat]:
    """Three learners (Ann, Bo, Cy), an away limit of 10 s; the learner to act first."""
    store = clients()
    store.clock = clock
    code, host = store.open_hosted(3, seed=21, names=["Ann", "Bo", "Cy"], away_after=10)
    seats = []
    for _ in range(3):
        page = clients()
        page.clock = clock
        seats.append(page.claim(code))
    store.play_bots(code)
    mover = next(s for s in seats if (s.refresh() or True) and s.seat in s.view.deciders)
    return store, code, host, seats, mover


def _rows(where: str, code: str) -> int:
    """How many claim and seat-name rows the database holds for a table (its seats'
    claims, seat log, settings, names, heartbeats)."""
    like = f"{code}%"
    statements = ("SELECT COUNT(*) FROM claims WHERE scope LIKE ?",
                  "SELECT COUNT(*) FROM seat_names WHERE code LIKE ?")
    if where.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(where, autocommit=True) as con:
            return sum(int(con.execute(q.replace("?", "%s"), (like,)).fetchone()[0])
                       for q in statements)
    con = sqlite3.connect(where)
    try:
        return sum(int(con.execute(q, (like,)).fetchone()[0]) for q in statements)
    finally:
        con.close()


@contextmanager
def _rows_read(store: TableStore) -> Iterator[list[int]]:
    """Count the claim and seat-name rows `store` reads meanwhile."""
    read: list[int] = []
    backend = store.backend
    claims, seat_names = backend.claims, backend.seat_names

    def counted_claims(scope: str) -> dict[str, str]:
        out = claims(scope)
        read.append(len(out))
        return out

    def counted_names(code: str) -> dict[int, str]:
        out = seat_names(code)
        read.append(len(out))
        return out

    backend.claims = counted_claims  # type: ignore[method-assign]
    backend.seat_names = counted_names  # type: ignore[method-assign]
    try:
        yield read
    finally:
        del backend.claims, backend.seat_names


def test_thousands_of_setting_toggles_leave_away_marks_and_hand_overs_working(
        where: str, clients: Clients) -> None:
    clock = Clock()
    store, code, host, seats, mover = _table(clients, clock)
    rows_before = _rows(where, code)
    with _rows_read(store) as read:
        store.info(code)
    poll_before = sum(read)
    for k in range(TOGGLES):
        mover.set_buy_offers(("always", "never")[k % 2])
    # a setting is a value: the rows stay as they were, give or take the setting's own
    assert _rows(where, code) <= rows_before + 2
    assert store.info(code).moves >= 0 and store._caught_up(code).log.offers == {
        mover.seat: "never"}
    with _rows_read(store) as read:
        store.info(code)
    assert sum(read) <= poll_before + 2  # a poll reads what it read before the toggles
    clock.now += 11  # the mover idles on their own turn past the away limit
    store.play_bots(code)
    assert mover.seat in store.info(code).away  # before: never marked, the table waited
    other = next(s for s in seats if s.seat != mover.seat)
    key = store.give_seat(code, other.seat, None, key=host)
    assert key is not None
    newcomer = clients().claim(code, secret=key)  # before: "not a key of table …"
    assert newcomer.seat == other.seat


def test_a_learner_idle_on_their_turn_who_only_clicks_their_setting_is_marked_away(
        clients: Clients) -> None:
    """Clicking the buy-offer setting is not playing: the table's wait goes on."""
    clock = Clock()
    store, code, _host, _seats, mover = _table(clients, clock)
    for k in range(6):
        clock.now += 2
        mover.set_buy_offers(("always", "never")[k % 2])
        store.play_bots(code)  # every page polls meanwhile
    assert mover.seat in store.info(code).away  # 12 s idle, past the limit of 10


def test_a_table_whose_log_was_filled_before_works_again(where: str, clients: Clients
                                                          ) -> None:
    """A table stored by the kit before, its log filled to its old limit of 5,000
    entries by toggles: it loads, its settings are as stored, and it marks away again."""
    clock = Clock()
    store, code, _host, _seats, mover = _table(clients, clock)
    entries = [(f"{code}~seats", f"{n:06d}", f"offers {mover.seat} "
                f"{('never', 'always')[n % 2]}") for n in range(1, 5_001)]
    entries[-2] = (f"{code}~seats", "004999", "limits 10 30")  # an old limits entry
    _insert_claims(where, entries)
    page = clients()
    page.clock = clock
    log = page._caught_up(code).log
    assert log.entries == 5_000 and log.offers == {mover.seat: "never"}
    assert (log.away_after, log.buy_after) == (10.0, 30.0)
    clock.now += 11
    page.play_bots(code)
    assert mover.seat in page.info(code).away  # before: the full log refused the mark
    with _rows_read(page) as read:
        page.info(code)
    assert sum(read) < 100  # a poll no longer reads the 5,000 old entries


def test_settings_are_values_and_away_and_back_go_on(clients: Clients) -> None:
    clock = Clock()
    store, code, host, seats, mover = _table(clients, clock)
    mover.set_buy_offers("never")
    store.set_limits(code, key=host, away_after=40, buy_after=15)
    log = store._caught_up(code).log
    assert log.offers == {mover.seat: "never"} and (log.away_after, log.buy_after) == (40, 15)
    returns = 0
    for _ in range(12):  # away and back, as learners who leave and return do
        clock.now += 41  # past the away limit (and the buy limit: a buy offer passes)
        store.play_bots(code)
        for seat in seats:
            if seat.seat in store.info(code).away:
                assert seat.come_back()
                returns += 1
        assert not store.info(code).away
    assert returns >= 4


def test_a_log_longer_than_a_chunk_is_read_in_parts_and_every_client_agrees(
        monkeypatch: pytest.MonkeyPatch, clients: Clients) -> None:
    """The log is kept in chunks (`seats.CHUNK` entries each): a poll reads the newest
    chunk, and a client opening the table reads them all, in order."""
    monkeypatch.setattr(S, "CHUNK", 4)
    clock = Clock()
    store, code, host, _seats, mover = _table(clients, clock)
    kinds = ["heuristic", "random"]
    for k in range(11):  # the opener hands a seat to a bot of one kind, then another
        store.give_seat(code, (mover.seat + 1) % 3, kinds[k % 2], key=host)
    log = store._caught_up(code).log
    assert log.entries == 11 and log.bots == {(mover.seat + 1) % 3: "heuristic"}
    fresh = clients()
    assert fresh._caught_up(code).log == log
    with _rows_read(store) as read:
        store.info(code)
    assert max(read) <= 4


def _insert_claims(where: str, rows: list[tuple[str, str, str]]) -> None:
    sql = "INSERT INTO claims (scope, slot, secret) VALUES (?, ?, ?)"
    if where.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(where, autocommit=True) as con, con.cursor() as cur:
            cur.executemany(sql.replace("?", "%s"), rows)
        return
    con = sqlite3.connect(where)
    with con:
        con.executemany(sql, rows)
    con.close()
