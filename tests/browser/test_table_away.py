"""Notebook 09 in Chromium through Voila, issue 17's "no table waits for ever": three
learners at one table, each in a browser context of their own (three kernels).

- A draw from the stock that no learner wants passes without a click: every learner's
  buy-offer setting is "never", which the page sends to the store, and the store answers
  the buy window for them (T10); the drawer may play at once, nobody clicked Pass.
- A learner closes the page on their own turn: after the opener's short "Away after"
  limit the other pages say "<name> is away: a bot plays for <name>" and the stand-in bot
  plays the seat, so the game goes on. The learner comes back through their rejoin link
  (no typing), has the seat back at once, and plays on.

Issue 26: at a shared table the round's recap counts down and closes by itself while the
next round goes on under it (its first buy offer answered by a click, nobody reading it
marked away); a seat the opener gives away tells its old holder at once, and the newcomer
who opens the opener's link is greeted by the name they type; a rejoin link keeps
`?lang=`.

Nothing here is timed: every wait is a generous `expect` (the machine may be loaded)."""

from __future__ import annotations

import random
import re
import time
import urllib.parse
from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from tests.browser.test_classroom import click_while_offered
from toonerville.engine import actions as A
from toonerville.engine.game import Game
from toonerville.players.bots import HeuristicBot
from toonerville.store import Seat, open_store
from toonerville.widgets.store_place import store_location

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
                click_while_offered(at(page, ".tr-pass"))
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
    pages[gone].close(run_before_unload=True)  # as a tab closes: its kernel shuts down
    here = {n: p for n, p in pages.items() if n != gone}
    for page in here.values():  # said at once (issue 29), not after the away limit
        expect(at(page, ".tr-away")).to_contain_text(
            f"{gone}'s page is closed: a bot plays for {gone} in", timeout=15_000)
    opened[seat][0].close()
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


# -- issue 26: the recap at a shared table, and seats given away ---------------------------
def table_before_round_end(names: tuple[str, ...], seed: int = 3
                           ) -> tuple[str, str, list[Seat], A.Action]:
    """A table of learners only, opened and played (as the heuristic bot would) in this
    process's store — the one the served kernels use — up to the move that ends round 1;
    returns its code, the opener's key, the seats (with their keys) and that move."""
    store = open_store(store_location())
    code, host = store.open_hosted(len(names), seed=seed, names=names)
    seats = [store.claim(code, k, name=name) for k, name in enumerate(names)]
    game = Game.from_json(store.export(code))
    bot = HeuristicBot()
    for step in range(2_000):
        seat = game.deciders[0]
        action = bot.choose(game.view(seat), game.rules, partial(game.legal_actions, seat),
                            random.Random(step))
        game.apply(action)
        if game.records:
            return code, host, seats, action
        seats[seat].refresh()
        seats[seat].play(action)
    pytest.fail("round 1 did not end")


def test_a_shared_tables_recap_counts_down_while_the_next_rounds_offer_is_answered(
        learner: Callable[..., tuple[BrowserContext, Page]]) -> None:
    """Issue 26 §1: three learners see round 1's recap count down and close by itself,
    with no click on Continue; meanwhile round 2 goes on under it: its first buy offer
    is answered by a learner's click (not left to the table's buy limit), and nobody who
    reads the recap is marked away."""
    names = ("Ann", "Bo", "Cy")
    code, _host, seats, last = table_before_round_end(names)
    pages = {}
    for seat in seats:
        _context, page = learner(table=code, key=seat.secret)
        expect(at(page, ".tr-status")).to_contain_text(f"seat {seat.seat}",
                                                       timeout=TIMEOUT_MS)
        at(page, ".tr-buy-offers select").select_option(index=1)  # every offer
        pages[names[seat.seat]] = page
    closing = seats[last.seat]
    closing.refresh()
    closing.play(last)  # round 1 ends: every page shows its recap
    for page in pages.values():
        expect(at(page, ".tr-recap")).to_be_visible(timeout=TIMEOUT_MS)
        expect(at(page, ".tr-recap-countdown")).to_contain_text("seconds",
                                                                timeout=TIMEOUT_MS)
    answered, drew = "", False
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while not answered:
        if time.monotonic() > deadline:
            pytest.fail(f"round 2's first offer was never answered by a click; the pages "
                        f"show {({n: prompt(p) for n, p in pages.items()})}")
        for name, page in pages.items():
            if not drew and at(page, ".tr-draw").is_visible() \
                    and prompt(page).startswith(MY_TURN):
                at(page, ".tr-draw").click()  # round 2's first player, under the recap
                drew = True
            elif at(page, ".tr-pass").is_visible() \
                    and click_while_offered(at(page, ".tr-pass")):
                expect(at(page, ".tr-message")).to_contain_text(
                    "Your move is on the table: pass", timeout=TIMEOUT_MS)
                answered = name
                break
        next(iter(pages.values())).wait_for_timeout(200)
    for page in pages.values():  # nobody clicks Continue: the countdown closes it
        expect(at(page, ".tr-recap")).to_be_hidden(timeout=TIMEOUT_MS)
        assert at(page, ".tr-continue").count() == 1
    for page in pages.values():
        assert "away" not in at(page, ".tr-away").inner_text()


