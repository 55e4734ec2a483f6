"""The served app for a class: a kernel cap with a "class is full" page, a page that says when
its kernel is gone, closed pages' kernels released, and nothing of the server sent to a page.

One Voila of its own (`class_server`), configured like `make app` but with a cap of one
live kernel and culling after a few seconds, serves the notebooks in `fixtures/`. Each
test ends with no kernel left (`no_kernel_left`), so the next one finds the class empty.
The widget-channel tests talk to a kernel as a page does, over a raw websocket.
"""

from __future__ import annotations

import json
import os
import re
import signal
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import websocket

from tests.conftest import (
    FIXTURE_NOTEBOOKS_DIR,
    RENDERED_JS,
    VoilaServer,
    start_voila,
    stop_voila,
)
from toonerville.widgets.safety import MAX_TEXT

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

TIMEOUT_MS = 60_000
KERNEL_FILE = re.compile(r"kernel-([0-9a-f-]{36})\.json")


@pytest.fixture(scope="module")
def class_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    log_path = tmp_path_factory.mktemp("voila") / "class.log"
    server = start_voila(
        FIXTURE_NOTEBOOKS_DIR, log_path,
        "--ClassKernelManager.max_kernels=1",
        "--ClassKernelManager.cull_idle_timeout=3",
        "--ClassKernelManager.cull_interval=1",
    )
    try:
        yield server
    finally:
        stop_voila(server)


@pytest.fixture(autouse=True)
def no_kernel_left(class_server: VoilaServer) -> Iterator[None]:
    yield
    for kernel_id in kernel_ids(class_server):
        shut_down(class_server, kernel_id)
    wait_until(lambda: not kernel_ids(class_server), "the test's kernels to shut down")


# ------------------------------------------------------------------------------ helpers


def kernel_ids(server: VoilaServer) -> dict[str, int]:
    """Kernel id → pid of every kernel process the server started (from /proc)."""
    parents: dict[int, int] = {}
    commands: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        commands[int(entry.name)] = command
    found: dict[str, int] = {}
    for pid, command in commands.items():
        parent = parents.get(pid)
        while parent not in (None, 0, 1, server.process.pid):
            parent = parents.get(parent)  # type: ignore[arg-type]
        match = KERNEL_FILE.search(command)
        if parent == server.process.pid and match and "ipykernel" in command:
            found[match.group(1)] = pid
    return found


def kernel_known(server: VoilaServer, kernel_id: str) -> bool:
    try:
        with urllib.request.urlopen(f"{server.base_url}/api/kernels/{kernel_id}", timeout=10):
            return True
    except urllib.error.HTTPError as error:
        if error.code == 404:
            return False
        raise


def shut_down(server: VoilaServer, kernel_id: str) -> None:
    """What a closing page's beacon does: POST with the same _xsrf in cookie and form."""
    request = urllib.request.Request(
        f"{server.base_url}/voila/api/shutdown/{kernel_id}", data=b"_xsrf=0123abcd",
        headers={"Cookie": "_xsrf=0123abcd",
                 "Content-Type": "application/x-www-form-urlencoded"}, method="POST")
    try:
        urllib.request.urlopen(request, timeout=30).close()
    except urllib.error.HTTPError as error:
        if error.code != 404:  # already gone
            raise


def wait_until(condition: Any, what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"waited {timeout:.0f} s for {what}", pytrace=False)
        time.sleep(0.2)


def page_kernel_id(page: Page) -> str:
    config = json.loads(page.locator("#jupyter-config-data").text_content() or "{}")
    return str(config["kernelId"])


def open_rendered(page: Page, server: VoilaServer, name: str) -> None:
    page.goto(server.render_url(name), wait_until="commit", timeout=TIMEOUT_MS)
    assert page.wait_for_function(RENDERED_JS, timeout=TIMEOUT_MS).json_value() == "ready"


# ---------------------------------------------------------------------- the class is full


def test_a_full_class_gets_a_class_is_full_page_and_gets_in_once_a_seat_frees(
    class_server: VoilaServer, browser: Browser
) -> None:
    first = browser.new_page()
    open_rendered(first, class_server, "one_button.ipynb")
    kernel = page_kernel_id(first)

    second = browser.new_page()
    response = second.goto(class_server.render_url("one_button.ipynb"), timeout=TIMEOUT_MS)
    assert response is not None and response.status == 503
    full = second.locator(".tr-class-full")
    assert "The class is full" in full.inner_text()
    assert "Try again in a minute" in full.inner_text()
    assert second.locator("#jupyter-config-data").count() == 0  # no kernel, no game

    # the first learner closes their tab (the browser sends the shutdown beacon)
    first.close(run_before_unload=True)
    wait_until(lambda: not kernel_known(class_server, kernel), "the closed tab's kernel to go")
    second.reload(wait_until="commit")
    assert second.wait_for_function(RENDERED_JS, timeout=TIMEOUT_MS).json_value() == "ready"
    second.get_by_role("button", name="Click me").wait_for()
    second.close()


