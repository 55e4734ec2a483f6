"""A hostile client of a served class, for tests/browser/test_lockout.py and
benchmarks/probe_lockout.py: one script that asks for page after page under a new identity
each time and holds every kernel it gets, to lock a class's learners out (issue 27).

`Attacker(server, cookies=..., hold=...)` runs in a thread of its own once started:

* `cookies`: "forged" sends a cookie it made up (32 hex digits, a new one per page) and
  follows the redirects with it, never keeping what the server sets; "fresh" keeps the
  server's cookie for one page only (a new cookie jar per page: a new browser each time);
  "mixed" alternates the two;
* `hold`: "websocket" opens the page's kernel websocket and keeps it open without a
  word; "poll" asks for the kernel over the REST API (`/api/kernels/<id>`) every
  `poll_every` seconds, as a loading page does; "speak" opens the websocket and sends one
  kernel_info request on it, as a page does when it connects.

Every page is held `hold_for` seconds; `stop()` lets them all go.
"""

from __future__ import annotations

import contextlib
import http.cookiejar
import json
import re
import secrets
import threading
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from typing import Any

import websocket

from tests.conftest import VoilaServer

KERNEL_ID = re.compile(r'"kernelId":\s*"([0-9a-f-]{36})"')


def ask_page(server: VoilaServer, name: str, cookies: str) -> tuple[int, str | None]:
    """One page request as the attacker makes it: (HTTP status, the page's kernel id)."""
    if cookies == "forged":
        opener = urllib.request.build_opener()
        headers = {"Cookie": f"toonerville-visitor={secrets.token_hex(16)}"}
    else:
        opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        headers = {}
    request = urllib.request.Request(server.render_url(name), headers=headers)
    try:
        with opener.open(request, timeout=180) as reply:
            found = KERNEL_ID.search(reply.read().decode("utf-8", "replace"))
            return int(reply.status), found.group(1) if found else None
    except urllib.error.HTTPError as error:
        return int(error.code), None
    except (urllib.error.URLError, OSError):
        return 0, None


def kernel_info_request(session: str) -> str:
    header = {"msg_id": uuid.uuid4().hex, "msg_type": "kernel_info_request",
              "session": session, "username": "attacker", "version": "5.3",
              "date": "2026-01-01T00:00:00Z"}
    return json.dumps({"header": header, "parent_header": {}, "metadata": {}, "content": {},
                       "channel": "shell", "buffers": []})


@dataclass
class Attacker:
    server: VoilaServer
    cookies: str = "mixed"
    hold: str = "websocket"
    name: str = "one_button.ipynb"
    every: float = 0.5
    hold_for: float = 300.0
    poll_every: float = 4.0
    statuses: list[int] = field(default_factory=list)
    kernels: list[str] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _threads: list[threading.Thread] = field(default_factory=list)

    def start(self) -> Attacker:
        thread = threading.Thread(target=self._run, daemon=True)
        thread.start()
        self._threads.append(thread)
        return self

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=30)

    def _run(self) -> None:
        count = 0
        while not self._stop.is_set():
            cookies = self.cookies
            if cookies == "mixed":
                cookies = ("forged", "fresh")[count % 2]
            count += 1
            status, kernel_id = ask_page(self.server, self.name, cookies)
            self.statuses.append(status)
            if kernel_id is not None:
                self.kernels.append(kernel_id)
                holder = threading.Thread(target=self._hold, args=(kernel_id,), daemon=True)
                holder.start()
                self._threads.append(holder)
            self._stop.wait(self.every)

    def _hold(self, kernel_id: str) -> None:
        until = time.monotonic() + self.hold_for
        if self.hold == "poll":
            url = f"{self.server.base_url}/api/kernels/{kernel_id}"
            while time.monotonic() < until and not self._stop.is_set():
                with contextlib.suppress(urllib.error.URLError, OSError):
                    urllib.request.urlopen(url, timeout=10).close()
                self._stop.wait(self.poll_every)
            return
        session = uuid.uuid4().hex
        base = self.server.base_url.replace("http://", "ws://")
        try:
            ws = websocket.create_connection(
                f"{base}/api/kernels/{kernel_id}/channels?session_id={session}", timeout=30)
        except Exception:  # noqa: BLE001 - a kernel given back already: nothing to hold
            return
        try:
            if self.hold == "speak":
                ws.send(kernel_info_request(session))
            ws.settimeout(1.0)
            while time.monotonic() < until and not self._stop.is_set():
                try:
                    ws.recv()  # read what the kernel says (and answer the server's pings)
                except websocket.WebSocketTimeoutException:
                    continue
                except Exception:  # noqa: BLE001 - the server closed it: the kernel is gone
                    return
        finally:
            with contextlib.suppress(Exception):
                ws.close()


def big_message(size: int) -> str:
    """A well-formed widget message of about `size` bytes (to a widget that is not there)."""
    header = {"msg_id": uuid.uuid4().hex, "msg_type": "comm_msg", "session": "flood",
              "username": "attacker", "version": "5.3", "date": "2026-01-01T00:00:00Z"}
    return json.dumps({"header": header, "parent_header": {}, "metadata": {},
                       "content": {"comm_id": "no-such-comm",
                                   "data": {"method": "update", "state": {"value": "x" * size}}},
                       "channel": "shell", "buffers": []})


def flood(server: VoilaServer, kernel_id: str, size: int, seconds: float) -> dict[str, Any]:
    """Send widget messages of `size` bytes to a kernel's websocket as fast as possible for
    `seconds`, opening a new connection whenever the server closes one: frames sent, bytes,
    and how often the server closed the connection."""
    base = server.base_url.replace("http://", "ws://")
    payload = big_message(size)
    sent = closed = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            ws = websocket.create_connection(
                f"{base}/api/kernels/{kernel_id}/channels?session_id={uuid.uuid4().hex}",
                timeout=30)
        except Exception:  # noqa: BLE001 - the kernel is gone
            break
        gone = threading.Event()

        def read(ws: Any = ws, gone: threading.Event = gone) -> None:
            try:
                while ws.recv():
                    pass
            except Exception:  # noqa: BLE001 - closed by the server (or by us)
                pass
            gone.set()

        threading.Thread(target=read, daemon=True).start()
        try:
            while time.monotonic() < deadline and not gone.is_set():
                ws.send(payload)
                sent += 1
        except Exception:  # noqa: BLE001 - the server closed the connection
            gone.set()
        if gone.is_set():
            closed += 1
        with contextlib.suppress(Exception):
            ws.close()
    return {"frames": sent, "bytes": sent * size, "closed": closed}
