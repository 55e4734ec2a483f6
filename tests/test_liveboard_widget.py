"""The live board's pages (`widgets.liveboard`): a teacher and learners, each page a store
object of its own on one SQLite file, as one kernel each under Voila."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from widgetfixtures import close_widgets  # noqa: F401 - no widget outlives its test

from toonerville import Game
from toonerville.coach.positions import deal_position, scenario_position
from toonerville.engine.messages import set_language
from toonerville.store import open_store
from toonerville.store.classes import ClassStore
from toonerville.store.liveboard import LiveBoardStore
from toonerville.widgets import liveboard as lb
from toonerville.widgets.liveboard import LiveBoardLearner, LiveBoardTeacher


class Clock:
    def __init__(self) -> None:
        self.now = 5_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def quick_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lb, "VERDICT_WORLDS", 2)
    monkeypatch.setattr(lb, "VERDICT_PRICE", (4, 4))


def _store(db: Path, clock: Clock) -> LiveBoardStore:
    return LiveBoardStore(open_store(db).backend, wall_clock=clock)


def _room(tmp_path: Path, learners: int = 3
          ) -> tuple[LiveBoardTeacher, list[LiveBoardLearner], Clock]:
    clock = Clock()
    db = tmp_path / "class.sqlite"
    teacher = LiveBoardTeacher(_store(db, clock))
    code = teacher.open_class()
    pages = []
    for name in ("Ann", "Bo", "Cy")[:learners]:
        page = LiveBoardLearner(_store(db, clock))
        page.class_text.value = code
        page.name_text.value = name
        page.join_button.click()
        pages.append(page)
    return teacher, pages, clock


def _counts(teacher: LiveBoardTeacher) -> dict[str, int]:
    return {a: int(n) for a, n in re.findall(r'data-answer="([^"]+)" data-count="(\d+)"',
                                             teacher.chart.value)}


def test_a_teacher_asks_in_one_click_and_the_projector_counts_the_answers(
        tmp_path: Path) -> None:
    teacher, pages, clock = _room(tmp_path)
    assert teacher.kind.value == "scenario"
    teacher.ask_button.click()  # the defaults: one click from the board to a live question
    game, seat = scenario_position("roundend")
    for page in pages:
        page.poll()
        assert page.seat_view.layout.display != "none"
        assert page.seat_view.hand.cards  # the seat to act's hand, from its seat
        assert not page.seat_view.discard_button.disabled
    # Ann and Bo discard with the seat view's own controls; Cy picks another card
    cards = [str(a.card) for a in game.legal_actions(seat)]
    for page, card in zip(pages, (cards[0], cards[0], cards[1]), strict=True):
        index = [str(c) for c in page.seat_view.hand.cards].index(card)
        page.seat_view.hand.select([index])
        page.seat_view.discard_button.click()
        assert "Your answer" in page.mine.value
    teacher.poll()
    counts = {k.split(": ")[-1]: v for k, v in _counts(teacher).items()}
    assert counts == {f"discard {cards[0]}": 2, f"discard {cards[1]}": 1}
    assert "Ann" not in teacher.chart.value  # the projector shows counts, never names
    assert "Ann" in teacher.names.value and teacher.names.layout.display == "none"
    teacher.names_toggle.value = True
    assert teacher.names.layout.display != "none"
    # the verdict: the coach's move marked, a cost sentence for each answer
    teacher.reveal_button.click()
    assert "tr-lb-best" in teacher.chart.value
    assert teacher.chart.value.count('class="tr-lb-cost"') >= 2
    assert re.search(r"instead|coach", teacher.chart.value)
    pages[2].poll()
    assert "tr-lb-cost" in pages[2].chart.value  # the learners see it too, after it
    with pytest.raises(Exception, match="time is up"):
        pages[2].answer(f"0: discard {cards[2]}")
    del clock


def test_the_last_answer_before_the_deadline_counts(tmp_path: Path) -> None:
    teacher, pages, clock = _room(tmp_path, learners=1)
    teacher.kind.value = "scenario"
    teacher.scenario.value = "laydown"
    teacher.ask(seconds=15)
    ann = pages[0]
    ann.poll()
    ann.seat_view.take_button.click()
    ann.seat_view.draw_button.click()  # a change of mind: the last one counts
    clock.now += 16
    teacher.poll()
    assert _counts(teacher) == {"0: draw": 1}
    assert "Time is up" in teacher.clock_text.value
    ann.poll()
    assert ann.seat_view.draw_button.disabled  # closed: the controls are out of reach
    assert "time is up" in ann.status.value


def test_three_questions_buy_draw_and_a_deal_then_the_summary(tmp_path: Path) -> None:
    teacher, pages, _clock = _room(tmp_path)
    teacher.scenario.value = "buy"
    teacher.ask()
    for page, button in zip(pages, ("buy_button", "pass_button", "pass_button"),
                            strict=True):
        page.poll()
        getattr(page.seat_view, button).click()
    teacher.reveal()
    teacher.next_question()
    assert teacher.scenario.value == "rook"
    teacher.kind.value = "deal"
    teacher.seed.value, teacher.round.value = 4, 2
    teacher.ask()
    for page in pages:
        page.poll()
        page.seat_view.draw_button.click()
    teacher.reveal()
    summary = teacher.show_summary()
    assert summary.count("tr-lb-summary-row") == 2
    assert "3 of 3" in summary or "0 of 3" in summary
    assert "Ann" not in summary
    game, seat = deal_position(4, 2)
    assert pages[0].seat_view.hand.cards == tuple(sorted(game.view(seat).hand,
                                                         key=pages[0].seat_view.hand.cards.index))


def test_a_review_s_costly_decision_becomes_a_question(tmp_path: Path) -> None:
    teacher, pages, _clock = _room(tmp_path, learners=1)
    game = scenario_position("roundend")[0]
    full = Game.from_json(game.to_json())
    teacher.kind.value = "review"
    teacher.save_text.value = full.to_json()
    found = teacher.find_mistakes()
    if not found:
        pytest.skip("the coach found nothing costly in this round")
    question = teacher.ask()
    assert question.source.kind == "review"


def test_the_pages_speak_the_learner_s_language(tmp_path: Path) -> None:
    teacher, pages, _clock = _room(tmp_path, learners=1)
    try:
        set_language("de")
        teacher.refresh()
        assert teacher.ask_button.description != "Ask the class"
    finally:
        set_language("en")


def test_the_coach_s_hint_is_out_of_reach_while_a_question_is_open(tmp_path: Path) -> None:
    teacher, pages, _clock = _room(tmp_path, learners=1)
    teacher.ask()
    ann = pages[0]
    ann.poll()
    view = ann.seat_view
    assert view.hint_button.disabled and view.undo_button.disabled
    view.hint_button.click()  # a key script's click on the hidden button: refused
    assert view.coach.found is None
    assert "verdict" in ann.message.text


def test_a_wrong_key_in_the_link_is_said_on_the_page_not_raised(tmp_path: Path) -> None:
    teacher, pages, clock = _room(tmp_path, learners=1)
    assert teacher.klass is not None
    db = tmp_path / "class.sqlite"
    stranger = LiveBoardTeacher(_store(db, clock), klass=teacher.klass, teacher_key="nope")
    assert stranger.message.kind == "error" and "teacher" in stranger.message.text
    assert stranger.klass is None
    lost = LiveBoardLearner(_store(db, clock), klass=teacher.klass, key="nope")
    assert lost.message.kind == "error" and lost.klass is None
    back = LiveBoardLearner(_store(db, clock), klass=teacher.klass, key=pages[0].key)
    assert back.name == "Ann"  # the learner's link gives the place back, no typing


def test_a_saved_game_given_as_a_file_is_asked_from_its_seat_to_act(tmp_path: Path) -> None:
    teacher, pages, _clock = _room(tmp_path, learners=1)
    game, seat = scenario_position("buy")
    teacher.kind.value = "save"
    teacher.upload.value = ({"name": "game.json", "type": "application/json",
                             "size": 10, "content": memoryview(game.to_json().encode()),
                             "last_modified": datetime.now(UTC)},)
    assert teacher.save_text.value == game.to_json()
    question = teacher.ask()
    assert question.source.kind == "save" and question.seat == seat == 2
    pages[0].poll()
    assert not pages[0].seat_view.buy_button.disabled  # the offer, from seat 2


def test_the_learner_s_class_link_opens_the_board_with_nothing_typed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    teacher, _pages, clock = _room(tmp_path, learners=0)
    assert teacher.klass is not None
    db = tmp_path / "class.sqlite"
    store = _store(db, clock)
    key = ClassStore(store.backend).join(teacher.klass, "Dee")  # as page 09's class page
    monkeypatch.setenv("QUERY_STRING", f"class={teacher.klass.lower()}&me={key}")
    dee = LiveBoardLearner(store)
    assert dee.name == "Dee" and dee.join_row.layout.display == "none"
    assert f"me={key}" in dee.status.value  # her link back keeps the same key