# ---------------------------------------------------------------- a closed tab's kernel


def test_a_closed_tab_releases_its_kernel_through_its_beacon(
    class_server: VoilaServer, page: Page
) -> None:
    open_rendered(page, class_server, "one_button.ipynb")
    kernel = page_kernel_id(page)
    assert kernel in kernel_ids(class_server)
    page.close(run_before_unload=True)  # as a browser closes a tab: beforeunload runs
    wait_until(lambda: not kernel_known(class_server, kernel), "the beacon to shut the kernel")
    wait_until(lambda: kernel not in kernel_ids(class_server), "the kernel process to end")


def test_a_tab_gone_without_a_word_has_its_kernel_culled(
    class_server: VoilaServer, browser: Browser
) -> None:
    context = browser.new_context()
    page = context.new_page()
    open_rendered(page, class_server, "one_button.ipynb")
    kernel = page_kernel_id(page)
    page.get_by_role("button", name="Click me").click()  # connected and used
    page.locator(".widget-html-content", has_text="clicked").wait_for()
    context.close()  # no beforeunload: a crashed browser, a laptop shut
    wait_until(lambda: not kernel_known(class_server, kernel), "culling to release the kernel")


def test_served_kernels_talk_over_local_sockets_so_two_starting_kernels_never_share_a_port(
    class_server: VoilaServer, page: Page
) -> None:
    """With TCP, the server picks five free ports per kernel and the kernel binds them a
    moment later; under a class's rush (or two servers on one machine) another process
    can take one in between, and that page never loads ("Address already in use",
    "Kernel died before replying to kernel_info"). voila.json makes the kernels use
    local socket files instead, which no other process can take."""
    open_rendered(page, class_server, "one_button.ipynb")
    kernel = page_kernel_id(page)
    pid = kernel_ids(class_server)[kernel]
    arguments = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    connection_file = Path(arguments[arguments.index(b"-f") + 1].decode())
    connection = json.loads(connection_file.read_text())
    assert connection["transport"] == "ipc"
    for channel in ("shell", "iopub", "stdin", "control", "hb"):
        assert Path(f"{connection['ip']}-{connection[channel + '_port']}").is_socket()


# ------------------------------------------------------------------- a dead kernel is told


def watching(page: Page) -> None:
    """Until the page watches its kernel, which it starts up to half a second after the
    widgets connect: these tests kill the kernel of a page that is watching it."""
    page.locator("body[data-tr-watching=kernel]").wait_for(state="attached",
                                                          timeout=TIMEOUT_MS)


def test_a_learner_whose_kernel_died_is_told_so_on_the_page(
    class_server: VoilaServer, page: Page
) -> None:
    open_rendered(page, class_server, "one_button.ipynb")
    page.get_by_role("button", name="Click me").click()
    page.locator(".widget-html-content", has_text="clicked").wait_for()
    alert = page.locator(".tr-served-alert")
    assert alert.count() == 0
    kernel = page_kernel_id(page)
    watching(page)
    os.kill(kernel_ids(class_server)[kernel], signal.SIGKILL)

    alert.wait_for(state="visible", timeout=TIMEOUT_MS)
    assert alert.get_attribute("data-kind") == "lost"
    assert alert.get_attribute("role") == "alert"
    assert "This page has lost its game." in alert.inner_text()
    assert "Reload the page" in alert.inner_text()
    alert.get_by_role("button", name="Reload the page").wait_for()


# Every state the served alert takes, kept in the tab's sessionStorage so that the page's own
# reload does not lose it: the test reads the whole sequence at the end instead of racing a
# countdown of a few seconds (a slow test process once read the alert only after the reload,
# and found the second state where it looked for the first).
ALERT_RECORDER_JS = """
(() => {
  const key = 'test-served-alerts';
  let last = '';
  new MutationObserver(() => {
    const box = document.querySelector('.tr-served-alert');
    if (!box) return;
    const seen = JSON.stringify([box.dataset.kind || '', box.textContent]);
    if (seen === last) return;
    last = seen;
    const log = JSON.parse(sessionStorage.getItem(key) || '[]');
    log.push(JSON.parse(seen));
    sessionStorage.setItem(key, JSON.stringify(log));
  }).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
})();
"""


