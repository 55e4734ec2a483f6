"""The game state machine, rule by rule (T8–T21, H2–H6, H9, H10)."""

from __future__ import annotations

from collections import Counter

import pytest
from gamehelpers import refused

from toonerville import (
    AlreadyDownError,
    BuyError,
    Card,
    CardNotInHandError,
    ContractNotMetError,
    DiscardError,
    InvalidMeldError,
    LayOffError,
    NotYourTurnError,
    RookSwapError,
    Rules,
    RulesError,
    WrongPhaseError,
    parse_cards,
)
from toonerville.engine.events import Phase
from toonerville.engine.game import Game

C = Card.parse


def four_seats(**kw) -> Game:
    """A small position: seat 0 to play, discard G3 on top."""
    defaults = dict(
        hands=["R1 R2 Y5 B9", "G3 G3 Y8 B2", "R9 R10 Y1 Y2", "B5 B6 Y12 G7"],
        stock="Y3 Y4 B7 B8 G11 G12 R13 R14", discard_pile="G3 R5", dealer=3)
    defaults.update(kw)
    return Game.from_position(**defaults)


# -- dealing --------------------------------------------------------------------------

@pytest.mark.parametrize("players", [3, 4, 5])
def test_T2_T7_T8_deal_sizes_stock_and_turn_up(players: int) -> None:
    game = Game.new(players=players, seed=11)
    sizes = [len(game.hand(s)) for s in range(players)]
    assert sizes == [12] * players
    view = game.view(0)
    assert view.discard_size == 1 and view.discard_top is not None
    assert view.stock_size == 57 * players - 12 * players - 1
    assert game.phase is Phase.DRAW and game.current == (game.dealer + 1) % players


def test_T7_deal_sizes_of_rounds_9_10_11_and_H4_switch() -> None:
    for rules, expected in ((Rules(), 14), (Rules(round11_deal=12), 12)):
        game = Game.new(players=3, seed=5, rules=rules, turn_limit=1)
        while game.round_number < 11:
            game.draw()
            for seat in game.deciders if game.phase is Phase.BUY else ():
                game.pass_buy(seat)
            if game.phase is Phase.PLAY:
                game.discard(game.hand(game.current)[0])
        sizes = {len(game.hand(s)) for s in range(3)}
        assert sizes == {expected}
    assert (Rules().deal_size(9), Rules().deal_size(10)) == (15, 16)


def test_H2_dealer_is_drawn_by_seed_and_passes_left() -> None:
    dealers = {Game.new(players=4, seed=s).dealer for s in range(30)}
    assert dealers == {0, 1, 2, 3}
    assert Game.new(players=4, seed=9).dealer == Game.new(players=4, seed=9).dealer
    game = Game.new(players=4, seed=9, rules=Rules(first_dealer=2), turn_limit=1)
    assert game.dealer == 2 and game.current == 3
    game.draw()
    for seat in game.deciders:
        game.pass_buy(seat)
    game.discard(game.hand(3)[0])  # the turn limit ends round 1
    assert game.round_number == 2 and game.dealer == 3 and game.current == 0


def test_H2_first_dealer_beyond_the_table_is_refused() -> None:
    with pytest.raises(RulesError, match="H2"):
        Game.new(players=3, rules=Rules(first_dealer=4))


def _deck_with_top(players: int, top_cards: str) -> list[Card]:
    """A full shoe whose cards right after the deal are `top_cards` (top first)."""
    from toonerville.engine.cards import shoe

    rest = list(shoe(players))
    wanted = list(parse_cards(top_cards))
    for c in wanted:
        rest.remove(c)
    dealt = rest[: 12 * players]
    return dealt + wanted + rest[12 * players:]


def test_H3_turned_up_rook_is_buried_by_default() -> None:
    deck = _deck_with_top(3, "RK G5")
    game = Game.new(players=3, deck=deck, rules=Rules(first_dealer=0))
    view = game.view(0)
    assert view.discard_top == C("G5") and view.discard_size == 1
    assert any(e.kind == "bury" and e.text.rule == "H3" for e in game.history)
    assert view.stock_size == 171 - 36 - 1  # the Rook went back into the stock


