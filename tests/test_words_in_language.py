"""Words that reach the page after a click go through the catalogue too (issue 26 §3):
a card's name in its tooltip and picture, a move inside a message (after a take back, a
move stored at a shared table), the explorer's status line. Card notation (R11), rule
ids and names may stay as they are; a word of the language may not stay English."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from widgetfixtures import close_widgets, no_query  # noqa: F401

from toonerville import explorer as X
from toonerville.engine import actions as A
from toonerville.engine.cards import Card
from toonerville.engine.melds import Meld
from toonerville.engine.messages import set_language
from toonerville.pages import render
from toonerville.pages.render import card_html
from toonerville.store import open_store
from toonerville.widgets.cards import CardButton
from toonerville.widgets.classroom import SharedTable
from toonerville.widgets.explorer_words import finished_text
from toonerville.widgets.session import PlaySession
from toonerville.widgets.session_words import move_words

#: what may stay in Latin letters: card notation (R11, RK=G7), rule ids, a table's code
NOTATION = re.compile(r"\b(?:RK(?:=[RYGB]\d{1,2})?|[RYGB]\d{1,2}|[TH]\d{1,2}a?|[A-Z0-9]{6})\b")
NAMES = re.compile(r"\b(?:Robin|Crow|Jay|Magpie|Raven|Wren|Player)\b")


def english(text: str) -> list[str]:
    """The English words left in `text` (notation and names aside)."""
    return re.findall(r"[A-Za-z]{2,}", NAMES.sub(" ", NOTATION.sub(" ", text)))


@pytest.fixture
def persian() -> Iterator[None]:
    set_language("fa")
    yield
    set_language("en")


def test_a_cards_name_is_said_in_the_language_in_use(persian: None) -> None:
    card_name = render.card_name
    card = Card.parse("R2")
    assert english(card_name(card)) == [] and "2" in card_name(card)
    assert english(card_name(Card.parse("RK"))) == []
    title = re.search(r"<title>(.*?)</title>", card_html(card)).group(1)  # type: ignore[union-attr]
    assert english(title) == [], title
    button = CardButton(card)
    assert english(button.button.tooltip) == [], button.button.tooltip
    set_language("en")  # and it follows the language menu
    assert button.button.tooltip.startswith("Red 2")
    assert card_name(card) == card.name == "Red 2"


@pytest.mark.parametrize("action", [
    A.Draw(0), A.TakeDiscard(0), A.Buy(0), A.Pass(0), A.Discard(0, Card.parse("B13")),
    A.LayDown(0, (Meld.parse("R11 Y11 G11"), Meld.parse("R3 R4 R5 R6"))),
    A.LayOff(0, Card.parse("RK"), (1, 0), Card.parse("G7")),
    A.SwapRook(0, Card.parse("Y8"), (1, 0), lay_off_onto=(2, 0), rook_as=Card.parse("B9")),
])
def test_a_move_inside_a_message_is_in_words_of_the_language(
        persian: None, action: A.Action) -> None:
    words = str(move_words(action))
    assert words and english(words) == [], words


def test_a_move_in_english_reads_as_before() -> None:
    assert str(move_words(A.Draw(0))) == "draw"
    assert str(move_words(A.Discard(0, Card.parse("B13")))) == "discard B13"


def test_a_take_back_in_07_says_the_move_in_the_learners_language(persian: None) -> None:
    session = PlaySession(seed=11, buy_offers="never")
    session.act(A.Draw(0))
    card = session.game.hand(0)[0]
    session.act(A.Discard(0, card))
    assert session.take_back()
    said = str(session.message[1])
    assert str(card) in said and english(said) == [], said
    noted = str(session.notes[-1][1])
    assert english(noted) == [], noted


def test_a_move_stored_at_a_shared_table_is_said_in_the_learners_language(
        persian: None, tmp_path: Path) -> None:
    page = SharedTable(open_store(tmp_path / "class.sqlite"))
    page.open_table(players=3, learners=1, seed=4)
    assert page.seat is not None
    page.seat_view.buy_offers.value = "never"
    page.draw_button.click()
    page.poll()
    card = next(a.card for a in page.seat.legal_actions() if isinstance(a, A.Discard))
    page.hand.pick([card])
    page.discard_button.click()
    assert page.message.kind == "ok" and str(card) in page.message.text
    assert english(page.message.text) == [], page.message.text


@pytest.mark.parametrize("where", ["this process", "2 local processes"])
def test_the_explorers_status_says_where_the_games_were_played_in_words_of_the_language(
        persian: None, where: str) -> None:
    sim = X.Simulation((X.Arm(),), 0, 0, ((),), seconds=1.0, workers=2, where=where)
    text = finished_text(sim)
    assert english(text) == [], text


def test_a_tables_note_on_rounds_cut_short_is_in_the_language(persian: None) -> None:
    sim = X.play_games(X.Arm(bots=("heuristic",) * 3, turn_limit=5), 1, seed=1)
    note = X.round_table(sim.facts[0], X.Arm().rules).shown_note
    assert "turn limit" not in note, note