def test_a_seat_given_away_is_told_and_a_newcomer_is_greeted_by_the_name_typed(
        learner: Callable[..., tuple[BrowserContext, Page]]) -> None:
    """Issue 26 §2: the opener gives Bo's seat to a new learner: Bo's page says so at
    once, in words, and watches; the newcomer opens the opener's link, types a name and
    is greeted by it (not "back", not the bot's name); given to a bot, the newcomer's
    page says so too."""
    _context, ann = learner()
    at(ann, ".tr-name input").fill("Ann")
    at(ann, ".tr-players select").select_option("3")
    at(ann, ".tr-learners select").select_option("2")
    at(ann, ".tr-open").click()
    expect(at(ann, ".tr-table-code")).to_contain_text("Table code", timeout=TIMEOUT_MS)
    code = at(ann, ".tr-table-code b").inner_text().strip()
    _context, bo = learner()
    at(bo, ".tr-name input").fill("Bo")
    at(bo, ".tr-code input").fill(code)
    at(bo, ".tr-join").click()
    expect(at(bo, ".tr-status")).to_contain_text("you are Bo, seat 1", timeout=TIMEOUT_MS)

    give = at(ann, ".tr-give-row select")
    give.nth(0).select_option(index=0)  # seat 1
    give.nth(1).select_option(label="to a new learner")
    at(ann, ".tr-give").click()
    expect(at(ann, ".tr-message")).to_contain_text("for a new learner", timeout=TIMEOUT_MS)
    found = re.search(r"\?table=(\w+)&key=([\w-]+)&new=1", at(ann, ".tr-message").inner_text())
    assert found is not None, at(ann, ".tr-message").inner_text()
    expect(at(bo, ".tr-message")).to_contain_text(
        "gave your seat 1 to another learner", timeout=TIMEOUT_MS)
    expect(at(bo, ".tr-status")).to_contain_text("watching", timeout=TIMEOUT_MS)
    assert "(you)" not in at(bo, ".tr-others").inner_text()

    _context, dee = learner(table=found.group(1), key=found.group(2), new=1)
    expect(at(dee, ".tr-message")).to_contain_text("type your name", timeout=TIMEOUT_MS)
    at(dee, ".tr-name input").fill("Dee")
    at(dee, ".tr-join").click()
    expect(at(dee, ".tr-message")).to_contain_text("Welcome, Dee", timeout=TIMEOUT_MS)
    assert "back" not in at(dee, ".tr-message").inner_text()
    expect(at(dee, ".tr-status")).to_contain_text("you are Dee, seat 1", timeout=TIMEOUT_MS)

    give.nth(1).select_option(index=0)  # now to a bot
    at(ann, ".tr-give").click()
    expect(at(dee, ".tr-message")).to_contain_text("gave your seat 1 to a bot",
                                                   timeout=TIMEOUT_MS)
    expect(at(dee, ".tr-status")).to_contain_text("watching", timeout=TIMEOUT_MS)
    assert "(you)" not in at(dee, ".tr-others").inner_text()


def test_a_rejoin_link_keeps_the_pages_language(
        learner: Callable[..., tuple[BrowserContext, Page]]) -> None:
    """Issue 26 §2: a Persian learner's rejoin link brings them back in Persian."""
    _context, page = learner(lang="fa")
    at(page, ".tr-open").click()
    link = at(page, ".tr-rejoin-key a")
    expect(link).to_be_attached(timeout=TIMEOUT_MS)
    href = link.get_attribute("href") or ""
    assert "lang=fa" in href and "key=" in href, href
    found = dict(urllib.parse.parse_qsl(href.lstrip("?")))
    _context, back = learner(**found)
    expect(at(back, ".tr-rejoin-key a")).to_be_attached(timeout=TIMEOUT_MS)
    assert back.evaluate("() => document.documentElement.lang") == "fa"
    assert at(back, ".tr-rejoin-key code").inner_text().strip() == found["key"]  # seat 0
