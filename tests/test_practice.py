"""Practice from one's own mistakes (issue 28, item 5): the review's costly decisions as
positions to play again, a learner's answer checked against the coach's best, and the
list as JSON that survives a reload and loses nothing when it is broken."""

from __future__ import annotations

import json

import pytest

from toonerville.coach import practice as P
from toonerville.coach import review as R
from toonerville.engine import actions as A
from toonerville.engine.errors import IllegalActionError
from toonerville.engine.game import Game
from toonerville.players.simulate import play_game


@pytest.fixture(scope="module")
def round_one() -> Game:
    """A beginner (seat 0) among heuristic bots, as round 1 ended (test_review's)."""
    game = play_game(["beginner", "heuristic", "heuristic", "heuristic"], seed=5,
                     turn_limit=60)
    k = 0
    while game.position_at(k).round_number == 1:
        k += 1
    return game.position_at(k)


@pytest.fixture(scope="module")
def reviewed(round_one: Game) -> tuple[tuple[R.Mistake, ...], tuple[P.PracticePosition, ...]]:
    mistakes = R.review_round(round_one, 0, 1, least_cost=0.1)
    assert mistakes, "the seeded round has costly decisions to practise"
    return mistakes, P.positions_from_review(round_one, mistakes)


def _buy_position(game: Game) -> P.PracticePosition:
    """A buy window of seat 2 in the seeded round, as a practice position."""
    k = next(k for k in range(game.moves_made)
             if game.position_at(k).phase.value == "buy" and 2 in game.position_at(k).deciders)
    pos = game.position_at(k)
    return P.PracticePosition(pos.to_json(indent=None), 2, "buy", A.Pass(2).notation(),
                              A.Buy(2).notation(), game.seed, pos.round_number)


def test_positions_from_a_review_stand_at_the_reviewed_decisions(
        round_one: Game, reviewed: tuple[tuple[R.Mistake, ...], tuple[P.PracticePosition, ...]]
) -> None:
    mistakes, positions = reviewed
    assert len(positions) == len(mistakes)
    for m, p in zip(mistakes, positions, strict=True):
        game = p.game()
        assert game.moves_made == m.moves and game.actions == round_one.actions[:m.moves]
        assert game.seed == p.seed == round_one.seed
        assert p.seat == m.seat and p.seat in game.deciders
        assert p.phase == game.phase.value == round_one.position_at(m.moves).phase.value
        assert p.made_action == m.made and p.best_action == m.better
        assert (p.cost, p.low, p.high, p.samples) == (m.cost, m.low, m.high, m.samples)
        assert (p.round_number, p.turn, p.offer) == (1, m.turn, m.offer)
        # the learner chooses among the seat's own kind of moves, both of the review's in it
        offered = P.choices(p)
        assert m.made in offered and m.better in offered
        assert all(game.is_legal(a) for a in offered)
        if p.phase == "play":
            hand = game.view(p.seat).hand
            assert {a.card for a in offered if isinstance(a, A.Discard)} == set(hand)


def test_choosing_the_move_made_again_gives_the_reviews_own_cost(
        reviewed: tuple[tuple[R.Mistake, ...], tuple[P.PracticePosition, ...]]) -> None:
    mistakes, positions = reviewed
    m, p = mistakes[0], positions[0]
    answer = P.check_answer(p, p.made_action)  # the review's worlds: the same figures
    assert not answer.found and answer.chosen == m.made and answer.best == m.better
    alt = answer.alternative
    assert alt.action == m.made
    assert (alt.cost, alt.low, alt.high, alt.samples) == pytest.approx(
        (m.cost, m.low, m.high, m.samples))
    assert alt.verdict == "costs"
    text = str(answer.message()) + " " + str(answer.figures())
    assert text.startswith(f"You chose {m.made_words}; the coach's best move here is "
                           f"{m.better_words}.")
    assert "instead costs about" in text and "rounds played out" in text
    assert P.check_answer(p, p.made_action) == answer  # seeded: the same every time


def test_the_coach_s_move_is_recognised_and_the_move_made_priced_against_it(
        reviewed: tuple[tuple[R.Mistake, ...], tuple[P.PracticePosition, ...]]) -> None:
    _mistakes, positions = reviewed
    p = positions[0]
    answer = P.check_answer(p, p.best_action, 4, 4)
    assert answer.found and answer.alternative.action == p.made_action
    assert str(answer.message()).startswith(
        f"You chose {answer.best_words}, the coach's best move here (in the game you chose")
    # 4 worlds cannot tell these apart: the hints' "about the same", never a cost of 0
    assert answer.alternative.low < 0 < answer.alternative.high
    assert answer.alternative.verdict == "same"
    assert "about the same" in str(answer.figures())


