"""The teaching notebooks 00–06 as Voila apps, driven in Chromium.

Lean on purpose (each page costs a few seconds): every notebook renders with no error
output and no page error; then one scenario per lesson that the widget tests cannot
show — the round trip through the browser and the kernel.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from toonerville.engine.game import Game

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from tests.conftest import OpenNotebook, VoilaPage

LESSONS = ["00-welcome.ipynb", "01-deck-and-deal.ipynb", "02-runs-and-sets.ipynb",
           "03-contracts.ipynb", "04-turn-and-buying.ipynb", "05-the-rook.ipynb",
           "06-going-out-and-scoring.ipynb"]
UPDATE_MS = 15_000


def assert_clean(voila: VoilaPage) -> None:
    assert voila.stderr_outputs().count() == 0, voila.page.inner_text("body")[:2000]
    assert voila.errors == []


def wait_for_text(page: Page, selector: str, text: str) -> None:
    """Wait until an element matching `selector` contains `text` (after a kernel trip)."""
    page.wait_for_function(
        """([selector, text]) => [...document.querySelectorAll(selector)]
               .some(el => el.textContent.includes(text))""",
        arg=[selector, text], timeout=UPDATE_MS)


def check_lesson_page(voila: VoilaPage, name: str) -> None:
    """A lesson (00–06) rendered as an app: no error, 00 links every lesson, the others
    show their lesson with its size toggle. `test_a11y`'s sweep of every page runs it on
    the page it opens (one page load for both checks)."""
    assert_clean(voila)
    page = voila.page
    if name == "00-welcome.ipynb":
        for k in range(1, 9):
            assert page.locator(f"a[href^='0{k}-']").count() >= 1, f"no link to lesson {k}"
    else:
        lesson = page.locator(".tv-lesson")
        lesson.first.wait_for(state="visible")
        assert lesson.locator(".tv-size-toggle").count() == 1


def test_02_typing_picking_and_a_wrapped_run(open_notebook: OpenNotebook) -> None:
    voila = open_notebook("02-runs-and-sets.ipynb", wait_for=".tv-meld-text input")
    page = voila.page
    page.locator(".tv-meld-text input").fill("R5 R6 R7 R8")
    wait_for_text(page, ".tv-verdict", "A run: R5 R6 R7 R8")  # a sentence has a capital
    assert "valid" in page.locator(".tv-verdict").inner_text()
    assert "not valid" not in page.locator(".tv-verdict").inner_text()

    page.get_by_role("button", name="Wrapped run (T4)").click()
    wait_for_text(page, ".tv-verdict", "wraps past 14")
    assert "not valid" in page.locator(".tv-verdict").inner_text()

    page.get_by_role("button", name="Clear").click()
    for card in ("B11", "B12", "B13", "B14"):
        page.get_by_role("button", name=card, exact=True).click()
    wait_for_text(page, ".tv-verdict", "A run: B11 B12 B13 B14")
    assert page.locator(".tv-meld-text input").input_value() == "B11 B12 B13 B14"
    assert_clean(voila)


def test_04_a_buy_gives_card_and_penalty_to_player_4(open_notebook: OpenNotebook) -> None:
    voila = open_notebook("04-turn-and-buying.ipynb")
    page = voila.page
    seat4 = page.locator(".tv-seat-4")
    assert "11 cards" in seat4.inner_text()
    page.get_by_role("button", name="Rulebook example (T10)").click()
    wait_for_text(page, ".tv-seat-4", "bought G3")
    text = seat4.inner_text()
    assert "13 cards" in text and "just now: bought G3, penalty card" in text
    assert "bought" not in page.locator(".tv-seat-1").inner_text()
    assert "bought" not in page.locator(".tv-seat-5").inner_text()
    # the log is its own widget: its update may reach the page after the seats'
    wait_for_text(page, ".tv-event-log", "Player 4 buys G3 (T10)")
    log = page.locator(".tv-event-log").inner_text()
    assert "Player 4 also takes a penalty card from the stock (T11)" in log
    assert_clean(voila)


def _dealt_cards(page: Page, seat: int) -> list[str]:
    return page.locator(f".tv-deal-seat-{seat} svg[data-card]").evaluate_all(
        "els => els.map(el => el.dataset.card)")


def test_01_seed_in_the_url_chooses_the_deal(open_notebook: OpenNotebook) -> None:
    seed = 1234
    voila = open_notebook("01-deck-and-deal.ipynb", seed=seed)
    page = voila.page
    assert page.get_by_role("spinbutton", name="Seed").input_value() == str(seed)
    assert f"?seed={seed}" in page.locator(".tv-lesson").inner_text()
    page.get_by_role("button", name="Deal all").click()
    wait_for_text(page, ".tv-lesson", "All 48 cards are dealt")
    game = Game.new(4, seed=seed)
    default = Game.new(4, seed=7)
    for seat in range(4):
        shown = _dealt_cards(page, seat + 1)
        assert shown == [str(c) for c in game.hand(seat)]
    assert [str(c) for c in default.hand(0)] != _dealt_cards(page, 1)
    assert_clean(voila)


FONT_SIZES_JS = """() => {
    const px = el => el ? parseFloat(getComputedStyle(el).fontSize) : null;
    const prose = document.querySelector('.jp-RenderedMarkdown p');
    const heading = document.querySelector('.jp-RenderedMarkdown h1, .jp-RenderedMarkdown h2');
    const lesson = document.querySelector('.tv-lesson .widget-html-content div[style]');
    const caption = document.querySelector('.tv-lesson figcaption, .tv-lesson .tv-message');
    const button = document.querySelector('.tv-lesson .tv-size-toggle button');
    return {prose: px(prose), heading: px(heading), lesson: px(lesson),
            caption: px(caption), button: px(button)};
}"""


@pytest.mark.parametrize("name", ["02-runs-and-sets.ipynb", "05-the-rook.ipynb"])
def test_projector_size_in_the_url_scales_every_text_of_the_page(
        open_notebook: OpenNotebook, name: str) -> None:
    from toonerville.pages.render import TEXT_PX
    from toonerville.widgets.base import CONTROL_PX

    normal = open_notebook(name, wait_for=".tv-lesson .tv-size-toggle").page.evaluate(
        FONT_SIZES_JS)
    voila = open_notebook(name, wait_for=".tv-lesson.tv-size-projector", size="projector")
    page = voila.page
    page.wait_for_function(
        "() => document.querySelector('.tv-page-style style') !== null", timeout=UPDATE_MS)
    big = page.evaluate(FONT_SIZES_JS)
    assert None not in normal.values() and None not in big.values(), (normal, big)
    assert big["prose"] == TEXT_PX["projector"] > normal["prose"]  # the markdown cells
    assert big["heading"] > 1.8 * normal["heading"]  # headings follow the prose (em)
    assert big["lesson"] >= 1.8 * normal["lesson"]  # the lesson's own prose
    assert big["caption"] == TEXT_PX["projector"] > normal["caption"]  # captions, verdicts
    assert big["button"] >= CONTROL_PX["projector"] > normal["button"]
    projector = page.get_by_role("radio", name="Projector")
    if projector.count():  # ToggleButtons are radios in recent ipywidgets
        assert projector.first.get_attribute("aria-checked") in ("true", None)
    assert_clean(voila)


def test_02_a_rule_id_opens_its_rule_in_a_new_tab(open_notebook: OpenNotebook) -> None:
    voila = open_notebook("02-runs-and-sets.ipynb", wait_for=".tv-meld-text input")
    page = voila.page
    page.locator(".tv-meld-text input").fill("R5 R6 R7 R8")
    wait_for_text(page, ".tv-verdict", "A run: R5 R6 R7 R8")
    link = page.locator(".tv-verdict a.tv-rule[data-rule='T4']")
    assert link.get_attribute("target") == "_blank"
    assert "T4" in (link.get_attribute("title") or "")
    with page.context.expect_page() as opened:
        link.click()
    rulebook = opened.value
    # the static rulebook page (tools/pages.py): no kernel of its own
    assert rulebook.url.endswith("/voila/templates/toonerville/static/rulebook-en.html#T4"), \
        rulebook.url
    rulebook.locator("#T4").wait_for(state="attached", timeout=120_000)  # the rule is there
    assert page.locator(".tv-meld-text input").input_value() == "R5 R6 R7 R8"  # no game lost
    rulebook.close()
    assert_clean(voila)
