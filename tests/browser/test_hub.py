"""A school on JupyterHub (issue 30): `config/jupyterhub_config.py` as `make hub` runs it.

The hub (JupyterHub from PyPI, configurable-http-proxy from npm, the idle culler as a
service) starts with a throw-away state folder and the class store on PostgreSQL; two
learners log in with the class's password in Chromium, each gets a Jupyter server of
their own (SimpleLocalProcessSpawner) serving the kit's pages with Voila, and they play
at one shared table of notebook 09: each page shows the other's move.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from tests.browser.test_classroom import (
    NOTEBOOK,
    TIMEOUT_MS,
    at,
    each_plays_a_turn,
    open_and_join,
)
from tests.conftest import REPO_ROOT, _free_port
from tests.pgserver import postgres_url_fixture  # noqa: F401 - the fixture
from tests.storehelpers import raw_count

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

PASSWORD = "our-class-2026"
#: a learner's first login starts their server: generous under a loaded machine
SPAWN_TIMEOUT_MS = 240_000


class Hub:
    def __init__(self, url: str, process: subprocess.Popen[bytes], log: Path) -> None:
        self.url = url
        self.process = process
        self.log = log

    def log_tail(self, lines: int = 60) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


@pytest.fixture(scope="module")
def hub(postgres_url: str) -> Iterator[Hub]:
    state = Path(tempfile.mkdtemp(prefix="hub-"))
    port = _free_port()
    env = {**os.environ, "TOONERVILLE_HUB_PASSWORD": PASSWORD,
           "TOONERVILLE_HUB_STATE": str(state), "TOONERVILLE_HUB_PORT": str(port),
           "TOONERVILLE_STORE": postgres_url}
    env.pop("PYTEST_CURRENT_TEST", None)
    log = state / "hub.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "jupyterhub", "-f", str(REPO_ROOT / "config" /
                                                           "jupyterhub_config.py")],
            cwd=state, env=env, stdin=subprocess.DEVNULL, stdout=out,
            stderr=subprocess.STDOUT, start_new_session=True)
    running = Hub(f"http://127.0.0.1:{port}", process, log)
    deadline = time.monotonic() + 120
    try:
        while True:
            if process.poll() is not None:
                pytest.fail(f"the hub exited:\n{running.log_tail()}", pytrace=False)
            try:
                with urllib.request.urlopen(f"{running.url}/hub/api", timeout=5):
                    break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if time.monotonic() > deadline:
                    pytest.fail(f"the hub did not answer:\n{running.log_tail()}",
                                pytrace=False)
                time.sleep(0.5)
        yield running
    finally:
        if process.poll() is None:
            os.killpg(process.pid, 15)  # the hub stops its proxy and the learners' servers
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, 9)
        subprocess.run(["pkill", "-f", f"toonerville-hub-|{state}"], check=False)
        shutil.rmtree(state, ignore_errors=True)


@pytest.fixture
def logged_in(browser: Browser, hub: Hub) -> Iterator[Callable[[str], Page]]:
    """A learner logs in to the hub under `name` and opens 09 on their own server."""
    contexts = []

    def log_in(name: str) -> Page:
        context = browser.new_context()
        contexts.append(context)
        page = context.new_page()
        page.goto(f"{hub.url}/hub/login", timeout=TIMEOUT_MS)
        page.fill("input[name=username]", name)
        page.fill("input[name=password]", PASSWORD)
        page.click("[type=submit]")
        # the hub starts their server and sends them to the kit's front page on it
        page.wait_for_url(f"**/user/{name}/voila/tree**", timeout=SPAWN_TIMEOUT_MS)
        lesson = page.locator(f'a[href$="/user/{name}/voila/render/{NOTEBOOK}"]').first
        expect(lesson).to_be_visible(timeout=TIMEOUT_MS)
        lesson.click()
        expect(at(page, ".tr-open")).to_be_visible(timeout=SPAWN_TIMEOUT_MS)
        return page

    yield log_in
    for context in contexts:
        context.close()


def test_two_learners_log_in_to_the_hub_and_play_at_one_shared_table(
        hub: Hub, logged_in: Callable[[str], Page], postgres_url: str) -> None:
    ann, bo = logged_in("ann"), logged_in("bo")
    assert "/user/ann/" in ann.url and "/user/bo/" in bo.url  # two servers
    code = open_and_join(ann, bo)
    pages = [ann, bo]
    names = {0: "Ann", 1: "Bo"}
    each_plays_a_turn(pages, names)  # the other page shows each move
    assert raw_count(postgres_url, code) > 0  # the class store is the school's PostgreSQL
