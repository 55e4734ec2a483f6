"""The shared-table store on SQLite and on a real PostgreSQL server: codes and seats,
secrets, watching, compare-and-append under races (threads and processes), dropping out
and back, corrupt and foreign rows, and the log as an ordinary save."""

from __future__ import annotations

import multiprocessing
import re
import threading
from collections.abc import Callable

import pytest
from pgserver import postgres_url_fixture  # noqa: F401
from storehelpers import (  # noqa: F401
    choose,
    clients_fixture,
    play_until_human,
    raw_count,
    raw_execute,
    where_fixture,
)

from toonerville import Game, IllegalActionError
from toonerville.engine import messages
from toonerville.store import (
    WATCHER,
    CorruptTableError,
    NoSuchTableError,
    SeatError,
    TableMovedOnError,
    TableOverError,
    TableStore,
    normalise_code,
    open_store,
)
from toonerville.store.backend import chained, first_digest
from toonerville.store.codes import ALPHABET

Clients = Callable[[], TableStore]
BOTS3 = {1: "heuristic", 2: "heuristic"}


def bot_table(store: TableStore, seed: int = 3, players: int = 3) -> str:
    """A table of bots only that plays round 1 and ends."""
    return store.open_table(players=players, seed=seed, last_round=1,
                            bots={s: "heuristic" for s in range(players)})


# -- codes and seats ---------------------------------------------------------------------
def test_a_table_code_is_short_and_unambiguous(clients: Clients) -> None:
    store = clients()
    code = store.open_table(players=3, seed=1, bots=BOTS3)
    assert re.fullmatch(f"[{ALPHABET}]{{6}}", code)
    assert not set("0O1I") & set(ALPHABET)
    assert normalise_code(f"  {code.lower()} ") == code
    assert store.info(code.lower()).names == ("Player 0", "Player 1", "Player 2")
    with pytest.raises(NoSuchTableError, match="not a table code"):
        store.info("KXR0PT")
    with pytest.raises(NoSuchTableError, match="there is no table"):
        store.info("KXRAPT" if code != "KXRAPT" else "KXRBPT")


def test_claim_gives_the_first_free_seat_and_bots_keep_theirs(clients: Clients) -> None:
    store = clients()
    code = store.open_table(players=4, seed=2, bots={1: "heuristic", 3: "random"})
    assert store.info(code).free == (0, 2)
    first, second = store.claim(code), clients().claim(code)
    assert (first.seat, second.seat) == (0, 2)
    assert first.secret != second.secret
    assert store.info(code).free == ()
    with pytest.raises(SeatError, match="no free seat"):
        clients().claim(code)
    with pytest.raises(SeatError, match="played by a bot"):
        clients().claim(code, 1)


def test_a_seat_sees_its_own_hand_and_a_watcher_sees_none(clients: Clients) -> None:
    store = clients()
    code = store.open_table(players=3, seed=4, bots={2: "heuristic"})
    ann, bob = store.claim(code, 0), clients().claim(code, 1)
    watcher = clients().watch(code)
    game = Game.from_json(store.export(code))
    assert ann.view.hand == game.hand(0) and bob.view.hand == game.hand(1)
    assert watcher.view.hand == () and watcher.view.seat == WATCHER
    assert watcher.view.taken_this_turn is None
    assert watcher.view.hand_sizes == tuple(len(game.hand(s)) for s in range(3))
    assert watcher.view.discard_top == game.view(0).discard_top


# -- who may move ------------------------------------------------------------------------
def test_nobody_acts_for_a_seat_someone_else_holds(where: str, clients: Clients) -> None:
    store = clients()
    code = store.open_table(players=3, seed=5, bots={2: "heuristic"})
    ann, bob = store.claim(code, 0), clients().claim(code, 1)
    mover = play_until_human(store, code, [ann, bob])
    assert mover is not None
    other = bob if mover is ann else ann
    move = choose(mover)
    before = raw_count(where, code)
    intruder = clients()
    with pytest.raises(SeatError, match="only the page that claimed it"):
        intruder.append(code, move, expected=mover.number, secret=other.secret)
    with pytest.raises(SeatError, match="only the page that claimed it"):
        intruder.append(code, move, expected=mover.number)
    with pytest.raises(SeatError, match="is taken"):
        intruder.claim(code, mover.seat)
    with pytest.raises(SeatError, match="not a key of table"):
        intruder.claim(code, mover.seat, secret="a guess of my own")
    assert raw_count(where, code) == before
    mover.play(move)
    assert raw_count(where, code) == before + 1


