"""A shared table's bots move through `table.Table`, on SQLite and PostgreSQL (issue 26):
the store keeps the moves the table makes, so a bot that chooses a move the game refuses
is replaced by the table's failing-bot rule (the first legal move, the mistake kept) and
the game goes on, and every client of the store stores the same game a `Table` plays."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pgserver import postgres_url_fixture  # noqa: F401
from storehelpers import clients_fixture, where_fixture  # noqa: F401

from toonerville import Game
from toonerville.engine import actions as A
from toonerville.players import bots as B
from toonerville.players.bots import RandomBot
from toonerville.players.table import BotMistake, Table
from toonerville.store import TableStore

Clients = Callable[[], TableStore]


class _Cheat(RandomBot):
    """A bot with a bug: it discards its first card whatever the phase (refused before
    it has drawn)."""

    name = "cheat"

    def choose(self, view, rules, legal, rng):  # type: ignore[no-untyped-def]
        return A.Discard(view.seat, view.hand[0]) if view.hand else A.Draw(view.seat)


@pytest.fixture(name="cheat")
def cheat_fixture(monkeypatch: pytest.MonkeyPatch) -> str:
    """The cheating bot, known to `make_bot` by its name for this test."""
    monkeypatch.setitem(B.BOTS, "cheat", _Cheat)
    return "cheat"


def _table_game(bots: dict[int, str], seed: int, turn_limit: int) -> tuple[Game, Table]:
    game = Game.new(players=3, seed=seed, turn_limit=turn_limit)
    table = Table(game, bots)
    table.run()
    return game, table


def test_a_bot_that_plays_an_illegal_move_at_a_shared_table_is_replaced_and_the_game_goes_on(
        clients: Clients, cheat: str) -> None:
    bots = {0: cheat, 1: "heuristic", 2: "heuristic"}
    expected, table = _table_game(bots, seed=2, turn_limit=5)
    assert table.mistakes and expected.is_over  # the bot does cheat, and Table goes on
    store = clients()
    code = store.open_table(start=Game.new(players=3, seed=2, turn_limit=5), bots=bots)
    made = store.play_bots(code)  # before: IllegalActionError on the first poll, every poll
    played = Game.from_json(store.export(code))
    assert made == len(expected.actions) and played.is_over
    assert played.actions == expected.actions  # the table's one failing-bot rule
    mistakes = store.mistakes(code)
    assert mistakes and all(isinstance(m, BotMistake) for m in mistakes)
    assert "cheat bot at seat 0" in str(mistakes[0])


def test_clients_polling_a_table_with_a_failing_bot_store_one_game(
        clients: Clients, cheat: str) -> None:
    bots = {0: cheat, 1: "heuristic", 2: "random"}
    expected, _table = _table_game(bots, seed=8, turn_limit=6)
    pages = [clients() for _ in range(3)]
    code = pages[0].open_table(start=Game.new(players=3, seed=8, turn_limit=6), bots=bots)
    for _ in range(200):  # the pages take turns, a few moves each, as polls do
        if all(page.play_bots(code, limit=3) == 0 for page in pages):
            break
    for page in pages:
        assert Game.from_json(page.export(code)).actions == expected.actions


def test_a_bots_replacement_move_sent_by_a_page_is_the_bots_own(clients: Clients,
                                                                cheat: str) -> None:
    """`bot_move` answers the move the table makes (the replacement, not the refused
    move), and a page may store it for the bot's seat as the bot's own move."""
    store = clients()
    code = store.open_table(start=Game.new(players=3, seed=2, turn_limit=5),
                            bots={0: cheat, 1: "heuristic", 2: "heuristic"})
    page = clients()
    for _ in range(2000):
        move = page.bot_move(code)
        if move is None:
            break
        number = page.info(code).moves
        page.append(code, move, expected=number)
    assert page.finished(code) and page.mistakes(code)


def test_a_client_beaten_to_a_bot_move_takes_its_own_back_and_catches_up(
        clients: Clients, cheat: str) -> None:
    """Another client stores a move first (here the opener's, another than the bot's):
    the client whose append is refused takes back the move its table made, catches up
    with the stored one, and plays on from there."""
    bots = {0: cheat, 1: "heuristic", 2: "random"}
    slow, quick = clients(), clients()
    code, host = slow.open_hosted(start=Game.new(players=3, seed=8, turn_limit=6),
                                  bots=bots)
    slow.info(code), quick.info(code)  # both have read the table
    real = slow.backend.append
    raced: list[str] = []

    def beaten_first(code_: str, number: int, move: str, previous: str) -> bool:
        if len(raced) < 5 and number % 5 == 0:  # now and then the opener is first
            game = quick._caught_up(code_).game
            seat = A.parse_action(move, game.rules).seat
            other = [a for a in game.legal_actions(seat) if a.notation() != move]
            if other:
                raced.append(other[-1].notation())
                quick.append(code_, other[-1], expected=number - 1, secret=host)
        return real(code_, number, move, previous)

    slow.backend.append = beaten_first  # type: ignore[method-assign]
    slow.play_bots(code)
    assert raced  # the race did happen
    stored = Game.from_json(quick.export(code))
    assert stored.is_over and slow._caught_up(code).game.actions == stored.actions
    notations = [a.notation() for a in stored.actions]
    assert all(m in notations for m in raced)