def test_another_choice_is_stated_as_a_hint_states_a_cost(round_one: Game) -> None:
    """Issue 28: a choice other than the game's is priced against the coach's best on
    fresh worlds and stated as the posterior of the paired difference under the prior
    of the decision's kind (`shrink`), the worlds' own mean kept beside it."""
    from toonerville.coach.hint import price_at
    from toonerville.coach.shrink import posterior, prior_for
    from toonerville.coach.strong import difference

    game = round_one
    k = next(k for k, a in enumerate(game.actions) if isinstance(a, A.Discard)
             and a.seat == 0 and len(game.position_at(k).view(0).hand) > 4)
    pos = game.position_at(k)
    made = game.actions[k]
    assert isinstance(made, A.Discard)
    best, other = [A.Discard(0, c) for c in dict.fromkeys(pos.view(0).hand)
                   if c != made.card][:2]
    p = P.PracticePosition(pos.to_json(indent=None), 0, "play", made.notation(),
                           best.notation(), game.seed, pos.round_number)
    game = p.game()
    answer = P.check_answer(p, other, 8, 8)
    alt = answer.alternative
    assert not answer.found and alt.action == other
    first, second = price_at(game, p.seat, game.moves_made, (p.best_action, other), 8, 8)
    paired = difference(second, first)
    prior = prior_for(p.best_action)
    assert prior is not None
    post = posterior(prior, paired)
    assert alt.measured == pytest.approx(paired.mean) and alt.samples == paired.n == 8
    assert (alt.cost, alt.low, alt.high) == (pytest.approx(post.mean),
                                             pytest.approx(post.low),
                                             pytest.approx(post.high))
    if paired.mean < 0:
        assert alt.verdict != "costs"


def test_a_move_that_is_not_among_the_choices_is_refused(
        reviewed: tuple[tuple[R.Mistake, ...], tuple[P.PracticePosition, ...]]) -> None:
    p = reviewed[1][0]
    with pytest.raises(IllegalActionError):  # the engine's own refusal: not the phase
        P.check_answer(p, A.Draw(p.seat), 2, 2)
    with pytest.raises(IllegalActionError):  # a card not held
        held = p.game().view(p.seat).hand
        other = next(c for c in p.game().view((p.seat + 1) % 4).hand if c not in held)
        P.check_answer(p, A.Discard(p.seat, other), 2, 2)


def test_a_buy_window_asks_buy_or_pass(round_one: Game) -> None:
    p = _buy_position(round_one)
    assert set(P.choices(p)) == {A.Buy(2), A.Pass(2)}
    answer = P.check_answer(p, A.Pass(2), 2, 4)
    assert answer.chosen == A.Pass(2) and answer.alternative.action == A.Pass(2)
    assert answer.alternative.samples in (2, 4)


def test_a_list_of_positions_survives_json(
        reviewed: tuple[tuple[R.Mistake, ...], tuple[P.PracticePosition, ...]],
        round_one: Game) -> None:
    positions = (*reviewed[1], _buy_position(round_one))
    text = P.dump_positions(positions)
    assert "\n" not in text and json.loads(text)["format"] == P.FORMAT
    loaded = P.load_positions(text)
    assert loaded.positions == positions and loaded.unread == () and loaded.problems == ()
    assert P.load_positions("") == P.load_positions(None) == P.Loaded(())


def test_merging_keeps_each_decision_once_and_the_newest(
        reviewed: tuple[tuple[R.Mistake, ...], tuple[P.PracticePosition, ...]]) -> None:
    positions = reviewed[1]
    assert P.merged(positions, positions) == positions
    assert P.merged((), [*positions, *positions]) == positions
    assert P.merged(positions[:1], positions[1:], most=1) == positions[-1:]


def test_a_broken_list_says_why_and_loses_nothing(
        reviewed: tuple[tuple[R.Mistake, ...], tuple[P.PracticePosition, ...]]) -> None:
    positions = reviewed[1]
    data = json.loads(P.dump_positions(positions))
    bad_save = dict(data["positions"][0], save=data["positions"][0]["save"].replace(
        "discard", "discrad", 1))
    not_legal = dict(data["positions"][0], best="0: discard G99")
    data["positions"] = [bad_save, *data["positions"], not_legal, "junk"]
    text = json.dumps(data)
    loaded = P.load_positions(text)
    assert loaded.positions == positions  # the good ones are all read
    assert loaded.unread == (bad_save, not_legal, "junk")  # the others are kept as they were
    whys = [str(m) for m in loaded.problems]
    assert len(whys) == 3 and whys[0].startswith("your practice positions could not all be "
                                                 "read (position 1: cannot load this saved")
    n = len(positions)
    assert f"(position {n + 2}: " in whys[1] and "is not a card" in whys[1]
    assert f"(position {n + 3}: " in whys[2]
    # written back with a new position, nothing is lost
    again = P.load_positions(P.dump_positions(loaded.positions[:1], loaded.unread))
    assert again.positions == positions[:1] and again.unread == loaded.unread
    # a text that is no list at all is kept whole
    for broken in ("{not json", "[1, 2]", '{"format": "toonerville-practice", "version": 9, '
                   '"positions": []}', "[" * 50 + "]" * 50):
        loaded = P.load_positions(broken)
        assert loaded.positions == () and loaded.unread == (broken,)
        assert len(loaded.problems) == 1 and "kept as they were" in str(loaded.problems[0])
        back = P.load_positions(P.dump_positions((), loaded.unread))
        assert back.unread == (broken,)
    huge = P.load_positions("x" * (P.MAX_TEXT + 1))
    assert huge.positions == () and "characters" in str(huge.problems[0])
    assert P.load_positions(b"bytes").problems  # not text: said, never raised
