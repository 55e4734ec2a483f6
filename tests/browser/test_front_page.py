"""The app's front page and its rulebook page, in Chromium against a real Voila.

The front page (Voila's tree page, `/` and `/voila/tree`) and the rulebook page (a static
file of the page template) are written by tools/pages.py. Neither starts a kernel: the
tests watch every request and web socket of the page for one.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.browser.sitefixtures import (
    Network,
    SiteServer,
    built_site,
    network,
    open_site_notebook,
    site_server,
)
from tests.conftest import NOTEBOOKS_DIR
from toonerville.engine.messages import LANGUAGES
from toonerville.pages.frontpage import texts

#: the numbered notebooks (00-welcome, …): the front page lists each one
LESSONS = sorted(p.name for p in NOTEBOOKS_DIR.glob("[0-9][0-9]-*.ipynb"))

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from tests.conftest import OpenNotebook, VoilaServer

# the static site's fixtures, shared
__all__ = ["built_site", "network", "open_site_notebook", "site_server"]
TIMEOUT_MS = 120_000
RULEBOOK = "/voila/templates/toonerville/static/rulebook-{lang}.html"


class KernelWatch:
    """Every request for a kernel and every web socket a page opens."""

    def __init__(self, page: Page) -> None:
        self.seen: list[str] = []
        page.on("request", lambda r: self.seen.append(r.url) if "/api/kernels" in r.url
                else None)
        page.on("websocket", lambda ws: self.seen.append(ws.url))


def server_children(server: VoilaServer) -> set[int]:
    """The processes the Voila server started (its kernels), from /proc."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == server.process.pid:
                found.add(int(entry.name))
    return found


def shown_section(page: Page) -> str:
    return page.evaluate(
        "() => [...document.querySelectorAll('section.front')]"
        ".filter(s => !s.hidden).map(s => s.dataset.lang).join(',')")


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_front_page_speaks_every_language_and_starts_no_kernel(
        page: Page, voila_server: VoilaServer, lang: str) -> None:
    watch = KernelWatch(page)
    page.goto(f"{voila_server.base_url}/?lang={lang}", wait_until="load")
    assert shown_section(page) == lang
    section = page.locator(f'section.front[data-lang="{lang}"]')
    assert section.locator("h1").inner_text() == texts(lang)["title"]
    assert page.evaluate("() => document.documentElement.dir") == (
        "rtl" if lang == "fa" else "ltr")
    lessons = section.locator("ol.lessons a")
    assert lessons.count() == len(LESSONS) + 1  # every numbered notebook and the rulebook
    hrefs = [lessons.nth(k).get_attribute("href") or "" for k in range(len(LESSONS) + 1)]
    query = "" if lang == "en" else f"?lang={lang}"
    assert hrefs[:-1] == [f"/voila/render/{name}{query}" for name in LESSONS]
    assert hrefs[-1] == f"/{RULEBOOK.format(lang=lang).lstrip('/')}"
    readme = section.locator("a.readme")
    assert readme.inner_text() == texts(lang)["readme_link"]
    response = page.request.get(voila_server.base_url + (readme.get_attribute("href") or ""))
    assert response.ok and "In the classroom" in response.text()
    assert watch.seen == []


def test_the_language_menu_switches_the_page_and_its_links(
        page: Page, voila_server: VoilaServer) -> None:
    page.goto(f"{voila_server.base_url}/voila/tree", wait_until="load")
    assert shown_section(page) == "en"  # the browser speaks English here
    page.locator('section.front[data-lang="en"] nav.languages a[data-lang="fa"]').click()
    page.wait_for_url("**?lang=fa")
    assert shown_section(page) == "fa"
    start = page.locator('section.front[data-lang="fa"] a.start')
    assert start.get_attribute("href") == "/voila/render/00-welcome.ipynb?lang=fa"
    rulebook = page.locator('section.front[data-lang="fa"] ol.lessons a').last
    rulebook.click()
    page.wait_for_url("**/rulebook-fa.html")
    assert page.locator("p.rule#T14").count() == 1


def test_a_rule_link_opens_the_static_rulebook_with_the_rule_highlighted_in_view(
        open_notebook: OpenNotebook) -> None:
    voila = open_notebook("02-runs-and-sets.ipynb", wait_for=".tv-meld-text input")
    page = voila.page
    kernels = server_children(voila.server)
    assert kernels  # the lesson's kernel is a child of the server: the count means something
    page.locator(".tv-meld-text input").fill("B13 B14 B1 B2")
    page.wait_for_function(
        "() => document.querySelector('.tv-verdict a.tv-rule[data-rule=\"T4\"]')",
        timeout=TIMEOUT_MS)
    link = page.locator(".tv-verdict a.tv-rule[data-rule='T4']").first
    with page.context.expect_page() as opened:
        link.click()
    rulebook = opened.value
    watch = KernelWatch(rulebook)
    rulebook.wait_for_load_state("load")
    assert rulebook.url.endswith(RULEBOOK.format(lang="en") + "#T4"), rulebook.url
    rule = rulebook.locator("#T4")
    assert rule.evaluate("el => el.matches(':target')")
    assert rule.evaluate("el => getComputedStyle(el).backgroundColor") != "rgba(0, 0, 0, 0)"
    assert rule.is_visible()
    rulebook.reload(wait_until="load")  # and once more: still no kernel
    assert server_children(voila.server) == kernels  # the lesson's own kernel only
    rulebook.close()
    assert watch.seen == []


