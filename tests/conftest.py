"""Shared pytest fixtures for the browser tests (Playwright driving Voila).

Only ``tests/browser/`` uses these fixtures; the engine tests need none of them.

* ``browser_type_launch_args`` points pytest-playwright at Debian's Chromium headless
  shell (Playwright cannot download its own browser here).
* ``voila_server`` serves ``notebooks/`` and ``voila_fixture_server`` serves
  ``tests/browser/fixtures/``; both use the repo's Voila configuration
  (``voila.json``, ``share/voila/voila.py``, the ``toonerville`` page template)
  with tracebacks hidden, like ``make app``, but without its cap on live kernels.
* ``open_notebook(name, **query)`` loads ``/voila/render/<name>?<query>`` from
  ``voila_server`` and waits until Voila has finished rendering (see
  ``RENDERED_JS``); ``open_fixture_notebook`` does the same on the fixture server.

Screenshots of failing browser tests come from pytest-playwright's own
``--screenshot=only-on-failure --output=test-results`` (set by ``make test``).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import settings

# Property tests check behaviour, never speed: on a loaded 2-core machine (CI, or two test
# processes side by side) an example may take longer than Hypothesis's default 200 ms
# deadline without anything being wrong.
settings.register_profile("kit", deadline=None)
# `pytest --hypothesis-profile=thorough` hunts for rare failing examples (minutes, not for CI)
settings.register_profile("thorough", deadline=None, max_examples=2000)
settings.load_profile("kit")

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

REPO_ROOT = Path(__file__).resolve().parent.parent
BROWSER_TESTS_DIR = REPO_ROOT / "tests" / "browser"
NOTEBOOKS_DIR = REPO_ROOT / "notebooks"
FIXTURE_NOTEBOOKS_DIR = BROWSER_TESTS_DIR / "fixtures"
VOILA_PY_CONFIG_DIR = REPO_ROOT / "share" / "voila"  # the Python half of the Voila config
#: the learner's browser: the benchmarks that time pages as a class sees them drive it
CHROMIUM = Path("/usr/bin/chromium")
#: the browser the tests drive: Debian's chromium-headless-shell, the same Chromium
#: engine (Blink, V8) without the desktop browser around it, as Playwright itself runs
#: Chromium headless. It does the tests' pages' work for half the CPU: test_a11y.py's 14
#: pages took 14 CPU-seconds of Chromium against 31 with /usr/bin/chromium --headless
#: (benchmarks/cpu_by_process.py, one after the other at load 1; issue 30)
TEST_BROWSER = Path("/usr/bin/chromium-headless-shell")

SERVER_START_TIMEOUT_S = 60.0
SERVER_STOP_TIMEOUT_S = 30.0
RENDER_TIMEOUT_MS = 60_000.0

STDERR_OUTPUT_SELECTOR = ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
    # resolve no host but the local server, so a page never reaches out of the machine
    # (the kit's template links nothing outside; a test would see a request fail)
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
]

# The notebook fixtures are served to the browser, never collected (nbval would
# otherwise run them when pytest is given --nbval-lax).
collect_ignore_glob = ["browser/fixtures/*"]

# True once Voila 0.5.13's lab template has rendered every cell output:
#  1. the spinner (#loading) is gone and #rendered_cells is shown; the page's
#     inline JS does this once cells *and* the theme are loaded;
#  2. no <script type="application/vnd.voila.cell-output+json"> is left: the
#     front end turns each into a .jp-OutputArea-output;
#  3. no widget view is still pending: a widget output first reads
#     "Loading widget...", then a Box shows empty bare <div class="lm-Widget">
#     placeholders until each child view is attached.
# Returns "error" for a page that is not a Voila notebook page (e.g. a 404).
RENDERED_JS = """() => {
  const body = document.body;
  if (!body) return false;
  const cells = document.getElementById('rendered_cells');
  if (!cells) {
    return document.readyState === 'complete' && body.dataset.voila !== 'voila' ? 'error' : false;
  }
  if (document.getElementById('loading') || cells.style.display === 'none') return false;
  if (document.querySelector('script[type="application/vnd.voila.cell-output+json"]')) return false;
  for (const out of cells.querySelectorAll('.jp-OutputArea-output')) {
    if (out.childElementCount === 0 && out.textContent.trim().startsWith('Loading widget')) {
      return false;
    }
  }
  for (const el of cells.querySelectorAll('.jupyter-widgets div.lm-Widget')) {
    if (el.className === 'lm-Widget' && el.childElementCount === 0) return false;
  }
  return 'ready';
}"""


def _ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def pytest_configure(config: pytest.Config) -> None:
    # Every table this run opens lives in its own temporary file: the engine tests, the
    # kernels nbval starts for notebooks 09 and 10 and the served pages' kernels inherit
    # it, so no test leaves tables in ~/.toonerville or finds those of an earlier run (a
    # store chosen by the one running the tests, TOONERVILLE_STORE=..., is kept).
    os.environ.setdefault("TOONERVILLE_STORE", str(_run_store()))
    # pytest-playwright 0.10 defines its session `base_url` fixture as a method,
    # which pytest 9 flags; nothing here uses that fixture.
    config.addinivalue_line(
        "filterwarnings", "ignore:Session-scoped fixtures defined as instance methods"
    )


#: The browser test files that hold a worker longest, longest first (seconds of one worker
#: in `make test`'s browser run, from `--durations=0` on the 2-core machine: 296, 231, 155,
#: 119, 116, 113, 104, 104, 96, 92, 91, 80 ...). pytest-xdist hands a file to the next free
#: worker in collection order (`make test` passes `--no-loadscope-reorder`; by default it
#: orders files by their number of tests, which sent the hub's, the two servers' and the
#: away tests, few but long and mostly waiting, out last, to run while the other workers
#: had nothing left). The files not named keep their order after these.
LONGEST_FIRST = (
    "test_site.py", "test_languages.py", "test_table_away.py", "test_site_play.py",
    "test_a11y.py", "test_try_it.py", "test_plain_voila.py", "test_play.py",
    "test_hub.py", "test_two_servers.py", "test_front_page.py", "test_visitors.py",
    "test_lessons.py", "test_lockout.py", "test_served.py", "test_play_resume.py",
    "test_live_board.py", "test_tournament.py", "test_class.py", "test_rules_explorer.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    browser = pytest.mark.browser
    rank = {name: k for k, name in enumerate(LONGEST_FIRST)}
    for item in items:
        if BROWSER_TESTS_DIR in item.path.parents:
            item.add_marker(browser)
    # a stable sort: each file's tests keep their order
    items.sort(key=lambda item: rank.get(item.path.name, len(rank))
               if BROWSER_TESTS_DIR in item.path.parents else len(rank))


# --------------------------------------------------------------------- browser


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright's launch args plus Debian's Chromium headless shell and quiet
    flags."""
    if not (TEST_BROWSER.is_file() and os.access(TEST_BROWSER, os.X_OK)):
        message = (
            f"{TEST_BROWSER} is missing: the browser tests drive Debian's Chromium headless "
            "shell (`apt-get install -y chromium-headless-shell fonts-noto-core`, or run "
            "`make test`, which installs it)"
        )
        if _ci():
            pytest.fail(f"CI must run the browser tests, but {message}", pytrace=False)
        pytest.skip(message)
    args = [*browser_type_launch_args.get("args", []), *CHROMIUM_ARGS]
    return {**browser_type_launch_args, "executable_path": str(TEST_BROWSER), "args": args}


