"""What a learner costs the server, measured without browsers: N pages of 07 opened at once
over HTTP and the kernel's websocket, as a page talks to Voila.

Starts Voila as `make app` serves it (the repo's configuration, the class's kernel
manager; `--pool K` starts K kernels before the class arrives, as `make app POOL=K`),
then N clients, each in a thread with a cookie jar of its own (a browser), at the same
moment:

1. ask for 07's page and read it whole (Voila sends the page as the notebook runs: the
   page is complete when every cell has run);
2. connect to the page's kernel on its websocket and ask for the widgets' states, as the
   page's widget manager does: from the request to these states is the page's **time to
   usable**;
3. play: click "Draw from stock" and then the last card and "Discard" on the widget
   channel, each click timed until the kernel is idle again (the bots' turns included).

Printed: time to usable per page (p50, p95, max), click to answer (p50, max), pages that
failed, and what the class cost the server: CPU seconds and resident memory of the Voila
server and its kernels per learner (the CPU seconds do not depend on the machine's load,
the wall-clock times do), beside the load average before and after.

    python benchmarks/load_client.py 10 30 60
    python benchmarks/load_client.py 30 --pool 30
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import threading
import time
import urllib.request
import uuid
from dataclasses import dataclass, field
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import websocket

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_app import children, rss_mb  # noqa: E402 - the app benchmark's probes
from bench_class import cpu_s, spread  # noqa: E402 - the class benchmark's figures
from conftest import NOTEBOOKS_DIR, VoilaServer, start_voila, stop_voila  # noqa: E402

APP = "07-play-a-game.ipynb"


@dataclass
class PageResult:
    usable_s: float | None = None
    clicks_s: list[float] = field(default_factory=list)
    error: str | None = None


class Channel:
    """A page's side of its kernel's websocket (shell messages and their replies)."""

    def __init__(self, base_url: str, kernel_id: str, cookie: str, timeout: float) -> None:
        self.session = uuid.uuid4().hex
        self.timeout = timeout
        self.ws = websocket.create_connection(
            f"{base_url.replace('http://', 'ws://')}/api/kernels/{kernel_id}/channels"
            f"?session_id={self.session}", timeout=timeout, cookie=cookie)

    def send(self, msg_type: str, content: dict[str, Any],
             metadata: dict[str, Any] | None = None) -> str:
        header = {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "session": self.session,
                  "username": "learner", "version": "5.3", "date": "2026-01-01T00:00:00Z"}
        self.ws.send(json.dumps({"header": header, "parent_header": {},
                                 "metadata": metadata or {}, "content": content,
                                 "channel": "shell", "buffers": []}))
        return str(header["msg_id"])

    def until(self, found: Any) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            self.ws.settimeout(max(0.1, deadline - time.monotonic()))
            raw = self.ws.recv()
            message = json.loads(raw if isinstance(raw, str) else raw.decode())
            if found(message):
                return dict(message)
        raise TimeoutError("the kernel did not answer")

    def states(self) -> dict[str, Any]:
        """Every widget's state (comm id → state), as the page's widget manager asks."""
        control = uuid.uuid4().hex
        self.send("comm_open", {"comm_id": control, "target_name": "jupyter.widget.control",
                                "data": {}}, {"version": "1.0.0"})
        self.send("comm_msg", {"comm_id": control, "data": {"method": "request_states"}})
        reply = self.until(lambda m: m.get("msg_type") == "comm_msg" and m["content"].get(
            "data", {}).get("method") == "update_states")
        return dict(reply["content"]["data"]["states"])

    def click(self, comm_id: str) -> float:
        """Click a button; seconds until the kernel is idle after it."""
        start = time.monotonic()
        msg_id = self.send("comm_msg", {"comm_id": comm_id, "data": {
            "method": "custom", "content": {"event": "click"}}})
        self.until(lambda m: m.get("msg_type") == "status"
                   and m["content"].get("execution_state") == "idle"
                   and m.get("parent_header", {}).get("msg_id") == msg_id)
        return time.monotonic() - start

    def select(self, comm_id: str, state: dict[str, Any]) -> None:
        msg_id = self.send("comm_msg", {"comm_id": comm_id, "data": {
            "method": "update", "state": state, "buffer_paths": []}})
        self.until(lambda m: m.get("msg_type") == "status"
                   and m["content"].get("execution_state") == "idle"
                   and m.get("parent_header", {}).get("msg_id") == msg_id)

    def close(self) -> None:
        self.ws.close()


def buttons(states: dict[str, Any], description: str) -> list[str]:
    return [comm for comm, s in states.items() if s.get("model_name") == "ButtonModel"
            and s.get("state", {}).get("description", "").startswith(description)]


def one_page(server: VoilaServer, start: threading.Event, timeout: float) -> PageResult:
    result = PageResult()
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    start.wait()
    begin = time.monotonic()
    try:
        with opener.open(server.render_url(APP), timeout=timeout) as response:
            html = response.read().decode()
        kernel = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', html)
        if kernel is None:
            result.error = "no kernel in the page (the class is full?)"
            return result
        cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
        channel = Channel(server.base_url, kernel.group(1), cookie, timeout)
        try:
            states = channel.states()
            result.usable_s = time.monotonic() - begin
            draw = buttons(states, "Draw")
            if draw:
                result.clicks_s.append(channel.click(draw[0]))
                states = channel.states()
                discard = buttons(states, "Discard")
                cards = [comm for comm, s in states.items()
                         if "tv-card-button" in s.get("state", {}).get("_dom_classes", [])]
                if cards and discard:
                    channel.click(cards[-1])
                    result.clicks_s.append(channel.click(discard[0]))
        finally:
            channel.close()
    except Exception as error:  # a page that failed is counted, not fatal
        result.error = f"{type(error).__name__}: {error}"
    return result


def server_rss(server: VoilaServer) -> float:
    total = 0.0
    for pid in [server.process.pid, *children(server.process.pid)]:
        try:
            total += rss_mb(pid)
        except OSError:
            continue
    return total


def measure(n: int, pool: int, timeout: float) -> dict[str, Any]:
    log = REPO / "test-results" / "bench" / f"load-{n}-pool{pool}.log"
    server = start_voila(NOTEBOOKS_DIR, log, f"--ClassKernelManager.max_kernels={n + pool + 5}",
                         "--ClassKernelManager.max_kernels_per_visitor=0",
                         # every client is a new browser from one address: the door that
                         # limits new names per address is not what this measures
                         "--ClassKernelManager.new_visitors_burst=0",
                         f"--ClassKernelManager.pool_size={pool}")
    try:
        time.sleep(3 + (min(pool, 60) * 2.5 if pool else 0))  # the pool fills first
        idle_rss, idle_cpu = server_rss(server), cpu_s(server)
        load_before = os.getloadavg()
        start = threading.Event()
        results: list[PageResult] = [PageResult() for _ in range(n)]

        def run(i: int) -> None:
            results[i] = one_page(server, start, timeout)

        threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
        for thread in threads:
            thread.start()
        start.set()
        for thread in threads:
            thread.join()
        used_cpu, rss = cpu_s(server) - idle_cpu, server_rss(server)
        return {
            "n": n, "pool": pool, "load_before": load_before, "load_after": os.getloadavg(),
            "usable": [r.usable_s for r in results if r.usable_s is not None],
            "clicks": [c for r in results for c in r.clicks_s],
            "failed": [r.error for r in results if r.error],
            "cpu_s_per_learner": used_cpu / n,
            "mb_per_learner": (rss - idle_rss) / n, "server_idle_mb": idle_rss,
        }
    finally:
        stop_voila(server)


def report(r: dict[str, Any]) -> None:
    print(f"\n{r['n']} pages of 07 at once, pool {r['pool']} "
          f"(load average before {r['load_before'][0]:.2f}, after {r['load_after'][0]:.2f})")
    print(f"  time to usable   {spread(r['usable'])} s")
    print(f"  click to answer  {spread(r['clicks'])} s")
    print(f"  failed pages     {len(r['failed'])} {r['failed'][:3]}")
    print(f"  server cost      {r['cpu_s_per_learner']:.2f} CPU-s and "
          f"{r['mb_per_learner']:.0f} MB per learner (server idle: {r['server_idle_mb']:.0f} MB"
          f"{', pool included' if r['pool'] else ''})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, nargs="+", help="pages opened at once (one run each)")
    parser.add_argument("--pool", type=int, default=0, help="kernels started beforehand")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--json", action="store_true", help="print each run as JSON too")
    args = parser.parse_args()
    for n in args.n:
        result = measure(n, args.pool, args.timeout)
        report(result)
        if args.json:
            print(json.dumps(result))


if __name__ == "__main__":
    main()
