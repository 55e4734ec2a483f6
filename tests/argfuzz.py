"""The public engine calls that a learner's notebook can make with any value, and the
junk to call them with (issue 27): what `tests/test_arguments.py` puts to Hypothesis and
`benchmarks/fuzz_arguments.py` counts in bulk.

A target is one public function, constructor or `Game` method (the solver's functions
and `check_lay_down` excepted: their checks belong to the solver) with the names of its
parameters, required first. A call fills every required parameter and some optional
ones with junk, positionally or by name: only the values are wrong, never the call's
shape (a missing argument is Python's refusal, not the engine's). Whatever comes back,
or a `ToonervilleError`, is fine; any other exception is a foreign one.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import toonerville as T
from toonerville.engine import actions as A
from toonerville.engine.cards import NATURALS
from toonerville.engine.game import Game


@dataclass(frozen=True)
class Target:
    """A public call: `call(*args, **kwargs)`; `required` parameters come first and are
    always given, `optional` ones sometimes."""

    name: str
    call: Callable[..., object]
    required: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()
    #: a `Game` method: called on one of the prepared games (`a_game`)
    on_game: bool = False


# -- the games a method is called on ---------------------------------------------------------
def _drawn(game: Game) -> Game:
    """`game` after its player to draw has drawn and nobody bought: the turn's play."""
    game.draw()
    while game.deciders != (game.current,):
        game.pass_buy(next(s for s in game.deciders if s != game.current))
    return game


@cache
def _games() -> tuple[Game, ...]:
    """Games in several phases: to draw, to play after a draw, melds on the table, a buy
    window, and a game that is over."""
    start = Game.new(players=4, seed=3)
    drawn = _drawn(Game.new(players=3, seed=5))
    table = Game.from_position(
        hands=["R5 R6 R7 R8 Y7 G7 RK B2", "Y3 Y4 B9", "G1 G2 G9"],
        stock="B1 B3 B4 B5 B6", discard_pile="Y9",
        table={1: ["Y7 R7 RK", "G3 G4 G5 G6"]}, round_number=2, dealer=0, current=0,
        scores=[[10, 0, 25]])
    _drawn(table)
    window = Game.new(players=5, seed=8)
    window.draw()  # a seat declined the discard: the others may buy
    over = T.play_game(["random"] * 3, seed=2, turn_limit=60)
    return start, drawn, table, window, over


def a_game(index: int) -> Game:
    """A fresh copy of one of the prepared games (a call may change it)."""
    games = _games()
    game = games[index % len(games)]
    return game.position_at(game.moves_made)


def _method(name: str) -> Callable[..., object]:
    def call(game: Game, *args: Any, **kwargs: Any) -> object:
        return getattr(game, name)(*args, **kwargs)

    return call


def _rules_method(name: str) -> Callable[..., object]:
    def call(*args: Any, **kwargs: Any) -> object:
        return getattr(T.Rules(), name)(*args, **kwargs)

    return call


def _meld_method(name: str) -> Callable[..., object]:
    def call(*args: Any, **kwargs: Any) -> object:
        return getattr(T.Meld.parse("R5 R6 RK R8"), name)(*args, **kwargs)

    return call


def _replace(**changes: Any) -> object:
    return T.Rules().replace(**changes)


_RULE_NAMES = tuple(T.Rules.__dataclass_fields__)
_MAKERS = ("Game.new", "Game.from_position", "Game.from_json")

