"""Anything the engine accepts can be saved and loaded again, and a refusal changes
nothing (issue 8, section 4): moves legal or not, from positions of real seeded games
in every round, some under house rules.

The moves are the game's own legal actions and mutations of them (another seat, card,
meld or reference); what `validate` refuses never reaches the game. A move counts as
accepted when `validate` and then `game.apply` accept it, which is how the engine
checks a move."""

from __future__ import annotations

import dataclasses
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toonerville.engine.actions import (
    Action,
    Buy,
    Discard,
    Draw,
    LayDown,
    LayOff,
    Pass,
    SwapRook,
    TakeDiscard,
    validate,
)
from toonerville.engine.cards import NATURALS, ROOK, Card
from toonerville.engine.errors import IllegalActionError, MalformedActionError, NoSuchSeatError
from toonerville.engine.game import Game
from toonerville.engine.melds import Meld
from toonerville.engine.rules import Rules
from toonerville.players.simulate import play_game

GAMES: tuple[tuple[int, int, Rules], ...] = (
    (3, 11, Rules()),
    (4, 12, Rules(extra_melds=True, penalty_cards=2, restock="turn_over")),  # type: ignore
    (5, 13, Rules(swap_only_when_down=True, lay_off_same_turn=False, max_buys_per_round=2)),
    (4, 14, Rules(rooks_at_most_naturals=True, first_dealer=2)),
)
CARDS = (*NATURALS, ROOK)
MELDS = tuple(Meld.parse(t) for t in ("R3 R4 R5 R6", "Y7 R7 RK", "B9 B9 B9", "G1 G2 RK G4"))


@cache
def moves_of(index: int) -> tuple[Action, ...]:
    """The moves of a whole seeded game of heuristic bots."""
    players, seed, rules = GAMES[index]
    return play_game(["heuristic"] * players, seed=seed, rules=rules).actions


@cache
def before_melding(index: int) -> tuple[int, ...]:
    """The positions of game `index` where the next move lays down, lays off or swaps."""
    return tuple(k for k, a in enumerate(moves_of(index))
                 if isinstance(a, LayDown | LayOff | SwapRook))


def position(index: int, k: int) -> Game:
    """Game `index` after its first `k` moves, replayed through the public API."""
    players, seed, rules = GAMES[index]
    game = Game.new(players=players, seed=seed, rules=rules, turn_limit=200,
                    names=[f"heuristic {i}" for i in range(players)])
    for action in moves_of(index)[:k]:
        game.apply(action)
    return game


def views(game: Game) -> tuple[object, ...]:
    return tuple(game.view(seat) for seat in range(game.players))


def assert_same(a: Game, b: Game) -> None:
    assert a.actions == b.actions
    assert views(a) == views(b)
    assert a.scores == b.scores and a.totals == b.totals
    assert (a.round_number, a.phase, a.deciders) == (b.round_number, b.phase, b.deciders)


@st.composite
def mutated(draw: st.DrawFn, action: Action, players: int) -> Action:
    """`action` with one field changed to another value of the right type."""
    seats = st.integers(-1, players)
    refs = st.tuples(st.integers(0, players - 1), st.integers(0, 4))
    changes: dict[str, st.SearchStrategy[object]] = {"seat": seats}
    if isinstance(action, LayOff | Discard):
        changes["card"] = st.sampled_from(CARDS)
    if isinstance(action, LayOff):
        changes["onto"] = refs
        changes["as_card"] = st.none() | st.sampled_from(NATURALS)
    if isinstance(action, SwapRook):
        changes["natural"] = st.sampled_from(CARDS)
        changes["source"] = refs
        if action.lay_down is None:
            changes["lay_off_onto"] = refs
            changes["rook_as"] = st.none() | st.sampled_from(NATURALS)
    melds = st.lists(st.sampled_from(MELDS), min_size=1, max_size=3).map(tuple)
    if isinstance(action, LayDown):
        changes["melds"] = melds | st.just(action.melds[1:] or MELDS[:1])
    name = draw(st.sampled_from(sorted(changes)))
    return dataclasses.replace(action, **{name: draw(changes[name])})  # type: ignore


def moves(players: int) -> st.SearchStrategy[Action]:
    """Moves of any seat that nobody suggested (mostly refused)."""
    seats = st.integers(0, players - 1)
    return st.one_of(st.builds(Draw, seats), st.builds(TakeDiscard, seats),
                     st.builds(Buy, seats), st.builds(Pass, seats),
                     st.builds(Discard, seats, st.sampled_from(CARDS)))


@settings(max_examples=60, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_anything_the_engine_accepts_round_trips_and_refusals_change_nothing(
        data: st.DataObject) -> None:
    index = data.draw(st.integers(0, len(GAMES) - 1), label="game")
    k = data.draw(st.integers(0, len(moves_of(index)))
                  | st.sampled_from(before_melding(index)), label="moves played")
    game = position(index, k)
    for _ in range(data.draw(st.integers(1, 8), label="steps")):
        legal = game.legal_actions()
        if not legal:
            break
        choice = data.draw(st.sampled_from(("legal", "mutated", "any")), label="kind")
        melding: list[Action] = [a for a in legal if isinstance(a, LayDown | LayOff | SwapRook)]
        use_melding = bool(melding) and data.draw(st.booleans(), label="meld")
        # the rarer moves, more often
        action: Action = data.draw(st.sampled_from(melding if use_melding else legal))
        if choice == "mutated":
            action = data.draw(mutated(action, game.players))
        elif choice == "any":
            action = data.draw(moves(game.players))
        before, seen = game.to_json(), views(game)
        answer = game.refusal(action)
        try:
            validate(action, game.players)
            game.apply(action)
        except IllegalActionError:
            assert game.to_json() == before and views(game) == seen
            continue
        assert answer is None, answer  # what `refusal` allowed, `apply` accepts
        if choice != "legal":  # a move nobody suggested: saved and loaded at once
            assert_same(Game.from_json(game.to_json()), game)
    assert_same(Game.from_json(game.to_json()), game)  # and every accepted move so far


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_every_position_of_a_seeded_game_saves_and_loads(index: int) -> None:
    played = moves_of(index)
    for k in (0, 1, len(played) // 3, len(played) // 2, len(played)):
        game = position(index, k)
        assert_same(Game.from_json(game.to_json()), game)


MALFORMED: tuple[Action, ...] = (
    Buy(seat=False), Pass(True), Draw("0"), Draw(9),  # type: ignore[arg-type]
    LayDown(0, None), LayOff(0, Card.parse("R7"), (0,)),  # type: ignore[arg-type]
    LayOff(0, "R7", (0, 0)), Discard(0, None),  # type: ignore[arg-type]
    SwapRook(0, Card.parse("R8"), (1, 0), rook_as=Card.parse("R9")),
)


@pytest.mark.parametrize("action", MALFORMED, ids=repr)
def test_validate_refuses_malformed_moves(action: Action) -> None:
    with pytest.raises((MalformedActionError, NoSuchSeatError)):
        validate(action, 4)


@pytest.mark.parametrize("action", MALFORMED, ids=repr)
def test_the_game_refuses_malformed_moves_and_its_save_still_loads(action: Action) -> None:
    game = Game.new(players=4, seed=1, rules=Rules(first_dealer=3))
    game.draw()  # seat 0 declines the discard; the buy window is open
    before = game.to_json()
    with pytest.raises((MalformedActionError, NoSuchSeatError)):
        game.apply(action)
    assert game.to_json() == before
    assert_same(Game.from_json(before), game)
