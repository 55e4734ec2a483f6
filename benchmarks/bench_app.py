"""How fast and how big the play app (notebook 07) is in a real browser.

Starts Voila (the repo's `voila.json`: preheated kernels, as `make app` serves) and drives
Debian's Chromium with Playwright to measure:

1. time to the first usable widget: from the page request to 07's "Draw from stock"
   button visible and enabled, beside the same figure for `empty_notebook.ipynb` (one
   button); the ratio is the app's own cost (aim: at most 1.5);
2. click to updated hand: from a click on Draw or Discard to the next frame after the
   hand shows other cards (the bots' turns included), the median of ~20 clicks;
3. the kernel's memory (RSS, from /proc) after the page loaded and after a whole game
   (the "Let the bots finish the game" button plays seat 0 to the end);

and saves a screenshot of 07 in the middle of a game to `screenshots/07-mid-game.png`.

    python benchmarks/bench_app.py [--loads 5] [--clicks 20]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from conftest import (  # noqa: E402 - the test suite's Voila helpers
    CHROMIUM,
    CHROMIUM_ARGS,
    NOTEBOOKS_DIR,
    RENDERED_JS,
    VoilaServer,
    start_voila,
    stop_voila,
)
from playwright.sync_api import Page, sync_playwright  # noqa: E402

BENCH_DIR = REPO / "benchmarks"
SCREENSHOT = BENCH_DIR / "screenshots" / "07-mid-game.png"
APP = "07-play-a-game.ipynb"
EMPTY = "empty_notebook.ipynb"
PREHEAT_REFILL_S = 6.0  # the pool refills a kernel (fill_delay 1 s + start + run)

# ms since navigation start at which `selector` is visible and enabled
USABLE_JS = """(selector) => {
  const el = document.querySelector(selector);
  if (!el || el.disabled || el.offsetParent === null) return false;
  return performance.now();
}"""

# Click `selector`; resolve with the ms until the hand shows other cards (the list of
# card buttons differs from before the click), at the next animation frame.
CLICK_JS = """([selector, timeoutMs]) => new Promise((resolve) => {
  const hand = document.querySelector('.tr-hand');
  const button = document.querySelector(selector);
  if (!hand || !button) { resolve(-1); return; }
  const cards = () => Array.from(hand.querySelectorAll('.tr-card'), (b) => b.textContent).join();
  const before = cards();
  let t0 = 0;
  let timer = 0;
  const observer = new MutationObserver(() => {
    if (cards() === before) return;
    observer.disconnect();
    clearTimeout(timer);
    requestAnimationFrame(() => resolve(performance.now() - t0));
  });
  // a card button may get its class after it is attached: watch classes and text too
  observer.observe(hand, {childList: true, subtree: true, attributes: true,
                          attributeFilter: ['class'], characterData: true});
  timer = setTimeout(() => { observer.disconnect(); resolve(-1); }, timeoutMs);
  t0 = performance.now();
  button.click();
})"""

KERNEL_ID_JS = """() => {
  const el = document.getElementById('jupyter-config-data');
  return el ? JSON.parse(el.textContent).kernelId : null;
}"""


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def children(pid: int) -> list[int]:
    """All descendants of `pid` (from /proc)."""
    kids: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        kids.setdefault(int(fields[1]), []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        for kid in kids.get(todo.pop(), []):
            out.append(kid)
            todo.append(kid)
    return out


def kernel_pid(server: VoilaServer, kernel_id: str) -> int | None:
    """The kernel process of the page: a child of the Voila server whose command line
    names the page's kernel id (its connection file)."""
    for pid in children(server.process.pid):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if kernel_id in cmdline:
            return pid
    return None


def wait_prompt(page: Page, start: str) -> None:
    """Until the app's prompt (what to do now) starts with `start`."""
    page.wait_for_function(
        "(start) => (document.querySelector('.tr-prompt')?.textContent ?? '').startsWith(start)",
        arg=start, timeout=60_000)


def record(page: Page, button: str, times: list[float], missed: list[str]) -> None:
    """Click `button` and note the ms to the updated hand, or what the app said."""
    ms = float(page.evaluate(CLICK_JS, [button, 10_000]))
    if ms >= 0:
        times.append(ms)
    else:
        missed.append(page.locator(".tr-message").inner_text())


def open_page(page: Page, server: VoilaServer, name: str, selector: str) -> float:
    """Load `name`; the ms from the request to `selector` usable."""
    page.goto(server.render_url(name), wait_until="commit", timeout=120_000)
    handle = page.wait_for_function(USABLE_JS, arg=selector, timeout=120_000, polling="raf")
    usable = float(handle.json_value())
    page.wait_for_function(RENDERED_JS, timeout=120_000)
    return usable


