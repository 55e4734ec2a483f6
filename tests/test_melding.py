"""Melding at the edges: T13a (no move may strand a player), T14 with identical cards in
a Rook swap, H12 (when a swapped Rook must be played) and positions whose table is written
in any order."""

from __future__ import annotations

from collections import Counter

from gamehelpers import refused

from toonerville import (
    AlreadyDownError,
    Card,
    DeadEndError,
    DiscardError,
    RookSwapError,
    Rules,
    SwappedRook,
)
from toonerville.engine import actions as A
from toonerville.engine.events import Phase
from toonerville.engine.game import Game

C = Card.parse


OTHERS = ["G4 G5", "Y1 Y2", "B13 B14"]


def position(hands: list[str], table: dict[int, list[str]] | None = None, pile: str = "G3 R5",
             **kw: object) -> Game:
    """Seat 0 to play; a one-hand list is filled up with three small hands."""
    hands = hands + OTHERS[len(hands) - 1:] if len(hands) < 4 else hands
    return Game.from_position(hands=hands, stock="Y3 Y4 B7 B8 G11 G12 R13 R14",
                              discard_pile=pile, table=table or {}, dealer=3, **kw)


# -- T13a ----------------------------------------------------------------------------------
def test_T13a_lay_down_that_leaves_only_the_taken_card_is_refused() -> None:
    # seat 0 takes G3 and could lay down everything else: G3 would be left, undiscardable
    # (T14) and fitting no meld, so the lay-down is refused and says why
    game = position(["R7 Y7 B7 G9 G9 B9", "G4 G5", "Y1 Y2", "B13 B14"])
    game.take_discard()
    err = refused(game, DeadEndError, "T13a",
                  lambda: game.lay_down(["R7 Y7 B7", "G9 G9 B9"]), "G3")
    assert "T14" in str(err)  # it names why the card cannot be discarded
    # a lay-down that uses the taken card is fine
    game2 = position(["R7 Y7 B7 G9 G9 B9"] + ["G4 G5", "Y1 Y2", "B13 B14"],
                     pile="G9 R5")
    game2.take_discard()
    game2.lay_down(["R7 Y7 B7", "G9 G9 B9 G9"])
    assert game2.phase is Phase.DRAW and game2.round_number == 2  # went out


def test_T13a_allowed_when_the_taken_card_fits_a_meld_on_the_table() -> None:
    # G3 fits seat 1's run G4 G5 G6 G7: laying it off afterwards goes out, so no dead end
    game = position(["R7 Y7 B7 G9 G9 B9", "Y1 Y2", "Y1 Y2", "B13 B14"],
                    table={1: ["G4 G5 G6 G7"]})
    game.take_discard()
    game.lay_down(["R7 Y7 B7", "G9 G9 B9"])
    assert game.hand(0) == (C("G3"),)
    assert A.LayOff(0, C("G3"), (1, 0)) in game.legal_actions()
    game.lay_off("G3", (1, 0))
    assert game.round_number == 2 and game.scores[0][0] == 0


def test_T13a_dead_end_when_lay_offs_wait_a_turn() -> None:
    # with H9's "not on the lay-down turn" switch the taken card could not be laid off
    # this turn, so the same lay-down is refused
    game = position(["R7 Y7 B7 G9 G9 B9", "Y1 Y2", "Y1 Y2", "B13 B14"],
                    table={1: ["G4 G5 G6 G7"]}, rules=Rules(lay_off_same_turn=False))
    game.take_discard()
    refused(game, DeadEndError, "T13a", lambda: game.lay_down(["R7 Y7 B7", "G9 G9 B9"]))


def test_T13a_lay_off_that_strands_is_refused_and_the_other_way_is_open() -> None:
    table = {0: ["R3 R4 R5 R6"], 1: ["B2 B3 B4 B5"]}
    game = position(["R7 B1"], table=table, pile="G11 R5")
    game.take_discard()  # holds R7 B1 G11; G11 fits no meld
    game.lay_off("R7", (0, 0))
    refused(game, DeadEndError, "T13a", lambda: game.lay_off("B1", (1, 0)), "G11")
    assert A.LayOff(0, C("B1"), (1, 0)) not in game.legal_actions()
    game.discard("B1")  # the way that ends the turn is open
    assert game.phase is Phase.DRAW


def test_T13a_no_seeded_heuristic_game_gets_stuck_three_players() -> None:
    """The game that crashed the first edition (3 heuristic bots, 1 in 400) and its
    neighbours: every position has a move for the one who decides."""
    from toonerville.players.simulate import play_game

    def has_a_move(game: Game) -> None:
        if not game.is_over:
            assert game.legal_actions(game.deciders[0]), "nobody can move"

    for seed in range(12):
        play_game(["heuristic"] * 3, seed=seed, turn_limit=20, after_action=has_a_move)


