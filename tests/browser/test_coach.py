"""The coach in notebook 07, in Chromium through Voila: a hint that weighs the choices
(the strong bot's discard, and what the other discards cost) and the review of a round
after it ends. One page, `?scenario=roundend`: the learner's last discard of round 1,
after which the round ends whatever is discarded (`scenarios.round_end_scenario`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from play_page import wait_for_my_move
from playwright.sync_api import expect

if TYPE_CHECKING:
    from tests.conftest import OpenNotebook

NOTEBOOK = "07-play-a-game.ipynb"
TIMEOUT_MS = 30_000


def test_07_hint_with_costs_then_the_review_of_the_round(open_notebook: OpenNotebook
                                                         ) -> None:
    voila = open_notebook(NOTEBOOK, wait_for=".tr-draw", scenario="roundend", seed=46)
    page = voila.page
    wait_for_my_move(page)
    page.locator(".tr-hint").click()
    coach = page.locator(".tr-coach-hint")
    expect(coach).to_contain_text("discarding", timeout=TIMEOUT_MS)  # an alternative, priced
    expect(coach).to_contain_text("rounds played out")
    expect(page.locator(".tr-message")).to_contain_text("Hint: discard")
    expect(page.locator(".tr-hand .tr-card.mod-active")).to_have_count(1)
    page.locator(".tr-discard").click()  # the card the hint selected
    recap = page.locator(".tr-recap")
    expect(recap).to_contain_text("Round 1 is over", timeout=TIMEOUT_MS)
    page.locator(".tr-review-open").click()
    body = page.locator(".tr-review-body")
    expect(body).to_contain_text("The review of round 1 is ready", timeout=TIMEOUT_MS)
    items = page.locator(".tr-review-item")
    expect(items.first).to_contain_text("It cost you about")
    expect(items.first).to_contain_text("better:")
    expect(items.first.locator("svg[data-card]").first).to_be_visible()  # the hand then
    expect(items.first.locator("a.tv-rule")).to_have_count(1)  # the reason's rule id
    assert voila.stderr_outputs().count() == 0
    assert voila.errors == []