def time_to_usable(browser: Any, loads: int, logs: Path) -> tuple[list[float], list[float]]:
    """Loads of the empty notebook and of 07, taken in turn (so a busy machine slows
    both alike), each on a fresh preheated kernel; the first of each is a warm-up."""
    empty_server = start_voila(BENCH_DIR, logs / "empty.log")
    try:
        app_server = start_voila(NOTEBOOKS_DIR, logs / "app.log")
        try:
            empty: list[float] = []
            app: list[float] = []
            for k in range(loads + 1):
                for server, name, selector, times in (
                        (empty_server, EMPTY, ".bench-button", empty),
                        (app_server, APP, ".tr-draw", app)):
                    time.sleep(PREHEAT_REFILL_S)
                    page = browser.new_page()
                    try:
                        ms = open_page(page, server, name, selector)
                    finally:
                        page.close()
                    if k:
                        times.append(ms)
            return empty, app
        finally:
            stop_voila(app_server)
    finally:
        stop_voila(empty_server)


def play(browser: Any, clicks: int, log: Path) -> dict[str, Any]:
    server = start_voila(NOTEBOOKS_DIR, log)
    try:
        time.sleep(PREHEAT_REFILL_S)
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        open_page(page, server, APP, ".tr-draw")
        kernel = page.evaluate(KERNEL_ID_JS)
        pid = kernel_pid(server, kernel) if kernel else None
        loaded_mb = rss_mb(pid) if pid else float("nan")
        # always pass on buys, so every Draw click ends in a changed hand
        page.locator(".tr-buy-offers select").select_option(label="never (pass for me)")
        page.wait_for_timeout(500)
        draws: list[float] = []
        discards: list[float] = []
        missed: list[str] = []
        while len(draws) + len(discards) < clicks and len(missed) < clicks:
            wait_prompt(page, "Your turn: draw")
            record(page, ".tr-draw", draws, missed)
            wait_prompt(page, "Your turn: lay")
            for selected in page.locator(".tr-hand .tr-card.mod-active").all():
                selected.click()
            page.locator(".tr-hand .tr-card").last.click()  # select one card
            page.locator(".tr-hand .tr-card.mod-active").wait_for()
            record(page, ".tr-discard", discards, missed)
        SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
        page.set_viewport_size({"width": 1280, "height": 2400})  # the whole app in view
        page.wait_for_timeout(500)
        page.locator(".tr-play").screenshot(path=str(SCREENSHOT))
        page.set_viewport_size({"width": 1280, "height": 1000})
        _shrink(SCREENSHOT)
        # a whole game: a bot plays seat 0 to the end
        page.get_by_text("Save, load, or let the bots finish").click()
        started = time.perf_counter()
        page.locator(".tr-autoplay").click()
        page.locator(".tr-prompt", has_text="The game is over").wait_for(timeout=600_000)
        autoplay_s = time.perf_counter() - started
        game_mb = rss_mb(pid) if pid else float("nan")
        page.close()
        return {"draws": draws, "discards": discards, "missed": missed, "loaded_mb": loaded_mb,
                "game_mb": game_mb, "autoplay_s": autoplay_s, "errors": errors,
                "pid": pid}
    finally:
        stop_voila(server)


def _shrink(path: Path) -> None:
    """A palette PNG: a fraction of the size, fine for flat card pictures."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=128)
    small.save(path, optimize=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=5, help="page loads per notebook")
    parser.add_argument("--clicks", type=int, default=20, help="Draw/Discard clicks")
    args = parser.parse_args()
    logs = REPO / "test-results" / "bench"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            empty, app = time_to_usable(browser, args.loads, logs)
            played = play(browser, args.clicks, logs / "play.log")
        finally:
            browser.close()
    e, a = statistics.median(empty), statistics.median(app)
    clicks = played["draws"] + played["discards"]
    rows = [
        ("first usable widget, empty notebook (median ms)", f"{e:.0f}",
         f"{len(empty)} loads: {', '.join(f'{t:.0f}' for t in empty)}"),
        ("first usable widget, 07 play app (median ms)", f"{a:.0f}",
         f"{len(app)} loads: {', '.join(f'{t:.0f}' for t in app)}"),
        ("ratio 07 / empty (aim <= 1.5)", f"{a / e:.2f}", ""),
        ("click -> updated hand, median ms (aim <= 150)", f"{statistics.median(clicks):.0f}",
         f"{len(clicks)} clicks, max {max(clicks):.0f}"),
        ("  Draw clicks, median ms", f"{statistics.median(played['draws']):.0f}",
         f"{len(played['draws'])} clicks"),
        ("  Discard clicks (bots' turns included), median ms",
         f"{statistics.median(played['discards']):.0f}", f"{len(played['discards'])} clicks"),
        ("kernel RSS after loading 07 (MB)", f"{played['loaded_mb']:.0f}",
         f"pid {played['pid']}"),
        ("kernel RSS after a whole game (MB)", f"{played['game_mb']:.0f}",
         f"bots finished the game in {played['autoplay_s']:.1f} s"),
        ("clicks that did not change the hand", str(len(played["missed"])),
         "; ".join(played["missed"])[:60]),
        ("page errors", str(len(played["errors"])), "; ".join(played["errors"])[:60]),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'value':>7}  notes")
    print("-" * (width + 30))
    for name, value, note in rows:
        print(f"{name:<{width}}  {value:>7}  {note}")
    print(f"\nscreenshot: {SCREENSHOT.relative_to(REPO)}")
    print(json.dumps({"empty_ms": empty, "app_ms": app, **{k: v for k, v in played.items()
                                                            if k != "errors"}}))


if __name__ == "__main__":
    main()
