"""Can this hand meet this round's contract, and how should it be laid down?

Owns the searches over one player's hand: `find_contract` (the smallest melds that make
a round's contract, T7), `best_lay_down` (the lay-down that leaves the fewest points in
hand, T3, T15, H7), `whole_hand` (the entire hand as the contract's melds, T17) and
`shortfall` (what is still missing, as a `Message`). Every answer passes `check_meld` and
`check_lay_down` under the same `Rules` (H1, H7, H8) and uses only cards of the hand.
Whose turn it is, and whether the player may lay down now, is the game's business.

Inside, a hand is counts, not cards: `cnt[colour * 16 + number]` for the natural cards
(numbers 0 and 15 of each colour stay empty, guards for runs; cell 64 counts the Rooks)
and, per colour, bitmasks of the numbers held once, twice, ... `Meld` objects are built
only for the answer.

- `find_contract` looks for 4-card runs and 3-card sets (`_minimal`). With runs only,
  colours share nothing but the Rooks: the cheapest j runs of each colour (cached per
  colour pattern) are combined. With sets, the runs are tried cheapest first and the
  sets are then the numbers with the most natural cards left.
- `whole_hand` and `best_lay_down` walk the numbers 1 to 14 deciding sets and where runs
  start (`_Partition`), with bounds: the Rooks the sets will need, the colours that can
  still hold a run, the points that must stay in hand.
- Which natural card goes to which meld is settled, when H1 needs it, by `_allocate`: a
  small flow with lower bounds, so that each meld gets the naturals H1 asks of it
  whenever any arrangement of the same cards does.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, combinations, compress
from typing import cast

from .cards import COLOURS, HIGHEST, LOWEST, NATURALS, ROOK, Card, Colour, parse_cards
from .melds import Meld, MeldKind
from .messages import Message, msg
from .rules import Contract, Rules

__all__ = ["LayDown", "best_lay_down", "find_contract", "shortfall", "whole_hand"]

_DEFAULT_RULES = Rules()
_NONE = 10 ** 9  # "no limit" for counts of melds and Rooks

# -- cells: colour * 16 + number ---------------------------------------------------------
_CELL_CARD: list[Card] = [ROOK] * 64
_CELL_POINTS: list[int] = [0] * 64
_TOKEN_CELL: dict[str, int] = {"RK": 64}
_ID_CELL: dict[int, int] = {id(ROOK): 64}
_COLOUR_BASE: dict[Colour, int] = {}
for _ci, _colour in enumerate(COLOURS):
    _COLOUR_BASE[_colour] = _ci * 16
    for _n in range(LOWEST, HIGHEST + 1):
        _card = NATURALS[_ci * 14 + _n - 1]
        _CELL_CARD[_ci * 16 + _n] = _card
        _CELL_POINTS[_ci * 16 + _n] = _card.points
        _TOKEN_CELL[str(_card)] = _ci * 16 + _n
        _ID_CELL[id(_card)] = _ci * 16 + _n
_NUMBER_POINTS = [0] + [5 if n <= 9 else 10 for n in range(1, 15)] + [0]
_NUMBER_CELLS = [(n, 16 + n, 32 + n, 48 + n) for n in range(16)]


_SLOTS = 7  # layers kept per colour: a 5-deck shoe has at most 5 copies of a card
_SLOT = [(cell >> 4) * _SLOTS for cell in range(64)] + [4 * _SLOTS]  # the Rook: cell 64
_BIT = [1 << (cell & 15) for cell in range(64)] + [0]


def _tally(hand: str | Iterable[str | Card]) -> tuple[list[int], list[list[int]], int, int]:
    """Counts of natural cards per cell (and of Rooks, as cell 64); for each colour its
    layers (bitmasks of the numbers held at least once, at least twice, ..., ending in
    0); the number of Rooks; the hand's size."""
    items: list[str | Card]
    if isinstance(hand, str):
        tokens = hand.replace(",", " ").split()
        found = [_TOKEN_CELL.get(t) for t in tokens]
        items = list(tokens)
    else:
        items = list(hand)
        found = list(map(_ID_CELL.get, map(id, items)))
    cells = cast(list[int], found) if None not in found else [
        _cell_of(item) if cell is None else cell
        for item, cell in zip(items, found, strict=True)]
    cnt = [0] * 65
    flat = [0] * (5 * _SLOTS + len(cells))
    slot, bits = _SLOT, _BIT
    for cell in cells:
        k = cnt[cell]
        cnt[cell] = k + 1
        flat[slot[cell] + k] |= bits[cell]
    if max(cnt[:64]) >= _SLOTS:  # more copies than any shoe holds: count them the long way
        width = max(cnt[:64]) + 1
        layers = [[0] * width for _ in range(4)]
        for cell in range(64):
            for k in range(cnt[cell]):
                layers[cell >> 4][k] |= _BIT[cell]
        return cnt, layers, cnt[64], len(cells)
    layers = [flat[0:7], flat[7:14], flat[14:21], flat[21:28]]
    return cnt, layers, cnt[64], len(cells)


def _cell_of(item: str | Card) -> int:
    """The cell of a card given as a `Card` not from the deck tables, or as notation in
    any case; notation that is not a card raises `NotationError` with the reason."""
    card = item if isinstance(item, Card) else parse_cards(item)[0]
    return 64 if card.colour is None else _COLOUR_BASE[card.colour] + card.number


class _Book:
    """The H1/H7/H8 switches of a `Rules`, as the numbers the searches use."""

    __slots__ = ("max_rooks", "ratio", "run_need", "set_need", "needs", "contiguous",
                 "same_sets", "extras")

    def __init__(self, rules: Rules) -> None:
        self.max_rooks = _NONE if rules.max_rooks_per_meld is None else rules.max_rooks_per_meld
        self.ratio = rules.rooks_at_most_naturals
        self.run_need = self.need(4)
        self.set_need = self.need(3)
        self.needs = [self.need(size) for size in range(HIGHEST + 1)]  # by meld size
        self.contiguous = rules.contiguous_runs
        self.same_sets = rules.same_number_sets
        self.extras = rules.extra_melds

    def need(self, size: int) -> int:
        """Fewest natural cards a meld of `size` cards may hold (H1)."""
        least = max(1, size - self.max_rooks)
        return max(least, (size + 1) // 2) if self.ratio else least

    def room(self, naturals: int) -> int:
        """Most Rooks a meld with this many natural cards may hold (H1)."""
        if naturals < 1:
            return 0
        return min(self.max_rooks, naturals) if self.ratio else self.max_rooks

    def set_rooks(self, sets: int, naturals: int) -> tuple[int, int]:
        """Fewest and most Rooks `sets` sets of one number with `naturals` natural cards
        can hold; (1, 0) when they cannot be made at all."""
        if naturals < sets * self.set_need:
            return 1, 0
        most = sets * self.max_rooks
        if self.ratio:
            most = min(most, naturals)
        return max(0, 3 * sets - naturals), most


_BOOKS: dict[int, tuple[Rules, _Book]] = {}
_DEFAULT_BOOK = _Book(_DEFAULT_RULES)


def _book(rules: Rules | None) -> _Book:
    if rules is None or rules is _DEFAULT_RULES:
        return _DEFAULT_BOOK
    entry = _BOOKS.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_BOOKS) > 64:
            _BOOKS.clear()
        entry = _BOOKS[id(rules)] = (rules, _Book(rules))
    return entry[1]


