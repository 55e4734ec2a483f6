"""The bots: the random bot, the heuristic bot (its choices always legal, T13a included,
its quick answers equal to the solver's, its hints), the no-buy bot and the registry."""

from __future__ import annotations

import random
from functools import partial

import pytest

from toonerville.engine import actions as A
from toonerville.engine.cards import NATURALS, ROOK, parse_cards
from toonerville.engine.errors import RulesError
from toonerville.engine.events import Phase
from toonerville.engine.game import Game
from toonerville.engine.messages import Message
from toonerville.engine.rules import Contract, Rules
from toonerville.engine.solver import find_contract
from toonerville.players.bots import (
    BOT_KINDS,
    BOTS,
    HeuristicBot,
    NoBuyBot,
    RandomBot,
    hand_key,
    make_bot,
    usefulness,
)
from toonerville.players.simulate import play_game

HOUSE_RULES = (Rules(), Rules(penalty_cards=2, max_buys_per_round=2, extra_melds=True),
               Rules(rooks_at_most_naturals=True, lay_off_on_others=False),
               Rules(max_rooks_per_meld=1, lay_off_same_turn=False, swap_only_when_down=True,
                     contiguous_runs=True, same_number_sets=True))


def bot_move(game: Game, bot: HeuristicBot | RandomBot, seat: int | None = None) -> A.Action:
    """Let `bot` choose for the deciding seat (or `seat`) and apply its move."""
    seat = game.deciders[0] if seat is None else seat
    action = bot.choose(game.view(seat), game.rules, lambda: game.legal_actions(seat),
                        random.Random(0))
    game.apply(action)
    return action


# -- the registry ------------------------------------------------------------------------
def test_registry_names_every_bot_once() -> None:
    assert BOT_KINDS == tuple(BOTS) == ("heuristic", "random", "nobuy", "beginner",
                                        "strong")
    for kind in BOT_KINDS:
        bot = make_bot(kind)
        assert bot.name == kind and type(bot) is type(BOTS[kind]())
    mine = HeuristicBot()
    assert make_bot(mine) is mine
    with pytest.raises(RulesError, match="unknown bot 'clever'"):
        make_bot("clever")


# -- the random bot ----------------------------------------------------------------------
def test_random_bot_picks_among_the_legal_moves_by_its_generator() -> None:
    game = Game.new(players=3, seed=5)
    bot = RandomBot()
    for _ in range(60):
        seat = game.deciders[0]
        legal = game.legal_actions(seat)
        again = [bot.choose(game.view(seat), game.rules, partial(list, legal),
                            random.Random(k)) for k in (1, 1, 2)]
        assert all(a in legal for a in again)
        assert again[0] == again[1]  # the same generator state, the same move
        game.apply(again[2])


# -- the heuristic bot: legal, T13a -------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("rules", HOUSE_RULES, ids=["default", "buys", "ratio", "strict"])
def test_seeded_bot_games_never_make_a_mistake(players: int, rules: Rules) -> None:
    """`play_game` raises `BotMistake` for any move the game refuses."""
    seats = ("heuristic", "nobuy", "random", "heuristic", "random")[:players]
    game = play_game(seats, seed=players * 31 + HOUSE_RULES.index(rules), rules=rules,
                     turn_limit=25)
    assert game.is_over and len(game.scores) == 11


def test_T13a_bot_keeps_the_card_that_lets_it_go_out() -> None:
    """Down, holding R14, it takes the Rook: laying R14 off first would close the run and
    leave only the Rook, which it may not discard (T14) and which then fits nowhere."""
    run = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13"
    game = Game.from_position(hands=["R14", "B2 B5 G7 Y9 Y11", "G2 G5 B7 Y3 Y12"],
                              stock="B9 B10 G11 G12 Y1 Y2", discard_pile="RK",
                              table={0: [run]}, current=0, dealer=2)
    bot = HeuristicBot()
    assert bot_move(game, bot) == A.TakeDiscard(0)
    first = bot_move(game, bot)
    assert first == A.LayOff(0, ROOK, (0, 0), parse_cards("R14")[0])
    assert bot_move(game, bot) == A.Discard(0, parse_cards("R14")[0])
    assert game.round_number == 2  # it went out


def test_T13a_without_the_legal_list_the_risky_move_is_left_out() -> None:
    run = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13"
    game = Game.from_position(hands=["R14", "B2 B5 G7 Y9 Y11", "G2 G5 B7 Y3 Y12"],
                              stock="B9 B10", discard_pile="RK", table={0: [run]},
                              current=0, dealer=2)
    game.take_discard(0)
    action, why = HeuristicBot().explain(game.view(0), game.rules)
    assert game.is_legal(action) and isinstance(action, A.LayOff) and action.card == ROOK
    assert why.rule == "H9" and why.params["card"] == ROOK


def test_bot_lays_a_rook_off_at_the_high_end_of_an_open_run() -> None:
    game = Game.from_position(hands=["RK B9 B9", "B2 B5 G7 Y9 Y11", "G2 G5 B7 Y3 Y12"],
                              stock="Y1 Y2 Y3", discard_pile="G1", table={0: ["R5 R6 R7 R8"]},
                              current=0, dealer=2)
    bot = HeuristicBot()
    assert bot_move(game, bot) == A.Draw(0)
    while game.phase is not Phase.PLAY:  # the others answer the buy window
        bot_move(game, HeuristicBot())
    off = bot_move(game, bot)
    assert off == A.LayOff(0, ROOK, (0, 0), parse_cards("R9")[0])