def test_H3_switch_rook_stays_up() -> None:
    deck = _deck_with_top(3, "RK G5")
    game = Game.new(players=3, deck=deck, rules=Rules(first_dealer=0, rook_turn_up="stays"))
    assert game.view(0).discard_top == C("RK")


def test_T2_a_given_deck_must_be_a_whole_shoe() -> None:
    with pytest.raises(RulesError, match="T2"):
        Game.new(players=3, deck="R1 R2 R3")


# -- drawing and buying -----------------------------------------------------------------

def test_T9_take_the_top_discard() -> None:
    game = four_seats()
    game.take_discard()
    assert C("G3") in game.hand(0) and len(game.hand(0)) == 5
    assert game.view(0).discard_top == C("R5") and game.phase is Phase.PLAY


def test_T9_only_the_player_whose_turn_it_is_draws() -> None:
    game = four_seats()
    refused(game, NotYourTurnError, "T9", lambda: game.draw(seat=2), "Player 0")
    refused(game, WrongPhaseError, "T9", lambda: game.discard("R1"), "draw first")


def test_T10_T11_T12_worked_example_five_players() -> None:
    # Player 2 (seat 1) declines G3; seats 4, 0 and 3 (players 5, 1, 4) ask to buy.
    game = Game.from_position(
        hands=["R1 R2", "Y5 Y6", "B1 B2", "G1 G2", "Y9 Y10"],
        stock="R13 B13 Y13 G13", discard_pile="G3 B4", dealer=0)
    assert game.current == 1
    game.draw()
    assert game.phase is Phase.BUY and set(game.deciders) == {0, 2, 3, 4}
    game.buy(4)
    game.buy(0)
    assert game.phase is Phase.BUY  # seats 2 and 3 are nearer and have not answered
    game.pass_buy(2)
    assert game.phase is Phase.BUY
    game.buy(3)  # nearest among the buyers: decided now
    assert game.phase is Phase.PLAY and game.current == 1
    assert game.hand(3) == parse_cards("G1 G2 G3 R13")  # the card and one penalty card
    assert game.hand(1) == parse_cards("Y5 Y6 B13")  # then the player draws from the stock
    assert game.hand(4) == parse_cards("Y9 Y10") and game.hand(0) == parse_cards("R1 R2")
    assert game.view(3).buys_this_round == (0, 0, 0, 1, 0)


def test_T10_buy_window_closes_when_everyone_passes() -> None:
    game = four_seats()
    game.draw()
    for seat in (1, 2, 3):
        game.pass_buy(seat)
    assert game.phase is Phase.PLAY and game.hand(0)[-1] == C("Y3")
    assert game.view(0).discard_top == C("G3")


def test_T10_the_player_whose_turn_it_is_cannot_buy_and_answers_once() -> None:
    game = four_seats()
    game.draw()
    refused(game, BuyError, "T10", lambda: game.buy(0), "own turn")
    game.pass_buy(2)
    refused(game, BuyError, "T10", lambda: game.buy(2), "already answered")
    refused(game, WrongPhaseError, "T12", lambda: game.take_discard(), "declined")


def test_T10_no_buying_outside_the_buy_window() -> None:
    game = four_seats()
    refused(game, WrongPhaseError, "T10", lambda: game.buy(2), "nothing is offered")


def test_H5_penalty_cards_switch() -> None:
    game = four_seats(rules=Rules(penalty_cards=2))
    game.draw()
    game.buy(1)
    assert game.hand(1)[-3:] == parse_cards("G3 Y3 Y4") and game.phase is Phase.PLAY
    game = four_seats(rules=Rules(penalty_cards=0))
    game.draw()
    game.buy(1)
    assert game.hand(1)[-1] == C("G3") and len(game.hand(1)) == 5


