"""Playing many games: records, seeds, and the bound on bot games."""

from __future__ import annotations

import pytest

from toonerville.players.simulate import SAFETY_TURN_LIMIT, game_seed, play_game, simulate


def test_turn_limit_none_is_still_bounded() -> None:
    """Random bots seldom go out; with no turn limit asked for, every round still ends by
    the safety bound and the game finishes."""
    game = play_game(["random"] * 3, seed=1, turn_limit=None)
    assert game.is_over and game.turn_limit == SAFETY_TURN_LIMIT
    assert all(r.turns <= SAFETY_TURN_LIMIT + 1 for r in game.records)


def test_records_stream_in_order_and_depend_on_index_alone() -> None:
    whole = list(simulate(4, bots=("heuristic",) * 3, seed=9, turn_limit=15))
    tail = list(simulate(2, bots=("heuristic",) * 3, seed=9, turn_limit=15, start=2))
    assert [r.index for r in whole] == [0, 1, 2, 3] and whole[2:] == tail
    assert [r.seed for r in whole] == [game_seed(9, i) for i in range(4)]
    for r in whole:
        assert len(r.rounds) == 11 and len(r.scores) == 11
        assert r.winners and all(r.totals[w] == min(r.totals) for w in r.winners)


def test_play_game_pauses_the_collector_while_it_plays_and_resumes_it() -> None:
    import gc

    assert gc.isenabled()
    seen: set[bool] = set()
    game = play_game(["random"] * 3, seed=4, turn_limit=20,
                     after_action=lambda _g: seen.add(gc.isenabled()))
    assert seen == {False} and gc.isenabled() and game.is_over


def test_play_game_leaves_a_collector_paused_by_its_caller_paused() -> None:
    import gc

    gc.disable()
    try:
        play_game(["random"] * 3, seed=4, turn_limit=20)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_simulate_collects_each_game_s_cycles_and_never_pauses_the_caller() -> None:
    import gc

    gc.collect()
    run = simulate(3, bots=["heuristic"] * 3, seed=4, turn_limit=30)
    between = []
    for _record in run:
        between.append(gc.isenabled())  # the caller's code runs with the collector on
        assert gc.collect(0) == 0  # each game's cycles were collected once it was gone
    assert between == [True] * 3 and gc.isenabled()
    kept = simulate(3, bots=["random"] * 3, seed=4, turn_limit=20)
    next(kept)  # a run half consumed and kept leaves the collector on
    assert gc.isenabled()


def test_simulate_collects_young_objects_after_each_game_and_all_now_and_then(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import gc
    import sys

    module = sys.modules["toonerville.players.simulate"]
    asked: list[int] = []
    real = gc.collect
    monkeypatch.setattr(module, "FULL_COLLECTION_EVERY", 2)
    monkeypatch.setattr(gc, "collect", lambda generation=2: asked.append(generation) or
                        real(generation))
    records = list(simulate(5, bots=["random"] * 3, seed=4, turn_limit=20, start=3))
    assert len(records) == 5 and asked == [0, 2, 0, 2, 0]
