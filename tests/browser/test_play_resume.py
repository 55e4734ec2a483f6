"""Notebook 07 through Voila outlives its kernel (issue 27): the page carries its game's
key in its address (`?game=KEY`), the kernel keeps the game in the class store after
every move, and after the kernel process is killed a reload shows the same game at the
same move; after the server itself is stopped, the same address on a new server does too.
And a whole saved game of four players, pasted into the load box, loads."""

from __future__ import annotations

import os
import re
import signal
from pathlib import Path
from typing import TYPE_CHECKING

from play_page import pass_by_click, pass_offers, wait_for_my_move
from playwright.sync_api import expect

from tests.conftest import NOTEBOOKS_DIR, RENDERED_JS, start_voila, stop_voila
from toonerville.engine.game import Game
from toonerville.players.table import Table

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

    from tests.conftest import OpenNotebook, VoilaServer

NOTEBOOK = "07-play-a-game.ipynb"
TIMEOUT_MS = 60_000
GAME_KEY = re.compile(r"[?&]game=([A-Za-z0-9_-]{16,64})")


def _cards(page: Page) -> list[str]:
    return page.locator(".tr-hand .tr-card").all_text_contents()


def _kernel_pid(kernel_id: str) -> int:
    """The pid of the kernel process whose connection file is `kernel-<id>.json`."""
    wanted = f"kernel-{kernel_id}.json".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if wanted in command and b"ipykernel" in command:
            return int(entry.name)
    raise AssertionError(f"no kernel process for {kernel_id}")


def _page_kernel_id(page: Page) -> str:
    return str(page.evaluate(
        "() => JSON.parse(document.getElementById('jupyter-config-data').textContent)"
        ".kernelId"))


def _turn(page: Page) -> None:
    """Pass any offers, draw, discard the card drawn; until your move again, with the
    page at rest: the status (drawn last, with the move number) has left the move of the
    discard, so the prompt read next is not the discard's own "Your turn" (a test once
    read move 9 there while the game, kept after every move, went on to move 22)."""
    wait_for_my_move(page)
    pass_offers(page, pass_by_click, then=wait_for_my_move)
    cards = page.locator(".tr-hand .tr-card")
    before = cards.count()
    page.locator(".tr-draw").click()
    expect(cards).to_have_count(before + 1, timeout=TIMEOUT_MS)
    chosen = cards.last
    chosen.click()
    expect(chosen).to_have_class(re.compile(r"\bmod-active\b"), timeout=TIMEOUT_MS)
    status = page.locator(".tr-status")
    discarding = status.inner_text()
    page.locator(".tr-discard").click()
    expect(cards).to_have_count(before, timeout=TIMEOUT_MS)
    expect(status).not_to_have_text(discarding, timeout=TIMEOUT_MS)
    wait_for_my_move(page)


def test_a_reload_after_the_kernel_died_brings_back_the_same_game_at_the_same_move(
        open_notebook: OpenNotebook) -> None:
    voila = open_notebook(NOTEBOOK, wait_for=".tr-draw", seed=11)
    page = voila.page
    # the page's address names its game
    page.wait_for_function("() => /[?&]game=[A-Za-z0-9_-]{16,}/.test(location.search)",
                           timeout=TIMEOUT_MS)
    found = GAME_KEY.search(page.url)
    assert found is not None and "seed=11" in page.url
    for _ in range(2):
        _turn(page)
    # the status line is a widget of its own, which may reach the page a moment after the
    # hand: read it once it has stopped changing
    status = _settled(page, ".tr-status")
    hand, log = _cards(page), page.locator(".tr-log").inner_text()
    address = page.url

    os.kill(_kernel_pid(_page_kernel_id(page)), signal.SIGKILL)
    notice = page.locator(".tr-served-alert[data-kind=lost]")
    notice.wait_for(timeout=TIMEOUT_MS)
    expect(notice.locator(".tr-game-kept")).to_have_text(
        "Your game is kept: reload the page and it comes back at the move you were at.",
        timeout=TIMEOUT_MS)
    page.reload(wait_until="commit", timeout=TIMEOUT_MS)
    assert page.wait_for_function(RENDERED_JS, timeout=TIMEOUT_MS).json_value() == "ready"
    page.locator(".tr-draw").wait_for(timeout=TIMEOUT_MS)

    assert page.url == address
    message = page.locator(".tr-message")
    expect(message).to_contain_text(re.compile(r"Your game is back, at round 1, move \d+"),
                                    timeout=TIMEOUT_MS)
    assert _cards(page) == hand
    expect(page.locator(".tr-status")).to_have_text(status, timeout=TIMEOUT_MS)
    # the log's last lines (the page shows at least ten; the kernel that died also kept
    # every line since your last move in view)
    lines = page.locator(".tr-log").inner_text().splitlines()
    assert len(lines) >= 10 and lines[-10:] == log.splitlines()[-10:]
    _turn(page)  # and the game plays on in the new kernel
    assert voila.stderr_outputs().count() == 0


