"""The coach on the pages (`widgets/coach_view.py`, `widgets/coach_review.py`): the hint
that weighs the choices in 07 and in the seat view, the review of a round, and the bot
levels where a bot sits. Driven without a browser; the search budgets are the
deterministic ones (no wall-clock cap), so the figures the pages show can be compared
with the engine's own."""

from __future__ import annotations

import random
from functools import partial

import pytest
from widgetfixtures import close_widgets, no_query  # noqa: F401

from toonerville import actions as A
from toonerville.bots import HeuristicBot
from toonerville.coach.hint import Hint, hint
from toonerville.game import Game
from toonerville.views import Phase
from toonerville.widgets import coach_view
from toonerville.widgets.base import MessageBox
from toonerville.widgets.coach_view import HINT_WORLDS, CoachHint
from toonerville.widgets.play import PlayGame
from toonerville.widgets.seat import SeatView


@pytest.fixture(autouse=True)
def no_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pages' hints without their wall-clock cap: the same work on any machine."""
    monkeypatch.setattr(coach_view, "HINT_BUDGET", None)


def _at_my_discard(seed: int, players: int = 4) -> Game:
    """A new game played by heuristic bots up to seat 0's first discard."""
    game = Game.new(players=players, seed=seed)
    bot, rng = HeuristicBot(), random.Random(seed)
    while not (game.current == 0 and game.phase is Phase.PLAY):
        who = game.deciders[0]
        game.apply(bot.choose(game.view(who), game.rules, partial(game.legal_actions, who),
                              rng))
    return game


# -- hints that weigh the choices ----------------------------------------------------------
def test_T13_the_hint_in_07_shows_the_strong_bots_discard_and_what_the_others_cost() -> None:
    app = PlayGame(seed=3, offer_buys=False)
    app.draw_button.click()
    app.hint_button.click()
    found = app.coach.found
    assert found is not None and isinstance(found.action, A.Discard)
    assert app.message.text.startswith("Hint: discard") and app.message.text.endswith("(T13)")
    assert list(app.hand.selected) == [found.action.card]  # the card is picked for you
    assert "Hint for Robin" in app.log_view.text
    # the costs are the engine's own estimates for this position, with their sample
    engine = hint(app.game, 0, worlds=HINT_WORLDS, time_budget=None)
    assert found == engine and found.alternatives
    panel = app.coach.value
    assert "What the other choices cost" in panel
    assert panel.count('class="tr-coach-cost"') == len(engine.alternatives)
    for alternative in engine.alternatives:
        assert alternative.message().text in panel.replace("<bdi>", "").replace("</bdi>", "")
        assert f"({alternative.samples} rounds played out)" in alternative.message().text
    app.discard_button.click()  # a move: the hint is gone with its position
    assert app.coach.found is None and app.coach.value == ""


def test_the_hint_shows_a_thinking_state_before_the_work_starts() -> None:
    panel = CoachHint()
    seen = []

    def work() -> Hint:
        seen.append(panel.value)
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError):
        panel.ask(work)
    assert "tr-coach-thinking" in seen[0] and "Thinking" in seen[0]
    assert panel.value == ""  # a failed hint leaves nothing behind


def test_a_plain_move_says_nothing_else_was_worth_weighing() -> None:
    app = PlayGame(seed=5, offer_buys=False)  # round 1 opens with the contract in hand
    app.draw_button.click()
    app.hint_button.click()
    assert app.coach.found is not None and not app.coach.found.alternatives
    assert "No other move was worth weighing" in app.coach.value


def test_T13_the_seat_view_hint_weighs_the_choices_from_the_seats_own_views() -> None:
    game = _at_my_discard(seed=3)
    sent: list[A.Action] = []
    message = MessageBox()
    seat = SeatView(sent.append, message)  # type: ignore[arg-type]
    seat.show(game.view(0), legal=game.legal_actions(0), history=game.history,
              number=game.moves_made, finished=False, rules=game.rules)
    found = seat.hint()
    assert found is not None and found[0] in game.legal_actions(0)
    assert message.text.startswith("Hint: ") and message.kind == "info"
    shown = seat.coach.found
    assert shown is not None and shown.action == found[0]
    if shown.alternatives:
        assert seat.coach.value.count('class="tr-coach-cost"') == len(shown.alternatives)
    else:
        assert "No other move was worth weighing" in seat.coach.value
    again = seat.coach.hint_for_view(game.view(0), game.rules, game.legal_actions(0))
    assert again == shown  # same view, same notes: the same hint
    assert sent == []  # a hint plays nothing
