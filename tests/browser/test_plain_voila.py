"""The kit as Voila runs it, and nothing on its pages but the kit (issue 19).

`plain_voila` starts Voila the way its own documentation starts an app: `voila notebooks/`
from the repository root, with no `JUPYTER_PATH` and no configuration folder on the
command line. Voila then reads `voila.json` from the folder it starts in, and must find
the `toonerville` page template where it looks for templates, as Voila's own templates
are found: installed with the package (pyproject.toml's shared-data puts it in
`<prefix>/share/jupyter/voila/templates/`). This test installs it as a user install does
(into a temporary Jupyter data folder, `JUPYTER_DATA_DIR`, one of the places Voila looks,
ahead of the environment's own copy so that this checkout's template is the one served),
from pyproject's own mapping.

Every page of notebooks/ is then opened in Chromium, and each must render with no console
error, no console warning but Voila's own version notices (below), no page error, no
error output, and no request to another host.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import tomllib
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.conftest import (
    NOTEBOOKS_DIR,
    RENDERED_JS,
    REPO_ROOT,
    SERVER_START_TIMEOUT_S,
    STDERR_OUTPUT_SELECTOR,
    VoilaServer,
    _free_port,
    stop_voila,
    voila_env,
)

if TYPE_CHECKING:
    from playwright.sync_api import ConsoleMessage, Page

TIMEOUT_MS = 120_000
TEMPLATES = "share/jupyter/voila/templates"

# Voila 0.5.13's page (JupyterLab 4.2.5 inside) loads its own widget manager and ipywidgets'
# JupyterLab extension, which were built against JupyterLab 4.5 and 4.6: webpack says so
# once per shared @jupyterlab package ("Unsatisfied version 4.2.5 ... (required ^4.6.2)").
# Those notices come with the pinned Voila and ipywidgets (whose `~=3.0.17` requires
# that extension), change nothing on the page, and are the only warnings let through.
VOILA_VERSION_NOTICES = ("Unsatisfied version ", "No satisfying version ")


def installed_template(data_dir: Path) -> Path:
    """Lay out pyproject's shared-data under `data_dir` as a user install would; the
    template folder's installed path."""
    pyproject = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())
    shared = pyproject["tool"]["hatch"]["build"]["targets"]["wheel"]["shared-data"]
    targets = [dest for dest in shared.values() if dest.startswith(f"{TEMPLATES}/")]
    assert targets, f"pyproject.toml installs no Voila template under {TEMPLATES}/"
    for source, dest in shared.items():
        # <prefix>/share/jupyter/... is, for a user install, <data dir>/...
        target = data_dir / Path(dest).relative_to("share/jupyter")
        shutil.copytree(REPO_ROOT / source, target)
    template = data_dir / Path(f"{TEMPLATES}/toonerville").relative_to("share/jupyter")
    assert (template / "index.html.j2").is_file(), "the toonerville template is not installed"
    return template


def start_plain(folder: Path, target: str) -> VoilaServer:
    """`voila <target>` from the repository root, the template installed under `folder`
    as a user install puts it (nothing else on the command line)."""
    installed_template(folder / "data")
    env = voila_env()
    env.pop("JUPYTER_PATH", None)  # Voila finds the template where it looks by itself
    env["JUPYTER_DATA_DIR"] = str(folder / "data")
    # the user's data folder ahead of the environment's (jupyter_core 5 puts the
    # environment first by default): the environment may hold an older installed copy
    # of the template, and this checkout's is the one to serve
    env["JUPYTER_PREFER_ENV_PATH"] = "0"
    port = _free_port()
    log_path = folder / "voila.log"
    command = [sys.executable, "-m", "voila", "--no-browser", f"--port={port}",
               "--Voila.ip=127.0.0.1", target]
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, cwd=REPO_ROOT, env=env, stdin=subprocess.DEVNULL,
                                   stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    server = VoilaServer(NOTEBOOKS_DIR, f"http://127.0.0.1:{port}", process, log_path)
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    while True:
        if process.poll() is not None:
            pytest.fail(f"plain voila exited:\n{server.log_tail()}", pytrace=False)
        try:
            with urllib.request.urlopen(f"{server.base_url}/voila/static/voila.js", timeout=2):
                break
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            if time.monotonic() > deadline:
                stop_voila(server)
                pytest.fail(f"plain voila did not answer:\n{server.log_tail()}", pytrace=False)
            time.sleep(0.2)
    return server


@pytest.fixture(scope="module")
def plain_voila(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    server = start_plain(tmp_path_factory.mktemp("plain-voila"), "notebooks/")
    try:
        yield server
    finally:
        stop_voila(server)


def notebook_names() -> list[str]:
    return sorted(p.name for p in NOTEBOOKS_DIR.glob("*.ipynb"))


class Watch:
    """What a page says in its console and asks of the network while it loads."""

    def __init__(self, page: Page, base_url: str) -> None:
        self.messages: list[str] = []
        self.page_errors: list[str] = []
        self.outside: list[str] = []
        self.failed: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.page_errors.append(str(error)))
        page.on("request", lambda request: None if request.url.startswith(
            (base_url, "data:", "blob:", "about:")) else self.outside.append(request.url))
        page.on("requestfailed", lambda request: self.failed.append(
            f"{request.url}: {request.failure}"))

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error" or (
                message.type == "warning"
                and not message.text.startswith(VOILA_VERSION_NOTICES)):
            where = message.location.get("url", "")
            self.messages.append(f"{message.type}: {message.text[:300]} ({where})")


