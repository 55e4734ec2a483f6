"""Probes of the served app as a careless or hostile visitor (issue 18, items 1 and 2).

Each probe starts its own Voila the way `make app` does (tests/conftest.py's
`start_voila`: this checkout's voila.json, share/voila, config/ and page template) on the
notebooks of tests/browser/fixtures/, prints its figures and the load average, and stops
the server.

    python benchmarks/probe_served.py tracebacks [N]
        N malformed widget messages (5 kinds in turn) sent over a raw websocket to one
        page's kernel; prints the frames the kernel sent back that carry a traceback or a
        server path (the page would receive them), and the frames in all.

    python benchmarks/probe_served.py hold [--cap 8] [--requests 12] [--limit 600]
                                           [--client plain|follow|session]
        --requests page requests with no browser (no JavaScript, no websocket) to a class
        capped at --cap kernels, then a new visitor (a client that keeps cookies) asks for
        the page every 5 s: prints the answers, the kernels left, and how long the class
        was locked (seconds from the last request until the visitor got a page), up to
        --limit. The requests are `plain` (curl: no cookie, no redirect followed),
        `follow` (curl -L: redirects followed, no cookie kept) or `session` (one cookie
        jar for all, as a script with a session).

    python benchmarks/probe_served.py reloads [N]
        one Chromium tab reloads the page N times (every 0.3 s, each before the last has
        loaded), then the browser closes without a word: prints the kernels still held
        0, 15, 30, 45, 60 and 75 s after it closed.
"""

from __future__ import annotations

import argparse
import contextlib
import http.cookiejar
import json
import os
import re
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.browser.test_served import kernel_ids  # noqa: E402
from tests.conftest import FIXTURE_NOTEBOOKS_DIR, VoilaServer, start_voila, stop_voila  # noqa: E402

LEAK_MARKERS = ("Traceback", "site-packages", 'File "', ".py\"", "/srv/secret",
                str(Path.home()), str(Path(__file__).resolve().parent.parent))


def browser_like() -> urllib.request.OpenerDirector:
    """An HTTP client that keeps cookies, as a browser does."""
    return urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))


