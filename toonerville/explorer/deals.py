"""Fresh deals, no play: how often a hand just dealt already holds the contract.

Owns the one computation behind that figure wherever it appears — lesson 3's
**How often?**, notebook 08's fresh-deal table, `python -m toonerville simulate
--question deals` — so that the same question, asked with the same seed and number of
deals, gives the same figure everywhere:

- `dealt_hand(players, seed, round_number)`: the first player's hand of a seeded fresh
  deal, dealt as the game deals (T2 one deck per player, T7 one card at a time);
- `deal_seed(seed, k)`: the seed of deal `k` of a count seeded `seed` (the same deals in
  every round, so round 4's hands are round 1's, dealt again);
- `fresh_deal(...)`: a `FreshDeal`, the count as a share with its 95 % Wilson interval
  and, for a contract of sets only, the exact chance beside it (`exact`).

`deal_share` estimates the same chance for any pile of cards (a reduced shoe, say) by
drawing hands at random from it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.cards import Card, shuffled_shoe
from ..engine.messages import _
from ..engine.rules import Rules, contract_for
from .exact import exact_deal_share
from .facts import hand_meets
from .stats import Estimate, wilson


@dataclass(frozen=True, slots=True)
class Exact:
    """An exact chance (counted, not simulated), printed beside an estimate."""

    value: float

    def __str__(self) -> str:
        if 0 < self.value < 0.0005:  # not 0, though it would print as 0.0%
            return "<0.1%"
        return f"{100 * self.value:.1f}%"

    def to_dict(self) -> dict[str, Any]:
        return {"exact": self.value}


def exact_or_none(value: float | None) -> Exact | None:
    return None if value is None else Exact(value)


def deal_seed(seed: int, index: int) -> int:
    """The seed of deal `index` of a count seeded `seed`."""
    return random.Random(f"contracts:{seed}:{index}").randrange(2**31)


def dealt_hand(players: int, seed: int, round_number: int,
               rules: Rules | None = None) -> tuple[Card, ...]:
    """The hand the first player (the dealer's left) gets in a fresh deal of this round
    from the shoe shuffled with `seed`: every `players`-th card, as the deal goes round
    the table (T2, T7)."""
    rules = rules or Rules()
    size = rules.deal_size(round_number)
    cards = shuffled_shoe(players, random.Random(seed))
    return cards[:players * size:players]


@dataclass(frozen=True, slots=True)
class FreshDeal:
    """How many of `hands` seeded fresh deals of a round gave a hand that already holds
    the contract: `estimate` (a share with its 95 % Wilson interval) and, for a contract
    of sets only, `exact` (the chance counted exactly; None otherwise)."""

    round_number: int
    players: int
    hands: int
    seed: int
    estimate: Estimate
    exact: Exact | None

    @property
    def met(self) -> int:
        """How many of the hands held the contract."""
        return round(self.estimate.value * self.hands)

    @property
    def exact_in_interval(self) -> bool | None:
        """Does the interval hold the exact chance? (None when it is not counted.)"""
        if self.exact is None:
            return None
        return self.estimate.low <= self.exact.value <= self.estimate.high

    def __str__(self) -> str:
        counted = _("; counted exactly: {exact}").format(exact=self.exact) \
            if self.exact is not None else ""
        return _("Round {r} ({contract}), {n} players, seed {seed}: {met} of {hands} hands "
                 "held the contract, {estimate}").format(
            r=self.round_number, contract=contract_for(self.round_number), n=self.players,
            seed=self.seed, met=self.met, hands=self.hands, estimate=self.estimate) + counted


def fresh_deal(round_number: int, players: int = 4, rules: Rules | None = None,
               hands: int = 300, seed: int = 0,
               progress: Callable[[int, int], None] | None = None) -> FreshDeal:
    """Deal `hands` seeded fresh deals of the round (deal k uses `deal_seed(seed, k)`)
    and count the first player's hands that already hold the contract (the solver).
    `progress(done, hands)` is called after every deal."""
    if hands < 1:
        raise ValueError("count at least one deal")
    rules = rules or Rules()
    met = 0
    for k in range(hands):
        if hand_meets(dealt_hand(players, deal_seed(seed, k), round_number, rules),
                      round_number, rules):
            met += 1
        if progress is not None:
            progress(k + 1, hands)
    return FreshDeal(round_number, players, hands, seed, wilson(met, hands),
                     exact_or_none(exact_deal_share(players, round_number, rules)))


def deal_share(cards: Sequence[Card], hand_size: int, round_number: int, rules: Rules,
               hands: int, seed: int = 0) -> Estimate:
    """The share of `hands` random hands of `hand_size` cards from `cards` (any pile,
    also a reduced shoe) that already hold the round's contract."""
    rng = random.Random(f"toonerville:deal:{seed}:{round_number}:{hand_size}")
    hits = sum(hand_meets(rng.sample(list(cards), hand_size), round_number, rules)
               for _ in range(hands))
    return wilson(hits, hands)
