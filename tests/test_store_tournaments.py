"""Tournaments kept in the store (T22, H11), on SQLite and PostgreSQL: the teacher's key,
learners joining by name, a round played at shared tables with bots, the next round's
seating, the live master sheet, and a server restart."""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable
from typing import Any

import pytest
from pgserver import postgres_url_fixture  # noqa: F401
from storehelpers import (  # noqa: F401
    choose,
    clients_fixture,
    raw_execute,
    raw_tournament_codes,
    where_fixture,
)

from toonerville import Game, Rules, Seating
from toonerville.store import (
    SeatError,
    StoreError,
    TableStore,
    TeacherKeyError,
    TournamentDesk,
    codes,
    open_store,
)

Clients = Callable[[], TableStore]
LEARNERS = ["Ann", "Bob", "Cat"]


def play_round(desk: TournamentDesk, code: str, secrets: dict[str, str]) -> None:
    """Every learner plays (a sensible move each time) and the bots move, until every
    table of the round has finished."""
    for _ in range(5000):
        if desk.round_finished(code):
            return
        desk.play_bots(code)
        for name, secret in secrets.items():
            seat = desk.seat(code, name, secret)
            while not seat.finished and seat.seat in seat.view.deciders:
                seat.play(choose(seat))
    raise AssertionError("the round did not finish")


def test_T22_teacher_actions_need_the_teachers_key(clients: Clients) -> None:
    desk = TournamentDesk(clients())
    code, key = desk.open(LEARNERS, bots=6, seed=1, rounds=2)
    with pytest.raises(TeacherKeyError, match="teacher's key"):
        desk.start(code, "not the key at all")
    with pytest.raises(TeacherKeyError):
        desk.start(code, desk.learner_keys(code, key)["Ann"])  # a learner's is not it
    assert desk.get(code).round_number == 0
    started = desk.start(code, key)
    assert started.round_number == 1 and len(started.tables[0]) == 2  # 9 players: 5 + 4
    with pytest.raises(TeacherKeyError):
        TournamentDesk(clients()).next_round(code, "")
    with pytest.raises(StoreError, match="still being played"):
        desk.next_round(code, key)


def test_T22_the_teachers_page_comes_back_only_with_the_key(clients: Clients) -> None:
    desk = TournamentDesk(clients())
    code, key = desk.open(LEARNERS, bots=1, seed=7, rounds=2)
    again = TournamentDesk(clients())  # a reloaded teacher's page: a new kernel
    assert again.teacher(code.lower(), key) == desk.get(code)
    assert again.get(code).round_number == 0  # looking changes nothing
    for wrong in ("", key[:-1], desk.learner_keys(code, key)["Ann"], 12345):
        with pytest.raises(TeacherKeyError, match="teacher's key"):
            again.teacher(code, wrong)  # type: ignore[arg-type]
    desk.start(code, key)
    assert again.teacher(code, key).round_number == 1


def test_T22_learners_join_by_name_once_and_only_their_own_seat(clients: Clients) -> None:
    store = clients()
    desk = TournamentDesk(store)
    code, key = desk.open(LEARNERS, bots=3, seed=2, rounds=1)
    keys = desk.learner_keys(code, key)
    ann = desk.join(code, "Ann", keys["Ann"])
    assert desk.join(code, "Ann", ann) == ann  # the same page after a reload
    assert TournamentDesk(clients()).join(code, " ann ", ann) == ann  # another device
    with pytest.raises(SeatError, match="use the key"):
        TournamentDesk(clients()).join(code, "Ann")
    with pytest.raises(SeatError, match="not a learner"):
        desk.join(code, "Crow", keys["Ann"])
    bob = desk.join(code, "Bob", keys["Bob"])
    t = desk.start(code, key)
    with pytest.raises(SeatError, match="has not joined"):
        desk.seat(code, "Ann", bob)
    table = t.table_of("Ann")
    with pytest.raises(SeatError, match="belongs to tournament"):
        clients().claim(table.code)
    seat = desk.seat(code, "Ann", ann)
    assert seat.code == table.code and seat.view.names[seat.seat] == "Ann"
    assert len(seat.view.hand) == 12
    others = {"Bob": bob, "Cat": desk.join(code, "Cat", keys["Cat"])}
    for _ in range(500):
        if seat.seat in seat.view.deciders:
            break
        store.play_bots(table.code)
        for name, secret in others.items():
            if name in table.players:
                other = desk.seat(code, name, secret)
                if other.seat in other.view.deciders:
                    other.play(choose(other))
        seat.refresh()
    assert seat.seat in seat.view.deciders
    move = choose(seat)
    with pytest.raises(SeatError, match="belongs to Ann"):
        store.append(table.code, move, expected=seat.number, secret=bob)
    seat.play(move)