def page(server: VoilaServer, name: str, opener: Any = None, timeout: float = 120) -> int:
    """Ask for a page; its HTTP status (the body is read to the end, as a page would be)."""
    open_url = (opener or browser_like()).open
    try:
        with open_url(server.render_url(name), timeout=timeout) as reply:
            reply.read()
            return int(reply.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def plain_request(server: VoilaServer, name: str) -> int:
    """A page request with no cookie kept and no redirect followed (curl without -L)."""
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None
    try:
        with urllib.request.build_opener(NoRedirect()).open(server.render_url(name),
                                                              timeout=120) as reply:
            reply.read()
            return int(reply.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def probe_tracebacks(count: int) -> None:
    import websocket

    with tempfile.TemporaryDirectory() as folder:
        server = start_voila(FIXTURE_NOTEBOOKS_DIR, Path(folder) / "voila.log")
        try:
            with browser_like().open(server.render_url("hardened.ipynb"), timeout=120) as r:
                html = r.read().decode()
            match = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', html)
            assert match, "the page names no kernel"
            session = uuid.uuid4().hex
            ws = websocket.create_connection(
                server.base_url.replace("http://", "ws://")
                + f"/api/kernels/{match.group(1)}/channels?session_id={session}", timeout=30)

            def send(msg_type: str, content: dict[str, Any], metadata: Any = None) -> str:
                header = {"msg_id": uuid.uuid4().hex, "msg_type": msg_type,
                          "session": session, "username": "visitor", "version": "5.3",
                          "date": "2026-01-01T00:00:00Z"}
                ws.send(json.dumps({"header": header, "parent_header": {},
                                    "metadata": metadata or {}, "content": content,
                                    "channel": "shell", "buffers": []}))
                return str(header["msg_id"])

            frames: list[str] = []

            def read_until(found: Any, quiet: float) -> None:
                """Read frames until `found` (then `quiet` s without a frame), or 120 s."""
                deadline = time.monotonic() + 120
                done = False
                while time.monotonic() < deadline:
                    ws.settimeout(quiet if done else 5)
                    try:
                        raw = ws.recv()
                    except websocket.WebSocketTimeoutException:
                        if done:
                            return
                        continue
                    text = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
                    frames.append(text)
                    with contextlib.suppress(json.JSONDecodeError):
                        done = done or found(json.loads(text))

            control = uuid.uuid4().hex
            send("comm_open", {"comm_id": control, "target_name": "jupyter.widget.control",
                               "data": {}}, {"version": "1.0.0"})
            send("comm_msg", {"comm_id": control, "data": {"method": "request_states"}})
            states: dict[str, Any] = {}

            def got_states(m: dict[str, Any]) -> bool:
                data = m.get("content", {}).get("data", {})
                if isinstance(data, dict) and data.get("method") == "update_states":
                    states.update(data["states"])
                    return True
                return False

            read_until(got_states, 1.0)
            ids = {s["model_name"]: cid for cid, s in states.items()}
            malformed = [
                (ids["IntSliderModel"], {"method": "update", "state": {"value": {"x": 1}},
                                         "buffer_paths": []}),
                (ids["IntSliderModel"], {"method": "update", "state": [1, 2],
                                         "buffer_paths": []}),
                (ids["TextModel"], {"method": "no-such-method"}),
                ("no-such-comm", {"method": "update", "state": {}}),
                (ids["ButtonModel"], {"method": "custom", "content": {"event": "click"}}),
            ]
            frames.clear()
            last = ""
            for i in range(count):
                comm_id, data = malformed[i % len(malformed)]
                last = send("comm_msg", {"comm_id": comm_id, "data": data})
            read_until(lambda m: m.get("msg_type") == "status"
                       and m["content"].get("execution_state") == "idle"
                       and m.get("parent_header", {}).get("msg_id") == last, 3.0)
            ws.close()
            leaking = [f for f in frames if any(mark in f for mark in LEAK_MARKERS)]
            print(f"{count} malformed widget messages: {len(leaking)} of {len(frames)} frames "
                  f"sent back carry a traceback or a server path")
            for text in leaking[:2]:
                print("  e.g.", text[-300:].replace("\n", " "))
        finally:
            stop_voila(server)
    print(f"load average: {os.getloadavg()}")


def request_as(client: str, server: VoilaServer, name: str, session: Any) -> int:
    if client == "plain":
        return plain_request(server, name)
    if client == "follow":
        return page(server, name, urllib.request.build_opener())
    return page(server, name, session)


def probe_hold(cap: int, requests: int, limit: float, client: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        server = start_voila(FIXTURE_NOTEBOOKS_DIR, Path(folder) / "voila.log",
                             f"--ClassKernelManager.max_kernels={cap}")
        try:
            session = browser_like()
            statuses = [request_as(client, server, "one_button.ipynb", session)
                        for _ in range(requests)]
            last = time.monotonic()
            print(f"{requests} {client} page requests answered {statuses}; "
                  f"{len(kernel_ids(server))} kernels running")
            visitor = browser_like()
            tries = 0
            while True:
                tries += 1
                status = page(server, "one_button.ipynb", visitor)
                waited = time.monotonic() - last
                if status == 200:
                    print(f"a new visitor got the page {waited:.0f} s "
                          f"({waited / 60:.1f} min) after the last request "
                          f"({tries} tries)")
                    break
                if waited > limit:
                    print(f"a new visitor was still refused (HTTP {status}) {waited:.0f} s "
                          f"({waited / 60:.1f} min) after the last request")
                    break
                time.sleep(5)
            # the visitor's own kernel stays (its page never connects either: a probe)
            while len(kernel_ids(server)) > 1 and time.monotonic() - last < limit:
                time.sleep(1)
            print(f"{len(kernel_ids(server))} kernel(s) left "
                  f"{time.monotonic() - last:.0f} s after the last request")
        finally:
            stop_voila(server)
    print(f"load average: {os.getloadavg()}")


def probe_reloads(count: int) -> None:
    from playwright.sync_api import sync_playwright

    from tests.conftest import CHROMIUM, CHROMIUM_ARGS

    with tempfile.TemporaryDirectory() as folder:
        server = start_voila(FIXTURE_NOTEBOOKS_DIR, Path(folder) / "voila.log")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                                     args=CHROMIUM_ARGS)
                page = browser.new_page()
                for _ in range(count):
                    page.goto(server.render_url("one_button.ipynb"), wait_until="commit",
                              timeout=120_000)
                    page.wait_for_timeout(300)
                held = len(kernel_ids(server))
                browser.close()
            closed = time.monotonic()
            counts = [f"while open {held}"]
            for mark in (0, 15, 30, 45, 60, 75):
                time.sleep(max(0.0, closed + mark - time.monotonic()))
                counts.append(f"{mark} s: {len(kernel_ids(server))}")
            print(f"{count} rapid reloads from one tab, kernels held after the browser "
                  f"closed: " + ", ".join(counts))
        finally:
            stop_voila(server)
    print(f"load average: {os.getloadavg()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="probe", required=True)
    tb = sub.add_parser("tracebacks")
    tb.add_argument("count", nargs="?", type=int, default=500)
    hold = sub.add_parser("hold")
    hold.add_argument("--cap", type=int, default=8)
    hold.add_argument("--requests", type=int, default=12)
    hold.add_argument("--limit", type=float, default=600.0)
    hold.add_argument("--client", choices=("plain", "follow", "session"), default="plain")
    reloads = sub.add_parser("reloads")
    reloads.add_argument("count", nargs="?", type=int, default=60)
    args = parser.parse_args()
    if args.probe == "tracebacks":
        probe_tracebacks(args.count)
    elif args.probe == "reloads":
        probe_reloads(args.count)
    else:
        probe_hold(args.cap, args.requests, args.limit, args.client)


if __name__ == "__main__":
    main()
