"""The static site (`make site`) in Chromium: every notebook runs in the browser, with
nothing but the site's own folder behind it.

The site is built once per set of inputs (tools/build_site.py keeps a digest of them in
the site's folder and skips an unchanged build), served by a plain static file server
on 127.0.0.1, and every request for any other host is blocked and recorded. Each page
must then show no error output, raise no page error and have no failed request.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from conftest import NOTEBOOKS_DIR, REPO_ROOT, SERVER_START_TIMEOUT_S, _ci, _free_port, _opener
from play_page import discard_by_keys, pass_by_click, pass_offers, wait_for_my_move
from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import Frame, Page, Request, Route

    from tests.conftest import OpenNotebook, VoilaPage

sys.path.insert(0, str(REPO_ROOT / "tools"))
import build_site  # noqa: E402

NOTEBOOKS = sorted(p.name for p in NOTEBOOKS_DIR.glob("*.ipynb"))
TIMEOUT_MS = 60_000
PLOT = ".tv-explorer-plot"


@dataclass
class SiteServer:
    """`python -m http.server` serving the built site."""

    root: Path
    base_url: str
    process: subprocess.Popen[bytes]

    def render_url(self, name: str, **query: object) -> str:
        page = urllib.parse.quote(name.removesuffix(".ipynb"))
        url = f"{self.base_url}/voici/render/{page}.html"
        if query:
            url += "?" + urllib.parse.urlencode({k: str(v) for k, v in query.items()})
        return url


@dataclass
class Network:
    """What left (or tried to leave) the page: blocked foreign requests, failures.

    A request that the browser aborted because its page was left (a page opened with
    another language's `?lang=` replaces itself with that language's page while it is
    still loading) did not fail: it belongs to a page nobody sees any more. Any other
    abort, and every other failure, counts."""

    blocked: list[str] = field(default_factory=list)
    failures: list[tuple[int, str, str]] = field(default_factory=list)  # page, url, why
    documents: int = 0  # main-frame pages committed so far
    issued_in: dict[Request, int] = field(default_factory=dict)  # request -> its page

    def request_failed(self, request: Request) -> None:
        # the new page is committed (and counted) after its old page's requests failed
        if request.url not in self.blocked:
            page = self.issued_in.get(request, self.documents)
            self.failures.append((page, request.url, request.failure or ""))

    @property
    def failed(self) -> list[str]:
        return [f"{url}: {why}" for page, url, why in self.failures
                if not ("ERR_ABORTED" in why and page < self.documents)]

    def assert_clean(self) -> None:
        assert self.blocked == [], f"requests outside the site: {self.blocked}"
        assert self.failed == [], f"failed requests: {self.failed}"


#: the static site's build tools live in an environment of their own (`make site`'s
#: .venv-site): installed into the app's, JupyterLite's front-end extension made every
#: Voila page log errors. TOONERVILLE_SITE_PYTHON names another one.
SITE_PYTHON = Path(os.environ.get("TOONERVILLE_SITE_PYTHON")
                   or REPO_ROOT / ".venv-site" / "bin" / "python")


@pytest.fixture(scope="session")
def built_site() -> Path:
    """The site, built (or found up to date) in build/site/ by the site's own environment."""
    missing = [str(p) for p in (REPO_ROOT / "node_modules" / "pyodide",
                                build_site.FONT_AWESOME) if not p.is_dir()]
    if not SITE_PYTHON.is_file() or subprocess.run(
            [str(SITE_PYTHON), "-c", "import voici_core"], capture_output=True).returncode:
        missing.append(f"voici-core in {SITE_PYTHON} (`make site` installs it)")
    if missing:
        message = f"the static site cannot be built without {missing} (run `make site`)"
        if _ci():
            pytest.fail(f"CI must test the static site, but {message}", pytrace=False)
        pytest.skip(message)
    # one build at a time: the browser workers that need the site share build/ (the first
    # builds it, the others wait and find it up to date)
    lock_path = build_site.DEFAULT_OUT.parent / "site.lock"
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with lock_path.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = subprocess.run(
            [str(SITE_PYTHON), str(REPO_ROOT / "tools" / "build_site.py"),
             "--out", str(build_site.DEFAULT_OUT)],
            cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        pytest.fail(f"make site failed:\n{done.stdout[-4000:]}", pytrace=False)
    return build_site.DEFAULT_OUT


@pytest.fixture(scope="session")
def site_server(built_site: Path) -> Iterator[SiteServer]:
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
         "--directory", str(built_site)],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server = SiteServer(built_site, f"http://127.0.0.1:{port}", process)
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    while True:
        try:
            with urllib.request.urlopen(f"{server.base_url}/index.html", timeout=2):
                break
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                pytest.fail("the static file server did not start", pytrace=False)
            time.sleep(0.2)
    try:
        yield server
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture
def network(page: Page) -> Network:
    """Block and record every request for a host other than 127.0.0.1."""
    log = Network()

    def guard(route: Route) -> None:
        url = route.request.url
        if urllib.parse.urlsplit(url).hostname == "127.0.0.1":
            route.continue_()
        else:
            log.blocked.append(url)
            route.abort("blockedbyclient")

    def committed(frame: Frame) -> None:
        if frame == page.main_frame:
            log.documents += 1

    page.context.route("**/*", guard)
    page.on("framenavigated", committed)
    page.on("request", lambda request: log.issued_in.setdefault(request, log.documents))
    page.on("requestfailed", log.request_failed)
    page.on("response", lambda r: log.failures.append((log.documents, r.url, f"HTTP {r.status}"))
            if r.status >= 400 else None)
    return log


