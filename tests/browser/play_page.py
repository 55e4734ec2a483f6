"""What the browser tests of notebook 07 share: waiting for the bots to hand the game
back, for the focus to land on a control, and playing a turn by the card-game keys
(counted); and, for every page with a round's review, opening it and clicking Try it
again."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

TIMEOUT_MS = 30_000


def wait_for_my_move(page: Page) -> None:
    """Until the bots are done: your turn to draw or play, or an offer to buy."""
    page.wait_for_function(
        """() => {
          const prompt = document.querySelector('.tr-prompt')?.textContent ?? '';
          return prompt.startsWith('Your turn') || prompt.startsWith('Your answer');
        }""", timeout=TIMEOUT_MS)


def wait_for_focus(page: Page, css: str) -> None:
    """Until the focused element has class `css` (the app moved the focus there)."""
    page.wait_for_function(
        "css => document.activeElement?.classList.contains(css) ?? false", arg=css,
        timeout=TIMEOUT_MS)


def focused_classes(page: Page) -> list[str]:
    return list(page.evaluate("() => [...(document.activeElement?.classList ?? [])]"))


def tab_to(page: Page, css: str, limit: int = 80) -> int:
    """Press Tab until the focused element has class `css`; the presses it took (0 when
    the focus is there already: the page may have moved it there by itself, and a press
    would step past it)."""
    for presses in range(limit + 1):
        if css in focused_classes(page):
            return presses
        if presses < limit:
            page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached .{css}")


def wait_for_my_move_and_focus(page: Page) -> None:
    """Until the bots are done and the page has moved the focus on (to Buy, Pass or
    Draw): a keyboard test's next press must not race that move."""
    wait_for_my_move(page)
    page.wait_for_function(
        """() => ['tr-buy', 'tr-pass', 'tr-draw'].some(
             css => document.activeElement?.classList.contains(css))""", timeout=TIMEOUT_MS)


def pass_by_keyboard(page: Page) -> None:
    page.locator(".tr-pass").focus()
    page.keyboard.press("Enter")


def pass_by_click(page: Page) -> None:
    page.locator(".tr-pass").click()


def pass_offers(page: Page, press: Callable[[Page], None] = pass_by_keyboard,
                then: Callable[[Page], None] = wait_for_my_move_and_focus) -> None:
    """Answer every buy offer open now with Pass (`press` passes one), then `then`.

    Each pass is waited for until the log shows it. The page redraws the buy row before
    the log, so the row read next is the one of the next offer, never of the offer just
    answered (a fixed pause here once let a loaded machine read the old row and pass a
    second time after the row had closed)."""
    while page.locator(".tr-buy-row").is_visible():
        logged = page.locator(".tr-log").inner_html()
        press(page)
        page.wait_for_function(
            "old => (document.querySelector('.tr-log')?.innerHTML ?? old) !== old",
            arg=logged, timeout=TIMEOUT_MS)
        then(page)


def digits(position: int) -> list[str]:
    """The digit keys that select the card at `position` (1-based): its last digit,
    pressed once per ten (card 14: 4, 4; card 10: 0)."""
    key = str(position % 10)
    return [key] * ((position - 1) // 10 + 1)


#: sets `window.trSaid` once the log or the message of `root` has said `said`
WATCH_JS = """([root, said]) => {
  window.trSaid = false;
  const check = () => {
    for (const el of document.querySelectorAll(`${root} .tr-log, ${root} .tr-message`)) {
      if (el.textContent.includes(said)) { window.trSaid = true; }
    }
  };
  new MutationObserver(check).observe(document.body,
    {childList: true, subtree: true, characterData: true});
}"""


class Keys:
    """Presses keys on `page`, counting them."""

    def __init__(self, page: Page) -> None:
        self.page, self.count = page, 0

    def press(self, *keys: str) -> None:
        for key in keys:
            self.page.keyboard.press(key)
            self.count += 1


def discard_by_keys(page: Page, root: str, position: int) -> int:
    """From the Draw step: draw, select the card at `position`, discard it, all by keys;
    the presses it took. The discard must reach the log."""
    cards = page.locator(f"{root} .tr-hand .tr-card")
    keys = Keys(page)
    before = cards.count()
    keys.press("d")
    expect(cards).to_have_count(before + 1, timeout=TIMEOUT_MS)
    keys.press(*digits(position))
    chosen = cards.nth(position - 1)
    expect(chosen).to_have_class(re.compile(r"\bmod-active\b"), timeout=TIMEOUT_MS)
    expect(page.locator(f"{root} .tr-hand .tr-card.mod-active")).to_have_count(1)
    card = chosen.inner_text().strip()
    # the discard reaches the log or the message (07 shows it there while the others answer
    # an offer; a seat view's short log may have moved past it once the bots have played)
    page.evaluate(WATCH_JS, [root, f"discards {card}"])
    keys.press("x")
    try:
        page.wait_for_function("() => window.trSaid === true", timeout=TIMEOUT_MS)
    except PlaywrightTimeout:
        said = page.locator(f"{root} .tr-message").first.inner_text()
        raise AssertionError(f"{card} was not discarded; the page says {said!r}") from None
    return keys.count


def going_out_save(seeds: int = 60) -> tuple[str, str]:
    """A saved game of 07 (four players, named as 07 names them) in which the learner,
    seat 0, goes out of round 1 with their next discard: (the save, the card to
    discard)."""
    import json

    from toonerville.engine import actions as A
    from toonerville.engine.events import EventKind
    from toonerville.players.scenarios import player_names
    from toonerville.players.simulate import play_game

    for seed in range(seeds):
        game = play_game(["heuristic"] * 4, seed=seed)
        if game.records[0].went_out != 0:
            continue
        for k in range(1, len(game.actions) + 1):
            before = game.position_at(k - 1)
            events = game.history[len(before.history):len(game.position_at(k).history)]
            if any(e.kind is EventKind.ROUND_END for e in events):
                action = game.actions[k - 1]
                if isinstance(action, A.Discard):
                    save = json.loads(before.to_json())
                    save["names"] = list(player_names(4))
                    return json.dumps(save), str(action.card)
                break
    raise AssertionError(f"no seed in 0-{seeds - 1} has the learner go out by a discard")


def try_round_one_again(root: Locator, timeout_ms: float = TIMEOUT_MS) -> Locator:
    """Open round 1's review under `root` (a page whose recap offers it), click Try it
    again, and wait for the practice panel's first position, shown without its answer;
    returns the panel's body."""
    root.locator(".tr-review-open").click()
    expect(root.locator(".tr-review-body")).to_contain_text(
        "The review of round 1 is ready", timeout=timeout_ms)
    root.locator(".tr-practice-try").click()
    practice = root.locator(".tr-practice-box .tr-practice-body")
    expect(practice.locator(".tr-practice-title")).to_contain_text(
        re.compile(r"Try it again: position 1 of \d+ · Round 1, your turn \d+"),
        timeout=timeout_ms)
    expect(practice.locator(".tr-practice-answer")).to_have_count(0)  # no answer yet
    return practice