# ----------------------------------------------------------------------- Voila


@dataclass
class VoilaServer:
    """A running ``python -m voila`` serving one folder."""

    root: Path
    base_url: str
    process: subprocess.Popen[bytes]
    log_path: Path

    def render_url(self, name: str, **query: object) -> str:
        url = f"{self.base_url}/voila/render/{urllib.parse.quote(name)}"
        if query:
            url += "?" + urllib.parse.urlencode({k: str(v) for k, v in query.items()})
        return url

    def log_tail(self, lines: int = 60) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no server log)"
        return "\n".join(text.splitlines()[-lines:])


def voila_env() -> dict[str, str]:
    """The environment `make app` gives Voila: the repo's page template on JUPYTER_PATH,
    and this checkout's package first on PYTHONPATH (for the server and its kernels, so a
    worktree's tests never run another checkout's editable install)."""
    env = dict(os.environ)
    # a kernel started under pytest's variable does not forward its stderr file to the page
    # (ipykernel's own test switch): the served kernels must behave as under `make app`
    env.pop("PYTEST_CURRENT_TEST", None)
    env["JUPYTER_PATH"] = os.pathsep.join(
        p for p in (str(REPO_ROOT / "share" / "jupyter"), env.get("JUPYTER_PATH", "")) if p)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(REPO_ROOT), env.get("PYTHONPATH", "")) if p)
    # the shared tables of the served pages live in this test run's own file, not in the
    # user's ~/.toonerville (tests leave no tables behind there, and find none of old runs)
    env.setdefault("TOONERVILLE_STORE", str(_run_store()))
    # and their cookie secret too (a PostgreSQL store has no folder to keep it beside)
    env.setdefault("TOONERVILLE_COOKIE_SECRET_FILE", str(_run_store().parent / "cookie_secret"))
    return env


