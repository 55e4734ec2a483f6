"""Taking moves back and the game as it stood: `undo`, `position_at`, `root`."""

from __future__ import annotations

import json

from gamehelpers import snapshot

from toonerville import Rules, WrongPhaseError
from toonerville.engine.events import Phase
from toonerville.engine.game import Game
from toonerville.players.simulate import play_game


def _played(seed: int = 4, rules: Rules | None = None) -> Game:
    return play_game(["heuristic"] * 4, seed=seed, rules=rules, turn_limit=30)


def test_undo_takes_back_every_move_to_the_start() -> None:
    game = _played()
    start = snapshot(game.root())
    moves = len(game.actions)
    for _ in range(moves):
        game.undo()
    assert snapshot(game) == start and game.actions == () and len(game.history) == 2
    try:
        game.undo()
    except WrongPhaseError as err:
        assert "no move" in str(err)
    else:
        raise AssertionError("undo at the start must refuse")


def test_undo_then_replay_gives_the_same_game_including_shuffles() -> None:
    """Undoing the move that ended a round (scoring, the shuffle, the next deal) and making
    it again deals exactly the same next round: the generator's state is put back too."""
    game = _played(seed=6)
    ends = [k for k, a in enumerate(game.actions, start=1)
            if game.position_at(k).round_number > game.position_at(k - 1).round_number]
    assert len(ends) == 10
    k = ends[3]
    after = game.position_at(k)
    before = game.position_at(k - 1)
    before.apply(game.actions[k - 1])
    assert snapshot(before) == snapshot(after)
    # and undo on the game itself, back past that move, then forward again
    actions = game.actions
    final = snapshot(game)
    for _ in range(len(actions) - k + 1):
        game.undo()
    for action in actions[k - 1:]:
        game.apply(action)
    assert snapshot(game) == final


def test_position_at_every_k_matches_replaying_k_moves() -> None:
    game = _played(seed=2, rules=Rules(restock="turn_over", penalty_cards=2))
    fresh = Game.new(players=4, seed=game.seed, rules=game.rules, names=game.names,
                     turn_limit=game.turn_limit)
    for k, action in enumerate(game.actions):
        if k % 37 == 0:
            assert snapshot(game.position_at(k)) == snapshot(fresh), k
        fresh.apply(action)
    assert snapshot(game.position_at(len(game.actions))) == snapshot(game)


def test_playing_on_from_a_position_leaves_the_game_alone() -> None:
    game = _played(seed=3)
    before = snapshot(game)
    mid = game.position_at(100)
    for _ in range(50):
        mid.apply(mid.legal_actions(mid.deciders[0])[-1])
    mid.undo()
    assert snapshot(game) == before


def test_history_stepper_positions_without_json() -> None:
    """A saved game's positions come from `position_at`, and agree with its saved form."""
    game = _played(seed=5)
    saved = json.loads(game.to_json())
    assert len(saved["moves"]) == len(game.actions)
    again = Game.from_json(game.to_json())
    for k in (0, 1, 250, len(game.actions)):
        assert snapshot(again.position_at(k)) == snapshot(game.position_at(k))


def test_checks_never_deal_score_or_shuffle() -> None:
    """`is_legal`, `refusal` and `legal_actions` on a going-out discard leave the round,
    the score sheet and the generator as they were."""
    game = Game.from_position(hands=["R5", "G4 G5", "Y1 Y2", "B13 B14"],
                              stock="Y3 Y4 B7 B8", discard_pile="G3",
                              table={0: ["R1 R2 R3 R4"]}, dealer=3)
    game.draw()
    for seat in game.deciders:
        game.pass_buy(seat)
    out = [a for a in game.legal_actions() if a.notation().startswith("0: discard")]
    rng = game._rng.getstate()
    before = snapshot(game)
    for action in out:
        assert game.is_legal(action) and game.refusal(action) is None
    assert snapshot(game) == before and game._rng.getstate() == rng
    assert game.phase is Phase.PLAY and game.scores == ()