def _settled(page: Page, css: str, quiet_ms: int = 1500, most_ms: int = 20_000) -> str:
    """The text of `css` once it has not changed for `quiet_ms`."""
    text, waited = page.locator(css).inner_text(), 0
    while waited < most_ms:
        page.wait_for_timeout(quiet_ms)
        waited += quiet_ms
        now = page.locator(css).inner_text()
        if now == text:
            return text
        text = now
    return text


def _open(page: Page, url: str) -> None:
    page.goto(url, wait_until="commit", timeout=TIMEOUT_MS)
    assert page.wait_for_function(RENDERED_JS, timeout=TIMEOUT_MS).json_value() == "ready"
    page.locator(".tr-draw").wait_for(timeout=TIMEOUT_MS)


def test_after_a_server_restart_the_same_address_brings_back_the_same_game(
        page: Page, tmp_path: Path) -> None:
    servers: list[VoilaServer] = []
    try:
        servers.append(start_voila(NOTEBOOKS_DIR, tmp_path / "first.log"))
        _open(page, servers[0].render_url(NOTEBOOK, seed=5))
        page.wait_for_function("() => /[?&]game=/.test(location.search)",
                               timeout=TIMEOUT_MS)
        _turn(page)
        hand, status = _cards(page), page.locator(".tr-status").inner_text()
        query = page.url.split("?", 1)[1]
        page.goto("about:blank")
        stop_voila(servers[0])  # the server and every kernel of it are gone
        servers.append(start_voila(NOTEBOOKS_DIR, tmp_path / "second.log"))
        _open(page, f"{servers[1].render_url(NOTEBOOK)}?{query}")
        expect(page.locator(".tr-message")).to_contain_text("Your game is back",
                                                            timeout=TIMEOUT_MS)
        assert _cards(page) == hand
        assert page.locator(".tr-status").inner_text() == status
    finally:
        page.goto("about:blank")
        for server in servers:
            stop_voila(server)


def _paste(box: Locator, text: str) -> None:
    """What a paste does to a text box: its whole value at once, then an input event."""
    box.evaluate("""(el, text) => {
      el.focus();
      el.value = text;
      el.dispatchEvent(new Event('input', {bubbles: true}));
      el.blur();
    }""", text)


def test_a_whole_four_player_save_pasted_into_the_load_box_loads(
        open_notebook: OpenNotebook) -> None:
    game = Game.new(players=4, seed=3)
    Table(game, dict.fromkeys(range(4), "heuristic")).run()
    saved = game.to_json()
    assert len(saved) > 33_000
    voila = open_notebook(NOTEBOOK, wait_for=".tr-draw", seed=11)
    page = voila.page
    wait_for_my_move(page)
    page.locator(".tr-panel-2").click()
    box = page.locator(".tr-save-text textarea")
    expect(box).to_be_visible(timeout=TIMEOUT_MS)
    _paste(box, saved)
    page.locator(".tr-load").click()
    message = page.locator(".tr-message")
    expect(message).to_contain_text("Loaded: round", timeout=TIMEOUT_MS)
    # a text longer than any save is not kept, and the page says why
    _paste(box, "{" + " " * 300_000)
    expect(message).to_contain_text("the text pasted is longer, so it was not kept",
                                    timeout=TIMEOUT_MS)
    expect(box).to_have_value("", timeout=TIMEOUT_MS)
    assert voila.stderr_outputs().count() == 0
    assert voila.errors == []