@pytest.fixture
def open_site_notebook(page: Page, network: Network, site_server: SiteServer) -> OpenNotebook:
    """`open_site_notebook("07-play-a-game.ipynb", seed=3)`: the notebook's page of the
    static site, rendered (conftest's `RENDERED_JS`: Voici uses Voila's lab template)."""
    return _opener(site_server, page)  # type: ignore[arg-type]


def assert_no_error_output(site: VoilaPage) -> None:
    errors = site.stderr_outputs()
    assert errors.count() == 0, "\n".join(errors.all_inner_texts())[:4000]


def assert_clean(site: VoilaPage, network: Network) -> None:
    assert_no_error_output(site)
    assert site.errors == []
    network.assert_clean()


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


#: notebooks whose pages the tests below open and check the same way (no error output, no
#: page error, no request that failed or left the site), while playing them
PLAYED_BELOW = ("07-play-a-game.ipynb", "08-rules-explorer.ipynb")


def test_every_notebook_is_run_here_or_played_below() -> None:
    assert set(PLAYED_BELOW) <= set(NOTEBOOKS)


@pytest.mark.parametrize("name", [n for n in NOTEBOOKS
                                  if n != "rulebook.ipynb" and n not in PLAYED_BELOW])
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


def test_07_a_human_draws_and_discards_and_the_bots_answer(
    open_site_notebook: OpenNotebook, network: Network
) -> None:
    site = open_site_notebook("07-play-a-game.ipynb", wait_for=".tr-draw", seed=11,
                              timeout_ms=TIMEOUT_MS)
    page = site.page
    seeded = re.compile(r"a new game \(seed 11\)", re.I)  # ?seed=
    expect(page.locator(".tr-message")).to_contain_text(seeded)
    wait_for_my_move(page)
    pass_offers(page, pass_by_click)
    hand = page.locator(".tr-hand .tr-card")
    before = hand.count()
    page.locator(".tr-draw").click()
    expect(hand).to_have_count(before + 1, timeout=TIMEOUT_MS)
    chosen = hand.last
    card = chosen.text_content()
    chosen.click()
    expect(chosen).to_have_class(re.compile(r"\bmod-active\b"), timeout=TIMEOUT_MS)
    page.locator(".tr-discard").click()
    log = page.locator(".tr-log")
    expect(log).to_contain_text(f"Robin discards {card} (T13)", timeout=TIMEOUT_MS)
    wait_for_my_move(page)
    text = log.inner_text()
    assert any(f"{bot} discards" in text or f"{bot} passes" in text
               for bot in ("Crow", "Jay", "Magpie")), text
    # the next turn by the card-game keys (keys.js is in the site's pages too): D, the
    # last card's badge digits, X
    pass_offers(page, pass_by_click)
    presses = discard_by_keys(page, "", hand.count() + 1)
    assert presses <= 4, presses
    assert_clean(site, network)


