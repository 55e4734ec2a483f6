"""Notebook 08 in Voila: run a small simulation, see the progress finish, the plot (SVG,
with its title for screen readers) and the tables appear, with no error output; a
comparison says how many games each configuration played."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.conftest import OpenNotebook

PLOT = ".tv-explorer-plot svg"


def test_a_small_simulation_shows_a_plot_and_tables(open_notebook: OpenNotebook) -> None:
    voila = open_notebook("08-rules-explorer.ipynb", wait_for="button:has-text('Run')")
    page = voila.page
    for name, value in (("games", "2"), ("turn-limit", "20")):
        box = page.locator(f".tv-explorer-{name} input")
        box.fill(value)
        box.press("Enter")  # a text box sends its value on Enter (or blur)
    page.locator(".tv-explorer-workers select").select_option("2")  # worker processes
    assert page.locator(PLOT).count() == 0

    page.get_by_role("button", name="Run").click()

    page.wait_for_function(
        "() => (document.querySelector('.tv-explorer-status')?.textContent || '')"
        ".startsWith('Done: 2 games')", timeout=120_000)
    plot = page.locator(PLOT)
    plot.wait_for(state="visible", timeout=15_000)
    page.wait_for_function(
        f"() => document.querySelector('{PLOT}').getBoundingClientRect().width > 300",
        timeout=15_000)
    assert plot.get_attribute("role") == "img"
    assert plot.locator("title").first.text_content().startswith("How hard is each round?")
    tables = page.locator(".tv-explorer-tables")
    assert "How hard is each round?" in tables.inner_text()
    assert tables.locator("tbody tr").count() == 11  # one row per round
    assert page.locator(".tv-explorer-download a[download]").count() == 1
    assert voila.errors == []
    assert voila.stderr_outputs().count() == 0


def test_a_comparison_says_games_per_configuration(open_notebook: OpenNotebook) -> None:
    voila = open_notebook("08-rules-explorer.ipynb", wait_for="button:has-text('Run')")
    page = voila.page
    for name, value in (("games", "2"), ("turn-limit", "10")):
        box = page.locator(f".tv-explorer-{name} input")
        box.fill(value)
        box.press("Enter")
    page.locator(".tv-explorer-workers select").select_option("1")
    page.get_by_text("House rules B (for a comparison)").click()  # open its panel
    page.locator(".tv-explorer-preset select").select_option(index=1)  # B: a preset
    page.get_by_role("button", name="Run").click()

    page.wait_for_function(
        "() => (document.querySelector('.tv-explorer-status')?.textContent || '')"
        ".startsWith('Done: 2 games per configuration (4 in all)')", timeout=120_000)
    title = page.locator(PLOT).locator("title").first.text_content() or ""
    assert title.startswith("A against B on the same seeds, round by round")
    assert "(2 games per configuration, 95% intervals)" in title
    tables = page.locator(".tv-explorer-tables").inner_text()
    assert "A against B (paired games)" in tables and "2 games per configuration" in tables
    assert voila.errors == []
    assert voila.stderr_outputs().count() == 0


def test_08_has_a_language_menu_like_00_to_07(open_notebook: OpenNotebook) -> None:
    voila = open_notebook("08-rules-explorer.ipynb", wait_for=".tv-language-dropdown select")
    page = voila.page
    page.locator(".tv-language-dropdown select").first.select_option(label="فارسی")
    page.wait_for_url("**lang=fa**", timeout=60_000)  # the prose follows the widgets
    page.get_by_role("button", name="اجرا").first.wait_for(timeout=120_000)
    assert page.evaluate("() => document.querySelector('.tv-rules-explorer')"
                         ".closest('[dir]')?.dir || getComputedStyle("
                         "document.querySelector('.tv-rules-explorer')).direction") == "rtl"
