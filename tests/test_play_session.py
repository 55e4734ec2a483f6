"""The play app's session model (`widgets/session.py`) and what the second edition of
notebook 07 adds: take back, hints, the buy-offer setting, where the focus goes, and the
slips found in use. Driven without a browser."""

from __future__ import annotations

import re
from collections.abc import Iterator

import ipywidgets as widgets
import pytest
from test_play_widget import Decliner, position, select, text
from widgetfixtures import close_widgets, no_query  # noqa: F401

from toonerville.engine import actions as A
from toonerville.engine.cards import Card
from toonerville.engine.events import Phase
from toonerville.widgets.play import PlayGame
from toonerville.widgets.play_panels import MAX_TYPED_CHARS
from toonerville.widgets.session import PlaySession


def _turn(app: PlayGame) -> None:
    """Draw, then discard the first card the engine accepts."""
    app.draw_button.click()
    for card in app.hand.cards:
        if app.game.is_legal(A.Discard(0, card)):
            select(app, str(card))
            app.discard_button.click()
            return


# -- the model -------------------------------------------------------------------------------
def test_the_session_announces_each_move_and_the_phase() -> None:
    session = PlaySession(seed=11, buy_offers="never")
    seen: list[tuple[int, str]] = []
    session.observe(lambda _c: seen.append((session.moves, session.phase)), "revision")
    assert session.phase == "draw" and session.moves == len(session.game.actions)
    assert session.act(A.Draw(0))
    assert seen[-1] == (len(session.game.actions), "play")
    assert not session.act(A.Draw(0))  # refused: said, not announced as a change
    assert session.message[2] == "error" and str(session.message[1]).endswith("(T9)")
    assert len(seen) == 1


# -- take back -------------------------------------------------------------------------------
def test_take_back_undoes_my_discard_and_the_bots_moves_after_it() -> None:
    app = PlayGame(seed=11, offer_buys=False)
    app.draw_button.click()
    before = app.game.actions
    hand = app.hand.cards
    select(app, str(hand[0]))
    app.discard_button.click()
    assert len(app.game.actions) > len(before) + 3  # the bots played
    app.undo_button.click()
    assert app.game.actions == before and app.hand.cards == hand
    assert app.game.phase is Phase.PLAY and app.game.current == 0
    assert app.message.text.startswith(f"Taken back: discard {hand[0]}")
    assert f"Robin took back discard {hand[0]}" in app.log_view.text
    app.undo_button.click()  # the draw too
    app.undo_button.click()  # and now nothing of mine is left to take back
    assert app.message.kind == "error" and "no move of yours" in app.message.text


# -- hint ------------------------------------------------------------------------------------
def test_hint_shows_the_heuristic_bots_move_with_its_reason_and_logs_it() -> None:
    app = PlayGame(seed=11, offer_buys=False)
    app.hint_button.click()
    assert app.message.text.startswith("Hint: ") and app.message.text.endswith(")")
    assert len(re.findall(r"\([TH]\d+a?\)", app.message.text)) == 1
    assert "Hint for Robin" in app.log_view.text
    app.draw_button.click()
    app.hint_button.click()  # a discard: the card is selected for you
    assert len(app.hand.selected) == 1
    card = app.hand.selected[0]
    assert f"discard {card}" in app.message.text
    assert app.game.is_legal(A.Discard(0, card))


# -- buy offers ------------------------------------------------------------------------------
def _offers(setting: str, turns: int = 12) -> list[tuple[int, Card, int]]:
    """The offers a human sees in a few turns of seed 21 (passing each)."""
    app = PlayGame(seed=21, buy_offers=setting)
    seen = []
    for _ in range(turns * 5):
        if app.game.is_over:
            break
        if app.recap.shown:  # a round ended: its recap covers the table until Continue
            app.recap.continue_button.click()
        if app.session.offer:
            seen.append(app.session.offer)
            assert app.buy_row.layout.display == "flex"
            app.pass_button.click()
        else:
            assert app.buy_row.layout.display == "none"
            _turn(app)
    return seen


def test_buy_offers_only_help_by_default_and_every_one_or_none_on_request() -> None:
    always, helpful, never = _offers("always"), _offers("helpful"), _offers("never")
    assert never == [] and len(helpful) < len(always)
    assert helpful  # some declined discards do help in these turns


def test_each_offer_shown_helps_and_says_why() -> None:
    app = PlayGame(seed=21)
    for _ in range(60):
        if app.session.offer:
            assert app.session.offer_reason() is not None
            assert "tr-offer-why" in app.offer_text.value
            app.pass_button.click()
        else:
            _turn(app)


