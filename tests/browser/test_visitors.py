"""No visitor can hold kernels they do not use (issue 18, item 2).

One Voila of its own (`visitor_server`), configured like `make app` with small numbers so
that the tests need not wait: a class of 3 kernels, 2 per visitor, a sent page that never
connected is absent after 2 s and culled 3 s after it was sent. Plain HTTP requests (no
browser: no cookie kept, no JavaScript, no websocket) play the careless or hostile visitor.
"""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from tests.browser.test_served import (
    TIMEOUT_MS,
    kernel_ids,
    kernel_known,
    open_rendered,
    page_kernel_id,
    shut_down,
    wait_until,
)
from tests.conftest import FIXTURE_NOTEBOOKS_DIR, RENDERED_JS, VoilaServer, start_voila, stop_voila

if TYPE_CHECKING:
    from playwright.sync_api import Browser

CLASS = 3
PER_VISITOR = 2
ABSENT_AFTER = 2.0


@pytest.fixture(scope="module")
def visitor_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    log_path = tmp_path_factory.mktemp("voila") / "visitors.log"
    server = start_voila(
        FIXTURE_NOTEBOOKS_DIR, log_path,
        f"--ClassKernelManager.max_kernels={CLASS}",
        f"--ClassKernelManager.max_kernels_per_visitor={PER_VISITOR}",
        f"--ClassKernelManager.absent_after={ABSENT_AFTER}",
        "--ClassKernelManager.load_grace=3",
        "--ClassKernelManager.cull_idle_timeout=3",
        "--ClassKernelManager.cull_interval=1",
    )
    try:
        yield server
    finally:
        stop_voila(server)


@pytest.fixture(autouse=True)
def no_kernel_left(visitor_server: VoilaServer) -> Iterator[None]:
    yield
    for kernel_id in kernel_ids(visitor_server):
        shut_down(visitor_server, kernel_id)
    wait_until(lambda: not kernel_ids(visitor_server), "the test's kernels to shut down")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def plain_request(server: VoilaServer, follow: bool) -> int:
    """A page request as `curl` makes it (`curl -L` with `follow`): no cookie is kept."""
    opener = (urllib.request.build_opener() if follow
              else urllib.request.build_opener(_NoRedirect()))
    try:
        with opener.open(server.render_url("one_button.ipynb"), timeout=120) as reply:
            reply.read()
            return int(reply.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def test_plain_page_requests_hold_no_kernel_and_do_not_lock_out_a_learner(
    visitor_server: VoilaServer, browser: Browser
) -> None:
    # twelve requests that follow no redirect start no kernel at all
    assert {plain_request(visitor_server, follow=False) for _ in range(12)} == {302}
    assert kernel_ids(visitor_server) == {}
    # twelve that follow it but keep no cookie are one visitor, their address: they get
    # pages, but hold at most their share of the class
    statuses = [plain_request(visitor_server, follow=True) for _ in range(12)]
    assert statuses == [200] * 12
    held = kernel_ids(visitor_server)
    assert 0 < len(held) <= PER_VISITOR
    # and they never connect, so they are absent: a learner gets in even when the class
    # is full of such pages
    context = browser.new_context()
    fillers = [context.new_page(), browser.new_context().new_page()]
    for filler in fillers[:CLASS - len(held)]:
        open_rendered(filler, visitor_server, "one_button.ipynb")
    time.sleep(ABSENT_AFTER + 0.5)  # the plain requests' pages are absent from now on
    learner = browser.new_context().new_page()
    response = learner.goto(visitor_server.render_url("one_button.ipynb"), wait_until="commit",
                            timeout=TIMEOUT_MS)
    assert response is not None and response.status == 200
    assert learner.wait_for_function(RENDERED_JS, timeout=TIMEOUT_MS).json_value() == "ready"
    learner.get_by_role("button", name="Click me").click()
    learner.locator(".widget-html-content", has_text="clicked").wait_for()
    # the plain requests' kernels are all given back; the learners' (connected) stay
    wait_until(lambda: not set(held) & set(kernel_ids(visitor_server)),
               "the plain requests' kernels to be given back")
    assert page_kernel_id(learner) in kernel_ids(visitor_server)
    for filler in fillers[:CLASS - len(held)]:
        assert page_kernel_id(filler) in kernel_ids(visitor_server)


def test_a_visitor_has_at_most_their_share_of_pages_and_is_told_so(
    visitor_server: VoilaServer, browser: Browser
) -> None:
    context = browser.new_context()  # one browser: one cookie
    pages = [context.new_page() for _ in range(PER_VISITOR)]
    for page in pages:
        open_rendered(page, visitor_server, "one_button.ipynb")
        page.get_by_role("button", name="Click me").click()  # connected and used
    extra = context.new_page()
    response = extra.goto(visitor_server.render_url("one_button.ipynb"), timeout=TIMEOUT_MS)
    assert response is not None and response.status == 503
    told = extra.locator(".tr-class-full")
    assert "Too many pages open in this browser" in told.inner_text()
    assert "Close one of them" in told.inner_text()
    # another learner is not refused: the class has room
    other = browser.new_context().new_page()
    open_rendered(other, visitor_server, "one_button.ipynb")
    # the first browser closes a tab and gets its page
    closed = page_kernel_id(pages[0])
    pages[0].close(run_before_unload=True)
    wait_until(lambda: not kernel_known(visitor_server, closed), "the closed tab's kernel to go")
    response = extra.goto(visitor_server.render_url("one_button.ipynb"), wait_until="commit",
                          timeout=TIMEOUT_MS)
    assert response is not None and response.status == 200
    assert extra.wait_for_function(RENDERED_JS, timeout=TIMEOUT_MS).json_value() == "ready"
    context.close()


def test_rapid_reloads_from_one_tab_leave_no_kernel_held(
    visitor_server: VoilaServer, browser: Browser
) -> None:
    context = browser.new_context()
    page = context.new_page()
    for _ in range(15):
        # a reload as impatient hands make it: the next one before the page has loaded
        page.goto(visitor_server.render_url("one_button.ipynb"), wait_until="commit",
                  timeout=TIMEOUT_MS)
        page.wait_for_timeout(300)
    # the reloads left at most the visitor's share (and one being shut down at the moment)
    assert len(kernel_ids(visitor_server)) <= PER_VISITOR + 1
    context.close()  # the browser closes without a word
    wait_until(lambda: not kernel_ids(visitor_server), "the reloads' kernels to be given back")