def test_H5_max_buys_per_round() -> None:
    game = four_seats(rules=Rules(max_buys_per_round=0))
    game.draw()  # nobody may buy: no window, straight to the stock
    assert game.phase is Phase.PLAY and game.deciders == (0,)
    game = four_seats(rules=Rules(max_buys_per_round=1))
    game.draw()
    game.buy(2)
    game.pass_buy(1)
    assert game.view(0).buys_this_round == (0, 0, 1, 0)
    game.discard("R1")  # seat 1 declines the R1: seat 2 has used its buy
    game.draw()
    assert 2 not in game.deciders
    err = refused(game, BuyError, "H5", lambda: game.buy(2), "1 buys")
    assert "round" in str(err)


def test_H5_down_players_may_not_buy_switch() -> None:
    table = {2: ["R3 R4 R5 R6", "B7 B7 B7"]}
    game = four_seats(table=table)
    game.draw()
    assert 2 in game.deciders
    game = four_seats(table=table, rules=Rules(down_players_may_buy=False))
    game.draw()
    assert 2 not in game.deciders
    refused(game, BuyError, "H5", lambda: game.buy(2), "already down")


# -- discarding -----------------------------------------------------------------------

def test_T13_discard_ends_the_turn() -> None:
    game = four_seats()
    game.take_discard()
    game.discard("B9")
    assert game.current == 1 and game.phase is Phase.DRAW
    assert game.view(1).discard_top == C("B9")


def test_T14_may_not_discard_the_card_just_taken() -> None:
    game = four_seats()
    game.take_discard()
    refused(game, DiscardError, "T14", lambda: game.discard("G3"), "G3")


def test_T14_another_card_of_the_same_value_is_fine() -> None:
    game = four_seats(hands=["R1 G3 Y5 B9", "Y8 Y8 Y8", "R9", "B5"])
    game.take_discard()
    taken = game.all_cards()["hands"][4]  # seat 0's fifth card: the G3 just taken
    assert Counter(game.hand(0))[C("G3")] == 2
    game.discard("G3")
    pile = game.all_cards()["discard_pile"]
    # the physical card discarded is the one that was already in hand, not the one taken
    assert game.round_cards[pile[-1]] == C("G3") and pile[-1] != taken
    assert taken in game.all_cards()["hands"]


def test_discard_of_a_card_not_held_is_refused() -> None:
    game = four_seats()
    game.draw()
    for s in (1, 2, 3):
        game.pass_buy(s)
    refused(game, CardNotInHandError, None, lambda: game.discard("G14"), "G14")


# -- laying down and going out --------------------------------------------------------------

def round3_game(**kw) -> Game:
    return four_seats(round_number=3, scores=[[0] * 4, [0] * 4],
                      hands=["R3 R4 R5 R6 R7 R8 R9 R10 Y2", "G1", "G2", "G4"], **kw)


def test_T15_H8_contiguous_runs_refused_overlapping_accepted() -> None:
    game = round3_game()
    game.take_discard()
    refused(game, ContractNotMetError, "H8",
            lambda: game.lay_down(["R3 R4 R5 R6", "R7 R8 R9 R10"]), "touch")
    refused(game, InvalidMeldError, "T4", lambda: game.lay_down(["R3 R4 R5", "R7 R8 R9 R10"]))
    refused(game, ContractNotMetError, "T15", lambda: game.lay_down(["R3 R4 R5 R6"]))
    refused(game, CardNotInHandError, None,
            lambda: game.lay_down(["R3 R4 R5 R6", "R5 R6 R7 R8"]), "R5")


def test_T15_lay_down_moves_cards_to_the_table() -> None:
    game = four_seats(round_number=3, scores=[[0] * 4] * 2,
                      hands=["R3 R4 R5 R6 R8 R9 R10 RK Y2", "G1", "G2", "G4"])
    game.take_discard()
    game.lay_down(["R3 R4 R5 R6", "R8 R9 R10 RK=R11"])
    view = game.view(1)
    assert view.down == (True, False, False, False)
    assert [str(m) for m in view.table[0]] == ["R3 R4 R5 R6", "R8 R9 R10 RK=R11"]
    assert game.hand(0) == parse_cards("Y2 G3")


