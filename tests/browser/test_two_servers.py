"""One table, two servers (issue 30): two Voila servers of the kit on one PostgreSQL store
(`TOONERVILLE_STORE=postgresql://…`, as a school runs several `make app`s or a hub's
per-class servers). A learner on each plays at one shared table of notebook 09: each
page shows the other's move. Then one server stops: its learner reopens 09 on the other
server with the table's code and their rejoin key and is back at their seat, at the
move the table had reached; nobody's game is lost.

And one tournament across them (notebook 10): the teacher starts it on the first server,
Ann joins from the first and Bo from the second, each sees the other's move; the second
server stops, Bo reopens 10 on the first with the tournament's code and his key, sits at
his seat again where the table was, the table goes on, and the teacher's master sheet
still follows it.

Starting two servers costs about 30 s here, so both tests share them (module scope):
a server a test stopped is started again, alone, for the next test.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from tests.browser.test_classroom import (
    NOTEBOOK,
    TIMEOUT_MS,
    at,
    each_plays_a_turn,
    open_and_join,
    prompt,
    seat_of,
)
from tests.browser.test_tournament import key_of
from tests.conftest import NOTEBOOKS_DIR, VoilaServer, start_voila, stop_voila
from tests.pgserver import postgres_url_fixture  # noqa: F401 - the fixture
from tests.storehelpers import raw_count

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

#: a page's first load, on servers that start several kernels at once (generous: a loaded
#: machine takes long; nothing here is a timed assertion)
PAGE_TIMEOUT_MS = 180_000
TOURNAMENT = "10-tournament.ipynb"


@contextlib.contextmanager
def store_is(url: str) -> Iterator[None]:
    """`TOONERVILLE_STORE` is `url` while servers start: voila_env() hands it to them
    (and only to them: other tests' servers keep the run's own store)."""
    before = os.environ.get("TOONERVILLE_STORE")
    os.environ["TOONERVILLE_STORE"] = url
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("TOONERVILLE_STORE", None)
        else:
            os.environ["TOONERVILLE_STORE"] = before


@pytest.fixture(scope="module")
def servers(postgres_url: str, tmp_path_factory: pytest.TempPathFactory
            ) -> Iterator[list[VoilaServer]]:
    """Two servers on one PostgreSQL store, started side by side, for the module."""
    folder = tmp_path_factory.mktemp("two-servers")
    with store_is(postgres_url), ThreadPoolExecutor(2) as pool:
        started = [pool.submit(start_voila, NOTEBOOKS_DIR, folder / f"voila-{n}.log")
                   for n in (1, 2)]
    running = [future.result() for future in started if future.exception() is None]
    try:
        for future in started:
            future.result()  # a server that did not start says why
        yield running
    finally:
        with ThreadPoolExecutor(2) as pool:  # each waits for its kernels to shut down
            list(pool.map(stop_voila, running))


@pytest.fixture
def two_servers(servers: list[VoilaServer], postgres_url: str) -> list[VoilaServer]:
    """The module's two servers, both running: one a test stopped starts again."""
    for n, server in enumerate(servers):
        if server.process.poll() is not None:
            with store_is(postgres_url):
                servers[n] = start_voila(NOTEBOOKS_DIR, server.log_path.with_name(
                    f"{server.log_path.stem}-again.log"))
    return list(servers)


@pytest.fixture
def learner_on(browser: Browser) -> Iterator[Callable[..., Page]]:
    """Opens a notebook (09 by default) on the given server, in a browser context of its
    own, and waits until `ready` (09's Open button by default) is shown; with `ready`
    None it does not wait (pages opened together start their kernels side by side)."""
    contexts = []

    def open_page(server: VoilaServer, notebook: str = NOTEBOOK,
                  ready: str | None = ".tr-classroom .tr-open") -> Page:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        contexts.append(context)
        page = context.new_page()
        page.goto(server.render_url(notebook), wait_until="commit",
                  timeout=PAGE_TIMEOUT_MS)
        if ready is not None:
            expect(page.locator(ready)).to_be_visible(timeout=PAGE_TIMEOUT_MS)
        return page

    yield open_page
    for context in contexts:
        context.close()


def move_number(page: Page) -> int:
    found = re.search(r"move (\d+)", at(page, ".tr-status").inner_text())
    assert found is not None, at(page, ".tr-status").inner_text()
    return int(found.group(1))


