"""The shared-table page (`widgets.classroom.SharedTable`) without a browser: pages on
one store (SQLite; one test on PostgreSQL too) play a turn each and see each other's moves
when they poll, the bots move on any page's poll, a watcher sees no hand, a reloaded page
rejoins its seat with the key, and a move out of turn, on a stale page or for someone
else's seat shows a sentence and stores nothing."""

from __future__ import annotations

import html
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from pgserver import postgres_url_fixture  # noqa: F401
from storehelpers import clients_fixture, where_fixture  # noqa: F401
from widgetfixtures import close_widgets  # noqa: F401 - no widget outlives its test

from toonerville.engine import actions as A
from toonerville.engine.errors import ToonervilleError
from toonerville.engine.events import Phase
from toonerville.engine.game import Game
from toonerville.engine.messages import set_language
from toonerville.store import Seat, TableStore, open_store
from toonerville.widgets.classroom import SharedTable
from toonerville.widgets.store_place import store_location


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "class.sqlite"


def page(db: Path) -> SharedTable:
    """A learner's page in its own kernel: its own store object on the shared file."""
    return SharedTable(open_store(db))


def moves(db: Path, code: str) -> int:
    """The number of moves stored, as a fresh client reads it."""
    return open_store(db).info(code).moves


def two_learners(db: Path, seed: int = 5) -> tuple[SharedTable, SharedTable, str]:
    """A table of 3: learners at seats 0 and 1, a bot at seat 2."""
    first, second = page(db), page(db)
    code = first.open_table(players=3, learners=2, seed=seed)
    second.code_text.value = code
    second.join_button.click()
    assert second.seat is not None and second.seat.seat == 1
    return first, second, code


def deciding(*pages: SharedTable) -> SharedTable:
    for p in pages:
        p.poll()
    [who] = [p for p in pages if p.seat is not None and p.seat.seat in p.seat.view.deciders]
    return who


def play_whole_turn(p: SharedTable, *others: SharedTable) -> str:
    """Draw from the stock and discard the last card of the hand, by clicks; the other
    learners pass when the declined discard is offered to them."""
    assert p.seat is not None
    p.draw_button.click()
    assert p.message.kind == "ok", p.message.text
    for _step in range(20):
        pass_while_offered(*others)
        p.poll()
        if p.seat.view.phase == Phase.PLAY and p.seat.view.current == p.seat.seat:
            break
    card = p.hand.cards[-1]
    p.hand.select([len(p.hand.cards) - 1])
    p.discard_button.click()
    assert p.message.kind == "ok", p.message.text
    return str(card)


def pass_while_offered(*pages: SharedTable) -> None:
    """Learners who are offered a discard pass, until the buy window closes."""
    for _step in range(10):
        for p in pages:
            p.poll()
        offered = [p for p in pages if p.seat is not None
                   and p.seat.view.phase == Phase.BUY and p.seat.seat in p.seat.view.deciders]
        if not offered:
            return
        for p in offered:
            p.pass_button.click()


def test_two_pages_play_a_turn_each_and_see_each_others_moves(db: Path) -> None:
    first, second, code = two_learners(db)
    pages = (first, second)
    played: dict[int, str] = {}
    while len(played) < 2:
        pass_while_offered(*pages)
        who = deciding(*pages)
        assert who.seat is not None
        assert who.draw_button.disabled is False
        other = second if who is first else first
        played[who.seat.seat] = play_whole_turn(who, other)
        assert other.poll() is True  # the other page picks the move up
        name = f"Player {who.seat.seat}"
        assert f"{name} discards {played[who.seat.seat]}" in other.log_view.text
        assert other.seat is not None
        assert other.seat.number >= who.seat.number  # the bot may have moved since
    assert set(played) == {0, 1}
    assert moves(db, code) == first.seat.number  # type: ignore[union-attr]


