"""Invariants over random play: cards are conserved, refused moves change nothing,
saves round-trip (hypothesis)."""

from __future__ import annotations

import random

from gamehelpers import conserved, snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toonerville import Card, IllegalActionError, NotationError, Rules
from toonerville.engine import actions as A
from toonerville.engine.cards import NATURALS, ROOK
from toonerville.engine.events import Phase
from toonerville.engine.game import Game

RULES = st.builds(
    Rules,
    max_rooks_per_meld=st.one_of(st.none(), st.integers(0, 3)),
    rooks_at_most_naturals=st.booleans(),
    rook_turn_up=st.sampled_from(["bury", "stays"]),
    round11_deal=st.sampled_from([12, 14]),
    max_buys_per_round=st.one_of(st.none(), st.integers(0, 3)),
    down_players_may_buy=st.booleans(),
    penalty_cards=st.integers(0, 3),
    restock=st.sampled_from(["shuffle", "turn_over"]),
    extra_melds=st.booleans(),
    lay_off_same_turn=st.booleans(),
    lay_off_on_others=st.booleans(),
    rook_swap=st.booleans(),
    swap_only_when_down=st.booleans(),
)


def random_action(game: Game, rng: random.Random) -> A.Action:
    """Any action at all, legal or not: random seat, random card, random meld."""
    seat = rng.randrange(game.players)
    cards = [*NATURALS, ROOK]
    card: Card = rng.choice(list(game.hand(seat)) + cards[:3]) if game.hand(seat) \
        else rng.choice(cards)
    ref = (rng.randrange(game.players), rng.randrange(3))
    kind = rng.randrange(8)
    if kind == 0:
        return A.Draw(seat)
    if kind == 1:
        return A.TakeDiscard(seat)
    if kind == 2:
        return A.Buy(seat)
    if kind == 3:
        return A.Pass(seat)
    if kind == 4:
        return A.Discard(seat, card)
    if kind == 5:
        return A.LayOff(seat, card, ref, rng.choice([None, *cards[:14]]))
    if kind == 6:
        from toonerville.engine.melds import check_meld

        hand = list(game.hand(seat))
        rng.shuffle(hand)
        melds = []
        for size in (3, 4, 3):
            verdict = check_meld(hand[:size]) if len(hand) >= size else None
            hand = hand[size:]
            if verdict:
                melds.append(verdict.meld_or_raise())
        return A.LayDown(seat, tuple(melds))
    return A.SwapRook(seat, card, ref, lay_off_onto=ref, rook_as=card)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), rules=RULES, players=st.integers(3, 5))
def test_fuzzing_every_action_succeeds_or_changes_nothing(seed: int, rules: Rules,
                                                          players: int) -> None:
    game = Game.new(players=players, seed=seed, rules=rules, turn_limit=40)
    rng = random.Random(seed)
    for _ in range(150):
        if game.is_over:
            break
        action = random_action(game, rng) if rng.random() < 0.7 else \
            rng.choice(game.legal_actions())
        before = snapshot(game)
        try:
            game.apply(action)
        except IllegalActionError:
            assert snapshot(game) == before
        assert conserved(game)


@settings(max_examples=30, deadline=None)
@given(text=st.text(max_size=12))
def test_bad_action_text_raises_only_notation_errors(text: str) -> None:
    game = Game.new(players=3, seed=1)
    before = snapshot(game)
    try:
        game.apply(text)
    except (NotationError, IllegalActionError):
        assert snapshot(game) == before


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 120), rules=RULES)
def test_json_save_round_trips(seed: int, moves: int, rules: Rules) -> None:
    game = Game.new(players=4, seed=seed, rules=rules, turn_limit=30)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    loaded = Game.from_json(game.to_json())
    assert loaded.to_json() == game.to_json()
    assert all(loaded.view(s) == game.view(s) for s in range(4))
    assert loaded.all_cards() == game.all_cards()
    if not game.is_over:
        assert [a.notation() for a in loaded.legal_actions()] == \
            [a.notation() for a in game.legal_actions()]


def test_legal_actions_are_all_accepted() -> None:
    rng = random.Random(5)
    game = Game.new(players=4, seed=5, turn_limit=60)
    while not game.is_over:
        options = game.legal_actions()
        assert options, game
        for action in options:
            assert game.refusal(action) is None, action.notation()
        game.apply(rng.choice(options))
        assert conserved(game)
    assert game.phase is Phase.GAME_OVER and len(game.scores) == 11
