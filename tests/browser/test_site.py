"""The static site (`make site`) in Chromium: it ships every notebook and only what its
lock lists, its front door is the kit's front page, and every notebook runs in the
browser with nothing but the site's own folder behind it: no error output, no page error,
no failed request, no request for another host. The two notebooks played in the browser
(07 and 08) are played in `test_site_play`; the fixtures are `sitefixtures`'.
"""

from __future__ import annotations

import json
import re
import urllib.parse
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.browser.sitefixtures import (
    NOTEBOOKS,
    TIMEOUT_MS,
    Network,
    SiteServer,
    assert_clean,
    assert_no_error_output,
    build_site,
    built_site,
    network,
    open_site_notebook,
    site_server,
)

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from tests.conftest import OpenNotebook

# the static site's fixtures, shared
__all__ = ["built_site", "network", "open_site_notebook", "site_server"]


def test_the_site_ships_every_notebook_and_only_what_its_lock_lists(built_site: Path) -> None:
    for name in NOTEBOOKS:
        assert (built_site / "voici" / "render" / name.replace(".ipynb", ".html")).is_file()
    pyodide = built_site / "static" / "pyodide"
    lock = json.loads((pyodide / "pyodide-lock.json").read_text())["packages"]
    assert {"toonerville", "ipywidgets", "ipython", "pyodide-kernel"} <= set(lock)
    for entry in lock.values():
        wheel = pyodide / entry["file_name"]
        assert build_site.sha256_of(wheel) == entry["sha256"], wheel.name
    shipped = {p.name for p in pyodide.glob("*.whl")}
    assert shipped == {entry["file_name"] for entry in lock.values()}


def test_a_page_decides_its_language_before_it_asks_for_anything(built_site: Path) -> None:
    for page in sorted((built_site / "voici" / "render").rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        switch = text.find("window.location.replace(pages[asked]")
        # (the rulebook page, tools/pages.py, asks for nothing at all)
        first_request = min([at for tag in ('<link rel="stylesheet"', "<script src")
                             if (at := text.find(tag)) >= 0] or [len(text)])
        assert 0 < switch < first_request, page
        assert text.find("<meta charset") < 1024, page


def test_the_front_page_lists_every_notebook(
    page: Page, network: Network, site_server: SiteServer
) -> None:
    """The site's front door is the kit's front page (tools/pages.py), not a file list."""
    errors: list[str] = []
    console: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda msg: console.append(msg.text) if msg.type == "error" else None)
    page.goto(f"{site_server.base_url}/", timeout=TIMEOUT_MS)
    section = page.locator('section.front[data-lang="en"]')
    hrefs = [a.get_attribute("href") for a in section.locator("ol.lessons a").all()]
    for name in NOTEBOOKS:
        assert f"voici/render/{name.replace('.ipynb', '.html')}" in hrefs, name
    page.wait_for_load_state("networkidle")
    assert errors == []
    assert console == []
    network.assert_clean()
    section.locator("ol.lessons a", has_text="7").first.click()
    page.wait_for_url(re.compile(r"/voici/render/07-play-a-game\.html"), wait_until="commit")


#: notebooks whose pages `test_site_play` opens and checks the same way (no error output,
#: no page error, no request that failed or left the site), while playing them
PLAYED = ("07-play-a-game.ipynb", "08-rules-explorer.ipynb")


def test_every_notebook_is_run_here_or_played_in_test_site_play() -> None:
    from tests.browser import test_site_play
    for name in PLAYED:
        assert name in NOTEBOOKS, name
        assert any(test.startswith(f"test_{name[:2]}_") for test in dir(test_site_play)), name


@pytest.mark.parametrize("name", [n for n in NOTEBOOKS
                                  if n != "rulebook.ipynb" and n not in PLAYED])
def test_every_notebook_runs_in_the_browser_without_errors(
    open_site_notebook: OpenNotebook, network: Network, name: str
) -> None:
    site = open_site_notebook(name, timeout_ms=TIMEOUT_MS)
    assert_no_error_output(site)
    page = site.page
    page.locator(".jupyter-widgets").first.wait_for(state="visible", timeout=TIMEOUT_MS)
    if name.startswith(("01", "02", "03", "04", "05", "06")):
        page.locator(".tv-lesson").first.wait_for(state="visible", timeout=TIMEOUT_MS)
    if name.startswith("00"):
        # the links between notebooks lead to the site's own pages
        for k in range(1, 9):
            link = page.locator(f"a[href^='0{k}-']").first
            href = link.get_attribute("href") or ""
            assert href.endswith(".html"), href
            with urllib.request.urlopen(urllib.parse.urljoin(site.url, href)) as response:
                assert response.status == 200
    assert_clean(site, network)
