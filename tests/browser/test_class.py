"""A class on notebook 09 in Chromium through Voila (issue 29): the teacher opens a class
with its name and one key press, sets hints off and saves; a learner in a browser context
of their own (their own kernel) follows the join link the projector shows, types nothing
but their name, and their page shows the teacher's settings; the teacher opens tables for
the class, the learner's page shows the link to their table, and at that table (reached
by the link, nothing typed) the Hint button is gone and the page says it is the teacher's
choice; the teacher's reload brings the desk back by itself (the browser kept the key),
the desk's link opens the class dashboard with the class shown, and page 10's tournament
desk offers the class on the teacher's browser.
Every button here is pressed from the keyboard (Tab to it, Enter)."""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from tests.conftest import VoilaServer

NOTEBOOK = "09-classroom.ipynb"
TIMEOUT_MS = 90_000
AXE_JS = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"

pytestmark = pytest.mark.browser


@pytest.fixture
def visitor(browser: Browser) -> Iterator[Callable[[str], Page]]:
    """Opens an address in a browser context of its own (its own kernel)."""
    contexts = []

    def open_page(url: str) -> Page:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        contexts.append(context)
        page = context.new_page()
        page.goto(url, wait_until="commit", timeout=TIMEOUT_MS)
        return page

    yield open_page
    for context in contexts:
        context.close()


def press(page: Page, css: str) -> None:
    """Press a button from the keyboard: focus it (as Tab would) and press Enter."""
    button = page.locator(css)
    expect(button).to_be_visible(timeout=TIMEOUT_MS)
    button.focus()
    page.keyboard.press("Enter")


def serious_axe_violations(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now (the desk open,
    the QR code drawn: test_a11y.py checks each page only as it first comes up)."""
    if not AXE_JS.is_file():
        pytest.fail(f"{AXE_JS} is missing: run `npm ci --no-audit --no-fund`",
                    pytrace=False)
    page.add_script_tag(path=str(AXE_JS))
    found: list[dict[str, Any]] = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
             .map(v => ({id: v.id, impact: v.impact,
                         nodes: v.nodes.map(n => n.target.join(' '))}))""")
    return [f"{v['id']}: {v['nodes'][:4]}" for v in found
            if v["impact"] in ("serious", "critical")]


def test_a_learner_joins_by_the_link_and_plays_with_the_teachers_settings(
        visitor: Callable[[str], Page], voila_server: VoilaServer) -> None:
    teacher = visitor(voila_server.render_url(NOTEBOOK))
    name = teacher.locator(".tc-desk .tc-name input")
    expect(name).to_be_visible(timeout=TIMEOUT_MS)
    name.fill("5B")
    press(teacher, ".tc-desk button.tc-open")  # the one click (key press) after the name
    link = teacher.locator(".tc-desk a.tc-join-link")
    expect(link).to_be_visible(timeout=TIMEOUT_MS)
    expect(teacher.locator(".tc-desk .tc-qr svg")).to_be_visible()
    join_url = link.get_attribute("href")
    assert join_url is not None
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(join_url).query))
    assert set(query) == {"class", "lang"} and query["lang"] == "en"
    hints = teacher.locator(".tc-desk .tc-hints input")
    hints.focus()
    teacher.keyboard.press("Space")  # hints off
    expect(hints).not_to_be_checked()
    press(teacher, ".tc-desk button.tc-save")
    expect(teacher.locator(".tc-desk .tc-message")).to_contain_text("hints off",
                                                                     timeout=TIMEOUT_MS)
    assert serious_axe_violations(teacher) == []

    learner = visitor(join_url)
    their_name = learner.locator(".tc-join-page .tc-join-name input")
    expect(their_name).to_be_visible(timeout=TIMEOUT_MS)
    their_name.fill("Ann")  # the only typing
    press(learner, ".tc-join-page button.tc-join")
    settings = learner.locator(".tc-join-page .tc-settings")
    expect(settings).to_contain_text("Class 5B — your teacher's settings: hints off",
                                     timeout=TIMEOUT_MS)
    assert serious_axe_violations(learner) == []
    # the page keeps the learner's key in its address: a reload asks for nothing
    learner.wait_for_url(re.compile(r"[?&]me="), timeout=TIMEOUT_MS)
    expect(teacher.locator(".tc-desk .tc-members")).to_contain_text("Ann",
                                                                    timeout=TIMEOUT_MS)

    press(teacher, ".tc-desk button.tc-tables")
    table_link = learner.locator(".tc-join-page a.tc-handout")
    expect(table_link).to_be_visible(timeout=TIMEOUT_MS)
    table_link.focus()
    learner.keyboard.press("Enter")  # to the table, nothing typed
    learner.wait_for_url(re.compile(r"[?&]table="), timeout=TIMEOUT_MS)
    status = learner.locator(".tr-classroom .tr-status")
    expect(status).to_contain_text("Ann", timeout=TIMEOUT_MS)
    expect(learner.locator(".tr-classroom .tr-class-note")).to_contain_text(
        "your teacher's settings: hints off", timeout=TIMEOUT_MS)
    expect(learner.locator(".tr-classroom button.tr-hint")).to_be_hidden()
    expect(learner.locator(".tr-classroom button.tr-draw")).to_be_attached()
    # the class page above the table knows the learner too: no name asked again
    expect(learner.locator(".tc-join-page .tc-settings")).to_contain_text("hints off")
    expect(learner.locator(".tc-join-page .tc-join-name input")).to_be_hidden()

    # the teacher's browser keeps the desk: a reload reopens the class by itself, and
    # the teacher's key stays off the projector until asked for
    teacher.reload(wait_until="commit", timeout=TIMEOUT_MS)
    again = teacher.locator(".tc-desk a.tc-join-link")
    expect(again).to_be_visible(timeout=TIMEOUT_MS)
    assert again.get_attribute("href") == join_url
    expect(teacher.locator(".tc-desk .tc-key")).to_be_hidden()
    expect(teacher.locator(".tc-desk .tc-members")).to_contain_text("Ann",
                                                                    timeout=TIMEOUT_MS)

    # the desk's link to the class dashboard holds the class's code and not the key; on
    # the teacher's browser page 12 shows the class at once (nothing typed)
    dashboard_link = teacher.locator(".tc-desk .tc-dashboard-link a")
    assert "class_key" not in (dashboard_link.get_attribute("href") or "")
    with teacher.context.expect_page() as opened:
        dashboard_link.focus()
        teacher.keyboard.press("Enter")
    dashboard = opened.value
    expect(dashboard.locator(".tv-dash-learner", has_text="Ann")).to_be_visible(
        timeout=TIMEOUT_MS)
    dashboard.close()

    # page 10, on the teacher's browser: its tournament desk has the class at hand
    teacher.goto(voila_server.render_url("10-tournament.ipynb"), wait_until="commit",
                 timeout=TIMEOUT_MS)
    class_code = teacher.locator(".tt-teacher .tt-class-code input")
    expect(class_code).to_have_value(query["class"], timeout=TIMEOUT_MS)
    press(teacher, ".tt-teacher button.tt-for-class")
    expect(teacher.locator(".tt-teacher .tt-learners textarea")).to_have_value(
        "Ann", timeout=TIMEOUT_MS)