def test_T22_a_round_with_bots_completes_and_the_next_seating_appears(
        clients: Clients) -> None:
    desk = TournamentDesk(clients())
    code, key = desk.open(LEARNERS, bots=8, seed=3, rounds=2)  # 11: three tables
    keys = desk.learner_keys(code, key)
    secrets = {name: desk.join(code, name, keys[name]) for name in LEARNERS}
    t = desk.start(code, key)
    assert [len(x.players) for x in t.tables[0]] == [4, 4, 3]
    assert desk.next_seating(code) is None
    before = desk.sheet(code)
    assert all(r.points == (None,) for r in before)
    play_round(desk, code, secrets)
    upcoming = desk.next_seating(code)
    assert upcoming is not None and upcoming == t.seating(2)
    sheet = desk.sheet(code)
    assert all(r.points[0] is not None for r in sheet)
    assert [r.standing.total for r in sheet] == sorted(r.standing.total for r in sheet)
    for x in t.tables[0]:
        saved = Game.from_json(desk.store.export(x.code))
        assert saved.records[0].round_number == 1 and saved.names == x.players
        for name, pts in zip(x.players, saved.records[0].points, strict=True):
            assert next(r for r in sheet if r.standing.name == name).points == (pts,)
    t2 = desk.next_round(code, key)
    assert tuple(x.players for x in t2.tables[1]) == upcoming
    ann = desk.seat(code, "Ann", secrets["Ann"])
    assert ann.view.round_number == 2 and ann.code == t2.table_of("Ann", 2).code
    assert ann.view.scores[0][ann.seat] == sheet[[r.standing.name for r in sheet]
                                                 .index("Ann")].points[0]
    lines = desk.csv(code).splitlines()
    assert lines[0].startswith("place,name,total,round 1 table,round 1 points,round 2")
    assert len(lines) == 1 + 11


def test_T22_a_tournament_survives_a_server_restart(clients: Clients) -> None:
    first = clients()
    desk = TournamentDesk(first)
    code, key = desk.open(LEARNERS, bots=1, seed=4, rounds=2)
    secret = desk.join(code, "Cat", desk.learner_keys(code, key)["Cat"])
    desk.start(code, key)
    seat = desk.seat(code, "Cat", secret)
    first.close()
    again = TournamentDesk(clients())
    assert again.get(code) == desk.get(code)
    back = again.seat(code.lower(), "Cat", secret)
    assert (back.code, back.seat, back.view.hand) == (seat.code, seat.seat, seat.view.hand)
    with pytest.raises(StoreError, match="still being played"):
        again.next_round(code, key)


