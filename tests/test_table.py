"""The one table driver (`toonerville.players.table`) and the engine's answer to "who acts now":
bot games through it are the games `simulate` plays, a learner who is away is played by
a stand-in until they come back, buy-offer settings answer for learners, a failing bot
is replaced by a legal move and kept as a mistake, and the safety limit stops a table."""

from __future__ import annotations

import random

import pytest

from toonerville.engine import actions as A
from toonerville.engine.events import Phase
from toonerville.engine.game import Game
from toonerville.players import table as T
from toonerville.players.bots import RandomBot
from toonerville.players.simulate import play_game
from toonerville.players.table import BotMistake, Table, bot_rng


def test_T9_deciders_answer_who_moves_without_a_made_up_move() -> None:
    game = Game.new(players=3, seed=4)
    first = game.current
    assert game.deciders == (first,) and first in game.deciders
    assert not any(s in game.deciders for s in range(3) if s != first)
    refusal = game.play_refusal(first)
    assert refusal is not None and refusal.message.rule == "T9"  # draw first
    other = (first + 1) % 3
    err = game.play_refusal(other)
    assert err is not None and "turn" in str(err)
    game.draw()
    if game.phase is Phase.BUY:  # T10: the others answer, the drawer waits
        assert first not in game.deciders and game.deciders
        assert game.play_refusal(first) is not None
        for seat in game.deciders:
            game.pass_buy(seat)
    assert game.play_refusal(first) is None and game.deciders == (first,)


def test_a_table_of_bots_plays_the_game_simulate_plays() -> None:
    bots = ("heuristic", "random", "nobuy")
    expected = play_game(bots, seed=11, turn_limit=30)
    game = Game.new(players=3, seed=11, turn_limit=30, names=expected.names)
    table = Table(game, dict(enumerate(bots)))
    assert table.run() == len(expected.actions)
    assert game.actions == expected.actions and game.totals == expected.totals
    assert table.mistakes == [] and table.stalled is None


def test_the_one_seed_rule_gives_every_decision_its_own_generator() -> None:
    armed = T.DecisionRandom()
    armed.arm(7, 12, 2)
    fresh = bot_rng(7, 12, 2)
    draws = [armed.randrange(1000) for _ in range(5)]
    assert draws == [fresh.randrange(1000) for _ in range(5)]
    assert T.bot_key(7, 12, 2) == "7:12:2"
    armed.arm(7, 12, 2)  # armed again for the same decision: the same numbers again
    assert [armed.randrange(1000) for _ in range(5)] == draws
    other = bot_rng(7, 13, 2)
    assert [other.randrange(1000) for _ in range(5)] != draws


def test_a_decision_generator_draws_evenly_and_keeps_its_state() -> None:
    rng = bot_rng(3, 0, 1)
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.randrange(6)] += 1
    assert all(850 < c < 1150 for c in counts), counts  # about 1,000 each
    assert all(0.0 <= rng.random() < 1.0 for _ in range(100))
    assert rng.getrandbits(0) == 0 and rng.getrandbits(200) < 2 ** 200
    state = rng.getstate()
    ahead = [rng.random() for _ in range(3)]
    rng.setstate(state)
    assert [rng.random() for _ in range(3)] == ahead
    deck = list(range(20))
    rng.shuffle(deck)
    assert sorted(deck) == list(range(20)) and deck != list(range(20))
    with pytest.raises(ValueError):
        rng.getrandbits(-1)


def test_a_learner_who_is_away_is_played_by_a_stand_in_until_they_come_back() -> None:
    game = Game.new(players=3, seed=5, names=["Ann", "Bo", "Cy"])
    table = Table(game, {1: "heuristic", 2: "heuristic"})
    table.run()
    assert table.learner_to_act() == (0,) and 0 in game.deciders
    table.set_away(0)
    assert table.away() == (0,)
    start_round = game.round_number
    moved = 0
    while game.round_number == start_round and moved < 2000:
        assert table.step() is not None  # nobody waits: the stand-in plays for Ann
        moved += 1
    assert any(a.seat == 0 for a in game.actions)
    table.set_away(0, False)
    table.run()
    assert table.away() == () and table.learner_to_act() == (0,)