def test_an_unclaimed_learners_seat_cannot_be_moved(clients: Clients) -> None:
    store = clients()
    code = store.open_table(players=3, seed=6, bots={1: "heuristic", 2: "heuristic"})
    game = Game.from_json(store.export(code))
    store.play_bots(code)
    move = game.legal_actions(0)[0] if game.current == 0 else None
    with pytest.raises(SeatError, match="has not been claimed"):
        store.append(code, move or "0: draw", expected=store.info(code).moves)


def test_a_refused_move_is_the_engines_refusal_and_nothing_is_stored(
        where: str, clients: Clients) -> None:
    store = clients()
    code = store.open_table(players=3, seed=7, bots={1: "heuristic", 2: "heuristic"})
    me = store.claim(code, 0)
    assert play_until_human(store, code, [me]) is me
    number = me.number
    hand = set(me.view.hand)
    absent = next(f"{c}{n}" for c in "RYGB" for n in range(1, 15)
                  if all(str(h) != f"{c}{n}" for h in hand))
    with pytest.raises(IllegalActionError):
        me.play(f"0: discard {absent}")
    assert raw_count(where, code) == number == me.number


# -- races -------------------------------------------------------------------------------
def test_racing_clients_store_each_move_once(where: str, clients: Clients) -> None:
    """Four clients (threads, one store each) all drive the same bots' table: each move
    number is won by exactly one of them, none is lost, and the log replays."""
    code = bot_table(clients(), seed=11)
    stores = [clients() for _ in range(4)]
    made = [0] * 4
    start = threading.Barrier(4)

    def run(k: int) -> None:
        start.wait()
        made[k] = stores[k].play_bots(code)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    rows = raw_count(where, code)
    assert sum(made) == rows > 0
    assert all(s.finished(code) for s in stores)
    saved = Game.from_json(clients().export(code))
    alone = Game.from_json(open_store(where).export(code))
    assert saved.actions == alone.actions and len(saved.actions) == rows
    assert [n for n, _ in clients().moves_since(code)] == list(range(1, rows + 1))


