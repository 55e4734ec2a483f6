"""One table, two servers (issue 30): two Voila servers of the kit on one PostgreSQL store
(`TOONERVILLE_STORE=postgresql://…`, as a school runs several `make app`s or a hub's
per-class servers). A learner on each plays at one shared table of notebook 09: each
page shows the other's move. Then one server stops: its learner reopens 09 on the other
server with the table's code and their rejoin key and is back at their seat, at the
move the table had reached; nobody's game is lost.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
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
)
from tests.conftest import NOTEBOOKS_DIR, VoilaServer, start_voila, stop_voila
from tests.pgserver import postgres_url_fixture  # noqa: F401 - the fixture
from tests.storehelpers import raw_count

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser


@pytest.fixture
def two_servers(postgres_url: str, tmp_path_factory: pytest.TempPathFactory
                ) -> Iterator[list[VoilaServer]]:
    folder = tmp_path_factory.mktemp("two-servers")
    before = os.environ.get("TOONERVILLE_STORE")
    os.environ["TOONERVILLE_STORE"] = postgres_url  # voila_env() hands it to both servers
    servers: list[VoilaServer] = []
    try:
        for n in (1, 2):
            servers.append(start_voila(NOTEBOOKS_DIR, folder / f"voila-{n}.log"))
        yield servers
    finally:
        for server in servers:
            stop_voila(server)
        if before is None:
            os.environ.pop("TOONERVILLE_STORE", None)
        else:
            os.environ["TOONERVILLE_STORE"] = before


@pytest.fixture
def learner_on(browser: Browser) -> Iterator[Callable[[VoilaServer], Page]]:
    """Opens 09 on the given server, in a browser context of its own."""
    contexts = []

    def open_page(server: VoilaServer) -> Page:
        context = browser.new_context()
        contexts.append(context)
        page = context.new_page()
        page.goto(server.render_url(NOTEBOOK), wait_until="commit", timeout=TIMEOUT_MS)
        expect(at(page, ".tr-open")).to_be_visible(timeout=TIMEOUT_MS)
        return page

    yield open_page
    for context in contexts:
        context.close()


def move_number(page: Page) -> int:
    found = re.search(r"move (\d+)", at(page, ".tr-status").inner_text())
    assert found is not None, at(page, ".tr-status").inner_text()
    return int(found.group(1))


def test_one_table_two_servers_and_a_server_that_stops_loses_nobody(
        two_servers: list[VoilaServer], learner_on: Callable[[VoilaServer], Page],
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