def test_consecutive_offers_are_numbered_and_look_different() -> None:
    game = position(
        hands=["R1 R5 Y9", "G1 G2 G3", "B1 B2 B3", "Y11 Y12 Y13"],
        stock="Y2 Y3 Y4 G9 G10 G11 G12 G13", discard_pile="R14", dealer=0)
    app = PlayGame(game=game, bot_kind=Decliner(), buy_offers="always")
    first = app.offer_text.value
    assert "Offer 1: Crow declines R14" in text(app.offer_text) and "tr-offer-odd" in first
    app.pass_button.click()
    assert "Offer 2: Jay declines" in text(app.offer_text)
    assert "tr-offer-even" in app.offer_text.value


def test_choosing_never_passes_the_offer_now_open() -> None:
    game = position(
        hands=["R1 R5 Y9", "G1 G2 G3", "B1 B2 B3", "Y11 Y12 Y13"],
        stock="Y2 Y3 Y4 G9 G10 G11 G12 G13", discard_pile="R14", dealer=0)
    app = PlayGame(game=game, bot_kind=Decliner(), buy_offers="always")
    app.buy_offers.value = "never"
    assert app.game.phase is Phase.DRAW and not app.session.offer


# -- the focus -------------------------------------------------------------------------------
@pytest.fixture
def focused(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[widgets.Widget]]:
    """The widgets the app moves the focus to, in order."""
    seen: list[widgets.Widget] = []
    monkeypatch.setattr(widgets.DOMWidget, "focus", lambda self: seen.append(self))
    yield seen


def test_a_basic_turn_moves_the_focus_draw_card_discard_draw(
        focused: list[widgets.Widget]) -> None:
    app = PlayGame(seed=11, offer_buys=False)
    assert focused[-1] is app.draw_button
    app.draw_button.click()
    drawn = [c for c in app.hand.cards]
    assert "tr-card" in focused[-1]._dom_classes  # the card just drawn
    index = [p.button for p in app.hand.row.children].index(focused[-1])
    assert app.game.view(0).hand.count(drawn[index]) >= 1
    focused[-1].value = True  # Space on it
    assert focused[-1] is app.discard_button
    app.discard_button.click()
    assert focused[-1] is app.draw_button  # the bots played; your next turn


# -- the slips -------------------------------------------------------------------------------
def test_T14_the_reminder_goes_once_the_taken_card_is_melded() -> None:
    game = position(hands=["R7 Y7 B3 Y3 G3 R1 R2", "G1 G2 G3 G5", "B1 B2 B3 B5"],
                    stock="Y2 Y4 Y5", discard_pile="G7", dealer=2)
    app = PlayGame(game=game, bot_kind=Decliner())
    app.take_button.click()
    assert "You took G7" in text(app.prompt) and "(T14)" in text(app.prompt)
    moves = app.moves_panel
    moves.melds_text.value = "R7 Y7 G7 / B3 Y3 G3"
    moves.lay_down_typed_button.click()
    assert app.game.view(0).down[0]
    assert "You took" not in text(app.prompt) and "(T14)" not in text(app.prompt)


def test_every_sentence_carries_one_rule_id() -> None:
    game = position(hands=["R1 R5 Y9 B13", "G1 G2 G3", "B1 B2 B3"],
                    stock="Y2 Y3 Y4", discard_pile="B9", dealer=2)
    app = PlayGame(game=game, bot_kind=Decliner())
    app.draw_button.click()
    app.suggest_button.click()  # "still missing ..." used to end "(T7) (T15)"
    for widget in (app.message, app.prompt):
        shown = widget.text if widget is app.message else text(widget)
        assert len(re.findall(r"\([TH]\d+a?\)", shown)) <= 1, shown


def test_the_suggestion_is_cleared_when_the_round_ends() -> None:
    game = position(hands=["R7 Y7 G7 B3 Y3 G3 R1", "G1 G2 G3 G5", "B1 B2 B3 B5"],
                    stock="B7 Y4 Y5 Y6 Y8", discard_pile="B9", dealer=2)
    app = PlayGame(game=game, bot_kind=Decliner())
    app.draw_button.click()
    app.suggest_button.click()
    assert "a set of 7s" in text(app.suggested)
    app.lay_down_button.click()
    select(app, "R1")
    app.discard_button.click()
    assert app.game.round_number == 2
    assert app.suggested.value == ""  # the suggestion shown is gone with its round


def test_a_swap_says_where_the_rook_went_and_defaults_to_a_swap_that_applies() -> None:
    game = position(
        hands=["B7 Y5 G2", "G1 G2 G3 G4", "B1 B2 B3 B4"], stock="Y2 Y3 Y4 R9",
        discard_pile="B12", dealer=2,
        table={0: ["Y7 G7 B7", "R3 R3 R3"], 1: ["B5 B6 RK B8"]})
    app = PlayGame(game=game, bot_kind=Decliner())
    app.draw_button.click()
    moves = app.moves_panel
    action = A.SwapRook(0, Card.parse("B7"), moves.swap_source.value,
                        moves.swap_target.value)
    assert app.game.is_legal(action)  # the defaults apply as they stand
    select(app, "B7")
    moves.swap_button.click()
    assert app.message.text == ("You put B7 in the Rook's place; the Rook went onto "
                                "Robin's Y7 G7 B7 RK (T18)")


