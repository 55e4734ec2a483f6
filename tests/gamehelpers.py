"""Helpers shared by the game tests: what a game looks like from outside, and a check that
a refused move raised the right error, named the right rule and changed nothing."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from toonerville.engine import actions as A
from toonerville.engine.cards import Card
from toonerville.engine.game import Game


def snapshot(game: Game) -> tuple[object, ...]:
    """Everything observable about a game, to prove a refused move changed nothing."""
    return (game.phase, game.current, game.round_number, game.deciders, game.scores,
            tuple(game.view(s) for s in range(game.players)), game.all_cards(),
            len(game.history), len(game.actions))


def refused(game: Game, error: type[Exception], rule: str | None, call: Callable[[], object],
            *words: str) -> Exception:
    before = snapshot(game)
    with pytest.raises(error) as info:
        call()
    assert snapshot(game) == before
    if rule is not None:
        assert info.value.rule == rule, str(info.value)
    for word in words:
        assert word in str(info.value), str(info.value)
    return info.value


def conserved(game: Game) -> bool:
    """Hands + stock + discard pile + table hold every physical card exactly once."""
    where = game.all_cards()
    ids = [i for part in where.values() for i in part]
    n = len(game.round_cards)
    return len(ids) == n and set(ids) == set(range(n))


def never_lays_down(legal: Sequence[A.Action], hand: Sequence[Card]) -> A.Action:
    """A learner who draws, passes, never lays down and throws the last card of the hand
    (`legal`: the moves open to the seat, `hand`: its cards): a round with costly
    decisions for the coach's review."""
    for kind in (A.Draw, A.Pass):
        found = [a for a in legal if type(a) is kind]
        if found:
            return found[0]
    discards = [a for a in legal if isinstance(a, A.Discard)]
    last = [a for a in discards if a.card == hand[-1]]
    return (last or discards)[-1]
