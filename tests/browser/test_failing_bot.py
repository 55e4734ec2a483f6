"""A shared table whose bots have a bug, in Chromium through Voila (issue 26): each bot
chooses a move the game refuses (`fixtures/cheating_bot.ipynb`), and the table's one
failing-bot rule (`players.table.Table`: the first legal move, the mistake kept) plays
for it, so the learner's turn comes back and the game goes on; before, every poll of the
page repeated the refused move and the table stood still."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from tests.browser.test_classroom import MY_TURN, TIMEOUT_MS, at, play_a_turn, prompt, settle

if TYPE_CHECKING:
    from tests.conftest import OpenNotebook

pytestmark = pytest.mark.browser


def test_a_bot_that_plays_an_illegal_move_is_replaced_and_the_game_goes_on(
        open_fixture_notebook: OpenNotebook) -> None:
    voila = open_fixture_notebook("cheating_bot.ipynb", wait_for=".tr-classroom .tr-open")
    page = voila.page
    at(page, ".tr-name input").fill("Ann")
    at(page, ".tr-players select").select_option("3")
    at(page, ".tr-learners select").select_option("1")
    at(page, ".tr-open").click()
    expect(at(page, ".tr-status")).to_contain_text("you are Ann, seat 0", timeout=TIMEOUT_MS)
    for _turn in range(2):  # each time round the table, both bots had to be played for
        settle([page], lambda: prompt(page).startswith(MY_TURN), "Ann's turn")
        play_a_turn(page, [page], "Ann")
    settle([page], lambda: prompt(page).startswith(MY_TURN), "Ann's turn again")
    log = at(page, ".tr-log").inner_text()
    bots = [name for name in ("Crow", "Jay", "Magpie", "Raven", "Robin", "Wren")
            if f"{name} discards" in log]
    assert len(bots) >= 2, log  # both bots moved on, their refused moves replaced
    assert voila.stderr_outputs().count() == 0
    assert voila.errors == []
