"""The "Try it again" panel (issue 28, item 5): 07's review hands its costly decisions
to the practice panel, the learner answers without seeing the answer and reads the
honest cost, and the list survives a reload (the store, or the browser's storage); at a
shared table (09) the list is kept in the table's store for the seat's key, and at
pass-and-play (09) each learner at the device has a list of their own."""

from __future__ import annotations

import html
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from gamehelpers import never_lays_down as never_lays_down_in
from pgserver import postgres_url_fixture  # noqa: F401
from storehelpers import clients_fixture, never_lays_down, where_fixture  # noqa: F401
from widgetfixtures import close_widgets, no_query  # noqa: F401

from toonerville.coach.practice import dump_positions, load_positions, positions_from_review
from toonerville.coach.review import Mistake, review_round
from toonerville.engine import actions as A
from toonerville.engine.game import Game
from toonerville.engine.messages import set_language
from toonerville.players.scenarios import round_end_scenario
from toonerville.store import Seat, TableStore, open_store
from toonerville.store.practice import PracticeLists
from toonerville.store.seat_practice import SeatPractice
from toonerville.store.solo import SoloGames
from toonerville.widgets import practice_keep as K
from toonerville.widgets.classroom import SharedTable
from toonerville.widgets.passplay import PassAndPlay
from toonerville.widgets.play import PlayGame
from toonerville.widgets.practice import PracticePanel

KEY = "p" * 22
#: a small budget for the answers' figures in these tests
FEW = (4, 8)


@pytest.fixture(scope="module")
def reviewed() -> tuple[Game, tuple[Mistake, ...]]:
    """07's `?scenario=roundend` (seed 46) after its last discard, and its round's review."""
    game = round_end_scenario()
    game.apply(A.Discard(0, game.view(0).hand[0]))
    mistakes = review_round(game, 0, 1)
    assert mistakes
    return game, mistakes


class Kept:
    """A keeper in memory (what the store or the browser would keep)."""

    marker = None

    def __init__(self, text: str | None = None, fail: str | None = None) -> None:
        self.text, self.fail, self.writes = text, fail, 0

    def load(self) -> str | None:
        return self.text

    def keep(self, text: str) -> str | None:
        if self.fail:
            return self.fail
        self.text, self.writes = text, self.writes + 1
        return None


def _shown(panel: PracticePanel) -> str:
    """Everything the panel shows before an answer, as text."""
    parts = [panel.title.value, panel.board.value, panel.prompt.value, panel.result.value,
             *(b.description for b in panel.moves.children
               if b.layout.display != "none")]
    return html.unescape(re.sub(r"<[^>]+>", " ", " ".join(parts)))


def _text(value: str) -> str:
    """An HTML value as the learner reads it (tags gone)."""
    return html.unescape(re.sub(r"<[^>]+>", "", value))


def test_try_it_again_in_07_opens_the_reviewed_decision_without_its_answer() -> None:
    app = PlayGame(scenario="roundend", seed=46, keep=False)
    review = app.recap.review
    assert app._practice is None and app.practice_box.children == ()  # made when needed
    app.hand.row.children[0].button.value = True
    app.discard_button.click()  # the round ends
    review.open_button.click()
    assert review.wait(120) and review.mistakes
    assert review.try_button.layout.display != "none"
    review.try_button.click()
    panel = app.practice
    assert panel.opened and panel in app.practice_box.children
    assert panel.open_button.layout.display == "none"
    first = review.mistakes[0]
    assert panel.position is not None and panel.position.made == first.made.notation()
    text = _shown(panel)
    assert "Try it again: position 1 of" in text and f"Round 1, your turn {first.turn}" in text
    assert panel.result.value == "" and panel.answer is None
    assert str(first.better_words) not in text and "best move" not in text  # no answer
    # a seat's controls: the hand to pick from, Discard and Lay off; no draw, no buy
    shown = {b._dom_classes[-1] for b in panel.moves.children if b.layout.display != "none"}
    assert "tr-discard" in shown and not shown & {"tr-draw", "tr-take", "tr-buy", "tr-pass"}
    assert set(panel.hand.cards) == set(panel._game.view(0).hand)  # type: ignore[union-attr]
    # the card-game keys' hooks: a seat view with a prompt that names the step
    assert "tr-seat-view" in panel.body._dom_classes
    assert "tr-next-play" in panel.prompt._dom_classes
    assert all("tr-card" in c.button._dom_classes for c in panel.hand.row.children)


