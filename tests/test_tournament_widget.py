"""The tournament pages (`widgets.tournament`) without a browser, on one SQLite store:
a teacher starts a tournament of 9 learners and bots, each learner's page sits at its
table and follows to the next one, rounds progress, the master sheet and its CSV follow
the tables, a wrong teacher's key is refused and a learner's key gives the seat back."""

from __future__ import annotations

import csv
import io
import urllib.parse
from collections.abc import Callable
from pathlib import Path

import pytest
from storehelpers import choose, never_lays_down
from widgetfixtures import close_widgets  # noqa: F401 - no widget outlives its test

from toonerville import Game, Rules, Seating
from toonerville.engine.tournament import master_sheet, sheet_csv
from toonerville.store import TournamentDesk, open_store
from toonerville.widgets.tournament import TeacherDesk
from toonerville.widgets.tournament_parts import MAX_NAMES_TEXT, split_names
from toonerville.widgets.tournament_seat import TournamentSeat

LEARNERS = [f"Learner {k}" for k in range(1, 10)]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "class.sqlite"


def teacher_page(db: Path, *, learners: list[str], bots: int, rounds: int,
                 auto: bool = True) -> TeacherDesk:
    """The teacher's page (its own kernel), a tournament started by its widgets."""
    page = TeacherDesk(open_store(db))
    page.learners.value = "\n".join(learners)
    page.bots.value = bots
    page.rounds.value = rounds
    page.auto.value = auto
    page.start_button.click()
    assert page.message.kind == "ok", page.message.text
    return page


def learner_page(db: Path, code: str, name: str, key: str = "") -> TournamentSeat:
    page = TournamentSeat(open_store(db))
    page.t_code.value, page.t_name.value, page.t_key.value = code.lower(), name, key
    page.t_join.click()
    return page


def play(teacher: TeacherDesk, pages: dict[str, TournamentSeat], until_round: int) -> None:
    """Every page polls; a learner who decides plays a sensible move; until the
    tournament is playing round `until_round` (or is over)."""
    desk, code = teacher.desk, teacher.code
    assert desk is not None and code is not None
    run(teacher, pages, lambda: desk.over(code) or (
        desk.get(code).round_number >= until_round and not desk.round_finished(code)))


def run(teacher: TeacherDesk, pages: dict[str, TournamentSeat],
        done: Callable[[], bool], careless: str | None = None) -> None:
    """Poll every page and play for its learner until `done`; the learner `careless`
    draws, passes and never lays down (`storehelpers.never_lays_down`)."""
    for _ in range(3000):
        if done():
            return
        teacher.poll()
        for name, page in pages.items():
            page.poll()
            seat = page.seat
            while seat is not None and not seat.finished and seat.seat in seat.view.deciders:
                seat.play(never_lays_down(seat) if name == careless else choose(seat))
    raise AssertionError("the tournament did not get there")


def csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_T22_a_teacher_runs_9_learners_and_bots_round_after_round(db: Path) -> None:
    teacher = teacher_page(db, learners=LEARNERS, bots=3, rounds=3)
    assert teacher.desk is not None and teacher.code is not None
    code = teacher.code
    assert code in teacher.code_view.value
    assert "teacher's key" in teacher.key_view.value and teacher._key in teacher.key_view.value
    t = teacher.desk.get(code)
    assert [len(x.players) for x in t.tables[0]] == [4, 4, 4]  # 12 players
    assert "Round 1 of 3" in teacher.status.value and "0 of 3 tables" in teacher.status.value
    for x in t.tables[0]:
        assert x.code in teacher.tables_view.value
    assert teacher._key is not None
    keys = teacher.desk.learner_keys(code, teacher._key)
    assert all(k in teacher.key_view.value for k in keys.values())  # to hand out
    pages = {name: learner_page(db, code, name.lower(), keys[name]) for name in LEARNERS}
    for name, page in pages.items():  # each page shows its own table of round 1
        assert page.seat is not None and page.seat.code == t.table_of(name).code
        assert page.seat.view.names[page.seat.seat] == name
        assert f"table {t.table_of(name).number}" in page.where.value
        # the table says how many rounds the tournament has, not a game's 11 (issue 29)
        status = page.seat_view.status.value
        assert "Round 1 of 3" in status and "of 11" not in status
        sheet = page.seat_view.score_sheet.value
        assert sheet.count('scope="row"') == 3 + 2  # a row per round, then total, place
    # the sheet before anyone finished: everyone 0, sharing first place, nothing scored
    assert teacher.csv.count("\n1=,") == 12
    assert all(r["round 1 points"] == "" for r in csv_rows(teacher.csv))

    play(teacher, pages, until_round=2)
    t = teacher.desk.get(code)
    assert t.round_number == 2  # seated by itself once every table had finished
    assert "Round 2 of 3" in teacher.status.value
    for name, page in pages.items():  # every page followed its learner to round 2
        assert page.seat is not None and page.seat.code == t.table_of(name, 2).code
        assert page.seat.view.round_number == 2
        assert "round 2 of 3" in page.where.value
    # the sheet is the tables' own record of round 1
    points = {}
    for x in t.tables[0]:
        record = Game.from_json(teacher.desk.store.export(x.code)).records[0]
        points.update(zip(x.players, record.points, strict=True))
    rows = {r["name"]: r for r in csv_rows(teacher.csv)}
    assert {name: int(r["round 1 points"]) for name, r in rows.items()} == points
    assert {name: int(r["total"]) for name, r in rows.items()} == points
    assert {name: int(r["round 2 table"]) for name, r in rows.items()} == {
        name: t.table_of(name, 2).number for name in t.names}
    totals = [int(r["total"]) for r in csv_rows(teacher.csv)]
    assert totals == sorted(totals)
    for r in csv_rows(teacher.csv):  # a place is one more than the players ahead of it
        place = int(r["place"].rstrip("="))
        assert place == 1 + sum(v < int(r["total"]) for v in totals)
        assert r["place"].endswith("=") == (totals.count(int(r["total"])) > 1)
    assert teacher.csv == sheet_csv(master_sheet(t, {
        x.code: teacher.desk.store.round_points(x.code, x.round_number)
        for rt in t.tables for x in rt}))
    link = teacher.csv_view.value
    assert f'download="tournament-{code}.csv"' in link
    href = link.split('href="', 1)[1].split('"', 1)[0]
    assert urllib.parse.unquote(href.split(",", 1)[1]) == teacher.csv
    for name in t.names:
        assert name in teacher.sheet_view.value

    play(teacher, pages, until_round=4)
    assert teacher.desk.over(code)
    teacher.poll()  # the page's next tick
    assert "over" in teacher.status.value and teacher.ticker.playing is False
    final = csv_rows(teacher.csv)
    assert all(r[f"round {k} points"] != "" for r in final for k in (1, 2, 3))
    for page in pages.values():
        page.poll()
        assert "tournament is over" in page.prompt.value


def test_T22_next_round_waits_for_the_teacher_when_not_by_itself(db: Path) -> None:
    teacher = teacher_page(db, learners=[], bots=9, rounds=2, auto=False)
    assert teacher.desk is not None and teacher.code is not None
    assert teacher.next_button.disabled and teacher.next_view.value == ""
    teacher.next_button.click()  # too early: refused with the store's sentence
    assert teacher.message.kind == "error" and "still being played" in teacher.message.text
    desk, code = teacher.desk, teacher.code
    run(teacher, {}, lambda: desk.round_finished(code))  # bots only: nothing seats round 2
    teacher.poll()
    t = desk.get(code)
    assert t.round_number == 1 and teacher.desk.round_finished(t.code)
    upcoming = teacher.desk.next_seating(t.code)
    assert upcoming is not None and not teacher.next_button.disabled
    for group in upcoming:
        assert ", ".join(group) in teacher.next_view.value
    teacher.next_button.click()
    assert teacher.message.kind == "ok", teacher.message.text
    t = teacher.desk.get(teacher.code)
    assert tuple(x.players for x in t.tables[1]) == upcoming


def test_T22_a_wrong_teachers_key_is_refused_and_the_right_one_reopens(db: Path) -> None:
    teacher = teacher_page(db, learners=LEARNERS[:3], bots=0, rounds=2)
    code, key = teacher.code, teacher._key
    assert code is not None and key is not None
    other = TeacherDesk(open_store(db))  # after a reload: a new kernel, a new page
    other.reopen_code.value, other.reopen_key.value = code, "a learner guessing"
    other.reopen_button.click()
    assert other.message.kind == "error" and "teacher's key" in other.message.text
    assert other.code is None and other.running.layout.display == "none"
    secret = TournamentDesk(open_store(db)).learner_keys(code, key)["Learner 1"]
    other.reopen_key.value = secret  # a learner's own key is not the teacher's
    other.reopen_button.click()
    assert other.message.kind == "error" and other.code is None
    other.reopen_key.value = key
    other.reopen_button.click()
    assert other.message.kind == "ok", other.message.text
    assert other.code == code and key not in other.key_view.value  # shown only once
    assert secret in other.key_view.value  # the learners' keys are listed again
    assert "Round 1 of 2" in other.status.value
    assert other.desk is not None and other.desk.get(code).round_number == 1