def test_07_the_coach_thinks_hints_and_reviews_a_round_in_the_browser(
    open_site_notebook: OpenNotebook, network: Network
) -> None:
    """Issue 20 on the static site (Pyodide, no threads): the hint, the strong bot's move
    with what the other choices cost; the round's recap and its review, prepared when
    opened (`?scenario=roundend`: the learner's last discard of round 1). The recap once
    stayed hidden here: Pyodide sent the layout's `display = None` as `undefined`."""
    site = open_site_notebook("07-play-a-game.ipynb", wait_for=".tr-draw", scenario="roundend",
                              seed=46, timeout_ms=TIMEOUT_MS)
    page = site.page
    wait_for_my_move(page)
    page.locator(".tr-hint").click()
    coach = page.locator(".tr-coach-hint")
    expect(coach).to_contain_text("discarding", timeout=TIMEOUT_MS)  # an alternative, priced
    expect(coach).to_contain_text("rounds played out")
    expect(page.locator(".tr-hand .tr-card.mod-active")).to_have_count(1)
    page.locator(".tr-discard").click()  # the card the hint selected
    recap = page.locator(".tr-recap")
    expect(recap).to_be_visible(timeout=TIMEOUT_MS)
    expect(recap).to_contain_text("Round 1 is over")
    page.locator(".tr-review-open").click()
    body = page.locator(".tr-review-body")
    expect(body).to_contain_text("The review of round 1 is ready", timeout=TIMEOUT_MS)
    expect(body).to_be_visible()
    item = page.locator(".tr-review-item").first
    expect(item).to_contain_text("It cost you about")
    expect(item.locator("svg[data-card]").first).to_be_visible()
    page.locator(".tr-continue").click()
    expect(recap).to_be_hidden(timeout=TIMEOUT_MS)
    assert_clean(site, network)


def test_07_try_it_again_and_the_list_kept_in_the_browser_s_storage(
    open_site_notebook: OpenNotebook, network: Network
) -> None:
    """Issue 28 item 5 on the static site: the review's costly decision played again and
    answered, and the practice list found again by the next page, through localStorage
    (site/practice-store.js hands it to the kernel in the worker)."""
    site = open_site_notebook("07-play-a-game.ipynb", wait_for=".tr-draw", scenario="roundend",
                              seed=46, timeout_ms=TIMEOUT_MS)
    page = site.page
    wait_for_my_move(page)
    card = page.locator(".tr-hand .tr-card").first
    card.click()
    expect(card).to_have_class(re.compile(r"\bmod-active\b"), timeout=TIMEOUT_MS)
    page.locator(".tr-discard").click()  # the round ends
    expect(page.locator(".tr-recap")).to_be_visible(timeout=TIMEOUT_MS)
    page.locator(".tr-review-open").click()
    expect(page.locator(".tr-review-body")).to_contain_text("The review of round 1 is ready",
                                                           timeout=TIMEOUT_MS)
    page.locator(".tr-practice-try").click()
    practice = page.locator(".tr-practice-body")
    expect(practice).to_be_visible(timeout=TIMEOUT_MS)
    mine = practice.locator(".tr-card").first
    mine.click()
    expect(mine).to_have_class(re.compile(r"\bmod-active\b"), timeout=TIMEOUT_MS)
    practice.locator(".tr-discard").click()
    answer = practice.locator(".tr-practice-answer")
    expect(answer).to_contain_text("You chose", timeout=TIMEOUT_MS)
    expect(answer).to_contain_text("rounds played out")
    page.wait_for_function(
        "() => (localStorage.getItem('toonerville-practice') || '').includes('\"positions\"')",
        timeout=TIMEOUT_MS)
    assert_clean(site, network)
    again = open_site_notebook("07-play-a-game.ipynb", wait_for=".tr-practice-open", seed=5,
                               timeout_ms=TIMEOUT_MS)
    expect(again.page.locator(".tr-practice-open")).to_contain_text(
        re.compile(r"Your practice positions \(\d+\)"))
    assert_clean(again, network)


