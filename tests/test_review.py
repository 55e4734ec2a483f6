"""Hints and reviews: the strong bot's estimates, from the engine's own positions."""

from __future__ import annotations

import pytest

from toonerville import actions as A
from toonerville.coach import review as R
from toonerville.coach.hint import decide_at, hint
from toonerville.errors import NotYourTurnError
from toonerville.game import Game
from toonerville.messages import Message
from toonerville.simulate import play_game


@pytest.fixture(scope="module")
def round_one() -> Game:
    """A beginner (seat 0) among heuristic bots, as round 1 ended."""
    game = play_game(["beginner", "heuristic", "heuristic", "heuristic"], seed=5,
                     turn_limit=60)
    k = 0
    while game.position_at(k).round_number == 1:
        k += 1
    return game.position_at(k)


def _discard_decision(game: Game, seat: int) -> int:
    for k in range(game.moves_made):
        if isinstance(game.actions[k], A.Discard) and game.actions[k].seat == seat \
                and len(game.position_at(k).view(seat).hand) > 4:
            return k
    raise AssertionError("no discard by that seat")


def test_a_hint_weighs_the_alternatives_with_their_sample(round_one: Game) -> None:
    k = _discard_decision(round_one, 0)
    pos = round_one.position_at(k)
    h = hint(pos, 0, worlds=3, time_budget=None)
    assert pos.is_legal(h.action) and isinstance(h.action, A.Discard)
    assert isinstance(h.reason, Message) and h.reason.rule in ("T13", "T9", "T10")
    assert h.alternatives and h.samples == 3
    for alt in h.alternatives:
        assert alt.samples == 3
        assert "instead costs about" in str(alt.message())
        assert str(alt.words).startswith("discarding ")
    assert hint(pos, 0, worlds=3, time_budget=None) == h  # same position, same hint
    with pytest.raises(NotYourTurnError, match="T9|turn"):
        hint(pos, 1)  # seat 1 has nothing to decide now


def test_a_hint_in_the_buy_window_answers_for_a_buyer(round_one: Game) -> None:
    k = next(k for k in range(round_one.moves_made)
             if round_one.position_at(k).phase.value == "buy"
             and 2 in round_one.position_at(k).deciders)
    pos = round_one.position_at(k)
    h = hint(pos, 2, worlds=2, time_budget=None)
    assert isinstance(h.action, A.Buy | A.Pass) and h.action.seat == 2
    assert pos.is_legal(h.action)


def test_review_positions_and_costs_come_from_the_engine(round_one: Game,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    monkeypatch.setattr(R, "SECOND_WORLDS", 3)
    mistakes = R.review_round(round_one, 0, 1, least_cost=0.1)
    assert 1 <= len(mistakes) <= 3
    assert [m.cost for m in mistakes] == sorted((m.cost for m in mistakes), reverse=True)
    for m in mistakes:
        pos = m.position(round_one)
        assert pos.moves_made == m.moves and pos.round_number == 1
        assert round_one.actions[m.moves] == m.made and 0 in pos.deciders
        assert pos.is_legal(m.better) and m.better != m.made
        again = decide_at(round_one, 0, m.moves, worlds=3, time_budget=None, also=(m.made,))
        made, better = again.cost(m.made), again.cost(m.better)
        assert made is not None and better is not None and again.action == m.better
        assert m.cost == pytest.approx(made.points - better.points) and m.cost >= 0.1
        assert m.reason.rule in ("T9", "T10", "T13", "H9", "T15", "T17", "T18")
        assert " : " not in str(m.reason)  # the card is named


def test_review_of_a_round_is_deterministic(round_one: Game,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(R, "SECOND_WORLDS", 2)
    monkeypatch.setattr(R, "SHORTLIST", 2)
    assert R.review_round(round_one, 1, 1, least_cost=0) == \
        R.review_round(round_one, 1, 1, least_cost=0)


def test_review_weighs_a_missed_lay_off_against_the_lay_off() -> None:
    # seat 0 could go out (lay off R7, discard the card drawn); seat 1 goes out next turn
    game = Game.from_position(
        ["R7", "G8", "B1 B2 G5 G9 R11 R12 Y14"],
        "Y1 Y3 Y4 Y5 Y6 G3 G10 B3 B4 B6 B8 B10 R2 R8 R10 R13 R14", "B11",
        table={0: ["R3 R4 R5 R6", "Y7 G7 B7"], 1: ["G4 G5 G6 G7", "B9 Y9 R9"]},
        round_number=2, dealer=2, current=0, scores=[[0, 0, 0]], seed=3)
    game.draw(0)
    while game.phase.value == "buy":
        game.pass_buy(game.deciders[0])
    k = game.moves_made
    game.discard("Y1")  # a learner's slip: R7 lays off onto R3 R4 R5 R6 (H9)
    mistakes = R.review_round(game, 0, 2, least_cost=0.5)
    slip = next(m for m in mistakes if m.moves == k)
    assert slip.made == A.Discard(0, slip.made.card) and isinstance(slip.better, A.LayOff)
    assert slip.better.card.number == 7 and slip.reason.rule == "H9"
    assert str(slip.better_words) == "laying off R7" and slip.cost >= 0.5


# -- issue 28: a hint or a review depends on the position and the seed, never the clock ------
class _SlowClock:
    """A clock on which every reading is 10 s after the last one: a machine so loaded that
    any wall-clock cap would stop the search after its first world."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 10.0
        return self.now


def test_a_hint_is_the_same_on_a_slow_clock(round_one: Game,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from toonerville.coach import strong
    from toonerville.widgets import coach_view

    k = _discard_decision(round_one, 0)
    pos = round_one.position_at(k)
    calm = coach_view.hint_for_game(pos, 0)
    monkeypatch.setattr(strong.time, "perf_counter", _SlowClock())
    monkeypatch.setattr(strong.time, "monotonic", _SlowClock())
    loaded = coach_view.hint_for_game(pos, 0)
    assert loaded == calm
    assert calm.samples >= 12  # a budget of work, whatever the clock


def test_a_review_is_the_same_on_a_slow_clock(round_one: Game,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from toonerville.coach import strong

    calm = R.review_round(round_one, 0, 1)
    monkeypatch.setattr(strong.time, "perf_counter", _SlowClock())
    monkeypatch.setattr(strong.time, "monotonic", _SlowClock())
    assert R.review_round(round_one, 0, 1) == calm