def test_T22_two_teacher_pages_pressing_next_round_make_one_round(clients: Clients) -> None:
    desk = TournamentDesk(clients())
    code, key = desk.open([], bots=6, seed=5, rounds=3)  # bots only
    desk.start(code, key)
    desk.play_bots(code)
    assert desk.round_finished(code)
    pages = [TournamentDesk(clients()) for _ in range(3)]
    gate = threading.Barrier(3)
    got: list[object] = [None] * 3

    def press(k: int) -> None:
        gate.wait()
        got[k] = pages[k].next_round(code, key, after=1)  # each page shows round 1

    threads = [threading.Thread(target=press, args=(k,)) for k in range(3)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    final = desk.get(code)
    assert final.round_number == 2 and all(g == final for g in got)


def test_T22_a_page_still_showing_the_last_round_gets_the_new_one(clients: Clients) -> None:
    desk = TournamentDesk(clients())
    code, key = desk.open([], bots=6, seed=5, rounds=3)
    desk.start(code, key)
    desk.play_bots(code)
    seated = desk.next_round(code, key, after=1)
    assert seated.round_number == 2
    # a second page (or a second click) that still shows round 1 makes no third round
    assert TournamentDesk(clients()).next_round(code, key, after=1) == desk.get(code)
    # asked without saying which round the page shows, round 2 is still being played
    with pytest.raises(StoreError, match="still being played"):
        desk.next_round(code, key)


def test_H11_standing_reseats_the_leaders_together_in_the_store(clients: Clients) -> None:
    desk = TournamentDesk(clients())
    code, key = desk.open([], bots=8, seed=6, rounds=2,
                          rules=Rules(seating=Seating.STANDING))
    desk.start(code, key)
    desk.play_bots(code)
    ranked = [r.standing.name for r in desk.sheet(code)]
    t = desk.next_round(code, key)
    tops = set(t.tables[1][0].players)
    assert len(tops) == 4
    totals = {r.standing.name: r.standing.total for r in desk.sheet(code)}
    assert max(totals[p] for p in tops) <= min(totals[p] for p in ranked if p not in tops)
    assert desk.over(code) is False
    desk.play_bots(code)
    assert desk.over(code)
    with pytest.raises(StoreError, match="tournament is over"):
        desk.next_round(code, key)


def test_T22_a_name_is_joined_only_with_its_own_key_and_found_as_people_write_it(
        clients: Clients) -> None:
    """Issue 18.4 and 17.5: nobody takes another learner's name first, one key holds one
    name, a typed-up key is refused in words, and "bo" (or "Ｂｏ ") finds "Bo"."""
    desk = TournamentDesk(clients())
    code, key = desk.open(["Bo", "Ann"], bots=1, seed=8, rounds=1)
    keys = desk.learner_keys(code, key)
    assert len(set(keys.values())) == 2 and TournamentDesk(clients()).learner_keys(
        code, key) == keys  # the teacher's page lists the same keys again
    with pytest.raises(SeatError, match="use the key"):
        desk.join(code, "Bo")  # the first comer without the key takes nothing
    with pytest.raises(SeatError, match="Ann's, not Bo's"):
        desk.join(code, "bo", keys["Ann"])  # one key, one name
    with pytest.raises(SeatError, match="not a key of tournament"):
        desk.join(code, "Bo", "password")
    assert desk.join(code, "bo", keys["Bo"]) == keys["Bo"]
    assert desk.join(code, "\uff22\uff4f ", keys["Bo"]) == keys["Bo"]  # full width
    assert desk.learner_name(code, "  BO ") == "Bo"
    with pytest.raises(SeatError, match="not a learner"):
        desk.join(code, "Bob", keys["Bo"])
    t = desk.start(code, key)
    seat = desk.seat(code, "bo", keys["Bo"])
    assert seat.view.names[seat.seat] == "Bo" and seat.code == t.table_of("Bo").code


def test_T22_the_same_name_twice_is_refused_when_the_tournament_opens(
        clients: Clients) -> None:
    with pytest.raises(SeatError, match="same name written twice"):
        TournamentDesk(clients()).open(["Ann", "ann "], seed=1)


def test_T22_the_teacher_gives_a_learners_seat_to_a_bot_and_only_then_it_moves(
        clients: Clients) -> None:
    store = clients()
    desk = TournamentDesk(store)
    code, key = desk.open(["Ann", "Bob"], bots=1, seed=9, rounds=1)
    keys = desk.learner_keys(code, key)
    for name in ("Ann", "Bob"):
        desk.join(code, name, keys[name])
    t = desk.start(code, key)
    with pytest.raises(SeatError, match="opened table"):
        desk.store.give_seat(t.table_of("Ann").code, 0, "heuristic", key=keys["Ann"])
    ann = desk.seat(code, "Ann", keys["Ann"])
    assert desk.give_seat(code, key, "ann", "heuristic") is None
    ann.refresh()
    assert ann.seat in ann.bots
    with pytest.raises(SeatError, match="given to someone else"):
        ann.play(f"{ann.seat}: draw")
    desk.play_bots(code)
    bob = desk.seat(code, "Bob", keys["Bob"])
    assert bob.seat in bob.view.deciders or bob.finished


def test_T22_the_teacher_replaces_a_learner_who_cannot_come_back(clients: Clients) -> None:
    desk = TournamentDesk(clients())
    code, key = desk.open(["Ann", "Bob"], bots=1, seed=10, rounds=2)
    keys = desk.learner_keys(code, key)
    desk.join(code, "Ann", keys["Ann"])
    desk.start(code, key)
    new = desk.give_seat(code, key, "Ann", None)
    assert isinstance(new, str)
    page = TournamentDesk(clients())  # the new learner's page, with the teacher's link
    assert page.join(code, "Ann", new) == new
    seat = page.seat(code, "Ann", new)
    assert seat.view.names[seat.seat] == "Ann"
    with pytest.raises(SeatError, match="given to someone else"):
        desk.store.append(seat.code, f"{seat.seat}: draw", expected=seat.number,
                          secret=keys["Ann"])


def test_T22_a_replacement_learner_keeps_the_seat_in_later_rounds_and_the_old_key_goes(
        clients: Clients) -> None:
    """Issue 29: a learner brought in by the teacher played round 1, then was locked out
    of round 2, while the departed learner's key still worked and the key list showed it."""
    desk = TournamentDesk(clients())
    code, key = desk.open(["Ann", "Bob"], bots=1, seed=10, rounds=3)
    keys = desk.learner_keys(code, key)
    desk.join(code, "Ann", keys["Ann"])
    desk.join(code, "Bob", keys["Bob"])
    desk.start(code, key)
    new = desk.give_seat(code, key, "Ann", None)
    assert isinstance(new, str) and new != keys["Ann"]
    page = TournamentDesk(clients())  # the new learner's page, from the teacher's link
    assert page.join(code, "Ann", new) == new
    play_round(desk, code, {"Ann": new, "Bob": keys["Bob"]})
    desk.next_round(code, key)
    for later in (page, TournamentDesk(clients())):  # their page, or after a reload
        seat = later.seat(code, "Ann", new)
        assert seat.view.round_number == 2 and seat.view.names[seat.seat] == "Ann"
    play_round(desk, code, {"Ann": new, "Bob": keys["Bob"]})  # and they play it
    desk.next_round(code, key)
    assert page.seat(code, "Ann", new).view.round_number == 3
    # the departed learner's key no longer holds the name, on any page
    gone = TournamentDesk(clients())
    with pytest.raises(SeatError):
        gone.join(code, "Ann", keys["Ann"])
    with pytest.raises(SeatError):
        gone.seat(code, "Ann", keys["Ann"])
    # and the teacher's list gives the learner who has the seat now
    listed = desk.learner_keys(code, key)
    assert listed["Ann"] == new and listed["Bob"] == keys["Bob"]
    again = desk.give_seat(code, key, "Ann", None)  # a second replacement, later on
    assert again not in (new, keys["Ann"]) and desk.learner_keys(code, key)["Ann"] == again
    with pytest.raises(SeatError):
        TournamentDesk(clients()).seat(code, "Ann", new)


def test_T22_the_teachers_time_limits_reach_every_table_now_and_later(
        clients: Clients) -> None:
    desk = TournamentDesk(clients())
    code, key = desk.open([], bots=6, seed=11, rounds=2)
    t = desk.start(code, key)
    with pytest.raises(TeacherKeyError):
        desk.set_limits(code, "not the key", away_after=30)
    with pytest.raises(StoreError, match="seconds"):
        desk.set_limits(code, key, away_after=1)
    assert desk.set_limits(code, key, away_after=30, buy_after=8) == (30.0, 8.0)
    assert all(desk.store.info(x.code).limits == (30.0, 8.0) for x in t.tables[0])
    desk.play_bots(code)
    t2 = desk.next_round(code, key)
    assert all(desk.store.info(x.code).limits == (30.0, 8.0) for x in t2.tables[1])


# -- opening is one transaction (issue 27) -------------------------------------------------
class _KillAfter:
    """A connection that ends the whole process (as a kill would) after `left`
    statements: the statement that would come next is never sent."""

    def __init__(self, con: Any, left: list[int]) -> None:
        self._con, self._left = con, left

    def _count(self) -> None:
        if self._left[0] <= 0:
            os._exit(7)
        self._left[0] -= 1

    def execute(self, *args: Any, **kwargs: Any) -> Any:
        self._count()
        return self._con.execute(*args, **kwargs)

    def executemany(self, *args: Any, **kwargs: Any) -> Any:
        self._count()
        return self._con.executemany(*args, **kwargs)

    def cursor(self, *args: Any, **kwargs: Any) -> Any:
        return _KillAfter(self._con.cursor(*args, **kwargs), self._left)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._con, name)


