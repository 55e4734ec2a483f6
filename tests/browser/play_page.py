"""What the browser tests of notebook 07 share: waiting for the bots to hand the game
back, and for the focus to land on a control."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Page

TIMEOUT_MS = 30_000


def wait_for_my_move(page: Page) -> None:
    """Until the bots are done: your turn to draw or play, or an offer to buy."""
    page.wait_for_function(
        """() => {
          const prompt = document.querySelector('.tr-prompt')?.textContent ?? '';
          return prompt.startsWith('Your turn') || prompt.startsWith('Your answer');
        }""", timeout=TIMEOUT_MS)


def wait_for_focus(page: Page, css: str) -> None:
    """Until the focused element has class `css` (the app moved the focus there)."""
    page.wait_for_function(
        "css => document.activeElement?.classList.contains(css) ?? false", arg=css,
        timeout=TIMEOUT_MS)


def focused_classes(page: Page) -> list[str]:
    return list(page.evaluate("() => [...(document.activeElement?.classList ?? [])]"))


def tab_to(page: Page, css: str, limit: int = 80) -> int:
    """Press Tab until the focused element has class `css`; the presses it took (0 when
    the focus is there already: the page may have moved it there by itself, and a press
    would step past it)."""
    for presses in range(limit + 1):
        if css in focused_classes(page):
            return presses
        if presses < limit:
            page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached .{css}")


def wait_for_my_move_and_focus(page: Page) -> None:
    """Until the bots are done and the page has moved the focus on (to Buy, Pass or
    Draw): a keyboard test's next press must not race that move."""
    wait_for_my_move(page)
    page.wait_for_function(
        """() => ['tr-buy', 'tr-pass', 'tr-draw'].some(
             css => document.activeElement?.classList.contains(css))""", timeout=TIMEOUT_MS)


def pass_by_keyboard(page: Page) -> None:
    page.locator(".tr-pass").focus()
    page.keyboard.press("Enter")


def pass_by_click(page: Page) -> None:
    page.locator(".tr-pass").click()


def pass_offers(page: Page, press: Callable[[Page], None] = pass_by_keyboard,
                then: Callable[[Page], None] = wait_for_my_move_and_focus) -> None:
    """Answer every buy offer open now with Pass (`press` passes one), then `then`.

    Each pass is waited for until the log shows it. The page redraws the buy row before
    the log, so the row read next is the one of the next offer, never of the offer just
    answered (a fixed pause here once let a loaded machine read the old row and pass a
    second time after the row had closed)."""
    while page.locator(".tr-buy-row").is_visible():
        logged = page.locator(".tr-log").inner_html()
        press(page)
        page.wait_for_function(
            "old => (document.querySelector('.tr-log')?.innerHTML ?? old) !== old",
            arg=logged, timeout=TIMEOUT_MS)
        then(page)
