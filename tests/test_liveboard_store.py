"""The live board in the store (`store.liveboard`): questions, answers, deadlines, races,
on SQLite and PostgreSQL, with each page a store object of its own."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from pgserver import postgres_url_fixture  # noqa: F401
from storehelpers import clients_fixture, where_fixture  # noqa: F401

from toonerville.players.scenarios import laydown_scenario
from toonerville.store import TableStore, TeacherKeyError
from toonerville.store.classes import ClassStore
from toonerville.store.errors import CorruptTableError, StoreError
from toonerville.store.liveboard import (
    Cost,
    LiveBoardStore,
    Source,
    answers_code,
    board_code,
)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def boards(clients: Callable[[], TableStore], clock: Clock) -> Callable[[], LiveBoardStore]:
    return lambda: LiveBoardStore(clients().backend, wall_clock=clock)


def _class(board: LiveBoardStore) -> tuple[str, str]:
    opened = ClassStore(board.backend).open_class("6B")
    board.open_board(opened.code, opened.teacher_key)
    return opened.code, opened.teacher_key


SAVE = laydown_scenario().to_json()
DEAL = Source("scenario", (("name", "laydown"),))


def test_a_question_reaches_every_page_and_the_spread_counts_the_last_answer(
        clients: Callable[[], TableStore]) -> None:
    clock = Clock()
    new = boards(clients, clock)
    teacher, projector = new(), new()
    code, key = _class(teacher)
    pages = [new() for _ in range(3)]
    keys = [ClassStore(p.backend).join(code, name) for p, name in
            zip(pages, ("Ann", "Bo", "Cy"), strict=True)]
    q = teacher.ask(code, key, SAVE, 0, DEAL, 30)
    assert q.number == 1 and q.deadline == clock.now + 30
    for page in pages:  # every learner's page sees the question, from its own kernel
        seen = page.board(code).current
        assert seen is not None and seen.save == SAVE and seen.seat == 0
        assert seen.source.get("name") == "laydown"
    pages[0].answer(code, keys[0], 1, "0: draw")
    pages[1].answer(code, keys[1], 1, "0: take")
    pages[2].answer(code, keys[2], 1, "0: draw")
    pages[1].answer(code, keys[1], 1, "0: draw")  # Bo changes his mind: the last counts
    spread = projector.spread(code, 1)
    assert spread.counts == (("0: draw", 3),)
    assert spread.total == 3
    assert [name for name, _a in spread.by_learner] == ["Ann", "Bo", "Cy"]
    assert pages[1].my_answer(code, keys[1], 1) == "0: draw"


def test_an_answer_after_the_deadline_or_the_reveal_is_refused_and_not_counted(
        clients: Callable[[], TableStore]) -> None:
    clock = Clock()
    new = boards(clients, clock)
    teacher, learner = new(), new()
    code, key = _class(teacher)
    ann = ClassStore(learner.backend).join(code, "Ann")
    teacher.ask(code, key, SAVE, 0, DEAL, 10)
    learner.answer(code, ann, 1, "0: take")
    clock.now += 10
    with pytest.raises(StoreError, match="time is up"):
        learner.answer(code, ann, 1, "0: draw")
    assert teacher.spread(code, 1).counts == (("0: take", 1),)
    teacher.ask(code, key, SAVE, 0, DEAL, 60)
    clock.now += 1
    teacher.reveal(code, key, 2, [Cost("0: draw", 0, 0, 0, 16, True)])
    with pytest.raises(StoreError, match="time is up"):
        learner.answer(code, ann, 2, "0: draw")
    with pytest.raises(StoreError, match="time is up"):  # an old question stays closed
        learner.answer(code, ann, 1, "0: draw")
    board = learner.board(code)
    assert board.questions[1].verdict == (Cost("0: draw", 0, 0, 0, 16, True),)
    assert board.questions[1].revealed == clock.now


def test_only_the_teacher_asks_and_only_learners_of_the_class_answer(
        clients: Callable[[], TableStore]) -> None:
    clock = Clock()
    new = boards(clients, clock)
    teacher = new()
    code, key = _class(teacher)
    with pytest.raises(TeacherKeyError):
        teacher.ask(code, "not the key", SAVE, 0, DEAL, 30)
    with pytest.raises(TeacherKeyError):
        teacher.reveal(code, "not the key", 1, [])
    teacher.ask(code, key, SAVE, 0, DEAL, 30)
    with pytest.raises(TeacherKeyError, match="not a key of class"):
        teacher.answer(code, "a stranger", 1, "0: draw")
    assert teacher.board(code).version == 1  # a refused call changed nothing
    assert teacher.answers(code) == ()


def test_learners_answering_at_once_are_all_kept(clients: Callable[[], TableStore]
                                                  ) -> None:
    clock = Clock()
    new = boards(clients, clock)
    teacher = new()
    code, key = _class(teacher)
    teacher.ask(code, key, SAVE, 0, DEAL, 60)
    pages = [new() for _ in range(8)]
    keys = [ClassStore(teacher.backend).join(code, f"L{i}") for i in range(8)]
    errors: list[BaseException] = []

    def go(i: int) -> None:
        try:
            for _ in range(3):
                pages[i].answer(code, keys[i], 1, "0: draw" if i % 2 else "0: take")
        except BaseException as err:  # pragma: no cover - reported below
            errors.append(err)

    threads = [threading.Thread(target=go, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(teacher.answers(code)) == 24
    assert dict(teacher.spread(code, 1).counts) == {"0: draw": 4, "0: take": 4}


def test_a_new_question_closes_the_one_before_and_finish_ends_the_board(
        clients: Callable[[], TableStore]) -> None:
    clock = Clock()
    teacher = boards(clients, clock)()
    code, key = _class(teacher)
    teacher.ask(code, key, SAVE, 0, DEAL, 60)
    clock.now += 5
    teacher.ask(code, key, SAVE, 0, Source("deal", (("seed", 3), ("round", 2))), 60)
    board = teacher.board(code)
    assert board.questions[0].closes == 1005.0
    assert board.current is not None and board.current.source.get("seed") == 3
    assert teacher.finish(code, key).finished
    with pytest.raises(StoreError, match="between|seconds"):
        teacher.ask(code, key, SAVE, 0, DEAL, 1)


def test_a_damaged_answer_row_is_refused_with_the_store_s_sentence(
        clients: Callable[[], TableStore]) -> None:
    clock = Clock()
    teacher = boards(clients, clock)()
    code, key = _class(teacher)
    teacher.ask(code, key, SAVE, 0, DEAL, 60)
    from toonerville.store.backend import chained, first_digest

    start = first_digest(answers_code(code), "{}")
    assert teacher.backend.append(answers_code(code), 1, "not json", start)
    with pytest.raises(CorruptTableError, match="cannot be read"):
        teacher.answers(code)
    assert chained(start, "not json")  # the row stays as it was written


def test_a_verdict_keeps_the_worlds_own_mean_and_a_board_written_before_it_still_reads(
        clients: Callable[[], TableStore]) -> None:
    """Issue 28: a verdict's costs are posteriors, and the worlds' own mean difference
    (`measured`) travels with them, so that no page calls a move the worlds found
    better a cost; a board a kit wrote before (six numbers an answer) reads as it was,
    and an answer of any other length is the store's refusal, not a crash."""
    import json

    clock = Clock()
    teacher = boards(clients, clock)()
    code, key = _class(teacher)
    teacher.ask(code, key, SAVE, 0, DEAL, 60)
    clock.now += 1
    verdict = (Cost("0: draw", 0, 0, 0, 16, True),
               Cost("0: take", 2.5, -0.5, 6.0, 16, False, -1.25))
    teacher.reveal(code, key, 1, verdict)
    assert teacher.board(code).questions[0].verdict == verdict
    row = teacher.backend.tournament(board_code(code))
    assert row is not None
    data = json.loads(row.state)
    data["questions"][0]["verdict"] = [entry[:6] for entry in data["questions"][0]["verdict"]]
    assert teacher.backend.update_tournament(board_code(code), json.dumps(data), row.version)
    old = teacher.board(code).questions[0].verdict
    assert old == tuple(Cost(c.answer, c.cost, c.low, c.high, c.samples, c.best)
                        for c in verdict)
    assert all(c.measured is None for c in old)
    data["questions"][0]["verdict"][1] = data["questions"][0]["verdict"][1][:5]
    assert teacher.backend.update_tournament(board_code(code), json.dumps(data),
                                             row.version + 1)
    with pytest.raises(CorruptTableError, match="6 or 7"):
        teacher.board(code)
