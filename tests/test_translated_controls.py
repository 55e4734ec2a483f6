"""One way to give a control translated texts, and every control made with it follows
the language menu (issue 26 §4): `base.translated`, by itself or through its owner part;
the shared-table lobby and the opener's hand-over menu are made with it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import ipywidgets as widgets
import pytest
from widgetfixtures import close_widgets, no_query  # noqa: F401

from toonerville.engine.messages import N_, set_language, translate
from toonerville.store import open_store
from toonerville.widgets.base import MessageBox, translated, translated_button
from toonerville.widgets.classroom import SharedTable
from toonerville.widgets.tournament import TeacherDesk
from toonerville.widgets.tournament_seat import TournamentSeat


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


def german(text: str) -> str:
    """`text` in German (the language in use must be German)."""
    assert set_language("de") == "de"
    return translate(text)


def test_a_translated_control_follows_the_language_menu_and_keeps_its_value() -> None:
    choice = translated(widgets.Dropdown(options=[("x", 1), ("y", 2)], value=2),
                        description=N_("Seat"),
                        options=lambda: [(translate(N_("Players")), 1), ("y", 2)])
    button = translated_button(N_("Join"), "tr-join", N_("Join"))
    assert choice.description == "Seat" and choice.options[0][0] == "Players"
    set_language("de")
    assert choice.description == german("Seat") != "Seat"
    assert choice.label == "y" and choice.value == 2
    assert choice._options_labels[0] == german("Players") != "Players"
    assert button.description == german("Join") != "Join"
    choice.close()
    set_language("en")  # a closed control is left alone
    assert choice.description != "Seat"
    assert button.description == "Join"


def test_the_shared_tables_lobby_follows_the_language_menu(tmp_path: Path) -> None:
    page = SharedTable(open_store(tmp_path / "class.sqlite"))
    page.seat_choice.value = 2
    set_language("de")
    for control, text in ((page.name_text, "Your name"), (page.players, "Players"),
                          (page.learners, "Learners"), (page.code_text, "Table code"),
                          (page.seat_choice, "Seat"), (page.key_text, "Rejoin key"),
                          (page.away_after, "Away after (seconds)"),
                          (page.give_seat_choice, "Seat")):
        assert control.description == german(text) != text, text
    assert page.key_text.placeholder == german("only to rejoin your seat")
    assert page.seat_choice.value == 2 and "2" in page.seat_choice.label
    assert page.give_to.options[-1][0] == german("to a new learner")
    assert isinstance(page.message, MessageBox)


def test_the_tournaments_pages_follow_the_language_menu(tmp_path: Path) -> None:
    store = open_store(tmp_path / "class.sqlite")
    desk, seat = TeacherDesk(store), TournamentSeat(store)
    set_language("de")
    for control, text in ((desk.learners, "Learners"),  # ("Bots" is German too)
                          (desk.bot_kind, "Bots play"), (desk.rounds, "Rounds"),
                          (desk.auto, "Next round by itself"),
                          (desk.reopen_code, "Tournament code"),
                          (seat.t_name, "Your name"), (seat.t_key, "Your key")):
        assert control.description == german(text) != text, text
    assert desk.learners.placeholder == german("one name per line, or Ann, Bob, Cat")


def test_pass_and_play_s_lobby_follows_the_language_menu() -> None:
    from toonerville.engine.messages import _
    from toonerville.widgets.passplay import PassAndPlay

    page = PassAndPlay()
    page.kind_choices[1].index = 2  # a bot's level, kept across the change
    chosen = page.kind_choices[1].value
    set_language("de")
    assert page.players.description == german("Players") != "Players"
    assert page.name_texts[2].description == _("Seat {k}").format(k=2) != "Seat 2"
    assert page.name_texts[2].placeholder == _("Player {k}").format(k=2) != "Player 2"
    assert page.kind_choices[1].description == german("played by") != "played by"
    assert page.kind_choices[1].value == chosen
    assert page.kind_choices[0]._options_labels[0] == german("a learner") != "a learner"