def test_a_seat_shows_its_status_last_so_a_new_move_number_means_all_is_current(
        db: Path) -> None:
    """A page (or a browser test) that sees the move number change may act at once: the
    hand, the prompt and the buttons reached it before the status line."""
    first, second, _code = two_learners(db)
    who = deciding(first, second)
    other = second if who is first else first
    sent: list[str] = []
    parts = (("status", who.status, "value"), ("prompt", who.prompt, "value"),
             ("hand", who.hand.row, "children"), ("draw", who.draw_button, "disabled"),
             ("discard", who.discard_button, "disabled"))
    for name, widget, trait in parts:
        widget.observe(lambda _change, name=name: sent.append(name), trait)
    who.draw_button.click()  # a new prompt, Draw turns off (a buy window may open)
    assert who.message.kind == "ok", who.message.text
    assert {"prompt", "draw"} <= set(sent) and sent[-1] == "status", sent
    for _step in range(20):  # the window closes (by itself when the card helps nobody):
        pass_while_offered(other)  # the drawn card arrives, Discard turns on
        who.poll()
        assert who.seat is not None
        if who.seat.view.phase == Phase.PLAY:
            break
    assert {"hand", "discard"} <= set(sent) and sent[-1] == "status", sent


def test_on_sqlite_and_postgresql_a_move_reaches_the_other_page(
        clients: Callable[[], TableStore]) -> None:
    first, second = SharedTable(clients()), SharedTable(clients())
    code = first.open_table(players=3, learners=2, seed=5)
    second.join(code)
    who = deciding(first, second)
    other = second if who is first else first
    card = play_whole_turn(who, other)
    assert other.poll() is True
    assert who.seat is not None
    assert f"Player {who.seat.seat} discards {card}" in other.log_view.text
    assert clients().info(code).moves == who.seat.number


def test_each_page_shows_only_its_own_hand_and_a_watcher_none(db: Path) -> None:
    first, second, code = two_learners(db)
    watcher = page(db)
    watcher.join(code, "watch")
    store = open_store(db)
    game = Game.from_json(store.export(code))  # the truth, for the test only
    assert first.hand.held == game.hand(0) and second.hand.held == game.hand(1)
    assert watcher.hand.cards == () and watcher.hand.layout.display == "none"
    assert watcher.moves.layout.display == "none"
    assert "watching" in watcher.status.value and watcher.rejoin_key.value == ""
    assert watcher.log_view.text == first.log_view.text
    # the watcher cannot move, whatever it clicks
    watcher.draw_button.click()
    assert watcher.message.kind == "error" and "watching" in watcher.message.text
    assert moves(db, code) == 0


def test_a_reloaded_page_rejoins_its_seat_with_the_key(db: Path) -> None:
    first, second, code = two_learners(db)
    who = deciding(first, second)
    play_whole_turn(who, second if who is first else first)
    assert who.seat is not None
    key, seat, number = who.seat.secret, who.seat.seat, who.seat.number
    assert key in who.rejoin_key.value  # the learner can note it
    again = page(db)  # a reload: a new kernel, nothing kept but what the learner noted
    again.join(code, key=key)
    assert again.seat is not None and again.seat.seat == seat
    assert again.seat.number >= number
    assert "back at seat" in again.message.text
    who.poll()
    assert again.hand.cards == who.hand.cards
    # a wrong key on a taken seat is refused and claims nothing
    stranger = page(db)
    stranger.code_text.value = code
    stranger.seat_choice.value = seat
    stranger.key_text.value = "not-the-right-key"
    stranger.join_button.click()
    assert stranger.seat is None
    assert stranger.message.kind == "error" and "taken" in stranger.message.text


def test_a_move_out_of_turn_shows_why_and_changes_nothing(db: Path) -> None:
    first, second, code = two_learners(db)
    who = deciding(first, second)
    other = second if who is first else first
    before = moves(db, code)
    hand = other.hand.cards
    other.draw_button.click()  # disabled in the page, but a visitor can send the click
    assert other.message.kind == "error"
    assert "turn" in other.message.text
    assert moves(db, code) == before and other.hand.cards == hand


def test_a_stale_page_is_told_the_table_moved_on_and_shown_the_new_state(db: Path) -> None:
    first, second, code = two_learners(db)
    who = deciding(first, second)
    assert who.seat is not None
    stale_number = who.seat.number
    fresh = page(db)
    fresh.join(code, key=who.seat.secret)  # the same seat, in a second tab
    fresh.draw_button.click()
    assert fresh.message.kind == "ok", fresh.message.text
    after = moves(db, code)
    who.draw_button.click()  # the old tab still shows the turn before the draw
    assert who.message.kind == "error"
    assert "the table moved on" in who.message.text
    assert f"move {stale_number}" in who.message.text
    assert moves(db, code) == after  # nothing stored
    assert who.seat.number == after  # and the old tab now shows the new state


