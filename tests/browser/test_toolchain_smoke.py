"""End-to-end check of the browser toolchain: Chromium -> Voila -> kernel -> widgets.

Uses its own one-button notebook (``fixtures/one_button.ipynb``) so it says
nothing about the teaching notebooks, only that the chain works.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.conftest import OpenNotebook


def test_button_click_round_trips_through_the_kernel(
    open_fixture_notebook: OpenNotebook,
) -> None:
    voila = open_fixture_notebook("one_button.ipynb", wait_for="button:has-text('Click me')")
    page = voila.page
    result = page.locator(".widget-html-content")
    assert result.inner_text() == "not clicked"

    page.get_by_role("button", name="Click me").click()

    page.wait_for_function(
        "() => document.querySelector('.widget-html-content')?.textContent === 'clicked'",
        timeout=15_000,
    )
    assert result.inner_text() == "clicked"
    assert voila.errors == []
    assert voila.stderr_outputs().count() == 0
