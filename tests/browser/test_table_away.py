"""Notebook 09 in Chromium through Voila, issue 17's "no table waits for ever": three
learners at one table, each in a browser context of their own (three kernels).

- A draw from the stock that no learner wants passes without a click: every learner's
  buy-offer setting is "never", which the page sends to the store, and the store answers
  the buy window for them (T10); the drawer may play at once, nobody clicked Pass.
- A learner closes the page on their own turn: after the opener's short "Away after"
  limit the other pages say "<name> is away: a bot plays for <name>" and the stand-in bot
  plays the seat, so the game goes on. The learner comes back through their rejoin link
  (no typing), has the seat back at once, and plays on.

Nothing here is timed: every wait is a generous `expect` (the machine may be loaded)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Locator, Page

    from tests.conftest import VoilaServer

NOTEBOOK = "09-classroom.ipynb"
TIMEOUT_MS = 180_000
#: the opener's "Away after" (seconds): short, so the test sees a bot take the seat, and
#: long enough that a loaded machine does not mark a learner who is here as away
AWAY_AFTER = 45
MY_TURN = "Your turn: draw"
#: the play phase, down or not (a stand-in bot may have laid down for a learner: H9)
MY_PLAY = re.compile(r"Your turn: lay (down|off)")
MY_ANSWER = "Your answer"

pytestmark = pytest.mark.browser


@pytest.fixture
def learner(browser: Browser, voila_server: VoilaServer
            ) -> Iterator[Callable[..., tuple[BrowserContext, Page]]]:
    """Opens notebook 09 (with `query`) in a browser context of its own, as many times
    as asked; every context still open is closed afterwards."""
    contexts: list[BrowserContext] = []

    def open_page(**query: object) -> tuple[BrowserContext, Page]:
        context = browser.new_context()
        contexts.append(context)
        page = context.new_page()
        page.goto(voila_server.render_url(NOTEBOOK, **query), wait_until="commit",
                  timeout=TIMEOUT_MS)
        expect(at(page, ".tr-open")).to_be_attached(timeout=TIMEOUT_MS)
        return context, page

    yield open_page
    for context in contexts:
        context.close()  # a context the test closed already: nothing happens


def at(page: Page, css: str) -> Locator:
    """`css` inside the shared-table page of 09 (pass-and-play has a seat view too)."""
    return page.locator(f".tr-classroom {css}")


def prompt(page: Page) -> str:
    return at(page, ".tr-prompt").inner_text().strip()


def moves(page: Page) -> int:
    found = re.search(r"move (\d+)", at(page, ".tr-status").inner_text())
    return int(found.group(1)) if found else -1


def tidy(page: Page) -> None:
    """Close a round's recap, and take the seat back if the store marked this learner
    away while the machine was slow (neither is what the test is about)."""
    for css in (".tr-continue", ".tr-back"):
        button = at(page, css)
        if button.is_visible():
            button.click()


def discard_last(me: Page, name: str) -> str:
    """Discard the last card of the hand; returns the log's sentence for it."""
    at(me, ".tr-hand .tv-card-button").last.click()
    chosen = at(me, ".tr-hand .tv-card-button.mod-active")  # the click reached the kernel
    expect(chosen).to_have_count(1, timeout=TIMEOUT_MS)
    text = chosen.inner_text().strip()
    expect(at(me, ".tr-discard")).to_be_enabled(timeout=TIMEOUT_MS)
    at(me, ".tr-discard").click()
    sentence = f"{name} discards {text}"
    try:  # the store's answer (the log holds 10 lines: a round's end may push it out)
        expect(at(me, ".tr-message")).to_contain_text(
            f"Your move is on the table: discard {text}", timeout=TIMEOUT_MS // 3)
    except AssertionError:
        me.screenshot(path="/tmp/si_discard_failed.png", full_page=True)
        pytest.fail(f"{name}'s discard of {text} did not reach the table; the page says "
                    f"{at(me, '.tr-message').inner_text()!r}, {prompt(me)!r}, "
                    f"{at(me, '.tr-status').inner_text()!r}, "
                    f"hand {at(me, '.tr-hand').inner_text()!r}")
    return sentence


def play_until(pages: dict[str, Page], done: Callable[[], bool], what: str,
               played: list[str] | None = None) -> None:
    """Each learner present plays their turns (draw, discard the last card) until
    `done()`; the names of those who played go to `played`; fails after TIMEOUT_MS."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while not done():
        if time.monotonic() > deadline:
            shown = {n: (prompt(p), at(p, ".tr-status").inner_text(),
                         at(p, ".tr-message").inner_text(), at(p, ".tr-away").inner_text())
                     for n, p in pages.items()}
            pytest.fail(f"never reached: {what}; the pages show {shown}")
        for name, page in pages.items():
            tidy(page)
            if prompt(page).startswith(MY_TURN):
                at(page, ".tr-draw").click()
                expect(at(page, ".tr-prompt")).to_contain_text(MY_PLAY, timeout=TIMEOUT_MS)
                discard_last(page, name)
                if played is not None:
                    played.append(name)
                if done():
                    return
            elif prompt(page).startswith(MY_ANSWER):  # not with "never"; just in case
                at(page, ".tr-pass").click()
        next(iter(pages.values())).wait_for_timeout(200)


def test_a_learner_who_closes_the_page_is_played_by_a_bot_and_rejoins_by_link(
        learner: Callable[..., tuple[BrowserContext, Page]]) -> None:
    names = ("Ann", "Bo", "Cy")
    opened = [learner() for _name in names]
    pages = {name: page for name, (_context, page) in zip(names, opened, strict=True)}
    for name, page in pages.items():
        expect(at(page, ".tr-open")).to_be_visible(timeout=TIMEOUT_MS)
        at(page, ".tr-name input").fill(name)
    ann = pages["Ann"]
    at(ann, ".tr-players select").select_option("3")
    at(ann, ".tr-learners select").select_option("3")
    at(ann, ".tr-away-after input").fill(str(AWAY_AFTER))
    at(ann, ".tr-away-after input").press("Tab")
    at(ann, ".tr-open").click()
    expect(at(ann, ".tr-table-code")).to_contain_text("Table code", timeout=TIMEOUT_MS)
    code = at(ann, ".tr-table-code b").inner_text().strip()
    for seat, name in enumerate(names[1:], start=1):
        at(pages[name], ".tr-code input").fill(code)
        at(pages[name], ".tr-join").click()
        expect(at(pages[name], ".tr-status")).to_contain_text(
            f"you are {name}, seat {seat}", timeout=TIMEOUT_MS)
    for page in pages.values():  # every learner: offer me no declined discard
        at(page, ".tr-buy-offers select").select_option(index=2)  # never

    # a draw from the stock nobody wants: the drawer plays on, nobody clicks Pass
    play_until(pages, lambda: any(prompt(p).startswith(MY_TURN) for p in pages.values()),
               "a learner's turn")
    drawer = next(n for n, p in pages.items() if prompt(p).startswith(MY_TURN))
    me = pages[drawer]
    before = moves(me)
    at(me, ".tr-draw").click()  # the only click until the drawer may lay down
    expect(at(me, ".tr-prompt")).to_contain_text(MY_PLAY, timeout=TIMEOUT_MS)
    # the status line is a widget of its own: it may reach the page just after the prompt
    expect(at(me, ".tr-status")).to_contain_text(re.compile(rf"move (?!{before}\b)\d+"),
                                                 timeout=TIMEOUT_MS)
    assert moves(me) > before
    for other in pages.values():
        assert not prompt(other).startswith(MY_ANSWER)
    discard_last(me, drawer)

    # a learner closes the page on their own turn
    play_until(pages, lambda: any(prompt(p).startswith(MY_TURN) for p in pages.values()),
               "a learner's turn")
    gone = next(n for n, p in pages.items() if prompt(p).startswith(MY_TURN))
    seat = names.index(gone)
    key = at(pages[gone], ".tr-rejoin-key code").inner_text().strip()
    link = at(pages[gone], ".tr-rejoin-key a").get_attribute("href") or ""
    assert f"table={code}" in link and "key=" in link
    at_close = moves(pages[gone])
    opened[seat][0].close()
    here = {n: p for n, p in pages.items() if n != gone}
    note = f"{gone} is away: a bot plays for {gone}"
    play_until(here, lambda: all(note in at(p, ".tr-away").inner_text()
                                 for p in here.values()), "the away note")
    # the game goes on: the stand-in bot plays the seat's turn, and the next learner's
    # turn comes (the turn after the one the page was closed on)
    play_until(here, lambda: any(prompt(p).startswith(MY_TURN) and moves(p) > at_close
                                 for p in here.values()), f"a bot's turn for {gone}")

    # the learner comes back through the rejoin link and has the seat at once
    _context, back = learner(table=code, key=key)
    expect(at(back, ".tr-message")).to_contain_text(f"back at seat {seat}",
                                                    timeout=TIMEOUT_MS)
    expect(at(back, ".tr-status")).to_contain_text(f"seat {seat}")
    for page in here.values():
        expect(at(page, ".tr-away")).not_to_contain_text(note, timeout=TIMEOUT_MS)
    at(back, ".tr-buy-offers select").select_option(index=2)  # never
    everyone = {**here, gone: back}
    played: list[str] = []
    # and plays on: their next turn is theirs to play, from the page of the link
    play_until(everyone, lambda: gone in played, f"{gone}'s own move after coming back",
               played)
    assert note not in at(back, ".tr-away").inner_text()