_RUN_STORE: list[Path] = []


def _run_store() -> Path:
    """One tables file per test process, in a temporary folder removed when it ends."""
    if not _RUN_STORE:
        folder = tempfile.mkdtemp(prefix="toonerville-tests-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        _RUN_STORE.append(Path(folder) / "tables.sqlite")
    return _RUN_STORE[0]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_voila(
    root: Path, log_path: Path, *extra_args: str, timeout: float = SERVER_START_TIMEOUT_S
) -> VoilaServer:
    """Start Voila on a free local port, serving ``root``; wait until it answers.

    The repo's ``voila.json`` is the configuration (``--Voila.config_file_paths``),
    so the browser sees what ``make app`` serves; ``extra_args`` come last and win.
    Readiness is polled on ``/voila/static/voila.js`` (polling a notebook URL
    would start a kernel each time).
    """
    port = _free_port()
    command = [
        sys.executable,
        "-m",
        "voila",
        "--no-browser",
        f"--port={port}",
        "--Voila.port_retries=0",  # fail rather than silently move to another port
        "--Voila.ip=127.0.0.1",
        f"--Voila.config_file_paths={REPO_ROOT}",
        f"--Voila.config_file_paths={VOILA_PY_CONFIG_DIR}",
        f"--Voila.config_file_paths={REPO_ROOT / 'config'}",  # ?lang= translates the prose
        "--show_tracebacks=False",
        *extra_args,
        str(root),
    ]
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command,
            cwd=REPO_ROOT,
            env=voila_env(),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # own process group, killed as a whole at the end
        )
    server = VoilaServer(root, f"http://127.0.0.1:{port}", process, log_path)
    deadline = time.monotonic() + timeout
    probe = f"{server.base_url}/voila/static/voila.js"
    while True:
        if process.poll() is not None:
            raise RuntimeError(
                f"Voila exited with code {process.returncode} before serving {root}:\n"
                f"{server.log_tail()}"
            )
        try:
            with urllib.request.urlopen(probe, timeout=2) as response:
                if response.status == 200:
                    return server
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if time.monotonic() > deadline:
            stop_voila(server)
            raise RuntimeError(
                f"Voila did not answer {probe} within {timeout:.0f} s:\n{server.log_tail()}"
            )
        time.sleep(0.2)


def stop_voila(server: VoilaServer, timeout: float = SERVER_STOP_TIMEOUT_S) -> None:
    """SIGTERM lets Voila shut its kernels down (a few seconds); SIGKILL to the whole
    process group (the kernels with it) if it takes longer than `timeout`."""
    process = server.process
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
    except ProcessLookupError:
        pass


# Browser tests leave a kernel behind per page visit (Playwright closes a page
# without its beforeunload shutdown beacon), culled after voila.json's idle timeout;
# a busy session may open more pages than that cap in that time, so the shared test
# servers have no kernel cap (tests/browser/test_served.py tests the cap on its own).
# Every Playwright context is a new browser from 127.0.0.1: the shared servers let new
# visitors in without the per-address door (tests/browser/test_lockout.py tests the door).
_TEST_CULLING = ("--ClassKernelManager.max_kernels=0",
                 "--ClassKernelManager.new_visitors_burst=0")


