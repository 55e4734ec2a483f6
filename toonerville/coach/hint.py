"""Hints that weigh the choices: the strong bot's move, why, and what the others cost.

Owns `hint(game, seat)` → `Hint`: the move the strong bot would make in `seat`'s place,
its reason (a `Message` with its rule id), and the alternatives it weighed, each with
its estimated cost in points this round and the number of played-out rounds behind it
(`Alternative.message()`: "discarding G11 instead costs about 6 points this round (12
rounds played out)"). Also `memory_for` — the notes a seat would have taken this round,
rebuilt from that seat's own views of the game's positions (never another seat's cards)
— and `move_words`, a move in words.

A hint is data; a page shows it. Same game, same seat, same answer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import partial

from .. import actions as A
from ..errors import NotYourTurnError, WrongPhaseError
from ..game import Game
from ..messages import N_, Message, msg
from ..views import PlayerView
from .memory import Memory
from .strong import DEFAULT_TIME_BUDGET, DEFAULT_WORLDS, Decision, StrongBot

#: a move in words, by its kind
_WORDS = {
    A.Discard: N_("discarding {card}"),
    A.TakeDiscard: N_("taking {card}"),
    A.Draw: N_("drawing from the stock"),
    A.Buy: N_("buying {card}"),
    A.Pass: N_("passing on {card}"),
    A.LayOff: N_("laying off {card}"),
    A.LayDown: N_("laying down your contract"),
    A.SwapRook: N_("swapping {card} for a Rook"),
}


def move_words(action: A.Action, card: object = "") -> Message:
    """`action` in words ("discarding G11"); `card` is the card a take, buy or pass is
    about (the top discard)."""
    template = _WORDS.get(type(action))
    if template is None:  # a move a hint never weighs: its notation, untranslated
        return Message("{move}", {"move": action.notation().split(": ", 1)[-1]})
    if isinstance(action, A.SwapRook):
        return msg(template, None, card=action.natural)
    return msg(template, None, card=getattr(action, "card", card))


@dataclass(frozen=True, slots=True)
class Alternative:
    """A move the strong bot weighed and did not choose: how many points more it leaves
    this round on average, and over how many played-out rounds."""

    action: A.Action
    cost: float
    samples: int
    words: Message

    def message(self) -> Message:
        return msg(N_("{move} instead costs about {points} points this round ({n} rounds "
                      "played out)"), None, move=self.words, points=max(0, round(self.cost)),
                   n=self.samples)


@dataclass(frozen=True, slots=True)
class Hint:
    """The strong bot's move for `seat`, why, and its alternatives (cheapest first)."""

    seat: int
    action: A.Action
    reason: Message
    alternatives: tuple[Alternative, ...]
    samples: int  # played-out rounds behind the chosen move's estimate (0: no search)


def round_start(game: Game, round_number: int, upto: int | None = None) -> int:
    """The first position of round `round_number` in `game` (searched among positions
    0..`upto`, default all; rounds only go up, so a binary search)."""
    lo, hi = 0, game.moves_made if upto is None else upto
    while lo < hi:
        mid = (lo + hi) // 2
        if game.position_at(mid).round_number < round_number:
            lo = mid + 1
        else:
            hi = mid
    return lo


def memory_for(game: Game, seat: int, moves: int | None = None) -> Memory:
    """The notes `seat` would have taken this round up to position `moves` (default:
    now), from its own views of the game's positions only."""
    end = game.moves_made if moves is None else moves
    lo = round_start(game, game.position_at(end).round_number, end)
    memory = Memory()
    for k in range(lo, end):
        pos = game.position_at(k)
        if seat in pos.deciders:
            memory.observe(pos.view(seat))
    return memory


def decide_at(game: Game, seat: int, moves: int | None = None, worlds: int = DEFAULT_WORLDS,
              time_budget: float | None = DEFAULT_TIME_BUDGET,
              also: tuple[A.Action, ...] = ()) -> Decision:
    """The strong bot's decision for `seat` at position `moves` (default: now), with the
    notes that seat would have taken; seeded by the game and the position alone."""
    at = game.moves_made if moves is None else moves
    pos = game.position_at(at)
    bot = StrongBot(worlds=worlds, time_budget=time_budget)
    bot.memory = memory_for(game, seat, at)
    rng = random.Random(f"coach:{game.seed}:{at}:{seat}")
    return bot.decide(pos.view(seat), pos.rules, partial(pos.legal_actions, seat), rng,
                      also=also)


def hint(game: Game, seat: int | None = None, worlds: int = DEFAULT_WORLDS,
         time_budget: float | None = DEFAULT_TIME_BUDGET) -> Hint:
    """A hint for `seat` (default: the first seat that must decide) in `game` as it
    stands; see the module."""
    if seat is None:
        if not game.deciders:
            raise WrongPhaseError(msg("the game is over: all 11 rounds have been played",
                                      "T7"))
        seat = game.deciders[0]
    if seat not in game.deciders:
        raise NotYourTurnError(msg("it is {name}'s turn, not {who}'s", "T9",
                                   name=game.names[game.current], who=game.names[seat]))
    decision = decide_at(game, seat, worlds=worlds, time_budget=time_budget)
    return hint_of(decision, game.view(seat))


def hint_of(decision: Decision, view: PlayerView) -> Hint:
    """The hint a strong bot's `decision` in `view` gives (a page that holds only the
    seat's views asks its own `StrongBot` and turns the decision into a hint here)."""
    seat = view.seat
    card = view.offered or view.discard_top or ""
    chosen = decision.cost(decision.action)
    alternatives = tuple(
        Alternative(w.action, w.points - chosen.points, w.samples, move_words(w.action, card))
        for w in decision.weighed if w.action != decision.action) if chosen is not None else ()
    return Hint(seat, decision.action, decision.reason, alternatives,
                chosen.samples if chosen is not None else 0)
