"""What the browser tests of notebook 07 share: waiting for the bots to hand the game
back, and for the focus to land on a control."""

from __future__ import annotations

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
    """Press Tab until the focused element has class `css`; the presses it took."""
    for presses in range(1, limit + 1):
        page.keyboard.press("Tab")
        if css in focused_classes(page):
            return presses
    raise AssertionError(f"Tab never reached .{css}")


def pass_offers(page: Page) -> None:
    """Answer every buy offer open now with Pass (by keyboard: Tab from Buy to Pass)."""
    while page.locator(".tr-buy-row").is_visible():
        page.locator(".tr-pass").focus()
        page.keyboard.press("Enter")
        page.wait_for_timeout(300)
        wait_for_my_move(page)
