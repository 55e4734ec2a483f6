"""Can this hand make this round's contract? The decision search: `find_contract` (the
smallest melds that make it, T7) and `shortfall` (what is still missing, as a `Message`).

Both look for 4-card runs and 3-card sets only (`minimal`), on counts (`tally`). A run
here is (the cell or number of its lowest card, bitmask of the four places holding a
natural card); a plan is the runs and sets found, as `tally.Plan`.

- With sets, the runs are tried cheapest windows first (`_window_lows`), each cut off by
  the Rooks the sets will need at least, and the sets are then the numbers with the
  most natural cards left (`_runs_and_sets`).
- With runs only, colours share nothing but the Rooks: the cheapest way to make j runs
  in one colour (`_colour_best`, and `_colour_pair` for two), cached per colour pattern
  since hands repeat them, then the cheapest mix of colours (`_cheapest_runs`).
- When H1 asks it, the naturals are shared out again (`tally.check_minimal`).

Most hands play asks about cannot make the contract, so before each search comes a floor
under the Rooks it would need (cheapest windows and sets; per colour `_colour_floor`),
which turns most of those away: a floor only ever says no when no plan exists, so the
searches, and the answers, are those they would be without it.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Iterable
from functools import lru_cache
from itertools import combinations
from typing import Final

from ..cards import HIGHEST, LOWEST, Card
from ..melds import Meld
from ..messages import Message, msg
from ..rules import Contract, Rules
from .tally import (
    NUMBER_CELLS,
    Book,
    Plan,
    book_for,
    check_minimal,
    checked,
    run_meld,
    set_meld,
    tally,
)


def find_contract(hand: str | Iterable[str | Card], round_number: object,
                  rules: Rules | object = None) -> tuple[Meld, ...] | None:
    """The smallest melds that make the round's contract (T7) from `hand` — 4-card runs,
    3-card sets, a Rook only where a natural card is missing, each Rook in a run fixed to
    its card — or None when the hand cannot make it (H1, H8 respected).

    >>> find_contract("R5 R6 R7 RK Y9 G9 B9 B2", 2)
    (Meld.parse('RK=R4 R5 R6 R7'), Meld.parse('Y9 G9 B9'))
    """
    rules, contract = checked(rules, round_number)
    cnt, layers, rooks, size = tally(hand)
    book = book_for(rules)
    plan = minimal(cnt, layers, rooks, size, contract.runs, contract.sets, book)
    if plan is None:
        return None
    _PLANS.remember(cnt, contract, book, plan)
    return _plan_melds(plan)


class _Plans:
    """What `find_contract` found for the last 512 hands that meet their contract: the
    bots ask `find_contract` of a hand and then `best_lay_down` (or `whole_hand`) of the
    same hand, which needs to know first whether the contract can be met, and the numbers
    of the plan's sets (`contract_sets`). Hands that do not meet it are not kept (the
    bots ask nothing more of those), so most calls cost nothing here. Only ints are kept
    (keys and set numbers as tuples of ints, the `Book` by its id), which the garbage
    collector stops tracking; the oldest goes first, one at a time."""

    def __init__(self) -> None:
        self.sets: OrderedDict[tuple[tuple[int, ...], int, int, int], tuple[int, ...]] = \
            OrderedDict()
        self.books: dict[int, Book] = {}  # held, so that no other Book takes their ids

    def remember(self, cnt: list[int], contract: Contract, book: Book, plan: Plan) -> None:
        if self.books.get(id(book)) is not book:
            if len(self.books) >= 64:
                self.clear()
            self.books[id(book)] = book
        if len(self.sets) >= 512:
            self.sets.popitem(last=False)
        self.sets[tuple(cnt), contract.runs, contract.sets, id(book)] = \
            tuple([n for n, _ in plan[1]])

    def recall(self, cnt: list[int], contract: Contract, book: Book) -> tuple[int, ...] | None:
        if self.books.get(id(book)) is not book:
            return None
        return self.sets.get((tuple(cnt), contract.runs, contract.sets, id(book)))

    def clear(self) -> None:
        self.sets.clear()
        self.books.clear()


_PLANS: Final = _Plans()


def contract_sets(cnt: list[int], layers: list[list[int]], rooks: int, size: int,
                  contract: Contract, book: Book) -> tuple[int, ...] | None:
    """The numbers of the sets of `minimal`'s plan for the whole contract (a number once
    per set), or None when there is no plan; known without a search when `find_contract`
    has just found that plan for the same hand (`minimal` is a function of the counts)."""
    found = _PLANS.recall(cnt, contract, book)
    if found is None:
        plan = minimal(cnt, layers, rooks, size, contract.runs, contract.sets, book)
        if plan is not None:
            found = tuple([n for n, _ in plan[1]])
    return found


def shortfall(hand: str | Iterable[str | Card], round_number: object,
              rules: Rules | object = None) -> Message:
    """What the hand still lacks for the round's contract (T7), from the largest part of
    the contract it can already make: `params` holds `runs` and `sets` (still missing)."""
    rules, contract = checked(rules, round_number)
    cnt, layers, rooks, size = tally(hand)
    book = book_for(rules)
    parts = sorted(((r, s) for r in range(contract.runs + 1) for s in range(contract.sets + 1)),
                   key=lambda rs: (-(rs[0] + rs[1]), -rs[0]))
    for runs, sets in parts:
        if minimal(cnt, layers, rooks, size, runs, sets, book) is not None:
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


def _plan_melds(plan: Plan) -> tuple[Meld, ...]:
    """The melds of a plan: its runs, then its sets (natural cards, then Rooks). A meld is
    a value, and hands keep meeting contracts with the same few: each is made once."""
    runs, sets = plan
    made, melds = _MELDS, []
    key: _MeldKey
    for b, use in runs:
        key = (b, *use.items())
        meld = made.get(key)
        if meld is None:
            meld = made[key] = run_meld(b & ~15, b & 15, (b & 15) + 3,
                                        [c for c, k in use.items() if k])
        melds.append(meld)
    for n, use in sets:
        key = (-n, *use.items())  # -n: not the key of a run
        meld = made.get(key)
        if meld is None:
            naturals = [cell for cell, k in use.items() for _ in range(k)]
            meld = made[key] = set_meld(n, naturals, 3 - len(naturals))
        melds.append(meld)
    if len(made) > 1 << 14:  # not reached in play: a bound, not an eviction policy
        made.clear()
    return tuple(melds)


# the melds `_plan_melds` has made: (cell of a run's lowest number, or minus a set's
# number, then the plan's (cell, count) pairs) -> Meld
_MeldKey = tuple[int | tuple[int, int], ...]
_MELDS: Final[dict[_MeldKey, Meld]] = {}


def minimal(cnt: list[int], layers: list[list[int]], rooks: int, size: int,
             runs_wanted: int, sets_wanted: int, book: Book) -> Plan | None:
    """The search behind `find_contract`, on counts only. Without sets: colour by colour
    (`_runs_only`). With sets: 4-card runs first, cheapest first, then the cheapest
    3-card sets from what the runs leave (`_runs_and_sets`)."""
    if size < 4 * runs_wanted + 3 * sets_wanted:
        return None
    if not runs_wanted and not sets_wanted:
        return [], []
    if runs_wanted:
        # the four colours written out (no comprehension: asked of every hand)
        lows = [_window_lows(layers[0][0]), _window_lows(layers[1][0]),
                _window_lows(layers[2][0]), _window_lows(layers[3][0])]
        # a floor: every run needs at least the cheapest window of any colour (asked
        # first: about half the hands that cannot make the contract fail on it)
        least = min(lows[0][0], lows[1][0], lows[2][0], lows[3][0])
        if runs_wanted * least > rooks:
            return None
    if not sets_wanted:
        return _runs_only(layers, rooks, size - 4 * runs_wanted, runs_wanted, book)
    tot = _number_totals(cnt)
    need = book.set_need
    if book.same_sets:
        numbers = [n for n in range(LOWEST, HIGHEST + 1)
                   for _ in range(min(sets_wanted, tot[n] // need))]
    else:
        numbers = [n for n in range(LOWEST, HIGHEST + 1) if tot[n] >= need]
    first = _cheapest_sets(tot, sets_wanted, numbers, book)
    if first is None or first[1] > rooks:
        return None
    if not runs_wanted:
        return [], _sets_from(first[0], cnt)
    # and the sets at least what they cost from the whole hand (the runs take cards,
    # which only adds)
    spare = rooks - first[1] - runs_wanted * least
    if spare < 0:
        return None
    # the most Rooks a window may need: what the sets and the other runs leave, at least
    dearest = min(spare + least, 4 - book.run_need)
    # (Rooks needed, cell of the lowest number), cheapest first, then by cell
    # (loops with the four colours written out: half the time of one comprehension)
    wins = []
    by0, by1, by2, by3 = lows[0][1], lows[1][1], lows[2][1], lows[3][1]
    for cost in range(dearest + 1):
        for low in by0[cost]:
            wins.append((cost, low))
        for low in by1[cost]:
            wins.append((cost, 16 + low))
        for low in by2[cost]:
            wins.append((cost, 32 + low))
        for low in by3[cost]:
            wins.append((cost, 48 + low))
    return _runs_and_sets(cnt, tot, rooks, wins, runs_wanted, sets_wanted, numbers, first[1],
                          book)


def _number_totals(c: list[int]) -> list[int]:
    """The natural cards of each number 0..15, the four colours added up (`tot`): the
    sixteen sums written out, which takes a third of the time of a comprehension (asked
    of every hand whose contract has sets)."""
    return [c[0] + c[16] + c[32] + c[48], c[1] + c[17] + c[33] + c[49],
            c[2] + c[18] + c[34] + c[50], c[3] + c[19] + c[35] + c[51],
            c[4] + c[20] + c[36] + c[52], c[5] + c[21] + c[37] + c[53],
            c[6] + c[22] + c[38] + c[54], c[7] + c[23] + c[39] + c[55],
            c[8] + c[24] + c[40] + c[56], c[9] + c[25] + c[41] + c[57],
            c[10] + c[26] + c[42] + c[58], c[11] + c[27] + c[43] + c[59],
            c[12] + c[28] + c[44] + c[60], c[13] + c[29] + c[45] + c[61],
            c[14] + c[30] + c[46] + c[62], c[15] + c[31] + c[47] + c[63]]


# -- sets ----------------------------------------------------------------------------------
def _sets_cost(tot: list[int], numbers: Iterable[int]) -> int:
    """Rooks that minimal sets of these numbers (a number once per set) need when `tot`
    natural cards of each number are free."""
    cost, seen = 0, [0] * 16
    for n in numbers:
        cost += 3 - min(3, max(0, tot[n] - 3 * seen[n]))
        seen[n] += 1
    return cost


def _cheapest_sets(tot: list[int], sets: int, numbers: list[int], book: Book
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
        cost = 0
        for n in chosen:  # (a loop, not sum() of a generator: asked of most hands)
            k = tot[n]
            if k < 3:
                cost += 3 - k
        return chosen, cost
    options, j, prev = [], 0, -1
    for n in numbers:
        j = j + 1 if n == prev else 0
        prev = n
        options.append((3 - min(3, max(0, tot[n] - 3 * j)), j, n))
    options.sort()
    return [n for _, _, n in options[:sets]], sum(cost for cost, _, _ in options[:sets])


def _sets_from(numbers: list[int], cnt: list[int]) -> list[tuple[int, dict[int, int]]]:
    """Minimal sets of these numbers (a number as often as it has sets) from the natural
    cards in `cnt`, shared out in turn so that each set of a number gets its part."""
    out: list[tuple[int, dict[int, int]]] = []
    if len(set(numbers)) == len(numbers):  # a set per number
        for n in numbers:
            take: dict[int, int] = {}
            room = 3
            for cell in NUMBER_CELLS[n]:
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
        for cell in NUMBER_CELLS[n]:
            for _ in range(min(cnt[cell], room)):
                share = takes[i % j]
                share[cell] = share.get(cell, 0) + 1
                i += 1
                room -= 1
        out += [(n, share) for share in takes]
    return out


# -- runs and sets -------------------------------------------------------------------------
def _take(cnt: list[int], tot: list[int], base: int, got: int) -> None:
    """Take the natural cards of the run starting at cell `base` out of `cnt` (per cell)
    and `tot` (per number): one at each of the four places set in `got`."""
    low = base & 15  # the four places written out (asked at every window tried)
    if got & 1:
        cnt[base] -= 1
        tot[low] -= 1
    if got & 2:
        cnt[base + 1] -= 1
        tot[low + 1] -= 1
    if got & 4:
        cnt[base + 2] -= 1
        tot[low + 2] -= 1
    if got & 8:
        cnt[base + 3] -= 1
        tot[low + 3] -= 1


def _give_back(cnt: list[int], tot: list[int], base: int, got: int) -> None:
    """Undo `_take`."""
    low = base & 15
    if got & 1:
        cnt[base] += 1
        tot[low] += 1
    if got & 2:
        cnt[base + 1] += 1
        tot[low + 1] += 1
    if got & 4:
        cnt[base + 2] += 1
        tot[low + 2] += 1
    if got & 8:
        cnt[base + 3] += 1
        tot[low + 3] += 1


def _settle_sets(chosen: list[tuple[int, int]], spare: int, pick: tuple[list[int], int] | None,
                 cnt: list[int], cnt0: list[int], tot: list[int], rooks: int,
                 sets_wanted: int, numbers: list[int], book: Book) -> Plan | None:
    """The runs are chosen (their natural cards taken out of `cnt` and `tot`, `spare`
    Rooks left): the sets (`pick` when known to be the cheapest), or None."""
    if pick is None:
        pick = _cheapest_sets(tot, sets_wanted, numbers, book)
    if pick is None or pick[1] > spare:
        return None
    # does every meld hold the natural cards H1 asks as it stands? (loops, not all() of
    # generators: asked of every choice of runs that gets this far)
    sound, run_need, set_need, picked = True, book.run_need, book.set_need, pick[0]
    for _, got in chosen:
        if got.bit_count() < run_need:
            sound = False
            break
    else:
        for n in picked:
            if tot[n] < set_need * picked.count(n):
                sound = False
                break
    if sound:
        return [_run_plan(b, got) for b, got in chosen], _sets_from(picked, cnt)
    bases = [b for b, _ in chosen]
    plan = check_minimal(bases, pick[0], cnt0, rooks, book)
    if plan is not None:
        return plan
    # H1 wants the naturals shared another way: try every other choice of sets
    for combo in sorted(set(combinations(numbers, sets_wanted))):
        if _sets_cost(tot, combo) <= spare:
            plan = check_minimal(bases, list(combo), cnt0, rooks, book)
            if plan is not None:
                return plan
    return None


def _runs_and_sets(cnt: list[int], tot: list[int], rooks: int, wins: list[tuple[int, int]],
                   runs_wanted: int, sets_wanted: int, numbers: list[int], floor0: int,
                   book: Book) -> Plan | None:
    """Runs and sets: runs cheapest windows first (one or two nested loops, else a
    search), each cut off by the Rooks the sets will need at least (`floor0` before any
    run); then the cheapest sets from what the runs leave. A last run that takes nothing
    from the numbers of the sets chosen so far leaves their cost as it was, which settles
    it at once."""
    if book.same_sets or runs_wanted > 2:
        return _runs_and_sets_search(cnt, tot, rooks, wins, runs_wanted, sets_wanted, numbers,
                                     book)
    cnt0 = cnt[:]
    touching_ok, n_wins = book.contiguous, len(wins)
    reach = sets_wanted + 4  # a run changes at most 4 numbers: the best sets are among these

    def last_run(first: int, chosen: list[tuple[int, int]], spent: int) -> Plan | None:
        ranking = sorted(numbers, key=tot.__getitem__, reverse=True)[:reach]
        values = [3 if tot[n] > 3 else tot[n] for n in ranking]
        floor = 3 * sets_wanted - sum(values[:sets_wanted])
        spare = rooks - spent - floor
        if first >= n_wins or wins[first][0] > spare:
            return None  # the cheapest window left costs too much already
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
            _take(cnt, tot, base, got)
            found = _settle_sets(chosen + [(base, got)], rooks - spent - cost, pick, cnt, cnt0,
                                 tot, rooks, sets_wanted, numbers, book)
            _give_back(cnt, tot, base, got)
            if found is not None:
                return found
        return None

    found: Plan | None = None
    if runs_wanted == 1:
        found = last_run(0, [], 0)
    else:
        for w in range(n_wins):
            cost, base = wins[w]
            if 2 * cost + floor0 > rooks:  # the second run costs at least as much
                break
            got = (cnt[base] > 0) | (cnt[base + 1] > 0) << 1 | (cnt[base + 2] > 0) << 2 | \
                (cnt[base + 3] > 0) << 3
            _take(cnt, tot, base, got)
            found = last_run(w, [(base, got)], cost)
            _give_back(cnt, tot, base, got)
            if found is not None:
                break
    # compiled, last_run and the environment it closes over refer to each other, a cycle:
    # unbound, they are freed at once, not by the collector (a playout made thousands)
    last_run = None  # type: ignore[assignment]
    return found


def _runs_and_sets_search(cnt: list[int], tot: list[int], rooks: int,
                          wins: list[tuple[int, int]], runs_wanted: int, sets_wanted: int,
                          numbers: list[int], book: Book) -> Plan | None:
    """`_runs_and_sets` in general (more than two runs, or two sets of one number): a
    search, cheapest windows first, cut off by the Rooks the sets will need at least."""
    cnt0 = cnt[:]
    chosen: list[tuple[int, int]] = []
    touching_ok = book.contiguous

    def dfs(first: int, spent: int) -> Plan | None:
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
            got = (a > 0) | (b > 0) << 1 | (c > 0) << 2 | (d > 0) << 3
            cost = 4 - got.bit_count()
            if cost > spare:
                continue
            _take(cnt, tot, base, got)
            chosen.append((base, got))
            found = dfs(w, spent + cost) if depth + 1 < runs_wanted else _settle_sets(
                chosen, rooks - spent - cost, None, cnt, cnt0, tot, rooks, sets_wanted, numbers,
                book)
            chosen.pop()
            _give_back(cnt, tot, base, got)
            if found is not None:
                return found
        return None

    found = dfs(0, 0)
    # dfs refers to itself, a cycle: unbound, it is freed at once, not by the collector
    dfs = None  # type: ignore[assignment]
    return found


# -- runs only -----------------------------------------------------------------------------
@lru_cache(maxsize=1 << 14)
def _window_lows(mask: int) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """For the bitmask of the numbers a colour holds: the fewest Rooks any of its windows
    needs (4 when it holds none), and the lowest numbers of the 4-number windows holding
    a card, by the Rooks they need (0..3), in order. Keyed by the mask alone, so that
    every mask fits the cache."""
    by_cost: tuple[list[int], ...] = ([], [], [], [])
    for low in range(LOWEST, HIGHEST - 2):
        present = ((mask >> low) & 15).bit_count()
        if present:
            by_cost[4 - present].append(low)
    least = next((cost for cost in range(4) if by_cost[cost]), 4)
    return least, tuple(map(tuple, by_cost))


def _run_plan(base: int, got: int) -> tuple[int, dict[int, int]]:
    """A run of a plan: the cell of its lowest number, its natural cards as counts (the
    four places written out, lowest first, as a comprehension would give them)."""
    use = {}
    if got & 1:
        use[base] = 1
    if got & 2:
        use[base + 1] = 1
    if got & 4:
        use[base + 2] = 1
    if got & 8:
        use[base + 3] = 1
    return base, use


_Runs = tuple[tuple[int, int], ...]  # (cell of the lowest number, bitmask of naturals)


def _runs_only(layers: list[list[int]], rooks: int, slack: int, runs_wanted: int,
               book: Book) -> Plan | None:
    """Runs only. Colours share nothing but the Rooks: the cheapest way to make j runs in
    each colour, then the cheapest mix of colours (`_cheapest_runs`). For two runs: two
    colours' cheapest windows, else two runs in one colour (`_colour_pair`)."""
    # each colour's layers up to the first empty one, the four written out (asked of
    # every hand with runs only that gets this far)
    m0, m1, m2, m3 = layers
    colours = [tuple(m0[:m0.index(0)]), tuple(m1[:m1.index(0)]), tuple(m2[:m2.index(0)]),
               tuple(m3[:m3.index(0)])]
    if runs_wanted != 2:
        found = _cheapest_runs(colours, rooks, slack, runs_wanted, book)
        return None if found is None else (_runs_plan(found[1]), [])
    most = 4 - book.run_need
    # each colour's cheapest window, as (Rooks needed, lowest number), and the colour
    firsts = []
    for ci, mine in enumerate(colours):
        if mine:
            least, by_cost = _window_lows(mine[0])
            firsts.append(((least, by_cost[least][0]), ci))
    firsts.sort()
    if len(firsts) >= 2 and firsts[0][0][0] <= most and firsts[1][0][0] <= most and \
            firsts[0][0][0] + firsts[1][0][0] <= rooks:
        return _runs_plan(tuple((ci * 16 + low, colours[ci][0] >> low & 15)
                                for (_, low), ci in firsts[:2])), []
    # two colours' best windows are too dear: two runs of one colour, or none
    for (cost, _), ci in firsts:
        if 2 * cost > rooks:
            break
        pair = _colour_pair(colours[ci], rooks, book)
        if pair is not None:
            return _runs_plan(tuple((ci * 16 + low, got) for low, got in pair)), []
    return None


