"""The class dashboard and what the pages of a class record for it: a lesson's Try-its,
hints, reviews and pages noted best-effort (a slow or missing store never holds up the
learner's page), and the teacher's dashboard that shows it, refreshes and exports CSV."""

from __future__ import annotations

import csv
import io
import threading
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
from progresshelpers import Clock, Roster
from widgetfixtures import close_widgets, no_query  # noqa: F401

from toonerville.store import TableStore, TeacherKeyError, open_store
from toonerville.store.progress import TOTAL_TRY_ITS, ProgressStore
from toonerville.widgets import progress as page_progress
from toonerville.widgets.coach_view import CoachHint
from toonerville.widgets.dashboard import ClassDashboard
from toonerville.widgets.language import LanguagePicker
from toonerville.widgets.lessons import DealDemo, MeldChecker, RookDemo

CODE = "KXR4PT"
LEARNERS = {"k-ann": "Ann", "k-bo": "Bo"}


@pytest.fixture(name="tables")
def tables_fixture(tmp_path: Path) -> Iterator[TableStore]:
    store = open_store(tmp_path / "class.sqlite")
    yield store
    store.close()


@pytest.fixture(name="progress")
def progress_fixture(tables: TableStore) -> ProgressStore:
    return ProgressStore(tables.backend, Roster(CODE, "teach", LEARNERS), Clock())


@pytest.fixture(name="learner_page")
def learner_page_fixture(monkeypatch: pytest.MonkeyPatch, progress: ProgressStore
                         ) -> Iterator[None]:
    """This kernel is Ann's page of 01 in the class."""
    monkeypatch.setenv("QUERY_STRING", f"class={CODE}&me=k-ann")
    monkeypatch.setenv("SCRIPT_NAME", "/voila/render/01-deck-and-deal.ipynb")
    monkeypatch.setattr(page_progress, "open_progress", lambda: progress)
    page_progress.forget()
    yield
    page_progress.forget()


def recorded(progress: ProgressStore) -> set[tuple[str, str]]:
    recorder = page_progress.recorder()
    assert recorder is not None and recorder.flush(10)
    return {(str(r[1]), str(r[3])) for r in progress.backend.progress(CODE)
            if r[0] == "Ann"}


# -- what a page of a class records --------------------------------------------------------
def test_a_page_of_a_class_notes_it_opened(learner_page: None,
                                           progress: ProgressStore) -> None:
    LanguagePicker()
    assert ("page_opened", "") in recorded(progress)
    ann = progress.board(CODE, "teach").learners[0]
    assert (ann.page, ann.open, ann.opened) == ("01-deck-and-deal", True, {"01"})


def test_dealing_round_10_for_5_players_does_01s_first_try_it(
        learner_page: None, progress: ProgressStore) -> None:
    demo = DealDemo()
    demo.players.value = 5
    demo.round.value = 10
    assert ("try_it_done", "01:1") not in recorded(progress)
    demo.all_button.click()
    assert ("try_it_done", "01:1") in recorded(progress)
    demo.all_button.click()  # the same Try-it again: written once
    rows = [r for r in progress.backend.progress(CODE) if r[1] == "try_it_done"]
    assert [(r[3], r[4]) for r in rows] == [("01:1", 1)]


def test_dealing_one_card_at_a_time_does_00_and_01s_third_try_it(
        learner_page: None, progress: ProgressStore) -> None:
    demo = DealDemo(players=3)
    for _k in range(3):
        demo.step_button.click()
    assert ("try_it_done", "01:3") not in recorded(progress)
    demo.step_button.click()  # 4 dealt: the page says who gets the 5th card
    assert {("try_it_done", "01:3")} <= recorded(progress)
    while demo.dealt < demo.plan.total:
        demo.step_button.click()
    assert ("try_it_done", "00:1") in recorded(progress)
    assert progress.board(CODE, "teach").learners[0].done == {"00:1", "01:3"}


