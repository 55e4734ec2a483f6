"""The rules configuration: the round table and every house-rule switch.

Owns `Contract` (how many runs and sets a round asks for), the round table of T7, and
`Rules`, one frozen object holding every H switch of RULES.md with its default.
`Rules()` is exactly the rulebook's defaults; a setting that cannot be played is refused
when the object is made, so a game never starts under impossible rules.
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from enum import Enum
from typing import Any, TypeGuard

from .errors import RulesError
from .messages import N_, msg, plural, translate

ROUNDS = 11
#: the largest turn limit a game takes (`Game.new(turn_limit=…)`, a save's "turn_limit"):
#: a round of random bots has run past 3,000 turns, and a larger limit is no limit
MAX_TURN_LIMIT = 10_000


def _whole(value: object) -> TypeGuard[int]:
    """Is `value` a whole number (an int that is not True or False)?"""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class Contract:
    """The melds a player must lay down in a round: `Contract(runs=1, sets=2)`."""

    runs: int
    sets: int

    def __post_init__(self) -> None:
        if not (_whole(self.runs) and _whole(self.sets) and self.runs >= 0
                and self.sets >= 0):
            raise RulesError(msg(
                "a contract asks for a whole number of runs and of sets, 0 or more, not "
                "{runs} and {sets}", "T7", runs=_short(self.runs), sets=_short(self.sets)))

    @property
    def melds(self) -> int:
        return self.runs + self.sets

    def __str__(self) -> str:
        """"2 runs + 1 set", in the active language with its own plural forms."""
        parts = []
        if self.runs:
            parts.append(plural("{n} run", "{n} runs", self.runs))
        if self.sets:
            parts.append(plural("{n} set", "{n} sets", self.sets))
        return " + ".join(parts)

    @property
    def min_cards(self) -> int:
        """Cards in the smallest lay-down: 4 per run, 3 per set."""
        return 4 * self.runs + 3 * self.sets


#: T7: (cards dealt, contract) for rounds 1..11; round 11's deal is H4's switch.
ROUND_TABLE: tuple[tuple[int, Contract], ...] = (
    (12, Contract(0, 2)),
    (12, Contract(1, 1)),
    (12, Contract(2, 0)),
    (12, Contract(0, 3)),
    (12, Contract(1, 2)),
    (12, Contract(2, 1)),
    (12, Contract(0, 4)),
    (12, Contract(3, 0)),
    (15, Contract(0, 5)),
    (16, Contract(4, 0)),
    (14, Contract(2, 2)),
)


def _check_round(round_number: object) -> int:
    """The round number, checked: anything may be given (T7)."""
    if not _whole(round_number) or not 1 <= round_number <= ROUNDS:
        raise RulesError(
            msg("there is no round {round}: a game has rounds 1 to 11", "T7",
                round=_short(round_number))
        )
    return round_number


def contract_for(round_number: object) -> Contract:
    """The contract of a round (T7): `contract_for(6)` is 2 runs + 1 set."""
    return ROUND_TABLE[_check_round(round_number) - 1][1]


class RookTurnUp(Enum):
    """H3: what happens when the first discard turned up is a Rook."""

    BURY = "bury"
    STAYS = "stays"


class Seating(Enum):
    """H11: how a tournament seats its players before each round."""

    SPREAD = "spread"  # a seeded schedule that spreads opponents evenly
    STAY = "stay"  # everyone keeps the first round's table all game
    STANDING = "standing"  # reseat by standing: the leaders play each other


class SwappedRook(Enum):
    """H12: when a Rook taken by a swap must be played."""

    AT_ONCE = "at_once"  # in the same move (T18)
    THIS_TURN = "this_turn"  # any time later in the turn; the turn cannot end before


class Restock(Enum):
    """H6: how the discard pile becomes a new stock."""

    SHUFFLE = "shuffle"
    TURN_OVER = "turn_over"


#: The rulebook id behind each switch of `Rules`.
RULE_OF: dict[str, str] = {
    "max_rooks_per_meld": "H1", "rooks_at_most_naturals": "H1", "first_dealer": "H2",
    "rook_turn_up": "H3", "round11_deal": "H4", "max_buys_per_round": "H5",
    "down_players_may_buy": "H5", "penalty_cards": "H5", "restock": "H6",
    "extra_melds": "H7", "contiguous_runs": "H8", "same_number_sets": "H8",
    "lay_off_same_turn": "H9", "lay_off_on_others": "H9", "rook_swap": "H10",
    "swap_only_when_down": "H10", "seating": "H11", "swapped_rook": "H12",
}


@dataclass(frozen=True, slots=True)
class Rules:
    """Every house-rule switch of RULES.md; `Rules()` is the rulebook's defaults.

    Make a variant with `rules.replace(penalty_cards=2)` or `Rules(extra_melds=True)`.
    """

    # H1 Rooks per meld: every meld always needs a natural card.
    max_rooks_per_meld: int | None = None
    rooks_at_most_naturals: bool = False
    # H2 dealer: None draws the first dealer at random (seeded); a seat fixes it.
    first_dealer: int | None = None
    # H3 a Rook turned up as the first discard.
    rook_turn_up: RookTurnUp = RookTurnUp.BURY
    # H4 cards dealt in round 11 (14 or 12).
    round11_deal: int = 14
    # H5 buying.
    max_buys_per_round: int | None = None
    down_players_may_buy: bool = True
    penalty_cards: int = 1
    # H6 empty stock.
    restock: Restock = Restock.SHUFFLE
    # H7 melds beyond the contract.
    extra_melds: bool = False
    # H8 same-colour runs may touch end to end / two sets of one number.
    contiguous_runs: bool = False
    same_number_sets: bool = False
    # H9 laying off.
    lay_off_same_turn: bool = True
    lay_off_on_others: bool = True
    # H10 the Rook swap.
    rook_swap: bool = True
    swap_only_when_down: bool = False
    # H11 tournament seating between rounds.
    seating: Seating = Seating.SPREAD
    # H12 when the Rook taken by a swap must be played.
    swapped_rook: SwappedRook = SwappedRook.AT_ONCE

    def __post_init__(self) -> None:
        for name in ("max_rooks_per_meld", "first_dealer", "round11_deal",
                     "max_buys_per_round", "penalty_cards"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise RulesError(msg("{field} must be a whole number, not {value!r}",
                                     RULE_OF[name], field=name, value=value))
        if self.max_rooks_per_meld is not None and (
            not isinstance(self.max_rooks_per_meld, int) or self.max_rooks_per_meld < 0
        ):
            raise RulesError(msg(
                "max_rooks_per_meld must be a whole number 0 or more, or None for any",
                "H1"))
        if self.first_dealer is not None and (
            not isinstance(self.first_dealer, int) or not 0 <= self.first_dealer <= 4
        ):
            raise RulesError(msg(
                "first_dealer must be a seat from 0 to 4, or None to draw at random", "H2"))
        if self.round11_deal not in (12, 14):
            raise RulesError(msg(
                "round 11 deals 14 or 12 cards, not {deal}", "H4", deal=self.round11_deal))
        if self.max_buys_per_round is not None and (
            not isinstance(self.max_buys_per_round, int) or self.max_buys_per_round < 0
        ):
            raise RulesError(msg(
                "max_buys_per_round must be a whole number 0 or more, or None for no limit",
                "H5"))
        if not isinstance(self.penalty_cards, int) or not 0 <= self.penalty_cards <= 3:
            raise RulesError(msg(
                "penalty_cards must be 0, 1, 2 or 3, not {n}", "H5", n=self.penalty_cards))
        enums: tuple[tuple[str, type[Enum], str], ...] = (
            ("rook_turn_up", RookTurnUp, "H3"), ("restock", Restock, "H6"),
            ("seating", Seating, "H11"), ("swapped_rook", SwappedRook, "H12"))
        for name, enum, rule in enums:
            value = getattr(self, name)
            if not isinstance(value, enum):
                try:
                    object.__setattr__(self, name, enum(value))
                except ValueError:
                    choices = ", ".join(e.value for e in enum)
                    raise RulesError(msg(
                        "{field} must be one of {choices}, not {value!r}", rule,
                        field=name, choices=choices, value=value)) from None
        for f in fields(self):
            if f.type == "bool" and not isinstance(getattr(self, f.name), bool):
                raise RulesError(msg("{field} must be True or False", RULE_OF[f.name],
                                     field=f.name))

    # -- the round table ---------------------------------------------------------
    def round_table(self) -> str:
        """Each round's deal and contract (T7) as aligned text under a header, in the
        language in use ("round  deal  contract", then "    1    12  2 sets", …)."""
        heads = [translate(h) for h in (N_("round"), N_("deal"), N_("contract"))]
        w0, w1 = max(len(heads[0]), 5), max(len(heads[1]), 4)
        lines = [f"{heads[0]:>{w0}}  {heads[1]:>{w1}}  {heads[2]}"]
        lines += [f"{r:>{w0}}  {self.deal_size(r):>{w1}}  {contract_for(r)}"
                  for r in range(1, ROUNDS + 1)]
        return "\n".join(lines)

    def deal_size(self, round_number: int) -> int:
        """Cards dealt to each player in a round (T7, H4)."""
        _check_round(round_number)
        if round_number == ROUNDS:
            return self.round11_deal
        return ROUND_TABLE[round_number - 1][0]

    def contract(self, round_number: object) -> Contract:
        # the solver asks at every search: a round number that is plainly one is looked up
        if round_number.__class__ is int and 1 <= round_number <= ROUNDS:
            return ROUND_TABLE[round_number - 1][1]
        return contract_for(round_number)

    def may_go_out_by_discard(self, round_number: int) -> bool:
        """T17: not in round 11."""
        _check_round(round_number)
        return round_number != ROUNDS

    # -- meld limits (H1) --------------------------------------------------------
    def rooks_allowed(self, naturals: int) -> int:
        """Most Rooks a meld with this many natural cards may hold (H1)."""
        if naturals.__class__ is not int:
            raise RulesError(msg("{field} must be a whole number, not {value!r}", "H1",
                                 field="naturals", value=_short(naturals)))
        if naturals < 1:
            return 0
        limit = naturals if self.rooks_at_most_naturals else 99
        if self.max_rooks_per_meld is not None:
            limit = min(limit, self.max_rooks_per_meld)
        return limit

    # -- notation ----------------------------------------------------------------
    def replace(self, **changes: Any) -> Rules:
        """These rules with some switches changed: `rules.replace(penalty_cards=2)`."""
        _known_names(changes)
        return replace(self, **changes)

    def changes(self) -> dict[str, Any]:
        """The switches that differ from the rulebook's defaults."""
        default = Rules()
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)
                if getattr(self, f.name) != getattr(default, f.name)}

    def to_dict(self) -> dict[str, Any]:
        return {k: _plain(v) for k, v in asdict(self).items()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """The rules a mapping of switch names to values describes (`to_dict`'s inverse);
        an unknown name or a value of the wrong kind is a `RulesError`."""
        if not isinstance(data, Mapping):
            raise RulesError(msg("{field} must be a mapping of house-rule names to values, "
                                 "not {value!r}", None, field="data", value=_short(data)))
        _known_names(data)
        return cls(**data)

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self.changes().items())
        return f"Rules({inner})"


def _known_names(changes: Mapping[Any, Any]) -> None:
    known = Rules.__dataclass_fields__
    unknown = sorted(_short(name) for name in changes if name not in known)
    if unknown:
        raise RulesError(msg("unknown house rule: {names}", None, names=", ".join(unknown)))


def _short(value: object) -> str:
    """A value inside a sentence, cut short."""
    text = reprlib.repr(value) if not isinstance(value, str) else value
    return text if len(text) <= 40 else text[:39] + "…"


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value
