"""One client cannot lock a class out (issue 27): visitors are named by the server, new names
are limited per address, a page that does not use its kernel gives it back, a page's
traffic is bounded, and the teacher is not capped like a learner.

One Voila of its own (`lockout_server`), configured like `make app` with small numbers so
that the tests need not wait: a class of 3 kernels, 2 per visitor, 2 new visitors at once
per address and 2 a minute, a page not in use absent after 4 s and given back under
pressure after 8 s, culled 6 s after it was last heard of or 15 s after it was sent. The
attacker (tests/browser/attacker.py) is a plain script with a new identity per page; the
learner is Chromium.
"""

from __future__ import annotations

import base64
import http.cookiejar
import re
import secrets
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
import websocket

from tests.browser.attacker import Attacker, ask_page, big_message, flood, kernel_info_request
from tests.browser.test_served import (
    TIMEOUT_MS,
    kernel_ids,
    page_kernel_id,
    shut_down,
    wait_until,
)
from tests.conftest import FIXTURE_NOTEBOOKS_DIR, RENDERED_JS, VoilaServer, start_voila, stop_voila

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

CLASS = 3
PER_VISITOR = 2
TEACHER_KEY = "the-teachers-key-" + "0" * 8
#: how long a learner may be kept out by the attacker before the test says it was locked out
LOCKOUT_BOUND_S = 90.0


@pytest.fixture(scope="module")
def lockout_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    log_path = tmp_path_factory.mktemp("voila") / "lockout.log"
    server = start_voila(
        FIXTURE_NOTEBOOKS_DIR, log_path,
        f"--ClassKernelManager.max_kernels={CLASS}",
        f"--ClassKernelManager.max_kernels_per_visitor={PER_VISITOR}",
        "--ClassKernelManager.max_kernels_per_teacher=0",
        f"--ClassKernelManager.teacher_key={TEACHER_KEY}",
        "--ClassKernelManager.new_visitors_burst=2",
        "--ClassKernelManager.new_visitors_per_minute=2",
        "--ClassKernelManager.absent_after=4",
        "--ClassKernelManager.pressed_after=8",
        "--ClassKernelManager.load_grace=6",
        "--ClassKernelManager.connect_within=15",
        "--ClassKernelManager.cull_idle_timeout=3",
        "--ClassKernelManager.cull_interval=1",
    )
    try:
        yield server
    finally:
        stop_voila(server)


@pytest.fixture(autouse=True)
def no_kernel_left(lockout_server: VoilaServer) -> Iterator[None]:
    yield
    for kernel_id in kernel_ids(lockout_server):
        shut_down(lockout_server, kernel_id)
    wait_until(lambda: not kernel_ids(lockout_server), "the test's kernels to shut down")


def learner_gets_a_page(page: Page, server: VoilaServer, bound: float) -> float:
    """A learner opens the page and, while it says the class is full, tries again every
    2 s (the page itself does every 60 s); seconds until it works (a click answered)."""
    started = time.monotonic()
    while True:
        response = page.goto(server.render_url("one_button.ipynb"), wait_until="commit",
                             timeout=TIMEOUT_MS)
        if response is not None and response.status == 200:
            state = page.wait_for_function(RENDERED_JS, timeout=TIMEOUT_MS).json_value()
            if state == "ready":
                try:  # a page whose kernel was taken meanwhile shows no button: again
                    page.get_by_role("button", name="Click me").click(timeout=20_000)
                    page.locator(".widget-html-content", has_text="clicked").wait_for(
                        timeout=20_000)
                    return time.monotonic() - started
                except Exception:  # noqa: BLE001 - its kernel was taken: try again
                    pass
        if time.monotonic() - started > bound:
            pytest.fail(f"the learner was locked out for more than {bound:.0f} s",
                        pytrace=False)
        page.wait_for_timeout(2000)


def test_a_made_up_cookie_is_not_honoured(lockout_server: VoilaServer) -> None:
    made_up = secrets.token_hex(16)

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    request = urllib.request.Request(lockout_server.render_url("one_button.ipynb"),
                                     headers={"Cookie": f"toonerville-visitor={made_up}"})
    try:
        with urllib.request.build_opener(NoRedirect()).open(request, timeout=120) as reply:
            status, cookies = reply.status, reply.headers.get_all("Set-Cookie") or []
    except urllib.error.HTTPError as error:
        status, cookies = error.code, error.headers.get_all("Set-Cookie") or []
    cookie = " ".join(c for c in cookies if c.startswith("toonerville-visitor="))
    # not served as a visitor of its own: sent to get a cookie the server made
    assert status == 302
    assert "toonerville-visitor=" in cookie and made_up not in cookie
    assert kernel_ids(lockout_server) == {}
    # pages asked for with a new made-up cookie each are one visitor (the address): they
    # hold that visitor's share, not the class
    statuses = [ask_page(lockout_server, "one_button.ipynb", "forged")[0] for _ in range(5)]
    assert statuses.count(200) >= 1
    assert len(kernel_ids(lockout_server)) <= PER_VISITOR


def test_a_cookie_the_server_signed_names_the_same_visitor_again(
    lockout_server: VoilaServer,
) -> None:
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    for _ in range(PER_VISITOR):
        with opener.open(lockout_server.render_url("one_button.ipynb"), timeout=120) as reply:
            assert reply.status == 200
    cookie = next(c.value for c in jar if c.name == "toonerville-visitor")
    assert re.fullmatch(r"[0-9a-f]{32}", cookie or "") is None  # signed, not a bare name
    # the same signed cookie: the same visitor, whose share is full (its pages are not in
    # use, so the next page takes back its own oldest one rather than being refused)
    with opener.open(lockout_server.render_url("one_button.ipynb"), timeout=120) as reply:
        assert reply.status == 200
    assert len(kernel_ids(lockout_server)) <= PER_VISITOR


