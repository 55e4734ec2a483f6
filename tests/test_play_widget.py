"""The play app of notebook 07, driven without a browser: `.click()` buttons, set
`.value`s and read what the widgets show (TOOLCHAIN.md: widgets work without a kernel).
The session model (`widgets/session.py`) is driven directly in `test_play_session.py`."""

from __future__ import annotations

import datetime
import html
import random
import re
from collections.abc import Iterator

import ipywidgets as widgets
import pytest
from gamehelpers import conserved
from widgetfixtures import close_widgets, no_query  # noqa: F401

from toonerville.engine import actions as A
from toonerville.engine.cards import Card, parse_cards, sort_cards
from toonerville.engine.events import Phase
from toonerville.engine.game import Game
from toonerville.engine.rules import Rules
from toonerville.engine.views import PlayerView
from toonerville.players.scenarios import HUMAN_NAME, laydown_scenario, player_names
from toonerville.widgets.play import PlayGame
from toonerville.widgets.play_panels import MOVES, SAVE


class Decliner:
    """A bot that never takes or buys a discard and discards its first card."""

    name = "decliner"

    def choose(self, view: PlayerView, rules: Rules, legal: object,
               rng: random.Random) -> A.Action:
        if view.phase is Phase.BUY:
            return A.Pass(view.seat)
        if view.phase is Phase.DRAW:
            return A.Draw(view.seat)
        return A.Discard(view.seat, view.hand[0])


def position(**setup: object) -> Game:
    """`Game.from_position` with the app's seat names (Robin, Crow, Jay, ...)."""
    return Game.from_position(names=player_names(len(setup["hands"])),  # type: ignore[arg-type]
                              **setup)  # type: ignore[arg-type]


def phase(game: Game) -> Phase:
    """The game's phase now (a call, so a type checker does not carry an earlier one)."""
    return game.phase


def select(app: PlayGame, *cards: str) -> None:
    """Click these cards of the hand, as a player does."""
    wanted = list(parse_cards(" ".join(cards)))
    for picker, card in zip(app.hand.row.children, app.hand.cards, strict=True):
        if card in wanted:
            wanted.remove(card)
            picker.button.value = True
    assert not wanted, f"the hand {app.hand.cards} lacks {wanted}"


def text(widget: widgets.HTML) -> str:
    """The text a reader sees in an HTML widget (tags dropped, entities decoded)."""
    return html.unescape(re.sub(r"<[^>]+>", "", widget.value))


# -- a turn ----------------------------------------------------------------------------------
def test_a_human_turn_draw_select_discard_then_the_bots_play_and_it_is_you_again() -> None:
    app = PlayGame(seed=11, offer_buys=False)
    game = app.game
    assert game.current == 0 and phase(game) is Phase.DRAW
    assert app.hand.cards == sort_cards(game.hand(0))
    assert "Your turn" in text(app.prompt) and "draw" in text(app.prompt)
    app.draw_button.click()
    assert phase(game) is Phase.PLAY and len(app.hand.cards) == 13
    assert app.message.text.startswith("You got ")
    card = app.hand.cards[0]
    select(app, str(card))
    assert app.hand.selected == (card,)
    moves = len(game.actions)
    app.discard_button.click()
    assert game.actions[moves] == A.Discard(0, card)
    assert game.current == 0 and phase(game) is Phase.DRAW  # the bots played, back to you
    bot_moves = [a for a in game.actions[moves + 1:] if a.seat != 0]
    assert {a.seat for a in bot_moves} == {1, 2, 3}
    log = app.log_view.text
    assert f"{HUMAN_NAME} discards {card} (T13)" in log
    assert re.search(r"(Crow|Jay|Magpie) discards \w+ \(T13\)", log)
    assert "Crow" in text(app.others) and "12 cards" in text(app.others)


def test_a_refusal_shows_the_T9_sentence_and_changes_nothing() -> None:
    app = PlayGame(seed=11, offer_buys=False)
    before = app.game.to_json()
    hand = app.hand.cards
    select(app, str(hand[0]))
    app.discard_button.click()
    assert app.message.kind == "error"
    assert "draw first" in app.message.text and app.message.text.endswith("(T9)")
    assert app.game.to_json() == before and app.hand.cards == hand
    app.pass_button.click()  # nothing is offered now
    assert app.message.text.endswith("(T10)") and app.game.to_json() == before
    app.lay_down_button.click()
    assert "draw first" in app.message.text and app.game.to_json() == before