def test_one_table_two_servers_and_a_server_that_stops_loses_nobody(
        two_servers: list[VoilaServer], learner_on: Callable[..., Page],
        postgres_url: str) -> None:
    first, second = two_servers
    ann, bo = learner_on(first), learner_on(second)
    code = open_and_join(ann, bo)  # the code from a page of the other server
    pages = [ann, bo]
    names = {0: "Ann", 1: "Bo"}

    each_plays_a_turn(pages, names)  # each page shows the other's move

    # the first server stops: Ann's page has no kernel any more
    key = at(ann, ".tr-rejoin-key code").inner_text().strip()
    reached = move_number(ann)
    stop_voila(first)
    # Ann reopens 09 on the second server and takes her seat back with her key
    again = learner_on(second)
    at(again, ".tr-code input").fill(code)
    at(again, ".tr-key input").fill(key)
    at(again, ".tr-join").click()
    expect(at(again, ".tr-status")).to_contain_text("seat 0", timeout=TIMEOUT_MS)
    assert move_number(again) >= reached
    # and both learners, now on one server, see the same table, kept in PostgreSQL
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while move_number(again) != move_number(bo):
        assert time.monotonic() < deadline, (prompt(again), prompt(bo))
        again.wait_for_timeout(200)
    assert raw_count(postgres_url, code) >= reached


def join_tournament(page: Page, code: str, name: str, key: str) -> None:
    """A learner's page of 10 joins tournament `code` as `name` with their key."""
    page.locator(".tt-join-code input").fill(code)
    page.locator(".tt-name input").fill(name)
    page.locator(".tt-join-key input").fill(key)
    page.locator(".tt-join").click()
    try:
        expect(at(page, ".tr-status")).to_contain_text(f"you are {name}", timeout=TIMEOUT_MS)
    except AssertionError:
        pytest.fail(f"{name} did not get a seat: the page says "
                    f"{at(page, '.tr-message').inner_text()!r}")


def test_one_tournament_two_servers_and_a_server_that_stops_loses_nobody(
        two_servers: list[VoilaServer], learner_on: Callable[..., Page]) -> None:
    first, second = two_servers
    # the teacher's page and Ann's on the first server, Bo's on the second, opened together
    teacher, ann, bo = (learner_on(server, TOURNAMENT, None)
                        for server in (first, first, second))
    for page in (teacher, ann, bo):
        expect(page.locator(".tt-join")).to_be_visible(timeout=PAGE_TIMEOUT_MS)
    # the teacher starts the tournament: Ann and Bo, a bot to fill their table, 1 round
    teacher.locator(".tt-learners textarea").fill("Ann\nBo")
    teacher.locator(".tt-bots input").fill("1")
    teacher.locator(".tt-rounds input").fill("1")
    teacher.locator(".tt-rounds input").press("Tab")  # the value reaches the kernel
    teacher.locator(".tt-start").click()
    expect(teacher.locator(".tt-code")).to_contain_text("Tournament code", timeout=TIMEOUT_MS)
    code = teacher.locator(".tt-code b").inner_text().strip()
    keys = {}
    for name in ("Ann", "Bo"):
        key = key_of(teacher, name)
        expect(key).to_be_visible(timeout=TIMEOUT_MS)
        keys[name] = key.inner_text().strip()
    expect(teacher.locator(".tt-tables li")).to_have_count(1, timeout=TIMEOUT_MS)

    # Ann joins from the first server, Bo from the second
    join_tournament(ann, code, "Ann", keys["Ann"])
    join_tournament(bo, code, "Bo", keys["Bo"])
    bo_seat = seat_of(bo)
    names = {seat_of(ann): "Ann", bo_seat: "Bo"}
    each_plays_a_turn([ann, bo], names)  # each page shows the other's move

    # the second server stops: Bo's page has no kernel any more
    reached = move_number(bo)
    again = learner_on(first, TOURNAMENT, None)  # (its kernel starts while the other stops)
    stop_voila(second)
    # Bo's new page on the first server: the code and his key give his seat back
    expect(again.locator(".tt-join")).to_be_visible(timeout=PAGE_TIMEOUT_MS)
    join_tournament(again, code, "Bo", keys["Bo"])
    expect(at(again, ".tr-status")).to_contain_text(f"seat {bo_seat}")
    assert move_number(again) >= reached
    # nobody is away: Ann's page says nothing of Bo's (a bot may have played for him)
    expect(at(ann, ".tr-away")).not_to_contain_text("Bo", timeout=TIMEOUT_MS)
    # the table goes on: one more move by each, each seen on the other's page
    each_plays_a_turn([ann, again], names)

    # the teacher's page, on the first server all along, still follows the tournament
    table = teacher.locator(".tt-tables li")
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while True:
        shown = re.search(r"playing, move (\d+)", table.inner_text())
        if shown is not None and int(shown.group(1)) >= move_number(again):
            break
        assert time.monotonic() < deadline, table.inner_text()
        teacher.wait_for_timeout(200)
    expect(teacher.locator(".tt-status")).to_contain_text("Round 1 of 1")
    for name in ("Ann", "Bo"):
        expect(teacher.locator(".tt-sheet")).to_contain_text(name)
