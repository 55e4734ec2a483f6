"""The kit on Binder, as a learner meets it there (issue 30).

repo2docker installs `binder/requirements.txt`, runs `binder/postBuild` in the repository
and starts JupyterLab there, with Voila as a server extension; a learner is sent to
`?urlpath=voila/tree/notebooks` (the front page) or `?urlpath=voila/render/notebooks/…`.
This test does the same with this checkout: `postBuild` runs with a scratch HOME (its one
`pip install --no-deps .` answered by a stand-in `pip`, since the package is already
installed here, and the template it installs laid out under JUPYTER_PATH instead), then
`jupyter lab` is started in the repository with that HOME, as Binder does.

It checks what went wrong there before: the front page's lessons were 404s (links without
`notebooks/`), MathJax was asked of a CDN, and no class limit applied (a link checker
started 73 kernels).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.cookiejar import CookieJar
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.conftest import (
    NOTEBOOKS_DIR,
    RENDERED_JS,
    REPO_ROOT,
    SERVER_START_TIMEOUT_S,
    VoilaServer,
    _free_port,
    stop_voila,
    voila_env,
)

if TYPE_CHECKING:
    from playwright.sync_api import Page

TIMEOUT_MS = 120_000
CONFIG = json.loads((REPO_ROOT / "binder" / "jupyter_config.json").read_text())


def run_post_build(home: Path) -> Path:
    """`binder/postBuild` as repo2docker runs it, with a `pip` that only records its call."""
    stand_in = home / "bin"
    stand_in.mkdir(parents=True)
    calls = home / "pip-calls"
    (stand_in / "pip").write_text(f'#!/bin/sh\necho "$*" >> {calls}\n')
    (stand_in / "pip").chmod(0o755)
    env = {**os.environ, "HOME": str(home), "PATH": f"{stand_in}:{os.environ['PATH']}"}
    subprocess.run(["bash", "binder/postBuild"], cwd=REPO_ROOT, env=env, check=True,
                   stdin=subprocess.DEVNULL, timeout=60)
    assert calls.read_text().split("\n")[0] == "install --no-deps ."
    return home


@pytest.fixture(scope="module")
def binder() -> Iterator[VoilaServer]:
    # a short HOME, as Binder's /home/jovyan: the kernels talk over socket files under it
    # (KernelManager.transport ipc), whose paths may not exceed 107 bytes
    scratch = Path(tempfile.mkdtemp(prefix="binder-"))
    try:
        yield from serve_binder(run_post_build(scratch))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def serve_binder(home: Path) -> Iterator[VoilaServer]:
    env = voila_env()  # this checkout's package and template, as `pip install .` gives
    env.pop("TOONERVILLE_STORE", None)
    env["HOME"] = str(home)
    port = _free_port()
    log_path = home / "lab.log"
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root",
               "--ServerApp.token=", "--ServerApp.ip=127.0.0.1", f"--port={port}",
               "--ServerApp.port_retries=0"]
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, cwd=REPO_ROOT, env=env, stdin=subprocess.DEVNULL,
                                   stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    server = VoilaServer(REPO_ROOT, f"http://127.0.0.1:{port}", process, log_path)
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    while True:
        if process.poll() is not None:
            pytest.fail(f"jupyter lab exited:\n{server.log_tail()}", pytrace=False)
        try:
            with urllib.request.urlopen(f"{server.base_url}/voila/static/voila.js", timeout=2):
                break
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            if time.monotonic() > deadline:
                stop_voila(server)
                pytest.fail(f"jupyter lab did not answer:\n{server.log_tail()}",
                            pytrace=False)
            time.sleep(0.3)
    try:
        yield server
    finally:
        stop_voila(server, timeout=5)  # its kernels are in its process group


def kernels(server: VoilaServer) -> int:
    with urllib.request.urlopen(f"{server.base_url}/api/kernels", timeout=10) as response:
        return len(json.load(response))


@pytest.mark.parametrize("urlpath", ["voila/tree/notebooks", "voila/tree", "voila"])
def test_binder_front_page_links_lead_to_lessons_that_open(
        binder: VoilaServer, urlpath: str) -> None:
    with urllib.request.urlopen(f"{binder.base_url}/{urlpath}", timeout=30) as response:
        page = response.read().decode()
    lessons = re.findall(r'href="(/voila/render/[^"]+\.ipynb)(?:\?[^"]*)?"', page)
    numbered = list(NOTEBOOKS_DIR.glob("[0-9][0-9]-*.ipynb"))
    assert len(set(lessons)) == len(numbered), lessons
    assert all(link.startswith("/voila/render/notebooks/") for link in lessons), lessons
    # the lesson exists where the link says (a HEAD-like check: the file's own contents API,
    # so no kernel is started for it)
    with urllib.request.urlopen(
            f"{binder.base_url}/api/contents/{lessons[0].removeprefix('/voila/render/')}"
            "?content=0", timeout=30) as response:
        assert json.load(response)["type"] == "notebook"


def test_binder_page_works_in_its_language_and_asks_no_other_host(
        binder: VoilaServer, page: Page) -> None:
    outside: list[str] = []
    page.on("request", lambda request: None if request.url.startswith(
        (binder.base_url, "data:", "blob:", "about:")) else outside.append(request.url))
    page.goto(f"{binder.base_url}/voila/render/notebooks/02-runs-and-sets.ipynb?lang=de",
              wait_until="commit", timeout=TIMEOUT_MS)
    state = page.wait_for_function(RENDERED_JS, timeout=TIMEOUT_MS).json_value()
    assert state == "ready", page.inner_text("body")[:1000]
    page.wait_for_load_state("networkidle", timeout=TIMEOUT_MS)
    assert "Reihen und Sätze" in page.inner_text("h1")
    assert outside == [], "requests to other hosts (MathJax from a CDN?)"


def test_binder_caps_the_kernels_a_link_checker_can_start(binder: VoilaServer) -> None:
    cap = CONFIG["ClassKernelManager"]["max_kernels"]
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    statuses = []
    for _ in range(cap + 2):
        try:
            # the smallest page there is (the cap counts kernels, whatever their page)
            with opener.open(f"{binder.base_url}/voila/render/tests/browser/fixtures/"
                             "one_button.ipynb", timeout=120) as response:
                statuses.append(response.status)
        except urllib.error.HTTPError as error:
            statuses.append(error.code)
        assert kernels(binder) <= cap, statuses
    # the kit's page says why when it refuses (a 503 with the class-full page), never a
    # server that starts kernels until it runs out of memory
    assert kernels(binder) <= cap