@pytest.mark.parametrize("rule", ["H9", "T21"])
def test_a_rule_far_down_is_scrolled_into_view_with_room_above(
        page: Page, voila_server: VoilaServer, rule: str) -> None:
    watch = KernelWatch(page)
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{voila_server.base_url}{RULEBOOK.format(lang='fa')}#{rule}", wait_until="load")
    page.wait_for_function(
        f"() => {{ const r = document.getElementById('{rule}').getBoundingClientRect();"
        " return r.top >= 8 && r.top <= 60; }", timeout=10_000)
    assert page.evaluate("() => window.scrollY") > 0
    highlight = page.locator(f"#{rule}").evaluate(
        "el => getComputedStyle(el).backgroundColor")
    assert highlight == "rgb(255, 241, 184)"  # --mark
    assert watch.seen == []


def test_a_rule_id_in_a_lessons_prose_links_to_the_static_rulebook(
        open_notebook: OpenNotebook) -> None:
    voila = open_notebook("00-welcome.ipynb", lang="de")
    link = voila.page.locator(".jp-RenderedMarkdown a[href$='rulebook-de.html#T7']")
    assert link.count() >= 1
    nav = voila.page.locator(".jp-RenderedMarkdown a[href$='rulebook-de.html']")
    assert nav.count() >= 1  # the navigation bar's "Rulebook"


# -- the static site -----------------------------------------------------------------------
def test_the_sites_front_door_is_the_front_page_in_every_language(
        page: Page, site_server: SiteServer) -> None:
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    for lang in LANGUAGES:
        page.goto(f"{site_server.base_url}/?lang={lang}", wait_until="load")
        assert shown_section(page) == lang
        section = page.locator(f'section.front[data-lang="{lang}"]')
        assert section.locator("h2").first.inner_text() == texts(lang)["lessons"]
        folder = "" if lang == "en" else f"{lang}/"
        assert section.locator("a.start").get_attribute("href") == \
            f"voici/render/{folder}00-welcome.html"
        for k in range(12):
            href = section.locator("ol.lessons a").nth(k).get_attribute("href") or ""
            response = page.request.get(f"{site_server.base_url}/{href}")
            assert response.ok, href
    assert not [u for u in asked if "pyodide" in u or not u.startswith(site_server.base_url)]
    page.goto(f"{site_server.base_url}/voici/tree/index.html", wait_until="load")
    page.wait_for_url(f"{site_server.base_url}/index.html")  # no file list any more
    assert shown_section(page) == "en"


def test_the_sites_rulebook_is_a_static_page_that_follows_lang(
        page: Page, site_server: SiteServer) -> None:
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    page.goto(f"{site_server.base_url}/voici/render/rulebook.html?lang=fa#T14",
              wait_until="load")
    page.wait_for_url("**/voici/render/fa/rulebook.html?lang=fa#T14")
    assert page.evaluate("() => document.documentElement.dir") == "rtl"
    assert page.locator("#T14").evaluate("el => el.matches(':target')")
    assert not [u for u in asked if "pyodide" in u or "kernel" in u]


def test_a_rule_id_in_printed_output_links_to_the_static_rulebook(
        open_notebook: OpenNotebook) -> None:
    voila = open_notebook("00-welcome.ipynb", lang="hi")
    page = voila.page
    link = page.locator(".jp-OutputArea-output pre a.tv-rule[data-rule='T4']").first
    link.wait_for(timeout=TIMEOUT_MS)
    assert link.get_attribute("target") == "_blank"
    assert "B11 B12 B13 B14 (T4)" in page.locator(".jp-OutputArea-output pre").first\
        .inner_text()  # the text as printed (in Hindi)
    with page.context.expect_page() as opened:
        link.click()
    rulebook = opened.value
    rulebook.wait_for_load_state("load")
    assert rulebook.url.endswith(RULEBOOK.format(lang="hi") + "#T4"), rulebook.url
    assert rulebook.locator("#T4").evaluate("el => el.matches(':target')")
    rulebook.close()


def test_on_the_site_a_printed_rule_id_links_to_the_rulebook_beside_the_lesson(
        open_site_notebook: OpenNotebook, network: Network) -> None:
    site = open_site_notebook("00-welcome.ipynb", lang="fa", timeout_ms=300_000)
    page = site.page
    link = page.locator(".jp-OutputArea-output pre a.tv-rule[data-rule='T5']").first
    link.wait_for(timeout=TIMEOUT_MS)
    assert link.get_attribute("href") == "rulebook.html?lang=fa#T5"
    assert page.url.split("?")[0].endswith("/voici/render/fa/00-welcome.html")
    response = page.request.get(page.url.split("?")[0].replace("00-welcome", "rulebook"))
    assert response.ok and 'id="T5"' in response.text()