def _open_killed(where: str, statements: int) -> None:
    """A teacher's server opening a tournament, killed after `statements` statements."""
    store = open_store(where)
    backend: Any = getattr(store.backend, "inner", store.backend)
    connect, left = backend._con, [statements]
    backend._con = lambda: _KillAfter(connect(), left)
    TournamentDesk(store).open(["Ann", "Bob", "Cat", "Dan"], bots=1, seed=3, rounds=1)
    os._exit(0)


def test_T22_a_server_killed_while_a_tournament_opens_leaves_all_of_it_or_nothing(
        where: str, clients: Clients) -> None:
    """Killed after each statement in turn (before issue 27: a tournament with no keys,
    or with some keys only)."""
    clients().close()  # the schema, before any child opens the store
    earlier = set(raw_tournament_codes(where))  # other tests' (one PostgreSQL server)
    ctx = multiprocessing.get_context("fork")
    for statements in range(8):
        child = ctx.Process(target=_open_killed, args=(where, statements))
        child.start()
        child.join(timeout=120)
        assert child.exitcode in (0, 7)
    store = clients()
    opened = set(raw_tournament_codes(where)) - earlier
    assert opened  # the children not killed before the end opened theirs
    for code in opened:
        keys = store.backend.claims(f"{code}~keys")
        assert sorted(keys) == ["Ann", "Bob", "Cat", "Dan"], (code, keys)


