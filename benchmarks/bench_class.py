"""A class arriving at once: N Chromium pages open the play app (07) on one Voila.

Starts Voila as `make app` serves it (the repo's `voila.json` and `share/voila/`, its
kernel cap, culling and page template) and drives Debian's Chromium with Playwright's
async API, one browser context per learner (`--own-browsers`: one Chromium process per
learner), to measure:

1. time to the first usable widget of each page: from its request to 07's "Draw from
   stock" button visible and enabled (a page that retried by itself counts from its
   first request), p50 / p95 / max; pages that never got there (a "did not finish
   loading" or "class is full" page, or nothing within --timeout) are counted apart;
2. click to updated hand under load: every usable page clicks Draw, then Discard, all at
   the same moment (the bots' turns are inside the Discard figure), p50 / p95 / max;
3. total memory: the RSS of the Voila server plus every process under it (the kernels),
   with all pages open, and the number of kernels; and the CPU seconds they used to open
   every page (the server's cost of a learner, which the load of the machine does not
   inflate, unlike the wall-clock times), beside the CPU seconds the Chromium processes
   used meanwhile on the same cores (a class brings its own devices);
4. release: the pages are closed as tabs are (their beforeunload shutdown beacon runs),
   then the time until no kernel is left (culling is the fallback for a lost beacon);
5. the visitor after them: one more page opens 07 and gets a usable game (its time).

The load average is printed beside the figures: the browsers run on the same cores as
the server, so on a busy machine every figure is inflated.

    python benchmarks/bench_class.py 10
    python benchmarks/bench_class.py 30 --stagger 1.5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_app import CLICK_JS, children, rss_mb  # noqa: E402 - the app benchmark's probes
from conftest import (  # noqa: E402 - the test suite's Voila helpers
    CHROMIUM,
    CHROMIUM_ARGS,
    NOTEBOOKS_DIR,
    VoilaServer,
    start_voila,
    stop_voila,
)
from playwright.async_api import Browser, Page, async_playwright  # noqa: E402
from playwright.async_api import Error as PlaywrightError  # noqa: E402

APP = "07-play-a-game.ipynb"

# "usable" once the Draw button is visible and enabled; else what the page says instead
STATE_JS = """() => {
  const draw = document.querySelector('.tr-draw');
  if (draw && !draw.disabled && draw.offsetParent !== null) return 'usable';
  const alert = document.querySelector('.tr-served-alert');
  if (alert && alert.dataset.kind !== 'retrying') return 'alert:' + alert.dataset.kind;
  if (document.querySelector('.tr-class-full')) return 'full';
  return false;
}"""


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


@dataclass
class Learner:
    index: int
    page: Page | None = None
    outcome: str = "pending"
    usable_s: float | None = None
    navigations: int = 0
    clicks: dict[str, float] = field(default_factory=dict)


async def open_app(browser: Browser | Any, server: VoilaServer, learner: Learner,
                   delay: float, timeout: float) -> None:
    """`browser`: a Browser, or a coroutine function that launches one for this learner."""
    await asyncio.sleep(delay)
    if callable(browser):
        browser = await browser()
    context = await browser.new_context(viewport={"width": 1280, "height": 1000})
    page = await context.new_page()
    learner.page = page
    # a new document each time the page loads ("framenavigated" would also count the
    # address 07 gives itself with history.replaceState, `?game=KEY`: not a retry)
    page.on("domcontentloaded", lambda _page: _loaded(learner))
    started = time.perf_counter()
    deadline = started + timeout
    try:
        await page.goto(server.render_url(APP), wait_until="commit",
                        timeout=timeout * 1000)
    except PlaywrightError as error:
        learner.outcome = f"no page: {error.message.splitlines()[0][:60]}"
        return
    while True:
        left = deadline - time.perf_counter()
        if left <= 0:
            learner.outcome = "timeout"
            return
        try:
            handle = await page.wait_for_function(STATE_JS, timeout=left * 1000,
                                                  polling=200)
            state = await handle.json_value()
        except PlaywrightError as error:
            if "Timeout" in error.message:
                learner.outcome = "timeout"
                return
            continue  # the page reloaded itself (a retry): wait on the new document
        learner.outcome = str(state)
        if state == "usable":
            learner.usable_s = time.perf_counter() - started
        return


def _loaded(learner: Learner) -> None:
    learner.navigations += 1


async def click_round(learner: Learner) -> None:
    """Draw, then discard the last card, timing each until the hand changed."""
    page = learner.page
    assert page is not None
    try:
        # never offered a buy: every Draw click then ends in a changed hand
        await page.locator(".tr-buy-offers select").select_option(
            label="never (pass for me)", timeout=30_000)
        await page.wait_for_function(
            "() => (document.querySelector('.tr-prompt')?.textContent ?? '')"
            ".startsWith('Your turn: draw')", timeout=120_000)
        ms = float(await page.evaluate(CLICK_JS, [".tr-draw", 120_000]))
        if ms >= 0:
            learner.clicks["draw"] = ms
        await page.wait_for_function(
            "() => (document.querySelector('.tr-prompt')?.textContent ?? '')"
            ".startsWith('Your turn: lay')", timeout=120_000)
        await page.locator(".tr-hand .tr-card").last.click(timeout=30_000)
        await page.locator(".tr-hand .tr-card.mod-active").first.wait_for(timeout=30_000)
        ms = float(await page.evaluate(CLICK_JS, [".tr-discard", 120_000]))
        if ms >= 0:
            learner.clicks["discard"] = ms
    except PlaywrightError as error:
        learner.clicks["error"] = -1
        print(f"  learner {learner.index}: clicks failed: {error.message.splitlines()[0]}")


def kernels(server: VoilaServer) -> list[int]:
    out = []
    for pid in children(server.process.pid):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"ipykernel" in command:
            out.append(pid)
    return out


def total_mb(server: VoilaServer) -> float:
    pids = [server.process.pid, *children(server.process.pid)]
    return sum(mb for pid in pids if (mb := _rss(pid)) == mb)


def _rss(pid: int) -> float:
    try:
        return rss_mb(pid)
    except OSError:
        return 0.0


def cpu_s(server: VoilaServer) -> float:
    """CPU seconds (user + system) used so far by the server and every process under it:
    the server's own cost of the class, whatever else the machine is doing."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in [server.process.pid, *children(server.process.pid)]:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