@pytest.mark.parametrize("hold", ["websocket", "poll"])
def test_one_client_with_a_new_identity_per_page_does_not_lock_a_learner_out(
    lockout_server: VoilaServer, browser: Browser, hold: str
) -> None:
    attacker = Attacker(lockout_server, cookies="mixed", hold=hold, every=1.0).start()
    try:
        # the attack has had as many pages as the class holds (before issue 27 they filled
        # it and kept it full)
        wait_until(lambda: attacker.statuses.count(200) >= CLASS,
                   "the attacker to get a class's worth of pages")
        learner = browser.new_context().new_page()
        waited = learner_gets_a_page(learner, lockout_server, LOCKOUT_BOUND_S)
        print(f"learner locked out for {waited:.1f} s under a {hold} attack")
        # and the learner keeps the page while the attack goes on: it is in use
        kernel = page_kernel_id(learner)
        learner.wait_for_timeout(6000)
        assert kernel in kernel_ids(lockout_server)
        assert learner.locator(".tr-served-alert[data-kind=lost]").count() == 0
    finally:
        attacker.stop()
    assert attacker.statuses.count(200) >= CLASS  # the attack did get pages


def test_an_oversize_frame_is_refused_and_a_flood_is_cut_off(
    lockout_server: VoilaServer, browser: Browser
) -> None:
    status, kernel_id = ask_page(lockout_server, "one_button.ipynb", "fresh")
    assert status == 200 and kernel_id is not None
    base = lockout_server.base_url.replace("http://", "ws://")
    ws = websocket.create_connection(
        f"{base}/api/kernels/{kernel_id}/channels?session_id={uuid.uuid4().hex}", timeout=30)
    ws.settimeout(30)
    # the server closes the connection on the big message (as soon as it reads its
    # length): the question after it is never answered
    with pytest.raises((websocket.WebSocketConnectionClosedException, OSError)):
        ws.send(big_message(5 * 1024 * 1024))  # bigger than any page sends
        ws.send(kernel_info_request(uuid.uuid4().hex))
        while True:
            reply = ws.recv()
            assert '"kernel_info_reply"' not in reply, "the big message was let through"
            if not reply:
                raise websocket.WebSocketConnectionClosedException("closed")
    # frames under the size limit, sent as fast as the client can, get the connection
    # closed after a few megabytes (the client sends a few more before it notices)
    result = flood(lockout_server, kernel_id, 1024 * 1024, 5.0)
    assert result["closed"] >= 1
    assert result["frames"] <= 16 * result["closed"] + 16
    assert f"Closing a page's connection to kernel {kernel_id}" in lockout_server.log_tail(
        100_000)
    # another page is not hurt: it loads and answers
    learner = browser.new_context().new_page()
    learner_gets_a_page(learner, lockout_server, 60.0)


def test_the_teacher_opens_more_pages_than_a_learner(
    lockout_server: VoilaServer, browser: Browser
) -> None:
    teacher = browser.new_context()
    first = teacher.new_page()
    response = first.goto(lockout_server.render_url("one_button.ipynb", teacher=TEACHER_KEY),
                          wait_until="commit", timeout=TIMEOUT_MS)
    assert response is not None and response.status == 200
    assert "teacher=" not in first.url  # the key does not stay in the address bar
    assert first.wait_for_function(RENDERED_JS, timeout=TIMEOUT_MS).json_value() == "ready"
    first.get_by_role("button", name="Click me").click()
    pages = [first]
    for _ in range(CLASS - 1):  # more than a learner's share: the whole class
        page = teacher.new_page()
        response = page.goto(lockout_server.render_url("one_button.ipynb"),
                             wait_until="commit", timeout=TIMEOUT_MS)
        assert response is not None and response.status == 200
        assert page.wait_for_function(RENDERED_JS, timeout=TIMEOUT_MS).json_value() == "ready"
        page.get_by_role("button", name="Click me").click()
        pages.append(page)
    assert len(pages) > PER_VISITOR
    teacher.close()


def signed_name(context: BrowserContext) -> str:
    """The name the server signed into the browser's cookie (tornado's signed value:
    `2|1:0|<len>:<time>|<len>:<cookie name>|<len>:<base64 value>|<signature>`)."""
    value = next(c["value"] for c in context.cookies() if c["name"] == "toonerville-visitor")
    return base64.b64decode(value.strip('"').split("|")[4].split(":", 1)[1]).decode()


def test_a_wrong_teacher_key_makes_no_teacher(
    lockout_server: VoilaServer, browser: Browser
) -> None:
    context = browser.new_context()
    page = context.new_page()
    response = page.goto(lockout_server.render_url("one_button.ipynb", teacher="not-the-key"),
                         wait_until="commit", timeout=TIMEOUT_MS)
    assert response is not None and response.status == 200
    assert page.wait_for_function(RENDERED_JS, timeout=TIMEOUT_MS).json_value() == "ready"
    assert "teacher=" not in page.url
    assert signed_name(context)[:2] in ("n.", "l.")  # a new browser or a learner's
    right = browser.new_context()
    right.new_page().goto(lockout_server.render_url("one_button.ipynb", teacher=TEACHER_KEY),
                          wait_until="commit", timeout=TIMEOUT_MS)
    assert signed_name(right).startswith("t.")
    context.close()
    right.close()
