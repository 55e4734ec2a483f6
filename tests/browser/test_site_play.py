"""The static site's two played notebooks in Chromium, on Pyodide with no server: 07 (a
human's draw and discard and the bots' answers, the coach's hint and the round's review,
"Try it again" with its list kept in the browser's storage, save and load) and 08 (a small
simulation and its plot). Every page passes `sitefixtures`' checks: no error output, no
page error, no failed request, no request for another host.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

from play_page import discard_by_keys, pass_by_click, pass_offers, wait_for_my_move
from playwright.sync_api import expect

from tests.browser.sitefixtures import (
    TIMEOUT_MS,
    Network,
    assert_clean,
    assert_no_error_output,
    built_site,
    network,
    open_site_notebook,
    site_server,
)

if TYPE_CHECKING:
    from tests.conftest import OpenNotebook

# the static site's fixtures, shared
__all__ = ["built_site", "network", "open_site_notebook", "site_server"]
PLOT = ".tv-explorer-plot"


def test_07_a_human_draws_and_discards_the_bots_answer_and_save_and_load_keep_the_game(
    open_site_notebook: OpenNotebook, network: Network, tmp_path: Path
) -> None:
    """A turn by clicks and one by the card-game keys, the bots' answers; then Save gives
    a file and Load brings the game back as it was saved (one page: a Pyodide page costs
    Chromium about 10 CPU-seconds to open)."""
    site = open_site_notebook("07-play-a-game.ipynb", wait_for=".tr-draw", seed=11,
                              timeout_ms=TIMEOUT_MS)
    page = site.page
    seeded = re.compile(r"a new game \(seed 11\)", re.I)  # ?seed=
    expect(page.locator(".tr-message")).to_contain_text(seeded)
    wait_for_my_move(page)
    pass_offers(page, pass_by_click)
    hand = page.locator(".tr-hand .tr-card")
    before = hand.count()
    page.locator(".tr-draw").click()
    expect(hand).to_have_count(before + 1, timeout=TIMEOUT_MS)
    chosen = hand.last
    card = chosen.text_content()
    chosen.click()
    expect(chosen).to_have_class(re.compile(r"\bmod-active\b"), timeout=TIMEOUT_MS)
    page.locator(".tr-discard").click()
    log = page.locator(".tr-log")
    expect(log).to_contain_text(f"Robin discards {card} (T13)", timeout=TIMEOUT_MS)
    wait_for_my_move(page)
    text = log.inner_text()
    assert any(f"{bot} discards" in text or f"{bot} passes" in text
               for bot in ("Crow", "Jay", "Magpie")), text
    # the next turn by the card-game keys (keys.js is in the site's pages too): D, the
    # last card's badge digits, X
    pass_offers(page, pass_by_click)
    presses = discard_by_keys(page, "", hand.count() + 1)
    assert presses <= 4, presses

    # Save gives a file
    wait_for_my_move(page)
    dealt = hand.count()
    page.locator(".tr-panel-2").click()  # Save, load, or let the bots finish
    page.locator(".tr-save").click()
    link = page.locator(".tr-download a[download]")
    link.wait_for(state="visible", timeout=TIMEOUT_MS)
    with page.expect_download() as download_info:
        link.click()
    saved = tmp_path / "game.json"
    download_info.value.save_as(saved)
    assert json.loads(saved.read_text())["seed"] == 11

    # play on, then the file brings back the game as it was saved
    pass_offers(page, pass_by_click)
    page.locator(".tr-draw").click()
    expect(hand).to_have_count(dealt + 1, timeout=TIMEOUT_MS)
    page.locator(".tr-save-text textarea").fill("")
    with page.expect_file_chooser() as chooser:  # FileUpload's input is not in the page
        page.locator(".widget-upload").first.click()
    chooser.value.set_files(str(saved))
    expect(page.locator(".tr-message")).to_contain_text(re.compile("loaded: round 1", re.I),
                                                        timeout=TIMEOUT_MS)
    expect(hand).to_have_count(dealt, timeout=TIMEOUT_MS)
    assert_clean(site, network)


def test_07_the_coach_hints_reviews_a_round_and_try_it_again_keeps_its_list(
    open_site_notebook: OpenNotebook, network: Network
) -> None:
    """Issues 20 and 28 on the static site (Pyodide, no threads): the hint, the strong
    bot's move with what the other choices cost; the round's recap and its review,
    prepared when opened (`?scenario=roundend`: the learner's last discard of round 1);
    the review's costly decision played again and answered, and the practice list found
    again by the next page through localStorage (site/practice-store.js hands it to the
    kernel in the worker). The recap once stayed hidden here: Pyodide sent the layout's
    `display = None` as `undefined`."""
    site = open_site_notebook("07-play-a-game.ipynb", wait_for=".tr-draw", scenario="roundend",
                              seed=46, timeout_ms=TIMEOUT_MS)
    page = site.page
    wait_for_my_move(page)
    page.locator(".tr-hint").click()
    coach = page.locator(".tr-coach-hint")
    expect(coach).to_contain_text("discarding", timeout=TIMEOUT_MS)  # an alternative, priced
    expect(coach).to_contain_text("rounds played out")
    expect(page.locator(".tr-hand .tr-card.mod-active")).to_have_count(1)
    page.locator(".tr-discard").click()  # the card the hint selected
    recap = page.locator(".tr-recap")
    expect(recap).to_be_visible(timeout=TIMEOUT_MS)
    expect(recap).to_contain_text("Round 1 is over")
    page.locator(".tr-review-open").click()
    body = page.locator(".tr-review-body")
    expect(body).to_contain_text("The review of round 1 is ready", timeout=TIMEOUT_MS)
    expect(body).to_be_visible()
    item = page.locator(".tr-review-item").first
    expect(item).to_contain_text("It cost you about")
    expect(item.locator("svg[data-card]").first).to_be_visible()

    # Try it again: the costly decision, answered without seeing the answer first
    page.locator(".tr-practice-try").first.click()
    practice = page.locator(".tr-practice-body")
    expect(practice).to_be_visible(timeout=TIMEOUT_MS)
    mine = practice.locator(".tr-card").first
    mine.click()
    expect(mine).to_have_class(re.compile(r"\bmod-active\b"), timeout=TIMEOUT_MS)
    practice.locator(".tr-discard").click()
    answer = practice.locator(".tr-practice-answer")
    expect(answer).to_contain_text("You chose", timeout=TIMEOUT_MS)
    expect(answer).to_contain_text("rounds played out")
    page.wait_for_function(
        "() => (localStorage.getItem('toonerville-practice') || '').includes('\"positions\"')",
        timeout=TIMEOUT_MS)
    page.locator(".tr-continue").click()
    expect(recap).to_be_hidden(timeout=TIMEOUT_MS)
    assert_clean(site, network)
    again = open_site_notebook("07-play-a-game.ipynb", wait_for=".tr-practice-open", seed=5,
                               timeout_ms=TIMEOUT_MS)
    expect(again.page.locator(".tr-practice-open")).to_contain_text(
        re.compile(r"Your practice positions \(\d+\)"))
    assert_clean(again, network)


def test_08_a_small_simulation_finishes_and_its_plot_appears(
    open_site_notebook: OpenNotebook, network: Network
) -> None:
    site = open_site_notebook("08-rules-explorer.ipynb", timeout_ms=TIMEOUT_MS)
    assert_no_error_output(site)  # e.g. a process pool, which the browser does not have
    page = site.page
    page.get_by_role("button", name="Run").wait_for(state="visible", timeout=TIMEOUT_MS)
    for name, value in (("games", "2"), ("turn-limit", "20")):
        box = page.locator(f".tv-explorer-{name} input")
        box.fill(value)
        box.press("Enter")
    page.get_by_role("button", name="Run").click()
    page.wait_for_function(
        "() => (document.querySelector('.tv-explorer-status')?.textContent || '')"
        ".startsWith('Done: 2 games')", timeout=180_000)
    plot = page.locator(PLOT).first
    plot.wait_for(state="visible", timeout=TIMEOUT_MS)
    # the plot takes its width once the page has laid it out
    page.wait_for_function(
        f"() => document.querySelector('{PLOT}').getBoundingClientRect().width > 300",
        timeout=TIMEOUT_MS)
    assert_clean(site, network)