def test_a_page_that_did_not_finish_loading_retries_once_then_says_what_to_do(
    class_server: VoilaServer, page: Page
) -> None:
    page.add_init_script(ALERT_RECORDER_JS)
    page.goto(class_server.render_url("fails_to_load.ipynb"), wait_until="commit")
    alert = page.locator(".tr-served-alert")
    # the page reloads by itself once; the second failure tells the learner what to do
    alert.and_(page.locator("[data-kind=failed]")).wait_for(timeout=TIMEOUT_MS)
    assert "did not finish loading" in alert.inner_text()
    assert "press F5" in alert.inner_text()
    # and it stays said: a page that judged itself twice once painted its countdown over the
    # failure a second later and reloaded itself for ever (the countdown ticks every second)
    page.wait_for_timeout(2500)
    states: list[list[str]] = json.loads(
        page.evaluate("() => sessionStorage.getItem('test-served-alerts') || '[]'"))
    kinds = [kind for kind, _ in states]
    assert kinds.count("failed") == 1 and kinds[-1] == "failed", states
    retrying = [text for kind, text in states if kind == "retrying"]
    assert retrying and all("trying again" in text for text in retrying), states
    # one countdown, to the end, before the one reload
    seconds = [int(re.findall(r"\d+", text)[-1]) for text in retrying]
    assert seconds == list(range(5, -1, -1)), states


# --------------------------------------------------------------- nothing of the server


class KernelSocket:
    """A page's side of the widget channel, spoken over a raw websocket."""

    def __init__(self, server: VoilaServer, kernel_id: str) -> None:
        url = server.base_url.replace("http://", "ws://")
        self.session = uuid.uuid4().hex
        self.ws = websocket.create_connection(
            f"{url}/api/kernels/{kernel_id}/channels?session_id={self.session}", timeout=30)
        self.received: list[str] = []

    def send(self, msg_type: str, content: dict[str, Any],
             metadata: dict[str, Any] | None = None) -> str:
        """Send one shell message; its id."""
        header = {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "session": self.session,
                  "username": "visitor", "version": "5.3", "date": "2026-01-01T00:00:00Z"}
        self.ws.send(json.dumps({"header": header, "parent_header": {}, "metadata": metadata or {},
                                 "content": content, "channel": "shell", "buffers": []}))
        return str(header["msg_id"])

    def comm_msg(self, comm_id: str, data: dict[str, Any]) -> str:
        return self.send("comm_msg", {"comm_id": comm_id, "data": data})

    def until_idle(self, msg_id: str) -> None:
        """Read replies until the kernel is done with message `msg_id`: its "idle" status
        comes after every output of that message (and of those sent before it)."""
        self.until(lambda m: m.get("msg_type") == "status"
                   and m["content"].get("execution_state") == "idle"
                   and m.get("parent_header", {}).get("msg_id") == msg_id)

    def until(self, found: Any, timeout: float = 30.0) -> dict[str, Any]:
        """Read replies until `found(message)`; every reply is kept in `received`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.ws.settimeout(max(0.1, deadline - time.monotonic()))
            try:
                raw = self.ws.recv()
            except websocket.WebSocketTimeoutException:
                break
            text = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
            self.received.append(text)
            try:
                message = json.loads(text)
            except json.JSONDecodeError:
                continue
            if found(message):
                return dict(message)
        pytest.fail("the kernel did not send the expected reply", pytrace=False)

    def drain(self, quiet: float = 2.0) -> None:
        """Read (and keep) replies until none has come for `quiet` seconds: a kernel's
        stderr streams are sent from a thread of their own, after the message's "idle"."""
        while True:
            self.ws.settimeout(quiet)
            try:
                raw = self.ws.recv()
            except websocket.WebSocketTimeoutException:
                return
            self.received.append(raw if isinstance(raw, str) else raw.decode("utf-8", "replace"))

    def widget_ids(self) -> dict[str, str]:
        """Model name → comm id of the kernel's widgets (ipywidgets' control channel)."""
        control = uuid.uuid4().hex
        self.send("comm_open", {"comm_id": control, "target_name": "jupyter.widget.control",
                                "data": {}}, {"version": "1.0.0"})
        self.comm_msg(control, {"method": "request_states"})
        reply = self.until(lambda m: m.get("msg_type") == "comm_msg" and m["content"].get(
            "data", {}).get("method") == "update_states")
        states = reply["content"]["data"]["states"]
        return {state["model_name"]: comm_id for comm_id, state in states.items()}

    def close(self) -> None:
        self.ws.close()