def _serve(
    root: Path, name: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[VoilaServer]:
    log_path = tmp_path_factory.mktemp("voila") / f"{name}.log"
    try:
        server = start_voila(root, log_path, *_TEST_CULLING)
    except RuntimeError as error:
        pytest.fail(str(error), pytrace=False)
    try:
        yield server
    finally:
        stop_voila(server)


@pytest.fixture(scope="session")
def voila_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    """Voila serving ``notebooks/`` for the whole session."""
    yield from _serve(NOTEBOOKS_DIR, "notebooks", tmp_path_factory)


@pytest.fixture(scope="session")
def voila_fixture_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    """Voila serving the tiny notebooks in ``tests/browser/fixtures/``."""
    yield from _serve(FIXTURE_NOTEBOOKS_DIR, "fixtures", tmp_path_factory)


@dataclass
class VoilaPage:
    """A rendered Voila page, with the JS errors it raised so far."""

    page: Page
    url: str
    server: VoilaServer
    errors: list[str] = field(default_factory=list)  # page.on("pageerror")
    console_errors: list[str] = field(default_factory=list)  # informative only

    def stderr_outputs(self) -> Locator:
        """Error outputs: stderr streams and, with tracebacks hidden, failed cells."""
        return self.page.locator(STDERR_OUTPUT_SELECTOR)


OpenNotebook = Callable[..., VoilaPage]


def _opener(server: VoilaServer, page: Page) -> OpenNotebook:
    def open_notebook(
        name: str,
        *,
        wait_for: str | None = None,
        timeout_ms: float = RENDER_TIMEOUT_MS,
        **query: object,
    ) -> VoilaPage:
        """Load ``name`` and wait until Voila finished rendering it.

        ``query`` becomes the query string (a preheated notebook must call
        ``voila.utils.wait_for_request()`` before reading ``QUERY_STRING``).
        ``wait_for``: a selector that must also be visible before returning.
        """
        url = server.render_url(name, **query)
        result = VoilaPage(page=page, url=url, server=server)
        page.on("pageerror", lambda error: result.errors.append(str(error)))
        page.on(
            "console",
            lambda msg: result.console_errors.append(msg.text) if msg.type == "error" else None,
        )
        response = page.goto(url, wait_until="commit", timeout=timeout_ms)
        if response is None or response.status >= 400:
            status = "no response" if response is None else f"HTTP {response.status}"
            pytest.fail(f"Voila answered {status} for {url}", pytrace=False)
        state = page.wait_for_function(RENDERED_JS, timeout=timeout_ms).json_value()
        if state != "ready":
            pytest.fail(
                f"{url} is not a Voila notebook page:\n{page.inner_text('body')[:2000]}",
                pytrace=False,
            )
        if wait_for is not None:
            page.locator(wait_for).first.wait_for(state="visible", timeout=timeout_ms)
        return result

    return open_notebook


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Attach the Voila server log to the report of a failed browser test."""
    outcome = yield
    report: pytest.TestReport = outcome.get_result()  # type: ignore[attr-defined]
    if report.failed and report.when in ("setup", "call"):
        for value in getattr(item, "funcargs", {}).values():
            if isinstance(value, VoilaServer):
                report.sections.append((f"voila log ({value.root.name}/)", value.log_tail()))


def _leave(page: Page) -> None:
    """Leave the page as a learner does, so that its beforeunload beacon releases its
    kernel now rather than at the idle cull, 45 s later (closing a page from Playwright
    sends no beacon): fewer idle kernels weigh on the machine while the next tests run."""
    # a page already closed or crashed: the cull frees its kernel
    with contextlib.suppress(Exception):
        page.goto("about:blank", timeout=10_000)


@pytest.fixture
def open_notebook(page: Page, voila_server: VoilaServer) -> Iterator[OpenNotebook]:
    """``open_notebook("00-welcome.ipynb", seed=3)`` -> rendered :class:`VoilaPage`.

    ``page`` comes first so a missing Chromium skips (or fails, in CI) before
    a server is started.
    """
    yield _opener(voila_server, page)
    _leave(page)


@pytest.fixture
def open_fixture_notebook(page: Page, voila_fixture_server: VoilaServer
                          ) -> Iterator[OpenNotebook]:
    """Like ``open_notebook``, on the notebooks in ``tests/browser/fixtures/``."""
    yield _opener(voila_fixture_server, page)
    _leave(page)
