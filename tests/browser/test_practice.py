"""Try it again (issue 28, item 5) through Voila.

In notebook 07: the round's review, its costly decision played again without the answer,
by keys, the honest cost of the choice against the coach's best, and the practice list
still there after a reload (the class store, under the page's `?game=KEY`). One page,
`?scenario=roundend` (seed 46): the learner's last discard of round 1, whose review has a
costly decision; the answer is priced on the review's own small budget of worlds.

In notebook 09 (a shared table): the page takes the seat by its rejoin link, the
learner's round 1 is played for them through the store (a learner who never lays down)
while the page follows, and the page opens the round's review and clicks Try it again;
after a reload (a new kernel, the same link) the list comes back with the seat, from the
table's store. In 09's pass-and-play, a learner at the device reviews round 1, clicks Try
it again and answers the position by keys."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from play_page import try_round_one_again, wait_for_my_move
from playwright.sync_api import expect

from tests.conftest import RENDERED_JS
from tests.storehelpers import never_lays_down
from toonerville.store import open_store

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from tests.conftest import OpenNotebook, VoilaServer

NOTEBOOK = "07-play-a-game.ipynb"
#: where the test run writes its pictures (ignored by git)
RESULTS = Path(__file__).resolve().parents[2] / "test-results"
TIMEOUT_MS = 60_000


def test_07_try_it_again_by_keys_then_a_reload_keeps_the_list(open_notebook: OpenNotebook
                                                              ) -> None:
    voila = open_notebook(NOTEBOOK, wait_for=".tr-draw", scenario="roundend", seed=46)
    page = voila.page
    page.wait_for_function("() => /[?&]game=[A-Za-z0-9_-]{16,}/.test(location.search)",
                           timeout=TIMEOUT_MS)
    wait_for_my_move(page)
    card = page.locator(".tr-hand .tr-card").first
    card.click()
    expect(card).to_have_class(re.compile(r"\bmod-active\b"), timeout=TIMEOUT_MS)
    page.locator(".tr-discard").click()  # the round ends
    expect(page.locator(".tr-recap")).to_contain_text("Round 1 is over", timeout=TIMEOUT_MS)
    page.locator(".tr-review-open").click()
    expect(page.locator(".tr-review-body")).to_contain_text(
        "The review of round 1 is ready", timeout=TIMEOUT_MS)
    page.locator(".tr-practice-try").click()

    practice = page.locator(".tr-practice-body")
    expect(practice).to_be_visible(timeout=TIMEOUT_MS)
    expect(practice.locator(".tr-practice-title")).to_contain_text(
        re.compile(r"Try it again: position 1 of \d+ · Round 1, your turn \d+"))
    expect(practice.locator(".tr-practice-answer")).to_have_count(0)  # no answer yet
    # by keys, as at a seat: a card's number selects it, X discards it
    first = practice.locator(".tr-card").first
    first.focus()
    page.keyboard.press("1")
    expect(first).to_have_class(re.compile(r"\bmod-active\b"), timeout=TIMEOUT_MS)
    page.keyboard.press("x")
    answer = practice.locator(".tr-practice-answer")
    expect(answer).to_contain_text("You chose discarding", timeout=TIMEOUT_MS)
    expect(answer).to_contain_text(re.compile(r"best move here|coach's best"))
    expect(answer).to_contain_text("rounds played out")
    expect(answer).to_contain_text(re.compile(r"costs about|about the same|may be better|"
                                              r"the same this round"))
    expect(practice.locator(".tr-discard")).to_be_disabled()

    page.reload(wait_until="commit", timeout=TIMEOUT_MS)
    assert page.wait_for_function(RENDERED_JS, timeout=TIMEOUT_MS).json_value() == "ready"
    opener = page.locator(".tr-practice-open")
    expect(opener).to_contain_text(re.compile(r"Your practice positions \(\d+\)"),
                                   timeout=TIMEOUT_MS)
    opener.focus()
    page.keyboard.press("Enter")
    expect(practice).to_be_visible(timeout=TIMEOUT_MS)
    expect(practice.locator(".tr-practice-title")).to_contain_text("position 1 of")
    assert voila.stderr_outputs().count() == 0
    assert voila.errors == []


def test_09_try_it_again_at_a_shared_table_comes_back_with_the_seat(
        page: Page, voila_server: VoilaServer) -> None:
    store = open_store(os.environ["TOONERVILLE_STORE"])  # the server's store
    code = store.open_table(3, bots={1: "heuristic", 2: "heuristic"}, seed=4)
    seat = store.claim(code, 0)
    link = voila_server.render_url("09-classroom.ipynb", table=code, key=seat.secret)
    page.goto(link, wait_until="commit", timeout=TIMEOUT_MS)
    board = page.locator(".tr-classroom")
    expect(board.locator(".tr-status")).to_contain_text("seat 0", timeout=TIMEOUT_MS)
    # the learner's moves, made for them through the store while the page follows
    for _step in range(400):
        store.play_bots(code)
        seat.refresh()
        if store.round_points(code, 1) is not None:
            break
        if 0 in seat.view.deciders:
            seat.play(never_lays_down(seat))
    assert store.round_points(code, 1) is not None
    expect(board.locator(".tr-recap")).to_contain_text("Round 1 is over",
                                                       timeout=TIMEOUT_MS)
    practice = try_round_one_again(board, TIMEOUT_MS)
    RESULTS.mkdir(parents=True, exist_ok=True)  # a picture for the notes (not committed)
    board.locator(".tr-practice-box").screenshot(path=RESULTS / "practice-09.png")

    page.reload(wait_until="commit", timeout=TIMEOUT_MS)  # a new kernel, the same link
    opener = board.locator(".tr-practice-open")
    expect(opener).to_contain_text(re.compile(r"Your practice positions \(\d+\)"),
                                   timeout=TIMEOUT_MS)
    opener.focus()
    page.keyboard.press("Enter")
    expect(practice.locator(".tr-practice-title")).to_contain_text("position 1 of",
                                                                  timeout=TIMEOUT_MS)
    store.close()


def test_09_pass_and_play_try_it_again_by_keys(open_notebook: OpenNotebook) -> None:
    """09's pass-and-play (`?seed=8`: a short first round): Ann and two bots at one
    screen; Ann draws, passes and throws her last card until round 1 ends, opens its
    review and clicks Try it again; her panel shows the position without the answer
    under the table, and she answers it by keys."""
    voila = open_notebook("09-classroom.ipynb", wait_for=".tr-pp-start", seed=8)
    page = voila.page
    root = page.locator(".tr-passplay")
    root.locator(".tr-pp-name input").first.fill("Ann")
    for seat in (1, 2):  # two bots (heuristic)
        root.locator(".tr-pp-kind select").nth(seat).select_option(index=2)
    root.locator(".tr-pp-start").click()
    expect(root.locator(".tr-pp-reveal")).to_be_visible(timeout=TIMEOUT_MS)
    root.locator(".tr-pp-reveal").click()
    status, prompt = root.locator(".tr-status"), root.locator(".tr-prompt")
    over = """() => document.querySelector('.tr-passplay .tr-recap')
                      ?.innerText.includes('Round 1 is over') ?? false"""
    for _move in range(300):
        page.wait_for_function(
            f"""() => ({over})() || ['Your turn', 'Your answer'].some(start =>
                 (document.querySelector('.tr-passplay .tr-prompt')?.textContent ?? '')
                 .startsWith(start))""", timeout=TIMEOUT_MS)
        if page.evaluate(over):
            break
        said, before = prompt.inner_text(), status.inner_text()
        if said.startswith("Your answer"):
            root.locator(".tr-pass").click()
        elif said.startswith("Your turn: draw"):
            root.locator(".tr-draw").click()
        else:
            root.locator(".tr-hand .tr-card").last.click()
            expect(root.locator(".tr-discard")).to_be_enabled(timeout=TIMEOUT_MS)
            root.locator(".tr-discard").click()
        page.wait_for_function(
            f"""([before]) => ({over})() || document.querySelector(
                 '.tr-passplay .tr-status')?.innerText !== before""", arg=[before],
            timeout=TIMEOUT_MS)
    else:
        raise AssertionError("round 1 did not end in 300 moves")
    practice = try_round_one_again(root, TIMEOUT_MS)
    RESULTS.mkdir(parents=True, exist_ok=True)
    root.locator(".tr-practice-box").screenshot(path=RESULTS / "practice-passplay.png")
    # by keys, as at the seat: D draws (a draw decision), else a card's number and X
    if practice.locator(".tr-draw").is_visible():
        practice.locator(".tr-draw").focus()
        page.keyboard.press("d")
        chose = "You chose drawing"
    else:
        practice.locator(".tr-card").first.focus()
        page.keyboard.press("1")
        page.keyboard.press("x")
        chose = "You chose discarding"
    answer = practice.locator(".tr-practice-answer")
    expect(answer).to_contain_text(chose, timeout=TIMEOUT_MS)
    expect(answer).to_contain_text("rounds played out")
    assert voila.stderr_outputs().count() == 0
    assert voila.errors == []
