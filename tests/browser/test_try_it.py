"""Every "Try it" of lessons 00-08, done in Chromium as a learner reads it.

Each test follows one lesson's Try it list step by step, with the clicks and the typing
the step asks for, and checks that the page shows what answers the question. The number
of clicks and keystrokes a step takes is small (a learner does each in well under a
minute); the tests assert what is shown, never how long it took. 09's Try it is done by
the browser tests of its tables (1: test_passplay.py; 2-4: test_classroom.py); 10's 1 is
here (its 2 and 3 watch whole rounds: test_tournament.py plays one).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from play_page import pass_offers
from playwright.sync_api import expect

from tests.browser.test_tournament import key_of
from toonerville.engine.cards import Card

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

    from tests.conftest import OpenNotebook, VoilaPage, VoilaServer

UPDATE_MS = 30_000
#: a simulation of 08 on a busy machine: some hundreds of bot games
RUN_MS = 300_000


def wait_for_text(page: Page, selector: str, text: str, timeout: float = UPDATE_MS) -> None:
    """Wait for `text` in an element of `selector` (a sentence shown starts with a capital:
    the case is not compared)."""
    page.wait_for_function(
        """([selector, text]) => [...document.querySelectorAll(selector)]
               .some(el => el.textContent.toLowerCase().includes(text.toLowerCase()))""",
        arg=[selector, text], timeout=timeout)


def assert_clean(voila: VoilaPage) -> None:
    assert voila.stderr_outputs().count() == 0, voila.page.inner_text("body")[:2000]
    assert voila.errors == []


def button(scope: Page | Locator, name: str) -> Locator:
    return scope.get_by_role("button", name=name, exact=True).first


def choose(page: Page, label: str, option: str) -> None:
    page.get_by_role("combobox", name=label).first.select_option(label=option)


def type_number(page: Page, label: str, value: int) -> None:
    box = page.get_by_role("spinbutton", name=label).first
    box.fill(str(value))
    box.press("Enter")


def try_it_section(page: Page) -> Locator:
    return page.locator(".jp-RenderedMarkdown", has=page.locator("h2", has_text="Try it"))


def test_00_open_lesson_1_and_deal_a_round_one_card_at_a_time(
        open_notebook: OpenNotebook) -> None:
    voila = open_notebook("00-welcome.ipynb")
    page = voila.page
    try_it_section(page).get_by_role("link", name="lesson 1").click()
    page.wait_for_url("**/01-deck-and-deal.ipynb*")
    button(page, "Deal one card").wait_for(timeout=RUN_MS)
    choose(page, "Players", "3")  # the smallest round: 36 cards
    wait_for_text(page, ".tv-lesson", "3 players")
    for k in range(1, 37):
        button(page, "Deal one card").click()
        wait_for_text(page, ".tv-lesson", f"Cards dealt: {k} of 36" if k < 36
                      else "All 36 cards are dealt")


def test_01_try_it(open_notebook: OpenNotebook) -> None:
    voila = open_notebook("01-deck-and-deal.ipynb", wait_for=".tv-lesson")
    page = voila.page
    # 1. 5 players, round 10: the stock after the deal and the turn-up, checked by Deal all
    choose(page, "Players", "5")
    choose(page, "Round", "10 (4 runs)")
    wait_for_text(page, ".tv-lesson", "16 cards each in round 10")
    button(page, "Deal all").click()
    wait_for_text(page, ".tv-lesson", "204 cards")  # the stock: 285 - 5 × 16 - 1
    # 2. 3 players, round 1, seed 9, deal all: the first card turned up, and its rule
    button(page, "Gather and start again").click()
    choose(page, "Players", "3")
    choose(page, "Round", "1 (2 sets)")
    type_number(page, "Seed", 9)
    wait_for_text(page, ".tv-lesson", "Seed 9")
    button(page, "Deal all").click()
    wait_for_text(page, ".tv-lesson", "it is buried in the stock")
    assert "H3" in page.locator(".tv-lesson").inner_text()
    # 3. one card at a time: who receives the 5th card, and why
    button(page, "Gather and start again").click()
    for _k in range(4):
        button(page, "Deal one card").click()
    wait_for_text(page, ".tv-lesson", "Cards dealt: 4 of")
    text = page.locator(".tv-lesson").inner_text()
    assert "next card goes to Player" in text and "starting on the dealer's left" in text
    assert_clean(voila)


def test_02_try_it(open_notebook: OpenNotebook) -> None:
    voila = open_notebook("02-runs-and-sets.ipynb", wait_for=".tv-meld-text input")
    page = voila.page
    box = page.locator(".tv-meld-text input")
    # 1. a run with two Rooks: where does each go?
    box.fill("R5 RK RK R8")
    wait_for_text(page, ".tv-verdict", "RK=R6 RK=R7")
    # 2. a set of five 9s with a duplicate, and a run of six
    box.fill("Y9 B9 G9 R9 Y9")
    wait_for_text(page, ".tv-verdict", "A set: Y9 B9 G9 R9 Y9")
    box.fill("R1 R2 R3 R4 R5 R6")
    wait_for_text(page, ".tv-verdict", "A run: R1 R2 R3 R4 R5 R6")
    # 3. a card that does not exist
    box.fill("R15")
    wait_for_text(page, ".tv-lesson", "numbers go from 1 to 14 (T1)")
    box.fill("P3")
    wait_for_text(page, ".tv-lesson", "starts with a colour letter")
    # 4. two red runs that make a valid lay-down together, and two that do not
    box.fill("R3 R4 R5 R6 / R5 R6 R7 R8")
    wait_for_text(page, ".tv-lesson", "a lay-down of 2 runs")
    box.fill("R3 R4 R5 R6 / R7 R8 R9 R10")
    wait_for_text(page, ".tv-lesson", "(H8)")
    assert_clean(voila)


def test_03_try_it(open_notebook: OpenNotebook) -> None:
    voila = open_notebook("03-contracts.ipynb", wait_for=".tv-lesson")
    page = voila.page
    lesson = page.locator(".tv-lesson").first
    # 1. which round's contract is met most often, which hardest: ask How often? per round
    shares = {}
    for r, label in ((1, "1: 2 sets"), (3, "3: 2 runs")):
        choose(page, "Round", label)
        wait_for_text(page, ".tv-lesson", f"Round {r}")
        button(page, "How often?").click()
        wait_for_text(page, ".tv-lesson", f"seeded deals of round {r}", RUN_MS)
        said = lesson.inner_text()
        shares[r] = said[said.index(f"seeded deals of round {r}"):].split("%")[0]
    assert shares[1] != shares[3]
    # 3. round 3: one press deals until a hand meets the contract, and says how many deals
    choose(page, "Round", "3: 2 runs")
    button(page, "Deal until it meets the contract").click()
    wait_for_text(page, ".tv-lesson", "deals to get a hand that meets the contract of round 3",
                  RUN_MS)
    assert "This hand already meets the contract!" in lesson.inner_text()
    button(page, "Deal until it meets the contract").click()  # "press it again"
    wait_for_text(page, ".tv-lesson", "(seed ", RUN_MS)
    assert_clean(voila)


def test_04_try_it(open_notebook: OpenNotebook) -> None:
    voila = open_notebook("04-turn-and-buying.ipynb", wait_for=".tv-seat-4")
    page = voila.page
    # 1. 4 players; Players 4 and 1 ask to buy: who gets the card, and when is it decided?
    choose(page, "Players", "4")
    page.locator(".tv-seat-5").wait_for(state="detached")
    button(page, "Decline it: draw from the stock").click()
    wait_for_text(page, ".tv-lesson", "still to answer")
    button(page.locator(".tv-seat-4"), "Ask to buy").click()
    wait_for_text(page, ".tv-event-log", "Player 4 asks to buy")
    button(page.locator(".tv-seat-1"), "Ask to buy").click()
    wait_for_text(page, ".tv-event-log", "Player 1 asks to buy")
    assert "Player 4 buys" not in page.locator(".tv-event-log").inner_text()  # not yet
    button(page.locator(".tv-seat-3"), "Pass").click()
    wait_for_text(page, ".tv-event-log", "Player 4 buys G3 (T10)")
    # 2. can Player 2 take the discard after declining it?
    button(page, "Start again").click()
    wait_for_text(page, ".tv-event-log", "Nothing yet")  # a new deal, new seats
    button(page, "Decline it: draw from the stock").click()
    wait_for_text(page, ".tv-lesson", "still to answer")
    button(page, "Take the discard").click()
    wait_for_text(page, ".tv-lesson", "you declined the discard")
    # 3. the card just taken, and a different G3
    button(page, "Discard the card just taken? (T14)").click()
    wait_for_text(page, ".tv-lesson", "(another G3 would be fine) (T14)")
    assert page.get_by_role("combobox").last.evaluate(
        "el => el.options[el.selectedIndex].text") == "G3"  # the card the sentence is about
    assert_clean(voila)


def test_05_try_it(open_notebook: OpenNotebook) -> None:
    voila = open_notebook("05-the-rook.ipynb", wait_for=".tv-lesson")
    page = voila.page
    # 1. swap R8 for the Rook, lay the Rook off onto Player 1's own run as R9
    choose(page, "Put in", "R8")
    choose(page, "for the Rook in", "Player 1's run of Red 5–8: R5 R6 R7 RK=R8")
    choose(page, "then lay the Rook off onto", "Player 1's run of Red 5–8, as R9")
    button(page, "Swap").click()
    wait_for_text(page, ".tv-lesson", "Player 2 lays off RK=R9 onto R5 R6 R7 R8 RK=R9")
    # 2. where else could it go; which places are refused, and why
    button(page, "Start again").click()
    button(page, "Put G4 for the Rook in the run?").click()
    wait_for_text(page, ".tv-lesson", "only that card can take its place, not G4 (T18)")
    # 3. the Rook of a set
    button(page, "Start again").click()
    button(page, "Swap G9 for the Rook in the set? (T19)").click()
    wait_for_text(page, ".tv-lesson", "a Rook in a set can never be swapped out")
    assert_clean(voila)


def test_06_try_it(open_notebook: OpenNotebook) -> None:
    voila = open_notebook("06-going-out-and-scoring.ipynb", wait_for=".tv-lesson")
    page = voila.page
    hand = page.get_by_role("textbox", name="Hand left").first
    # 1. the costliest and the cheapest hand of 5 cards
    hand.fill("RK RK RK RK RK")
    wait_for_text(page, ".tv-lesson", "= 125 points")
    hand.fill("R1 R2 R3 R4 R5")
    wait_for_text(page, ".tv-lesson", "= 25 points")
    # 2. the round 11 scene: the contract laid down is refused
    choose(page, "Scene", "Round 11: no going out by discarding (T17)")
    for step in ("Step 1", "Step 2"):
        button(page, "Next step").click()
        wait_for_text(page, ".tv-lesson", step)
    wait_for_text(page, ".tv-lesson", "in round 11 the whole hand goes down at once")
    # 3. bot games with a few seeds: winner and last player, and ties
    for seed in (2, 3):
        type_number(page, "Seed", seed)
        button(page, "Play a bot game").click()
        wait_for_text(page, ".tv-lesson", f"all 11 rounds with seed {seed}", RUN_MS)
    assert "the lowest total wins" in page.locator(".tv-lesson").inner_text()
    assert_clean(voila)


def test_08_try_it(open_notebook: OpenNotebook) -> None:
    voila = open_notebook("08-rules-explorer.ipynb", wait_for="button:has-text('Run')")
    page = voila.page
    explorer = page.locator(".tv-rules-explorer")
    # The Try it's steps with half of its games (40, 20 and 80 as written): the page's
    # behaviour is the same, and the 240 games took most of this test's minute in CI.
    # 1. How hard is each round? 10 games
    choose(page, "Question", "How hard is each round?")
    type_number(page, "Games", 10)
    page.get_by_role("button", name="Run").first.click()
    wait_for_text(page, ".tv-rules-explorer", "Done: 10 games", RUN_MS)
    assert explorer.locator("svg").count() >= 1 and "Dealt hand holds it" in explorer.inner_text()
    # 2. What does a house rule change? preset H5: 2 penalty cards per buy
    choose(page, "Question", "What does a house rule change? (A against B)")
    page.get_by_text("House rules B (for a comparison)").click()  # open B's panel
    choose(page, "B changes", "H5: 2 penalty cards per buy")
    type_number(page, "Games", 10)
    page.get_by_role("button", name="Run").first.click()
    page.wait_for_function(  # while it plays, the last question's plot is gone
        "() => (document.querySelector('.tv-explorer-status')?.textContent || '')"
        ".startsWith('Playing') && !document.querySelector('.tv-explorer-plot svg')",
        timeout=UPDATE_MS)
    wait_for_text(page, ".tv-rules-explorer", "Done: 10 games per configuration", RUN_MS)
    widths = [explorer.inner_text()]
    # 3. the same comparison with 40 games: the intervals narrow
    type_number(page, "Games", 40)
    page.get_by_role("button", name="Run").first.click()
    wait_for_text(page, ".tv-rules-explorer", "Done: 40 games per configuration", RUN_MS)
    widths.append(explorer.inner_text())
    assert widths[0] != widths[1]
    assert_clean(voila)


def test_03_the_dealt_hand_is_sorted(open_notebook: OpenNotebook) -> None:
    voila = open_notebook("03-contracts.ipynb", wait_for=".tv-lesson svg[data-card]")
    cards = voila.page.locator(".tv-lesson svg[data-card]").evaluate_all(
        "els => els.map(el => el.dataset.card)")[:12]
    order = {c: k for k, c in enumerate(sorted(set(cards), key=_sort_key))}
    assert [order[c] for c in cards] == sorted(order[c] for c in cards)


def _sort_key(card: str) -> int:
    return Card.parse(card).sort_key


#: true once the hand shown is not `arg` (the names of its cards, in order)
HAND_IS_NOT = """held => JSON.stringify([...document.querySelectorAll('.tr-hand .tr-card')]
                  .map(el => el.textContent.trim())) !== JSON.stringify(held)"""


def test_07_try_it(open_notebook: OpenNotebook) -> None:
    voila = open_notebook("07-play-a-game.ipynb", wait_for=".tr-draw", seed=7)
    page = voila.page
    sheet = page.locator(".tr-score-sheet")
    # 1. random bots, then heuristic bots, each game finished by the bots: who went out?
    page.locator(".tr-panel-1").click()  # Next game
    page.locator(".tr-panel-2").click()  # Save, load, or let the bots finish
    went_out = {}
    for kind in ("random", "heuristic"):
        choose(page, "Bot kind", kind)
        button(page, "New game").click()
        wait_for_text(page, ".tr-message", f"{kind} bots")
        button(page, "Let the bots finish the game").click()
        wait_for_text(page, ".tr-prompt", "The game is over")
        rows = sheet.locator("tbody tr")
        expect(rows).to_have_count(11)
        went_out[kind] = rows.evaluate_all(
            "rows => rows.map(r => [...r.querySelectorAll('td')].slice(1)"
            ".filter(td => /^0(\\s|Σ|$)/.test(td.textContent.trim())).length)")
        assert sum(went_out[kind]) >= 1, went_out  # the 0s say who went out
    # 2. two penalty cards per buy, every declined discard offered: the offer says so
    type_number(page, "Penalty cards per buy", 2)
    choose(page, "Buy offers", "every declined discard")
    button(page, "New game").click()
    page.wait_for_function(
        "() => ['tr-draw', 'tr-pass'].some("
        "css => document.activeElement?.classList.contains(css))", timeout=UPDATE_MS)
    if not page.locator(".tr-buy-row").is_visible():  # a turn of ours first, by keys
        page.keyboard.press("d")
        expect(page.locator(".tr-hand .tr-card")).to_have_count(13, timeout=UPDATE_MS)
        page.keyboard.press("1")
        page.keyboard.press("x")
    expect(page.locator(".tr-buy-row")).to_be_visible(timeout=UPDATE_MS)
    expect(page.locator(".tr-buy-row")).to_contain_text("2 penalty cards from the stock (T11)")
    # 3. save in the middle of a round, a new game, load: the round carries on
    # Enter passes (the safe answer), every offer until our turn; each pass is waited for
    # in the log, then the bots' moves (the focus was on Pass already, so waiting for the
    # focus alone read the status while the bots still played)
    pass_offers(page, press=lambda p: p.keyboard.press("Enter"))
    expect(page.locator(".tr-log")).not_to_contain_text("the game is over",
                                                        timeout=UPDATE_MS)
    status = page.locator(".tr-status").inner_text()
    held = page.locator(".tr-hand .tr-card").all_inner_texts()
    button(page, "Save").click()
    expect(page.locator(".tr-save-text textarea")).not_to_have_value("", timeout=UPDATE_MS)
    button(page, "New game").click()
    page.wait_for_function(HAND_IS_NOT, arg=held, timeout=UPDATE_MS)
    button(page, "Load").click()
    expect(page.locator(".tr-status")).to_have_text(status, timeout=UPDATE_MS)
    expect(page.locator(".tr-hand .tr-card")).to_have_text(held, timeout=UPDATE_MS)
    assert_clean(voila)


def test_10_try_it_1(browser: Browser, voila_server: VoilaServer) -> None:
    """10's Try it 1. (Its 2 and 3 watch whole rounds at the learners' tables, minutes of
    play: test_tournament.py plays one round at three tables.)"""
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900})
                for _page in range(2)]
    try:
        teacher, learner = (c.new_page() for c in contexts)
        for page in (teacher, learner):
            page.goto(voila_server.render_url("10-tournament.ipynb"), wait_until="commit",
                      timeout=RUN_MS)
            expect(page.locator(".tt-start")).to_be_visible(timeout=RUN_MS)
        # 1. two learners and seven bots, 2 rounds; join as one of the learners
        teacher.locator(".tt-learners textarea").fill("Ann\nBo")
        teacher.locator(".tt-bots input").fill("7")
        teacher.locator(".tt-rounds input").fill("2")
        teacher.locator(".tt-rounds input").press("Tab")  # the value reaches the kernel
        teacher.locator(".tt-start").click()
        expect(teacher.locator(".tt-code")).to_contain_text("Tournament code", timeout=RUN_MS)
        code = teacher.locator(".tt-code b").inner_text().strip()
        key = key_of(teacher, "Ann")
        learner.locator(".tt-join-code input").fill(code)
        learner.locator(".tt-name input").fill("Ann")
        learner.locator(".tt-join-key input").fill(key.inner_text().strip())
        learner.locator(".tt-join").click()
        expect(learner.locator(".tr-status")).to_contain_text("you are Ann", timeout=RUN_MS)
        # who deals at Ann's table: the teacher's list of tables marks the dealer ★
        table = teacher.locator(".tt-tables li").filter(has_text="Ann")
        expect(table).to_have_count(1, timeout=UPDATE_MS)
        assert re.search(r"\w+ ★", table.inner_text()), table.inner_text()
    finally:
        for context in contexts:
            context.close()