# -- which natural card goes to which meld -------------------------------------------------
_Demand = tuple[tuple[int, ...], int, int, int]  # cells, copies per cell, need, most


def _allocate(demands: list[_Demand], pool: list[int]) -> list[dict[int, int]] | None:
    """Share the natural cards of `pool` (counts per cell) among melds: meld i takes up to
    `copies per cell` of each of its cells, `most` in all, and needs at least `need` (H1).
    Returns what each meld takes, as many cards as possible in all, or None when some
    meld cannot get its `need` however the cards are shared."""
    avail = pool[:]
    use = [dict.fromkeys(d[0], 0) for d in demands]

    def augment(i: int, seen: set[int]) -> bool:
        cells, per_cell = demands[i][0], demands[i][1]
        mine = use[i]
        for cell in cells:
            if mine[cell] < per_cell and avail[cell] > 0:
                avail[cell] -= 1
                mine[cell] += 1
                return True
        for cell in cells:
            if mine[cell] >= per_cell or cell in seen:
                continue
            seen.add(cell)
            for j, other in enumerate(use):
                if j != i and other.get(cell, 0) > 0:
                    other[cell] -= 1
                    if augment(j, seen):
                        mine[cell] += 1
                        return True
                    other[cell] += 1
        return False

    for i, (_, _, need, _) in enumerate(demands):
        for _ in range(need):
            if not augment(i, set()):
                return None
    for i, (_, _, need, most) in enumerate(demands):
        for _ in range(most - need):
            if not augment(i, set()):
                break
    return use


# -- building the answer -------------------------------------------------------------------
_RUN, _SET = MeldKind.RUN, MeldKind.SET
_CELL_COLOUR: list[Colour | None] = [COLOURS[c >> 4] for c in range(64)] + [None]


def _run_meld(colour_base: int, low: int, high: int, naturals: Iterable[int]) -> Meld:
    held = set(naturals)
    cards = tuple([_CELL_CARD[cell] if cell in held else ROOK
                   for cell in range(colour_base + low, colour_base + high + 1)])
    return Meld(_RUN, cards, _CELL_COLOUR[colour_base], low)


def _set_meld(number: int, naturals: list[int], rooks: int) -> Meld:
    """A set: its natural cards (cells, in colour order) then its Rooks."""
    return Meld(_SET, tuple([_CELL_CARD[c] for c in naturals]) + (ROOK,) * rooks, None, number)


def _cells_of(counts: dict[int, int]) -> list[int]:
    return [cell for cell, n in sorted(counts.items()) for _ in range(n)]


# == find_contract: the smallest melds ====================================================
@lru_cache(maxsize=1 << 14)
def _windows(mask: int) -> tuple[tuple[int, int], ...]:
    """(Rooks needed, lowest number) of each 4-number window of one colour holding a card,
    cheapest first, for the bitmask of the numbers the colour holds."""
    out = []
    for low in range(LOWEST, HIGHEST - 2):
        present = bin((mask >> low) & 15).count("1")
        if present:
            out.append((4 - present, low))
    return tuple(sorted(out))