def test_discard_needs_exactly_one_selected_card() -> None:
    app = PlayGame(seed=11, offer_buys=False)
    app.draw_button.click()
    before = app.game.to_json()
    app.discard_button.click()
    assert "Select exactly one card" in app.message.text and "(0 selected now)" in \
        app.message.text
    select(app, *map(str, app.hand.cards[:2]))
    app.discard_button.click()
    assert "(2 selected now)" in app.message.text and app.game.to_json() == before


def test_T14_the_card_taken_from_the_discard_pile_cannot_be_discarded() -> None:
    game = position(hands=["R1 R5 Y9", "G1 G2 G3", "B1 B2 B3"], stock="Y2 Y3 Y4",
                              discard_pile="B9", dealer=2)
    app = PlayGame(game=game, bot_kind=Decliner())
    app.take_button.click()
    assert "You took B9" in text(app.prompt) and "(T14)" in text(app.prompt)
    select(app, "B9")
    app.discard_button.click()
    assert app.message.kind == "error" and app.message.text.endswith("(T14)")
    assert phase(game) is Phase.PLAY and game.current == 0


# -- laying down -------------------------------------------------------------------------------
def test_the_solvers_suggested_lay_down_can_be_made() -> None:
    app = PlayGame(game=laydown_scenario(players=4, seed=7), offer_buys=False)
    app.suggest_button.click()  # before drawing: shown, to be laid down later
    assert "The solver suggests" in app.message.text and "once you have drawn" in \
        app.message.text
    app.draw_button.click()
    app.suggest_button.click()
    suggested = app.suggestion()
    assert suggested is not None
    assert sorted(str(m) for m in suggested) == ["B3 Y3 G3", "R7 Y7 G7"] or \
        {m.number for m in suggested} == {3, 7}
    assert sorted(app.hand.selected, key=lambda c: c.sort_key) == \
        sorted((c for m in suggested for c in m.cards), key=lambda c: c.sort_key)
    assert "a set of 7s" in text(app.suggested)
    app.lay_down_button.click()
    view = app.game.view(0)
    assert view.down[0] and len(view.table[0]) == 2
    assert "a set of 7s" in text(app.table) and "a set of 3s" in text(app.table)
    assert app.message.text.startswith(f"{HUMAN_NAME} lays down")
    assert "down ✓" in text(app.others)
    assert app.toggles[MOVES].value  # laying off comes next
    app.lay_down_button.click()
    assert "already down" in app.message.text


