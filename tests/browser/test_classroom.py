"""Notebook 09 in Chromium through Voila: two learners in two browser contexts (two
kernels) share one table — one opens it, the other joins with the code, each plays a
turn, each page shows the other's move without a click (the time it took is printed, not
asserted), each learner's own name shows on both pages, and a reloaded page (a new
kernel) rejoins its seat with the code and its rejoin key; while one learner has the
turn, the other's page says whom it waits for, its move buttons are disabled (its
helpers are not) and a move's key says why not (09's Try it 2-4, as written; its Try it
1 is test_passplay.py). The pictures of the table from both seats are saved under
test-results/."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

    from tests.conftest import VoilaServer

NOTEBOOK = "09-classroom.ipynb"
#: where the pictures of the table from both seats go (for the notes; kept in the repo)
# the test run writes its pictures to the ignored test-results/ (the committed ones under
# benchmarks/screenshots/ are made only by benchmarks/screenshots.py)
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
        expect(at(page, ".tr-open")).to_be_visible(timeout=TIMEOUT_MS)
        return page

    yield open_page
    for context in contexts:
        context.close()


def at(page: Page, css: str) -> Locator:
    """`css` inside the shared-table page of 09 (pass-and-play above it has the same
    seat view, so every locator names its page)."""
    return page.locator(f".tr-classroom {css}")


def prompt(page: Page) -> str:
    return at(page, ".tr-prompt").inner_text().strip()


def click_while_offered(button: Locator, timeout_ms: int = 5000) -> bool:
    """Click a button that may go away by itself (a buy offer's Pass: another learner's
    buy or the table's buy limit ends the offer); False, and no click, if it went away
    or stayed disabled for `timeout_ms`, instead of waiting the test's whole timeout."""
    try:
        button.click(timeout=timeout_ms)
    except PlaywrightTimeoutError:
        return False
    return True


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
                before = at(page, ".tr-status").inner_text()
                if not click_while_offered(at(page, ".tr-pass")):
                    continue  # the offer ended before the click: look again
                try:  # the pass is a move: the move number on the page goes up
                    expect(at(page, ".tr-status")).not_to_have_text(
                        before, timeout=TIMEOUT_MS)
                except AssertionError:
                    message = at(page, ".tr-message").inner_text()
                    pytest.fail(f"passing changed nothing: {before!r}, {message!r}")
        pages[0].wait_for_timeout(100)


def play_a_turn(me: Page, pages: list[Page], name: str) -> tuple[str, float]:
    """Draw from the stock and discard the last card; returns the discard's sentence
    and how long after the click on Discard the other pages showed it (seconds: an
    observation printed for the notes, not asserted)."""
    cards = at(me, ".tr-hand .tv-card-button")
    held = cards.count()
    at(me, ".tr-draw").click()
    settle(pages, lambda: prompt(me).startswith(MY_PLAY), f"{name} may play")
    expect(cards).to_have_count(held + 1, timeout=TIMEOUT_MS)  # the drawn card is shown
    card = cards.last
    text = card.inner_text().strip()
    card.click()
    expect(at(me, ".tr-discard")).to_be_enabled(timeout=TIMEOUT_MS)
    start = time.monotonic()
    at(me, ".tr-discard").click()
    sentence = f"{name} discards {text}"
    expect(at(me, ".tr-log")).to_contain_text(sentence, timeout=TIMEOUT_MS)
    for other in pages:
        if other is not me:
            expect(at(other, ".tr-log")).to_contain_text(sentence, timeout=15_000)
    return sentence, time.monotonic() - start


def seat_of(page: Page) -> int:
    found = re.search(r"seat (\d)", at(page, ".tr-status").inner_text())
    assert found is not None
    return int(found.group(1))


def open_and_join(opener: Page, joiner: Page, names: tuple[str, str] = ("Ann", "Bo")
                  ) -> str:
    """The first page opens a table of three (two learners, a bot) as `names[0]`, the
    second joins it with the code as `names[1]`; the table's code."""
    at(opener, ".tr-name input").fill(names[0])
    at(joiner, ".tr-name input").fill(names[1])
    at(opener, ".tr-players select").select_option("3")
    at(opener, ".tr-learners select").select_option("2")
    at(opener, ".tr-open").click()
    expect(at(opener, ".tr-table-code")).to_contain_text("Table code", timeout=TIMEOUT_MS)
    code = at(opener, ".tr-table-code b").inner_text().strip()
    at(joiner, ".tr-code input").fill(code)
    at(joiner, ".tr-join").click()
    expect(at(joiner, ".tr-status")).to_contain_text(f"you are {names[1]}, seat 1",
                                                     timeout=TIMEOUT_MS)
    return code


def each_plays_a_turn(pages: list[Page], names: dict[int, str]) -> None:
    """Every learner at the table plays one turn, in the table's order; each move shows
    on every other page (`play_a_turn` checks it)."""
    played: set[int] = set()
    while len(played) < len(pages):
        settle(pages, lambda: any(prompt(p).startswith(MY_TURN) for p in pages),
               "a learner's turn")
        [me] = [p for p in pages if prompt(p).startswith(MY_TURN)]
        seat = seat_of(me)
        assert seat not in played, "the same learner's turn came twice before the other's"
        play_a_turn(me, pages, names[seat])
        played.add(seat)


def test_two_learners_share_a_table_and_a_reload_rejoins(
        learner: Callable[[], Page]) -> None:
    opener, joiner = learner(), learner()
    names = {0: "Ann", 1: "Bo"}  # the names the learners give themselves
    at(opener, ".tr-name input").fill(names[0])
    at(joiner, ".tr-name input").fill(names[1])
    at(opener, ".tr-players select").select_option("3")
    at(opener, ".tr-learners select").select_option("2")
    at(opener, ".tr-open").click()
    expect(at(opener, ".tr-table-code")).to_contain_text("Table code", timeout=TIMEOUT_MS)
    code = at(opener, ".tr-table-code b").inner_text().strip()
    assert re.fullmatch(r"[A-Z2-9]{6}", code), code

    at(joiner, ".tr-code input").fill(code)
    at(joiner, ".tr-join").click()
    expect(at(joiner, ".tr-status")).to_contain_text("seat 1", timeout=TIMEOUT_MS)
    expect(at(opener, ".tr-status")).to_contain_text("you are Ann, seat 0")
    expect(at(joiner, ".tr-status")).to_contain_text("you are Bo, seat 1")
    pages = [opener, joiner]

    latencies = []
    played: set[int] = set()
    while len(played) < 2:
        settle(pages, lambda: any(prompt(p).startswith(MY_TURN) for p in pages),
               "a learner's turn")
        [me] = [p for p in pages if prompt(p).startswith(MY_TURN)]
        seat = seat_of(me)
        if not played:  # 09's Try it 3: while another has the turn, what can you press?
            [other] = [p for p in pages if p is not me]
            # (the other page learns the joiner's name at its next poll: wait for it)
            expect(at(other, ".tr-prompt")).to_contain_text(f"Waiting for {names[seat]}",
                                                            timeout=TIMEOUT_MS)
            for css in (".tr-draw", ".tr-take", ".tr-discard", ".tr-lay-down"):
                expect(at(other, css)).to_be_disabled()
            for css in (".tr-suggest", ".tr-hint", ".tr-undo"):
                expect(at(other, css)).to_be_enabled()
            other.keyboard.press("d")  # the key of a disabled button says why, in words
            expect(at(other, ".tr-message")).to_contain_text(
                f"Draw from stock: not now. Waiting for {names[seat]}")
        assert seat not in played, "the same learner's turn came twice before the other's"
        _sentence, seconds = play_a_turn(me, pages, names[seat])
        latencies.append(seconds)
        played.add(seat)
    print(f"the other page showed each discard after {[round(s, 2) for s in latencies]} s")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for page in pages:
        page.set_viewport_size({"width": 1280, "height": 2400})  # the whole page at once
        page.locator(".tr-classroom").screenshot(
            path=SCREENSHOTS / f"classroom-seat{seat_of(page)}.png")

    # a reload: the joiner's page starts again, with a new kernel
    key = at(joiner, ".tr-rejoin-key code").inner_text().strip()
    status = at(joiner, ".tr-status").inner_text()
    moves = re.search(r"move (\d+)", status)
    assert moves is not None
    hand = at(joiner, ".tr-hand .tv-card-button").all_inner_texts()
    joiner.reload(wait_until="commit")
    expect(at(joiner, ".tr-open")).to_be_visible(timeout=TIMEOUT_MS)
    expect(at(joiner, ".tr-board")).to_be_hidden()
    at(joiner, ".tr-code input").fill(code)
    at(joiner, ".tr-key input").fill(key)
    at(joiner, ".tr-join").click()
    expect(at(joiner, ".tr-message")).to_contain_text("back at seat 1",
                                                          timeout=TIMEOUT_MS)
    expect(at(joiner, ".tr-status")).to_contain_text("seat 1")
    now = re.search(r"move (\d+)", at(joiner, ".tr-status").inner_text())
    assert now is not None and int(now.group(1)) >= int(moves.group(1))
    if int(now.group(1)) == int(moves.group(1)):  # nobody moved meanwhile: the same hand
        assert at(joiner, ".tr-hand .tv-card-button").all_inner_texts() == hand
