"""The store against what nobody should send it (issue 18): rows written behind its back,
a new SQLite file opened by many processes at once, a PostgreSQL restart under an open
store. Each is refused with the store's own error, or survived, on SQLite and PostgreSQL
where both apply."""

from __future__ import annotations

import json
import multiprocessing
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from pgserver import postgres_url_fixture, restart_server  # noqa: F401
from storehelpers import (  # noqa: F401
    choose,
    clients_fixture,
    play_until_human,
    raw_count,
    raw_execute,
    where_fixture,
)

from toonerville.store import (
    Backend,
    CorruptTableError,
    RetryingBackend,
    Seat,
    SQLiteBackend,
    StoreUnavailableError,
    TableStore,
    TournamentDesk,
    open_store,
    retrying,
)
from toonerville.store import sqlite as sqlite_backend

Clients = Callable[[], TableStore]
BOTS = {1: "heuristic", 2: "heuristic"}
DEEP_LIST = "[" * 3000 + "]" * 3000
DEEP_OBJECT = '{"a": ' * 3000 + "1" + "}" * 3000


# -- rows written behind the store's back ----------------------------------------------------
@pytest.mark.parametrize("deep", [DEEP_LIST, DEEP_OBJECT])
def test_a_table_setup_nested_3000_deep_is_the_stores_refusal(
        where: str, clients: Clients, deep: str) -> None:
    code = clients().open_table(players=3, seed=1, bots=BOTS)
    raw_execute(where, "UPDATE tables SET setup = ? WHERE code = ?", (deep, code))
    with pytest.raises(CorruptTableError, match="its column 'setup' nests lists and "
                       "objects more than 32 deep") as info:
        clients().watch(code)
    assert info.value.code == code


@pytest.mark.parametrize("deep", [DEEP_LIST, DEEP_OBJECT])
def test_a_tournament_state_nested_3000_deep_is_the_stores_refusal(
        where: str, clients: Clients, deep: str) -> None:
    code, key = TournamentDesk(clients()).open(["Ann", "Bob", "Cat"])
    raw_execute(where, "UPDATE tournaments SET state = ? WHERE code = ?", (deep, code))
    desk = TournamentDesk(clients())
    for ask in (lambda: desk.get(code), lambda: desk.start(code, key),
                lambda: desk.sheet(code)):
        with pytest.raises(CorruptTableError, match=f"tournament {code} cannot be read "
                           "\\(its column 'state' nests"):
            ask()


def test_a_tournament_state_of_wrong_values_is_the_stores_refusal(
        where: str, clients: Clients) -> None:
    code, key = TournamentDesk(clients()).open(["Ann", "Bob", "Cat"])
    state = json.loads(clients().backend.tournament(code).state)  # type: ignore[union-attr]
    for wrong in ({"rounds": "eleven"}, {"names": [1, 2, 3]}, {"bots": {"Zed": 1}},
                  {"rules": {"extra_melds": [1]}}, {"tables": 7}):
        raw_execute(where, "UPDATE tournaments SET state = ? WHERE code = ?",
                    (json.dumps({**state, **wrong}), code))
        with pytest.raises(CorruptTableError, match=f"tournament {code} cannot be read"):
            TournamentDesk(clients()).get(code)


@pytest.mark.parametrize(("sql", "params", "words"), [
    ("INSERT INTO seat_names (code, seat, name) VALUES (?, ?, ?)", ("{code}", "one", "Zed"),
     "its column 'seat' holds 'one', where a whole number belongs"),
    ("INSERT INTO seat_names (code, seat, name) VALUES (?, ?, ?)", ("{code}", 1, b"\x00"),
     "its column 'name' holds b'\\\\x00', where a text belongs"),
    ("INSERT INTO claims (scope, slot, secret) VALUES (?, ?, ?)", ("{code}", "2", b"\x01"),
     "its column 'secret' holds b'\\\\x01', where a text belongs"),
])
def test_sqlite_rows_of_wrong_types_are_the_stores_refusal(
        tmp_path: Path, sql: str, params: tuple[object, ...], words: str) -> None:
    """SQLite keeps a value of another type in a column where it cannot convert it (a
    word in a number's column, bytes anywhere); PostgreSQL refuses them itself."""
    where = str(tmp_path / "t.sqlite")
    store = open_store(where)
    code = store.open_table(players=3, seed=1, bots={1: "heuristic"})
    raw_execute(where, sql, tuple(code if p == "{code}" else p for p in params))
    with pytest.raises(CorruptTableError, match=words):
        reader = open_store(where)
        reader.info(code)
        reader.names(code)
        reader.claim(code)


