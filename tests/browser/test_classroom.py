"""Notebook 09 in Chromium through Voila: two learners in two browser contexts (two
kernels) share one table — one opens it, the other joins with the code, each plays a
turn, each page shows the other's move without a click, and a reloaded page rejoins its
seat with the code and its rejoin key."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from tests.conftest import VoilaServer

NOTEBOOK = "09-classroom.ipynb"
#: where the pictures of the table from both seats go (with the other test results)
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-results"
TIMEOUT_MS = 60_000
#: what a page shows to a learner who decides now
MY_TURN = "Your turn: draw"
MY_PLAY = "Your turn: lay down"
MY_ANSWER = "Your answer"

pytestmark = pytest.mark.browser


@pytest.fixture
def learner(browser: Browser, voila_server: VoilaServer) -> Iterator[Callable[[], Page]]:
    """Opens notebook 09 in a browser context of its own (its own kernel), as many
    times as asked; every context is closed afterwards."""
    contexts = []

    def open_page() -> Page:
        context = browser.new_context()
        contexts.append(context)
        page = context.new_page()
        page.goto(voila_server.render_url(NOTEBOOK), wait_until="commit",
                  timeout=TIMEOUT_MS)
        expect(page.locator(".tr-open")).to_be_visible(timeout=TIMEOUT_MS)
        return page

    yield open_page
    for context in contexts:
        context.close()


def prompt(page: Page) -> str:
    return page.locator(".tr-prompt").inner_text().strip()


def settle(pages: list[Page], done: Callable[[], bool], what: str) -> None:
    """Answer every buy window with Pass until `done()`; fails after TIMEOUT_MS. Each
    check reads what the pages show now; between checks the pages get 100 ms."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while not done():
        if time.monotonic() > deadline:
            shown = [prompt(p) for p in pages]
            pytest.fail(f"never reached: {what}; the pages show {shown}")
        for page in pages:
            if prompt(page).startswith(MY_ANSWER):
                before = page.locator(".tr-status").inner_text()
                page.locator(".tr-pass").click()
                try:  # the pass is a move: the move number on the page goes up
                    expect(page.locator(".tr-status")).not_to_have_text(
                        before, timeout=TIMEOUT_MS)
                except AssertionError:
                    message = page.locator(".tr-message").inner_text()
                    pytest.fail(f"passing changed nothing: {before!r}, {message!r}")
        pages[0].wait_for_timeout(100)


def play_a_turn(me: Page, pages: list[Page], name: str) -> tuple[str, float]:
    """Draw from the stock and discard the last card; returns the discard's sentence
    and how long the other page took to show it (seconds)."""
    me.locator(".tr-draw").click()
    settle(pages, lambda: prompt(me).startswith(MY_PLAY), f"{name} may play")
    card = me.locator(".tr-hand .tv-card-button").last
    text = card.inner_text().strip()
    card.click()
    expect(me.locator(".tr-discard")).to_be_enabled(timeout=TIMEOUT_MS)
    me.locator(".tr-discard").click()
    sentence = f"{name} discards {text}"
    expect(me.locator(".tr-log")).to_contain_text(sentence, timeout=TIMEOUT_MS)
    start = time.monotonic()
    for other in pages:
        if other is not me:
            expect(other.locator(".tr-log")).to_contain_text(sentence, timeout=15_000)
    return sentence, time.monotonic() - start


def seat_of(page: Page) -> int:
    found = re.search(r"seat (\d)", page.locator(".tr-status").inner_text())
    assert found is not None
    return int(found.group(1))


def test_two_learners_share_a_table_and_a_reload_rejoins(
        learner: Callable[[], Page]) -> None:
    opener, joiner = learner(), learner()
    opener.locator(".tr-players select").select_option("3")
    opener.locator(".tr-learners select").select_option("2")
    opener.locator(".tr-open").click()
    expect(opener.locator(".tr-table-code")).to_contain_text("Table code", timeout=TIMEOUT_MS)
    code = opener.locator(".tr-table-code b").inner_text().strip()
    assert re.fullmatch(r"[A-Z2-9]{6}", code), code

    joiner.locator(".tr-code input").fill(code)
    joiner.locator(".tr-join").click()
    expect(joiner.locator(".tr-status")).to_contain_text("seat 1", timeout=TIMEOUT_MS)
    expect(opener.locator(".tr-status")).to_contain_text("seat 0")
    pages = [opener, joiner]

    latencies = []
    played: set[int] = set()
    while len(played) < 2:
        settle(pages, lambda: any(prompt(p).startswith(MY_TURN) for p in pages),
               "a learner's turn")
        [me] = [p for p in pages if prompt(p).startswith(MY_TURN)]
        seat = seat_of(me)
        assert seat not in played, "the same learner's turn came twice before the other's"
        _sentence, seconds = play_a_turn(me, pages, f"Player {seat}")
        latencies.append(seconds)
        played.add(seat)
    print(f"the other page showed each discard after {[round(s, 2) for s in latencies]} s")
    SCREENSHOTS.mkdir(exist_ok=True)
    for page in pages:
        page.screenshot(path=SCREENSHOTS / f"classroom-seat{seat_of(page)}.png", full_page=True)

    # a reload: the joiner's page starts again, with a new kernel
    key = joiner.locator(".tr-rejoin-key code").inner_text().strip()
    status = joiner.locator(".tr-status").inner_text()
    moves = re.search(r"move (\d+)", status)
    assert moves is not None
    hand = joiner.locator(".tr-hand .tv-card-button").all_inner_texts()
    joiner.reload(wait_until="commit")
    expect(joiner.locator(".tr-open")).to_be_visible(timeout=TIMEOUT_MS)
    expect(joiner.locator(".tr-board")).to_be_hidden()
    joiner.locator(".tr-code input").fill(code)
    joiner.locator(".tr-key input").fill(key)
    joiner.locator(".tr-join").click()
    expect(joiner.locator(".tr-message")).to_contain_text("back at seat 1",
                                                          timeout=TIMEOUT_MS)
    expect(joiner.locator(".tr-status")).to_contain_text("seat 1")
    now = re.search(r"move (\d+)", joiner.locator(".tr-status").inner_text())
    assert now is not None and int(now.group(1)) >= int(moves.group(1))
    if int(now.group(1)) == int(moves.group(1)):  # nobody moved meanwhile: the same hand
        assert joiner.locator(".tr-hand .tv-card-button").all_inner_texts() == hand