def test_the_bots_move_when_a_page_sees_it_is_their_turn(db: Path) -> None:
    checked = 0
    for seed in range(4):  # whoever starts, the page hands the learner a decision
        p = page(db)
        code = p.open_table(players=4, learners=1, seed=seed)
        assert p.seat is not None and p.seat.seat in p.seat.view.deciders
        assert re.sub("<[^>]+>", "", p.prompt.value).startswith("Your")  # the text read
        p.seat_view.buy_offers.value = "always"  # this learner answers every offer
        watcher = page(db)
        watcher.join(code, "watch")
        assert watcher.seat is not None and watcher.seat.number == p.seat.number
        # the learner moves from a client that runs no bots: the bots then decide
        raw = open_store(db).claim(code, 0, secret=p.seat.secret)
        raw.play(A.Draw(0) if raw.view.phase == Phase.DRAW else A.Pass(0))
        if 0 in raw.view.deciders:  # nobody could buy: still the learner's move
            continue
        checked += 1
        assert watcher.poll() is True  # a watcher's page moves the bots too
        assert watcher.seat.number > raw.number
        assert p.poll() is True and p.seat.number == watcher.seat.number
        assert p.seat.seat in p.seat.view.deciders
    assert checked > 0


def test_a_typed_rejoin_key_that_the_kit_never_made_is_refused_in_words(db: Path) -> None:
    """Issue 18.4: a key of one's own making takes no seat; the page's own key (or its
    rejoin link) gives the seat back."""
    opener = page(db)
    code = opener.open_table(players=3, learners=2, seed=9)
    p = page(db)
    p.code_text.value, p.key_text.value = code, "a-key-of-my-own-making"
    p.join_button.click()
    assert p.seat is None and p.message.kind == "error"
    assert "not a key of table" in p.message.text
    p.key_text.value = ""
    p.join(code)
    assert p.seat is not None and p.seat.seat == 1
    assert "table=" in p.rejoin_key.value and "key=" in p.rejoin_key.value
    assert isinstance(p.seat, Seat)
    again = page(db)
    again.join(code, key=p.seat.secret)
    assert again.seat is not None and again.seat.seat == 1
    assert "back at seat 1" in again.message.text


def test_every_page_says_who_is_away_and_the_learner_takes_the_seat_back(db: Path) -> None:
    first, second, code = two_learners(db)
    who = deciding(first, second)
    other = second if who is first else first
    assert isinstance(who.seat, Seat)
    clock = [0.0]
    for p in (first, second):
        p.store.clock = lambda: clock[0]
        p.store._tables.clear()  # forget when they saw the table: the fake clock's turn
        p.poll()
    clock[0] += 61  # past the default limit
    other.poll()
    assert who.seat.seat in other.store.away(code)
    assert "is away: a bot plays for" in other.away_note.value
    who.poll()
    assert "You were away" in who.away_note.value
    assert who.back_button.layout.display != "none"
    who.back_button.click()
    assert who.message.kind == "ok", who.message.text
    assert who.seat.seat not in who.store.away(code)
    assert who.back_button.layout.display == "none"


def test_a_closed_tab_is_noticed_while_the_table_waits_on_someone_else(db: Path) -> None:
    """Each page beats as it polls; when one learner's page has been quiet for the away
    limit, the other pages say so although it is not that learner's turn, and the seat
    is back as soon as the page polls again (issue 17 §3)."""
    first, second, code = two_learners(db)
    who = deciding(first, second)
    closed = second if who is first else first
    assert isinstance(closed.seat, Seat)
    wall = [1000.0]
    for p in (first, second):
        p.store.wall_clock = lambda: wall[0]
        p.store._beats.clear()  # forget the beats on the real clock: the fake one's turn
        p.store._looked.clear()
        p.poll()  # both pages are open: both beat
    wall[0] += 61  # past the default limit; the closed tab's page polls no more
    who.poll()
    assert closed.seat.seat in who.store.away(code)
    name = who.seat.view.names[closed.seat.seat] if who.seat else ""
    assert f"{name} is away: a bot plays for {name}" in who.away_note.value
    closed.poll()  # the tab is open again: heard at once, the seat is back
    assert closed.seat.seat not in closed.store.away(code)
    assert "You were away" not in closed.away_note.value
    who.poll()
    assert "is away" not in who.away_note.value


