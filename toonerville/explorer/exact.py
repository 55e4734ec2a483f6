"""Chances that can be counted exactly, to print beside the simulated ones.

Owns `sets_hands` (how many hands of a shoe hold k sets of different numbers, counted
number by number) and `exact_deal_share` (the chance that a freshly dealt hand already
holds a sets-only contract: rounds 1, 4, 7 and 9), or None where the rules make the
count something this module does not do (a contract with runs; H8's two sets of one
number). H1's limits on Rooks per set are counted.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from functools import lru_cache
from math import comb

from ..engine.cards import Card, shoe
from ..engine.rules import Rules, contract_for


def _set_cost(copies: int, rules: Rules) -> int | None:
    """Rooks a set of a number held `copies` times needs (T5, T6), or None if H1 forbids
    making it: at least one natural always; at most `max_rooks_per_meld` Rooks; with
    `rooks_at_most_naturals`, no more Rooks than natural cards."""
    need = max(0, 3 - copies)
    if copies == 0:
        return None
    if rules.max_rooks_per_meld is not None and need > rules.max_rooks_per_meld:
        return None
    if rules.rooks_at_most_naturals and need > copies:
        return None
    return need


def sets_hands(copies: Sequence[int], rooks: int, hand: int, sets: int,
               rules: Rules | None = None) -> int:
    """How many `hand`-card hands of physical cards (numbers with `copies[i]` copies
    each, and `rooks` Rooks) hold `sets` sets of different numbers. Number by number,
    keep the `sets` cheapest sets (Rooks needed) possible so far; the Rooks held must
    cover the sum."""
    rules = rules or Rules()
    states: dict[tuple[int, tuple[int, ...]], int] = {(0, ()): 1}
    for m in copies:
        grown: defaultdict[tuple[int, tuple[int, ...]], int] = defaultdict(int)
        for (used, best), ways in states.items():
            for c in range(min(m, hand - used) + 1):
                cost = _set_cost(c, rules)
                b = best if cost is None else tuple(sorted((*best, cost)))[:sets]
                grown[(used + c, b)] += ways * comb(m, c)
        states = grown
    return sum(ways * comb(rooks, hand - used) for (used, best), ways in states.items()
               if 0 <= hand - used <= rooks and len(best) == sets and sum(best) <= hand - used)


def exact_share(cards: Sequence[Card], hand: int, round_number: int,
                rules: Rules | None = None) -> float | None:
    """The chance that `hand` cards drawn from `cards` hold the round's contract, when
    it is sets only; None otherwise."""
    rules = rules or Rules()
    contract = contract_for(round_number)
    if contract.runs or rules.same_number_sets or hand > len(cards):
        return None
    numbers = Counter(c.number for c in cards if not c.is_rook)
    count = sets_hands(list(numbers.values()), sum(c.is_rook for c in cards), hand,
                       contract.sets, rules)
    return count / comb(len(cards), hand)


@lru_cache(maxsize=256)
def exact_deal_share(players: int, round_number: int, rules: Rules | None = None
                     ) -> float | None:
    """The chance that a hand just dealt in this round (the game's shoe for `players`)
    already holds its contract, when that is sets only; None otherwise."""
    rules = rules or Rules()
    return exact_share(shoe(players), rules.deal_size(round_number), round_number, rules)
