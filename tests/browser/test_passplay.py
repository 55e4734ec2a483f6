"""Pass-and-play in notebook 09, in Chromium through Voila: three learners name
themselves at one screen; between their decisions the page shows only "Pass the device
to <name>" (no card of any hand in the page), "I am <name>" shows that learner's hand, a
buy offer is answered behind the cover, and the device goes round all three. Pictures of
the cover and of the first learner's hand are saved under test-results/."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

    from tests.conftest import VoilaServer

NOTEBOOK = "09-classroom.ipynb"
# the test run writes its pictures to the ignored test-results/ (the committed ones under
# benchmarks/screenshots/ are made only by benchmarks/screenshots.py)
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-results"
TIMEOUT_MS = 60_000
NAMES = ("Ann", "Bo", "Cy")

pytestmark = pytest.mark.browser


def at(page: Page, css: str) -> Locator:
    """`css` inside the pass-and-play page of 09 (the shared table below it has the same
    seat view, so every locator names its page)."""
    return page.locator(f".tr-passplay {css}")


def test_three_learners_pass_one_screen_round(page: Page, voila_server: VoilaServer) -> None:
    page.goto(voila_server.render_url(NOTEBOOK), wait_until="commit", timeout=TIMEOUT_MS)
    expect(at(page, ".tr-pp-start")).to_be_visible(timeout=TIMEOUT_MS)
    at(page, ".tr-pp-players select").select_option("3")
    names = at(page, ".tr-pp-name input")
    for k, name in enumerate(NAMES):
        names.nth(k).fill(name)
    at(page, ".tr-pp-start").click()
    cover = at(page, ".tr-pp-cover")
    cards = at(page, ".tr-hand .tv-card-button")
    revealed: list[str] = []
    answered_behind_cover = False
    deadline = time.monotonic() + 3 * TIMEOUT_MS / 1000
    while len(set(revealed)) < len(NAMES) or not answered_behind_cover:
        if time.monotonic() > deadline:
            pytest.fail(f"the device went to {revealed}; a buy answered: "
                        f"{answered_behind_cover}")
        expect(cover.or_(at(page, ".tr-prompt")).filter(visible=True).first).to_be_visible(
            timeout=TIMEOUT_MS)
        if cover.is_visible():
            text = at(page, ".tr-pp-cover-text").inner_text()
            found = re.search(r"Pass the device to (\w+)", text)
            assert found is not None, text
            name = found.group(1)
            # behind the cover, nothing of a hand is in the page
            expect(cards).to_have_count(0)
            expect(at(page, ".tr-hand")).to_be_hidden()
            if not revealed:
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                page.locator(".tr-passplay").screenshot(
                    path=SCREENSHOTS / "passplay-cover.png")
            reveal = at(page, ".tr-pp-reveal")
            expect(reveal).to_have_text(f"I am {name}")
            reveal.click()
            expect(at(page, ".tr-status")).to_contain_text(f"you are {name}",
                                                           timeout=TIMEOUT_MS)
            expect(cards.first).to_be_visible(timeout=TIMEOUT_MS)
            if not revealed:
                page.set_viewport_size({"width": 1280, "height": 2400})
                page.locator(".tr-passplay").screenshot(
                    path=SCREENSHOTS / "passplay-hand.png")
            revealed.append(name)
            continue
        said = at(page, ".tr-prompt").inner_text()
        status = at(page, ".tr-status").inner_text()
        if said.startswith("Your answer"):
            at(page, ".tr-pass").click()
            answered_behind_cover = True
        elif said.startswith("Your turn: draw"):
            at(page, ".tr-draw").click()
        elif said.startswith("Your turn: lay down"):
            cards.last.click()
            expect(at(page, ".tr-discard")).to_be_enabled(timeout=TIMEOUT_MS)
            at(page, ".tr-discard").click()
        else:
            pytest.fail(f"an unexpected prompt: {said!r}")
        # the move shows: the page moves on (the move number, or the cover comes up)
        page.wait_for_function(
            """([status]) => {
                const cover = document.querySelector('.tr-passplay .tr-pp-cover');
                const shown = document.querySelector('.tr-passplay .tr-status');
                return (cover && cover.offsetParent !== null)
                    || (shown && shown.innerText !== status);
            }""", arg=[status], timeout=TIMEOUT_MS)
    assert set(revealed) == set(NAMES)
