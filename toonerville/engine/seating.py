"""Who sits at which table in each round of a tournament (T22, H11).

Tables of 3 to 5 players, as even as possible, by the three H11 switches of
`Rules.seating`:

- SPREAD (default): a seeded schedule that spreads opponents. Round by round, the
  players are seated by a local search that keeps pairs who have met often apart: a
  pair that has shared a table c times costs 4**c to seat together again, and swaps of
  two players between tables are made while they lower the cost. Over 11 rounds of
  12-30 players no pair meets more than ceil(mean) + 1 times, where mean is the number
  of pair meetings divided by the number of pairs (tests/test_tournament.py checks it).
- STAY: the first round's tables all game.
- STANDING: from round 2, by the standing so far, the leaders (lowest totals) together.

Pure values in, values out: nothing here knows a game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import combinations

from .errors import RulesError
from .messages import msg
from .rules import ROUNDS, Seating

Seating_ = tuple[tuple[str, ...], ...]  # one round: the tables, each a tuple of names

#: the cost of seating a pair together again after c meetings is REPEAT_WEIGHT ** c
REPEAT_WEIGHT = 4
#: improvement passes per round of the SPREAD schedule (each tries every swap once)
PASSES = 6


def table_sizes(players: int) -> tuple[int, ...]:
    """Tables of 3 to 5, as few and as even as possible, largest first (T22, H11)."""
    if not isinstance(players, int) or players < 3:
        raise RulesError(msg("a tournament needs at least 3 players, not {n}", "T22",
                             n=players))
    tables = -(-players // 5)
    return tuple(players // tables + (1 if i < players % tables else 0)
                 for i in range(tables))


def _chunk(order: Sequence[str], sizes: Sequence[int]) -> Seating_:
    out, start = [], 0
    for size in sizes:
        out.append(tuple(order[start:start + size]))
        start += size
    return tuple(out)


@lru_cache(maxsize=64)
def _spread(names: tuple[str, ...], rounds: int, seed: int) -> tuple[Seating_, ...]:
    n = len(names)
    sizes = table_sizes(n)
    rng = random.Random(f"toonerville-seating:{seed}")
    met = [[0] * n for _ in range(n)]
    schedule: list[Seating_] = []
    for _ in range(rounds):
        order = list(range(n))
        rng.shuffle(order)
        tables = [order[a:a + s] for a, s in
                  zip([sum(sizes[:i]) for i in range(len(sizes))], sizes, strict=True)]
        _improve(tables, met, rng)
        for table in tables:
            for p, q in combinations(table, 2):
                met[p][q] += 1
                met[q][p] += 1
        schedule.append(tuple(tuple(names[p] for p in sorted(t)) for t in tables))
    return tuple(schedule)


def _improve(tables: list[list[int]], met: list[list[int]], rng: random.Random) -> None:
    """Swap players between tables while a swap lowers the cost of repeated meetings."""
    weight = [REPEAT_WEIGHT ** c for c in range(ROUNDS + 2)]

    def cost(p: int, table: list[int], skip: int) -> int:
        row = met[p]
        return sum(weight[row[q]] for q in table if q != p and q != skip)

    pairs = [(a, b) for a in range(len(tables)) for b in range(a + 1, len(tables))]
    for _ in range(PASSES):
        improved = False
        rng.shuffle(pairs)
        for a, b in pairs:
            ta, tb = tables[a], tables[b]
            for i in range(len(ta)):
                for j in range(len(tb)):
                    p, q = ta[i], tb[j]
                    before = cost(p, ta, -1) + cost(q, tb, -1)
                    after = cost(q, ta, p) + cost(p, tb, q)
                    if after < before:
                        ta[i], tb[j] = q, p
                        improved = True
        if not improved:
            return


def spread_schedule(names: Sequence[str], rounds: int, seed: int) -> tuple[Seating_, ...]:
    """H11 default: the seating of rounds 1..`rounds`, spreading opponents (seeded)."""
    names = tuple(names)
    table_sizes(len(names))
    if len(set(names)) != len(names):
        raise RulesError(msg("every player in a tournament needs a different name", "T22"))
    return _spread(names, rounds, seed)


def seat_round(names: Sequence[str], round_number: int, seed: int,
               seating: Seating = Seating.SPREAD,
               totals: Mapping[str, int] | None = None) -> Seating_:
    """Who sits at which table in `round_number` (H11); STANDING needs the totals so far
    (the leaders, lowest totals, at table 1; equal totals in a seeded order)."""
    if not isinstance(round_number, int) or not 1 <= round_number <= ROUNDS:
        raise RulesError(msg("there is no round {r}: rounds go from 1 to 11", "T7",
                             r=round_number))
    seating = Seating(seating)
    if seating is Seating.STAY or round_number == 1:
        return spread_schedule(names, 1, seed)[0]
    if seating is Seating.SPREAD:
        return spread_schedule(names, round_number, seed)[round_number - 1]
    table_sizes(len(names))
    order = list(names)
    random.Random(f"toonerville-standing:{seed}:{round_number}").shuffle(order)
    scores = totals or {}
    order.sort(key=lambda name: scores.get(name, 0))
    return _chunk(order, table_sizes(len(order)))


def meetings(schedule: Sequence[Seating_]) -> dict[frozenset[str], int]:
    """How often each pair of players shared a table (pairs that never met: absent)."""
    out: dict[frozenset[str], int] = {}
    for seating in schedule:
        for table in seating:
            for pair in combinations(table, 2):
                key = frozenset(pair)
                out[key] = out.get(key, 0) + 1
    return out


def seat_tables(names: Sequence[str], round_number: int, seed: int) -> Seating_:
    """T22, H11: who sits at which table in a round, by the default seating (the seeded
    schedule that spreads opponents), at tables of 3 to 5 as even as possible."""
    return seat_round(names, round_number, seed)
