"""What the browser tests of notebook 07 share: waiting for the bots to hand the game back."""

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
