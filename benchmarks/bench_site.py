"""How big the static site is and how soon its notebooks are usable in a real browser.

Builds the site if it is not up to date (tools/build_site.py), serves it from a plain
static file server on 127.0.0.1 (`python -m http.server`, every other host unreachable)
and drives Debian's Chromium with Playwright to measure, for notebooks 00, 02 and 07,
the time to the first usable widget: from the page request to the widget a learner
acts on first visible and enabled (00: the language picker; 02: the meld text box;
07: "Draw from stock"), read from the page's own clock (`performance.now()`).

- cold: a fresh browser context (empty HTTP cache, no service worker) for each load;
- warm: the same page loaded again in the context that has just loaded it.

Prints the site's size, each figure (median of `--loads` loads, with the range) and the
load average before and after, and saves screenshots of 07 and 08 running from the site
(`screenshots/site-07.png`, `screenshots/site-08.png`).

    python benchmarks/bench_site.py [--loads 3]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "tests" / "browser"))
sys.path.insert(0, str(REPO / "tools"))

import build_site  # noqa: E402
from conftest import CHROMIUM, CHROMIUM_ARGS, _free_port  # noqa: E402 - the tests' browser
from play_page import wait_for_my_move  # noqa: E402
from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402

SCREENSHOTS = REPO / "benchmarks" / "screenshots"
TIMEOUT_MS = 120_000
#: the widget a learner acts on first, per notebook
FIRST_WIDGET = {
    "00-welcome": ".tv-language-dropdown select",
    "02-runs-and-sets": ".tv-meld-text input",
    "07-play-a-game": ".tr-draw",
}
# ms since navigation start at which `selector` is visible and enabled
USABLE_JS = """(selector) => {
  const el = document.querySelector(selector);
  if (!el || el.disabled || el.offsetParent === null) return false;
  return performance.now();
}"""


def loadavg() -> str:
    return Path("/proc/loadavg").read_text().strip()


@contextmanager
def serve(root: Path) -> Iterator[str]:
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
         "--directory", str(root)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"{base}/index.html", timeout=2).close()
                break
            except OSError:
                time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


def usable_ms(page: Page, url: str, selector: str) -> float:
    page.goto(url, wait_until="commit", timeout=TIMEOUT_MS)
    handle = page.wait_for_function(USABLE_JS, arg=selector, timeout=TIMEOUT_MS,
                                    polling=50)
    return float(handle.json_value())


def measure(browser: Browser, base: str, loads: int) -> dict[str, tuple[list[float], list[float]]]:
    figures: dict[str, tuple[list[float], list[float]]] = {}
    for name, selector in FIRST_WIDGET.items():
        url = f"{base}/voici/render/{name}.html"
        cold, warm = [], []
        for _ in range(loads):
            context = browser.new_context()
            page = context.new_page()
            cold.append(usable_ms(page, url, selector))
            warm.append(usable_ms(page, url, selector))
            context.close()
        figures[name] = (cold, warm)
    return figures


def screenshots(browser: Browser, base: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": 1280, "height": 1400})
    page.goto(f"{base}/voici/render/07-play-a-game.html?seed=7", timeout=TIMEOUT_MS)
    page.wait_for_function(USABLE_JS, arg=".tr-draw", timeout=TIMEOUT_MS)
    wait_for_my_move(page)
    while page.locator(".tr-buy-row").is_visible():  # let the offered discard go
        page.locator(".tr-pass").click()
        page.wait_for_timeout(200)
        wait_for_my_move(page)
    hand = page.locator(".tr-hand .tr-card")
    dealt = hand.count()
    page.locator(".tr-draw").click()
    page.wait_for_function("(n) => document.querySelectorAll('.tr-hand .tr-card').length > n",
                           arg=dealt, timeout=TIMEOUT_MS)
    hand.last.click()  # a card selected, ready to discard
    page.wait_for_timeout(800)
    page.locator(".tr-play").first.screenshot(path=SCREENSHOTS / "site-07.png")
    page.goto(f"{base}/voici/render/08-rules-explorer.html", timeout=TIMEOUT_MS)
    try:
        run = page.get_by_role("button", name="Run")
        run.wait_for(state="visible", timeout=TIMEOUT_MS)
        for name, value in (("games", "4"), ("turn-limit", "30")):
            box = page.locator(f".tv-explorer-{name} input")
            box.fill(value)
            box.press("Enter")
        run.click()
        page.wait_for_function(
            "() => (document.querySelector('.tv-explorer-status')?.textContent || '')"
            ".startsWith('Done')", timeout=TIMEOUT_MS)
        page.wait_for_timeout(500)
    except Exception as error:  # the screenshot shows what went wrong
        print(f"08 did not finish a simulation: {str(error).splitlines()[0]}")
    page.screenshot(path=SCREENSHOTS / "site-08.png", full_page=True)
    page.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=3, help="loads per notebook and state")
    args = parser.parse_args(argv)
    site = build_site.build(build_site.DEFAULT_OUT)
    print(f"site: {site} {build_site.site_size(site) / 1e6:.1f} MB")
    print(f"load average before: {loadavg()}")
    with serve(site) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        figures = measure(browser, base, args.loads)
        screenshots(browser, base)
        browser.close()
    print(f"time to the first usable widget (s), median [min–max] of {args.loads} loads:")
    for name, (cold, warm) in figures.items():
        row = [f"{statistics.median(v) / 1000:5.1f} [{min(v) / 1000:.1f}–{max(v) / 1000:.1f}]"
               for v in (cold, warm)]
        print(f"  {name:18} cold {row[0]}   warm {row[1]}")
    print(f"load average after: {loadavg()}")
    print(f"screenshots: {SCREENSHOTS / 'site-07.png'}, {SCREENSHOTS / 'site-08.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
