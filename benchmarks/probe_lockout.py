"""Probe: can one client lock a class out, or slow every page down? (issue 27)

Each round starts a Voila the way `make app` does (tests/conftest.py's `start_voila`, on
the notebooks of tests/browser/fixtures/, a class of --cap kernels and 4 per browser, the
rest as voila.json says), once with this checkout and once with a baseline (--baseline, a
git commit, default the commit before issue 27's fix), interleaved, and prints the
figures and the load average.

    python benchmarks/probe_lockout.py lockout [--hold websocket|poll] [--rounds 1]
                                               [--cap 8] [--limit 420] [--baseline REF]
        one script (tests/browser/attacker.py) asks for a page every second under a new
        identity each time (made-up cookies and fresh cookie jars in turn) and holds every
        kernel it gets for 300 s, with its websocket open and silent (`websocket`) or
        polling /api/kernels/<id> every 4 s (`poll`). Once it has had --cap pages, a
        learner in Chromium opens the page, and presses F5 every 10 s while told the
        class is full, until the page works (a click answered): prints how long the
        learner was locked out (up to --limit s) and the kernels the attack held.

    python benchmarks/probe_lockout.py flood [--size 9000000] [--seconds 30] [--rounds 1]
        one page sends frames of --size bytes to its kernel as fast as it can for
        --seconds, reconnecting whenever the server closes it; meanwhile another page's
        kernel is asked for over REST every 0.2 s and a new page is loaded every 5 s:
        prints the frames sent, the connections the server closed, the median and 90th
        percentile of the other page's answers, and the new pages' load times (before the
        flood, during it).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import tests.conftest as conftest  # noqa: E402
from tests.browser.attacker import Attacker, ask_page, flood  # noqa: E402
from tests.browser.test_served import kernel_ids  # noqa: E402
from tests.conftest import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    FIXTURE_NOTEBOOKS_DIR,
    RENDERED_JS,
    VoilaServer,
    start_voila,
    stop_voila,
)

HERE = Path(__file__).resolve().parent.parent
#: the last commit before issue 27's fix (made-up cookies honoured, no traffic limits)
BEFORE = "c552e80"
NAME = "one_button.ipynb"


@contextlib.contextmanager
def checkout(ref: str | None) -> Iterator[Path]:
    """This checkout (ref None), or the served app's files of commit `ref` in a folder."""
    if ref is None:
        yield HERE
        return
    with tempfile.TemporaryDirectory(prefix="probe-lockout-") as folder:
        archive = subprocess.run(["git", "-C", str(HERE), "archive", ref, "toonerville",
                                  "share", "config", "voila.json"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
        yield Path(folder)


@contextlib.contextmanager
def served(repo: Path, cap: int, log: Path, *extra: str) -> Iterator[VoilaServer]:
    """A Voila of `repo`'s served app (conftest's `start_voila`, pointed at `repo`)."""
    saved = conftest.REPO_ROOT, conftest.VOILA_PY_CONFIG_DIR
    conftest.REPO_ROOT, conftest.VOILA_PY_CONFIG_DIR = repo, repo / "share" / "voila"
    os.environ["TOONERVILLE_PURE"] = "1"
    try:
        server = start_voila(FIXTURE_NOTEBOOKS_DIR, log,
                             f"--ClassKernelManager.max_kernels={cap}",
                             "--ClassKernelManager.max_kernels_per_visitor=4", *extra)
    finally:
        conftest.REPO_ROOT, conftest.VOILA_PY_CONFIG_DIR = saved
    try:
        yield server
    finally:
        stop_voila(server)


def learner_locked_out(server: VoilaServer, limit: float) -> float | None:
    """Seconds until a learner in Chromium has a working page (None: not within `limit`)."""
    from playwright.sync_api import sync_playwright

    started = time.monotonic()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_context().new_page()
        try:
            while time.monotonic() - started < limit:
                with contextlib.suppress(Exception):
                    response = page.goto(server.render_url(NAME), wait_until="commit",
                                         timeout=120_000)
                    if response is not None and response.status == 200 and page.wait_for_function(
                            RENDERED_JS, timeout=120_000).json_value() == "ready":
                        page.get_by_role("button", name="Click me").click(timeout=20_000)
                        page.locator(".widget-html-content", has_text="clicked").wait_for(
                            timeout=20_000)
                        return time.monotonic() - started
                page.wait_for_timeout(10_000)  # the learner presses F5 again
            return None
        finally:
            browser.close()


def probe_lockout(args: argparse.Namespace) -> None:
    print(f"lock-out of a learner under a one-client attack ({args.hold}), class of "
          f"{args.cap}, 4 per browser, limit {args.limit:.0f} s")
    with tempfile.TemporaryDirectory() as logs:
        for round_ in range(args.rounds):
            for label, ref in (("before", args.baseline), ("after", None)):
                with checkout(ref) as repo, served(
                        repo, args.cap, Path(logs) / f"{label}{round_}.log") as server:
                    attacker = Attacker(server, cookies="mixed", hold=args.hold,
                                        every=1.0).start()
                    started = time.monotonic()
                    most = 0
                    while attacker.statuses.count(200) < args.cap \
                            and time.monotonic() - started < 120:
                        most = max(most, len(kernel_ids(server)))
                        time.sleep(1)
                    held = len(kernel_ids(server))
                    waited = learner_locked_out(server, args.limit)
                    attacker.stop()
                    shown = f">{args.limit:.0f}" if waited is None else f"{waited:.1f}"
                    print(f"  round {round_} {label:6}: learner locked out {shown} s; the "
                          f"attack had {attacker.statuses.count(200)} pages, "
                          f"{attacker.statuses.count(503)} refusals, held {held} of "
                          f"{args.cap} kernels when the learner came; "
                          f"load average {os.getloadavg()}", flush=True)


def timed_get(url: str) -> float:
    started = time.perf_counter()
    with contextlib.suppress(Exception):
        urllib.request.urlopen(url, timeout=60).read()
    return time.perf_counter() - started


def watch(server: VoilaServer, kernel_id: str, stop: threading.Event,
          answers: list[float], loads: list[float]) -> None:
    """Another page's kernel over REST every 0.2 s; a new page every 5 s."""
    url = f"{server.base_url}/api/kernels/{kernel_id}"
    last_page = 0.0
    while not stop.is_set():
        answers.append(timed_get(url))
        if time.monotonic() - last_page > 5:
            last_page = time.monotonic()
            started = time.perf_counter()
            ask_page(server, NAME, "fresh")
            loads.append(time.perf_counter() - started)
        stop.wait(0.2)


def quantiles(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"median {statistics.median(ordered) * 1000:.0f} ms, 90% {p90 * 1000:.0f} ms"


def probe_flood(args: argparse.Namespace) -> None:
    print(f"flood: frames of {args.size} bytes for {args.seconds:.0f} s from one page")
    with tempfile.TemporaryDirectory() as logs:
        for round_ in range(args.rounds):
            for label, ref in (("before", args.baseline), ("after", None)):
                with checkout(ref) as repo, served(
                        repo, 0, Path(logs) / f"flood-{label}{round_}.log",
                        "--ClassKernelManager.new_visitors_burst=0") as server:
                    _status, flooded = ask_page(server, NAME, "fresh")
                    _status, other = ask_page(server, NAME, "fresh")
                    assert flooded and other, "the pages did not load"
                    results: dict[str, Any] = {}
                    for phase in ("quiet", "flood"):
                        answers: list[float] = []
                        loads: list[float] = []
                        stop = threading.Event()
                        watcher = threading.Thread(target=watch, args=(
                            server, other, stop, answers, loads), daemon=True)
                        watcher.start()
                        if phase == "flood":
                            results = flood(server, flooded, args.size, args.seconds)
                        else:
                            time.sleep(min(args.seconds, 15))
                        stop.set()
                        watcher.join(timeout=120)
                        print(f"  round {round_} {label:6} {phase:5}: other page "
                              f"{quantiles(answers)}; new pages "
                              f"{', '.join(f'{t:.1f}' for t in loads)} s", flush=True)
                    print(f"  round {round_} {label:6}: {results['frames']} frames "
                          f"({results['bytes'] / 1e6:.0f} MB) sent, the server closed "
                          f"{results['closed']} connections; load average "
                          f"{os.getloadavg()}", flush=True)
                    for kernel_id in kernel_ids(server):
                        with contextlib.suppress(Exception):
                            kill = urllib.request.Request(
                                f"{server.base_url}/api/kernels/{kernel_id}", method="DELETE")
                            urllib.request.urlopen(kill, timeout=10).close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("probe", choices=["lockout", "flood"])
    parser.add_argument("--hold", choices=["websocket", "poll", "speak"], default="websocket")
    parser.add_argument("--cap", type=int, default=8)
    parser.add_argument("--limit", type=float, default=420.0)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--size", type=int, default=9_000_000)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--baseline", default=BEFORE,
                        help="git commit to compare with (the code before the fix)")
    args = parser.parse_args()
    if args.probe == "lockout":
        probe_lockout(args)
    else:
        probe_flood(args)


if __name__ == "__main__":
    main()
