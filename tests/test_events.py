"""Events as data: every kind has a sentence, events keep values, and a log re-renders in
the language chosen when it is shown."""

from __future__ import annotations

import pytest

from toonerville import Rules
from toonerville.engine import messages
from toonerville.engine.events import Event, EventKind
from toonerville.players.simulate import play_game


@pytest.fixture(autouse=True)
def english() -> object:
    yield
    messages.set_language("en")


def _game():  # type: ignore[no-untyped-def]
    return play_game(["heuristic", "random", "heuristic", "random"], seed=8, turn_limit=25,
                     rules=Rules(max_buys_per_round=3))


def test_every_event_of_a_game_renders_with_a_rule_or_none() -> None:
    game = _game()
    kinds = {e.kind for e in game.history}
    assert {EventKind.DEAL, EventKind.TURN_UP, EventKind.DISCARD, EventKind.SCORES,
            EventKind.GAME_OVER} <= kinds
    for e in game.history:
        assert isinstance(e.kind, EventKind)
        text = str(e.text)
        assert "{" not in text and text, e
        assert e.text.rule == e.rule


def test_events_keep_values_not_text() -> None:
    game = _game()
    deal = next(e for e in game.history if e.kind is EventKind.DEAL)
    assert deal.detail["contract"] == game.rules.contract(1)
    assert not any(isinstance(v, str) and " " in v for v in deal.detail.values())
    lay = next(e for e in game.history if e.kind is EventKind.LAY_DOWN)
    assert all(hasattr(m, "is_run") for m in lay.detail["melds"].values)


def test_switching_language_rerenders_the_whole_log() -> None:
    game = _game()
    deal = game.history[0]
    english = str(deal.text)
    assert "the contract is 2 sets" in english
    messages.set_language("de")
    german = str(deal.text)
    assert "der Kontrakt ist 2 Sätze" in german  # no "2 sets" frozen at logging time
    assert all("contract is" not in str(e.text) for e in game.history)
    messages.set_language("en")
    assert str(deal.text) == english


def test_event_kind_is_a_string_enum_for_old_code() -> None:
    e = Event(1, EventKind.BURY, None)
    assert e.kind == "bury" and EventKind("turn_limit") is EventKind.TURN_LIMIT