def test_H7_no_second_lay_down_and_no_extra_melds() -> None:
    game = four_seats(hands=["R7 Y7 B7 G9 G9 B9 Y2 Y2 R2 R1", "G1", "G2", "G4"])
    game.take_discard()
    refused(game, ContractNotMetError, "H7",
            lambda: game.lay_down(["R7 Y7 B7", "G9 G9 B9", "Y2 Y2 R2"]), "exactly")
    game.lay_down(["R7 Y7 B7", "G9 G9 B9"])
    refused(game, AlreadyDownError, "H7", lambda: game.lay_down(["R7 Y7 B7", "G9 G9 B9"]),
            "already down")


def test_H7_extra_melds_switch() -> None:
    game = four_seats(hands=["R7 Y7 B7 G9 G9 B9 Y2 Y2 Y2 R1", "G1", "G2", "G4"],
                      rules=Rules(extra_melds=True))
    game.take_discard()
    game.lay_down(["R7 Y7 B7", "G9 G9 B9", "Y2 Y2 Y2"])
    assert len(game.view(0).table[0]) == 3


def test_T16_going_out_by_discard_scores_zero() -> None:
    game = four_seats(hands=["R7 Y7 B7 G9 G9 B9", "G1 G2", "Y1", "B14 RK"])
    game.draw()
    for seat in (1, 2, 3):
        game.pass_buy(seat)
    game.lay_down(["R7 Y7 B7", "G9 G9 B9"])
    game.discard("Y3")
    assert game.round_number == 2
    assert game.scores == ((0, 10, 5, 35),)
    assert game.records[0].went_out == 0 and game.records[0].ended_by == "out"


def test_T16_going_out_on_the_lay_down_itself() -> None:
    game2 = four_seats(hands=["R7 Y7 B7 G9 B9", "G1 G2", "Y1", "B14"],
                       discard_pile="G9 R5")
    game2.take_discard()
    game2.lay_down(["R7 Y7 B7", "G9 B9 G9"])
    assert game2.round_number == 2 and game2.scores[0][0] == 0


def test_T16_cannot_discard_last_card_before_being_down() -> None:
    game = Game.from_position(hands=["", "G1", "Y1"], stock="B12 B13", discard_pile="",
                              dealer=2)
    refused(game, WrongPhaseError, "T9", lambda: game.take_discard(), "empty")
    game.draw()  # nothing to buy: straight to the stock
    assert game.hand(0) == (C("B12"),)
    refused(game, DiscardError, "T16", lambda: game.discard("B12"), "last card")


def test_T17_round_11_whole_hand_at_once_and_no_discard_out() -> None:
    hand = "R1 R2 R3 R4 B5 B6 B7 B8 Y9 Y9 G9 G12 G12 R12"
    game = Game.from_position(hands=[hand, "G1", "G2"], stock="Y3 Y4", discard_pile="R5",
                              round_number=11, scores=[[0] * 3] * 10, dealer=2)
    game.take_discard()  # R5: 15 cards
    refused(game, ContractNotMetError, "T17",
            lambda: game.lay_down(["R1 R2 R3 R4", "B5 B6 B7 B8", "Y9 Y9 G9", "G12 G12 R12"]),
            "R5")
    game.lay_down(["R1 R2 R3 R4 R5", "B5 B6 B7 B8", "Y9 Y9 G9", "G12 G12 R12"])
    assert game.is_over and game.scores[-1] == (0, 5, 5)


def test_T17_no_going_out_by_discard_in_round_11() -> None:
    game = Game.from_position(hands=["", "G1 G2", "Y1 Y2"], stock="B12 B13", discard_pile="",
                              round_number=11, scores=[[0] * 3] * 10, dealer=2,
                              table={0: ["R7 R8 R9 R10", "B7 B8 B9 B10", "Y3 Y3 Y3",
                                         "G4 G4 G4"]})
    game.draw()
    refused(game, DiscardError, "T17", lambda: game.discard("B12"), "round 11")


# -- laying off, the Rook swap ----------------------------------------------------------

def down_game(**kw) -> Game:
    table = {0: ["R3 R4 R5 R6", "B8 B8 B8"], 1: ["Y5 Y6 Y7 RK=Y8", "G1 G1 RK"]}
    hands = kw.pop("hands", ["R7 Y8 RK G1 B2", "G4 G5", "Y1 Y2", "B13 B14"])
    return four_seats(table=table, hands=hands, **kw)