def test_T22_a_tournament_without_keys_never_takes_a_typed_key(
        where: str, clients: Clients) -> None:
    """A tournament whose keys are missing (opened by an older kit, or killed half-way
    by one) takes no key a learner types up: its learners wait for the teacher's page,
    which stores the keys as it lists them."""
    desk = TournamentDesk(clients())
    code, key = desk.open(LEARNERS, bots=1, seed=12, rounds=1)
    raw_execute(where, "DELETE FROM claims WHERE scope = ?", (f"{code}~keys",))
    for typed in ("typed-password", None, ""):
        with pytest.raises(SeatError, match=f"tournament {code} has no key for Ann yet"):
            TournamentDesk(clients()).join(code, "Ann", typed)
    assert clients().backend.claims(code) == {}  # nobody holds a name
    keys = desk.learner_keys(code, key)  # the teacher's page lists the keys
    assert TournamentDesk(clients()).join(code, "ann", keys["Ann"]) == keys["Ann"]
    with pytest.raises(SeatError, match="not a key of tournament"):
        TournamentDesk(clients()).join(code, "Bob", "typed-password")


def test_T22_a_learner_who_joined_before_keys_keeps_the_seat_once_the_keys_are_listed(
        where: str, clients: Clients) -> None:
    """A learner who joined a tournament opened before keys (with the key the kit gave
    them then) keeps their seat after the teacher's page stores the keys."""
    desk = TournamentDesk(clients())
    code, key = desk.open(["Ann", "Bob"], bots=1, seed=13, rounds=1)
    raw_execute(where, "DELETE FROM claims WHERE scope = ?", (f"{code}~keys",))
    earlier = "the-kit-made-this-key-then"
    raw_execute(where, "INSERT INTO claims (scope, slot, secret) VALUES (?, ?, ?)",
                (code, "Ann", codes.digest(earlier)))  # Ann's join, before keys existed
    desk.start(code, key)
    assert TournamentDesk(clients()).seat(code, "Ann", earlier).seat is not None
    keys = desk.learner_keys(code, key)  # the teacher's page stores every key now
    for page in (TournamentDesk(clients()), TournamentDesk(clients())):
        assert page.seat(code, "Ann", earlier).view.names  # still Ann's
        assert page.join(code, "Ann", earlier) == earlier
    assert TournamentDesk(clients()).join(code, "Bob", keys["Bob"]) == keys["Bob"]
