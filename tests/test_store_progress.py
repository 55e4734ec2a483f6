"""The learners' progress in a class, on SQLite and on a real PostgreSQL server: what a
page records, who may read it, the dashboard's one folded query, and its CSV."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator

import pytest
from pgserver import postgres_url_fixture  # noqa: F401
from progresshelpers import Clock, Roster
from storehelpers import raw_execute, where_fixture  # noqa: F401

from toonerville.engine.messages import set_language
from toonerville.store import SeatError, TeacherKeyError, open_store
from toonerville.store.backend import HandoutRow
from toonerville.store.codes import new_code
from toonerville.store.progress import (
    HINT_USED,
    PAGE_CLOSED,
    PAGE_OPENED,
    REVIEW_OPENED,
    TOTAL_TRY_ITS,
    TRY_IT_DONE,
    ProgressStore,
    folded,
    try_it,
)

LEARNERS = {"k-ann": "Ann", "k-bo": "Bo", "k-cy": "Cy"}


@pytest.fixture(name="code")
def code_fixture() -> str:
    """A class of its own for each test (the PostgreSQL server is the session's)."""
    return new_code()


@pytest.fixture(name="progress")
def progress_fixture(where: str, code: str) -> Iterator[ProgressStore]:
    store = open_store(where)
    yield ProgressStore(store.backend, Roster(code, "teach", LEARNERS), Clock())
    store.close()


def test_a_learners_try_its_hints_and_reviews_reach_the_teachers_board(
        progress: ProgressStore, code: str) -> None:
    progress.record(code, "k-ann", PAGE_OPENED, page="02-runs-and-sets")
    progress.record(code, "k-ann", TRY_IT_DONE, page="02-runs-and-sets",
                    detail=try_it("02", 1))
    progress.record(code, "k-ann", TRY_IT_DONE, page="02-runs-and-sets",
                    detail=try_it("02", 1))  # done twice: counted once
    progress.record(code, "k-ann", TRY_IT_DONE, page="02-runs-and-sets",
                    detail=try_it("02", 3))
    progress.record(code, "k-bo", PAGE_OPENED, page="07-play-a-game")
    for _k in range(3):
        progress.record(code, "k-bo", HINT_USED, page="07-play-a-game")
    progress.record(code, "k-bo", REVIEW_OPENED, page="07-play-a-game", detail="12")
    progress.record(code, "k-bo", REVIEW_OPENED, page="07-play-a-game", detail="12")
    progress.record(code, "k-bo", REVIEW_OPENED, page="07-play-a-game", detail="30")
    board = progress.board(code, "teach")
    ann, bo, cy = board.learners
    assert (ann.name, bo.name, cy.name) == ("Ann", "Bo", "Cy")
    assert ann.done == {"02:1", "02:3"} and ann.done_in("02") == 2
    assert ann.fraction == pytest.approx(2 / TOTAL_TRY_ITS)
    assert (ann.page, ann.open, ann.opened) == ("02-runs-and-sets", True, {"02"})
    assert (bo.hints, bo.reviews, bo.costs) == (3, 3, (12, 12, 30))
    assert (cy.page, cy.done, cy.hints, cy.seen) == ("", frozenset(), 0, 0.0)


def test_where_a_learner_is_the_page_last_opened_and_whether_it_is_still_open(
        progress: ProgressStore, code: str) -> None:
    progress.record(code, "k-cy", PAGE_OPENED, page="01-deck-and-deal")
    progress.record(code, "k-cy", PAGE_OPENED, page="09-classroom", detail="ABCDEF")
    cy = progress.board(code, "teach").learners[2]
    assert (cy.page, cy.place, cy.open) == ("09-classroom", "ABCDEF", True)
    assert progress.board(code, "teach").places == ("ABCDEF",)
    progress.record(code, "k-cy", PAGE_CLOSED, page="09-classroom")
    cy = progress.board(code, "teach").learners[2]
    assert (cy.page, cy.open) == ("09-classroom", False)
    progress.record(code, "k-cy", PAGE_OPENED, page="09-classroom", detail="ABCDEF")
    assert progress.board(code, "teach").learners[2].open  # a reload: open again


def test_only_the_classes_teacher_reads_its_progress(progress: ProgressStore, code: str) -> None:
    progress.record(code, "k-ann", HINT_USED, page="07-play-a-game")
    with pytest.raises(TeacherKeyError, match="not the teacher's key"):
        progress.board(code, "k-ann")  # a learner's key is not the teacher's
    with pytest.raises(TeacherKeyError):
        progress.board("ZZZZZZ", "teach")


def test_a_key_that_is_no_learners_records_nothing(progress: ProgressStore, code: str) -> None:
    with pytest.raises(SeatError, match="not the key of a learner"):
        progress.record(code, "teach", HINT_USED, page="07-play-a-game")
    with pytest.raises(SeatError):
        progress.record("ZZZZZZ", "k-ann", HINT_USED, page="07-play-a-game")
    with pytest.raises(ValueError, match="not a kind"):
        progress.record(code, "k-ann", "cheated", page="07-play-a-game")
    assert progress.backend.progress(code) == []


def test_the_roster_is_asked_once_per_learner_key(progress: ProgressStore, code: str) -> None:
    roster = progress.roster
    assert isinstance(roster, Roster)
    for _k in range(5):
        progress.record(code, "k-ann", HINT_USED, page="07-play-a-game")
    assert roster.asked == 1


def test_the_board_is_one_folded_query_of_a_row_per_kind_and_detail(
        progress: ProgressStore, code: str) -> None:
    """Thirty learners, each with many rows: the query answers a row per learner, kind,
    page and detail, not per row added."""
    keys = {f"k{n}": f"L{n:02d}" for n in range(30)}
    progress.roster = Roster(code, "teach", keys)
    for key in keys:
        for _k in range(20):
            progress.record(code, key, HINT_USED, page="07-play-a-game")
        progress.record(code, key, TRY_IT_DONE, page="01-deck-and-deal",
                        detail=try_it("01", 2))
    rows = progress.backend.progress(code)
    assert len(rows) == 60
    board = progress.board(code, "teach")
    assert [p.hints for p in board.learners] == [20] * 30
    assert all(p.done_in("01") == 1 for p in board.learners)


def test_a_row_of_another_program_is_skipped(where: str, progress: ProgressStore, code: str
                                      ) -> None:
    progress.record(code, "k-ann", HINT_USED, page="07-play-a-game")
    raw_execute(where, "INSERT INTO progress (class_code, learner, page, kind, detail, at) "
                "VALUES (?, ?, ?, ?, ?, ?)", (code, "Bo", "07", REVIEW_OPENED, "lots", 5.0))
    board = progress.board(code, "teach")
    assert [p.hints for p in board.learners] == [1, 0, 0]
    assert board.learners[1].costs == ()
    # and a row whose columns are of the wrong kind altogether
    assert folded(code, ["Ann"], [("Ann", HINT_USED, "07", "", "two", 1.0),
                                   ("Ann", HINT_USED, "07", "")]).learners[0].hints == 0


def test_the_board_as_csv(progress: ProgressStore, code: str) -> None:
    progress.record(code, "k-bo", PAGE_OPENED, page="03-contracts")
    progress.record(code, "k-bo", TRY_IT_DONE, page="03-contracts", detail="03:2")
    progress.record(code, "k-bo", REVIEW_OPENED, page="07-play-a-game", detail="7")
    rows = list(csv.DictReader(io.StringIO(progress.board(code, "teach").csv())))
    assert [r["learner"] for r in rows] == ["Ann", "Bo", "Cy"]
    bo = rows[1]
    assert (bo["page"], bo["lesson 03 (3 Try-its)"], bo["Try-its done"], bo["reviews"],
            bo["review costs"], bo["page open"]) == ("03-contracts", "1", "1", "1", "7", "yes")


def test_the_board_as_csv_speaks_the_teachers_language(progress: ProgressStore,
                                                       code: str) -> None:
    """A teacher whose page is in Persian downloads Persian headings (and yes/no)."""
    progress.record(code, "k-bo", PAGE_OPENED, page="03-contracts")
    english = next(csv.reader(io.StringIO(progress.board(code, "teach").csv())))
    set_language("fa")
    try:
        text = progress.board(code, "teach").csv()
    finally:
        set_language("en")
    persian = next(csv.reader(io.StringIO(text)))
    assert len(persian) == len(english)
    assert not set(persian) & set(english), persian
    assert all(re.search("[\u0600-\u06ff]", heading) for heading in persian), persian
    assert "yes" not in text and "no" not in text.split(",")


def test_the_tables_handed_out_to_the_class_are_on_the_board(progress: ProgressStore,
                                                             code: str) -> None:
    progress.backend.hand_out([HandoutRow(code, "", "TBLAAA", "table", ""),
                               HandoutRow(code, "ann", "TRNBBB", "tournament", "k")])
    progress.record(code, "k-ann", PAGE_OPENED, page="09-classroom", detail="TBLCCC")
    assert progress.board(code, "teach").places == ("TBLCCC", "TBLAAA", "TRNBBB")