def test_sqlite_a_tournament_version_that_is_no_number_is_the_stores_refusal(
        tmp_path: Path) -> None:
    where = str(tmp_path / "t.sqlite")
    code, key = TournamentDesk(open_store(where)).open(["Ann", "Bob", "Cat"])
    raw_execute(where, "UPDATE tournaments SET version = ? WHERE code = ?", ("x", code))
    with pytest.raises(CorruptTableError, match="its column 'version' holds 'x', where a "
                       "whole number belongs"):
        TournamentDesk(open_store(where)).start(code, key)


# -- a new SQLite file opened by many processes at once ----------------------------------
def _open_many(folder: str, files: int, barrier: object, failures: object) -> None:
    for k in range(files):
        barrier.wait()  # type: ignore[attr-defined]
        try:
            open_store(str(Path(folder) / f"s{k}.sqlite")).close()
        except Exception as err:  # noqa: BLE001 - what a page would have shown
            failures.put(f"{type(err).__name__}: {err}")  # type: ignore[attr-defined]


def test_eight_processes_opening_a_new_sqlite_store_at_once_never_see_it_locked(
        tmp_path: Path) -> None:
    """8 processes, released together, open each of 80 new files (640 openings; before,
    about 1 in 100 answered "database is locked")."""
    ctx = multiprocessing.get_context("fork")
    barrier, failures = ctx.Barrier(8), ctx.Queue()
    procs = [ctx.Process(target=_open_many, args=(str(tmp_path), 80, barrier, failures))
             for _ in range(8)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=300)
    assert all(p.exitcode == 0 for p in procs)
    seen = []
    while not failures.empty():
        seen.append(failures.get())
    assert seen == []
    for k in range(80):
        con = sqlite3.connect(tmp_path / f"s{k}.sqlite")
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert {r[0] for r in con.execute("SELECT name FROM sqlite_master")} >= {
            "tables", "moves", "claims", "tournaments", "seat_names"}
        con.close()


# -- a PostgreSQL restart ------------------------------------------------------------------
def test_a_postgres_restart_under_an_open_store_is_survived(postgres_url: str) -> None:
    store = open_store(postgres_url)
    try:
        code = store.open_table(players=3, seed=5, bots=BOTS)
        me = store.claim(code, 0)
        play_until_human(store, code, [me])
        before = raw_count(postgres_url, code)
        restart_server(postgres_url)
        assert store.info(code).code == code  # a read after the restart: reconnected
        me.play(choose(me))  # and a write: stored once
        assert raw_count(postgres_url, code) == before + 1
        restart_server(postgres_url)
        play_until_human(store, code, [me])  # the bots' moves: writes after a restart
        number = me.number
        me.play(choose(me))
        assert me.number > number
        assert len(store.moves_since(code)) == raw_count(postgres_url, code)
    finally:
        store.close()


# -- a database that does not answer for a moment (issue 27) ---------------------------------
def _hold_write_lock(path: str, seconds: float) -> threading.Thread:
    """Another program holds the SQLite file's write lock for `seconds` (from now)."""
    con = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    con.execute("BEGIN IMMEDIATE")

    def release() -> None:
        time.sleep(seconds)
        con.execute("ROLLBACK")
        con.close()

    holder = threading.Thread(target=release)
    holder.start()
    return holder


def _learner_to_move(where: str) -> tuple[TableStore, str, Seat]:
    store = open_store(where)
    code = store.open_table(players=3, seed=5, bots=BOTS)
    me = store.claim(code, 0)
    assert play_until_human(store, code, [me]) is me
    return store, code, me


