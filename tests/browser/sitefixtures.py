"""The static site's fixtures, shared by the test files that open it (`test_site`,
`test_site_play`, `test_front_page`, `test_languages`): `built_site` (built once per set of
inputs: tools/build_site.py keeps a digest of them in the site's folder, skips an
unchanged build and builds one at a time, so `make test` may start it before the tests
and a browser worker finds it built or waits for it), `site_server` (a plain static file
server on 127.0.0.1), `network` (every request for any other host blocked and recorded),
`open_site_notebook`, and the checks every page passes: no error output, no page error,
no failed request.
"""

from __future__ import annotations

import os
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

if TYPE_CHECKING:
    from playwright.sync_api import Frame, Page, Request, Route

    from tests.conftest import OpenNotebook, VoilaPage

sys.path.insert(0, str(REPO_ROOT / "tools"))
import build_site  # noqa: E402

NOTEBOOKS = sorted(p.name for p in NOTEBOOKS_DIR.glob("*.ipynb"))
TIMEOUT_MS = 60_000


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
    # one build at a time (build_site.py's lock): the browser workers that need the site,
    # and `make test`'s build started before them, share build/; the first builds it, the
    # others wait and find it up to date
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