def test_the_meld_checkers_try_its(learner_page: None, progress: ProgressStore) -> None:
    checker = MeldChecker()
    checker.text.value = "R5 RK RK R8"
    checker.text.value = "R15"
    checker.text.value = "y9 b9 g9 r9 y9"
    checker.text.value = "R1 R2 R3 R4 / R6 R7 R8 R9"
    checker.text.value = "R1 R2 R3 R4 / R5 R6 R7 R8"  # one run split in two: refused
    assert {d for k, d in recorded(progress) if k == "try_it_done"} == {
        "02:1", "02:2", "02:3", "02:4"}


def test_the_rooks_try_its(learner_page: None, progress: ProgressStore) -> None:
    demo = RookDemo()
    demo.preset_button.click()
    demo.set_button.click()
    demo.reset_button.click()
    demo.wrong_button.click()
    assert {d for k, d in recorded(progress) if k == "try_it_done"} == {
        "05:1", "05:2", "05:3"}


def test_a_hint_is_noted(learner_page: None, progress: ProgressStore) -> None:
    from toonerville.coach.hint import Hint
    from toonerville.engine import actions
    from toonerville.engine.messages import msg

    panel = CoachHint()
    found = Hint(0, actions.Draw(0), msg("the stock is as good as the discard"), (), 0)
    panel.ask(lambda: found)
    panel.ask(lambda: found)
    recorded(progress)
    assert progress.board(CODE, "teach").learners[0].hints == 2


def test_a_review_is_noted_once_with_the_points_it_found(
        learner_page: None, progress: ProgressStore) -> None:
    page_progress.review_opened(("game", 3), 12.4)
    page_progress.review_opened(("game", 3), 12.4)  # drawn again: the same review
    page_progress.review_opened(("game", 4), 0.0)
    recorded(progress)
    assert progress.board(CODE, "teach").learners[0].costs == (12, 0)


def test_a_page_of_no_class_records_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    def never() -> ProgressStore:
        raise AssertionError("a page of no class opened the store")

    monkeypatch.setattr(page_progress, "open_progress", never)
    page_progress.forget()
    demo = DealDemo(players=5, round_number=10)
    demo.all_button.click()
    assert page_progress.recorder() is None
    page_progress.forget()