def test_a_move_sent_while_sqlite_is_locked_past_its_timeout_is_stored_once_it_is_free(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before issue 27, "database is locked" (sqlite3.OperationalError) reached the page."""
    monkeypatch.setattr(sqlite_backend, "BUSY_TIMEOUT_S", 0.1)
    where = str(tmp_path / "t.sqlite")
    store, code, me = _learner_to_move(where)
    before = raw_count(where, code)
    holder = _hold_write_lock(where, 1.0)
    try:
        me.play(choose(me))
    finally:
        holder.join()
    assert raw_count(where, code) == before + 1 == me.number


def test_a_database_that_does_not_answer_is_the_stores_refusal_in_words(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sqlite_backend, "BUSY_TIMEOUT_S", 0.1)
    monkeypatch.setattr(retrying, "PATIENCE_S", 0.5)
    where = str(tmp_path / "t.sqlite")
    store, code, me = _learner_to_move(where)
    before = raw_count(where, code)
    move = choose(me)
    holder = _hold_write_lock(where, 3.0)
    try:
        with pytest.raises(StoreUnavailableError, match="the database of the shared tables "
                           "did not answer for 0.5 s \\('database is locked'\\): look at "
                           "the table again"):
            me.play(move)
    finally:
        holder.join()
    assert raw_count(where, code) == before
    me.play(move)  # free again: the same move is stored
    assert raw_count(where, code) == before + 1


class _Flaky:
    """A real backend whose calls fail the way a database does: `before[name]` times
    before the call reaches the database, `after[name]` times after it did (the answer
    lost), with `error`."""

    def __init__(self, inner: Backend, error: Exception) -> None:
        self.inner, self.error = inner, error
        self.before: dict[str, int] = {}
        self.after: dict[str, int] = {}

    def __getattr__(self, name: str) -> object:
        work = getattr(self.inner, name)
        if not callable(work) or name == "transient":
            return work

        def call(*args: object) -> object:
            if self.before.get(name, 0) > 0:
                self.before[name] -= 1
                raise self.error
            result = work(*args)
            if self.after.get(name, 0) > 0:
                self.after[name] -= 1
                raise self.error
            return result

        return call


def _flaky_store(where: str, error: Exception) -> tuple[TableStore, _Flaky, list[float]]:
    flaky = _Flaky(SQLiteBackend(where), error)
    pauses: list[float] = []
    backend = RetryingBackend(flaky, sleep=pauses.append)  # type: ignore[arg-type]
    return TableStore(backend), flaky, pauses


def test_a_move_whose_answer_was_lost_is_stored_once_and_reported_stored(
        tmp_path: Path) -> None:
    where = str(tmp_path / "t.sqlite")
    store, flaky, pauses = _flaky_store(where, sqlite3.OperationalError("database is locked"))
    code = store.open_table(players=3, seed=5, bots=BOTS)
    me = store.claim(code, 0)
    assert play_until_human(store, code, [me]) is me
    before = raw_count(where, code)
    flaky.before = {"history_from": 2, "append": 1}  # not sent, twice and once
    flaky.after = {"append": 1}  # then stored, but the answer lost
    assert me.play(choose(me)) == before + 1
    assert raw_count(where, code) == before + 1
    assert len(pauses) == 4 and pauses[1] == 2 * pauses[0]  # a call's pauses grow
    flaky.after = {"claim": 1}  # a seat claimed, the answer lost: it is the claimer's
    other = store.open_table(players=3, seed=6, bots={1: "heuristic", 2: "heuristic"})
    assert store.claim(other).seat == 0
    assert store.info(other).free == ()


def test_a_database_error_trying_again_does_not_mend_is_the_stores_refusal(
        tmp_path: Path) -> None:
    where = str(tmp_path / "t.sqlite")
    store, flaky, pauses = _flaky_store(
        where, sqlite3.DatabaseError("database disk image is malformed"))
    code = store.open_table(players=3, seed=5, bots=BOTS)
    flaky.before = {"claims": 1}
    with pytest.raises(StoreUnavailableError, match="the database of the shared tables "
                       "failed \\('database disk image is malformed'\\)"):
        store.claim(code)
    assert pauses == []


def test_a_postgres_restart_under_load_lets_no_driver_error_out(postgres_url: str) -> None:
    """Pages polling and bots playing at four tables while the server restarts twice:
    before issue 27, psycopg.OperationalError reached them (413 in 70 s in a class)."""
    stores = [open_store(postgres_url) for _ in range(4)]
    codes = [s.open_table(players=3, seed=40 + k, last_round=1,
                          bots={p: "heuristic" for p in range(3)})
             for k, s in enumerate(stores)]
    escaped: list[BaseException] = []
    done = threading.Event()

    def load(store: TableStore, code: str) -> None:
        while not done.is_set():
            try:
                store.info(code)
                store.moves_since(code)
                store.play_bots(code, limit=3)
            except Exception as err:  # noqa: BLE001 - what a page would have met
                escaped.append(err)
                return

    threads = [threading.Thread(target=load, args=(s, c)) for s, c in zip(stores, codes,
                                                                          strict=True)]
    try:
        for t in threads:
            t.start()
        time.sleep(0.5)
        restart_server(postgres_url)
        time.sleep(0.5)
        restart_server(postgres_url)
        time.sleep(0.5)
    finally:
        done.set()
        for t in threads:
            t.join(timeout=120)
    assert escaped == []
    for store, code in zip(stores, codes, strict=True):
        assert len(store.moves_since(code)) == raw_count(postgres_url, code) > 0
        store.close()