def test_two_clicks_at_once_one_wins_the_other_hears_the_table_moved_on(
        clients: Clients) -> None:
    """The same learner in two tabs sends two different moves for the same state, many
    times over: exactly one is stored each time and the other is told."""
    first = clients()
    code = first.open_table(players=3, seed=12, bots={1: "heuristic", 2: "heuristic"},
                            last_round=1)
    tabs = [first.claim(code, 0)]
    tabs.append(clients().claim(code, secret=tabs[0].secret))
    races = 0
    while races < 6:
        mover = play_until_human(first, code, [tabs[0]])
        if mover is None:
            break
        tabs[1].refresh()
        options = [a.notation() for a in tabs[0].legal_actions()]
        if len(options) < 2:
            tabs[0].play(options[0])
            continue
        outcome: list[object] = [None, None]
        gate = threading.Barrier(2)

        def click(k: int, move: str, gate: threading.Barrier = gate,
                  outcome: list[object] = outcome) -> None:
            gate.wait()
            try:
                outcome[k] = tabs[k].play(move)
            except TableMovedOnError as err:
                outcome[k] = err

        threads = [threading.Thread(target=click, args=(k, options[k])) for k in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        won = [o for o in outcome if isinstance(o, int)]
        lost = [o for o in outcome if isinstance(o, TableMovedOnError)]
        assert len(won) == 1 and len(lost) == 1, outcome
        assert "the table moved on" in str(lost[0])
        assert lost[0].number >= won[0]
        assert tabs[0].number == tabs[1].number
        races += 1
    assert races >= 3


def test_a_stale_page_is_told_the_table_moved_on_and_gets_the_new_state(
        clients: Clients) -> None:
    store = clients()
    code = store.open_table(players=3, seed=13, bots={2: "heuristic"})
    ann = store.claim(code, 0)
    bob_page = clients()
    bob = bob_page.claim(code, 1)
    mover = play_until_human(store, code, [ann, bob])
    assert mover is not None
    stale = mover.number
    mover.play(choose(mover))
    watcher = clients().watch(code)
    with pytest.raises(TableMovedOnError, match="the table moved on") as info:
        bob_page.append(code, "1: draw", expected=stale, secret=bob.secret)
    assert info.value.number == watcher.number == stale + 1
    assert bob.refresh() and bob.number == stale + 1


def test_compare_and_append_lets_exactly_one_writer_have_each_number(
        where: str, clients: Clients) -> None:
    """The database primitive itself: eight connections append move k onto the same
    history at the same moment, for k = 1..5; each time exactly one is stored."""
    code = bot_table(clients(), seed=21)
    backends = [clients().backend for _ in range(8)]
    header = backends[0].table(code)
    assert header is not None
    history = first_digest(code, header.start)
    for k in range(1, 6):
        results: list[bool] = [False] * 8
        gate = threading.Barrier(8)

        def write(i: int, k: int = k, gate: threading.Barrier = gate,
                  results: list[bool] = results, history: str = history) -> None:
            gate.wait()
            results[i] = backends[i].append(code, k, f"{i}: writer", history)

        threads = [threading.Thread(target=write, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert results.count(True) == 1
        assert raw_count(where, code) == k
        history = chained(history, f"{results.index(True)}: writer")
    assert not backends[0].append(code, 7, "0: a gap", history)  # the number is checked too
    assert raw_count(where, code) == 5


def _drive_bots(where: str, code: str, out: multiprocessing.Queue[int]) -> None:
    store = open_store(where)
    out.put(store.play_bots(code))
    store.close()


def test_racing_processes_store_each_move_once(where: str, clients: Clients) -> None:
    code = bot_table(clients(), seed=14)
    ctx = multiprocessing.get_context("spawn")
    out: multiprocessing.Queue[int] = ctx.Queue()
    procs = [ctx.Process(target=_drive_bots, args=(where, code, out)) for _ in range(3)]
    for p in procs:
        p.start()
    made = [out.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    assert sum(made) == raw_count(where, code)
    assert Game.from_json(clients().export(code)).records[0].round_number == 1


# -- dropping out and back -----------------------------------------------------------------
def test_a_learner_who_reloads_rejoins_the_same_seat_where_the_game_was(
        clients: Clients) -> None:
    store = clients()
    code = store.open_table(players=4, seed=15, bots={1: "heuristic", 3: "heuristic"})
    me = store.claim(code, 2)
    mover = play_until_human(store, code, [me])
    assert mover is me
    me.play(choose(me))
    store.close()  # the kernel is culled
    again = clients().claim(code.lower(), secret=me.secret)
    assert again.seat == 2 and again.number == me.number
    assert again.view.hand == me.view.hand
    assert clients().claim(code, 2, secret=me.secret).seat == 2
    with pytest.raises(SeatError, match="already holds seat 2"):
        clients().claim(code, 0, secret=me.secret)  # seat 0 is free, but not for this page
    assert clients().info(code).free == (0,)


def test_a_seat_key_is_made_by_the_kit_and_a_typed_one_is_refused_in_words(
        where: str, clients: Clients) -> None:
    """Issue 18.4: a key a learner types up ("password") claims nothing and says what
    is wrong; only the key the kit made gives the seat (again, on another page)."""
    store = clients()
    code = store.open_table(players=3, seed=16, bots=BOTS3)
    for typed in ("short", "password", "my page's own long secret"):
        with pytest.raises(SeatError, match="not a key of table"):
            store.claim(code, secret=typed)
    assert clients().info(code).free == (0,)  # nothing was claimed
    me = store.claim(code)
    assert len(me.secret) >= 20
    assert clients().claim(code, secret=me.secret).seat == me.seat == 0
    with pytest.raises(SeatError, match="not a key of table"):
        clients().claim(code, secret=me.secret[:-1])


def test_claiming_a_seat_that_is_not_a_number_leaves_no_row(where: str,
                                                            clients: Clients) -> None:
    store = clients()
    code = store.open_table(players=3, seed=16, bots={2: "heuristic"})
    for seat in (True, "1", 1.0, 7, -1):
        with pytest.raises(SeatError, match="no seat"):
            store.claim(code, seat)  # type: ignore[arg-type]
    assert store.backend.claims(code) == {}
    assert clients().info(code).free == (0, 1)


# -- the log -------------------------------------------------------------------------------
def test_polling_sees_a_move_at_once_and_only_new_moves(clients: Clients) -> None:
    store = clients()
    code = store.open_table(players=3, seed=17, bots={1: "heuristic", 2: "heuristic"})
    me = store.claim(code, 0)
    other = clients()
    watcher = other.watch(code)
    assert play_until_human(store, code, [me]) is me
    seen = watcher.number
    assert watcher.refresh() == (me.number != seen)
    before = me.number
    me.play(choose(me))
    assert watcher.refresh() and watcher.number == before + 1
    assert not watcher.refresh()
    new = other.moves_since(code, before)
    assert len(new) == 1 and new[0][0] == before + 1
    assert new[0][1].startswith("0: ")


def test_the_log_is_an_ordinary_save(clients: Clients) -> None:
    store = clients()
    code = bot_table(store, seed=18)
    store.play_bots(code)
    saved = Game.from_json(clients().export(code))
    assert [a.notation() for a in saved.actions] == [m for _, m in store.moves_since(code)]
    assert saved.records and saved.records[0].round_number == 1
    with pytest.raises(TableOverError):
        store.append(code, "0: draw", expected=len(saved.actions))


# -- damaged and foreign rows --------------------------------------------------------------
@pytest.mark.parametrize(("row", "why"), [
    ("0: dance", "refused when replayed"),
    ("this is not a move", "refused when replayed"),
    ("2: discard R99", "refused when replayed"),
    (None, "is missing"),
])
def test_a_corrupt_row_is_refused_on_read_and_nothing_is_lost(
        where: str, clients: Clients, row: str | None, why: str) -> None:
    store = clients()
    code = store.open_table(players=3, seed=19, bots={1: "heuristic", 2: "heuristic"})
    me = store.claim(code, 0)
    play_until_human(store, code, [me])
    me.play(choose(me))
    good = me.number
    if row is None:  # a gap: move good + 1 is missing
        raw_execute(where, "INSERT INTO moves (code, number, move) VALUES (?, ?, ?)",
                    (code, good + 2, "1: draw"))
    else:
        raw_execute(where, "INSERT INTO moves (code, number, move) VALUES (?, ?, ?)",
                    (code, good + 1, row))
    for reader in (clients(), store):
        with pytest.raises(CorruptTableError) as info:
            reader.export(code)
        err = info.value
        assert err.code == code and err.move_number == good + 1
        assert f"table {code}, move {good + 1}" in str(err) and why in str(err)
        assert err.game is not None and len(err.game.actions) == good
        messages.set_language("de")  # the whole sentence follows the language shown in
        try:
            german = str(err)
        finally:
            messages.set_language("en")
        assert f"Tisch {code}, Zug {good + 1}" in german and why not in german, german
    with pytest.raises(CorruptTableError):
        me.play("0: draw")
    assert raw_count(where, code) == good + 1


def test_an_illegal_but_well_formed_row_is_refused(where: str, clients: Clients) -> None:
    store = clients()
    code = store.open_table(players=3, seed=20, bots=BOTS3)
    game = Game.from_json(store.export(code))
    wrong = (game.current + 1) % 3
    raw_execute(where, "INSERT INTO moves (code, number, move) VALUES (?, ?, ?)",
                (code, 1, f"{wrong}: draw"))
    with pytest.raises(CorruptTableError, match=f"table {code}, move 1: '{wrong}: draw'"):
        clients().watch(code)


def test_a_table_of_another_format_is_refused_and_left_alone(
        where: str, clients: Clients) -> None:
    clients()  # the schema
    raw_execute(where, "INSERT INTO tables (code, format, start, setup) VALUES (?, ?, ?, ?)",
                ("FRGNAB", "someone-elses-game/3", "{}", "{}"))
    with pytest.raises(CorruptTableError, match="another format") as info:
        clients().claim("FRGNAB")
    assert info.value.code == "FRGNAB" and info.value.move_number is None
    raw_execute(where, "INSERT INTO tables (code, format, start, setup) VALUES (?, ?, ?, ?)",
                ("FRGNAC", "toonerville-table/1", '{"format": "chess"}', "{}"))
    with pytest.raises(CorruptTableError, match="header is damaged"):
        clients().watch("FRGNAC")
