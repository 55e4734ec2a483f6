"""07's game outlives its kernel (issue 27): the page keeps its game under a key in the
class store after every move (`store.solo`, `widgets.resume`), and a new page with the
same key — a reload in a new kernel — shows the same game at the same move. The store
stays bounded: one record per key, old records expire, a crafted record is refused."""

from __future__ import annotations

import sqlite3
import zlib
from pathlib import Path

import pytest
from widgetfixtures import close_widgets, no_query  # noqa: F401

from toonerville.engine.events import Phase
from toonerville.engine.game import Game
from toonerville.engine.messages import set_language
from toonerville.engine.saves import MAX_SIZE
from toonerville.store.errors import CorruptTableError, StoreError
from toonerville.store.solo import KEEP_DAYS, SoloGames, is_key, new_key
from toonerville.widgets.play import PlayGame

KEY = "k" * 22


@pytest.fixture
def games(tmp_path: Path) -> SoloGames:
    return SoloGames(tmp_path / "class.sqlite")


def _turn(app: PlayGame) -> None:
    """Your turn: pass any offer, draw, discard your first card."""
    while app.game.phase is Phase.BUY and 0 in app.game.deciders:
        app.pass_button.click()
    app.draw_button.click()
    app.hand.row.children[0].button.value = True
    app.discard_button.click()


def test_a_new_page_with_the_same_key_shows_the_same_game_at_the_same_move(
        games: SoloGames) -> None:
    app = PlayGame(seed=11, keep=games, game_key=KEY)
    for _ in range(3):
        _turn(app)
    moves, hand, save = len(app.game.actions), app.hand.cards, app.game.to_json()
    assert moves > 10
    del app  # the kernel dies: nothing of it is left but the store
    again = PlayGame(seed=99, keep=games, game_key=KEY)
    assert again.game.to_json() == save
    assert len(again.game.actions) == moves and again.hand.cards == hand
    assert f"Your game is back, at round 1, move {moves}" in again.message.text
    _turn(again)  # and it plays on
    assert len(again.game.actions) > moves


def test_the_kept_game_keeps_its_bot_kind_and_next_seed(games: SoloGames) -> None:
    app = PlayGame(seed=5, bots=2, bot_kind="random", keep=games, game_key=KEY)
    _turn(app)
    again = PlayGame(keep=games, game_key=KEY)
    assert again.game.players == 3
    assert again.session.settings == {"seed": 6, "bots": 2, "kind": "random"}
    assert {bot.name for bot in again.session.bots if bot is not None} == {"random"}


def test_take_back_and_new_game_are_kept_too(games: SoloGames) -> None:
    app = PlayGame(seed=11, keep=games, game_key=KEY)
    _turn(app)
    app.undo_button.click()
    assert PlayGame(keep=games, game_key=KEY).game.to_json() == app.game.to_json()
    app.new_game()
    assert PlayGame(keep=games, game_key=KEY).game.seed == app.game.seed == 12


def test_a_page_without_a_key_gets_a_new_one_in_its_marker(games: SoloGames) -> None:
    app = PlayGame(seed=11, keep=games)
    assert app.keeper is not None and is_key(app.keeper.key)
    assert f'data-key="{app.keeper.key}"' in app.keeper.marker.value
    assert app.keeper.marker in app.children
    assert games.find(app.keeper.key) is not None  # kept from the start
    assert "A new game (seed 11)" in app.message.text


def test_an_unknown_key_says_so_and_deals_a_new_game(games: SoloGames) -> None:
    app = PlayGame(seed=11, keep=games, game_key=KEY)
    assert "No game is kept under this page's address" in app.message.text
    assert len(app.game.actions) < 10 and app.keeper is not None and app.keeper.key == KEY


def test_the_key_comes_from_the_address(games: SoloGames,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    first = PlayGame(seed=11, keep=games, game_key=KEY)
    _turn(first)
    monkeypatch.setenv("QUERY_STRING", f"seed=3&game={KEY}")
    assert PlayGame(keep=games).game.to_json() == first.game.to_json()


def test_not_kept_outside_a_served_page_or_when_a_game_is_given(games: SoloGames) -> None:
    assert PlayGame(seed=11).keeper is None  # JupyterLab, tests: as before
    assert PlayGame(game=Game.new(players=3, seed=1), keep=games).keeper is None


def test_a_damaged_record_starts_a_new_game_and_says_why(games: SoloGames) -> None:
    PlayGame(seed=11, keep=games, game_key=KEY)
    con = sqlite3.connect(games.path)
    con.execute("UPDATE solo_games SET save = ? WHERE key = ?", (b"not zlib", KEY))
    con.commit()
    app = PlayGame(seed=11, keep=games, game_key=KEY)
    assert "cannot be read" in app.message.text and "new game" in app.message.text


def test_a_crafted_record_never_inflates_past_a_saved_game(games: SoloGames) -> None:
    games.keep(KEY, "{}")
    bomb = zlib.compress(b" " * (8 * MAX_SIZE))
    con = sqlite3.connect(games.path)
    con.execute("UPDATE solo_games SET save = ? WHERE key = ?", (bomb, KEY))
    con.commit()
    with pytest.raises(CorruptTableError):
        games.find(KEY)


def test_one_record_per_key_and_old_records_expire(games: SoloGames) -> None:
    games.keep(KEY, "first", now=1_000.0)
    games.keep(KEY, "second", now=2_000.0)
    found = games.find(KEY, now=2_000.0)
    assert found is not None and found.save == "second"
    other = new_key()
    later = 2_000.0 + KEEP_DAYS * 86_400 + 1
    assert games.find(KEY, now=later) is None
    games.keep(other, "third", now=later)  # keeping deletes what expired
    rows = sqlite3.connect(games.path).execute("SELECT key FROM solo_games").fetchall()
    assert rows == [(other,)]


def test_past_the_most_records_the_oldest_go(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("toonerville.store.solo.MAX_GAMES", 3)  # read when the file opens
    games = SoloGames(tmp_path / "class.sqlite")
    keys = [new_key() for _ in range(5)]
    for at, key in enumerate(keys):
        games.keep(key, "x", now=1_000.0 + at)
    assert [games.find(k, now=1_010.0) is not None for k in keys] == \
        [False, False, True, True, True]


def test_a_bad_key_or_an_oversized_save_is_refused_and_nothing_is_written(
        games: SoloGames) -> None:
    with pytest.raises(StoreError):
        games.keep("../../etc", "{}")
    with pytest.raises(StoreError):
        games.keep(KEY, "x" * (MAX_SIZE + 1))
    assert games.find(KEY) is None
    assert sqlite3.connect(games.path).execute(
        "SELECT COUNT(*) FROM solo_games").fetchone() == (0,)


def test_the_line_for_the_lost_kernel_notice_follows_the_language(games: SoloGames) -> None:
    app = PlayGame(seed=11, keep=games, game_key=KEY)
    assert app.keeper is not None
    assert 'data-lost="Your game is kept: reload the page' in app.keeper.marker.value
    set_language("de")
    try:
        assert 'data-lost="Dein Spiel ist aufbewahrt' in app.keeper.marker.value
        assert f'data-key="{KEY}"' in app.keeper.marker.value
    finally:
        set_language("en")