def browser_cpu_s() -> float:
    """CPU seconds used so far by every Chromium process of the machine (the learners'
    browsers, which a real class runs on its own devices, not on the server's cores)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            # /usr/bin/chromium is a script starting /usr/lib/chromium/chromium
            if (entry / "comm").read_text().strip() != "chromium":
                continue
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def spread(values: list[float]) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (f"p50 {statistics.median(ordered):.1f}  p95 {p95:.1f}  max {ordered[-1]:.1f}"
            f"  (n={len(ordered)})")


async def run(args: argparse.Namespace) -> dict[str, Any]:
    log = REPO / "test-results" / "bench" / f"class-{args.n}.log"
    server = start_voila(NOTEBOOKS_DIR, log, f"--ClassKernelManager.pool_size={args.pool}")
    result: dict[str, Any] = {"n": args.n, "stagger_s": args.stagger, "pool": args.pool,
                              "load_before": load()}
    try:
        await asyncio.sleep(3)
        if args.pool:  # the pool is ready before the class arrives (as with make app)
            await asyncio.sleep(args.pool_wait)
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=str(CHROMIUM),
                                              args=CHROMIUM_ARGS)
            own: list[Browser] = []

            async def launch() -> Browser:
                one = await p.chromium.launch(executable_path=str(CHROMIUM),
                                              args=CHROMIUM_ARGS)
                own.append(one)
                return one

            learners = [Learner(i) for i in range(args.n)]
            browsers_before = browser_cpu_s()
            started = time.perf_counter()
            await asyncio.gather(*(open_app(launch if args.own_browsers else browser,
                                            server, learner, i * args.stagger, args.timeout)
                                   for i, learner in enumerate(learners)))
            result["all_settled_s"] = time.perf_counter() - started
            result["load_after_opening"] = load()
            result["kernels_open"] = len(kernels(server))
            result["memory_mb"] = total_mb(server)
            result["server_cpu_s"] = cpu_s(server)
            result["browser_cpu_s"] = browser_cpu_s() - browsers_before
            usable = [learner for learner in learners if learner.outcome == "usable"]
            result["usable_s"] = [learner.usable_s for learner in usable]
            result["failed"] = {learner.index: learner.outcome for learner in learners
                                if learner.outcome != "usable"}
            result["retried"] = sum(1 for learner in usable if learner.navigations > 1)

            await asyncio.gather(*(click_round(learner) for learner in usable))
            result["draw_ms"] = [x.clicks["draw"] for x in usable if "draw" in x.clicks]
            result["discard_ms"] = [x.clicks["discard"] for x in usable
                                    if "discard" in x.clicks]
            result["load_after_clicks"] = load()
            result["memory_after_clicks_mb"] = total_mb(server)

            # the class leaves: tabs close (beforeunload runs, so the beacon goes)
            closed = time.perf_counter()
            for learner in learners:
                if learner.page is not None:
                    await learner.page.close(run_before_unload=True)
            left = len(kernels(server))
            while left and time.perf_counter() - closed < args.release_timeout:
                await asyncio.sleep(0.5)
                left = len(kernels(server))
            result["kernels_left"] = left
            result["released_s"] = time.perf_counter() - closed

            # the visitor after them
            late = Learner(args.n)
            await open_app(browser, server, late, 0, args.timeout)
            result["next_visitor"] = late.outcome
            result["next_visitor_s"] = late.usable_s
            for one in [*own, browser]:
                await one.close()
    finally:
        stop_voila(server)
    text = log.read_text(errors="replace")
    result["iopub_timeouts"] = text.count("Timeout waiting for IOPub output")
    result["class_full_refusals"] = text.count("Class full:")
    result["culled"] = text.count("Culling '")
    return result


def report(r: dict[str, Any]) -> None:
    print(f"\n{r['n']} learners opening {APP} on one Voila, "
          f"{r['stagger_s']:.1f} s apart (load average before: {r['load_before']})")
    rows = [
        ("time to first usable widget (s)", spread(r["usable_s"])),
        ("pages without a game", f"{len(r['failed'])} {r['failed'] or ''}"),
        ("pages that retried by themselves", str(r["retried"])),
        ("all pages settled after (s)", f"{r['all_settled_s']:.1f}"),
        ("Draw click -> hand updated, all at once (ms)", spread(r["draw_ms"])),
        ("Discard click -> hand updated, bots included (ms)", spread(r["discard_ms"])),
        ("kernels with every page open", str(r["kernels_open"])),
        ("memory, server + kernels, pages open (MB)", f"{r['memory_mb']:.0f}"),
        ("memory after the clicks (MB)", f"{r['memory_after_clicks_mb']:.0f}"),
        ("CPU used by server + kernels to open every page (s)",
         f"{r['server_cpu_s']:.1f} ({r['server_cpu_s'] / max(1, r['n']):.2f} s a learner)"),
        ("CPU used by the browsers meanwhile, same cores (s)",
         f"{r['browser_cpu_s']:.1f}"),
        ("tabs closed -> no kernel left (s)", f"{r['released_s']:.1f} ({r['kernels_left']} left)"),
        ("next visitor", f"{r['next_visitor']} in {r['next_visitor_s'] or 0:.1f} s"),
        ("IOPub timeouts / class-full refusals in the log",
         f"{r['iopub_timeouts']} / {r['class_full_refusals']}"),
        ("load average after opening / after clicks",
         f"{r['load_after_opening']} / {r['load_after_clicks']}"),
    ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    print(json.dumps(r))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, help="learners (pages) opening 07 together")
    parser.add_argument("--stagger", type=float, default=0.0,
                        help="seconds between two learners' requests (0: all at once)")
    parser.add_argument("--timeout", type=float, default=300.0,
                        help="seconds a page may take to become usable")
    parser.add_argument("--release-timeout", type=float, default=120.0,
                        help="seconds to wait for the closed pages' kernels to go")
    parser.add_argument("--own-browsers", action="store_true",
                        help="one Chromium process per learner, as in a classroom, instead "
                             "of one browser context each in a shared Chromium")
    parser.add_argument("--pool", type=int, default=0,
                        help="kernels started before the class arrives (make app POOL=)")
    parser.add_argument("--pool-wait", type=float, default=60.0,
                        help="seconds given to the pool to fill before the pages open")
    report(asyncio.run(run(parser.parse_args())))


if __name__ == "__main__":
    main()
