"""Notebook 07 in Chromium through Voila: the play app renders, a human plays whole turns
and the bots answer, and the solver's suggested lay-down reaches the table; a basic turn
by keyboard alone, Save and Load by keyboard, Hint and Take back, the buy-offer setting,
and the message box in view at classroom and projector sizes."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from play_page import pass_by_click, pass_offers, tab_to, wait_for_focus, wait_for_my_move
from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from tests.conftest import OpenNotebook

NOTEBOOK = "07-play-a-game.ipynb"
TIMEOUT_MS = 30_000


def _cards(page: Page) -> list[str]:
    return page.locator(".tr-hand .tr-card").all_text_contents()


def test_07_renders_without_errors(open_notebook: OpenNotebook) -> None:
    voila = open_notebook(NOTEBOOK, wait_for=".tr-draw", seed=7)
    page = voila.page
    expect(page.locator(".tr-draw")).to_be_enabled()
    expect(page.locator(".tr-hand .tr-card")).to_have_count(12, timeout=TIMEOUT_MS)
    expect(page.locator(".tr-status")).to_contain_text("Round 1 of 11")
    expect(page.locator(".tr-score-sheet")).to_contain_text("Score sheet")
    expect(page.locator(".tr-message")).to_contain_text("A new game (seed 7)")
    assert voila.stderr_outputs().count() == 0
    assert voila.errors == []


def test_full_turns_and_the_bots_answer(open_notebook: OpenNotebook) -> None:
    voila = open_notebook(NOTEBOOK, wait_for=".tr-draw", seed=11)
    page = voila.page
    log = page.locator(".tr-log")
    for _turn in range(2):
        wait_for_my_move(page)
        pass_offers(page, pass_by_click)
        before = len(_cards(page))
        page.locator(".tr-draw").click()
        expect(page.locator(".tr-hand .tr-card")).to_have_count(before + 1,
                                                                timeout=TIMEOUT_MS)
        chosen = page.locator(".tr-hand .tr-card").last
        card = chosen.text_content()
        chosen.click()
        expect(chosen).to_have_class(re.compile(r"\bmod-active\b"), timeout=TIMEOUT_MS)
        page.locator(".tr-discard").click()
        expect(log).to_contain_text(f"Robin discards {card} (T13)", timeout=TIMEOUT_MS)
        expect(page.locator(".tr-hand .tr-card")).to_have_count(before, timeout=TIMEOUT_MS)
        wait_for_my_move(page)
    # the bots answered: their own moves are in the log
    expect(log).to_contain_text("Crow", timeout=TIMEOUT_MS)
    assert any(f"{bot} discards" in log.inner_text() or f"{bot} passes" in log.inner_text()
               for bot in ("Crow", "Jay", "Magpie"))
    assert voila.stderr_outputs().count() == 0
    assert voila.errors == []


def test_a_refusal_is_shown_not_raised(open_notebook: OpenNotebook) -> None:
    voila = open_notebook(NOTEBOOK, wait_for=".tr-draw", seed=11)
    page = voila.page
    wait_for_my_move(page)
    if page.locator(".tr-buy-row").is_visible():
        page.locator(".tr-pass").click()
        wait_for_my_move(page)
    page.locator(".tr-lay-down").click()  # before drawing
    expect(page.locator(".tr-message")).to_contain_text(re.compile("draw first", re.I),
                                                        timeout=TIMEOUT_MS)
    expect(page.locator(".tr-message")).to_contain_text("(T9)")
    assert voila.stderr_outputs().count() == 0
    assert voila.errors == []


def test_the_suggested_lay_down_reaches_the_table(open_notebook: OpenNotebook) -> None:
    voila = open_notebook(NOTEBOOK, wait_for=".tr-draw", scenario="laydown")
    page = voila.page
    expect(page.locator(".tr-prompt")).to_contain_text("Your turn: draw", timeout=TIMEOUT_MS)
    page.locator(".tr-draw").click()
    expect(page.locator(".tr-prompt")).to_contain_text("lay down 2 sets", timeout=TIMEOUT_MS)
    page.locator(".tr-suggest").click()
    expect(page.locator(".tr-message")).to_contain_text("The solver suggests",
                                                        timeout=TIMEOUT_MS)
    expect(page.locator(".tr-hand .tr-card.mod-active")).to_have_count(6, timeout=TIMEOUT_MS)
    page.locator(".tr-lay-down").click()
    table = page.locator(".tr-table")
    expect(table).to_contain_text("a set of 7s", timeout=TIMEOUT_MS)
    expect(table).to_contain_text("a set of 3s")
    expect(page.locator(".tr-hand .tr-card")).to_have_count(7)
    expect(page.locator(".tr-message")).to_contain_text("Robin lays down")
    assert voila.stderr_outputs().count() == 0
    assert voila.errors == []


# -- languages: ?lang=fa (Persian, right to left) and ?lang=hi (Hindi) ---------------------
SCRIPTS = {"fa": (re.compile("[\u0600-\u06ff]"), "rtl"),
           "hi": (re.compile("[\u0900-\u097f]"), "ltr")}


def _wait_for_my_draw(page: Page) -> None:
    """Language-neutral: the Draw button is highlighted, or a buy is offered to you."""
    page.wait_for_function(
        """() => document.querySelector('.tr-draw.mod-primary') !== null ||
                 getComputedStyle(document.querySelector('.tr-buy-row')).display !== 'none'""",
        timeout=TIMEOUT_MS)


@pytest.mark.parametrize("lang", sorted(SCRIPTS))
def test_07_in_another_language(open_notebook: OpenNotebook, lang: str) -> None:
    script, direction = SCRIPTS[lang]
    voila = open_notebook(NOTEBOOK, wait_for=".tr-draw", seed=11, lang=lang)
    page = voila.page
    app = page.locator(".tr-play")
    assert page.evaluate("() => getComputedStyle(document.querySelector('.tr-play')).direction"
                         ) == direction
    if direction == "rtl":
        expect(app).to_have_class(re.compile(r"\btr-rtl\b"))
    else:
        expect(app).not_to_have_class(re.compile(r"\btr-rtl\b"))
    take = page.locator(".tr-take").inner_text()
    assert take != "Take the discard" and script.search(take), take
    assert script.search(page.locator(".tr-language").inner_text())
    assert script.search(page.locator(".tr-piles").inner_text())
    # a whole turn: draw, select a card, discard it; the bots answer
    _wait_for_my_draw(page)
    pass_offers(page, pass_by_click, then=_wait_for_my_draw)
    log = page.locator(".tr-log")
    logged = log.inner_text()
    before = len(_cards(page))
    page.locator(".tr-draw").click()
    expect(page.locator(".tr-hand .tr-card")).to_have_count(before + 1, timeout=TIMEOUT_MS)
    chosen = page.locator(".tr-hand .tr-card").last
    chosen.click()
    expect(chosen).to_have_class(re.compile(r"\bmod-active\b"), timeout=TIMEOUT_MS)
    page.locator(".tr-discard").click()
    expect(page.locator(".tr-hand .tr-card")).to_have_count(before, timeout=TIMEOUT_MS)
    expect(log).not_to_have_text(logged, timeout=TIMEOUT_MS)
    assert voila.stderr_outputs().count() == 0
    assert voila.errors == []


# -- the keyboard, take back and hint, the buy offers (issue 9) ----------------------------
def test_a_basic_turn_by_keyboard_alone_takes_at_most_six_presses(
        open_notebook: OpenNotebook) -> None:
    voila = open_notebook(NOTEBOOK, wait_for=".tr-draw", seed=11)
    page = voila.page
    wait_for_my_move(page)
    pass_offers(page)
    cards = page.locator(".tr-hand .tr-card")
    log = page.locator(".tr-log")
    tab_to(page, "tr-draw")  # the first turn: Tab into the page
    for turn in range(2):
        if turn:  # after the bots, the focus is back on Draw (or on an offer)
            wait_for_my_move(page)
            pass_offers(page)
            wait_for_focus(page, "tr-draw")
        before, presses = cards.count(), 0
        page.keyboard.press("Enter")  # draw
        presses += 1
        expect(cards).to_have_count(before + 1, timeout=TIMEOUT_MS)
        wait_for_focus(page, "tr-card")  # the card just drawn
        card = page.evaluate("() => document.activeElement.textContent")
        page.keyboard.press("Space")  # select it
        presses += 1
        expect(page.locator(".tr-hand .tr-card.mod-active")).to_have_count(
            1, timeout=TIMEOUT_MS)
        wait_for_focus(page, "tr-discard")
        page.keyboard.press("Enter")  # discard
        presses += 1
        expect(log).to_contain_text(f"Robin discards {card} (T13)", timeout=TIMEOUT_MS)
        assert presses <= 6
    assert voila.stderr_outputs().count() == 0
    assert voila.errors == []


def test_save_and_load_by_keyboard(open_notebook: OpenNotebook) -> None:
    voila = open_notebook(NOTEBOOK, wait_for=".tr-draw", seed=11)
    page = voila.page
    wait_for_my_move(page)
    pass_offers(page)
    cards = page.locator(".tr-hand .tr-card")
    before = cards.count()
    tab_to(page, "tr-panel-2")  # "Save, load, or let the bots finish"
    page.keyboard.press("Enter")
    wait_for_focus(page, "tr-save")
    page.keyboard.press("Enter")
    expect(page.locator(".tr-message")).to_contain_text("Saved", timeout=TIMEOUT_MS)
    saved = page.locator(".tr-save-text textarea").input_value()
    assert '"moves"' in saved or "{" in saved
    page.locator(".tr-draw").focus()
    page.keyboard.press("Enter")
    expect(cards).to_have_count(before + 1, timeout=TIMEOUT_MS)
    wait_for_focus(page, "tr-card")  # the page's own move of the focus, done before ours
    page.locator(".tr-save").focus()
    tab_to(page, "tr-load", limit=5)
    page.keyboard.press("Enter")
    expect(page.locator(".tr-message")).to_contain_text("Loaded", timeout=TIMEOUT_MS)
    expect(cards).to_have_count(before, timeout=TIMEOUT_MS)
    # a bad text is blamed on the file, and the page plays on
    page.locator(".tr-save-text textarea").fill("not a saved game")
    page.locator(".tr-load").focus()
    page.keyboard.press("Enter")
    expect(page.locator(".tr-message")).to_contain_text("This file is not a saved game",
                                                        timeout=TIMEOUT_MS)
    page.locator(".tr-draw").click()
    expect(cards).to_have_count(before + 1, timeout=TIMEOUT_MS)
    assert voila.stderr_outputs().count() == 0
    assert voila.errors == []


def test_hint_and_take_back(open_notebook: OpenNotebook) -> None:
    voila = open_notebook(NOTEBOOK, wait_for=".tr-draw", seed=11)
    page = voila.page
    wait_for_my_move(page)
    pass_offers(page)
    cards = page.locator(".tr-hand .tr-card")
    log = page.locator(".tr-log")
    before = cards.count()
    page.locator(".tr-draw").click()
    expect(cards).to_have_count(before + 1, timeout=TIMEOUT_MS)
    page.locator(".tr-hint").click()
    expect(page.locator(".tr-message")).to_contain_text("Hint: discard", timeout=TIMEOUT_MS)
    expect(log).to_contain_text("Hint for Robin", timeout=TIMEOUT_MS)
    expect(page.locator(".tr-hand .tr-card.mod-active")).to_have_count(1,
                                                                       timeout=TIMEOUT_MS)
    page.locator(".tr-undo").click()
    expect(page.locator(".tr-message")).to_contain_text("Taken back: draw",
                                                        timeout=TIMEOUT_MS)
    expect(cards).to_have_count(before, timeout=TIMEOUT_MS)
    expect(log).to_contain_text("Robin took back draw", timeout=TIMEOUT_MS)
    assert voila.stderr_outputs().count() == 0
    assert voila.errors == []


def test_the_buy_offer_setting(open_notebook: OpenNotebook) -> None:
    voila = open_notebook(NOTEBOOK, wait_for=".tr-draw", seed=11)
    page = voila.page
    wait_for_my_move(page)
    pass_offers(page)
    page.locator(".tr-buy-offers select").select_option(index=1)  # every declined discard
    cards = page.locator(".tr-hand .tr-card")
    before = cards.count()
    page.locator(".tr-draw").click()
    expect(cards).to_have_count(before + 1, timeout=TIMEOUT_MS)
    chosen = cards.last
    chosen.click()
    expect(chosen).to_have_class(re.compile(r"\bmod-active\b"), timeout=TIMEOUT_MS)
    page.locator(".tr-discard").click()
    offer = page.locator(".tr-buy-row")
    expect(offer).to_be_visible(timeout=TIMEOUT_MS)  # every declined discard is offered
    expect(offer).to_contain_text("Offer 1:")
    page.locator(".tr-buy-offers select").select_option(index=2)  # never
    expect(offer).to_be_hidden(timeout=TIMEOUT_MS)
    wait_for_my_move(page)
    expect(page.locator(".tr-prompt")).to_contain_text("Your turn", timeout=TIMEOUT_MS)
    assert voila.stderr_outputs().count() == 0
    assert voila.errors == []


@pytest.mark.parametrize(("width", "height", "size"),
                         [(1280, 900, "normal"), (1920, 1080, "projector")])
def test_a_refusal_is_on_screen_without_scrolling(open_notebook: OpenNotebook, width: int,
                                                   height: int, size: str) -> None:
    voila = open_notebook(NOTEBOOK, wait_for=".tr-draw", seed=11, size=size)
    page = voila.page
    page.set_viewport_size({"width": width, "height": height})
    wait_for_my_move(page)
    pass_offers(page)
    page.locator(".tr-discard").click()  # before drawing: refused (T9)
    box = page.locator(".tr-message .tv-message")
    expect(box).to_contain_text(re.compile("draw first", re.I), timeout=TIMEOUT_MS)
    where = box.bounding_box()
    assert where is not None
    assert where["y"] >= 0 and where["y"] + where["height"] <= height, where
    assert voila.errors == []


def _going_out_save() -> tuple[str, str]:
    """A saved game in which the learner (seat 0) goes out of round 1 with their next
    discard: (the save, the card to discard)."""
    from toonerville.engine import actions as A
    from toonerville.engine.events import EventKind
    from toonerville.players.simulate import play_game

    for seed in range(60):
        game = play_game(["heuristic"] * 4, seed=seed)
        if game.records[0].went_out != 0:
            continue
        for k in range(1, len(game.actions) + 1):
            before = game.position_at(k - 1)
            events = game.history[len(before.history):len(game.position_at(k).history)]
            if any(e.kind is EventKind.ROUND_END for e in events):
                action = game.actions[k - 1]
                if isinstance(action, A.Discard):
                    return before.to_json(), str(action.card)
                break
    raise AssertionError("no seed in 0-59 has the learner go out by a discard")


def test_the_round_recap_shows_before_the_next_round(open_notebook: OpenNotebook) -> None:
    """T20: the learner goes out; before round 2 the page shows every seat's melds, cards
    left and points, and the totals, with Continue; round 2 comes after Continue."""
    save, card = _going_out_save()
    voila = open_notebook(NOTEBOOK, wait_for=".tr-draw", seed=11)
    page = voila.page
    page.locator(".tr-panel-2").click()
    page.locator(".tr-save-text textarea").fill(save)
    page.locator(".tr-load").click()
    expect(page.locator(".tr-message")).to_contain_text("Loaded", timeout=TIMEOUT_MS)
    page.locator(".tr-hand .tr-card", has_text=re.compile(rf"^{card}$")).first.click()
    page.locator(".tr-discard").click()
    recap = page.locator(".tr-recap")
    expect(recap).to_be_visible(timeout=TIMEOUT_MS)
    expect(recap).to_contain_text("Round 1 is over")
    expect(recap).to_contain_text("Points this round")
    assert page.locator(".tr-recap .tr-recap-seat").count() == 4
    expect(page.locator(".tr-hand")).to_be_hidden()
    expect(page.locator(".tr-continue")).to_be_focused()
    page.keyboard.press("Enter")
    expect(recap).to_be_hidden(timeout=TIMEOUT_MS)
    expect(page.locator(".tr-hand")).to_be_visible()
    expect(page.locator(".tr-status")).to_contain_text("Round 2")
    assert voila.errors == []