@pytest.mark.parametrize("name", notebook_names())
def test_plain_voila_serves_every_page_with_a_clean_console(
    plain_voila: VoilaServer, page: Page, name: str
) -> None:
    watch = Watch(page, plain_voila.base_url)
    response = page.goto(plain_voila.render_url(name), wait_until="commit", timeout=TIMEOUT_MS)
    assert response is not None and response.status == 200, plain_voila.log_tail()
    state = page.wait_for_function(RENDERED_JS, timeout=TIMEOUT_MS).json_value()
    assert state == "ready", page.inner_text("body")[:1000]
    # the kit's own template served it (its loading texts come with the page)
    assert page.locator("#jupyter-config-data").count() == 1
    assert "toonervilleTexts" in (page.locator("#jupyter-config-data").text_content() or "")
    page.wait_for_load_state("networkidle", timeout=TIMEOUT_MS)
    assert page.locator(STDERR_OUTPUT_SELECTOR).count() == 0
    assert watch.outside == [], "requests to other hosts"
    assert watch.failed == [], "failed requests"
    assert watch.page_errors == []
    assert watch.messages == [], "console errors or warnings:\n" + "\n".join(watch.messages)
    assert "TemplateNotFound" not in plain_voila.log_tail(100_000)
    # icons come from this server: Voila's own bundle carries Font Awesome 5 Free (a
    # browser loads a web font only for text it draws: an icon on a hidden widget, such as
    # a table's buttons before the learner joins, loads nothing, so only drawn ones count)
    icons = page.locator(".jupyter-widgets i.fa:visible")
    if icons.count():
        font = icons.first.evaluate("el => getComputedStyle(el).fontFamily")
        assert "Font Awesome 5 Free" in font
        page.wait_for_function(
            "() => [...document.fonts].some(f => f.family.includes('Font Awesome 5 Free')"
            " && f.status === 'loaded')", timeout=TIMEOUT_MS)
    page.goto("about:blank")  # the page's beacon gives its kernel back


def test_the_template_is_where_voila_looks_for_templates() -> None:
    pyproject = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())
    shared = pyproject["tool"]["hatch"]["build"]["targets"]["wheel"]["shared-data"]
    source = "share/jupyter/voila/templates/toonerville"
    assert shared.get(source) == source
    assert (REPO_ROOT / source / "index.html.j2").is_file()
    # voila.json (read from the folder Voila starts in) names the installed template
    assert '"template": "toonerville"' in (REPO_ROOT / "voila.json").read_text()
    # os.sep-safe: the same relative path on every platform
    assert Path(source).parts[:4] == ("share", "jupyter", "voila", "templates")
    assert os.path.basename(source) == "toonerville"


def test_one_notebook_served_alone_links_its_rules_to_the_rulebook(
        tmp_path_factory: pytest.TempPathFactory, page: Page) -> None:
    """`voila notebooks/07-play-a-game.ipynb`: the page is the server's root, and its rule
    links (printed by the game, and the lesson's link to the rulebook) still open the
    static rulebook page, which the server serves."""
    server = start_plain(tmp_path_factory.mktemp("plain-voila-07"),
                         "notebooks/07-play-a-game.ipynb")
    try:
        watch = Watch(page, server.base_url)
        page.goto(server.base_url + "/", wait_until="commit", timeout=TIMEOUT_MS)
        state = page.wait_for_function(RENDERED_JS, timeout=TIMEOUT_MS).json_value()
        assert state == "ready", page.inner_text("body")[:1000]
        # the card keys work here too: X before drawing is refused, with its rule linked
        focused = page.wait_for_function(
            """() => ['tr-draw', 'tr-pass'].find(
                 css => document.activeElement?.classList.contains(css))""",
            timeout=30_000).json_value()
        assert focused in ("tr-draw", "tr-pass")
        page.keyboard.press("x")
        page.locator(".tr-message a.tv-rule").first.wait_for(timeout=TIMEOUT_MS)
        links = page.locator("a.tv-rule, .jp-RenderedMarkdown a[href*='rulebook']")
        hrefs = sorted(set(links.evaluate_all("els => els.map(a => a.href)")))
        rules = [h for h in hrefs if "#T" in h or "#H" in h]
        assert rules and any("#" not in h for h in hrefs), hrefs  # a rule, and the book
        for href in hrefs:
            assert "/voila/templates/toonerville/static/rulebook-en.html" in href, href
            response = page.request.get(href)
            assert response.status == 200, f"{href}: {response.status}"
        assert watch.page_errors == [] and watch.outside == []
        page.goto("about:blank")
    finally:
        stop_voila(server)
