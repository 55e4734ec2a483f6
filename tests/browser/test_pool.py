"""Pages ready at once: kernels started before the class arrives, handed out as pages open
(`ClassKernelManager.pool_size`, `make app POOL=…`; toonerville/serving/pool.py).

A pool kernel is started before its page's request exists, so the page's language and
parameters must reach it when it is handed out: a page opened with `?lang=de` from a pool
kernel speaks German in its prose (translated before the kernel is asked for) and in its
widgets (which read the page's address in the kernel).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.browser.test_served import kernel_ids, page_kernel_id
from tests.conftest import NOTEBOOKS_DIR, VoilaServer, start_voila, stop_voila

if TYPE_CHECKING:
    from tests.conftest import OpenNotebook

POOL = 2


@pytest.fixture(scope="module")
def pool_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    log = tmp_path_factory.mktemp("pool") / "voila.log"
    server = start_voila(NOTEBOOKS_DIR, log, f"--ClassKernelManager.pool_size={POOL}",
                         "--ClassKernelManager.pool_fill_delay=0.5")
    try:
        yield server
    finally:
        stop_voila(server)


def wait_for_kernels(server: VoilaServer, count: int, timeout: float = 180.0
                     ) -> dict[str, int]:
    """The server's kernel processes (id → pid) once there are `count` of them."""
    deadline = time.monotonic() + timeout
    while True:
        found = kernel_ids(server)
        if len(found) >= count:
            return found
        if time.monotonic() > deadline:
            pytest.fail(f"{len(found)} of {count} kernels started:\n{server.log_tail()}",
                        pytrace=False)
        time.sleep(0.5)


@pytest.fixture
def open_pooled(page: object, pool_server: VoilaServer) -> Iterator[OpenNotebook]:
    from tests.conftest import _opener  # noqa: PLC0415 - the shared page opener

    yield _opener(pool_server, page)  # type: ignore[arg-type]


def test_pool_kernels_wait_before_any_page_and_a_page_gets_one_with_its_language(
        pool_server: VoilaServer, open_pooled: OpenNotebook) -> None:
    pids = wait_for_kernels(pool_server, POOL)
    before = set(pids)
    assert len(before) == POOL  # started with the server, before anybody asked
    for pid in pids.values():  # each started as a page's kernel: hardened from its start
        environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        assert any(item.startswith(b"VOILA_BASE_URL=") for item in environ)
    voila = open_pooled("02-runs-and-sets.ipynb", lang="de")
    page = voila.page
    assert "Reihen und Sätze" in page.inner_text("h1")  # the prose, translated
    # the widgets read the page's address in the kernel: their language is the page's
    select = page.locator("select").first
    assert select.evaluate("el => el.selectedOptions[0].text") == "Deutsch"
    assert "Kartengröße" in page.inner_text("body")
    # the page's kernel is one the pool had started before the page was asked for
    assert page_kernel_id(page) in before, (page_kernel_id(page), before)
    # and the pool fills again behind it, up to its size
    after = wait_for_kernels(pool_server, POOL + 1)
    assert before < set(after)

