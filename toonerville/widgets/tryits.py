"""When a learner has done a "Try it" of lessons 00–06: `done_after(lesson, action)`.

Owns what counts as done for each numbered item of the Try it list at the end of
notebooks 00–07. A Try-it asks a question and names what to do to answer it; an item
counts as done when the learner has done that on the lesson's widget (the answer itself
is the learner's: the dashboard shows who tried, not who was right). Each lesson's rule
reads the widget as it stands after an action, and the notes kept here of what the
learner did before on that widget (seeds played, rounds simulated). 07's Try it is done
on the game page: `done_in_play` reads its game session (`session.PlaySession`) at each
new game and move.
"""

from __future__ import annotations

import weakref
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any

from .. import ToonervilleError, is_run, parse_cards
from ..store.progress import try_it

Notes = Counter[str]
_notes: weakref.WeakKeyDictionary[Any, Notes] = weakref.WeakKeyDictionary()


def action_name(action: Callable[..., object]) -> str:
    """The name of a lesson's action: a method's name, a partial's function's."""
    while isinstance(action, partial):
        action = action.func
    return getattr(action, "__name__", "")


def _deal(lesson: Any, action: str, notes: Notes) -> set[str]:
    """01 (and 00's one item, done on 01's page)."""
    plan, done = lesson.plan, set()
    if action == "step":
        notes["stepped"] += 1
    all_dealt = lesson.dealt >= plan.total
    if all_dealt and action == "step":
        done.add(try_it("00", 1))
    if all_dealt and plan.players == 5 and plan.round_number == 10:
        done.add(try_it("01", 1))
    if all_dealt and plan.players == 3 and plan.round_number == 1 and plan.seed == 9:
        done.add(try_it("01", 2))
    if action == "step" and lesson.dealt >= 4:  # the page names who gets the 5th card
        done.add(try_it("01", 3))
    return done


def _melds(lesson: Any, action: str, notes: Notes) -> set[str]:
    """02: a run with two Rooks; the two questions' melds; a card that is no card; red
    runs checked as a lay-down, once allowed and once refused."""
    text = " ".join(lesson.text.value.upper().split())
    tokens = text.replace("/", " ").split()
    refused = lesson.messages.kind == "error"  # the checker's sentence: not a card
    done = set()
    if text in ("Y9 B9 G9 R9 Y9", "R1 R2 R3 R4 R5 R6"):
        done.add(try_it("02", 2))
    if tokens and refused:
        done.add(try_it("02", 3))
    if "/" in text and not refused and all(t.startswith("R") for t in tokens):
        notes["lay-down allowed" if lesson.verdict.verdict else "lay-down refused"] += 1
    if notes["lay-down allowed"] and notes["lay-down refused"]:
        done.add(try_it("02", 4))
    if "/" not in text and not refused and sum(t.startswith("RK") for t in tokens) >= 2:
        try:
            if is_run(text, lesson.rules):
                done.add(try_it("02", 1))
        except ToonervilleError:
            pass
    return done


def _contracts(lesson: Any, action: str, notes: Notes) -> set[str]:
    """03: how often, for two rounds or more (to compare them); rounds 1 and 4 both
    looked at; round 3 dealt until it met the contract twice."""
    round_number = lesson.round.value
    if action == "simulate":
        notes[f"simulated {round_number}"] += 1
    notes[f"round {round_number}"] += 1
    if action == "deal_until" and round_number == 3:
        notes["until 3"] += 1
    done = set()
    if sum(1 for k in notes if k.startswith("simulated ")) >= 2:
        done.add(try_it("03", 1))
    if notes["round 1"] and notes["round 4"]:
        done.add(try_it("03", 2))
    if notes["until 3"] >= 2:
        done.add(try_it("03", 3))
    return done


def _buying(lesson: Any, action: str, notes: Notes) -> set[str]:
    """04: with 4 players, Players 4 and 1 asked to buy; Player 2 tried to take the
    discard after declining it (refused); the T14 demonstration."""
    game, done = lesson.game, set()
    moves = {a.notation() for a in game.actions}  # since the position was dealt
    if game.players == 4 and {"3: buy", "0: buy"} <= moves:
        done.add(try_it("04", 1))
    if "1: draw" in moves and action == "<lambda>" and lesson.messages.kind == "error":
        done.add(try_it("04", 2))
    if action == "t14_demo":
        done.add(try_it("04", 3))
    return done


def _rook(lesson: Any, action: str, notes: Notes) -> set[str]:
    """05: a swap made; a place for the Rook the engine refused; the set's Rook tried."""
    done = set()
    if action in ("swap_example", "swap_chosen") and lesson.messages.kind != "error":
        done.add(try_it("05", 1))
    if action in ("swap_chosen", "wrong_card_demo") and lesson.messages.kind == "error":
        done.add(try_it("05", 2))
    if action == "set_demo":
        done.add(try_it("05", 3))
    return done


def _scoring(lesson: Any, action: str, notes: Notes) -> set[str]:
    """06: two hands of 5 cards counted; the round 11 scene's refused lay-down seen;
    bot games with two seeds or more."""
    if action == "count":
        try:
            cards = parse_cards(lesson.cards.value)
        except ToonervilleError:
            cards = ()
        if len(cards) == 5:
            notes["hand " + " ".join(sorted(map(str, cards)))] += 1
    if action == "play_bot_game":
        notes[f"seed {lesson.seed.value}"] += 1
    done = set()
    if sum(1 for k in notes if k.startswith("hand ")) >= 2:
        done.add(try_it("06", 1))
    if action == "next_step" and lesson.scene.value == 1 and lesson.step >= 2:
        done.add(try_it("06", 2))
    if sum(1 for k in notes if k.startswith("seed ")) >= 2:
        done.add(try_it("06", 3))
    return done


#: each lesson widget's rule, by its class's name (the lesson modules import this one's
#: caller, so the classes themselves are not imported here)
RULES: dict[str, Callable[[Any, str, Notes], set[str]]] = {
    "DealDemo": _deal, "MeldChecker": _melds, "ContractExplorer": _contracts,
    "BuyDemo": _buying, "RookDemo": _rook, "ScoringDemo": _scoring}


def done_after(lesson: object, action: Callable[..., object]) -> set[str]:
    """The Try-its (`progress.try_it` details) that `lesson` shows done now that the
    learner's `action` has run: a set, possibly empty (a widget that is no lesson of
    00–06 has none)."""
    rule = RULES.get(type(lesson).__name__)
    if rule is None:
        return set()
    notes = _notes.setdefault(lesson, Counter())
    return rule(lesson, action_name(action), notes)


def done_in_play(session: Any) -> set[str]:
    """07's Try-its that the game page's session shows done now (called at each new
    game and each move): games the bots finished with random and with heuristic bots
    (1); a new game dealt with 2 penalty cards per buy and every declined discard offered
    (2); after a new game was dealt, a game loaded in the middle of a round (3: a game
    of another seed that already has moves, which neither a new game nor a take-back
    is)."""
    notes = _notes.setdefault(session, Counter())
    game, done = session.game, set()
    if game.seed != notes["seed"]:
        if not game.actions:
            notes["dealt"] += 1
            if session.rules.penalty_cards == 2 and session.buy_offers == "always":
                done.add(try_it("07", 2))
        elif notes["dealt"]:
            done.add(try_it("07", 3))
        notes["seed"] = game.seed
    if game.is_over:
        notes[f"over {session.settings.get('kind')}"] += 1
        if notes["over random"] and notes["over heuristic"]:
            done.add(try_it("07", 1))
    return done