def test_the_laydown_scenario_is_read_from_the_page_address(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUERY_STRING", "scenario=laydown&seed=7")
    app = PlayGame(seed=7)
    assert app.game.hand(0) == laydown_scenario(seed=7).hand(0)
    monkeypatch.setenv("QUERY_STRING", "scenario=nope")
    app = PlayGame(seed=7)
    assert app.message.kind == "error" and "There is no scenario 'nope'" in app.message.text


def test_no_suggestion_says_what_is_missing() -> None:
    game = position(hands=["R1 R5 Y9 B13", "G1 G2 G3", "B1 B2 B3"],
                              stock="Y2 Y3 Y4", discard_pile="B9", dealer=2)
    app = PlayGame(game=game, bot_kind=Decliner())
    app.draw_button.click()
    app.suggest_button.click()
    assert "no lay-down" in app.message.text and "still missing: 2 sets" in app.message.text
    before = app.game.to_json()
    app.lay_down_button.click()
    assert app.message.kind == "error" and app.game.to_json() == before


def test_typed_melds_are_checked_and_laid_down() -> None:
    game = position(hands=["R7 Y7 G7 B3 Y3 G3 R1", "G1 G2 G3", "B1 B2 B3"],
                              stock="Y2 Y4 Y5", discard_pile="B9", dealer=2)
    app = PlayGame(game=game, bot_kind=Decliner())
    app.draw_button.click()
    moves = app.moves_panel
    moves.melds_text.value = "R7 Y7 / B3 Y3 G3"
    moves.lay_down_typed_button.click()
    assert app.message.kind == "error" and "R7 Y7 has 2" in app.message.text
    assert not app.game.view(0).down[0]
    moves.melds_text.value = "R7 Y7 G7 / B3 Y3 G3"
    moves.lay_down_typed_button.click()
    assert app.game.view(0).down[0]


def test_lay_off_and_the_rook_swap() -> None:
    game = position(
        hands=["R7 Y5 B9 G2", "G1 G2 G3 G4", "B1 B2 B3 B4"], stock="Y2 Y3 Y4 R9",
        discard_pile="B12", dealer=2,
        table={0: ["Y7 G7 B7", "R3 R3 R3"], 1: ["B5 B6 RK B8"]})
    app = PlayGame(game=game, bot_kind=Decliner())
    app.draw_button.click()  # takes Y2 from the stock
    moves = app.moves_panel
    assert [label for label, _ in moves.lay_off_meld.options] == [
        f"{HUMAN_NAME}: a set of 7s · Y7 G7 B7", f"{HUMAN_NAME}: a set of 3s · R3 R3 R3",
        "Crow: a run of Black 5–8 · B5 B6 RK=B7 B8"]
    moves.lay_off_button.click()
    assert "Select exactly one card" in app.message.text
    select(app, "R7")
    moves.lay_off_meld.value = (0, 0)
    moves.lay_off_button.click()
    assert str(app.game.view(0).table[0][0]) == "Y7 G7 B7 R7"
    # the Rook in Crow's run stands for B7; nobody holds it, so swap in B9? refused
    select(app, "B9")
    moves.swap_source.value = (1, 0)
    moves.swap_target.value = (1, 0)
    moves.swap_end.value = "high"
    before = app.game.to_json()
    moves.swap_button.click()
    assert app.message.kind == "error" and "(T18)" in app.message.text
    assert app.game.to_json() == before


def test_rook_swap_puts_the_natural_card_in_and_lays_the_rook_off() -> None:
    game = position(
        hands=["B7 Y5 G2", "G1 G2 G3 G4", "B1 B2 B3 B4"], stock="Y2 Y3 Y4 R9",
        discard_pile="B12", dealer=2,
        table={0: ["Y7 G7 B7", "R3 R3 R3"], 1: ["B5 B6 RK B8"]})
    app = PlayGame(game=game, bot_kind=Decliner())
    app.draw_button.click()
    moves = app.moves_panel
    select(app, "B7")
    moves.swap_source.value = (1, 0)
    moves.swap_target.value = (1, 0)
    moves.swap_end.value = "high"
    moves.swap_button.click()
    assert str(app.game.view(0).table[1][0]) == "B5 B6 B7 B8 RK=B9", app.message.text


# -- buying ------------------------------------------------------------------------------------
def test_buying_when_a_bot_declines_the_discard() -> None:
    game = position(
        hands=["R1 R5 Y9", "G1 G2 G3", "B1 B2 B3", "Y11 Y12 Y13"],
        stock="Y2 Y3 Y4 G9 G10 G11 G12 G13", discard_pile="R14", dealer=0)
    app = PlayGame(game=game, bot_kind=Decliner(), buy_offers="always")
    # seat 1 declined R14; seats 2 and 3 passed; now it is your answer
    assert phase(game) is Phase.BUY and game.deciders == (0,)
    assert app.buy_row.layout.display == "flex"
    assert app.buy_button.description == "Buy R14"
    assert "Offer 1: Crow declines R14" in text(app.offer_text)
    app.buy_button.click()
    assert Card.parse("R14") in game.hand(0) and Card.parse("Y2") in game.hand(0)
    assert len(game.hand(0)) == 5
    assert f"{HUMAN_NAME} buys R14 (T10)" in app.log_view.text
    assert "bought 1" in text(app.others)


def test_passing_and_the_offer_switch() -> None:
    game = position(
        hands=["R1 R5 Y9", "G1 G2 G3", "B1 B2 B3", "Y11 Y12 Y13"],
        stock="Y2 Y3 Y4 G9 G10 G11 G12 G13", discard_pile="R14", dealer=0)
    app = PlayGame(game=game, bot_kind=Decliner(), buy_offers="always")
    app.pass_button.click()
    assert f"{HUMAN_NAME} passes (T10)" in app.log_view.text
    assert len(game.hand(0)) == 3
    assert phase(game) is Phase.BUY and game.deciders == (0,)  # Jay's discard now
    app.buy_offers.value = "never"  # pass for me from now on
    assert phase(game) is Phase.DRAW and game.current == 0
    assert app.buy_row.layout.display == "none"


# -- save and load -------------------------------------------------------------------------------
def test_save_then_load_round_trips() -> None:
    app = PlayGame(seed=5, offer_buys=False)
    app.draw_button.click()
    select(app, str(app.hand.cards[-1]))
    app.discard_button.click()
    saved = app.save()
    assert app.toggles[SAVE].value and app.save_panel.save_text.value == saved
    assert "Download" in app.save_panel.download.value
    hand = app.hand.cards
    app.new_game()
    assert app.game.seed == 6 and app.hand.cards != hand
    app.save_panel.save_text.value = saved
    app.save_panel.load_button.click()
    assert app.game.to_json() == saved and app.hand.cards == hand
    assert app.message.text.startswith("Loaded: round 1")


def test_loading_garbage_shows_the_save_file_sentence_and_keeps_the_game() -> None:
    app = PlayGame(seed=5, offer_buys=False)
    game, before = app.game, app.game.to_json()
    assert not app.load("this is not a saved game")
    assert app.message.kind == "error"
    assert app.message.text.startswith("This file is not a saved game: it is not complete JSON")
    assert app.game is game and game.to_json() == before
    assert not app.load(before.replace('"draw"', '"fly"', 1) if '"draw"' in before
                        else before[: len(before) // 2])
    assert app.message.text.startswith("This file is not a saved game: ")
    assert "went wrong" not in app.message.text
    assert app.game is game


def test_upload_loads_a_file() -> None:
    app = PlayGame(seed=5, offer_buys=False)
    saved = app.save()
    app.new_game()
    app.save_panel.upload.value = ({
        "name": "g.json", "type": "application/json", "size": len(saved),
        "content": memoryview(saved.encode()),
        "last_modified": datetime.datetime.now(datetime.UTC)},)
    assert app.game.to_json() == saved


# -- a whole game --------------------------------------------------------------------------------
def test_a_whole_game_by_clicking_draw_and_discard() -> None:
    app = PlayGame(seed=3, bots=2, offer_buys=False, turn_limit=6)
    for _ in range(200):
        if app.game.is_over:
            break
        app.draw_button.click()
        select(app, str(app.hand.cards[-1]))
        app.discard_button.click()
    game = app.game
    assert game.is_over and len(game.scores) == 11
    assert "The game is over" in text(app.prompt)
    assert "Total" in text(app.score_sheet) and len(app.score_sheet.rows) == 11
    app.draw_button.click()
    assert app.message.text == "the game is over: all 11 rounds have been played (T7)"


def test_a_round_over_message_says_who_went_out() -> None:
    game = position(hands=["R7 Y7 G7 B3 Y3 G3 R1", "G1 G2 G3 G5", "B1 B2 B3 B5"],
                              stock="B7 Y4 Y5 Y6 Y8", discard_pile="B9", dealer=2)
    app = PlayGame(game=game, bot_kind=Decliner())
    app.draw_button.click()  # B7
    app.lay_down_button.click()  # the solver lays down everything but R1
    assert app.hand.cards == (Card.parse("R1"),)
    select(app, "R1")
    app.discard_button.click()  # the last card: out (T16)
    assert game.round_number == 2
    assert app.message.kind == "ok"
    assert app.message.text.startswith("Round 1 is over: you went out. Points: Robin 0, "
                                       "Crow 20, Jay 20")
    assert "Round 2 is dealt; its contract is 1 run + 1 set (T20)" in app.message.text
    assert app.score_sheet.rows == ((0, 20, 20),)
    assert "Round 2 of 11" in text(app.status)


def test_autoplay_finishes_the_game() -> None:
    app = PlayGame(seed=2, bots=2, turn_limit=30)
    app.save_panel.autoplay_button.click()
    assert app.game.is_over and "The game is over" in text(app.prompt)


# -- nothing a player clicks can break the game ---------------------------------------------------
def test_random_clicks_never_break_the_game() -> None:
    app = PlayGame(seed=9, bots=3, turn_limit=12)
    moves = app.moves_panel
    rng = random.Random(1)
    buttons = [app.draw_button, app.take_button, app.buy_button, app.pass_button,
               app.suggest_button, app.lay_down_button, app.discard_button,
               moves.lay_down_typed_button, moves.lay_off_button, moves.swap_button]
    for _ in range(600):
        cards = app.hand.cards
        app.hand.pick(rng.sample(cards, k=min(len(cards), rng.choice([0, 1, 1, 1, 2]))))
        if rng.random() < 0.2 and moves.lay_off_meld.options:
            moves.lay_off_meld.value = rng.choice(moves.lay_off_meld.options)[1]
        if rng.random() < 0.1:
            moves.melds_text.value = rng.choice(["R1 R2 R3 R4 / Y5 Y5 Y5", "garbage", "RK RK RK",
                                               " / ".join(str(m) for m in
                                                          app.suggestion() or ())])
        rng.choice(buttons).click()
        assert "went wrong" not in app.message.text, app.message.text
        assert app.game.is_over or conserved(app.game)
        if app.game.is_over:
            break
        assert app.hand.cards == sort_cards(app.game.hand(0))


def test_settings_panel_choose_bots_kind_seed_and_house_rules() -> None:
    app = PlayGame(seed=7)
    assert app.settings_panel.seed.value == 8  # the next game's seed
    app.settings_panel.bots_count.value = 2
    app.settings_panel.bot_kind.value = "random"
    app.settings_panel.seed.value = 42
    app.settings_panel.rules_panel.controls["penalty_cards"].value = 2
    app.new_game_button.click()
    game = app.game
    assert game.players == 3 and game.seed == 42 and game.rules.penalty_cards == 2
    assert [type(b).__name__ for b in app.session.bots[1:]] == ["RandomBot", "RandomBot"]
    assert app.settings_panel.seed.value == 43
    app.settings_panel.rules_panel.controls["penalty_cards"].value = 9  # refused by the panel
    app.new_game_button.click()
    assert app.game is game and "Fix the house rules first" in app.message.text


def test_card_size_toggle() -> None:
    app = PlayGame(seed=7)
    app.size_toggle.value = "projector"
    assert app.hand.size == "projector"
    assert 'width="180"' in app.piles.value and app.table.size == "large"  # a step smaller
    assert "tv-size-projector" in app._dom_classes


# -- languages ----------------------------------------------------------------------------
@pytest.fixture
def _english_after() -> Iterator[None]:
    from toonerville.engine.messages import set_language

    yield
    set_language("en")


@pytest.mark.usefixtures("_english_after")
def test_a_change_of_language_redraws_the_app_and_sets_its_direction() -> None:
    from toonerville.engine.messages import set_language

    app = PlayGame(seed=11, offer_buys=False)
    assert app.take_button.description == "Take the discard"
    assert "tr-rtl" not in app._dom_classes
    app.language.value = "fa"
    assert re.search("[\u0600-\u06ff]", app.take_button.description)
    assert "tr-rtl" in app._dom_classes
    set_language("hi")
    assert re.search("[\u0900-\u097f]", app.take_button.description)
    assert "tr-rtl" not in app._dom_classes
    set_language("en")
    assert app.take_button.description == "Take the discard"
    assert app.draw_button.description == "Draw from stock"


@pytest.mark.usefixtures("_english_after")
def test_the_draw_button_speaks_persian() -> None:
    from toonerville.engine.messages import set_language

    set_language("fa")
    app = PlayGame(seed=11, offer_buys=False)
    assert re.search("[\u0600-\u06ff]", app.draw_button.description)


def test_cards_are_named_buttons_with_a_spoken_tooltip() -> None:
    app = PlayGame(seed=11, offer_buys=False)
    for picker, card in zip(app.hand.row.children, app.hand.cards, strict=True):
        assert picker.button.description == str(card)
        assert card.name in picker.button.tooltip  # "Red 7"
        assert "tr-card" in picker.button._dom_classes
