"""The whole page in the learner's language, in Chromium against Voila with the kit's
prelaunch hook (`config/voila.py`): every notebook in Persian and Hindi has no English
paragraph left (in Persian no English widget or output text either), Persian runs right
to left with card notation left to right, links keep the language, the rulebook opens at
a rule, and the language picker reloads the page.

Until the translators' catalogues are complete the pages are rendered from made-up
catalogues (every block's Latin letters turned into Persian or Devanagari ones, see
`tests/prosehelpers.py`): that tests the mechanism on every paragraph. Once
`tools/i18n.py check` passes for the prose of fa and hi, the real catalogues are used.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from tests.browser.sitefixtures import Network, SiteServer, built_site, network, site_server
from tests.conftest import (
    _TEST_CULLING,
    NOTEBOOKS_DIR,
    REPO_ROOT,
    VoilaServer,
    _opener,
    start_voila,
    stop_voila,
)
from tests.prosehelpers import i18n_tool, write_fake_catalogues
from toonerville.pages.prose import LOCALE_ENV

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from tests.conftest import OpenNotebook

__all__ = ["built_site", "network", "site_server"]  # the static site's fixtures, shared
PAGES = sorted(p.name for p in NOTEBOOKS_DIR.glob("*.ipynb"))
TIMEOUT_MS = 120_000
MARKDOWN = ".jp-RenderedMarkdown"

#: Text of the markdown outside code, links' targets and the like: the blocks, each
#: with its direction and its words written in Latin letters.
BLOCKS_JS = """(selector) => {
  const out = [];
  for (const md of document.querySelectorAll(selector)) {
    for (const el of md.querySelectorAll('p, li, h1, h2, h3, h4, h5, h6, td, th')) {
      const copy = el.cloneNode(true);
      copy.querySelectorAll('code, kbd, pre, bdi, ul, ol').forEach(c => c.remove());
      const text = copy.textContent.replace(/\\u00b6/g, ' ');
      out.push({text: text.trim().slice(0, 200),
                latin: (text.match(/[A-Za-z]{2,}(?:\\s+[A-Za-z]{2,}){2,}/g) || []),
                dir: getComputedStyle(el).direction});
    }
  }
  return out;
}"""


def _real_catalogues_complete() -> bool:
    tool = i18n_tool()
    template = tool.extract_catalog(tool.PROSE)
    return all(not tool.catalogue_problems(code, template, tool.PROSE)
               for code in ("fa", "hi"))


@pytest.fixture(scope="module")
def prose_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    """Voila as `make app` serves it (its config folders include the prelaunch hook's),
    without preheated kernels: every page here is a translated one, which the hook
    renders afresh anyway."""
    with pytest.MonkeyPatch.context() as patch:
        if not _real_catalogues_complete():
            folder = write_fake_catalogues(tmp_path_factory.mktemp("prose-locale"))
            patch.setenv(LOCALE_ENV, str(folder))
        log = tmp_path_factory.mktemp("voila") / "languages.log"
        try:
            server = start_voila(NOTEBOOKS_DIR, log,
                                 "--VoilaConfiguration.preheat_kernel=False",
                                 *_TEST_CULLING)
        except RuntimeError as error:
            pytest.fail(str(error), pytrace=False)
    try:
        yield server
    finally:
        stop_voila(server)


@pytest.fixture
def open_translated(page: Page, prose_server: VoilaServer) -> OpenNotebook:
    return _opener(prose_server, page)


@pytest.mark.parametrize("lang", ["fa", "hi"])
@pytest.mark.parametrize("name", PAGES)
def test_the_whole_page_is_translated(open_translated: OpenNotebook, name: str,
                                      lang: str) -> None:
    """Each notebook (00–10, the rulebook) once per language: its prose; in Persian
    also every text its widgets and outputs show when the page opens (numbers, card
    notation and names aside) — one page load per notebook for both sweeps."""
    voila = open_translated(name, lang=lang, timeout_ms=TIMEOUT_MS)
    page = voila.page
    assert voila.errors == []
    assert voila.stderr_outputs().count() == 0
    assert page.locator(f'{MARKDOWN} [lang="en"]').count() == 0, \
        page.locator(f'{MARKDOWN} [lang="en"]').first.inner_text()
    blocks = page.evaluate(BLOCKS_JS, MARKDOWN)
    assert len(blocks) >= 3
    english = [b["text"] for b in blocks if b["latin"]]
    assert english == [], f"English left on {name} in {lang}: {english[:3]}"
    want = "rtl" if lang == "fa" else "ltr"
    assert {b["dir"] for b in blocks} == {want}
    links = page.locator(f'{MARKDOWN} a[href*=".ipynb"]')
    assert links.count() >= 9  # the navigation bar at least
    hrefs = links.evaluate_all("els => els.map(a => a.getAttribute('href'))")
    assert all(f"lang={lang}" in href for href in hrefs), hrefs
    if lang == "fa":  # the sweep of issue 17: every widget and output too, as shown
        texts = page.evaluate(WIDGET_TEXTS_JS)
        assert english_words(texts) == [], f"English in the widgets or outputs of {name}"


#: Every text a learner sees in the widgets (not the prose): text nodes of visible
#: elements, placeholders of empty boxes, the chosen option of each visible menu; code,
#: keys and names in <bdi> aside.
WIDGET_TEXTS_JS = """() => {
  const out = [];
  const visible = (el) => el.getClientRects().length > 0
    && getComputedStyle(el).visibility !== 'hidden';
  for (const area of document.querySelectorAll('.jp-OutputArea-output')) {
    if (area.closest('.jp-RenderedMarkdown') || area.querySelector('.jp-RenderedMarkdown'))
      continue;
    const walker = document.createTreeWalker(area, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || el.closest('style, script, bdi, code, kbd, option') || !visible(el))
        continue;
      const text = node.textContent.trim();
      if (text) out.push(text);
    }
    for (const el of area.querySelectorAll('input, textarea')) {
      if (visible(el) && !el.value && el.placeholder) out.push(el.placeholder);
    }
    for (const el of area.querySelectorAll('select')) {
      if (visible(el) && el.selectedOptions.length) out.push(el.selectedOptions[0].text);
    }
  }
  return out;
}"""
#: what may stay in Latin letters: card notation, rule ids, a table code's example
NOT_WORDS = re.compile(r"\b(?:[RYGB](?:1[0-4]|[1-9])|RK|[TH]\d{1,2}a?|[A-Z0-9]{6})\b")


#: names the pages give as examples (a name is a name in every language), the keys of a
#: keyboard as printed on them, a product's or a file format's name (Dask, CSV, a QR
#: code), an
#: address, and a house rule as the
#: explorer's sweep box takes it (`penalty_cards=2`): none of them is translated
NAMES = re.compile(r"\b(?:Ann|Bob|Cat|Bo|Cy|Crow|Jay|Magpie|Raven|Robin|Wren|Finch|Heron"
                   r"|Lark|Owl|Swift|Kite|Plover|Sparrow|Starling|Dove|Gull"
                   r"|Tab|Space|Enter|Dask|CSV|QR)\b|\w+://\S+|\b[a-z][a-z0-9_]*=[\w.,]+")


def english_words(texts: list[str]) -> list[str]:
    """The texts that still hold a word of two or more Latin letters (card notation,
    rule ids and names aside)."""
    return [t for t in texts
            if re.search(r"[A-Za-z]{2,}", NAMES.sub(" ", NOT_WORDS.sub(" ", t)))]


@pytest.mark.parametrize(("name", "ready"), [("09-classroom.ipynb", ".tr-classroom"),
                                             ("10-tournament.ipynb", ".tt-learner")])
def test_every_widget_of_09_and_10_speaks_persian(open_translated: OpenNotebook,
                                                 name: str, ready: str) -> None:
    voila = open_translated(name, lang="fa", wait_for=ready, timeout_ms=TIMEOUT_MS)
    page = voila.page
    assert page.evaluate("() => [document.documentElement.lang, "
                         "document.documentElement.dir]") == ["fa", "rtl"]
    assert page.locator(".tv-language-dropdown select").count() == 1  # one menu
    navigation = page.locator(f'{MARKDOWN} a[href*="00-welcome.ipynb"]')
    assert navigation.count() == 1  # one navigation bar
    texts = page.evaluate(WIDGET_TEXTS_JS)
    assert len(texts) >= 8, texts
    assert english_words(texts) == [], f"English in the widgets of {name}"
    if name.startswith("09"):  # a table: the seat view, its moves, the log, the sheet
        page.locator(".tr-classroom .tr-open").click()
        page.locator(".tr-classroom .tr-hand .tv-card-button").first.wait_for(
            timeout=TIMEOUT_MS)
        page.locator(".tr-classroom .tr-hint").click()
        page.wait_for_timeout(500)
        texts = page.evaluate(WIDGET_TEXTS_JS)
        assert english_words(texts) == [], "English at a shared table"


def test_persian_card_notation_runs_left_to_right_also_in_example_outputs(
        open_translated: OpenNotebook) -> None:
    voila = open_translated("02-runs-and-sets.ipynb", lang="fa",
                            wait_for=".tv-language-dropdown select", timeout_ms=TIMEOUT_MS)
    page = voila.page
    code = page.locator(f"{MARKDOWN} code").first
    assert code.evaluate("el => getComputedStyle(el).direction") == "ltr"
    assert code.evaluate("el => getComputedStyle(el.parentElement).unicodeBidi") == "isolate"
    out = page.locator(".jp-OutputArea-output pre").first
    style = out.evaluate("el => [getComputedStyle(el).direction, "
                         "getComputedStyle(el).unicodeBidi]")
    assert style == ["rtl", "plaintext"]  # each line in the direction of its first letter
    assert "B13 B14 B1 B2" in out.inner_text()


def test_the_rulebook_is_one_click_away_and_opens_at_a_rule(
        open_translated: OpenNotebook) -> None:
    voila = open_translated("05-the-rook.ipynb", lang="fa",
                            wait_for=".tv-language-dropdown select", timeout_ms=TIMEOUT_MS)
    page = voila.page
    page.locator(f'{MARKDOWN} a[href$="/static/rulebook-fa.html"]').first.click()
    page.wait_for_url("**/rulebook-fa.html", timeout=TIMEOUT_MS, wait_until="load")
    ids = page.evaluate("() => [...document.querySelectorAll('.rule[id]')].map(a => a.id)")
    assert {"T1", "T14", "T22", "H1", "H12"} <= set(ids)
    assert page.evaluate("() => document.documentElement.dir") == "rtl"
    page.goto(page.url + "#T14", wait_until="commit", timeout=TIMEOUT_MS)
    page.wait_for_function(
        """() => { const r = document.getElementById('T14').getBoundingClientRect();
                   return r.top > -10 && r.top < window.innerHeight / 2; }""",
        timeout=TIMEOUT_MS)
    assert "T14" in page.locator("#T14").inner_text()
    page.emulate_media(media="print")  # a teacher's handout: the rules and nothing else
    assert not page.locator("nav.languages").first.is_visible()
    assert not page.locator("header.top a").first.is_visible()
    assert page.locator("#T14").is_visible()


def test_choosing_a_language_reloads_the_page_keeping_its_parameters(
        open_translated: OpenNotebook) -> None:
    voila = open_translated("02-runs-and-sets.ipynb", lang="fa", size="large",
                            wait_for=".tv-language-dropdown select", timeout_ms=TIMEOUT_MS)
    page = voila.page
    page.locator(".tv-language-dropdown select").first.select_option(label="हिन्दी")
    page.wait_for_url("**/02-runs-and-sets.ipynb?lang=hi&size=large", timeout=TIMEOUT_MS,
                      wait_until="commit")
    page.locator(".tv-language-dropdown select").first.wait_for(timeout=TIMEOUT_MS)
    heading = page.locator(f"{MARKDOWN} h1").first
    assert heading.evaluate("el => getComputedStyle(el).direction") == "ltr"
    assert page.locator(f'{MARKDOWN} [lang="en"]').count() == 0


@pytest.mark.parametrize(("what", "pattern"), [
    ("the globe before Language (U+1F310)", ":charset=1f310"),
    ("Persian", ":lang=fa"),
    ("Devanagari (Hindi)", ":lang=hi"),
])
def test_every_script_of_the_page_has_a_font(what: str, pattern: str) -> None:
    """No glyph as an empty box: the machine the browser runs on has a font for every
    script of the page (Debian: fonts-noto-core, fonts-noto-color-emoji)."""
    fc_list = shutil.which("fc-list")
    assert fc_list is not None, "fontconfig's fc-list is missing"
    found = subprocess.run([fc_list, pattern, "family"], capture_output=True, text=True,
                           check=True).stdout.strip()
    assert found, f"no font for {what}: install fonts-noto-core and fonts-noto-color-emoji"


def test_the_preheat_shim_sends_other_languages_past_the_pool(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """config/voila.py lets a preheated (English) page serve English requests only."""
    # (the file also keeps the server's cookie secret: here, in the test's own folder)
    monkeypatch.setenv("TOONERVILLE_COOKIE_SECRET_FILE", str(tmp_path / "cookie_secret"))
    from voila.app import Voila
    from voila.handler import VoilaHandler

    namespace: dict[str, object] = {"get_config": lambda: _Config()}
    source = (REPO_ROOT / "config" / "voila.py").read_text(encoding="utf-8")
    original, start = VoilaHandler.should_use_rendered_notebook, Voila.init_settings
    try:
        exec(compile(source, "config/voila.py", "exec"), namespace)  # noqa: S102
        asks = VoilaHandler.should_use_rendered_notebook
        pooled = {"template": "lab", "theme": "light"}
        assert asks(_Handler("fa"), pooled, 1, None, None, {}) is False
        assert asks(_Handler(None), pooled, 1, None, None, {}) is True
    finally:
        VoilaHandler.should_use_rendered_notebook = original  # type: ignore[method-assign]
        Voila.init_settings = start  # type: ignore[method-assign]


class _Config:
    def __init__(self) -> None:
        self.VoilaConfiguration = type("Section", (), {})()
        self.Voila = type("Section", (), {})()


class _Handler:
    def __init__(self, lang: str | None) -> None:
        self.lang = lang

    def get_argument(self, name: str, default: str | None = None) -> str | None:
        return self.lang if name == "lang" and self.lang else default



# -- the static site -----------------------------------------------------------------------
def test_the_static_site_has_every_page_in_every_language(built_site: Path) -> None:
    render = built_site / "voici" / "render"
    names = {p.stem for p in NOTEBOOKS_DIR.glob("*.ipynb")}
    assert {p.stem for p in render.glob("*.html")} >= names
    for lang in ("de", "hr", "su", "fa", "hi"):
        assert {p.stem for p in (render / lang).glob("*.html")} >= names, lang
    page = (render / "fa" / "02-runs-and-sets.html").read_text(encoding="utf-8")
    assert 'href="03-contracts.html?lang=fa"' in page
    assert 'href="rulebook.html?lang=fa"' in page
    assert '<div dir="rtl" lang="fa">' in page
    assert '<html lang="fa" dir="rtl">' in page  # the page declares its language


def test_lang_on_a_static_page_opens_that_languages_page(
        page: Page, site_server: SiteServer, network: Network) -> None:
    page.goto(site_server.render_url("02-runs-and-sets.ipynb", lang="fa", seed=4),
              wait_until="commit", timeout=TIMEOUT_MS)
    page.wait_for_url("**/voici/render/fa/02-runs-and-sets.html?lang=fa&seed=4",
                      wait_until="commit", timeout=TIMEOUT_MS)
    picker = page.locator(".tv-language-dropdown select").first
    picker.wait_for(timeout=TIMEOUT_MS * 2)
    assert picker.evaluate("el => el.selectedOptions[0].textContent") == "فارسی"
    paragraph = page.locator(f"{MARKDOWN} p").first
    assert paragraph.evaluate("el => getComputedStyle(el).direction") == "rtl"
    # the widgets too, and the English page was left for the Persian one, with nothing
    # failed or asked of another host on the way
    rtl = page.locator(".tr-rtl").first
    rtl.wait_for(timeout=TIMEOUT_MS)
    assert rtl.evaluate("el => getComputedStyle(el).direction") == "rtl"
    assert network.documents == 2
    network.assert_clean()
    picker.select_option(label="हिन्दी")
    page.wait_for_url("**/voici/render/hi/02-runs-and-sets.html?lang=hi&seed=4",
                      wait_until="commit", timeout=TIMEOUT_MS)


# -- issue 26 §3: what a page shows after clicks, tooltips included ------------------------
#: The tooltips a learner may point at: the `title` of every visible element of the
#: widgets and outputs (a button's tooltip, a total's note) and the `<title>` of every
#: visible picture (a card's name).
TOOLTIPS_JS = """() => {
  const out = [];
  const visible = (el) => el.getClientRects().length > 0
    && getComputedStyle(el).visibility !== 'hidden';
  const where = (el) => el.tagName.toLowerCase() + '.' + [...el.classList].join('.');
  for (const area of document.querySelectorAll('.jp-OutputArea-output')) {
    if (area.closest('.jp-RenderedMarkdown') || area.querySelector('.jp-RenderedMarkdown'))
      continue;
    for (const el of area.querySelectorAll('[title]')) {
      const text = (el.getAttribute('title') || '').trim();
      if (text && visible(el)) out.push({text, where: where(el)});
    }
    for (const el of area.querySelectorAll('svg > title')) {
      const text = el.textContent.trim();
      if (text && visible(el.parentElement)) out.push({text, where: 'svg'});
    }
  }
  return out;
}"""


def english_after_clicks(page: Page, what: str) -> list[str]:
    """Everything the page shows and every tooltip, with the English words left in it
    (card notation, rule ids and names aside); `what` says when, for the report. A
    label's `title="null"` is ipywidgets' own (a description with no tooltip), no word
    of ours."""
    found = [f"{what}: {latin_words(t)} in {t[:100]!r}"
             for t in english_words(page.evaluate(WIDGET_TEXTS_JS))]
    tips = [t for t in page.evaluate(TOOLTIPS_JS) if t["text"] != "null"]
    english = set(english_words([t["text"] for t in tips]))
    return found + [f"{what}, the tooltip of {t['where']}: {latin_words(t['text'])} in "
                    f"{t['text'][:100]!r}" for t in tips if t["text"] in english]


def latin_words(text: str) -> list[str]:
    """The words `english_words` objects to in `text`."""
    return re.findall(r"[A-Za-z]{2,}", NAMES.sub(" ", NOT_WORDS.sub(" ", text)))


def coach_done(page: Page, scope: str = "") -> None:
    """Until the hint under the moves is written (the strong bot has answered)."""
    page.wait_for_function(
        """(scope) => {
          const box = document.querySelector(scope + ' .tr-coach-hint');
          return box && box.textContent.trim().length > 0
            && !box.querySelector('.tr-coach-thinking');
        }""", arg=scope, timeout=TIMEOUT_MS)


def review_done(page: Page, scope: str = "") -> None:
    page.locator(f"{scope} .tr-review-open").click()
    page.locator(f"{scope} .tr-review-ready, {scope} .tr-review-nothing, "
                 f"{scope} .tr-review-failed").first.wait_for(timeout=TIMEOUT_MS * 2)


def test_07_after_a_hint_a_round_end_its_review_and_a_take_back_speaks_persian(
        open_translated: OpenNotebook) -> None:
    """07 under ?lang=fa: the learner loads a game one discard from going out, asks for
    a hint, goes out (the recap, its review), closes the recap and takes the discard
    back; at each step no English word is on the page or in a tooltip."""
    from tests.browser.play_page import going_out_save

    save, card = going_out_save()
    voila = open_translated("07-play-a-game.ipynb", lang="fa", seed=11, wait_for=".tr-draw",
                            timeout_ms=TIMEOUT_MS)
    page = voila.page
    found = english_after_clicks(page, "opened")
    page.locator(".tr-panel-2").click()
    page.locator(".tr-save-text textarea").fill(save)
    status = page.locator(".tr-status").inner_text()
    page.locator(".tr-load").click()
    expect(page.locator(".tr-status")).not_to_have_text(status, timeout=TIMEOUT_MS)
    mine = page.locator(".tr-hand .tr-card", has_text=re.compile(rf"^{card}$")).first
    mine.wait_for(timeout=TIMEOUT_MS)
    page.locator(".tr-hint").click()
    coach_done(page)
    found += english_after_clicks(page, "a hint")
    # the hint selects the card it would discard: wait for that selection to reach the
    # page before looking (a click read too early toggled the hint's own choice off)
    expect(page.locator(".tr-hand .tr-card.mod-active")).to_have_count(1, timeout=TIMEOUT_MS)
    if "mod-active" not in (mine.get_attribute("class") or ""):  # it picked another
        page.locator(".tr-hand .tr-card.mod-active").first.click()
        mine.click()
    expect(mine).to_have_class(re.compile(r"\bmod-active\b"), timeout=TIMEOUT_MS)
    page.locator(".tr-discard").click()
    page.locator(".tr-recap").wait_for(timeout=TIMEOUT_MS)
    review_done(page)
    found += english_after_clicks(page, "the recap and its review")
    page.locator(".tr-continue").click()
    page.locator(".tr-recap").wait_for(state="hidden", timeout=TIMEOUT_MS)
    page.locator(".tr-undo").click()
    page.locator(".tr-message", has_text=card).first.wait_for(timeout=TIMEOUT_MS)
    found += english_after_clicks(page, "a take back")
    assert voila.errors == []
    assert found == [], "\n".join(found)


def test_09_a_round_end_its_review_a_hint_and_a_move_speak_persian(
        open_translated: OpenNotebook) -> None:
    """09 under ?lang=fa: a learner rejoins a shared table one move before round 1 ends
    (played in this process's store), asks for a hint, sees the round end (its recap
    and review), then draws and discards in round 2; no English word at any step."""
    from tests.browser.test_table_away import table_before_round_end
    from toonerville.engine.game import Game
    from toonerville.store import open_store
    from toonerville.widgets.store_place import store_location

    code, _host, seats, last = table_before_round_end(("Ann", "Bo", "Cy"), seed=5)
    after = Game.from_json(open_store(store_location()).export(code))
    after.apply(last)
    me = seats[after.current]  # round 2's first player
    for seat in seats:
        if seat is not me:
            seat.set_buy_offers("never")  # no buy window waits for a page nobody opened
    scope = ".tr-classroom"
    voila = open_translated("09-classroom.ipynb", lang="fa", table=code, key=me.secret,
                            wait_for=f"{scope} .tr-hand .tv-card-button",
                            timeout_ms=TIMEOUT_MS)
    page = voila.page
    found = english_after_clicks(page, "rejoined")
    page.locator(f"{scope} .tr-hint").click()
    coach_done(page, scope)
    found += english_after_clicks(page, "a hint")
    closing = seats[last.seat]
    closing.refresh()
    closing.play(last)
    page.locator(f"{scope} .tr-recap").wait_for(timeout=TIMEOUT_MS)
    review_done(page, scope)
    found += english_after_clicks(page, "the recap and its review")
    page.locator(f"{scope} .tr-continue").click()
    page.locator(f"{scope} .tr-draw.mod-primary").wait_for(timeout=TIMEOUT_MS)
    page.locator(f"{scope} .tr-draw").click()
    page.locator(f"{scope} .tr-discard.mod-primary").wait_for(timeout=TIMEOUT_MS * 2)
    last_card = page.locator(f"{scope} .tr-hand .tv-card-button").last
    text = last_card.inner_text().strip()
    last_card.click()
    page.locator(f"{scope} .tr-hand .tv-card-button.mod-active").wait_for(
        timeout=TIMEOUT_MS)
    page.locator(f"{scope} .tr-discard").click()
    page.locator(f"{scope} .tr-message", has_text=text).first.wait_for(timeout=TIMEOUT_MS)
    found += english_after_clicks(page, "a move on the table")
    assert voila.errors == []
    assert found == [], "\n".join(found)


def test_08_after_a_run_speaks_persian(open_translated: OpenNotebook) -> None:
    """08 under ?lang=fa: a small run on two local processes; its status line, plot,
    tables and tooltips hold no English word. (The rulebook's turn limit: a table's note
    on rounds cut short by a low limit is still English, see
    tests/test_words_in_language.py.)"""
    voila = open_translated("08-rules-explorer.ipynb", lang="fa",
                            wait_for=".tv-rules-explorer", timeout_ms=TIMEOUT_MS * 2)
    page = voila.page
    box = page.locator(".tv-explorer-games input")
    box.fill("2")
    box.press("Enter")
    page.locator(".tv-explorer-workers select").select_option("2")
    page.locator(".tv-rules-explorer button:has(.fa-play)").first.click()
    page.locator(".tv-explorer-tables tbody tr").first.wait_for(timeout=TIMEOUT_MS * 2)
    page.wait_for_function(
        "() => (document.querySelector('.tv-explorer-status')?.textContent || '').length > 0",
        timeout=TIMEOUT_MS)
    found = english_after_clicks(page, "after a run")
    assert voila.errors == []
    assert found == [], "\n".join(found)