def test_an_answer_shows_what_it_costs_against_the_coach_s_best(
        reviewed: tuple[Game, tuple[Mistake, ...]]) -> None:
    game, mistakes = reviewed
    m = mistakes[0]
    panel = PracticePanel(price=FEW)
    panel.add(game, mistakes)
    assert isinstance(m.made, A.Discard)
    panel.hand.pick([m.made.card])
    panel.discard_button.click()  # the move made in the game, again
    answer = panel.answer
    assert answer is not None and not answer.found and answer.chosen == m.made
    result = _text(panel.result.value)
    assert f"You chose {m.made_words}; the coach's best move here is {m.better_words}." \
        in result
    assert f"{m.made_words} instead" in result and "rounds played out" in result
    assert _text(str(answer.figures())) in result
    assert panel.discard_button.disabled and panel.hand.disabled  # one answer a showing
    assert "tr-next-wait" in panel.prompt._dom_classes
    panel.go(panel.index)  # again, from the start
    assert panel.answer is None and not panel.discard_button.disabled
    if isinstance(m.better, A.LayOff):
        panel.hand.pick([m.better.card])
        panel.lay_off_button.click()
    else:
        panel.choose(m.better)
    answer = panel.answer
    assert answer is not None and answer.found
    assert f"the coach's best move here (in the game you chose {m.made_words})" in \
        _text(panel.result.value)


def test_a_missing_card_choice_says_why_and_answers_nothing(
        reviewed: tuple[Game, tuple[Mistake, ...]]) -> None:
    panel = PracticePanel(price=FEW)
    panel.add(*reviewed)
    panel.discard_button.click()  # no card selected
    assert panel.answer is None and "Select exactly one card" in panel.message.text


def test_the_list_goes_through_the_store_and_comes_back_with_the_page(
        tmp_path: Path, reviewed: tuple[Game, tuple[Mistake, ...]]) -> None:
    games = SoloGames(tmp_path / "class.sqlite")
    app = PlayGame(scenario="roundend", seed=46, keep=games, game_key=KEY)
    assert isinstance(app.practice.keeper, K.StoreKeeper)
    app.practice.add(*reviewed)
    positions = app.practice.positions
    assert positions
    del app  # the kernel dies: the store is all that is left
    again = PlayGame(seed=99, keep=SoloGames(tmp_path / "class.sqlite"), game_key=KEY)
    assert again._practice is not None  # a list kept: the panel is there, closed
    assert again.practice.positions == positions and not again.practice.opened
    assert again.practice.open_button.layout.display != "none"
    assert f"({len(positions)})" in again.practice.open_button.description
    again.practice.open_button.click()
    assert again.practice.opened and again.practice.index == 0
    other = PlayGame(seed=99, keep=games, game_key="q" * 22)  # another page's list
    assert other._practice is None and other.practice.positions == ()
    # the record itself is the list's JSON
    text = PracticeLists(tmp_path / "class.sqlite").find(KEY)
    assert load_positions(text).positions == positions