def test_T22_a_learners_key_gives_their_seat_back_and_nobody_else_gets_it(db: Path) -> None:
    teacher = teacher_page(db, learners=LEARNERS[:4], bots=2, rounds=1)
    assert teacher.code is not None
    assert teacher.desk is not None and teacher._key is not None
    keys = teacher.desk.learner_keys(teacher.code, teacher._key)
    thief = learner_page(db, teacher.code, "Learner 2")  # first, but with no key
    assert thief.seat is None and thief.message.kind == "error"
    assert "use the key" in thief.message.text
    thief = learner_page(db, teacher.code, "Learner 2", key=keys["Learner 3"])
    assert thief.seat is None and "not Learner 2's" in thief.message.text
    first = learner_page(db, teacher.code, "Learner 2", key=keys["Learner 2"])
    assert first.seat is not None and first.secret is not None
    back = learner_page(db, teacher.code, "Learner 2", key=first.secret)
    assert back.seat is not None
    assert (back.seat.code, back.seat.seat, back.seat.view.hand) == (
        first.seat.code, first.seat.seat, first.seat.view.hand)
    stranger = learner_page(db, teacher.code, "Nobody")
    assert stranger.seat is None and "not a learner" in stranger.message.text


def test_T22_try_it_again_in_a_tournament_follows_the_learner_to_the_next_table(
        db: Path) -> None:
    """Round 1's review at a tournament table offers Try it again: the panel shows on
    the learner's page, and the list goes with the learner to round 2's table and comes
    back after a reload (the tournament's code and the learner's key)."""
    names = ["Ann", "Bo", "Cy"]
    teacher = teacher_page(db, learners=names, bots=1, rounds=2, auto=False)
    desk, code, key = teacher.desk, teacher.code, teacher._key
    assert desk is not None and code is not None and key is not None
    keys = desk.learner_keys(code, key)
    pages = {name: learner_page(db, code, name, keys[name]) for name in names}
    run(teacher, pages, lambda: desk.round_finished(code), careless="Ann")
    ann = pages["Ann"]
    ann.poll()
    review = ann.seat_view.recap.review
    review.open_button.click()
    assert review.wait(120) and review.mistakes
    review.try_button.click()
    panel = ann.practice
    assert ann.practice_box in ann.children and ann.practice_box.children[-1] is panel
    assert panel.opened and len(panel.positions) == len(review.mistakes)
    first_table = ann.seat.code if ann.seat is not None else None

    teacher.poll()
    teacher.next_button.click()  # round 2: every learner at a new table
    assert teacher.message.kind == "ok", teacher.message.text
    assert ann.poll() and ann.seat is not None and ann.seat.code != first_table
    assert ann._practice is not None  # shown at once: the list came along
    assert [p.key for p in ann.practice.positions] == [p.key for p in panel.positions]
    again = learner_page(db, code, "Ann", ann.secret or "")  # a reload, a new kernel
    assert again.seat is not None and again.practice_box in again.children
    assert [p.key for p in again.practice.positions] == [p.key for p in panel.positions]
    assert pages["Bo"].practice.positions == ()  # nobody else's list


def test_T22_a_learner_waits_for_the_teacher_to_start(db: Path) -> None:
    desk = TournamentDesk(open_store(db))
    code, key = desk.open(["Ann", "Bob"], bots=2, seed=3, rounds=1)
    ann = learner_page(db, code, "Ann", desk.learner_keys(code, key)["Ann"])
    assert ann.seat is None and "when the teacher starts" in ann.message.text
    assert ann.ticker.playing
    desk.start(code, key)
    assert ann.poll()
    assert ann.seat is not None and ann.seat.code == desk.get(code).table_of("Ann").code


def test_T22_the_learners_box_is_capped_and_names_are_checked(db: Path) -> None:
    page = TeacherDesk(open_store(db))
    page.learners.value = "x" * (MAX_NAMES_TEXT + 500)
    assert len(page.learners.value) == MAX_NAMES_TEXT
    assert page.message.kind == "error" and f"{MAX_NAMES_TEXT}" in page.message.text
    page.learners.value = "Ann, Bob\nAnn"
    page.start_button.click()
    assert page.message.kind == "error" and "Ann" in page.message.text
    assert page.code is None
    page.learners.value = "Ann\n" + "B" * 41
    page.start_button.click()
    assert page.message.kind == "error" and "40" in page.message.text
    page.learners.value, page.bots.value = "Ann", 60
    page.start_button.click()
    assert page.message.kind == "error" and "at most 60" in page.message.text
    assert page.code is None
    assert split_names(" Ann , Bob\n\nCat,") == ["Ann", "Bob", "Cat"]
    page.learners.value, page.bots.value = "Ann, Bob, ann", 0  # one learner, joining
    page.start_button.click()
    assert page.message.kind == "error" and "written twice" in page.message.text
    assert page.code is None