def test_dropdowns_never_show_a_blank_and_labels_are_not_cut_off() -> None:
    app = PlayGame(seed=11, offer_buys=False)
    moves = app.moves_panel
    for dropdown in (moves.lay_off_meld, moves.swap_source, moves.swap_target,
                     moves.lay_off_end, moves.swap_end, app.buy_offers,
                     app.settings_panel.bot_kind):
        values = [value for _label, value in dropdown.options]
        assert dropdown.value in values and dropdown.value is not None
        assert dropdown.label  # what the page shows
    for control in (moves.melds_text, moves.lay_off_meld, moves.swap_source,
                    app.settings_panel.seed):
        assert control.style.description_width == "initial"


@pytest.mark.parametrize("bad", [b"\x89PNG\r\n\x1a\n\x00\x00", b"[1, 2, 3]", b'{"game": 1}',
                                 b"x" * 3_000_000])
def test_a_bad_file_is_blamed_on_the_file_and_the_page_plays_on(bad: bytes) -> None:
    app = PlayGame(seed=5, offer_buys=False)
    before = app.game.to_json()
    assert not app.load(bad)
    assert app.message.kind == "error"
    assert app.message.text.startswith("This file is not a saved game: ")
    assert "went wrong" not in app.message.text
    assert app.game.to_json() == before
    app.draw_button.click()  # not half-broken
    assert app.game.phase is Phase.PLAY


def test_the_melds_box_caps_what_it_takes() -> None:
    app = PlayGame(seed=11, offer_buys=False)
    app.draw_button.click()
    moves = app.moves_panel
    moves.melds_text.value = "R1 " * MAX_TYPED_CHARS
    moves.lay_down_typed_button.click()
    assert app.message.kind == "error" and f"type at most {MAX_TYPED_CHARS}" in \
        app.message.text.replace(",", "")


def test_the_key_legend_and_the_panels_are_buttons_in_turn_order() -> None:
    app = PlayGame(seed=11, offer_buys=False)
    assert "Tab" in app.key_legend.value and "D, the card&#x27;s number" in \
        app.key_legend.value
    parts = [part for w in app.children
             for part in (w.children if w is app.seat_view else (w,))]
    order = [next(iter(w._dom_classes[-1:]), "") for w in parts]
    turn = ["tr-message", "tr-seat-board", "tr-buy-row", "tr-start", "tr-hand", "tr-moves",
            "tr-record", "tr-panels", "tr-toolbar", "tr-keys"]
    assert [css for css in order if css in turn] == turn  # the Tab order of a turn
    for toggle in app.toggles:
        assert isinstance(toggle, widgets.ToggleButton)
    app.toggles[1].value = True
    assert app.panel_boxes[1].layout.display == "flex"
    app.toggles[1].value = False
    assert app.panel_boxes[1].layout.display == "none"


def test_projector_size_scales_the_sentences_too() -> None:
    from toonerville.widgets.seat_style import SEAT_CSS

    app = PlayGame(seed=11, offer_buys=False, size="projector")
    seat = app.seat_view
    assert "tv-size-projector" in seat._dom_classes  # the seat's sentences follow its size
    assert ".tr-seat-view.tv-size-projector .tr-prompt { font-size: 31px; }" in SEAT_CSS
    assert ".tr-seat-view.tv-size-projector .tr-others { font-size: 28px; }" in SEAT_CSS
    app.draw_button.click()
    assert "font-size:28px" in app.log_view.value
    app.size_toggle.value = "normal"
    assert "font-size:14px" in app.log_view.value and "tv-size-normal" in seat._dom_classes
    assert ".tr-seat-view.tv-size-normal .tr-others { font-size: 14px; }" in SEAT_CSS


def test_the_log_keeps_my_last_move_in_view_however_much_the_bots_did() -> None:
    app = PlayGame(seed=11)
    app.draw_button.click()
    card = app.hand.cards[0]
    select(app, str(card))
    app.discard_button.click()
    assert f"Robin discards {card} (T13)" in app.log_view.value  # shown, not only kept


def test_the_greeting_is_shown_in_the_language_chosen_after_it_was_made() -> None:
    """The page applies its language after the session greets the learner: the greeting
    (and the bot kind and whose turn it is inside it) must follow the language then."""
    from toonerville.engine import messages

    messages.set_language("en")
    try:
        session = PlaySession(seed=3, bots=3)
        greeting = session.message[1]
        english = str(greeting)
        assert "heuristic" in english and "It is your move." in english
        messages.set_language("de")
        german = str(greeting)
        assert "Du bist am Zug." in german, german
        assert "heuristic" not in german, german
    finally:
        messages.set_language("en")
