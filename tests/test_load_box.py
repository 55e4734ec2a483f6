"""07's load box takes a whole saved game (issue 27: a paste was cut at 20,000 characters,
a 4-player game is 33,632, and then refused as "cut short or edited"): up to the longest
text a save may be (`saves.MAX_SIZE`), past which it keeps nothing and says why. A served
kernel's cap on texts from the page (`safety.MAX_TEXT`) is lifted for this box only."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
from widgetfixtures import close_widgets, no_query  # noqa: F401

from toonerville.engine.game import Game
from toonerville.engine.saves import MAX_SIZE
from toonerville.players.table import Table
from toonerville.widgets import safety
from toonerville.widgets.play import PlayGame


def _whole_game(players: int, kind: str) -> Game:
    game = Game.new(players=players, seed=3)
    Table(game, dict.fromkeys(range(players), kind)).run()
    assert game.is_over
    return game


def _from_the_page(widget: widgets.Widget, value: str) -> None:
    """A widget update as a page sends it, through the served kernel's guard."""
    message: dict[str, Any] = {"content": {"data": {
        "method": "update", "state": {"value": value}, "buffer_paths": []}}, "buffers": []}
    widget._handle_msg(message)


def test_a_whole_four_player_game_pasted_in_the_load_box_loads() -> None:
    saved = _whole_game(4, "heuristic").to_json()
    assert len(saved) > safety.MAX_TEXT  # longer than the served kernels' general cap
    app = PlayGame(seed=11)
    panel = app.save_panel
    panel.save_text.value = saved
    panel.load_button.click()
    assert "Loaded" in app.message.text
    assert app.game.to_json() == saved


def test_a_served_kernel_takes_a_whole_five_player_save_into_the_load_box_only(
        monkeypatch: Any) -> None:
    handle = widgets.Widget._handle_msg
    monkeypatch.setattr(widgets.Widget, "_handle_msg", handle)  # put back afterwards
    safety._guard_widget_messages()  # the served kernel's guard on widget messages
    saved = _whole_game(5, "random").to_json()
    assert safety.MAX_TEXT < len(saved) < MAX_SIZE // 2  # fits, with room to spare
    app = PlayGame(seed=11)
    box = app.save_panel.save_text
    _from_the_page(box, saved)
    assert box.value == saved
    other = widgets.Textarea()
    _from_the_page(other, saved)
    assert len(other.value) == safety.MAX_TEXT  # every other box: cut as before
    _from_the_page(box, "x" * (2 * MAX_SIZE))
    assert box.value == ""
    assert f"at most {MAX_SIZE} characters" in app.message.text
    assert "was not kept" in app.message.text


def test_a_paste_longer_than_any_save_is_not_kept_and_the_game_plays_on() -> None:
    app = PlayGame(seed=11)
    before = app.game.to_json()
    panel = app.save_panel
    panel.save_text.value = "{" + " " * MAX_SIZE
    assert panel.save_text.value == ""
    assert "the text pasted is longer, so it was not kept" in app.message.text
    panel.load_button.click()
    assert app.game.to_json() == before
