"""Page 11 in Chromium through Voila: a teacher and three learners, each in a browser
context of their own (four kernels), run a live board of three questions. The teacher
opens a class and asks with one click; each learner joins by the link (no code typed)
and answers with the seat view's own controls (a discard, draw or take, buy or pass),
one learner by the card-game keys alone, the teacher's last question by Enter alone;
the projector part of the teacher's page shows each spread — counts, never a name —
without a click, then the coach's verdict on each answer; the summary lists the three
questions. How long each answer took to reach the projector is printed, not asserted."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Locator, Page

    from tests.conftest import VoilaServer

NOTEBOOK = "11-live-board.ipynb"
TIMEOUT_MS = 90_000
NAMES = ("Ann", "Bo", "Cy")

pytestmark = pytest.mark.browser


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    made = [browser.new_context() for _ in range(4)]
    yield made
    for context in made:
        context.close()


def teacher_at(page: Page, css: str) -> Locator:
    return page.locator(f".tr-lb-teacher {css}")


def learner_at(page: Page, css: str) -> Locator:
    return page.locator(f".tr-lb-learner {css}")


def counts(page: Page) -> dict[str, int]:
    rows = teacher_at(page, ".tr-lb-chart tr.tr-lb-row")
    return {rows.nth(k).get_attribute("data-answer") or "":
            int(rows.nth(k).get_attribute("data-count") or 0) for k in range(rows.count())}


def wait_for_total(page: Page, total: int) -> float:
    """Wait until the projector counts `total` answers; returns when (monotonic)."""
    expect(teacher_at(page, ".tr-lb-chart caption")).to_contain_text(
        f"{total} answer", timeout=TIMEOUT_MS)
    return time.monotonic()


def test_a_teacher_and_three_learners_run_three_questions(
        contexts: list[BrowserContext], voila_server: VoilaServer) -> None:
    teacher = contexts[0].new_page()
    teacher.goto(voila_server.render_url(NOTEBOOK), wait_until="commit", timeout=TIMEOUT_MS)
    expect(teacher_at(teacher, ".tr-lb-open-class")).to_be_visible(timeout=TIMEOUT_MS)
    teacher_at(teacher, ".tr-lb-class-name input").fill("6B")
    teacher_at(teacher, ".tr-lb-open-class").click()
    link = teacher_at(teacher, "a.tr-lb-join-link")
    expect(link).to_be_visible(timeout=TIMEOUT_MS)
    join = link.get_attribute("href") or ""
    assert join.startswith("?class=")
    learners = []
    for context, name in zip(contexts[1:], NAMES, strict=True):
        page = context.new_page()
        page.goto(voila_server.render_url(NOTEBOOK) + join, wait_until="commit",
                  timeout=TIMEOUT_MS)
        box = learner_at(page, ".tr-lb-name input")
        expect(box).to_be_visible(timeout=TIMEOUT_MS)
        box.fill(name)
        learner_at(page, ".tr-lb-join").click()
        expect(learner_at(page, ".tr-lb-status")).to_contain_text(name, timeout=TIMEOUT_MS)
        learners.append(page)

    delays: list[float] = []

    def answer_all(how: list[str], keys: str) -> None:
        """Ann and Bo answer with the seat view's buttons (`how[k]`: a CSS class of a
        move button, or "discard": card k of the hand, then Discard), Cy by the card-game
        keys (`keys`); the projector shows the growing count after each."""
        for k, (page, css) in enumerate(zip(learners, how, strict=True)):
            seat = learner_at(page, ".tr-seat-view")
            expect(seat).to_be_visible(timeout=TIMEOUT_MS)
            if css == "discard":
                cards = learner_at(page, ".tr-hand .tv-card-button")
                expect(cards.first).to_be_visible(timeout=TIMEOUT_MS)
                if k < 2:
                    cards.nth(k % 2).click()
                css = ".tr-discard"
            button = learner_at(page, css)
            expect(button).to_be_enabled(timeout=TIMEOUT_MS)
            start = time.monotonic()
            if k < 2:
                button.click()
            else:  # Cy: by keys alone
                for key in keys:
                    page.keyboard.press(key)
            expect(learner_at(page, ".tr-lb-mine")).to_contain_text("Your answer",
                                                                     timeout=TIMEOUT_MS)
            delays.append(wait_for_total(teacher, k + 1) - start)

    def reveal() -> None:
        projector = teacher_at(teacher, ".tr-lb-projector")
        text = projector.inner_text()
        assert not any(re.search(rf"\b{n}\b", text) for n in NAMES), text
        teacher_at(teacher, ".tr-lb-reveal").click()
        expect(teacher_at(teacher, ".tr-lb-chart .tr-lb-best")).to_be_visible(
            timeout=TIMEOUT_MS)
        expect(teacher_at(teacher, ".tr-lb-chart .tr-lb-cost").first).to_be_visible()
        for page in learners:  # the learners see the verdict too
            expect(learner_at(page, ".tr-lb-chart .tr-lb-best")).to_be_visible(
                timeout=TIMEOUT_MS)

    # question 1: the named position the page starts with (a discard), one click
    teacher_at(teacher, ".tr-lb-ask").click()
    answer_all(["discard", "discard", "discard"], "1x")
    assert sum(counts(teacher).values()) == 3 and len(counts(teacher)) == 2
    reveal()
    # question 2: Next question readies the next named position (draw or take)
    teacher_at(teacher, ".tr-lb-next").click()
    teacher_at(teacher, ".tr-lb-ask").click()
    expect(teacher_at(teacher, ".tr-lb-question")).to_contain_text("Question 2",
                                                                   timeout=TIMEOUT_MS)
    answer_all([".tr-draw", ".tr-take", ".tr-draw"], "d")
    assert sorted(counts(teacher).values()) == [1, 2]
    reveal()
    # question 3: buy or pass; the teacher by keys: the focus is on Next, then on Ask
    expect(teacher_at(teacher, ".tr-lb-next")).to_be_focused(timeout=TIMEOUT_MS)
    teacher.keyboard.press("Enter")
    expect(teacher_at(teacher, ".tr-lb-ask")).to_be_focused(timeout=TIMEOUT_MS)
    teacher.keyboard.press("Enter")
    expect(teacher_at(teacher, ".tr-lb-question")).to_contain_text("Question 3",
                                                                   timeout=TIMEOUT_MS)
    answer_all([".tr-buy", ".tr-pass", ".tr-pass"], "p")
    assert sorted(counts(teacher).values()) == [1, 2]
    reveal()
    # names: the teacher's alone, behind a toggle
    names = teacher_at(teacher, ".tr-lb-names")
    expect(names).to_be_hidden()
    teacher_at(teacher, ".tr-lb-names-toggle").click()
    expect(names).to_contain_text("Ann")
    teacher_at(teacher, ".tr-lb-summary").click()
    rows = teacher_at(teacher, ".tr-lb-summary-row")
    expect(rows).to_have_count(3, timeout=TIMEOUT_MS)
    print(f"an answer reached the projector after {[round(d, 2) for d in delays]} s")
