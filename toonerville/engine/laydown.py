"""What makes a group of melds a lay-down of a round's contract.

Owns the check of T15, H7 and H8 on melds that are each already valid: the right number
of runs and sets, nothing beyond the contract unless extra melds are allowed, no two
same-colour runs that touch end to end (they would be one run), no two sets of one
number (they would be one set). Whether the player holds the cards is the game's
business, not this module's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

from .actions import excerpt
from .cards import Card
from .errors import InvalidMeldError, RulesError
from .melds import Meld, Verdict, check_meld
from .messages import msg, translate
from .rules import ROUNDS, Contract, Rules

_DEFAULT_RULES: Final = Rules()


@dataclass(frozen=True, slots=True)
class MeldCount:
    """How many runs and sets some melds are, as a value a message keeps: put into words
    (with the language's own plurals) only when it is shown."""

    runs: int
    sets: int

    def __str__(self) -> str:
        return str(Contract(self.runs, self.sets)) or translate("no melds")


def melds_count(melds: Sequence[Meld]) -> MeldCount:
    runs = sum(1 for m in melds if m.is_run)
    return MeldCount(runs, len(melds) - runs)


def describe_melds(melds: Sequence[Meld]) -> str:
    """"2 runs + 1 set" in the language in use ("no melds" for none)."""
    return str(melds_count(melds))


def as_melds(melds: Iterable[Meld | str | Iterable[str | Card]],
             rules: Rules | None = None) -> tuple[Meld, ...]:
    """Melds from notation; an invalid one raises `InvalidMeldError` with its reason, and
    so does a value that is no group of melds at all."""
    given: object = melds  # (anything may be given: typed so, the compiled build asks)
    if isinstance(given, str) or not isinstance(given, Iterable):
        raise InvalidMeldError(msg(
            "{name} must be a tuple of one or more melds, such as (Meld.parse('R3 R4 R5 "
            "R6'),), not {value}", None, name="melds", value=excerpt(given)))
    return tuple(m if isinstance(m, Meld) else check_meld(m, rules).meld_or_raise()
                 for m in melds)


def touching(a: Meld, b: Meld) -> bool:
    """Two runs of one colour that end where the other begins (H8)."""
    return (a.is_run and b.is_run and a.colour is b.colour
            and (a.high + 1 == b.low or b.high + 1 == a.low))


def check_lay_down(melds: Sequence[Meld] | object, contract: Contract | object,
                   rules: Rules | object = None, round_number: int | object = None) -> Verdict:
    """Do these (valid) melds make the contract (T15, H7, H8)? The verdict's reason says
    why not; a valid verdict's `meld` is None. Melds may be given in notation too; values
    of the wrong kind raise the engine's errors (`InvalidMeldError`, `RulesError`)."""
    if rules is None:
        rules = _DEFAULT_RULES
    elif not isinstance(rules, Rules):
        raise RulesError(msg("rules must be a Rules such as Rules(extra_melds=True), or None "
                             "for the defaults, not {value}", None, value=excerpt(rules)))
    if not isinstance(contract, Contract):
        raise RulesError(msg("contract must be a Contract such as Contract(runs=1, sets=2), "
                             "not {value}", None, value=excerpt(contract)))
    if round_number is not None and (isinstance(round_number, bool) or not isinstance(
            round_number, int) or not 1 <= round_number <= ROUNDS):
        raise RulesError(msg("there is no round {round}: a game has rounds 1 to 11", "T7",
                             round=round_number))
    melds = as_melds(melds, rules)  # type: ignore[arg-type]  # (checked there)
    runs = [m for m in melds if m.is_run]
    sets = [m for m in melds if not m.is_run]
    where = f"round {round_number}'s contract" if round_number else "the contract"
    shown = melds_count(melds)
    if len(runs) < contract.runs or len(sets) < contract.sets:
        return Verdict(False, msg("{where} is {contract}, and this lay-down has only {shown}",
                                  "T15", where=where, contract=contract, shown=shown))
    if not rules.extra_melds and (len(runs) > contract.runs or len(sets) > contract.sets):
        return Verdict(False, msg(
            "{where} is {contract}; this lay-down has {shown}. Lay down exactly the "
            "contract's melds (a meld may be longer than the minimum)", "H7",
            where=where, contract=contract, shown=shown))
    if not rules.contiguous_runs:
        for a, b in combinations(runs, 2):
            if touching(a, b):
                return Verdict(False, msg(
                    "{a} and {b} touch end to end, so they are one run, not two; two runs "
                    "of one colour must overlap or leave a gap", "H8", a=str(a), b=str(b)))
    if not rules.same_number_sets:
        for a, b in combinations(sets, 2):
            if a.number == b.number:
                return Verdict(False, msg(
                    "{a} and {b} are both {n}s: together they are one set, not two", "H8",
                    a=str(a), b=str(b), n=a.number))
    return Verdict(True, msg("a lay-down of {contract}", "T15", contract=contract))