def test_on_the_static_site_the_list_goes_through_the_page_s_storage(
        reviewed: tuple[Game, tuple[Mistake, ...]], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.platform", "emscripten")
    keeper = K.keeper_for_page(None)
    assert isinstance(keeper, K.BrowserKeeper)
    keeper = K.BrowserKeeper(environ={})
    panel = PracticePanel(keeper, price=FEW)
    assert keeper.marker in panel.children and "tr-practice-store" in keeper.marker._dom_classes
    panel.add(*reviewed)
    found = re.search(r'data-practice="([^"]*)"', keeper.marker.value)
    assert found is not None
    text = html.unescape(found[1])  # what the page's script puts in localStorage
    assert load_positions(text).positions == panel.positions
    # the next page's kernel is handed it in its environment
    back = PracticePanel(K.BrowserKeeper(environ={K.ENV: text}))
    assert back.positions == panel.positions


def test_outside_voila_and_the_site_the_list_lives_in_the_kernel() -> None:
    assert K.keeper_for_page(None) is None
    assert PlayGame(seed=3, keep=False).practice.keeper is None


def test_a_broken_list_is_said_and_kept_whole(
        reviewed: tuple[Game, tuple[Mistake, ...]]) -> None:
    kept = Kept("{not a list")
    panel = PracticePanel(kept, price=FEW)
    assert panel.positions == () and "could not all be read" in panel.message.text
    assert kept.writes == 0  # nothing written over it on opening
    panel.add(*reviewed)
    assert load_positions(kept.text).unread == ("{not a list",)  # still there
    assert load_positions(kept.text).positions == panel.positions


def test_a_list_that_cannot_be_kept_says_so_and_the_practice_goes_on(
        reviewed: tuple[Game, tuple[Mistake, ...]]) -> None:
    panel = PracticePanel(Kept(fail="disk full"), price=FEW)
    panel.add(*reviewed)
    assert "cannot be kept for a reload (disk full)" in panel.message.text
    assert panel.positions and panel.position is not None


def test_next_previous_and_forget(reviewed: tuple[Game, tuple[Mistake, ...]]) -> None:
    game, mistakes = reviewed
    kept = Kept()
    panel = PracticePanel(kept, price=FEW)
    second = game.position_at(game.moves_made)  # the same review, once more: kept once
    panel.add(game, mistakes)
    panel.add(second, mistakes)
    assert len(panel.positions) == len(mistakes)
    extra = kept.text
    panel.forget_button.click()
    assert len(panel.positions) == len(mistakes) - 1 and kept.text != extra
    assert load_positions(kept.text).positions == panel.positions
    panel.previous_button.click()
    assert panel.index == 0
    if not panel.positions:
        assert "No positions to practise yet" in html.unescape(panel.title.value)
    panel.size = "large"
    assert panel.hand.size == "large" and "tv-size-large" in panel._dom_classes
    panel.close_button.click()
    assert not panel.opened
    assert dump_positions(panel.positions) == dump_positions(
        load_positions(kept.text).positions)


@pytest.mark.parametrize("lang", ["de", "hr", "su", "fa", "hi"])
def test_the_panel_speaks_every_language(lang: str,
                                         reviewed: tuple[Game, tuple[Mistake, ...]]) -> None:
    panel = PracticePanel(price=FEW)
    panel.add(*reviewed)
    english = (html.unescape(panel.title.value), html.unescape(panel.prompt.value),
               panel.forget_button.description)
    m = reviewed[1][0]
    assert isinstance(m.made, A.Discard)
    try:
        set_language(lang)
        translated = (html.unescape(panel.title.value), html.unescape(panel.prompt.value),
                      panel.forget_button.description)
        assert all(a != b for a, b in zip(english, translated, strict=True))
        panel.hand.pick([m.made.card])
        panel.discard_button.click()
        result = _text(panel.result.value)
        assert "You chose" not in result and "instead" not in result
    finally:
        set_language("en")


# -- 09: a shared table's seat keeps its list in the table's store -------------------------
def test_try_it_again_at_a_shared_table_comes_back_with_the_seat(
        clients: Callable[[], TableStore]) -> None:
    """09 (SQLite and PostgreSQL): a learner plays round 1 with two bots, reads the review,
    clicks Try it again; the list is in the table's store, and the learner's page reopened
    on another store client (a reload, another server) with the table's code and the seat's
    key shows it; a watcher and another seat have none."""
    page = SharedTable(clients())
    code = page.open_table(players=3, learners=1, seed=4)
    assert isinstance(page.seat, Seat) and page.model is not None
    for _step in range(400):
        page.poll()
        if page.seat.view.round_number > 1 or page.store.round_points(code, 1) is not None:
            break
        if 0 in page.seat.view.deciders:
            assert page.model.act(never_lays_down(page.seat)), page.message.text
    review = page.seat_view.recap.review
    review.open_button.click()
    assert review.wait(120) and review.mistakes
    assert review.try_button.layout.display != "none"
    review.try_button.click()
    panel = page.practice
    assert panel.opened and panel in page.practice_box.children
    assert len(panel.positions) == len(review.mistakes)
    secret = page.seat.secret

    again = SharedTable(clients())  # a reload, in a new kernel: the code and the key
    again.join(code, key=secret)
    assert isinstance(again.seat, Seat) and again.seat.seat == 0
    assert again._practice is not None  # shown at once: the list came with the seat
    kept = again.practice
    assert kept in again.practice_box.children
    assert [p.key for p in kept.positions] == [p.key for p in panel.positions]
    assert not kept.opened and kept.open_button.layout.display != "none"
    assert f"({len(panel.positions)})" in kept.open_button.description
    kept.open_button.click()
    assert kept.opened and "Try it again: position 1 of" in _shown(kept)
    kept.forget()  # a change is kept again for the seat
    assert len(SharedTable(clients()).practice.positions) == 0  # a page with no seat
    third = SharedTable(clients())
    third.join(code, key=secret)
    assert len(third.practice.positions) == len(panel.positions) - 1

    watcher = SharedTable(clients())
    watcher.join(code, "watch")
    assert watcher._practice is None and watcher.practice_box.children == (
        watcher.practice_note,)


def test_a_seats_list_that_cannot_be_read_is_said_and_never_written_over(
        tmp_path: Path, reviewed: tuple[Game, tuple[Mistake, ...]]) -> None:
    store = open_store(tmp_path / "tables.sqlite")
    code = store.open_table(3, bots={1: "heuristic", 2: "heuristic"}, seed=4)
    seat = store.claim(code, 0)
    SeatPractice(store.backend).keep(code, seat.secret, "[]")
    with sqlite3.connect(tmp_path / "tables.sqlite") as con:
        con.execute("UPDATE seat_practice SET list = 'broken'")
    page = SharedTable(open_store(tmp_path / "tables.sqlite"))
    page.join(code, key=seat.secret)
    assert page.practice_note.kind == "error"
    assert "practice positions kept for this seat cannot be read" in page.practice_note.text
    page.practice.add(*reviewed)  # Try it again still works in this kernel, unkept
    assert "cannot be kept for a reload" in page.practice.message.text
    with sqlite3.connect(tmp_path / "tables.sqlite") as con:
        assert con.execute("SELECT list FROM seat_practice").fetchall() == [("broken",)]


def test_a_rejoined_seat_reads_its_list_from_the_store_once(
        tmp_path: Path, reviewed: tuple[Game, tuple[Mistake, ...]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At a rejoin the page asks whether the seat has a list, then its panel loads it:
    one read of the store, not two; a change is kept and read back by the next page."""
    store = open_store(tmp_path / "tables.sqlite")
    code = store.open_table(3, bots={1: "heuristic", 2: "heuristic"}, seed=4)
    seat = store.claim(code, 0)
    game, mistakes = reviewed
    SeatPractice(store.backend).keep(
        code, seat.secret, dump_positions(positions_from_review(game, mistakes), ()))
    reads: list[str] = []
    find = SeatPractice.find
    monkeypatch.setattr(SeatPractice, "find", lambda self, code, secret, now=None: (
        reads.append(code), find(self, code, secret, now))[1])
    page = SharedTable(open_store(tmp_path / "tables.sqlite"))
    page.join(code, key=seat.secret)
    assert page._practice is not None and len(page.practice.positions) == len(mistakes)
    assert reads == [code]
    page.practice.forget()
    again = SharedTable(open_store(tmp_path / "tables.sqlite"))
    again.join(code, key=seat.secret)
    assert len(again.practice.positions) == len(mistakes) - 1 and reads == [code, code]


# -- 09, pass-and-play: each learner at the device has a list of their own -----------------
def _never_lays_down(game: Game, seat: int) -> A.Action:
    return never_lays_down_in(game.legal_actions(seat), game.hand(seat))


def _press(page: PassAndPlay, action: A.Action) -> None:
    view = page.seat_view
    if isinstance(action, A.Discard):
        view.hand.select([view.hand.cards.index(action.card)])
        view.discard_button.click()
    else:
        {A.Draw: view.draw_button, A.Pass: view.pass_button}[type(action)].click()


def _play_round_one(page: PassAndPlay) -> Game:
    game = page.game
    assert game is not None
    for _click in range(3_000):
        if game.records:
            return game
        if page.holder is None:
            assert page.practice_box.children == ()  # nothing of a learner behind the cover
            page.reveal_button.click()
            continue
        _press(page, _never_lays_down(game, page.holder))
        assert page.message.kind == "ok", page.message.text
    pytest.fail("round 1 did not end in 3,000 clicks")


def test_pass_and_play_try_it_again_is_the_device_holder_s_own_list() -> None:
    """09's pass-and-play: the learner holding the device reviews round 1 and clicks Try
    it again; the positions are that learner's (their seat, their hand), the panel is
    under the table only while they hold the device — never behind the cover, never for
    the other learner — and a new game with the same names at this screen finds it."""
    page = PassAndPlay(seed=5)
    page.players.value = 3
    for text, name in zip(page.name_texts, ["Ann", "Bo", ""], strict=False):
        text.value = name
    page.kind_choices[2].value = "heuristic"
    page.start_button.click()
    game = _play_round_one(page)
    if page.holder is None:
        page.reveal_button.click()
    me = page.holder
    assert me in (0, 1)
    review = page.seat_view.recap.review
    review.open_button.click()
    assert review.wait(120) and review.mistakes
    assert {m.seat for m in review.mistakes} == {me}
    review.try_button.click()
    panel = page.practice_of(me)
    assert page.practice_box.children == (panel,) and panel.opened
    assert len(panel.positions) == len(review.mistakes)
    assert {p.seat for p in panel.positions} == {me}
    hands = [sorted(map(str, game.position_at(m.moves).view(me).hand)) for m in review.mistakes]
    assert sorted(map(str, panel.hand.cards)) in hands  # the learner's own hand, then
    assert "tr-practice-box" in page.practice_box._dom_classes
    # the panel comes after the page's message box (the key script's "not now" goes there)
    assert page.children.index(page.practice_box) > page.children.index(page.message)

    other = 1 - me
    assert page.practice_of(other).positions == ()
    for _click in range(200):  # on until the other learner holds the device
        if page.holder == other:
            break
        if page.holder is None:
            assert page.practice_box.children == ()
            page.reveal_button.click()
            continue
        if page.holder == me:
            assert page.practice_box.children == (panel,)
        _press(page, _never_lays_down(game, page.holder))
    else:
        pytest.fail("the other learner never held the device")
    assert page.practice_box.children != (panel,)  # Bo never sees Ann's list
    for _click in range(200):  # and back to the first learner: their list again
        if page.holder == me:
            break
        if page.holder is None:
            page.reveal_button.click()
            continue
        assert page.practice_box.children != (panel,)
        _press(page, _never_lays_down(game, page.holder))
    else:
        pytest.fail("the device never came back to the first learner")
    assert page.practice_box.children == (panel,)

    page.new_button.click()  # a new game, the same learners: the list is found again
    assert page.practice_box.children == ()
    page.start_button.click()
    assert page.practice_of(me) is panel and len(panel.positions) == len(review.mistakes)