def test_H9_lay_off_own_and_others_melds() -> None:
    game = down_game()
    game.take_discard()
    game.lay_off("R7", (0, 0))
    game.lay_off("G1", (1, 1))
    assert str(game.view(0).table[0][0]) == "R3 R4 R5 R6 R7"
    assert str(game.view(0).table[1][1]) == "G1 G1 RK G1"


def test_H9_rook_laid_off_onto_a_run_is_declared() -> None:
    game = down_game()
    game.take_discard()
    refused(game, LayOffError, "H9", lambda: game.lay_off("RK", (0, 0)), "R2 or R7")
    game.lay_off("RK", (0, 0), as_card="R2")
    assert str(game.view(0).table[0][0]) == "RK=R2 R3 R4 R5 R6"


def test_H9_not_down_may_not_lay_off() -> None:
    game = down_game(hands=["R1 R2", "R7 G4", "Y1 Y2", "B13 B14"])
    game.take_discard()
    game.discard("R1")
    game.take_discard()  # seat 1 is down (table) - fine; seat 2 is not
    game.lay_off("R7", (0, 0), seat=1)
    game.discard("G4", seat=1)
    game.draw(seat=2)
    for s in game.deciders:
        game.pass_buy(s)
    refused(game, LayOffError, "H9", lambda: game.lay_off("Y2", (1, 0), seat=2), "down")


def test_H9_switches_same_turn_and_own_melds_only() -> None:
    game = four_seats(hands=["R3 R4 R5 R6 R7 Y7 B7 G7 Y1", "G1", "G2", "G4"],
                      rules=Rules(lay_off_same_turn=False), round_number=2,
                      scores=[[0] * 4])
    game.take_discard()
    game.lay_down(["R3 R4 R5 R6", "Y7 B7 G7"])
    refused(game, LayOffError, "H9", lambda: game.lay_off("R7", (0, 0)), "turn after")
    game = down_game(rules=Rules(lay_off_on_others=False))
    game.take_discard()
    refused(game, LayOffError, "H9", lambda: game.lay_off("G1", (1, 1)), "own")
    game.lay_off("R7", (0, 0))


def test_lay_off_that_does_not_fit_explains() -> None:
    game = down_game()
    game.take_discard()
    refused(game, LayOffError, "T5", lambda: game.lay_off("R7", (0, 1)), "set")
    refused(game, LayOffError, "T4", lambda: game.lay_off("G1", (0, 0)), "R2 or R7")
    refused(game, LayOffError, None, lambda: game.lay_off("R7", (3, 0)), "no meld 3.0")


def test_T18_swap_then_lay_off_the_rook() -> None:
    game = down_game()
    game.take_discard()
    before = Counter(game.hand(0))
    game.swap_rook("Y8", (1, 0), lay_off_onto=(0, 0), rook_as="R7")
    table = game.view(0).table
    assert str(table[1][0]) == "Y5 Y6 Y7 Y8"
    assert str(table[0][0]) == "R3 R4 R5 R6 RK=R7"
    after = Counter(game.hand(0))
    assert before - after == Counter({C("Y8"): 1})


def test_T18_the_rook_must_be_played_at_once() -> None:
    game = down_game()
    game.take_discard()
    refused(game, RookSwapError, "T18", lambda: game.swap_rook("Y8", (1, 0)), "at once")
    refused(game, RookSwapError, "T18",
            lambda: game.swap_rook("Y4", (1, 0), lay_off_onto=(0, 0), rook_as="R7"), "Y8")


def test_T18_swap_into_the_contract_lay_down() -> None:
    table = {1: ["Y5 Y6 Y7 RK=Y8"]}
    game = four_seats(table=table,
                      hands=["Y8 R7 B7 G9 G9 B9 R2", "G4 G5", "Y1 Y2", "B13 B14"])
    game.take_discard()  # G3
    refused(game, RookSwapError, "T18",
            lambda: game.swap_rook("Y8", (1, 0), lay_off_onto=(1, 0), rook_as="Y9"),
            "lay-down")
    game.swap_rook("Y8", (1, 0), lay_down=["R7 B7 RK", "G9 G9 B9"])
    assert game.view(0).down[0]
    assert str(game.view(0).table[1][0]) == "Y5 Y6 Y7 Y8"