# -- the heuristic bot: its quick answers ------------------------------------------------
@pytest.mark.parametrize("rules", [Rules(), Rules(max_rooks_per_meld=2),
                                   Rules(rooks_at_most_naturals=True),
                                   Rules(max_rooks_per_meld=1)],
                         ids=["default", "max2", "ratio", "max1"])
def test_the_bots_cached_contract_answers_are_the_solvers(rules: Rules) -> None:
    """`_meets` answers from hands it already knows (one card fewer; a card for a Rook)
    before asking the solver; every answer must be the solver's own."""
    rng = random.Random(11)
    bot = HeuristicBot()
    bot._reset(rules)
    for _ in range(40):
        rnd = rng.randrange(1, 11)
        hand = rng.sample(NATURALS * 2, 11) + [ROOK] * rng.randrange(3)
        for cards in [hand, [*hand, ROOK]] + [[*hand, c] for c in rng.sample(NATURALS, 12)]:
            expected = find_contract(cards, rnd, rules) is not None
            assert bot._meets(hand_key(cards), rnd, rules) is expected, (cards, rnd)


def test_usefulness_counts_identical_cards_toward_a_set() -> None:
    """`Y7 R7 R7` is a set (T5): a second R7 partners R7 like any other 7; the card
    itself, when held, is not its own partner."""
    r7, y7, b7 = parse_cards("R7 Y7 B7")
    two_sets = Contract(0, 2)
    assert usefulness(r7, [r7, r7, y7], two_sets) == usefulness(r7, [r7, b7, y7], two_sets)
    assert usefulness(r7, [r7, r7, y7], two_sets) > usefulness(r7, [r7, y7], two_sets)
    assert usefulness(r7, [r7, y7], two_sets) == usefulness(r7, [y7], two_sets) > 0
    assert usefulness(ROOK, [], two_sets) == 20.0
    assert usefulness(r7, parse_cards("B1 G12"), Contract(1, 1)) == 0.0


# -- the heuristic bot: hints --------------------------------------------------------------
def test_explain_lay_down_when_the_contract_is_met() -> None:
    game = Game.from_position(hands=["R7 Y7 G7 B9 Y9 G9 R1 B13", "B2 B5 G7 Y9 Y11 R3 R4",
                                     "G2 G5 B7 Y3 Y12 R11 R12"],
                              stock="B3 B4 G1", discard_pile="Y1", current=0, dealer=2)
    bot = HeuristicBot()
    assert bot_move(game, bot) == A.Draw(0)
    while game.phase is not Phase.PLAY:  # the others answer the buy window
        bot_move(game, HeuristicBot())
    action, why = bot.explain(game.view(0), game.rules, lambda: game.legal_actions(0))
    assert isinstance(action, A.LayDown) and game.is_legal(action)
    assert isinstance(why, Message) and why.rule == "T15"
    assert str(why).startswith("lay down now: your hand meets the contract (2 sets)")


def test_explain_take_the_discard_that_completes_the_contract() -> None:
    game = Game.from_position(hands=["R7 Y7 B9 Y9 G9 R1 B13 G3", "B2 B5 G7 Y9 Y11 R3 R4",
                                     "G2 G5 B7 Y3 Y12 R11 R12"],
                              stock="B3 B4 G1", discard_pile="G7", current=0, dealer=2)
    action, why = HeuristicBot().explain(game.view(0), game.rules)
    assert action == A.TakeDiscard(0)
    assert str(why) == "take G7: it completes your contract (T9)"


def test_explain_discard_names_the_card_it_throws() -> None:
    game = Game.new(players=4, seed=3)
    bot = HeuristicBot()
    while game.phase is not Phase.PLAY or game.view(game.current).down[game.current]:
        bot_move(game, bot)
    seat = game.current
    action, why = bot.explain(game.view(seat), game.rules, lambda: game.legal_actions(seat))
    if isinstance(action, A.Discard):
        assert why.rule == "T13" and why.params["card"] == action.card
        assert str(why).startswith(f"discard {action.card}: ")
    assert game.is_legal(action)


def test_explain_and_choose_agree_through_a_game() -> None:
    game = Game.new(players=3, seed=8)
    chooser, explainer = HeuristicBot(), HeuristicBot()
    for _ in range(300):
        if game.is_over:
            break
        seat = game.deciders[0]
        view = game.view(seat)
        legal = partial(game.legal_actions, seat)
        action = chooser.choose(view, game.rules, legal, random.Random(0))
        hinted, why = explainer.explain(view, game.rules, legal)
        assert hinted == action
        assert why.rule is not None and str(why)
        game.apply(action)


# -- the no-buy bot -----------------------------------------------------------------------
def test_nobuy_bot_never_buys() -> None:
    game = play_game(["nobuy", "heuristic", "nobuy", "heuristic"], seed=4, turn_limit=40)
    buys = [sum(r.buys[seat] for r in game.records) for seat in range(4)]
    assert buys[0] == buys[2] == 0
    assert isinstance(make_bot("nobuy"), NoBuyBot)