# -- T14 with twins ------------------------------------------------------------------------
def test_T14_swap_uses_the_taken_twin_and_the_other_may_be_discarded() -> None:
    # seat 0 holds Y8 and takes another Y8: the swap must use the taken one (T14), so the
    # Y8 left in hand is the twin and may be discarded
    table = {0: ["R3 R4 R5 R6"], 1: ["Y5 Y6 Y7 RK=Y8"]}
    game = position(["Y8 B2 B3"], table=table, pile="Y8 R5")
    game.take_discard()
    taken = game._pos.taken
    game.swap_rook("Y8", (1, 0), lay_off_onto=(0, 0), rook_as="R7")
    placed = game._pos.table[1][0][1]
    assert taken in placed  # the physical card taken from the pile is in the run
    assert Counter(game.hand(0)) == Counter([C("Y8"), C("B2"), C("B3")])
    game.discard("Y8")  # the twin: allowed
    assert game.phase is Phase.DRAW


# -- H12 -----------------------------------------------------------------------------------
def test_H12_default_the_swapped_rook_is_played_at_once() -> None:
    table = {0: ["R3 R4 R5 R6"], 1: ["Y5 Y6 Y7 RK=Y8"]}
    game = position(["Y8 B2 B3"], table=table)
    game.take_discard()
    refused(game, RookSwapError, "T18", lambda: game.apply(A.SwapRook(0, C("Y8"), (1, 0))))


def test_H12_switch_keep_the_rook_for_later_in_the_turn() -> None:
    rules = Rules(swapped_rook=SwappedRook.THIS_TURN)
    table = {0: ["R3 R4 R5 R6"], 1: ["Y5 Y6 Y7 RK=Y8"]}
    game = position(["Y8 B2 B3"], table=table, rules=rules)
    game.take_discard()
    game.apply(A.SwapRook(0, C("Y8"), (1, 0)))
    assert game.swapped_rook_in_hand and C("RK") in game.hand(0)
    refused(game, RookSwapError, "H12", lambda: game.discard("B2"))
    assert all(not isinstance(a, A.Discard) for a in game.legal_actions())
    game.lay_off("RK", (0, 0), as_card="R7")
    assert not game.swapped_rook_in_hand
    game.discard("B2")
    assert game.phase is Phase.DRAW


def test_H12_a_swap_with_nowhere_to_play_the_rook_is_refused() -> None:
    # not down, and no lay-down with the Rook: keeping it would block the turn for good
    rules = Rules(swapped_rook=SwappedRook.THIS_TURN)
    game = position(["Y8 B2 B3 G12"], table={1: ["Y5 Y6 Y7 RK=Y8"]}, rules=rules)
    game.take_discard()
    refused(game, DeadEndError, "H12", lambda: game.apply(A.SwapRook(0, C("Y8"), (1, 0))))


def test_H12_notation_of_a_swap_kept_in_hand_round_trips() -> None:
    rules = Rules(swapped_rook=SwappedRook.THIS_TURN)
    table = {0: ["R3 R4 R5 R6"], 1: ["Y5 Y6 Y7 RK=Y8"]}
    game = position(["Y8 B2 B3"], table=table, rules=rules)
    game.take_discard()
    game.apply(A.SwapRook(0, C("Y8"), (1, 0)))
    again = Game.from_json(game.to_json())
    assert again.actions == game.actions and again.hand(0) == game.hand(0)


# -- error types ---------------------------------------------------------------------------
def test_H7_a_second_lay_down_is_already_down_not_contract_not_met() -> None:
    game = position(["R7 Y7 B7 G9 G9 B9 R1"], table={0: ["G1 G1 G1", "B2 B2 B2"]})
    game.take_discard()
    err = refused(game, AlreadyDownError, "H7", lambda: game.lay_down(["R7 Y7 B7", "G9 G9 B9"]))
    assert "already down" in str(err)


# -- positions -----------------------------------------------------------------------------
def test_T2_from_position_ids_do_not_depend_on_the_order_of_the_table() -> None:
    """A table listed seat 1 before seat 0 gives every physical card the same identity,
    so the same swap works (the first edition said "you do not hold RK")."""
    hands = ["Y8 B2 B3", "G4 G5", "Y1 Y2", "B13 B14"]
    a = position(hands, table={0: ["R3 R4 R5 R6"], 1: ["Y5 Y6 Y7 RK=Y8"]})
    b = position(hands, table={1: ["Y5 Y6 Y7 RK=Y8"], 0: ["R3 R4 R5 R6"]})
    assert a.all_cards() == b.all_cards() and a.round_cards == b.round_cards
    for game in (a, b):
        game.take_discard()
        game.swap_rook("Y8", (1, 0), lay_off_onto=(0, 0), rook_as="R7")
        assert str(game.view(0).table[0][0]) == "R3 R4 R5 R6 RK=R7"


def test_T14_discard_refusals_still_name_the_rule() -> None:
    game = position(["R1 B9"])
    game.take_discard()
    refused(game, DiscardError, "T14", lambda: game.discard("G3"))
