"""The practice lists in the stores: the solo pages' (`store.practice`, one list per page
key) and the shared tables' (`store.seat_practice`, one list per seat's key, on SQLite and
PostgreSQL); both bounded, and a record another program broke is refused, never read as
something else."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from pgserver import postgres_url_fixture  # noqa: F401
from storehelpers import clients_fixture, raw_execute, raw_rows, where_fixture  # noqa: F401

from toonerville.coach.practice import MAX_TEXT
from toonerville.store import TableStore
from toonerville.store.errors import CorruptTableError, StoreError
from toonerville.store.practice import PracticeLists
from toonerville.store.seat_practice import SeatPractice, owner
from toonerville.store.solo import KEEP_DAYS, SoloGames

KEY, OTHER = "a" * 22, "b" * 22


def test_a_list_is_kept_per_key_beside_the_solo_games(tmp_path: Path) -> None:
    path = tmp_path / "class.sqlite"
    SoloGames(path)  # the same file as the page's game
    lists = PracticeLists(path)
    assert lists.find(KEY) is None
    lists.keep(KEY, '{"one": 1}')
    lists.keep(KEY, '{"two": 2}')  # replaced
    lists.keep(OTHER, "[]")
    again = PracticeLists(path)  # another kernel
    assert again.find(KEY) == '{"two": 2}' and again.find(OTHER) == "[]"
    assert again.find("not a key") is None


def test_a_bad_key_or_a_list_too_long_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    lists = PracticeLists(tmp_path / "class.sqlite")
    with pytest.raises(StoreError):
        lists.keep("short", "[]")
    with pytest.raises(StoreError):
        lists.keep(KEY, "x" * (MAX_TEXT + 1))
    assert lists.find(KEY) is None


def test_old_lists_expire(tmp_path: Path) -> None:
    lists = PracticeLists(tmp_path / "class.sqlite")
    lists.keep(KEY, "[]", now=1_000.0)
    assert lists.find(KEY, now=1_000.0 + KEEP_DAYS * 86_400 + 1) is None
    assert lists.find(KEY, now=1_000.0 + 60) == "[]"


def test_a_broken_record_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "class.sqlite"
    lists = PracticeLists(path)
    lists.keep(KEY, "[]")
    with sqlite3.connect(path) as con:
        con.execute("UPDATE practice_lists SET list = ? WHERE key = ?", (b"not zlib", KEY))
    with pytest.raises(CorruptTableError, match="cannot be read"):
        lists.find(KEY)


# -- a shared table's seat: the list in the table's own store (SQLite or PostgreSQL) ------
def test_a_seats_list_is_kept_in_the_tables_store_for_its_key_alone(
        clients: Callable[[], TableStore], where: str) -> None:
    store = clients()
    code = store.open_table(3, bots={1: "heuristic", 2: "heuristic"}, seed=5)
    seat = store.claim(code, 0)
    lists = SeatPractice(store.backend)
    assert lists.find(code, seat.secret) is None
    lists.keep(code, seat.secret, '{"one": 1}')
    lists.keep(code, seat.secret, '{"two": 2}')  # replaced
    again = SeatPractice(clients().backend)  # another kernel, or another server
    assert again.find(code, seat.secret) == '{"two": 2}'
    assert again.find(code, "another key") is None and again.find("OTHER1", seat.secret) is None
    assert again.find(code, "") is None
    # the store keeps neither the key nor the list as the page wrote it
    rows = raw_rows(where, "SELECT owner, list FROM seat_practice WHERE owner = ?",
                    (owner(code, seat.secret),))
    assert len(rows) == 1 and seat.secret not in str(rows) and '"two"' not in str(rows)


def test_a_seats_list_too_long_is_refused_and_old_lists_go(
        clients: Callable[[], TableStore], where: str) -> None:
    lists = SeatPractice(clients().backend)
    key = f"key-{where}"
    with pytest.raises(StoreError, match="at most"):
        lists.keep("KXR4PT", key, "x" * (MAX_TEXT + 1))
    with pytest.raises(StoreError, match="seat's key"):
        lists.keep("KXR4PT", "", "[]")
    assert lists.find("KXR4PT", key) is None
    lists.keep("KXR4PT", key, "[]", now=1_000.0)
    assert lists.find("KXR4PT", key, now=1_000.0 + KEEP_DAYS * 86_400 + 1) is None
    assert lists.find("KXR4PT", key, now=1_000.0 + 60) == "[]"
    # keeping any list deletes the lists not kept again for KEEP_DAYS
    lists.keep("KXR4PT", f"other-{where}", "[]", now=1_000.0 + KEEP_DAYS * 86_400 + 1)
    assert lists.find("KXR4PT", key, now=1_000.0 + 60) is None


@pytest.mark.parametrize("packed", ["not base64 !", "bm90IHpsaWI=", b"\x78\x9c"])
def test_a_seats_broken_list_is_refused_in_words_and_left_as_it_is(
        clients: Callable[[], TableStore], where: str, packed: object) -> None:
    lists = SeatPractice(clients().backend)
    key = f"broken-{packed}-{where}"
    lists.keep("KXR4PT", key, "[]")
    if isinstance(packed, bytes) and where.startswith("postgresql://"):
        packed = packed.hex()  # PostgreSQL keeps a text column a text: not base64 either
    mine = (owner("KXR4PT", key),)
    raw_execute(where, "UPDATE seat_practice SET list = ? WHERE owner = ?", (packed, *mine))
    with pytest.raises(CorruptTableError, match="cannot be read; they are left as they are"):
        lists.find("KXR4PT", key)
    assert raw_rows(where, "SELECT list FROM seat_practice WHERE owner = ?", mine) == [(packed,)]