def test_a_missing_store_never_breaks_the_learners_page(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    def missing() -> ProgressStore:
        raise OSError("no such database")

    monkeypatch.setenv("QUERY_STRING", f"class={CODE}&me=k-ann")
    monkeypatch.setattr(page_progress, "open_progress", missing)
    page_progress.forget()
    demo = DealDemo(players=5, round_number=10)
    demo.all_button.click()
    recorder = page_progress.recorder()
    assert recorder is not None and recorder.flush(10)
    assert demo.messages.kind != "error" and demo.dealt == demo.plan.total
    assert recorder.failed >= 1 and "not recorded" in caplog.text
    page_progress.forget()


def test_a_slow_store_does_not_hold_up_the_learners_click(
        monkeypatch: pytest.MonkeyPatch, progress: ProgressStore) -> None:
    release = threading.Event()

    def slow() -> ProgressStore:
        release.wait(10)
        return progress

    monkeypatch.setenv("QUERY_STRING", f"class={CODE}&me=k-ann")
    monkeypatch.setattr(page_progress, "open_progress", slow)
    page_progress.forget()
    demo = DealDemo(players=5, round_number=10)
    started = time.perf_counter()
    demo.all_button.click()
    clicked = time.perf_counter() - started
    release.set()
    recorder = page_progress.recorder()
    assert recorder is not None and recorder.flush(10)
    assert clicked < 5  # the click did not wait for the store (it waits up to 10 s)
    assert progress.board(CODE, "teach").learners[0].done == {"01:1"}
    page_progress.forget()


# -- the teacher's dashboard -------------------------------------------------------------
def test_the_dashboard_shows_each_learners_ticks_and_follows_the_store(
        progress: ProgressStore, tables: TableStore) -> None:
    dash = ClassDashboard(CODE, "teach", board=progress.board, tables=tables)
    assert dash.ticker.playing
    assert dash.table.value.count('class="tv-dash-learner"') == 2
    assert "tv-dash-done" not in dash.table.value
    assert "2 learners in class KXR4PT" in dash.summary.value
    progress.record(CODE, "k-bo", "page_opened", page="02-runs-and-sets")
    progress.record(CODE, "k-bo", "try_it_done", page="02-runs-and-sets", detail="02:4")
    dash.poll()
    assert dash.table.value.count("tv-dash-done") == 1
    assert "02-runs-and-sets" in dash.table.value
    assert "1 page open" in dash.summary.value
    assert f"Try-its done: {round(100 / TOTAL_TRY_ITS)} percent" in dash.table.value


def test_the_dashboard_exports_csv(progress: ProgressStore, tables: TableStore) -> None:
    progress.record(CODE, "k-ann", "hint_used", page="07-play-a-game")
    dash = ClassDashboard(CODE, "teach", board=progress.board, tables=tables)
    href = dash.csv_view.value.split('href="', 1)[1].split('"', 1)[0]
    text = urllib.parse.unquote(href.split(",", 1)[1])
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [(r["learner"], r["hints"]) for r in rows] == [("Ann", "1"), ("Bo", "0")]
    assert 'download="class-KXR4PT.csv"' in dash.csv_view.value


def test_the_dashboard_refuses_a_key_that_is_not_the_teachers(
        progress: ProgressStore, tables: TableStore) -> None:
    dash = ClassDashboard(CODE, "k-ann", board=progress.board, tables=tables)
    assert dash.messages.kind == "error" and "not the teacher's key" in dash.messages.text
    assert dash.table.value == "" and not dash.ticker.playing
    with pytest.raises(TeacherKeyError):
        progress.board(CODE, "k-ann")


def test_the_dashboard_by_keys_typed(progress: ProgressStore, tables: TableStore) -> None:
    dash = ClassDashboard(board=progress.board, tables=tables)
    assert "Type your class's code" in dash.messages.text
    dash.code_box.value = " kxr4pt "
    dash.key_box.value = "teach"
    dash.show_button.click()
    assert dash.table.value.count('class="tv-dash-learner"') == 2


def test_the_dashboard_shows_the_tables_learners_are_at(
        progress: ProgressStore, tables: TableStore) -> None:
    table = tables.open_table(players=3, seed=1, bots={1: "heuristic", 2: "heuristic"})
    progress.record(CODE, "k-ann", "page_opened", page="09-classroom", detail=table)
    dash = ClassDashboard(CODE, "teach", board=progress.board, tables=tables)
    assert f"table {table}: 0 moves, in play" in dash.places.value
    assert f"table {table}" in dash.table.value


def test_a_page_opened_from_a_class_link_records_in_the_kits_store(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The whole way, as a served page: the store of $TOONERVILLE_STORE, a class of
    `ClassStore`, the learner's key from joining it, the page's address."""
    from toonerville.store.classes import ClassStore

    where = tmp_path / "school.sqlite"
    store = open_store(where)
    classes = ClassStore(store.backend)
    opened = classes.open_class("Class 4B")
    key = classes.join(opened.code, "Ann")
    monkeypatch.setenv("TOONERVILLE_STORE", str(where))
    monkeypatch.setenv("QUERY_STRING", urllib.parse.urlencode(
        {"class": opened.code.lower(), "me": key}))
    monkeypatch.setenv("SCRIPT_NAME", "/voila/render/01-deck-and-deal.ipynb")
    page_progress.forget()
    LanguagePicker()
    DealDemo(players=3, seed=9).all_button.click()
    recorder = page_progress.recorder()
    assert recorder is not None and recorder.flush(10) and recorder.failed == 0
    board = ProgressStore(store.backend, classes).board(opened.code, opened.teacher_key)
    ann, = board.learners
    assert (ann.name, ann.page, ann.done) == ("Ann", "01-deck-and-deal", {"01:2"})
    page_progress.forget()
    store.close()


def test_the_dashboard_opens_from_its_address(monkeypatch: pytest.MonkeyPatch,
                                              progress: ProgressStore,
                                              tables: TableStore) -> None:
    monkeypatch.setenv("QUERY_STRING", f"class={CODE.lower()}&class_key=teach")
    dash = ClassDashboard(board=progress.board, tables=tables)
    assert dash.table.value.count('class="tv-dash-learner"') == 2


def test_the_boxes_send_their_value_once_left_not_per_keystroke(
        progress: ProgressStore, tables: TableStore) -> None:
    """A click on Show must not overtake the key's last keystrokes (seen in Chromium on a
    loaded machine): each box sends its value when it is left."""
    dash = ClassDashboard(board=progress.board, tables=tables)
    assert not dash.code_box.continuous_update and not dash.key_box.continuous_update


def test_the_dashboard_shows_a_tournament_handed_to_the_class_with_its_round(
        progress: ProgressStore, tables: TableStore) -> None:
    from toonerville.store import TournamentDesk
    from toonerville.store.backend import HandoutRow

    desk = TournamentDesk(tables)
    code, key = desk.open(["Ann", "Bo"], bots=1, rounds=2, seed=3)
    desk.start(code, key)
    tables.backend.hand_out([HandoutRow(CODE, "", code, "tournament", "")])
    dash = ClassDashboard(CODE, "teach", board=progress.board, tables=tables)
    assert f"tournament {code}: round 1 of 2, in play" in dash.places.value


def test_07s_try_its_from_the_game_session(learner_page: None,
                                           progress: ProgressStore) -> None:
    from toonerville.widgets.session import PlaySession

    session = PlaySession(seed=5, bots=2, bot_kind="random", turn_limit=400)
    page_progress.follow_play(session)
    saved = session.game
    session.autoplay()  # 1: the bots finish a game of random bots...
    session.settings = {**session.settings, "kind": "heuristic"}
    session.new_game()
    session.autoplay()  # ...and one of heuristic bots
    session.rules = session.rules.replace(penalty_cards=2)
    session.buy_offers = "always"
    session.new_game()  # 2
    session.play_bots()
    session.load(saved.position_at(6).to_json())  # 3: a game saved in the middle of a round
    assert {d for k, d in recorded(progress) if k == "try_it_done"} == {
        "07:1", "07:2", "07:3"}


def test_the_game_page_of_a_class_follows_its_session(learner_page: None,
                                                      progress: ProgressStore) -> None:
    from toonerville.widgets.play import PlayGame

    page = PlayGame(seed=3)
    page.session.rules = page.session.rules.replace(penalty_cards=2)
    page.session.buy_offers = "always"
    page.new_game()
    assert ("try_it_done", "07:2") in recorded(progress)


def test_the_buying_try_its_as_the_notebook_asks(learner_page: None,
                                                 progress: ProgressStore) -> None:
    from toonerville.widgets.lessons import BuyDemo

    demo = BuyDemo()
    demo.players.value = 4
    demo.turn_row.children[2].click()  # Player 2 declines: draw from the stock
    demo.seat_rows[3].children[1].click()  # Player 4 asks to buy
    demo.seat_rows[0].children[1].click()  # Player 1 asks to buy
    demo.reset_button.click()
    demo.turn_row.children[2].click()  # declines...
    demo.turn_row.children[1].click()  # ...then tries to take it: refused
    demo.t14_button.click()
    assert {d for k, d in recorded(progress) if k == "try_it_done"} == {
        "04:1", "04:2", "04:3"}


def test_the_contract_and_scoring_try_its(learner_page: None,
                                          progress: ProgressStore) -> None:
    from toonerville.widgets.lessons import ContractExplorer, ScoringDemo

    explorer = ContractExplorer()
    explorer.round.value = 4
    explorer.round.value = 1  # rounds 1 and 4 looked at
    explorer.round.value = 3
    explorer.until_button.click()
    explorer.until_button.click()
    scoring = ScoringDemo()
    scoring.cards.value = "RK RK RK RK RK"
    scoring.cards.value = "R1 R2 R3 R4 R5"
    scoring.scene.value = 1  # round 11
    scoring.next_button.click()
    scoring.next_button.click()
    assert {d for k, d in recorded(progress) if k == "try_it_done"} == {
        "03:2", "03:3", "06:1", "06:2"}