@lru_cache(maxsize=1 << 16)
def _windows_at(mask: int, base: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """`_windows` of a colour as (Rooks needed, cell of the lowest number), for each most
    Rooks allowed 0..4: `_windows_at(mask, base)[2]` are the windows needing at most 2."""
    wins = [(cost, base + low) for cost, low in _windows(mask)]
    return tuple(tuple(w for w in wins if w[0] <= most) for most in range(5))


# A plan: runs as (cell of the lowest number, natural cells taken), sets as (number,
# natural cells taken, counts per cell).
_Plan = tuple[list[tuple[int, dict[int, int]]], list[tuple[int, dict[int, int]]]]


def _sets_cost(tot: list[int], numbers: Iterable[int]) -> int:
    """Rooks that minimal sets of these numbers (a number once per set) need when `tot`
    natural cards of each number are free."""
    cost, seen = 0, [0] * 16
    for n in numbers:
        cost += 3 - min(3, max(0, tot[n] - 3 * seen[n]))
        seen[n] += 1
    return cost


def _cheapest_sets(tot: list[int], sets: int, numbers: list[int], book: _Book
                   ) -> tuple[list[int], int] | None:
    """The numbers of `sets` 3-card sets needing the fewest Rooks when `tot` natural cards
    of each number are free, and that many Rooks. `numbers` lists each number that can
    have a set once, or (when H8 allows two sets of a number) once per set it can have."""
    if len(numbers) < sets:
        return None
    if not book.same_sets:
        if sets == 1:
            best = max(numbers, key=tot.__getitem__)
            return [best], 3 - min(3, tot[best])
        chosen = sorted(numbers, key=tot.__getitem__, reverse=True)[:sets]
        return chosen, sum(3 - min(3, tot[n]) for n in chosen)
    options, j, prev = [], 0, -1
    for n in numbers:
        j = j + 1 if n == prev else 0
        prev = n
        options.append((3 - min(3, max(0, tot[n] - 3 * j)), j, n))
    options.sort()
    return [n for _, _, n in options[:sets]], sum(cost for cost, _, _ in options[:sets])


def _check_minimal(runs: list[int], sets: list[int], cnt: list[int], rooks: int,
                   book: _Book) -> _Plan | None:
    """Can these 4-card runs (cell of their lowest number) and 3-card sets be made from
    the hand with its Rooks, H1 included, sharing the naturals out any way needed?"""
    demands: list[_Demand] = [((b, b + 1, b + 2, b + 3), 1, book.run_need, 4) for b in runs]
    demands += [(_NUMBER_CELLS[n], 3, book.set_need, 3) for n in sets]
    use = _allocate(demands, cnt)
    if use is None:
        return None
    if 4 * len(runs) + 3 * len(sets) - sum(sum(u.values()) for u in use) > rooks:
        return None
    return ([(b, use[i]) for i, b in enumerate(runs)],
            [(n, use[len(runs) + i]) for i, n in enumerate(sets)])


def _sets_from(numbers: list[int], cnt: list[int]) -> list[tuple[int, dict[int, int]]]:
    """Minimal sets of these numbers (a number as often as it has sets) from the natural
    cards in `cnt`, shared out in turn so that each set of a number gets its part."""
    out: list[tuple[int, dict[int, int]]] = []
    if len(set(numbers)) == len(numbers):  # a set per number
        for n in numbers:
            take: dict[int, int] = {}
            room = 3
            for cell in _NUMBER_CELLS[n]:
                k = cnt[cell]
                if k:
                    k = k if k < room else room
                    take[cell] = k
                    room -= k
                    if not room:
                        break
            out.append((n, take))
        return out
    for n in sorted(set(numbers)):
        j = numbers.count(n)
        room = 3 * j
        takes: list[dict[int, int]] = [{} for _ in range(j)]
        i = 0
        for cell in _NUMBER_CELLS[n]:
            for _ in range(min(cnt[cell], room)):
                share = takes[i % j]
                share[cell] = share.get(cell, 0) + 1
                i += 1
                room -= 1
        out += [(n, share) for share in takes]
    return out


def _minimal(cnt: list[int], layers: list[list[int]], rooks: int, size: int,
             runs_wanted: int, sets_wanted: int, book: _Book) -> _Plan | None:
    """The search behind `find_contract`, on counts only. Without sets: colour by colour
    (`_colour_best`). With sets: 4-card runs first, cheapest first, then the cheapest
    3-card sets from what the runs leave (`_runs_and_sets`)."""
    if size < 4 * runs_wanted + 3 * sets_wanted:
        return None
    if not runs_wanted and not sets_wanted:
        return [], []
    if not sets_wanted:
        return _runs_only(layers, rooks, size - 4 * runs_wanted, runs_wanted, book)
    tot = list(map(sum, zip(cnt[0:16], cnt[16:32], cnt[32:48], cnt[48:64], strict=True)))
    need = book.set_need
    if book.same_sets:
        numbers = [n for n in range(LOWEST, HIGHEST + 1)
                   for _ in range(min(sets_wanted, tot[n] // need))]
    else:
        numbers = list(compress(range(16), map(need.__le__, tot)))
    first = _cheapest_sets(tot, sets_wanted, numbers, book)
    if first is None or first[1] > rooks:
        return None
    if not runs_wanted:
        return [], _sets_from(first[0], cnt)
    dearest = min(rooks - first[1], 4 - book.run_need)  # the most Rooks a window may need
    wins = sorted(chain.from_iterable(
        _windows_at(mine[0], base)[dearest] for base, mine in zip((0, 16, 32, 48), layers,
                                                                  strict=True)))
    return _runs_and_sets(cnt, tot, rooks, wins, runs_wanted, sets_wanted, numbers, book)


def _take(cnt: list[int], base: int) -> int:
    """Take the natural cards of the run starting at cell `base`; the bitmask of the
    four places that got one."""
    got = 0
    for i in range(4):
        if cnt[base + i]:
            cnt[base + i] -= 1
            got |= 1 << i
    return got


def _give_back(cnt: list[int], base: int, got: int) -> None:
    for i in range(4):
        if got >> i & 1:
            cnt[base + i] += 1


def _run_plan(base: int, got: int) -> tuple[int, dict[int, int]]:
    return base, {base + i: 1 for i in range(4) if got >> i & 1}


_Runs = tuple[tuple[int, int], ...]  # (cell of the lowest number, bitmask of naturals)


def _runs_only(layers: list[list[int]], rooks: int, slack: int, runs_wanted: int,
               book: _Book) -> _Plan | None:
    """Runs only. Colours share nothing but the Rooks: the cheapest way to make j runs in
    each colour, then the cheapest mix of colours (`_cheapest_runs`). For two runs: two
    colours' cheapest windows, else two runs in one colour (`_colour_pair`)."""
    colours = [tuple(m[:m.index(0)]) for m in layers]
    if runs_wanted != 2:
        found = _cheapest_runs(colours, rooks, slack, runs_wanted, book)
        return None if found is None else (_runs_plan(found[1]), [])
    most = 4 - book.run_need
    firsts = sorted((_windows(mine[0])[0], ci) for ci, mine in enumerate(colours) if mine)
    if len(firsts) >= 2 and firsts[0][0][0] <= most and firsts[1][0][0] <= most and \
            firsts[0][0][0] + firsts[1][0][0] <= rooks:
        return [(ci * 16 + low, {ci * 16 + low + i: 1 for i in range(4)
                                 if colours[ci][0] >> (low + i) & 1})
                for (_, low), ci in firsts[:2]], []
    # two colours' best windows are too dear: two runs of one colour, or none
    for (cost, _), ci in firsts:
        if 2 * cost > rooks:
            break
        pair = _colour_pair(colours[ci], rooks, book)
        if pair is not None:
            return _runs_plan(tuple((ci * 16 + low, got) for low, got in pair)), []
    return None


def _runs_plan(runs: _Runs) -> list[tuple[int, dict[int, int]]]:
    return [(base, {base + i: 1 for i in range(4) if got >> i & 1}) for base, got in runs]


@lru_cache(maxsize=1 << 14)
def _colour_pair(layers: tuple[int, ...], rooks: int, book: _Book) -> _Runs | None:
    """Two runs of one colour needing at most `rooks` Rooks, cheapest windows first (the
    second costs at least what the first does), or None."""
    wins = [(cost, low) for cost, low in _windows(layers[0]) if 4 - cost >= book.run_need]
    once, twice = layers[0], layers[1] if len(layers) > 1 else 0
    for i, (cost, low) in enumerate(wins):
        if 2 * cost > rooks:
            break
        window = 15 << low
        rest = (once & ~window) | (twice & window)
        for cost2, low2 in wins[i:]:
            if cost + cost2 > rooks:
                break
            if not book.contiguous and abs(low - low2) == 4:
                continue
            got2 = rest & 15 << low2
            if cost + 4 - got2.bit_count() > rooks:
                continue
            runs = ((low, (once & window) >> low), (low2, got2 >> low2))
            if got2.bit_count() >= book.run_need:
                return runs
            found = _colour_check(layers, [low, low2], rooks, book)
            if found is not None:
                return found
    return None


def _cheapest_runs(colours: list[tuple[int, ...]], rooks: int, slack: int, runs_wanted: int,
                   book: _Book) -> tuple[int, _Runs] | None:
    """The fewest Rooks (at most `rooks`) that `runs_wanted` 4-card runs need, and the
    runs: the cheapest way to make j runs in each colour (`_colour_best`), then the
    cheapest mix. With at most `slack` natural cards unused, a colour with n of them needs
    at least (n - slack) / 4 runs, which bounds how many runs the others may have."""
    naturals = [sum(m.bit_count() for m in mine) for mine in colours]
    least = [max(0, -(-(n - slack) // 4)) for n in naturals]
    spare_runs = runs_wanted - sum(least)
    if spare_runs < 0:
        return None
    # Rooks each colour needs at least for its least runs; cards it must leave unused
    floor = [j and j * _windows(mine[0])[0][0] for j, mine in zip(least, colours, strict=True)]
    unused = [max(0, n - 4 * (j + spare_runs)) for n, j in zip(naturals, least, strict=True)]
    if sum(floor) > rooks or sum(unused) > slack:
        return None
    best: list[tuple[int, _Runs] | None] = [(0, ())] + [None] * runs_wanted
    for ci, mine in enumerate(colours):
        most = spare_runs + least[ci]
        if not mine or not most:
            continue
        options = _colour_best(mine, most, rooks - sum(floor) + floor[ci],
                               slack - sum(unused) + unused[ci], book)
        merged: list[tuple[int, _Runs] | None] = [None] * (runs_wanted + 1)
        for have, sofar in enumerate(best):
            if sofar is None:
                continue
            for more in range(least[ci], most + 1):
                option = options[more] if more else (0, ())
                if option is None or have + more > runs_wanted:
                    continue
                cost = sofar[0] + option[0]
                now = merged[have + more]
                if cost <= rooks and (now is None or cost < now[0]):
                    merged[have + more] = (cost, sofar[1] + tuple(
                        (ci * 16 + low, got) for low, got in option[1]))
        best = merged
    return best[runs_wanted]


_ColourBest = tuple[tuple[int, tuple[tuple[int, int], ...]] | None, ...]


@lru_cache(maxsize=1 << 15)
def _colour_best(layers: tuple[int, ...], most: int, rooks: int, slack: int,
                 book: _Book) -> _ColourBest:
    """For j = 0..most: the fewest Rooks (at most `rooks`) that j runs of one colour need,
    with the runs (lowest number, bitmask of the four places holding a natural), or None.
    `layers` are the colour's numbers held at least once, twice, ... Windows are tried
    lowest first, giving up once more than `slack` natural cards lie unused below."""
    run_need, touching_ok = book.run_need, book.contiguous
    starts = sorted(low for cost, low in _windows(layers[0])
                    if 4 - cost >= run_need and cost <= rooks)
    best: list[tuple[int, tuple[tuple[int, int], ...]] | None] = [None] * (most + 1)
    best[0] = (0, ())
    chosen: list[tuple[int, int]] = []
    n_starts = len(starts)

    def dfs(first: int, lay: tuple[int, ...], left_over: int, spent: int, sound: bool,
            banned: int) -> None:
        # left_over: natural cards in `lay`; the highest start that leaves at most `slack`
        # of them unused below it
        left, m, limit = slack, lay[0], HIGHEST
        while m:
            bit = m & -m
            copies = 0
            for layer in lay:
                if not layer & bit:
                    break
                copies += 1
            if copies > left:
                limit = bit.bit_length() - 1
                break
            left -= copies
            m ^= bit
        depth = len(chosen) + 1
        for w in range(first, n_starts):
            low = starts[w]
            if low > limit:
                break
            if banned >> low & 1:
                continue
            window = 15 << low
            got = lay[0] & window
            present = got.bit_count()
            cost = 4 - present
            if spent + cost > rooks:
                continue
            rest_over = left_over - present
            ok = sound and present >= run_need
            chosen.append((low, got >> low))
            now = best[depth]
            if rest_over <= slack and (now is None or spent + cost < now[0]):
                if ok:
                    best[depth] = (spent + cost, tuple(chosen))
                else:  # H1: can the naturals be shared out another way?
                    found = _colour_check(layers, [t for t, _ in chosen], rooks, book)
                    if found is not None:
                        best[depth] = (spent + cost, found)
            if depth < most and rest_over - 4 * (most - depth) <= slack:
                if len(lay) == 1:
                    rest: tuple[int, ...] = (lay[0] & ~window,)
                else:
                    keep = ~window
                    more = [(m & keep) | (n & window)
                            for m, n in zip(lay, lay[1:], strict=False)]
                    if lay[-1] & keep:
                        more.append(lay[-1] & keep)
                    rest = tuple(more)
                dfs(w, rest, rest_over, spent + cost, ok,
                    banned if touching_ok else banned | 1 << (low + 4) | 1 << low >> 4)
            chosen.pop()

    total = sum(m.bit_count() for m in layers)
    if total > slack:
        best[0] = None  # these cards cannot all stay unused
    if starts and total - 4 * most <= slack:
        dfs(0, layers, total, 0, True, 0)
    return tuple(best)


def _colour_check(layers: tuple[int, ...], lows: list[int], rooks: int,
                  book: _Book) -> tuple[tuple[int, int], ...] | None:
    """`_check_minimal` for runs of one colour (as colour 0), as `_colour_best` wants it."""
    cnt = [0] * 64
    for m in layers:
        for n in range(LOWEST, HIGHEST + 1):
            cnt[n] += m >> n & 1
    plan = _check_minimal(lows, [], cnt, rooks, book)
    if plan is None:
        return None
    return tuple((b, sum(1 << (c - b) for c, k in use.items() if k)) for b, use in plan[0])


def _runs_and_sets(cnt: list[int], tot: list[int], rooks: int, wins: list[tuple[int, int]],
                   runs_wanted: int, sets_wanted: int, numbers: list[int],
                   book: _Book) -> _Plan | None:
    """Runs and sets: runs cheapest windows first (one or two nested loops, else a
    search), each cut off by the Rooks the sets will need at least; then the cheapest
    sets from what the runs leave. A last run that takes nothing from the numbers of the
    sets chosen so far leaves their cost as it was, which settles it at once."""
    if book.same_sets or runs_wanted > 2:
        return _runs_and_sets_search(cnt, tot, rooks, wins, runs_wanted, sets_wanted, numbers,
                                     book)
    cnt0 = cnt[:]
    run_need, touching_ok, n_wins = book.run_need, book.contiguous, len(wins)
    reach = sets_wanted + 4  # a run changes at most 4 numbers: the best sets are among these

    def settle(chosen: list[tuple[int, int]], spare: int,
               pick: tuple[list[int], int] | None) -> _Plan | None:
        """The last run is chosen (its natural cards taken out of `tot`): the sets (`pick`
        when known to be the cheapest)."""
        if pick is None:
            pick = _cheapest_sets(tot, sets_wanted, numbers, book)
        if pick is None or pick[1] > spare:
            return None
        if all(got.bit_count() >= run_need for _, got in chosen) and \
                all(tot[n] >= book.set_need for n in pick[0]):
            return [_run_plan(b, got) for b, got in chosen], _sets_from(pick[0], cnt)
        bases = [b for b, _ in chosen]
        plan = _check_minimal(bases, pick[0], cnt0, rooks, book)
        if plan is not None:
            return plan
        # H1 wants the naturals shared another way: try every other choice of sets
        for combo in sorted(set(combinations(numbers, sets_wanted))):
            if _sets_cost(tot, combo) <= spare:
                plan = _check_minimal(bases, list(combo), cnt0, rooks, book)
                if plan is not None:
                    return plan
        return None

    def last_run(first: int, chosen: list[tuple[int, int]], spent: int) -> _Plan | None:
        ranking = sorted(numbers, key=tot.__getitem__, reverse=True)[:reach]
        values = [min(3, tot[n]) for n in ranking]
        floor = 3 * sets_wanted - sum(values[:sets_wanted])
        spare = rooks - spent - floor
        top = ranking[:sets_wanted]
        untouched = (top, floor)  # the sets when the run takes none of their cards
        top_mask = 0
        for n in top:
            top_mask |= 1 << n
        banned = 0
        if not touching_ok:
            for b, _ in chosen:
                banned |= 1 << (b + 4) | 1 << b >> 4
        for w in range(first, n_wins):
            cost0, base = wins[w]
            if cost0 > spare:
                break
            if banned >> base & 1:
                continue
            a, b, c, d = cnt[base], cnt[base + 1], cnt[base + 2], cnt[base + 3]
            got = (a > 0) | (b > 0) << 1 | (c > 0) << 2 | (d > 0) << 3
            cost = 4 - got.bit_count()
            if cost > spare:
                continue
            low = base & 15
            taken = got << low
            if taken & top_mask:
                new = [v - (taken >> n & 1) if tot[n] <= 3 else v
                       for n, v in zip(ranking, values, strict=True)]
                if sets_wanted == 1:
                    kept = max(new)
                else:
                    new.sort(reverse=True)
                    kept = sum(new[:sets_wanted])
                if 3 * sets_wanted - kept > rooks - spent - cost:
                    continue
                pick = None
            else:
                pick = untouched
            for i in range(4):
                if got >> i & 1:
                    cnt[base + i] -= 1
                    tot[low + i] -= 1
            found = settle(chosen + [(base, got)], rooks - spent - cost, pick)
            for i in range(4):
                if got >> i & 1:
                    cnt[base + i] += 1
                    tot[low + i] += 1
            if found is not None:
                return found
        return None

    if runs_wanted == 1:
        return last_run(0, [], 0)
    ranking0 = sorted(numbers, key=tot.__getitem__, reverse=True)[:sets_wanted]
    floor0 = sum(3 - min(3, tot[n]) for n in ranking0)
    for w in range(n_wins):
        cost, base = wins[w]
        if 2 * cost + floor0 > rooks:  # the second run costs at least as much
            break
        low = base & 15
        got = 0
        for i in range(4):
            if cnt[base + i]:
                got |= 1 << i
                cnt[base + i] -= 1
                tot[low + i] -= 1
        found = last_run(w, [(base, got)], cost)
        for i in range(4):
            if got >> i & 1:
                cnt[base + i] += 1
                tot[low + i] += 1
        if found is not None:
            return found
    return None


def _runs_and_sets_search(cnt: list[int], tot: list[int], rooks: int,
                          wins: list[tuple[int, int]], runs_wanted: int, sets_wanted: int,
                          numbers: list[int], book: _Book) -> _Plan | None:
    """`_runs_and_sets` in general (more than two runs, or two sets of one number): a
    search, cheapest windows first, cut off by the Rooks the sets will need at least."""
    cnt0 = cnt[:]
    chosen: list[tuple[int, int]] = []
    run_need, set_need, touching_ok = book.run_need, book.set_need, book.contiguous

    def leaf(spare: int) -> _Plan | None:
        pick = _cheapest_sets(tot, sets_wanted, numbers, book)
        if pick is None or pick[1] > spare:
            return None
        if all(got.bit_count() >= run_need for _, got in chosen) and \
                all(tot[n] >= set_need * pick[0].count(n) for n in pick[0]):
            return [_run_plan(b, got) for b, got in chosen], _sets_from(pick[0], cnt)
        bases = [b for b, _ in chosen]
        plan = _check_minimal(bases, pick[0], cnt0, rooks, book)
        if plan is not None:
            return plan
        for combo in sorted(set(combinations(numbers, sets_wanted))):
            if _sets_cost(tot, combo) <= spare:
                plan = _check_minimal(bases, list(combo), cnt0, rooks, book)
                if plan is not None:
                    return plan
        return None

    def dfs(first: int, spent: int) -> _Plan | None:
        depth = len(chosen)
        if depth:
            pick = _cheapest_sets(tot, sets_wanted, numbers, book)
            if pick is None:
                return None
            spare = rooks - spent - pick[1]
        else:
            spare = rooks - spent
        for w in range(first, len(wins)):
            cost0, base = wins[w]
            if cost0 > spare:
                break
            if not touching_ok and any(abs(base - b) == 4 for b, _ in chosen):
                continue
            a, b, c, d = cnt[base], cnt[base + 1], cnt[base + 2], cnt[base + 3]
            cost = (not a) + (not b) + (not c) + (not d)
            if cost > spare:
                continue
            got = _take(cnt, base)
            n = base & 15
            for i in range(4):
                if got >> i & 1:
                    tot[n + i] -= 1
            chosen.append((base, got))
            found = leaf(rooks - spent - cost) if depth + 1 == runs_wanted else \
                dfs(w, spent + cost)
            chosen.pop()
            _give_back(cnt, base, got)
            for i in range(4):
                if got >> i & 1:
                    tot[n + i] += 1
            if found is not None:
                return found
        return None

    return dfs(0, 0)


def _plan_melds(plan: _Plan) -> tuple[Meld, ...]:
    runs, sets = plan
    card_at = _CELL_CARD
    melds = [Meld(_RUN, tuple([card_at[c] if use.get(c) else ROOK for c in range(b, b + 4)]),
                  _CELL_COLOUR[b], b & 15) for b, use in runs]
    for n, use in sets:
        naturals = [card_at[cell] for cell, k in use.items() for _ in range(k)]
        melds.append(Meld(_SET, tuple(naturals) + (ROOK,) * (3 - len(naturals)), None, n))
    return tuple(melds)


def find_contract(hand: str | Iterable[str | Card], round_number: int,
                  rules: Rules | None = None) -> tuple[Meld, ...] | None:
    """The smallest melds that make the round's contract (T7) from `hand` — 4-card runs,
    3-card sets, a Rook only where a natural card is missing, each Rook in a run fixed to
    its card — or None when the hand cannot make it (H1, H8 respected).

    >>> find_contract("R5 R6 R7 RK Y9 G9 B9 B2", 2)
    (Meld.parse('RK=R4 R5 R6 R7'), Meld.parse('Y9 G9 B9'))
    """
    rules = rules or _DEFAULT_RULES
    contract = rules.contract(round_number)
    cnt, layers, rooks, size = _tally(hand)
    book = _book(rules)
    plan = _minimal(cnt, layers, rooks, size, contract.runs, contract.sets, book)
    return None if plan is None else _plan_melds(plan)


# == whole_hand and best_lay_down: melds of any length =====================================
_HOSTS = [list(combinations(range(4), k)) for k in range(5)]  # colours that may hold runs


class _Partition:
    """The search behind `whole_hand` and `best_lay_down`.

    It walks the numbers 1 to 14 and, at each, decides whether the number has a set
    (which then takes every natural card of that number the runs leave), and for each
    colour which runs start there (a run takes the naturals of its numbers while there are
    any, a Rook elsewhere). What no meld takes stays in hand (never, for `whole_hand`).
    At the end, `finish` shares the naturals out again if H1 asks for it (`_allocate`),
    gives the sets the Rooks the runs leave (then puts any still spare in runs in place
    of natural cards), and counts what stays in hand. `best_lay_down` keeps the best
    end reached and cuts off any branch that already leaves as many points.
    """

    def __init__(self, cnt: list[int], rooks: int, size: int, contract: Contract,
                 book: _Book, whole: bool, keep: int, hint: Iterable[int] = ()) -> None:
        self.cnt0, self.cnt = cnt, cnt[:]
        self.rooks, self.book, self.whole, self.keep = rooks, book, whole, keep
        # any number of Rooks fits in a set (H1's default), and there will be a set
        self.free = book.max_rooks == _NONE and not book.ratio and contract.sets > 0
        self.hint = set(hint)  # numbers to try sets of first (those of `find_contract`)
        self.tot0 = [cnt[n] + cnt[16 + n] + cnt[32 + n] + cnt[48 + n] for n in range(16)]
        self.runs_min, self.sets_min = contract.runs, contract.sets
        self.runs_max = _NONE if book.extras else contract.runs
        self.sets_max = _NONE if book.extras else contract.sets
        self.held = [0] * 64  # cells of each colour, counted from number 1: cells held
        for base in (0, 16, 32, 48):
            for n in range(LOWEST, HIGHEST + 1):
                self.held[base + n] = self.held[base + n - 1] + (cnt[base + n] > 0)
        self.runs: list[tuple[int, int, int, tuple[int, ...]]] = []  # base, low, high, cells
        self.set_count = [0] * 16
        self.set_took = [0] * 64
        self.left = [0] * 64
        self.left_points = 0
        self.run_rooks = 0
        self.n_sets = self.short = 0
        self.live = [0, 0, 0, 0]
        for cell in range(64):
            if cnt[cell]:
                self.live[cell >> 4] |= 1 << (cell & 15)
        points = sorted([25] * rooks + [_CELL_POINTS[c] for c in range(64) for _ in
                                        range(cnt[c])])
        self.floor = sum(points[:keep])  # nothing can leave fewer points than this
        self.best_points = _NONE
        self.best: LayDown | None = None
        self.found: tuple[Meld, ...] | None = None

    # -- the walk ------------------------------------------------------------------------
    # State besides the counts: `live[ci]` the numbers of colour ci with cards left to
    # place; `n_sets`; `short` the Rooks the sets of the numbers done need at least.
    def number(self, p: int) -> bool:
        """Decide the sets of number p, then its cells; True stops the search."""
        if p > HIGHEST:
            return self.finish()
        if self.run_rooks + self.short > self.rooks:
            return False
        book, n_sets = self.book, self.n_sets
        runs_left = self.runs_max - len(self.runs)
        if not runs_left and n_sets == self.sets_max:
            return self.rest(p)
        live = self.live
        here = (live[0] >> p & 1) + (live[1] >> p & 1) + (live[2] >> p & 1) + (live[3] >> p & 1)
        if self.whole:
            if runs_left < 4 and not self.coverable(p, runs_left, self.sets_max - n_sets):
                return False
        elif self.left_points + self.floor_ahead(p, runs_left) >= self.best_points:
            return False
        most = 0
        if self.tot0[p] >= book.set_need and n_sets < self.sets_max:
            most = 1
            if book.same_sets:
                most = min(self.sets_max - n_sets, self.tot0[p] // book.set_need,
                           (self.tot0[p] + self.rooks) // 3)
        for j in range(most, -1, -1) if p in self.hint else range(most + 1):
            if j == 0 and self.whole and here > runs_left:
                continue  # some card of p would need a run starting at p: not enough runs
            self.set_count[p] = j
            self.n_sets += j
            done = self.cell(p, 0, p + 3)
            self.n_sets -= j
            self.set_count[p] = 0
            if done:
                return True
        return False

    def coverable(self, p: int, runs_left: int, sets_left: int) -> bool:
        """Can the cards of numbers p..14 all go into melds (`whole_hand`)? Those in colours
        that start no more runs must be of at most `sets_left` numbers (the sets'), and
        with no run to come they need their sets' Rooks."""
        if sets_left >= 14:
            return True
        above = ~((1 << p) - 1)
        masks = [m & above for m in self.live]
        if not runs_left:
            numbers = masks[0] | masks[1] | masks[2] | masks[3]
            if numbers.bit_count() > sets_left:
                return False
            cnt, need = self.cnt, self.run_rooks + self.short
            while numbers:
                q = (numbers & -numbers).bit_length() - 1
                numbers &= numbers - 1
                need += max(0, 3 - cnt[q] - cnt[16 + q] - cnt[32 + q] - cnt[48 + q])
            return need <= self.rooks
        cnt, spare = self.cnt, self.rooks - self.run_rooks - self.short
        for hosts in _HOSTS[runs_left]:
            rest = 0
            for ci in range(4):
                if ci not in hosts:
                    rest |= masks[ci]
            if rest.bit_count() > sets_left:
                continue
            need = 0  # the sets those numbers must have need Rooks
            while rest:
                q = (rest & -rest).bit_length() - 1
                rest &= rest - 1
                need += max(0, 3 - cnt[q] - cnt[16 + q] - cnt[32 + q] - cnt[48 + q])
            if need <= spare:
                return True
        return False

    def floor_ahead(self, p: int, runs_left: int) -> int:
        """Points that must stay in hand from numbers p..14: those of colours that start no
        more runs, but for the sets still to come (the dearest numbers), whichever
        colours end up holding the runs."""
        sets_left = self.sets_max - self.n_sets
        if runs_left >= 4 or sets_left >= 14:
            return 0
        cnt, above = self.cnt, ~((1 << p) - 1)
        total = [0] * 16
        rows: list[list[tuple[int, int]]] = []  # per colour: (number, points)
        for ci, mask in enumerate(self.live):
            row = []
            mask &= above
            base = ci * 16
            while mask:
                q = (mask & -mask).bit_length() - 1
                mask &= mask - 1
                worth = cnt[base + q] * _NUMBER_POINTS[q]
                row.append((q, worth))
                total[q] += worth
            rows.append(row)
        least = _NONE
        for hosts in _HOSTS[runs_left]:
            values = total[:]
            for ci in hosts:
                for q, worth in rows[ci]:
                    values[q] -= worth
            values.sort()
            least = min(least, sum(values[:16 - sets_left]) if sets_left < 16 else 0)
            if not least:
                break
        return least

    def rest(self, p: int) -> bool:
        """No meld can be started any more: numbers p..14 go to their sets or stay."""
        cnt = self.cnt
        moved: list[tuple[int, int]] = []
        for q in range(p, HIGHEST + 1):
            for cell in _NUMBER_CELLS[q]:
                if cnt[cell]:
                    if self.whole:
                        self.unmove(moved)
                        return False
                    moved.append((cell, cnt[cell]))
                    self.left[cell] += cnt[cell]
                    self.left_points += cnt[cell] * _CELL_POINTS[cell]
                    cnt[cell] = 0
                    self.live[cell >> 4] ^= 1 << q
        done = False
        if self.left_points < self.best_points:
            done = self.finish()
        self.unmove(moved)
        return done

    def unmove(self, moved: list[tuple[int, int]]) -> None:
        for cell, n in moved:
            self.live[cell >> 4] ^= 1 << (cell & 15)
            self.cnt[cell] += n
            self.left[cell] -= n
            self.left_points -= n * _CELL_POINTS[cell]

    def cell(self, p: int, ci: int, min_high: int) -> bool:
        """Start runs of colour ci at number p (their highest numbers non-decreasing, at
        least min_high), then settle the cell's remaining cards."""
        if ci == 4:  # number p is done: its sets' shortfall is known
            j = self.set_count[p]
            short = 0
            if j:
                took = self.set_took
                short = max(0, 3 * j - took[p] - took[16 + p] - took[32 + p] - took[48 + p])
            self.short += short
            done = self.number(p + 1)
            self.short -= short
            return done
        if len(self.runs) < self.runs_max and min_high <= HIGHEST and \
                self.spans(p, ci, ci * 16, min_high):
            return True
        return self.settle(p, ci)

    def spans(self, p: int, ci: int, base: int, min_high: int) -> bool:
        """Each run of colour ci that can start at number p: natural cards where there
        are any, Rooks elsewhere. Longest first when cards may stay in hand, shortest
        first for `whole_hand`."""
        book, cnt, cnt0, free, live = self.book, self.cnt, self.cnt0, self.free, self.live
        spare = self.rooks - self.run_rooks
        touch = [(low, high) for b, low, high, _ in self.runs if b == base] \
            if self.runs and not book.contiguous else None
        held, needs = self.held, book.needs
        # Rooks can always go to a set: a run then starts and ends on natural cards, or one
        # Rook beyond them (to overlap a run it would touch), or is 4 cards long
        lead = free and (cnt0[base + p] > 0 or cnt0[base + p + 1] > 0)
        taken: list[int] = []
        options: list[tuple[int, int, int]] = []  # (high, cards taken, Rooks)
        rooks = 0
        for q in range(p, HIGHEST + 1):
            cell = base + q
            if cnt[cell]:
                cnt[cell] -= 1
                if not cnt[cell]:
                    live[ci] ^= 1 << q
                taken.append(cell)
            else:
                rooks += 1
                if rooks > spare:
                    break
            if q < min_high:
                continue
            if free and q != p + 3 and not (lead and (cnt0[cell] or cnt0[cell - 1])):
                continue
            if touch and any(low == q + 1 or high + 1 == p for low, high in touch):
                continue
            if held[cell] - held[base + p - 1] < needs[q - p + 1]:
                continue
            options.append((q, len(taken), rooks))
        if not self.whole:
            options.reverse()
        done = False
        for q, n_taken, rooks in options:
            beyond = taken[n_taken:]  # cards past this run's end go back for the moment
            for cell in beyond:
                if not cnt[cell]:
                    live[ci] ^= 1 << (cell & 15)
                cnt[cell] += 1
            self.runs.append((base, p, q, tuple(taken[:n_taken])))
            self.run_rooks += rooks
            done = self.cell(p, ci, q)
            self.run_rooks -= rooks
            self.runs.pop()
            for cell in beyond:
                cnt[cell] -= 1
                if not cnt[cell]:
                    live[ci] ^= 1 << (cell & 15)
            if done:
                break
        for cell in taken:
            if not cnt[cell]:
                live[ci] ^= 1 << (cell & 15)
            cnt[cell] += 1
        return done

    def settle(self, p: int, ci: int) -> bool:
        """The cards of colour ci, number p that no run took: to the set, or in hand."""
        cell = ci * 16 + p
        n = self.cnt[cell]
        if not n:
            return self.cell(p, ci + 1, p + 3)
        if self.set_count[p]:
            self.cnt[cell] = 0
            self.live[ci] ^= 1 << p
            self.set_took[cell] += n
            done = self.cell(p, ci + 1, p + 3)
            self.set_took[cell] -= n
        elif self.whole:
            return False
        else:
            self.cnt[cell] = 0
            self.live[ci] ^= 1 << p
            self.left[cell] += n
            self.left_points += n * _CELL_POINTS[cell]
            done = self.left_points < self.best_points and self.cell(p, ci + 1, p + 3)
            self.left[cell] -= n
            self.left_points -= n * _CELL_POINTS[cell]
        self.live[ci] ^= 1 << p
        self.cnt[cell] = n
        return done

    # -- the end: share out, add Rooks, count what stays ---------------------------------
    def finish(self) -> bool:
        book = self.book
        n_sets = sum(self.set_count)
        if len(self.runs) < self.runs_min or n_sets < self.sets_min:
            return False
        groups = [p for p in range(LOWEST, HIGHEST + 1) if self.set_count[p]]
        run_cells = [list(r[3]) for r in self.runs]
        set_cells: list[dict[int, int]] = [
            {c: self.set_took[c] for c in _NUMBER_CELLS[p] if self.set_took[c]} for p in groups]
        ok = all(len(cells) >= book.need(high - low + 1)
                 for cells, (_, low, high, _) in zip(run_cells, self.runs, strict=True))
        ok = ok and all(sum(cells.values()) >= self.set_count[p] * book.set_need
                        for p, cells in zip(groups, set_cells, strict=True))
        if not ok:  # H1: share the same naturals out another way
            pool = [0] * 64
            demands: list[_Demand] = []
            for cells, (base, low, high, _) in zip(run_cells, self.runs, strict=True):
                for c in cells:
                    pool[c] += 1
                demands.append((tuple(range(base + low, base + high + 1)), 1,
                                book.need(high - low + 1), high - low + 1))
            for p, took in zip(groups, set_cells, strict=True):
                for c, k in took.items():
                    pool[c] += k
                demands.append((_NUMBER_CELLS[p], _NONE, self.set_count[p] * book.set_need,
                                _NONE))
            use = _allocate(demands, pool)
            if use is None:
                return False
            run_cells = [_cells_of(u) for u in use[:len(self.runs)]]
            set_cells = [{c: k for c, k in u.items() if k} for u in use[len(self.runs):]]
        lengths = [high - low + 1 for _, low, high, _ in self.runs]
        spare = self.rooks - sum(n - len(c) for n, c in zip(lengths, run_cells, strict=True))
        group_nat = [sum(c.values()) for c in set_cells]
        least = most = 0
        for p, t in zip(groups, group_nat, strict=True):
            lo, hi = book.set_rooks(self.set_count[p], t)
            least += lo
            most += hi
        if spare < least:
            return False
        spare -= min(spare, most)
        left_points, left_cells = self.left_points, [c for c in range(64)
                                                     for _ in range(self.left[c])]
        if spare:  # Rooks no set can take: into the runs, in place of natural cards
            spare, extra = self.convert(spare, groups, group_nat, set_cells, run_cells,
                                        lengths)
            if self.whole and (spare or extra):
                return False
            left_cells += extra
            left_points += sum(_CELL_POINTS[c] for c in extra)
        set_rooks = self.rooks - spare - sum(n - len(c)
                                             for n, c in zip(lengths, run_cells, strict=True))
        if self.whole:
            self.found = self.melds(groups, set_cells, run_cells, set_rooks)
            return True
        left_points += 25 * spare
        short = self.keep - len(left_cells) - spare
        if short > 0:
            out = self.keep_back(short, groups, set_cells, set_rooks)
            if out is None:
                return False
            cells, back_rooks = out
            left_cells += cells
            spare += back_rooks
            set_rooks -= back_rooks
            left_points += sum(_CELL_POINTS[c] for c in cells) + 25 * back_rooks
        if left_points < self.best_points:
            self.best_points = left_points
            melds = self.melds(groups, set_cells, run_cells, set_rooks)
            left = tuple(_CELL_CARD[c] for c in sorted(left_cells)) + (ROOK,) * spare
            self.best = LayDown(melds, left)
        return self.best_points <= self.floor

    def convert(self, spare: int, groups: list[int], group_nat: list[int],
                set_cells: list[dict[int, int]], run_cells: list[list[int]],
                lengths: list[int]) -> tuple[int, list[int]]:
        """Put spare Rooks in runs in place of natural cards: first cards a set of their
        number takes instead (nothing stays in hand), then the cheapest. Returns the Rooks
        still spare and the natural cards that go back to hand."""
        book = self.book
        index = {p: i for i, p in enumerate(groups)}
        back: list[int] = []
        for cheap_only in (False, True)[:1 if self.whole else 2]:
            for r, cells in enumerate(run_cells):
                if not spare:
                    break
                order = sorted(cells, key=_CELL_POINTS.__getitem__) if cheap_only else cells[:]
                for cell in order:
                    if not spare:
                        break
                    g = index.get(cell & 15)
                    if (g is None) != cheap_only:
                        continue
                    nat = len(cells)
                    if lengths[r] - nat + 1 > book.room(nat - 1):
                        break
                    cells.remove(cell)
                    spare -= 1
                    if g is None:
                        back.append(cell)
                        continue
                    p = groups[g]
                    before = book.set_rooks(self.set_count[p], group_nat[g])[1]
                    group_nat[g] += 1
                    set_cells[g][cell] = set_cells[g].get(cell, 0) + 1
                    gain = book.set_rooks(self.set_count[p], group_nat[g])[1] - before
                    spare -= min(spare, gain)
        return spare, back

    def keep_back(self, short: int, groups: list[int], set_cells: list[dict[int, int]],
                  set_rooks: int) -> tuple[list[int], int] | None:
        """Keep `short` more cards in hand (the `keep` of `best_lay_down`), the cheapest
        way: natural cards a set can spare, else Rooks the sets can spare."""
        book = self.book
        nat = [sum(c.values()) for c in set_cells]

        def bounds(g: int, naturals: int) -> tuple[int, int]:
            return book.set_rooks(self.set_count[groups[g]], naturals)

        cells: list[int] = []
        back_rooks = 0
        for _ in range(short):
            spans = [bounds(g, nat[g]) for g in range(len(groups))]
            least, most = sum(lo for lo, _ in spans), sum(hi for _, hi in spans)
            best: tuple[int, int] | None = None
            for g, p in enumerate(groups):
                lo, hi = bounds(g, nat[g] - 1)
                if lo <= hi and least - spans[g][0] + lo <= set_rooks <= \
                        most - spans[g][1] + hi and (best is None or _NUMBER_POINTS[p] < best[0]):
                    best = (_NUMBER_POINTS[p], g)
            if best is not None:
                g = best[1]
                cell = max(set_cells[g], key=lambda c: (set_cells[g][c], c))
                set_cells[g][cell] -= 1
                if not set_cells[g][cell]:
                    del set_cells[g][cell]
                nat[g] -= 1
                cells.append(cell)
            elif set_rooks > least:
                set_rooks -= 1
                back_rooks += 1
            else:
                return None
        return cells, back_rooks

    def _share_rooks(self, groups: list[int], nat: list[int], rooks: int) -> list[int] | None:
        book = self.book
        out = []
        for g, p in enumerate(groups):
            lo = book.set_rooks(self.set_count[p], nat[g])[0]
            out.append(lo)
            rooks -= lo
        for g, p in enumerate(groups):
            hi = book.set_rooks(self.set_count[p], nat[g])[1]
            more = min(rooks, hi - out[g])
            out[g] += more
            rooks -= more
        return out if rooks == 0 else None

    def melds(self, groups: list[int], set_cells: list[dict[int, int]],
              run_cells: list[list[int]], set_rooks: int) -> tuple[Meld, ...]:
        book = self.book
        melds = [_run_meld(base, low, high, cells)
                 for (base, low, high, _), cells in zip(self.runs, run_cells, strict=True)]
        nat = [sum(c.values()) for c in set_cells]
        shares = self._share_rooks(groups, nat, set_rooks)
        assert shares is not None
        for g, p in enumerate(groups):
            j = self.set_count[p]
            naturals = _cells_of(set_cells[g])
            parts: list[list[int]] = [[] for _ in range(j)]
            for i, cell in enumerate(naturals):
                parts[i % j].append(cell)
            rooks = [max(0, 3 - len(part)) for part in parts]
            extra = shares[g] - sum(rooks)
            for i, part in enumerate(parts):
                more = min(extra, book.room(len(part)) - rooks[i])
                rooks[i] += more
                extra -= more
            melds += [_set_meld(p, part, r) for part, r in zip(parts, rooks, strict=True)]
        return tuple(melds)


@dataclass(frozen=True, slots=True)
class LayDown:
    """A lay-down of the contract and the cards it leaves in hand."""

    melds: tuple[Meld, ...]
    left: tuple[Card, ...]

    @property
    def points_left(self) -> int:
        """What the cards left in hand would cost (T3)."""
        return sum(c.points for c in self.left)

    def __str__(self) -> str:
        shown = " / ".join(str(m) for m in self.melds)
        left = " ".join(str(c) for c in self.left) or "nothing"
        return f"{shown}; left: {left}"


def best_lay_down(hand: str | Iterable[str | Card], round_number: int,
                  rules: Rules | None = None, keep: int = 0) -> LayDown | None:
    """The lay-down of the round's contract (T15) that leaves the fewest points in hand
    (T3), keeping at least `keep` cards (1 when a card must be kept to discard), or None.
    Melds may be longer than the minimum; with `extra_melds` (H7) more melds are added."""
    rules = rules or _DEFAULT_RULES
    contract = rules.contract(round_number)
    cnt, layers, rooks, size = _tally(hand)
    book = _book(rules)
    plan = None if size - keep < contract.min_cards else \
        _minimal(cnt, layers, rooks, size, contract.runs, contract.sets, book)
    if plan is None:
        return None
    search = _Partition(cnt, rooks, size, contract, book, whole=False, keep=keep,
                        hint=[n for n, _ in plan[1]])
    search.number(LOWEST)
    return search.best


def whole_hand(hand: str | Iterable[str | Card], round_number: int,
               rules: Rules | None = None) -> tuple[Meld, ...] | None:
    """The whole hand as melds making the round's contract, laid down at once (T17: how
    a player goes out in round 11), or None. Under H7's default these are exactly the
    contract's melds, each as long as it needs to be."""
    rules = rules or _DEFAULT_RULES
    contract = rules.contract(round_number)
    cnt, layers, rooks, size = _tally(hand)
    book = _book(rules)
    plan = None if size < contract.min_cards else \
        _minimal(cnt, layers, rooks, size, contract.runs, contract.sets, book)
    if plan is None:
        return None
    search = _Partition(cnt, rooks, size, contract, book, whole=True, keep=0,
                        hint=[n for n, _ in plan[1]])
    search.number(LOWEST)
    return search.found


# == shortfall =============================================================================
def shortfall(hand: str | Iterable[str | Card], round_number: int,
              rules: Rules | None = None) -> Message:
    """What the hand still lacks for the round's contract (T7), from the largest part of
    the contract it can already make: `params` holds `runs` and `sets` (still missing)."""
    rules = rules or _DEFAULT_RULES
    contract = rules.contract(round_number)
    cnt, layers, rooks, size = _tally(hand)
    book = _book(rules)
    parts = sorted(((r, s) for r in range(contract.runs + 1) for s in range(contract.sets + 1)),
                   key=lambda rs: (-(rs[0] + rs[1]), -rs[0]))
    for runs, sets in parts:
        if _minimal(cnt, layers, rooks, size, runs, sets, book) is not None:
            break
    missing = Contract(contract.runs - runs, contract.sets - sets)
    met = Contract(runs, sets)
    if not missing.melds:
        return msg("this hand already meets {contract}", "T7", contract=contract,
                   runs=0, sets=0)
    if not met.melds:
        return msg("still missing: {missing} (the contract is {contract})", "T7",
                   missing=missing, contract=contract, runs=missing.runs, sets=missing.sets)
    return msg("this hand meets {met} of {contract}; still missing: {missing}", "T7",
               met=met, missing=missing, contract=contract, runs=missing.runs,
               sets=missing.sets)