def test_T19_rook_in_a_set_never_swapped() -> None:
    game = down_game(hands=["G1 R7", "G4 G5", "Y1 Y2", "B13 B14"])
    game.take_discard()
    refused(game, RookSwapError, "T19",
            lambda: game.swap_rook("G1", (1, 1), lay_off_onto=(0, 0), rook_as="R7"))


def test_H10_swap_switches() -> None:
    game = down_game(rules=Rules(rook_swap=False))
    game.take_discard()
    refused(game, RookSwapError, "H10",
            lambda: game.swap_rook("Y8", (1, 0), lay_off_onto=(0, 0), rook_as="R7"))
    table = {1: ["Y5 Y6 Y7 RK=Y8"]}
    game = four_seats(table=table, hands=["Y8 R7 B7 G9 G9 B9", "G4", "Y1", "B13"],
                      rules=Rules(swap_only_when_down=True))
    game.take_discard()
    refused(game, RookSwapError, "H10",
            lambda: game.swap_rook("Y8", (1, 0), lay_down=["R7 B7 RK", "G9 G9 B9"]))


def test_H10_swap_only_after_drawing() -> None:
    game = down_game()
    refused(game, WrongPhaseError, "T9",
            lambda: game.swap_rook("Y8", (1, 0), lay_off_onto=(0, 0), rook_as="R7"))


# -- the empty stock ---------------------------------------------------------------------

def test_H6_empty_stock_reshuffles_the_discard_pile() -> None:
    game = four_seats(stock="", discard_pile="G3 R5 Y9 B1")
    game.draw()
    for s in (1, 2, 3):
        game.pass_buy(s)
    view = game.view(0)
    assert view.discard_top == C("G3") and view.discard_size == 1
    assert view.stock_size == 2 and len(game.hand(0)) == 5
    assert any(e.kind == "restock" for e in game.history)


def test_H6_turn_over_keeps_the_order() -> None:
    game = four_seats(stock="", discard_pile="G3 R5 Y9 B1", rules=Rules(restock="turn_over"))
    game.draw()
    for s in (1, 2, 3):
        game.pass_buy(s)
    assert game.hand(0)[-1] == C("B1")  # the bottom of the pile becomes the top of the stock


def test_H6_nothing_to_shuffle_ends_the_round() -> None:
    game = four_seats(stock="", discard_pile="G3")
    game.draw()
    for s in (1, 2, 3):
        game.pass_buy(s)
    assert game.round_number == 2
    assert game.records[0].ended_by == "stock" and game.records[0].went_out is None
    assert game.scores[0] == (20, 20, 25, 25)  # T3: what each holds


# -- scoring and the end ---------------------------------------------------------------

def test_T21_lowest_total_wins_and_ties_share() -> None:
    hand = "R1 R2 R3 R4 B5 B6 B7 B8 Y9 Y9 G9 G12 G12 R12"
    game = Game.from_position(hands=[hand, "G1", "B14 Y2"], stock="Y3 Y4", discard_pile="R5",
                              round_number=11, scores=[[10, 0, 0]] * 5 + [[0, 5, 0]] * 5,
                              dealer=2)
    game.take_discard()
    game.lay_down(["R1 R2 R3 R4 R5", "B5 B6 B7 B8", "Y9 Y9 G9", "G12 G12 R12"])
    assert game.is_over
    assert game.totals == (50, 30, 15)
    assert game.places == (3, 2, 1) and game.winners == (2,)
    refused(game, WrongPhaseError, "T7", lambda: game.draw(), "over")
    tie = Game.from_position(hands=[hand, "G1", "Y2"], stock="Y3", discard_pile="R5",
                             round_number=11, scores=[[0, 0, 0]] * 10, dealer=2)
    tie.take_discard()
    tie.lay_down(["R1 R2 R3 R4 R5", "B5 B6 B7 B8", "Y9 Y9 G9", "G12 G12 R12"])
    assert tie.totals == (0, 5, 5) and tie.places == (1, 2, 2)