TARGETS: tuple[Target, ...] = (
    # cards
    Target("Card", T.Card, ("colour", "number")),
    Target("Card.parse", T.Card.parse, ("text",)),
    Target("parse_cards", T.parse_cards, ("text",)),
    Target("format_cards", T.format_cards, ("cards",)),
    Target("hand_points", T.hand_points, ("cards",)),
    Target("shoe", T.shoe, ("players",)),
    # melds
    Target("is_run", T.is_run, ("cards",), ("rules",)),
    Target("is_set", T.is_set, ("cards",), ("rules",)),
    Target("check_meld", T.check_meld, ("cards",), ("rules",)),
    Target("Meld.parse", T.Meld.parse, ("text",), ("rules",)),
    Target("Meld", T.Meld, ("kind", "cards"), ("colour", "low")),
    Target("Verdict", T.Verdict, ("ok", "reason"), ("meld",)),
    Target("Meld.lay_off", _meld_method("lay_off"), ("card",), ("as_card", "rules")),
    Target("Meld.swap_rook", _meld_method("swap_rook"), ("natural",)),
    Target("Meld.fits", _meld_method("fits"), ("card",)),
    Target("Meld.stands_for", _meld_method("stands_for"), ("index",)),
    # rules
    Target("contract_for", T.contract_for, ("round_number",)),
    Target("Contract", T.Contract, ("runs", "sets")),
    Target("Rules", T.Rules, (), _RULE_NAMES),
    Target("Rules.from_dict", T.Rules.from_dict, ("data",)),
    Target("Rules.replace", _replace, (), (*_RULE_NAMES, "no_such_rule")),
    Target("Rules.deal_size", _rules_method("deal_size"), ("round_number",)),
    Target("Rules.contract", _rules_method("contract"), ("round_number",)),
    Target("Rules.may_go_out_by_discard", _rules_method("may_go_out_by_discard"),
           ("round_number",)),
    Target("Rules.rooks_allowed", _rules_method("rooks_allowed"), ("naturals",)),
    # making a game
    Target("Game.new", T.Game.new, (),
           ("players", "seed", "rules", "names", "deck", "turn_limit")),
    Target("Game.from_position", T.Game.from_position, ("hands", "stock", "discard_pile"),
           ("table", "round_number", "dealer", "current", "rules", "seed", "names",
            "scores", "turn_limit")),
    Target("Game.from_json", T.Game.from_json, ("text",)),
    # a game's methods
    Target("Game.play_refusal", _method("play_refusal"), ("seat",)),
    Target("Game.view", _method("view"), ("seat",)),
    Target("Game.hand", _method("hand"), ("seat",)),
    Target("Game.apply", _method("apply"), ("action",)),
    Target("Game.is_legal", _method("is_legal"), ("action",)),
    Target("Game.refusal", _method("refusal"), ("action",)),
    Target("Game.legal_actions", _method("legal_actions"), (), ("seat",)),
    Target("Game.suggest_lay_down", _method("suggest_lay_down"), (), ("seat", "best")),
    Target("Game.lay_down_refusal", _method("lay_down_refusal"), ("seat",)),
    Target("Game.discard_refusal", _method("discard_refusal"), ("seat", "card")),
    Target("Game.position_at", _method("position_at"), ("moves",)),
    Target("Game.renamed", _method("renamed"), ("names",)),
    Target("Game.draw", _method("draw"), (), ("seat",)),
    Target("Game.take_discard", _method("take_discard"), (), ("seat",)),
    Target("Game.buy", _method("buy"), ("seat",)),
    Target("Game.pass_buy", _method("pass_buy"), ("seat",)),
    Target("Game.lay_down", _method("lay_down"), ("melds",), ("seat",)),
    Target("Game.lay_off", _method("lay_off"), ("card", "onto"), ("as_card", "seat")),
    Target("Game.swap_rook", _method("swap_rook"), ("natural", "source"),
           ("lay_off_onto", "rook_as", "lay_down", "seat")),
    Target("Game.discard", _method("discard"), ("card",), ("seat",)),
    Target("Game.to_json", _method("to_json"), (), ("indent",)),
)
TARGETS = tuple(Target(t.name, t.call, t.required, t.optional, on_game=True)
                if t.name.startswith("Game.") and t.name not in _MAKERS else t
                for t in TARGETS)


# -- the junk ---------------------------------------------------------------------------------
class Odd:
    """An object of no kind the engine knows, whose repr is long."""

    def __repr__(self) -> str:
        return "Odd(" + "x" * 200 + ")"


