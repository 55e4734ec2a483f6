"""How soon the coach answers in notebook 07, in a real browser under Voila or on the site.

Starts Voila on the notebooks (as the browser tests do), or with `--site` serves the
static site (`build/site/`, built by `make site`: the Pyodide kernel in the page, no
server) from a plain static file server, and drives Debian's Chromium with Playwright:

1. hints: opens 07 with `?seed=S` for S = 1 .. `--games`, and for `--turns` turns of
   each game draws from the stock, clicks Hint and measures, on the page's own clock,
   the ms from the click to the "Thinking…" state on the page and to the hint itself
   (the costs of the other discards, or "nothing else was worth weighing"); then
   discards the card the hint selected;
2. the review: opens `?scenario=roundend&seed=46`, discards (the round ends) and
   measures the ms from the click to the round's review ready in the page (its Review
   button opens it). On the static site a review is prepared when it is opened (no
   threads in Pyodide: `widgets.recap`), so there the bench clicks Review once the
   round's recap offers it and measures from that click.

Prints the median and maximum of each, how many hints showed costs, and the load
average before and after. `--scenario bighand` plays the hints of step 1 from 07's
`?scenario=bighand&seed=S` instead (round 9, hands of 15: the longest playouts).

    python benchmarks/bench_coach_browser.py [--games 3] [--turns 4] [--site]
    python benchmarks/bench_coach_browser.py --site --scenario bighand --games 3 --turns 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "tests" / "browser"))

from conftest import (  # noqa: E402 - the test suite's Voila helpers
    CHROMIUM,
    CHROMIUM_ARGS,
    NOTEBOOKS_DIR,
    RENDERED_JS,
    start_voila,
    stop_voila,
)
from play_page import pass_offers, wait_for_my_move  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402
from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402

sys.path.insert(0, str(REPO / "benchmarks"))
from bench_site import serve  # noqa: E402 - the site benchmark's static file server

APP = "07-play-a-game.ipynb"

# Click Hint; resolve with [ms to "Thinking…" (-1: not seen), ms to the hint, costs shown]
HINT_JS = """(timeoutMs) => new Promise((resolve) => {
  const panel = document.querySelector('.tr-coach-hint');
  const button = document.querySelector('.tr-hint');
  if (!panel || !button) { resolve([-1, -1, false]); return; }
  let t0 = 0, thinking = -1, timer = 0;
  const observer = new MutationObserver(() => {
    if (thinking < 0 && panel.querySelector('.tr-coach-thinking'))
      thinking = performance.now() - t0;
    if (panel.querySelector('.tr-coach-costs, .tr-coach-plain')) {
      observer.disconnect();
      clearTimeout(timer);
      const costs = panel.querySelector('.tr-coach-costs') !== null;
      requestAnimationFrame(() => resolve([thinking, performance.now() - t0, costs]));
    }
  });
  observer.observe(panel, {childList: true, subtree: true, characterData: true});
  timer = setTimeout(() => { observer.disconnect(); resolve([thinking, -1, false]); },
                     timeoutMs);
  t0 = performance.now();
  button.click();
})"""

# Click `button` (Discard in Voila, where the review is prepared at the round's end;
# Review on the site, where it is prepared when opened); resolve with the ms until the
# round's review is ready in the page
REVIEW_JS = """([button, timeoutMs]) => new Promise((resolve) => {
  const ready = () => document.querySelector(
    '.tr-review-body .tr-review-ready, .tr-review-body .tr-review-nothing');
  const t0 = performance.now();
  const poll = () => {
    if (ready()) { resolve(performance.now() - t0); return; }
    if (performance.now() - t0 > timeoutMs) { resolve(-1); return; }
    requestAnimationFrame(poll);
  };
  document.querySelector(button).click();
  poll();
})"""


SITE = REPO / "build" / "site"


def open_app(page: Page, url: str, site: bool) -> None:
    page.goto(url, wait_until="commit", timeout=120_000)
    if not site:  # Voila's own page: its cells rendered (the site's page has none)
        page.wait_for_function(RENDERED_JS, timeout=120_000)
    page.locator(".tr-draw").wait_for(timeout=180_000)


@contextmanager
def app_urls(site: bool, log: Path) -> Iterator[Callable[..., str]]:
    """The URL of 07 with a query, under Voila (started here) or on the static site
    (served here)."""
    if site:
        if not (SITE / "index.html").is_file():
            raise SystemExit(f"no static site in {SITE}: run `make site` first")
        with serve(SITE) as base:
            page = APP.removesuffix(".ipynb")
            yield lambda **query: (f"{base}/voici/render/{page}.html?"
                                   f"{urllib.parse.urlencode(query)}")
        return
    server = start_voila(NOTEBOOKS_DIR, log)
    try:
        yield lambda **query: server.render_url(APP, **query)
    finally:
        stop_voila(server)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--turns", type=int, default=4)
    parser.add_argument("--site", action="store_true",
                        help="the static site (build/site/) instead of Voila")
    parser.add_argument("--scenario", default=None,
                        help="the hints' games start at 07's ?scenario= (e.g. bighand)")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()}", flush=True)
    thinking: list[float] = []
    answered: list[float] = []
    costly: list[bool] = []  # whether each hint showed the costs of other moves
    review_ms, review_head = -1.0, ""
    logs = REPO / "test-results" / "bench"
    logs.mkdir(parents=True, exist_ok=True)
    print("on the static site (Pyodide in the page)" if args.site else "under Voila",
          flush=True)
    with app_urls(args.site, logs / "coach.log") as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page()
        for seed in range(1, args.games + 1):
            query: dict[str, object] = {"seed": seed}
            if args.scenario:
                query["scenario"] = args.scenario
            open_app(page, url(**query), args.site)
            try:
                play_turns(page, args.turns, thinking, answered, costly)
            except PlaywrightTimeout:  # e.g. the round ended, or the hint's move was
                # not a discard: the game's hints so far count, the next game starts
                print(f"seed {seed}: the page left the expected turn; next game",
                      flush=True)
        open_app(page, url(scenario="roundend", seed=46), args.site)
        wait_for_my_move(page)
        page.locator(".tr-hand .tr-card").first.click()
        if args.site:  # the round ends; its recap offers the review, made when opened
            page.locator(".tr-discard").click()
            page.locator(".tr-review-open").wait_for(state="visible", timeout=120_000)
            review_ms = float(page.evaluate(REVIEW_JS, [".tr-review-open", 120_000]))
        else:
            review_ms = float(page.evaluate(REVIEW_JS, [".tr-discard", 120_000]))
        if review_ms >= 0:  # what the review found (its heading), as the learner reads it
            review_head = page.locator(".tr-review-body .tr-review-ready > p, "
                                       ".tr-review-body .tr-review-nothing").first.inner_text()
            review_head = review_head.strip()[:160]
        browser.close()
    for name, xs in (("click -> 'Thinking…' on the page", thinking),
                     ("click -> the hint on the page", answered)):
        if xs:
            print(f"{name}: n={len(xs)}, median {statistics.median(xs):.0f} ms, "
                  f"max {max(xs):.0f} ms")
    print(f"hints with costs: {sum(costly)} of {len(answered)}")
    print(("Review clicked at round 1's end" if args.site else "last discard of round 1")
          + " -> its review ready on the page: "
          + (f"{review_ms:.0f} ms ({review_head})" if review_ms >= 0
             else "not seen within 120 s"))
    print(f"load average at the end: {os.getloadavg()}", flush=True)


def play_turns(page: Page, turns: int, thinking: list[float], answered: list[float],
               costly: list[bool]) -> None:
    """Up to `turns` turns of the open game: draw, ask a hint (its times appended to
    `thinking` and `answered`, whether it showed costs to `costly`), discard the card it
    selected."""
    for _turn in range(turns):
        wait_for_my_move(page)
        pass_offers(page)
        if not (page.locator(".tr-prompt").inner_text().startswith("Your turn")
                and page.locator(".tr-draw").is_enabled()):
            break
        before = page.locator(".tr-hand .tr-card").count()
        page.locator(".tr-draw").click()
        page.wait_for_function(
            "n => document.querySelectorAll('.tr-hand .tr-card').length > n",
            arg=before, timeout=60_000)
        think, ms, costs = page.evaluate(HINT_JS, 30_000)
        if ms >= 0:
            answered.append(ms)
            costly.append(bool(costs))
        if think >= 0:
            thinking.append(think)
        page.locator(".tr-discard").click()
        page.wait_for_function(  # the discard is made: the bots move on
            "n => document.querySelectorAll('.tr-hand .tr-card').length <= n",
            arg=before, timeout=60_000)


if __name__ == "__main__":
    main()
