"""The card-game keys (issue 19), in Chromium through Voila: in 07 and at a seat view
(pass-and-play in 09) the focus is on the next action when the seat is shown, and an
ordinary turn discarding any card of a 16-card hand takes at most 4 key presses (D, the
card's badge number as one or two digits, X); Enter on a buy offer passes; a key whose
button cannot be pressed now says why; no key acts while the learner is in a list.

The presses are counted here, one by one, as `page.keyboard.press` calls."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from play_page import discard_by_keys, wait_for_focus, wait_for_my_move
from playwright.sync_api import expect

if TYPE_CHECKING:

    from tests.conftest import OpenNotebook

TIMEOUT_MS = 30_000


def test_07_keys_focus_turns_and_offers(open_notebook: OpenNotebook) -> None:
    voila = open_notebook("07-play-a-game.ipynb", wait_for=".tr-draw", seed=7,
                          scenario="bighand")
    page = voila.page
    cards = page.locator(".tr-hand .tr-card")
    expect(cards).to_have_count(15, timeout=TIMEOUT_MS)
    # the focus is on Draw when the page has loaded: no Tab needed
    wait_for_focus(page, "tr-draw")
    # no key acts while the learner is in a list; every declined discard is offered
    offers = page.locator(".tr-buy-offers select")
    offers.focus()
    page.keyboard.press("d")
    expect(cards).to_have_count(15)
    offers.select_option(label="every declined discard")
    page.locator(".tr-panel-0").click()  # More moves: its text box takes the focus
    melds = page.locator(".tr-melds-text input")
    expect(melds).to_be_focused(timeout=TIMEOUT_MS)
    melds.press_sequentially("dx1")
    expect(melds).to_have_value("dx1")
    expect(cards).to_have_count(15)
    melds.fill("")
    # a key whose button cannot be pressed now says why (no offer: B)
    page.locator(".tr-draw").focus()
    page.keyboard.press("b")
    expect(page.locator(".tr-message")).to_contain_text("Buy: not now.")
    # an ordinary turn: the 14th card of 16, the worst case of two digits
    assert discard_by_keys(page, "", 14) <= 4
    # the bots' discards are offered: the focus is on Pass, and Enter passes
    log = page.locator(".tr-log")
    expect(page.locator(".tr-buy-row")).to_be_visible(timeout=TIMEOUT_MS)
    wait_for_focus(page, "tr-pass")
    passed = 0
    while True:
        wait_for_my_move(page)
        # a new offer takes the focus to Pass once its row is drawn; or the offers are over
        page.wait_for_function(
            """() => document.querySelector('.tr-buy-row')?.offsetParent === null
                  || document.activeElement?.classList.contains('tr-pass')""",
            timeout=TIMEOUT_MS)
        if not page.locator(".tr-buy-row").is_visible():
            break
        held, logged = cards.count(), log.inner_html()
        page.keyboard.press("Enter")
        passed += 1
        # the pass is in the log (the row is redrawn before it): the next look at the row
        # sees the next offer or none, never the one just answered
        page.wait_for_function(
            "old => (document.querySelector('.tr-log')?.innerHTML ?? old) !== old",
            arg=logged, timeout=TIMEOUT_MS)
        expect(log).to_contain_text("Robin passes")
        assert cards.count() == held  # nothing bought
    assert passed >= 1
    # the next turn: the focus is back on Draw; the 10th card takes one digit (0)
    wait_for_my_move(page)
    wait_for_focus(page, "tr-draw")
    assert discard_by_keys(page, "", 10) <= 3
    assert voila.stderr_outputs().count() == 0
    assert voila.errors == []


@pytest.mark.parametrize("position", [13])
def test_seat_view_keys_in_pass_and_play(open_notebook: OpenNotebook, position: int) -> None:
    voila = open_notebook("09-classroom.ipynb", wait_for=".tr-pp-start")
    page = voila.page
    root = ".tr-passplay"
    page.locator(f"{root} .tr-pp-name input").first.fill("Ann")
    for seat in (1, 2):  # Ann and two bots
        page.locator(f"{root} .tr-pp-kind select").nth(seat).select_option(index=2)  # heuristic
    page.locator(f"{root} .tr-pp-start").click()
    reveal = page.locator(f"{root} .tr-pp-reveal")
    expect(reveal).to_be_visible(timeout=TIMEOUT_MS)
    reveal.click()
    expect(page.locator(f"{root} .tr-status")).to_contain_text("you are Ann",
                                                               timeout=TIMEOUT_MS)
    # the seat is shown: the focus goes on to its next action (Draw, or Pass on an offer)
    page.wait_for_function(
        """() => ['tr-draw', 'tr-pass'].some(
             css => document.activeElement?.classList.contains(css))""", timeout=TIMEOUT_MS)
    status = page.locator(f"{root} .tr-status")
    while page.locator(f"{root} .tr-prompt.tr-next-buy").count():
        wait_for_focus(page, "tr-pass")
        before = status.inner_text()
        page.keyboard.press("Enter")  # the safe answer: pass
        expect(status).not_to_have_text(before, timeout=TIMEOUT_MS)
    # Ann's turn: the focus is on Draw
    expect(page.locator(f"{root} .tr-prompt.tr-next-draw")).to_have_count(1,
                                                                         timeout=TIMEOUT_MS)
    wait_for_focus(page, "tr-draw")
    # a key whose button is disabled now says why, and does nothing (X before the draw)
    cards = page.locator(f"{root} .tr-hand .tr-card")
    held = cards.count()
    page.keyboard.press("x")
    expect(page.locator(f"{root} .tr-message")).to_contain_text(
        "Discard selected card: not now.")
    assert cards.count() == held
    assert discard_by_keys(page, root, position) <= 4
    assert voila.stderr_outputs().count() == 0
    assert voila.errors == []
