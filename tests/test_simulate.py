"""Playing many games: records, seeds, and the bound on bot games."""

from __future__ import annotations

from toonerville.simulate import SAFETY_TURN_LIMIT, game_seed, play_game, simulate


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


def test_play_game_collects_less_often_while_it_plays_and_puts_the_setting_back() -> None:
    import gc

    from toonerville.simulate import GAME_GC_THRESHOLD

    before = gc.get_threshold()
    seen: set[int] = set()
    gc.set_threshold(700, *before[1:])
    try:
        play_game(["random"] * 3, seed=4, turn_limit=20,
                  after_action=lambda _g: seen.add(gc.get_threshold()[0]))
        assert seen == {GAME_GC_THRESHOLD}
        assert gc.get_threshold()[0] == 700
    finally:
        gc.set_threshold(*before)


def test_simulate_collects_less_often_for_the_whole_run_and_puts_the_setting_back() -> None:
    import gc

    from toonerville.simulate import GAME_GC_THRESHOLD

    before = gc.get_threshold()
    gc.set_threshold(700, *before[1:])
    try:
        run = simulate(3, bots=["random"] * 3, seed=4, turn_limit=20)
        between = []
        for _record in run:  # between games too, not only while one is played
            between.append(gc.get_threshold()[0])
        assert between == [GAME_GC_THRESHOLD] * 3
        assert gc.get_threshold()[0] == 700
        stopped = simulate(3, bots=["random"] * 3, seed=4, turn_limit=20)
        next(stopped)
        stopped.close()  # a run given up half way puts the setting back too
        assert gc.get_threshold()[0] == 700
    finally:
        gc.set_threshold(*before)
