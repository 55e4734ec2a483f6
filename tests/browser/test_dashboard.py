"""The class dashboard (12) in Chromium through Voila: a teacher opens the dashboard of
a class by keyboard alone (the class code, the teacher's key, Tab to Show the class,
Enter); a learner of the class opens the welcome page from the class's link, goes on to
lesson 01 by its link (the class goes with the learner: class-links.js) and does one of
its Try-its with the mouse; the teacher's page shows where the learner is and the tick,
without a click. The time from the learner's click to the tick is printed (the issue
asks for 2 s), never asserted."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from toonerville.store import open_store
from toonerville.store.classes import ClassOpened, ClassStore

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from tests.conftest import VoilaServer

TIMEOUT_MS = 60_000

pytestmark = pytest.mark.browser


@pytest.fixture(name="a_class")
def a_class_fixture() -> Iterator[tuple[ClassOpened, str]]:
    """A class in the served pages' store, and the key of its learner Ann."""
    store = open_store(os.environ["TOONERVILLE_STORE"])
    classes = ClassStore(store.backend)
    opened = classes.open_class("Class 4B")
    yield opened, classes.join(opened.code, "Ann")
    store.close()


def open_page(browser: Browser, url: str, ready: str) -> Page:
    page = browser.new_context().new_page()
    page.goto(url, wait_until="commit", timeout=TIMEOUT_MS)
    page.locator(ready).first.wait_for(state="visible", timeout=TIMEOUT_MS)
    return page


def test_a_try_it_done_shows_on_the_teachers_dashboard(
        browser: Browser, voila_server: VoilaServer,
        a_class: tuple[ClassOpened, str]) -> None:
    opened, ann_key = a_class
    teacher = open_page(browser, voila_server.render_url("12-dashboard.ipynb"),
                        ".tv-dash-code input")
    learner = open_page(browser, voila_server.render_url(
        "00-welcome.ipynb", **{"class": opened.code, "me": ann_key}), ".tv-language-picker")
    try:
        # the teacher, by keyboard: code, Tab, key, Tab to the button, Enter
        teacher.locator(".tv-dash-code input").focus()
        teacher.keyboard.type(opened.code.lower())
        teacher.keyboard.press("Tab")
        teacher.keyboard.type(opened.teacher_key)
        teacher.keyboard.press("Tab")
        expect(teacher.locator(".tv-dash-show")).to_be_focused()
        teacher.keyboard.press("Enter")
        row = teacher.locator(".tv-dash-learner", has_text="Ann")
        expect(row).to_be_visible(timeout=TIMEOUT_MS)
        expect(row).to_contain_text("00-welcome", timeout=TIMEOUT_MS)
        expect(row.locator(".tv-dash-done")).to_have_count(0)

        # the learner, by mouse: on to lesson 1 by the navigation bar, then 01's Try it 2
        # (3 players, round 1, seed 9, deal all)
        learner.get_by_role("link", name="1 Deck and deal").first.click()
        learner.wait_for_url("**/01-deck-and-deal.ipynb?*me=*")
        learner.locator(".tv-lesson").first.wait_for(timeout=TIMEOUT_MS)
        expect(row).to_contain_text("01-deck-and-deal", timeout=TIMEOUT_MS)
        learner.get_by_role("combobox", name="Players").first.select_option(label="3")
        seed = learner.get_by_role("spinbutton", name="Seed").first
        seed.fill("9")
        seed.press("Enter")
        learner.get_by_role("button", name="Deal all", exact=True).first.click()
        clicked = time.monotonic()
        expect(row.locator(".tv-dash-done")).to_have_count(1, timeout=TIMEOUT_MS)
        seen = time.monotonic() - clicked
        print(f"\nthe learner's Try-it reached the teacher's dashboard in {seen:.2f} s "
              f"(load {os.getloadavg()[0]:.2f})")
        title = row.locator("td[title='lesson 01']")
        expect(title.locator(".tv-dash-done")).to_have_count(1)
        href = teacher.locator(".tv-dash-csv-link").get_attribute("href") or ""
        assert "Ann" in href and "01-deck-and-deal" in href
    finally:
        learner.context.close()
        teacher.context.close()