@pytest.fixture
def kernel_socket(class_server: VoilaServer) -> Iterator[KernelSocket]:
    with urllib.request.urlopen(class_server.render_url("hardened.ipynb"), timeout=120) as r:
        html = r.read().decode()
    kernel = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', html)
    assert kernel, "the page names its kernel"
    socket = KernelSocket(class_server, kernel.group(1))
    try:
        yield socket
    finally:
        socket.close()


def leaks(received: list[str]) -> list[str]:
    """Replies that carry a traceback or a path of the server."""
    markers = ("Traceback", "site-packages", str(Path.home()), "/srv/secret", ".py\"",
               "File \"", str(FIXTURE_NOTEBOOKS_DIR.parent.parent.parent))
    return [text[:300] for text in received if any(marker in text for marker in markers)]


def test_a_malformed_widget_message_sends_no_traceback_or_path_to_the_page(
    class_server: VoilaServer, kernel_socket: KernelSocket,
) -> None:
    ids = kernel_socket.widget_ids()
    click = ""
    for _ in range(20):
        # a value the trait refuses, a state that is not a mapping, an unknown method
        kernel_socket.comm_msg(ids["IntSliderModel"], {"method": "update",
                                                      "state": {"value": {"not": "a number"}},
                                                      "buffer_paths": []})
        kernel_socket.comm_msg(ids["IntSliderModel"], {"method": "update", "state": [1, 2],
                                                      "buffer_paths": []})
        kernel_socket.comm_msg(ids["TextModel"], {"method": "no-such-method"})
        kernel_socket.comm_msg("no-such-comm", {"method": "update", "state": {}})
        # a callback of the notebook that fails with a path in its message
        click = kernel_socket.comm_msg(ids["ButtonModel"], {"method": "custom",
                                                           "content": {"event": "click"}})
    kernel_socket.until_idle(click)  # every answer to all of the above has arrived
    kernel_socket.drain()  # and the streams sent after them (the kernel's stderr)
    # the kernel did answer the bad messages (with errors of its own words), not nothing
    errors = [t for t in kernel_socket.received if '"msg_type": "error"' in t]
    assert errors, "the kernel answered none of the malformed messages"
    assert leaks(kernel_socket.received) == []
    # the teacher finds them in the server's own log
    wait_until(lambda: "/srv/secret/notes.txt" in class_server.log_tail(100_000),
               "the traceback in the server's log")
    assert "Traceback" in class_server.log_tail(100_000)


def test_a_pasted_book_is_cut_to_max_text_before_the_notebook_sees_it(
    kernel_socket: KernelSocket,
) -> None:
    ids = kernel_socket.widget_ids()
    kernel_socket.comm_msg(ids["TextModel"], {"method": "update",
                                             "state": {"value": "x" * 100_000},
                                             "buffer_paths": []})
    reply = kernel_socket.until(lambda m: m.get("msg_type") == "comm_msg"
                                and m["content"].get("comm_id") == ids["HTMLModel"])
    assert reply["content"]["data"]["state"]["value"] == str(MAX_TEXT)


def test_a_learner_at_a_shared_table_whose_kernel_died_is_given_the_way_back(
    voila_server: VoilaServer, page: Page
) -> None:
    page.goto(voila_server.render_url("09-classroom.ipynb"), wait_until="commit",
              timeout=TIMEOUT_MS)
    page.locator(".tr-open").wait_for(timeout=TIMEOUT_MS)
    page.locator(".tr-open").click()
    page.locator(".tr-table-code b").wait_for(timeout=TIMEOUT_MS)
    code = page.locator(".tr-table-code b").inner_text().strip()
    key = page.locator(".tr-rejoin-key code").inner_text().strip()
    watching(page)
    os.kill(kernel_ids(voila_server)[page_kernel_id(page)], signal.SIGKILL)

    alert = page.locator(".tr-served-alert[data-kind=lost]")
    alert.wait_for(timeout=TIMEOUT_MS)
    assert f"join table {code} again with your rejoin key {key}" in alert.inner_text()
    # the way back: reload, and join with the code and key the message gave
    with page.expect_navigation(wait_until="commit", timeout=TIMEOUT_MS):
        alert.get_by_role("button", name="Reload the page").click()
    page.locator(".tr-open").wait_for(timeout=TIMEOUT_MS)
    page.locator(".tr-code input").fill(code)
    page.locator(".tr-key input").fill(key)
    page.locator(".tr-join").click()
    page.locator(".tr-message", has_text="back at seat 0").wait_for(timeout=TIMEOUT_MS)
    assert code in page.locator(".tr-table-code").inner_text()
