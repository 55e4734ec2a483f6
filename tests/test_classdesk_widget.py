"""The class desk and a learner's class page (`widgets.classdesk`, issue 29) without a
browser: the teacher opens a class and gets one join link with its QR code, learners join
by that link with their name only (or with nothing at all: a card's link, a reload), the
teacher's settings are saved and shown to learners as the teacher's choice, tables opened
for the class reach each learner as a link that seats them with no typing, and hints and
take back are off at such a table when the teacher says so."""

from __future__ import annotations

import html
import re
import urllib.parse
from pathlib import Path

import pytest
from widgetfixtures import close_widgets, no_query  # noqa: F401

from toonerville.engine.messages import set_language
from toonerville.store import ClassSettings, ClassStore, Seat, open_store
from toonerville.widgets.classdesk import ClassDesk, ClassJoin, class_page
from toonerville.widgets.classroom import SharedTable
from toonerville.widgets.tournament import TeacherDesk


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "class.sqlite"


def follow(link: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Open `link` as the next page would: its query string is the page's."""
    query = urllib.parse.urlsplit(html.unescape(link)).query
    monkeypatch.setenv("QUERY_STRING", query)
    return dict(urllib.parse.parse_qsl(query))


def test_the_teacher_opens_a_class_and_shows_one_join_link_and_its_qr_code(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCRIPT_NAME", "/voila/render/09-classroom.ipynb")
    monkeypatch.setenv("SERVER_NAME", "school.example")
    monkeypatch.setenv("SERVER_PORT", "8866")
    desk = ClassDesk(open_store(db))
    desk.name_text.value = "5B"
    desk.open_button.click()  # the teacher's one click after the name
    assert desk.code is not None and desk.teacher_key is not None
    assert desk.join_url == ("http://school.example:8866/voila/render/09-classroom.ipynb"
                             f"?class={desk.code}&lang=en")
    assert desk.join_url in html.unescape(desk.join_box.value)
    assert desk.qr.value.startswith("<svg") and html.escape(desk.join_url) in desk.qr.value
    assert desk.teacher_key in desk.key_box.value
    assert "Nobody has joined yet" in desk.members.value
    assert ClassStore(open_store(db).backend).is_teacher(desk.code, desk.teacher_key)


def test_a_learner_joins_by_the_link_with_their_name_only_and_returns_with_nothing(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    desk = ClassDesk(open_store(db))
    desk.open_class("5B")
    desk.hints.value = False
    desk.take_back.value = False
    desk.bot_level.value = "beginner"
    desk.save_button.click()
    params = follow(desk.join_url, monkeypatch)
    assert params["class"] == desk.code
    learner = class_page(open_store(db))
    assert isinstance(learner, ClassJoin) and learner.key is None
    learner.name_text.value = "Ann"
    learner.join_button.click()
    assert learner.key is not None
    assert "Welcome, Ann" in learner.message.text
    shown = html.unescape(learner.settings_text.value)
    assert "Class 5B — your teacher's settings: hints off, take back off, bots: beginner" \
        in shown
    assert f"data-key='{learner.key}'" in learner.key_keeper.value  # kept in the address
    desk.poll()
    assert "<b>Ann</b>" in desk.members.value
    # the same page again (the address now carries me=KEY): no name asked
    monkeypatch.setenv("QUERY_STRING", f"class={desk.code}&me={learner.key}")
    again = ClassJoin(open_store(db))
    assert again.key == learner.key and again.ask.layout.display == "none"
    # another learner cannot take Ann's name
    monkeypatch.setenv("QUERY_STRING", f"class={desk.code}")
    other = ClassJoin(open_store(db))
    other.name_text.value = " ann "
    other.join_button.click()
    assert other.key is None
    assert "someone called Ann has already joined class 5B" in other.message.text


def test_the_settings_are_shown_in_the_learners_language(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    desk = ClassDesk(open_store(db))
    desk.open_class("5B")
    desk.save_settings(ClassSettings(hints=False, language="de"))
    assert desk.join_url.endswith("lang=de")
    set_language("de")
    try:
        monkeypatch.setenv("QUERY_STRING", f"class={desk.code}")
        learner = ClassJoin(open_store(db))
        learner.join("Ann")
        assert "Tipps aus" in html.unescape(learner.settings_text.value)
    finally:
        set_language("en")


def test_cards_carry_each_learners_own_link(db: Path, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    desk = ClassDesk(open_store(db))
    desk.open_class("5B")
    desk.card_names.value = "Ann, Bo\nCy"
    desk.cards_button.click()
    cards = html.unescape(desk.cards.value)
    assert cards.count("class='tc-card'") == 3 and cards.count("<svg") == 3
    link = re.search(r"class='tc-card-link'>([^<]+)<", cards)
    assert link is not None
    follow(link.group(1), monkeypatch)
    learner = ClassJoin(open_store(db))  # a card's link: no typing at all
    assert learner.key is not None and "Welcome, Ann" in learner.message.text


def test_a_table_for_the_class_seats_the_learner_by_a_link_with_hints_off(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    desk = ClassDesk(open_store(db))
    desk.open_class("5B")
    desk.save_settings(ClassSettings(hints=False, take_back=False, away_limit=45,
                                     buy_offers="never"))
    monkeypatch.setenv("QUERY_STRING", f"class={desk.code}")
    learners = [ClassJoin(open_store(db)) for _ in range(5)]
    for learner, name in zip(learners, ["Ann", "Bo", "Cy", "Dee", "Eve"], strict=True):
        learner.join(name)
    tables = desk.open_tables()
    assert len(tables) == 2  # five learners: three at one table, two (and a bot) at one
    learners[0].poll()
    link = re.search(r"href='([^']+)'", learners[0].handouts.value)
    assert link is not None
    params = follow(link.group(1), monkeypatch)
    assert params["table"] in tables and params["me"] == learners[0].key
    table = SharedTable(open_store(db))
    assert isinstance(table.seat, Seat) and table.seat.view.names[table.seat.seat] == "Ann"
    assert table.seat_view.hint_button.layout.display == "none"
    assert table.seat_view.undo_button.layout.display == "none"
    assert "hints off" in html.unescape(table.class_note.value)
    assert table.store.info(table.seat.code).limits[0] == 45
    assert table.seat_view.buy_offers.value == "never"
    assert table.seat_view.hint() is None
    assert "your teacher has turned “Hint” off" in table.message.text
    # a table page without a class keeps its hint button
    monkeypatch.setenv("QUERY_STRING", "")
    plain = SharedTable(open_store(db))
    assert plain.seat_view.hint_button.layout.display != "none"


def test_the_teachers_desk_comes_back_only_with_the_key(db: Path) -> None:
    desk = ClassDesk(open_store(db))
    code = desk.open_class("5B")
    assert desk.teacher_key is not None
    again = ClassDesk(open_store(db))
    again.reopen_code.value, again.reopen_key.value = code.lower(), "wrong"
    again.reopen_button.click()
    assert again.code is None and "not the teacher's key of class 5B" in again.message.text
    again.reopen_key.value = desk.teacher_key
    again.reopen_button.click()
    assert again.code == code


def test_a_tournament_for_the_class_joins_its_learners_with_no_typing(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    desk = ClassDesk(open_store(db))
    desk.open_class("5B")
    desk.save_settings(ClassSettings(bot_level="beginner", hints=False))
    monkeypatch.setenv("QUERY_STRING", f"class={desk.code}")
    ann, bo = ClassJoin(open_store(db)), ClassJoin(open_store(db))
    ann.join("Ann")
    bo.join("Bo")
    desk.tournament_button.click()
    tournament = desk.tournament
    assert tournament is not None
    assert tournament.learners.value.splitlines() == ["Ann", "Bo"]
    assert tournament.bot_kind.value == "beginner"
    code = tournament.start(rounds=1, seed=3)
    for page, name in ((ann, "Ann"), (bo, "Bo")):
        page.poll()
        seat = page.tournaments[code]
        assert seat.tournament == code and seat.name == name
        assert isinstance(seat.seat, Seat)  # at their table of round 1, nothing typed
        assert seat.seat_view.hint_button.layout.display == "none"  # the class's choice


def test_page_10s_desk_runs_a_tournament_for_a_class_by_its_code_and_key(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    desk = ClassDesk(open_store(db))
    desk.open_class("5B")
    assert desk.code is not None and desk.teacher_key is not None
    monkeypatch.setenv("QUERY_STRING", f"class={desk.code}")
    ann = ClassJoin(open_store(db))
    ann.join("Ann")
    monkeypatch.setenv("QUERY_STRING", "")
    ten = TeacherDesk(open_store(db))
    ten.class_code.value, ten.class_key.value = desk.code.lower(), "not the key"
    ten.class_button.click()
    assert "not the teacher's key of class 5B" in ten.message.text
    assert ten.learners.value == ""  # refused: nothing changed
    ten.class_key.value = desk.teacher_key
    ten.class_button.click()
    assert ten.learners.value == "Ann" and "class 5B are listed" in ten.message.text
    code = ten.start(rounds=1, seed=5)
    monkeypatch.setenv("QUERY_STRING", f"class={desk.code}")
    ann.poll()
    assert isinstance(ann.tournaments[code].seat, Seat)


@pytest.mark.parametrize("lang", ["de", "hr", "su", "fa", "hi"])
def test_the_teachers_settings_are_said_in_every_language(lang: str) -> None:
    from toonerville.widgets.class_choice import settings_words

    chosen = ClassSettings(hints=False, take_back=False, bot_level="strong",
                           buy_offers="never", language=lang)
    english = settings_words("5B", chosen)
    set_language(lang)
    try:
        said = settings_words("5B", chosen)
    finally:
        set_language("en")
    parts = said.split(", ")
    assert len(parts) == 6 and "5B" in said
    for words, original in zip(parts, english.split(", "), strict=True):
        assert words != original, (lang, words)  # each part in the learner's language