# -- views, history, reproducibility --------------------------------------------------------

def test_views_hide_other_hands() -> None:
    game = Game.new(players=4, seed=3)
    view = game.view(2)
    assert view.hand == game.hand(2)
    assert view.hand_sizes == (12, 12, 12, 12)
    assert not any(isinstance(v, tuple) and v and all(isinstance(c, Card) for c in v)
                   and v != view.hand for v in (view.hand_sizes,))
    assert "hands" not in type(view)._fields
    assert not any(isinstance(v, tuple) and len(v) == 4 and all(
        isinstance(h, tuple) and h and isinstance(h[0], Card) for h in v) for v in view)


def test_same_seed_same_game() -> None:
    a, b = Game.new(players=4, seed=42), Game.new(players=4, seed=42)
    assert [a.hand(s) for s in range(4)] == [b.hand(s) for s in range(4)]
    c = Game.new(players=4, seed=43)
    assert [a.hand(s) for s in range(4)] != [c.hand(s) for s in range(4)]


def test_history_records_moves_and_automatic_steps() -> None:
    game = four_seats()
    game.draw()
    game.buy(2)
    game.pass_buy(1)
    kinds = [e.kind for e in game.history]
    assert kinds[:1] == ["position"]
    assert kinds[1:] == ["offer", "pass", "buy_request", "buy", "penalty", "draw"] or \
        kinds[1:] == ["offer", "buy_request", "pass", "buy", "penalty", "draw"]
    assert [a.notation() for a in game.actions] == ["0: draw", "2: buy", "1: pass"]
    assert all(e.text.rule for e in game.history if e.kind != "position")


def test_from_position_refuses_impossible_positions() -> None:
    with pytest.raises(RulesError, match="T2"):
        Game.from_position(hands=["R1 R1 R1 R1", "G1", "Y1"], stock="", discard_pile="")
    with pytest.raises(RulesError, match="T20"):
        Game.from_position(hands=["R1", "G1", "Y1"], stock="", discard_pile="", round_number=3)
    with pytest.raises(InvalidMeldError):
        Game.from_position(hands=["R1", "G1", "Y1"], stock="", discard_pile="",
                           table={0: ["R1 R2 R3"]})


@pytest.mark.parametrize("text", ["hello", "0: fly away", "9: draw", "", "0: discard Q3",
                                  "0: down R1 R2 /", "0: discard " + "R1" * 3000, "0:\ndraw"])
def test_is_legal_answers_false_for_text_that_is_no_move(text: str) -> None:
    """`is_legal` is a question: text that is not a move is not legal (False), where
    `apply` explains why with a `NotationError`."""
    game = four_seats()
    assert game.is_legal(text) is False
    assert game.is_legal("0: take") is True


def test_T21_a_playout_world_is_over_with_its_round_and_records_no_events() -> None:
    """A playout's world (the strong bot's) plays its round exactly as a game does, then
    is over: no next deal, no history (nobody reads either)."""
    from toonerville.players.table import Table

    base = Game.new(players=4, seed=5)
    cards, where = base.round_cards, base.all_cards()
    position = {"hands": [base.hand(s) for s in range(4)],
                "stock": [cards[i] for i in reversed(where["stock"])],
                "discard_pile": [cards[i] for i in reversed(where["discard_pile"])],
                "dealer": base.dealer, "seed": 9, "turn_limit": 40}
    normal = Game.from_position(**position)
    playout = Game.from_position(**position, playout=True)
    for game in (normal, playout):
        Table(game, dict.fromkeys(range(4), "heuristic")).run(round_only=True)
    assert playout.actions == normal.actions and len(normal.actions) > 20
    assert playout.scores == normal.scores and len(playout.scores) == 1
    assert normal.round_number == 2 and not normal.is_over
    assert playout.is_over and playout.round_number == 1 and playout.deciders == ()
    assert playout.history == () and len(normal.history) > len(normal.actions)
    assert playout.position_at(3).history == () and playout.position_at(3).moves_made == 3