def _runs_plan(runs: _Runs) -> list[tuple[int, dict[int, int]]]:
    return [_run_plan(base, got) for base, got in runs]


@lru_cache(maxsize=1 << 12)
def _colour_pair(layers: tuple[int, ...], rooks: int, book: Book) -> _Runs | None:
    """Two runs of one colour needing at most `rooks` Rooks, cheapest windows first (the
    second costs at least what the first does), or None."""
    # (Rooks needed, lowest number) of the windows holding a card, cheapest first
    wins = [(cost, low) for cost, lows in enumerate(_window_lows(layers[0])[1])
            if 4 - cost >= book.run_need for low in lows]
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
                   book: Book) -> tuple[int, _Runs] | None:
    """The fewest Rooks (at most `rooks`) that `runs_wanted` 4-card runs need, and the
    runs: the cheapest way to make j runs in each colour (`_colour_best`), then the
    cheapest mix. With at most `slack` natural cards unused, a colour with n of them needs
    at least (n - slack) / 4 runs, which bounds how many runs the others may have."""
    # the four colours written out, not a comprehension each (asked of most hands with
    # three or four runs; `colours` always holds four)
    c0, c1, c2, c3 = colours
    profiles = [_colour_floor(c0, runs_wanted), _colour_floor(c1, runs_wanted),
                _colour_floor(c2, runs_wanted), _colour_floor(c3, runs_wanted)]
    p0, p1, p2, p3 = profiles
    naturals = [p0[0], p1[0], p2[0], p3[0]]
    least = [max(0, -(-(n - slack) // 4)) for n in naturals]
    spare_runs = runs_wanted - sum(least)
    if spare_runs < 0:
        return None
    # Rooks each colour needs at least for its least runs; cards it must leave unused
    floor = [j and j * cheapest for j, (_, cheapest, _) in zip(least, profiles, strict=True)]
    unused = [max(0, n - 4 * (j + spare_runs)) for n, j in zip(naturals, least, strict=True)]
    if sum(floor) > rooks or sum(unused) > slack:
        return None
    # a floor under the Rooks of the mix: each colour's floor grows by more with every
    # run it has, so the mix needs at least the `runs_wanted` smallest steps of them all
    steps = sorted(p0[2] + p1[2] + p2[2] + p3[2])
    if len(steps) < runs_wanted or sum(steps[:runs_wanted]) > rooks:
        return None
    best: list[tuple[int, _Runs] | None] = [(0, ())] + [None] * runs_wanted
    for ci, mine in enumerate(colours):
        most = _most_runs(mine, spare_runs + least[ci], rooks)
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
        if ci < 3 and not _may_finish(best, profiles[ci + 1:], rooks):
            return None
    return best[runs_wanted]


def _may_finish(best: list[tuple[int, _Runs] | None],
                rest: list[tuple[int, int, tuple[int, ...]]], rooks: int) -> bool:
    """Can some mix found so far (`best[j]`: the cheapest with j runs) be made up to all
    the runs by the colours still to come, within `rooks`? Those need at least their
    smallest steps of floor (`_colour_floor`) for the runs they would add."""
    joined: tuple[int, ...] = ()  # (not chain() of a generator: asked after every colour)
    for _, _, more in rest:
        joined += more
    steps = sorted(joined)
    wanted = len(best) - 1
    for have, found in enumerate(best):
        if found is not None and wanted - have <= len(steps) and \
                found[0] + sum(steps[:wanted - have]) <= rooks:
            return True
    return False


@lru_cache(maxsize=1 << 13)  # a miss costs little: the solver's caches share a budget
def _colour_floor(layers: tuple[int, ...], runs: int) -> tuple[int, int, tuple[int, ...]]:
    """Of one colour (its numbers held at least once, twice, ...): its natural cards, the
    Rooks its cheapest window needs, and how a floor under the Rooks j runs of it need
    grows, for j = 1..runs (none for a colour with no card). The floor: j times the
    cheapest window, and 4j less the cards the runs can take (at most j of a number)."""
    if not layers:
        return 0, 4, ()
    cheapest = _window_lows(layers[0])[0]
    have = floor = 0
    steps = []
    for j in range(1, runs + 1):
        have += layers[j - 1].bit_count() if j <= len(layers) else 0
        now = max(cheapest * j, 4 * j - have)
        steps.append(now - floor)
        floor = now
    return sum(m.bit_count() for m in layers), cheapest, tuple(steps)


def _most_runs(layers: tuple[int, ...], most: int, rooks: int) -> int:
    """The most runs (at most `most`) one colour could hold with `rooks` Rooks: j runs
    take at most j cards of a number, so they need 4j less those in Rooks."""
    have = 0
    for j in range(1, most + 1):
        have += layers[j - 1].bit_count() if j <= len(layers) else 0
        if 4 * j - have > rooks:
            return j - 1
    return most


_ColourBest = tuple[tuple[int, tuple[tuple[int, int], ...]] | None, ...]


@lru_cache(maxsize=1 << 13)
def _colour_best(layers: tuple[int, ...], most: int, rooks: int, slack: int,
                 book: Book) -> _ColourBest:
    """For j = 0..most: the fewest Rooks (at most `rooks`) that j runs of one colour need,
    with the runs (lowest number, bitmask of the four places holding a natural), or None.
    `layers` are the colour's numbers held at least once, twice, ... Windows are tried
    lowest first, giving up once more than `slack` natural cards lie unused below."""
    run_need, touching_ok = book.run_need, book.contiguous
    # the lowest numbers of the windows holding enough cards (H1) for no more Rooks than
    # allowed, in order
    starts = _window_starts(layers[0], max(1, run_need, 4 - rooks))
    best: list[tuple[int, tuple[tuple[int, int], ...]] | None] = [None] * (most + 1)
    best[0] = (0, ())
    chosen: list[tuple[int, int]] = []

    def dfs(first: int, lay: tuple[int, ...], left_over: int, spent: int, sound: bool,
            banned: int, depth: int) -> None:
        # left_over: natural cards in `lay`; the highest start that leaves at most `slack`
        # of them unused below it (any start, when all of them are at most `slack`)
        m0, limit = lay[0], HIGHEST
        if left_over > slack:
            left, m = slack, m0
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
        # only windows holding `enough` cards, lowest first, from `first` up to `limit`
        # (the starts are in order); with 4 Rooks or more allowed that is every window: one
        # with no card left may still take Rooks
        enough = 4 - (rooks - spent)
        for w in range(first, bisect_right(starts, limit, first)):
            low = starts[w]
            if banned >> low & 1:
                continue
            got = m0 & 15 << low
            present = got.bit_count()
            if present < enough:
                continue
            now_spent = spent + 4 - present
            rest_over = left_over - present
            ok = sound and present >= run_need
            chosen.append((low, got >> low))
            now = best[depth]
            if rest_over <= slack and (now is None or now_spent < now[0]):
                if ok:
                    best[depth] = (now_spent, tuple(chosen))
                else:  # H1: can the naturals be shared out another way?
                    found = _colour_check(layers, [t for t, _ in chosen], rooks, book)
                    if found is not None:
                        best[depth] = (now_spent, found)
            if depth < most and rest_over - 4 * (most - depth) <= slack:
                # could more runs beat some best[depth + 1:] found so far? (more runs never
                # cost fewer Rooks; a loop written out: asked at every window)
                for better in best[depth + 1:]:
                    if better is None or better[0] > now_spent:
                        break
                else:
                    chosen.pop()
                    continue
                window = 15 << low
                if len(lay) == 1:
                    rest: tuple[int, ...] = (m0 & ~window,)
                elif len(lay) == 2:  # the usual case, written out
                    keep = ~window
                    top = lay[1] & keep
                    rest = ((m0 & keep) | (lay[1] & window), top) if top else \
                        ((m0 & keep) | (lay[1] & window),)
                else:
                    keep = ~window
                    more = [(m & keep) | (n & window)
                            for m, n in zip(lay, lay[1:], strict=False)]
                    if lay[-1] & keep:
                        more.append(lay[-1] & keep)
                    rest = tuple(more)
                dfs(w, rest, rest_over, now_spent, ok,
                    banned if touching_ok else banned | 1 << (low + 4) | 1 << low >> 4,
                    depth + 1)
            chosen.pop()

    total = 0
    for m in layers:  # (a loop, not sum() of a generator)
        total += m.bit_count()
    if total > slack:
        best[0] = None  # these cards cannot all stay unused
    if starts and total - 4 * most <= slack:
        dfs(0, layers, total, 0, True, 0, 1)
    # dfs refers to itself, a cycle: unbound, it is freed at once, not by the collector
    dfs = None  # type: ignore[assignment]
    return tuple(best)


@lru_cache(maxsize=1 << 11)  # small entries, and few: 1644 after 56 recorded games
def _window_starts(once: int, fewest: int) -> tuple[int, ...]:
    """The lowest numbers of the windows holding at least `fewest` of the numbers in the
    bitmask `once`, in order (`_colour_best` asks it of every colour it searches, and
    colours repeat)."""
    return tuple([low for low in range(LOWEST, HIGHEST - 2)
                  if (once >> low & 15).bit_count() >= fewest])


def _colour_check(layers: tuple[int, ...], lows: list[int], rooks: int,
                  book: Book) -> tuple[tuple[int, int], ...] | None:
    """`check_minimal` for runs of one colour (as colour 0), as `_colour_best` wants it."""
    cnt = [0] * 64
    for m in layers:
        for n in range(LOWEST, HIGHEST + 1):
            cnt[n] += m >> n & 1
    plan = check_minimal(lows, [], cnt, rooks, book)
    if plan is None:
        return None
    return tuple((b, sum(1 << (c - b) for c, k in use.items() if k)) for b, use in plan[0])