def plain_junk() -> tuple[object, ...]:
    """Values of every kind a notebook might pass by mistake, and some right ones, so a
    call gets past its first check now and then."""
    rook_run = T.Meld.parse("R5 R6 RK R8")
    return (
        None, True, False, 0, 1, 2, 3, 4, 5, -1, 11, 12, 14, 99, 10**30, -(10**40),
        0.0, 1.0, 3.0, -2.5, math.nan, math.inf,
        "", " ", "R5", "RK", "R15", "Q3", "RK=R8", "RK=", "=R8", "R5 R6 R7 R8", "Y7 R7 RK",
        "R5,", "x" * 300, "1.0", "0: draw", "2: discard R7", "bury", "spread", "\x00",
        b"R5", bytearray(b"R5"), b"", {1: True}, {"x": 1}, {"R5": "R6"}, {}, {0: ["R5"]},
        [], [""], ["R5", ""], ["R5", None], [None], [1, 2], [1.0], ["R5", "R6", "R7", "R8"],
        ("R5",), (1, 0), (0, 0), (1, "0"), (-1, 0), (0,), ((1, 0),), [[1]], [["R5"]],
        {"R5"}, frozenset(), range(3), iter(["R5"]), Odd(), object(), type, print,
        T.Card.parse("R5"), T.ROOK, NATURALS[0], T.Colour.RED, T.MeldKind.RUN,
        T.MeldKind.SET, rook_run, T.Meld.parse("Y7 R7 RK"), (rook_run,), [rook_run],
        T.Rules(), T.Rules(extra_melds=True), T.Contract(1, 1), T.Phase.DRAW,
        A.Draw(0), A.Discard(1, NATURALS[3]), A.LayOff(0, T.ROOK, (1, 0)), A.Buy(True),
        A.Discard("R5", "R5"), A.LayDown(0, ("R5",)), T.Message("x", {}, None),
        T.check_meld("R5 R6"), {"format": "toonerville-rook-game"},
    )


#: a right value for a parameter of that name: a call given right values for the others
#: reaches the checks of the one that is junk
GOOD: dict[str, tuple[object, ...]] = {
    "colour": (T.Colour.RED, None), "number": (5, 0), "text": ("R5", "R5 R6 R7 R8"),
    "cards": ("R5 R6 R7 R8", "Y7 R7 RK"), "players": (3, 4), "rules": (None, T.Rules()),
    "kind": (T.MeldKind.RUN,), "low": (5,), "ok": (True,), "reason": (T.Message("x", {}),),
    "meld": (None,), "card": ("R9", "RK", "R4"), "as_card": (None, "R4"), "natural": ("R7",),
    "index": (0, 2), "round_number": (1, 2), "runs": (1,), "sets": (1,), "data": ({},),
    "naturals": (2,), "seed": (1, None), "names": (None,), "deck": (None,),
    "turn_limit": (None, 50), "hands": (["R5 R6", "R7 R8", "R9 R10"],), "stock": ("B1 B2",),
    "discard_pile": ("B3",), "table": (None, {1: ["Y7 R7 RK"]}), "dealer": (0,),
    "current": (None, 1), "scores": ((),), "seat": (0, 1, None), "action": ("0: draw",),
    "best": (True,), "moves": (0,), "melds": ("R5 R6 R7 R8 / Y7 R7 RK",), "onto": ((1, 0),),
    "source": ((1, 1),), "lay_off_onto": (None,), "rook_as": (None,), "lay_down": (None,),
    "indent": (1, None),
}


def choose_call(target: Target, rng: random.Random, junk: tuple[object, ...]
                ) -> tuple[tuple[object, ...], dict[str, object]]:
    """Arguments for one call of `target`: the required ones, then some optional ones;
    each given by position or by name (names only after the last positional), each junk
    or, now and then, a right value."""
    names = list(target.required) + [n for n in target.optional if rng.random() < 0.4]
    by_position = rng.randint(0, len(target.required)) if target.required else 0

    def value(name: str) -> object:
        good = GOOD.get(name)
        return rng.choice(good) if good and rng.random() < 0.5 else rng.choice(junk)

    args = tuple(value(n) for n in names[:by_position])
    kwargs = {n: value(n) for n in names[by_position:]}
    return args, kwargs


def is_foreign(err: BaseException) -> bool:
    """An exception that is not the engine's own refusal."""
    return not isinstance(err, T.ToonervilleError)


def call(target: Target, args: tuple[object, ...], kwargs: dict[str, object],
         game: int = 0) -> BaseException | None:
    """Make the call; the exception it raised, if any."""
    before = (a_game(game),) if target.on_game else ()  # made outside: never refused
    try:
        target.call(*before, *args, **kwargs)
    except Exception as err:  # noqa: BLE001 - sorting exceptions is the point
        return err
    return None