@pytest.mark.parametrize("typed", ["", "  \n\n ", ", ,"])
def test_T22_start_with_no_learner_is_refused_in_the_teachers_words(
        db: Path, typed: str) -> None:
    page = TeacherDesk(open_store(db))
    page.learners.value, page.bots.value = typed, 0  # (bots only is asked for by its bots)
    page.start_button.click()
    assert page.message.kind == "error"
    assert "write the learners' names first" in page.message.text
    assert page.code is None  # nothing was opened: no 3-bot, 11-round tournament


def test_H11_the_house_rules_panel_chooses_the_seating(db: Path) -> None:
    page = TeacherDesk(open_store(db))
    page.house_rules.controls["seating"].value = Seating.STAY
    page.bots.value = 8
    page.rounds.value = 2
    page.start_button.click()
    assert page.desk is not None and page.code is not None
    assert page.desk.get(page.code).rules == Rules(seating=Seating.STAY)
    play(page, {}, until_round=2)
    t = page.desk.get(page.code)
    assert t.round_number == 2
    assert [x.players for x in t.tables[1]] == [x.players for x in t.tables[0]]


def test_a_page_without_a_database_says_so(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    where = blocked / "class.sqlite"  # a database that cannot be made
    teacher = TeacherDesk(where=where)
    assert teacher.message.kind == "error" and "database" in teacher.message.text
    assert teacher.setup.layout.display == "none"
    learner = TournamentSeat(where=where)
    assert learner.message.kind == "error" and "database" in learner.message.text
    assert learner.join_box.layout.display == "none"


def test_T22_the_teacher_sets_the_wait_and_gives_a_gone_learners_seat_away(db: Path) -> None:
    page = TeacherDesk(open_store(db))
    page.learners.value = "Ann\nBob"
    page.bots.value, page.rounds.value, page.away_after.value = 1, 1, 45
    page.start_button.click()
    assert page.message.kind == "ok", page.message.text
    assert page.desk is not None and page.code is not None and page._key is not None
    t = page.desk.get(page.code)
    assert page.desk.store.info(t.tables[0][0].code).limits[0] == 45.0
    assert list(page.give_name.options) == ["Ann", "Bob"]
    key = page.give_seat("Bob", "")
    assert key is not None and key in page.message.text
    newcomer = learner_page(db, page.code, "bob", key)
    assert newcomer.seat is not None and newcomer.seat.view.names[newcomer.seat.seat] == "Bob"
    assert page.give_seat("Ann", "heuristic") is None
    assert "played by a bot" in page.message.text


def test_T22_the_teacher_is_told_when_a_bot_plays_for_a_learner_who_never_came(
        db: Path) -> None:
    """Issue 29 §5: a learner who had not joined had their round played by a bot with no
    word to the teacher."""
    page = TeacherDesk(open_store(db))
    page.learners.value = "Ann\nBob"
    page.bots.value, page.rounds.value, page.away_after.value = 1, 1, 20
    page.start_button.click()
    assert page.desk is not None and page.code is not None and page._key is not None
    keys = page.desk.learner_keys(page.code, page._key)
    ann = learner_page(db, page.code, "Ann", keys["Ann"])  # Ann came; Bob never does
    store = page.desk.store
    start = store.clock()
    elapsed = [0.0]

    def clock() -> float:  # the teacher's page's clock, 5 s a poll
        return start + elapsed[0]

    store.clock = clock
    said: list[str] = []
    for _ in range(400):
        elapsed[0] += 5.0
        ann.poll()
        if ann.seat is not None and ann.seat.seat in ann.seat.view.deciders:
            ann.seat.play(ann.seat.legal_actions()[-1].notation())
        page.poll()
        said.append(page.message.text)
        if any("Bob has not joined" in s for s in said):
            break
    told = [s for s in said if "a bot plays for Bob" in s]
    assert told and "Bob has not joined the tournament" in told[0], said[-3:]
    assert said.count(told[0]) == 1 or all(s == told[0] for s in said[said.index(told[0]):])
    assert not any("a bot plays for Ann" in s for s in said)  # Ann is there