def test_T10_a_buy_offer_setting_answers_for_a_learner() -> None:
    def at_buy_window(setting: str) -> tuple[Game, Table]:
        for seed in range(50):
            game = Game.new(players=3, seed=seed)
            table = Table(game, {s: "heuristic" for s in range(3) if s != 0},
                          buy_offers={0: setting})
            for _ in range(400):
                if table.step() is None:
                    break
            if game.phase is Phase.BUY and 0 in game.deciders or table.offered_to(0):
                return game, table
        raise AssertionError("no buy window reached the learner")

    game, table = at_buy_window("always")
    assert table.offered_to(0) and table.next_move() is None  # the learner is asked
    table.set_buy_offers(0, "never")
    assert table.next_move() == A.Pass(0)  # "never" passes for them
    with pytest.raises(Exception, match="buy-offer setting"):
        table.set_buy_offers(0, "sometimes")


class _Broken(RandomBot):
    name = "broken"

    def choose(self, view, rules, legal, rng):  # type: ignore[no-untyped-def]
        raise ValueError("a bug in the bot")


class _Cheat(RandomBot):
    name = "cheat"

    def choose(self, view, rules, legal, rng):  # type: ignore[no-untyped-def]
        return A.Discard(view.seat, view.hand[0]) if view.hand else A.Draw(view.seat)


@pytest.mark.parametrize("bot", [_Broken(), _Cheat()], ids=["raises", "illegal"])
def test_a_failing_bot_is_replaced_by_a_legal_move_and_kept_as_a_mistake(bot: RandomBot
                                                                         ) -> None:
    game = Game.new(players=3, seed=2, turn_limit=5)
    table = Table(game, {0: bot, 1: "heuristic", 2: "heuristic"})
    for _ in range(60):
        if table.step() is None:
            break
    assert table.mistakes and isinstance(table.mistakes[0], BotMistake)
    assert f"{bot.name} bot at seat 0" in str(table.mistakes[0])
    assert game.actions  # the game went on


def test_the_one_safety_limit_stops_a_table_and_says_so(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    monkeypatch.setattr(T, "SAFETY_MOVES", 7)
    game = Game.new(players=3, seed=1)
    table = Table(game, {s: "random" for s in range(3)})
    assert table.run() == 7 and table.stalled is not None
    assert "7 moves in a row" in str(table.stalled)


def test_a_table_asks_the_rng_only_of_bots_that_draw(monkeypatch: pytest.MonkeyPatch
                                                     ) -> None:
    seeded: list[object] = []
    real = random.Random.seed

    def spy(self: random.Random, a: object = None, version: int = 2) -> None:
        seeded.append(a)
        real(self, a, version)

    monkeypatch.setattr(random.Random, "seed", spy)
    game = Game.new(players=3, seed=3, turn_limit=3)
    seeded.clear()
    Table(game, {s: "heuristic" for s in range(3)}).run()
    assert all(not isinstance(a, str) or ":" not in a for a in seeded)


def test_next_move_is_the_checked_move_step_makes_and_a_mistake_is_kept_once() -> None:
    """A client that asks first (`next_move`, as a page storing a bot's move does) gets
    the failing bot's replacement, the very move `step` then makes, and one mistake."""
    game = Game.new(players=3, seed=2, turn_limit=5)
    table = Table(game, {0: _Cheat(), 1: "heuristic", 2: "heuristic"})
    while table.mistakes == []:
        asked = table.next_move()
        assert asked is not None and game.is_legal(asked)
        assert table.next_move() == asked  # asking again decides nothing new
        assert table.step() == asked
    assert len(table.mistakes) == 1


def test_run_round_only_stops_where_the_round_ends_as_a_playout_wants() -> None:
    game = Game.new(players=3, seed=5, turn_limit=20)
    table = Table(game, {s: "random" for s in range(3)})
    made = table.run(round_only=True)
    assert made == len(game.actions) and game.round_number == 2 and not game.is_over
    assert table.run(round_only=True) > 0 and game.round_number == 3


def test_a_table_keys_its_bots_decisions_on_its_own_seed_if_given() -> None:
    """The one rule with another seed (`Table(seed=)`): a playout's bots draw numbers of
    their own, the same each time for the same seed."""
    def played(seed: int | None) -> tuple[A.Action, ...]:
        game = Game.new(players=3, seed=5, turn_limit=8)
        Table(game, {s: "random" for s in range(3)}, seed=seed).run(round_only=True)
        return game.actions

    assert played(None) == played(5)  # the game's seed by default
    assert played(99) == played(99) != played(5)
