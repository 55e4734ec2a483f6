"""Legal moves, checked by an independent path: every move of the simple kinds that the
game accepts is enumerated by brute force (every card value, every meld, every seat) and
asked of `is_legal`; the list `legal_actions` gives must be exactly those, and every
suggested lay-down or swap it lists must be accepted. And no seeded game, of any bots and
house rules, ever reaches a position where the deciding player has no move."""

from __future__ import annotations

import typing

from hypothesis import given, settings
from hypothesis import strategies as st

from toonerville import Rules, SwappedRook
from toonerville.engine import actions as A
from toonerville.engine.cards import ROOK, Card, deck
from toonerville.engine.game import Game
from toonerville.players.simulate import play_game

ALL_VALUES: tuple[Card, ...] = deck()


def _enumerated(game: Game) -> set[A.Action]:
    """Every draw, take, buy, pass, discard and lay-off any seat could name now."""
    out: set[A.Action] = set()
    view = game.view(game.current)
    for seat in range(game.players):
        out |= {A.Draw(seat), A.TakeDiscard(seat), A.Buy(seat), A.Pass(seat)}
        out |= {A.Discard(seat, c) for c in ALL_VALUES}
    for owner, melds in enumerate(view.table):
        for index in range(len(melds)):
            for card in ALL_VALUES:
                as_cards = [None] if not card.is_rook else [None, *ALL_VALUES[:-1]]
                out |= {A.LayOff(game.current, card, (owner, index), a) for a in as_cards}
    return out


SIMPLE = (A.Draw, A.TakeDiscard, A.Buy, A.Pass, A.Discard, A.LayOff)


def _check_position(game: Game) -> None:
    if game.is_over:
        assert game.legal_actions() == []
        return
    listed = game.legal_actions()
    accepted = {a for a in _enumerated(game) if game.is_legal(a)}
    simple = {a for a in listed if isinstance(a, SIMPLE)}
    # a Rook laid off onto a set may name no card or the set's number: the list gives one
    rook_sets = {a for a in accepted - simple if isinstance(a, A.LayOff) and a.card == ROOK
                 and not game.view(0).table[a.onto[0]][a.onto[1]].is_run}
    assert simple == accepted - rook_sets, (game, simple ^ accepted)
    for a in listed:
        if not isinstance(a, SIMPLE):
            assert game.is_legal(a), a
    assert listed, "the deciding player has no move"


def test_action_types_are_derived_not_listed() -> None:
    assert set(typing.get_args(A.Action)) == set(SIMPLE) | {A.LayDown, A.SwapRook}


def test_legal_actions_equal_the_brute_force_set_in_played_positions() -> None:
    game = play_game(["heuristic", "random", "heuristic", "random"], seed=21, turn_limit=30)
    replay = game.root()
    for k, action in enumerate(game.actions):
        if k % 11 == 0:
            _check_position(replay)
        replay.apply(action)
    _check_position(replay)


RULES = st.builds(
    Rules, penalty_cards=st.integers(0, 2), max_buys_per_round=st.none() | st.integers(0, 2),
    extra_melds=st.booleans(), lay_off_same_turn=st.booleans(),
    lay_off_on_others=st.booleans(), rook_swap=st.booleans(),
    swap_only_when_down=st.booleans(), down_players_may_buy=st.booleans(),
    restock=st.sampled_from(["shuffle", "turn_over"]), round11_deal=st.sampled_from([12, 14]),
    swapped_rook=st.sampled_from(list(SwappedRook)), rooks_at_most_naturals=st.booleans())


@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), players=st.integers(3, 5), rules=RULES,
       bots=st.lists(st.sampled_from(["heuristic", "random", "nobuy"]), min_size=5,
                     max_size=5))
def test_T13a_no_seeded_game_ever_leaves_the_decider_without_a_move(
        seed: int, players: int, rules: Rules, bots: list[str]) -> None:
    def has_a_move(game: Game) -> None:
        if not game.is_over:
            assert game.legal_actions(game.deciders[0]), game

    play_game(bots[:players], seed=seed, rules=rules, turn_limit=8, after_action=has_a_move)



def _listed_lay_offs_and_swaps_are_accepted(game: Game, seen: dict[type, int]) -> None:
    if game.is_over:
        return
    for action in game.legal_actions(game.deciders[0]):
        if isinstance(action, (A.LayOff, A.SwapRook)):
            seen[type(action)] = seen.get(type(action), 0) + 1
            assert game.refusal(action) is None, action.notation()


@settings(max_examples=12, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), rules=RULES)
def test_T18_H9_every_listed_lay_off_and_swap_is_accepted_under_any_house_rules(
        seed: int, rules: Rules) -> None:
    """The listing trusts what it built for some moves (a natural card just beyond a
    run's ends or of a set's number; a down player's swaps, once one is accepted): the
    game must accept every one, whatever the switches."""
    seen: dict[type, int] = {}
    play_game(["heuristic", "heuristic", "random", "heuristic"], seed=seed, rules=rules,
              turn_limit=60,
              after_action=lambda game: _listed_lay_offs_and_swaps_are_accepted(game, seen))


def test_T18_H9_games_list_many_lay_offs_and_swaps_and_the_game_takes_them_all() -> None:
    seen: dict[type, int] = {}
    for seed in range(3):
        play_game(["heuristic"] * 4, seed=seed, turn_limit=60,
                  after_action=lambda game: _listed_lay_offs_and_swaps_are_accepted(game, seen))
    assert seen.get(A.LayOff, 0) > 100 and seen.get(A.SwapRook, 0) > 20, seen