def test_a_table_that_cannot_be_read_stops_the_polling_with_a_sentence(db: Path) -> None:
    _first, second, code = two_learners(db)
    assert second.ticker.playing is True
    with sqlite3.connect(db) as raw:  # a foreign row where move 1 belongs
        raw.execute("insert into moves (code, number, move) values (?, 1, ?)",
                    (code, "2: discard R5"))
    second.ticker.value += 1  # what the page's timer does
    assert second.message.kind == "error"
    assert f"table {code}, move 1" in second.message.text
    assert second.ticker.playing is False


def test_a_bad_code_is_explained(db: Path) -> None:
    p = page(db)
    p.code_text.value = "zz"
    p.join_button.click()
    assert p.seat is None and "is not a table code" in p.message.text
    p.code_text.value = "ABCDEF"
    p.join_button.click()
    assert p.seat is None and "there is no table ABCDEF" in p.message.text


def test_the_store_location_comes_from_the_environment(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TOONERVILLE_STORE", str(tmp_path / "x.sqlite"))
    assert store_location() == str(tmp_path / "x.sqlite")
    assert store_location("postgresql://h/db") == "postgresql://h/db"
    monkeypatch.delenv("TOONERVILLE_STORE")
    monkeypatch.setattr("toonerville.widgets.store_place.DEFAULT_STORE",
                        tmp_path / "home" / "tables.sqlite")
    assert store_location() == str(tmp_path / "home" / "tables.sqlite")
    assert (tmp_path / "home").is_dir()
    assert isinstance(SharedTable(where=tmp_path / "y.sqlite").store, TableStore)


def test_learners_name_themselves_and_every_page_shows_the_names(db: Path) -> None:
    first, second = page(db), page(db)
    first.name_text.value = "Ann"
    code = first.open_table(players=3, learners=2, seed=5)
    second.name_text.value = "<i>Bo</i>"  # a name is text, never markup
    second.join(code)
    assert first.seat is not None and second.seat is not None
    assert "you are <i>" not in second.status.value
    assert "you are &lt;i&gt;Bo&lt;/i&gt;, seat 1" in second.status.value
    first.poll()
    assert "Ann (you)" in first.score_sheet.value
    assert "&lt;i&gt;Bo&lt;/i&gt;" in first.score_sheet.value
    who = deciding(first, second)
    other = second if who is first else first
    card = play_whole_turn(who, other)
    other.poll()
    mover = "Ann" if who is first else "<i>Bo</i>"
    assert f"{mover} discards {card}" in other.log_view.text


def test_every_text_box_caps_its_input_and_says_so(db: Path) -> None:
    p = page(db)
    for box in (p.name_text, p.code_text, p.key_text):
        box.value = "Q" * 100_000
        assert 0 < len(box.value) <= 80
        assert p.message.kind == "error" and "at most" in p.message.text
    p.name_text.value = "\x1b[31m"
    p.open_button.click()
    assert p.seat is None and "control characters" in p.message.text


def test_the_opener_gives_a_gone_learners_seat_to_a_new_learner_or_a_bot(db: Path) -> None:
    opener, second, code = two_learners(db)
    assert opener.give_row.layout.display != "none"  # the opener's page only
    assert second.give_row.layout.display == "none"
    with pytest.raises(ToonervilleError, match="opened table"):
        second.give_seat(1, "")
    key = opener.give_seat(1, "")
    assert key is not None and key in opener.message.text and "table=" in opener.message.text
    newcomer = page(db)
    newcomer.join(code, key=key)
    assert newcomer.seat is not None and newcomer.seat.seat == 1
    second.poll()
    assert opener.give_seat(1, "heuristic") is None
    assert opener.store.info(code).bots.get(1) == "heuristic"


def test_a_seat_given_to_a_bot_tells_its_old_holder_at_once_and_leaves_them_watching(
        db: Path) -> None:
    """Issue 26 §2: the old holder learns it in words on their next poll, not from "not
    now" on a key; their page stops saying "(you)" and shows no hand."""
    opener, second, code = two_learners(db)
    assert "(you)" in second.seat_view.others.value or "seat 1" in second.status.value
    opener.give_seat(1, "heuristic")
    second.poll()
    assert second.message.kind == "error"
    assert "gave your seat 1 to a bot" in second.message.text, second.message.text
    assert not isinstance(second.seat, Seat)  # a watcher now
    assert "(you)" not in second.seat_view.others.value
    assert "watching" in second.status.value and second.hand.cards == ()
    assert second.rejoin_key.value == ""


def test_a_seat_given_to_a_new_learner_tells_its_old_holder(db: Path) -> None:
    opener, second, code = two_learners(db)
    later = second.store.wall_clock
    second.store.wall_clock = lambda: later() + 5  # the next heartbeat is due at once
    assert opener.give_seat(1, "") is not None
    second.poll()
    assert "gave your seat 1 to another learner" in second.message.text, \
        second.message.text
    assert not isinstance(second.seat, Seat)


def test_a_learner_with_the_openers_link_types_a_name_and_is_greeted_by_it(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The link for a new learner does not greet them "you are back", nor name them after
    the bot that held the seat: it waits for their name, then greets them by it."""
    opener, _second, code = two_learners(db)
    opener.give_seat(1, "heuristic")  # a bot, Crow, plays seat 1 for a while
    key = opener.give_seat(1, "")
    assert key is not None
    link = re.search(r"\?\S*new=1\S*", opener.message.text)
    assert link is not None and f"key={key}" in link.group(0), opener.message.text
    monkeypatch.setenv("QUERY_STRING", link.group(0)[1:])
    newcomer = page(db)
    assert newcomer.seat is None  # waits for a name
    assert newcomer.code_text.value == code and newcomer.key_text.value == key
    assert "your name" in newcomer.message.text
    newcomer.name_text.value = "Dee"
    newcomer.join_button.click()
    assert isinstance(newcomer.seat, Seat) and newcomer.seat.seat == 1
    assert "Dee" in newcomer.message.text and "back" not in newcomer.message.text
    assert newcomer.seat.view.names[1] == "Dee"
    assert "you are Dee, seat 1" in newcomer.status.value


def test_the_rejoin_link_and_the_openers_link_keep_the_language(db: Path) -> None:
    set_language("fa")
    try:
        opener, _second, _code = two_learners(db)
        assert "lang=fa" in opener.rejoin_key.value
        opener.give_seat(1, "")
        assert "lang=fa" in opener.message.text
    finally:
        set_language("en")
    opener, _second, _code = two_learners(db)
    assert "lang=" not in opener.rejoin_key.value  # English: the page's default


def test_a_closed_tab_is_noted_at_once_with_when_a_bot_plays_for_them(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 29 §5: for 60 s after a learner's tab closed the others saw only "Waiting
    for …". The page's kernel, shutting down with its tab, says so to the table, and
    every other page says at once whose page closed and when a bot plays for them."""
    registered: list[Callable[[], None]] = []
    monkeypatch.setattr("atexit.register", lambda f, *a, **k: registered.append(f) or f)
    monkeypatch.setattr("atexit.unregister", lambda f: registered.remove(f))
    opener, second, code = two_learners(db)
    assert len(registered) == 2  # each seated page will say so as its kernel goes
    name = opener.store.names(code)[1]
    registered[-1]()  # the second page's kernel shuts down (its tab closed)
    opener.poll()
    note = html.unescape(opener.away_note.value)
    assert "page is closed: a bot plays for" in note and "unless" in note, note
    wait = opener.store.info(code).limits[0]
    assert re.search(rf"in {round(wait)} s|in {round(wait) - 1} s", note), note
    assert note.startswith(f"{name}'s page is closed") or f"· {name}'s page" in note, note
    # the learner comes back (a reload beats again): the note goes
    second.store.wall_clock = lambda: opener.store.wall_clock() + 5
    second.poll()
    opener.poll()
    assert "page is closed" not in opener.away_note.value


def test_the_page_holds_its_seat_only_through_the_seat_model(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26 §2: a shared table's page sends no move of its own to the store; its
    moves, its buy-offer setting and taking its seat back go through the seat model
    (`SharedSession.act`, `set_buy_offers`, `come_back`), which is written once."""
    from toonerville.widgets.seat_model import SharedSession
    asked: list[str] = []
    for name in ("act", "set_buy_offers", "come_back"):
        real = getattr(SharedSession, name)

        def record(self: SharedSession, *args: object, _name: str = name,
                   _real: Callable[..., object] = real) -> object:
            asked.append(_name)
            return _real(self, *args)
        monkeypatch.setattr(SharedSession, name, record)
    first, second, _code = two_learners(db)
    assert "set_buy_offers" in asked  # each page's setting, sent as it took its seat
    who = deciding(first, second)
    asked.clear()
    who.seat_view.buy_offers.value = "always"
    who.draw_button.click()
    assert who.message.kind == "ok", who.message.text
    assert "your move is on the table" in who.message.text
    assert who.come_back() is False  # not away: nothing to take back
    assert asked == ["set_buy_offers", "act", "come_back"]
