"""Wrong values put to the engine's public entry points, and what each one does: returns,
refuses with one of the engine's own errors, or raises something else. `python
tests/entry_probe.py` prints the outcomes as JSON, so a test can compare the compiled
engine's answers with the pure engine's (run with TOONERVILLE_PURE=1) value by value."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import toonerville as T  # noqa: E402
from toonerville import Card, Game, Rules  # noqa: E402
from toonerville.engine.cards import Colour  # noqa: E402

#: values of the wrong kind (and one out of range)
BAD: dict[str, Any] = {"None": None, "text": "x", "float": 2.5, "bool": True, "list": [],
                       "object": object(), "negative": -1}


def _game() -> Game:
    return Game.new(players=4, seed=3)


#: entry point (and argument) -> a call with the value put in that argument's place
CASES: dict[str, Callable[[Any], object]] = {
    "Card(colour)": lambda v: Card(v, 7),
    "Card(number)": lambda v: Card(Colour.RED, v),
    "Card.parse": lambda v: Card.parse(v),
    "parse_cards": lambda v: T.parse_cards(v),
    "shoe": lambda v: T.shoe(v),
    "hand_points": lambda v: T.hand_points(v),
    "check_meld": lambda v: T.check_meld(v),
    "check_meld(rules)": lambda v: T.check_meld("R1 R2 R3 R4", v),
    "is_run": lambda v: T.is_run(v),
    "is_set": lambda v: T.is_set(v),
    "contract_for": lambda v: T.contract_for(v),
    "find_contract(hand)": lambda v: T.find_contract(v, 1),
    "find_contract(round)": lambda v: T.find_contract("R1 R2 R3", v),
    "find_contract(rules)": lambda v: T.find_contract("R1 R2 R3", 1, v),
    "best_lay_down(hand)": lambda v: T.best_lay_down(v, 1),
    "best_lay_down(round)": lambda v: T.best_lay_down("R1 R2 R3", v),
    "whole_hand(hand)": lambda v: T.whole_hand(v, 1),
    "whole_hand(round)": lambda v: T.whole_hand("R1 R2", v),
    "shortfall(hand)": lambda v: T.shortfall(v, 1),
    "shortfall(round)": lambda v: T.shortfall("R1", v),
    "check_lay_down(melds)": lambda v: T.check_lay_down(v, T.contract_for(1)),
    "check_lay_down(contract)": lambda v: T.check_lay_down([], v),
    "round_scores(hands)": lambda v: T.round_scores(v, 0),
    "round_scores(went_out)": lambda v: T.round_scores([[], []], v),
    "places": lambda v: T.places(v),
    "Rules(penalty_cards)": lambda v: Rules(penalty_cards=v),
    "Rules(restock)": lambda v: Rules(restock=v),
    "Game.new(players)": lambda v: Game.new(players=v),
    "Game.new(seed)": lambda v: Game.new(seed=v),
    "Game.new(rules)": lambda v: Game.new(rules=v),
    "Game.new(names)": lambda v: Game.new(names=v),
    "Game.new(deck)": lambda v: Game.new(deck=v),
    "Game.new(turn_limit)": lambda v: Game.new(turn_limit=v),
    "Game.from_position(hands)": lambda v: Game.from_position(v, "R1", "R2"),
    "Game.from_position(stock)": lambda v: Game.from_position(["R3", "R4", "R5"], v, "R2"),
    "Game.from_json": lambda v: Game.from_json(v),
    "view": lambda v: _game().view(v),
    "hand": lambda v: _game().hand(v),
    "apply": lambda v: _game().apply(v),
    "is_legal": lambda v: _game().is_legal(v),
    "refusal": lambda v: _game().refusal(v),
    "legal_actions": lambda v: _game().legal_actions(v),
    "suggest_lay_down": lambda v: _game().suggest_lay_down(v),
    "lay_down_refusal": lambda v: _game().lay_down_refusal(v),
    "discard_refusal(seat)": lambda v: _game().discard_refusal(v, Card.parse("R1")),
    "discard_refusal(card)": lambda v: _game().discard_refusal(0, v),
    "position_at": lambda v: _game().position_at(v),
    "renamed": lambda v: _game().renamed(v),
    "draw": lambda v: _game().draw(v),
    "take_discard": lambda v: _game().take_discard(v),
    "buy": lambda v: _game().buy(v),
    "pass_buy": lambda v: _game().pass_buy(v),
    "lay_down(melds)": lambda v: _game().lay_down(v),
    "lay_down(seat)": lambda v: _game().lay_down("R1 R2 R3", v),
    "lay_off(card)": lambda v: _game().lay_off(v, (0, 0)),
    "lay_off(onto)": lambda v: _game().lay_off("R1", v),
    "swap_rook(natural)": lambda v: _game().swap_rook(v, (0, 0)),
    "swap_rook(source)": lambda v: _game().swap_rook("R1", v),
    "discard(card)": lambda v: _game().discard(v),
    "discard(seat)": lambda v: _game().discard("R1", v),
    "to_json": lambda v: _game().to_json(v),
    "play_game(seed)": lambda v: T.play_game(["random"] * 3, seed=v),
}


#: not put to the probe, and why (the builds differ there, both with a foreign error)
LEFT_OUT = {
    "HeuristicBot(take_threshold)": "not checked by either build: the pure bot takes any "
    "value and fails later in play (TypeError on comparing it), the compiled one refuses "
    "a value that is no number at once (TypeError); checking it needs a new sentence in "
    "the six catalogues",
}


def outcome(call: Callable[[Any], object], value: object) -> str:
    """"ok", "own <ErrorType>" (a ToonervilleError), or "foreign <Type>: <message>"."""
    try:
        call(value)
    except T.ToonervilleError as err:
        return f"own {type(err).__name__}"
    except Exception as err:  # the point: anything else is recorded, not raised
        return f"foreign {type(err).__name__}: {str(err).splitlines()[0][:100]}"
    return "ok"


def outcomes() -> dict[str, str]:
    return {f"{name} <- {label}": outcome(call, value)
            for name, call in CASES.items() for label, value in BAD.items()}


if __name__ == "__main__":
    json.dump({"build": T.BUILD, "outcomes": outcomes()}, sys.stdout, indent=0)