def test_07_save_gives_a_file_and_load_reads_it(
    open_site_notebook: OpenNotebook, network: Network, tmp_path: Path
) -> None:
    site = open_site_notebook("07-play-a-game.ipynb", wait_for=".tr-draw", seed=5,
                              timeout_ms=TIMEOUT_MS)
    page = site.page
    wait_for_my_move(page)
    hand = page.locator(".tr-hand .tr-card")
    dealt = hand.count()
    page.locator(".tr-panel-2").click()  # Save, load, or let the bots finish
    page.locator(".tr-save").click()
    link = page.locator(".tr-download a[download]")
    link.wait_for(state="visible", timeout=TIMEOUT_MS)
    with page.expect_download() as download_info:
        link.click()
    saved = tmp_path / "game.json"
    download_info.value.save_as(saved)
    assert json.loads(saved.read_text())["seed"] == 5

    # play on, then the file brings back the game as it was saved
    pass_offers(page, pass_by_click)
    page.locator(".tr-draw").click()
    expect(hand).to_have_count(dealt + 1, timeout=TIMEOUT_MS)
    page.locator(".tr-save-text textarea").fill("")
    with page.expect_file_chooser() as chooser:  # FileUpload's input is not in the page
        page.locator(".widget-upload").first.click()
    chooser.value.set_files(str(saved))
    expect(page.locator(".tr-message")).to_contain_text(re.compile("loaded: round 1", re.I),
                                                        timeout=TIMEOUT_MS)
    expect(hand).to_have_count(dealt, timeout=TIMEOUT_MS)
    assert_clean(site, network)


def test_lang_fa_gives_a_right_to_left_page(
    open_site_notebook: OpenNotebook, network: Network
) -> None:
    site = open_site_notebook("02-runs-and-sets.ipynb", lang="fa", wait_for=".tr-rtl",
                              timeout_ms=TIMEOUT_MS)
    page = site.page
    assert "/voici/render/fa/02-runs-and-sets.html?lang=fa" in page.url  # its own page
    assert network.documents == 2  # the English page was left for it
    rtl = page.locator(".tr-rtl").first
    assert rtl.evaluate("el => getComputedStyle(el).direction") == "rtl"
    picker = page.locator(".tv-language-dropdown select").first
    assert picker.evaluate("el => el.selectedOptions[0].textContent") == "فارسی"
    assert_clean(site, network)


def test_08_a_small_simulation_finishes_and_its_plot_appears(
    open_site_notebook: OpenNotebook, network: Network
) -> None:
    site = open_site_notebook("08-rules-explorer.ipynb", timeout_ms=TIMEOUT_MS)
    assert_no_error_output(site)  # e.g. a process pool, which the browser does not have
    page = site.page
    page.get_by_role("button", name="Run").wait_for(state="visible", timeout=TIMEOUT_MS)
    for name, value in (("games", "2"), ("turn-limit", "20")):
        box = page.locator(f".tv-explorer-{name} input")
        box.fill(value)
        box.press("Enter")
    page.get_by_role("button", name="Run").click()
    page.wait_for_function(
        "() => (document.querySelector('.tv-explorer-status')?.textContent || '')"
        ".startsWith('Done: 2 games')", timeout=180_000)
    plot = page.locator(PLOT).first
    plot.wait_for(state="visible", timeout=TIMEOUT_MS)
    # the plot takes its width once the page has laid it out
    page.wait_for_function(
        f"() => document.querySelector('{PLOT}').getBoundingClientRect().width > 300",
        timeout=TIMEOUT_MS)
    assert_clean(site, network)
