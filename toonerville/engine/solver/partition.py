"""The best way to lay a hand down: the exact search over melds of any length.

Owns `best_lay_down` (the lay-down of the round's contract that leaves the fewest points
in hand, T3, T15, H7), `whole_hand` (the entire hand as the contract's melds, T17) and
their answer, `Arrangement`. Both ask `contract.minimal` first whether the contract can be
met at all, and then walk the numbers 1 to 14 deciding sets and where runs start
(`_Partition`), with bounds: the Rooks the melds still needed will take, the runs the
cards ahead can still make, the colours that can still hold a run, the points that must
stay in hand (what no run or set still to come can take: `floor_ahead`). The first
lay-down that leaves no more than the whole hand's floor ends the walk; with `at_most`,
a floor above it answers None at once. At the end of the walk, `arrange` turns what it
decided into melds. Under H7 the walk has a step limit; a walk that reaches it is
finished by the exact sweep (`sweep`), so the limit costs time, never an answer.
Every answer passes `check_meld` and `check_lay_down` under the same `Rules`.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations, product
from operator import add, sub
from typing import Final

from ..cards import HIGHEST, LOWEST, Card
from ..melds import Meld
from ..rules import Contract, Rules
from .arrange import End, Run, arrange
from .contract import contract_sets
from .sweep import sweep
from .tally import (
    CELL_POINTS,
    NONE,
    NUMBER_CELLS,
    NUMBER_POINTS,
    ROOK_POINTS,
    Book,
    book_for,
    checked,
    tally,
    whole_number,
)

#: with melds beyond the contract (H7) the walk may place a card in many more ways, and a
#: large hand (round 11 after many buys: 80 cards and more) made it exponential (209 s for
#: one of 91 cards). Under H7 the walk therefore takes at most this many steps (calls of
#: `_Partition.cell`, about 1-2 us each); when it has not finished by then, the sweep
#: (`sweep.sweep`, exact, in time bounded by the hand's counts) finishes the search from
#: what the walk found: a better lay-down if there is one, the whole hand if it goes down.
#: The limit only ever costs time, never an answer (issue 27). Under every other setting
#: the number of melds is the contract's, the walk is small, and it has no limit.
EXTRA_MELDS_STEPS = 5_000
_HOSTS: Final = [list(combinations(range(4), k)) for k in range(5)]  # colours that may hold runs
_UP_TO: Final = [(2 << n) - 1 for n in range(16)]  # the bits of numbers 0..n


def _set_rooks(tot0: list[int], rooks: int, contract: Contract, book: Book
               ) -> list[list[int]]:
    """For each number p and k = 0..the contract's sets: the fewest Rooks k sets of
    numbers p or later need, from the natural cards of the hand (`tot0`, per number; the
    sets can only find fewer), or NONE when there cannot be k such sets."""
    k_max = contract.sets
    row = [0] + [NONE] * k_max
    set_cost = [row] * (HIGHEST + 2)
    if not k_max:
        return set_cost
    steps: list[int] = []  # the Rooks each further set of numbers p.. needs, fewest first
    if not book.same_sets:  # one set a number: only the k_max fewest steps count
        for p in range(HIGHEST, LOWEST - 1, -1):
            tot = tot0[p]
            if tot >= book.set_need:
                step = 3 - tot if tot < 3 else 0
                if len(steps) < k_max or step < steps[-1]:
                    insort(steps, step)
                    del steps[k_max:]
                    row = [0] * (k_max + 1)
                    for k in range(1, k_max + 1):
                        row[k] = row[k - 1] + steps[k - 1] if k <= len(steps) else NONE
                    if len(steps) == k_max and not steps[-1]:
                        set_cost[LOWEST:p + 1] = [row] * p  # no lower number needs fewer
                        break
            set_cost[p] = row
        return set_cost
    for p in range(HIGHEST, LOWEST - 1, -1):
        tot = tot0[p]
        if tot >= book.set_need:
            most = min(k_max, tot // book.set_need, (tot + rooks) // 3)
            for j in range(1, most + 1):
                insort(steps, max(0, 3 * j - tot) - max(0, 3 * j - 3 - tot))
            row = [0] + [NONE] * k_max
            for k in range(1, min(k_max, len(steps)) + 1):
                row[k] = row[k - 1] + steps[k - 1]
        set_cost[p] = row
    return set_cost


# the most bits any 4 consecutive bits of a 10-bit mask hold; for a 14-bit mask m, that is
# max(_WINDOW_MOST[m & 1023], _WINDOW_MOST[m >> 7])
_WINDOW_MOST: Final = [0] * 1024
for _m in range(1, 1024):
    _WINDOW_MOST[_m] = max((_m & 15).bit_count(), _WINDOW_MOST[_m >> 1])
# ... and of any mask of numbers 1..14 shifted down by 1 or more (14 bits)
_WINDOW_MOST14: Final = [max(_WINDOW_MOST[_m & 1023], _WINDOW_MOST[_m >> 7])
                         for _m in range(1 << 14)]
# the points of one card of each number of a bitmask: low byte + high byte
_MASK_POINTS: Final = \
    [sum(NUMBER_POINTS[n] for n in range(8) if m >> n & 1) for m in range(256)] + \
    [sum(NUMBER_POINTS[n + 8] for n in range(8) if m >> n & 1) for m in range(256)]
_ONE_RUN: Final[dict[int, int]] = {}  # `_one_run` by its key


def _one_run(p: int, mask: int, rooks: int, skip: int, key: int) -> int:
    """The most points one run starting at number p or later can take from one colour
    holding the numbers of `mask`, with at most `rooks` Rooks for the numbers missing,
    a card of number `skip` counting no points; kept in `_ONE_RUN` under `key`."""
    best = 0
    for a in range(p, HIGHEST - 2):
        gaps = points = 0
        for b in range(a, HIGHEST + 1):
            if mask >> b & 1:
                if b != skip:
                    points += NUMBER_POINTS[b]
            else:
                gaps += 1
                if gaps > rooks:
                    break
            if b >= a + 3 and points > best:
                best = points
    if len(_ONE_RUN) > 1 << 16:
        _ONE_RUN.clear()
    _ONE_RUN[key] = best
    return best


_REACH: Final[dict[int, int]] = {}  # `_reach` by its key
# the ways to share r runs among c colours: (colour, how many it holds) for those holding any
_SHARES: Final = [[[tuple((i, k[i]) for i in range(c) if k[i])
             for k in product(range(r + 1), repeat=c) if sum(k) == r] for r in range(5)]
           for c in range(5)]


def _reach(mask: int, p: int, rooks: int, key: int) -> int:
    """The numbers of `mask` (one colour's) that some run starting at p or later can
    take, with at most `rooks` Rooks for the numbers missing; kept in `_REACH` under
    `key`."""
    reach = 0
    for a in range(p, HIGHEST - 2):
        gaps, b = 0, a
        while b <= HIGHEST:
            if not mask >> b & 1:
                gaps += 1
                if gaps > rooks:
                    break
            b += 1
        if b - a >= 4:  # the run a..b-1
            reach |= mask & ((1 << b) - 1) >> a << a
    if len(_REACH) > 1 << 16:
        _REACH.clear()
    _REACH[key] = reach
    return reach


def _dearest(values: list[int], numbers: list[int], k: int) -> int:
    """The sum of the k largest `values` of these numbers (all of them if fewer)."""
    if len(numbers) <= k:
        return sum([values[q] for q in numbers])
    return sum(sorted([values[q] for q in numbers])[-k:])


_RUNS_AHEAD: Final[dict[tuple[int, ...], int]] = {}  # `_runs_ahead` by its counts


def _runs_ahead(counts: tuple[int, ...]) -> int:
    """The most runs of 4 cards one colour's cards (counts of consecutive numbers) make
    without Rooks: from the lowest number up, as many as the 4 numbers from there allow
    (for runs all of one length, the earliest end first is the best); kept in
    `_RUNS_AHEAD`."""
    left, runs = list(counts), 0
    for a in range(len(left) - 3):
        w = min(left[a], left[a + 1], left[a + 2], left[a + 3])
        if w:
            runs += w
            left[a + 1] -= w
            left[a + 2] -= w
            left[a + 3] -= w
    if len(_RUNS_AHEAD) > 1 << 14:  # (keys are tuples: a smaller cap)
        _RUNS_AHEAD.clear()
    _RUNS_AHEAD[counts] = runs
    return runs


class _Partition:
    """The search behind `whole_hand` and `best_lay_down`.

    It walks the numbers 1 to 14 and, at each, decides whether the number has a set
    (which then takes every natural card of that number the runs leave), and for each
    colour which runs start there (a run takes the naturals of its numbers while there are
    any, a Rook elsewhere). What no meld takes stays in hand (never, for `whole_hand`).
    At the end, `finish` has `arrange` share the naturals out again if H1 asks for it,
    give the sets the Rooks the runs leave (then put any still spare in runs in place
    of natural cards), and count what stays in hand. `best_lay_down` keeps the best
    end reached and cuts off any branch that cannot leave fewer points (`floor_ahead`);
    `whole_hand` any branch that cannot place every card (`coverable`). Both cut off a
    branch whose melds, with those still needed, would take more Rooks than the hand has.
    Every cut is of branches that hold no better end, so the answer is the first best
    end of the walk, as without them.
    """

    def __init__(self, cnt: list[int], layers: list[list[int]], rooks: int,
                 contract: Contract, book: Book, whole: bool, keep: int) -> None:
        self.cnt0, self.cnt = cnt, cnt[:]
        self.book, self.whole, self.keep = book, whole, keep
        # the Rooks the melds may take (none when no meld may hold one, H1: then they all
        # stay in hand, and the walk counts none); those staying anyway, in points
        self.all_rooks, self.rooks = rooks, rooks if book.max_rooks else 0
        self.rooks_stay = (rooks - self.rooks) * ROOK_POINTS
        # any number of Rooks fits in a set (H1's default), and there will be a set
        self.free = book.max_rooks == NONE and not book.ratio and contract.sets > 0
        self.hint: set[int] = set()  # numbers to try sets of first (`walk`)
        self.tot0 = list(map(add, map(add, cnt[0:16], cnt[16:32]),
                             map(add, cnt[32:48], cnt[48:64])))  # cards per number
        self.runs_min, self.sets_min = contract.runs, contract.sets
        self.runs_max = NONE if book.extras else contract.runs
        self.sets_max = NONE if book.extras else contract.sets
        # per colour: the numbers with cards left to place; the numbers the hand has 2
        # cards of or more (`tally`'s first two layers)
        self.live = live = [layers[0][0], layers[1][0], layers[2][0], layers[3][0]]
        self.dups = [layers[0][1], layers[1][1], layers[2][1], layers[3][1]]
        self.held = live[:]  # per colour: the numbers the hand holds
        self.runs: list[Run] = []
        self.n_runs = 0
        self.set_count = [0] * 16
        self.set_took = [0] * 64
        self.left = [0] * 64
        self.left_points = 0
        self.run_rooks = 0
        self.n_sets = self.short = 0
        # nothing can leave fewer points than this (`walk` may raise it): the search stops
        # at the first lay-down that leaves no more
        self.floor = sum(sorted([ROOK_POINTS] * rooks + [CELL_POINTS[c] for c in range(64)
                                                for _ in range(cnt[c])])[:keep]) if keep else 0
        self.best_points = NONE
        self.best: End | None = None  # the best end so far (`best_lay_down`)
        self.found: tuple[Meld, ...] | None = None
        self.set_cost = _set_rooks(self.tot0, rooks, contract, book)
        # the steps left before an H7 walk stops (`EXTRA_MELDS_STEPS`); None: no limit
        self.steps: int | None = EXTRA_MELDS_STEPS if book.extras else None
        self.cut_short = False  # the walk stopped at its limit, not at its answer
        self.swept = False  # ... and the sweep finished the search (`finish_exactly`)

    # -- the walk ------------------------------------------------------------------------
    # State besides the counts: `live[ci]` the numbers of colour ci with cards left to
    # place; `n_runs`, `n_sets`; `run_rooks` the Rooks the runs so far take, `short` those
    # the sets of the numbers done need at least.
    def raise_floor(self) -> bool:
        """Raise `floor` to what any lay-down of the hand must leave (`floor_ahead`),
        at which the walk stops; False when that is no less than `best_points` (with
        `at_most`: no lay-down leaves so few points, and there is nothing to walk)."""
        stay = self.rooks_stay
        self.floor = max(self.floor, stay + self.floor_ahead(LOWEST, self.runs_max,
                                                             self.best_points - stay))
        return self.floor < self.best_points

    def walk(self, hint: Iterable[int]) -> None:
        """Walk the numbers from 1, trying sets of the `hint` numbers (those of
        `find_contract`) first. `best_lay_down` stops at the first lay-down that leaves
        no more points than any lay-down must (`floor`): the walk keeps the first
        lay-down it reaches with the fewest points, and that is this one."""
        self.hint = set(hint)
        self.number(LOWEST)

    def number(self, p: int) -> bool:
        """Decide the sets of number p, then its cells; True stops the search."""
        if p > HIGHEST:
            return self.finish()
        book, n_sets, n_runs = self.book, self.n_sets, self.n_runs
        needed = self.sets_min - n_sets  # sets still needed
        if needed < 0:
            needed = 0
        runs_short = self.runs_min - n_runs
        spare = self.rooks - self.run_rooks - self.short  # Rooks the melds so far leave
        sets_cost = self.set_cost[p][needed]
        if runs_short > 0:
            # (`window_cost`, written out: the fewest Rooks a run from p on needs now)
            if p > HIGHEST - 3:
                return False
            row, live = _WINDOW_MOST14, self.live
            if sets_cost + runs_short * (4 - max(row[live[0] >> p], row[live[1] >> p],
                                                 row[live[2] >> p], row[live[3] >> p])) > spare:
                return False
            if runs_short > 1 and not self.runs_ahead(p, runs_short - spare + sets_cost):
                return False
        elif sets_cost > spare:
            return False
        runs_left = self.runs_max - n_runs
        if not runs_left and n_sets == self.sets_max:
            return self.rest(p)
        here = 0  # the colours with cards of p
        if self.whole:
            live = self.live
            here = (live[0] >> p & 1) + (live[1] >> p & 1) + (live[2] >> p & 1) + \
                (live[3] >> p & 1)
            if runs_left < 4 and not self.coverable(p, runs_left, self.sets_max - n_sets):
                return False
            if book.extras and self.stranded(p, spare):
                return False
        elif self.best_points < NONE and (n_runs or n_sets):
            # (while no meld is chosen, the walk has taken nothing from numbers p..14 and
            # the bound seldom cuts: measured on the hands play asks, it costs more than
            # it saves there)
            enough = self.best_points - self.left_points - self.rooks_stay
            if self.floor_ahead(p, runs_left, enough) >= enough:
                return False
        most = 0
        tot = self.tot0[p]
        if tot >= book.set_need and n_sets < self.sets_max:
            most = 1
            if book.same_sets:
                most = min(self.sets_max - n_sets, tot // book.set_need, (tot + self.rooks) // 3)
        cnt = self.cnt
        have = cnt[p] + cnt[16 + p] + cnt[32 + p] + cnt[48 + p]
        for j in range(most, -1, -1) if p in self.hint else range(most + 1):
            if j == 0 and here > runs_left:
                continue  # some card of p would need a run starting at p: not enough runs
            if j and (3 * j - have if 3 * j > have else 0) + \
                    self.set_cost[p + 1][needed - j if needed > j else 0] > spare:
                continue  # the sets of p lack too many cards
            self.set_count[p] = j
            self.n_sets += j
            done = self.cell(p, 0, p + 3)
            self.n_sets -= j
            self.set_count[p] = 0
            if done:
                return True
        return False

    def runs_ahead(self, p: int, k: int) -> bool:
        """Can the cards of numbers p..14 make k runs of 4 cards without Rooks? (each
        Rook makes at most one more) Each colour with 4 numbers in a row makes one; if
        that is not enough, the most each makes: from the lowest number up, as many runs
        as the 4 numbers from there allow (`_runs_ahead`)."""
        if k <= 0:
            return True
        live, most = self.live, _WINDOW_MOST14
        rows = [ci for ci in range(4) if most[live[ci] >> p] == 4]  # 4 numbers in a row
        if len(rows) >= k:
            return True
        cnt = self.cnt
        for ci in rows:
            base = ci * 16
            key = tuple(cnt[base + p:base + HIGHEST + 1])
            found = _RUNS_AHEAD.get(key)
            if found is None:
                found = _runs_ahead(key)
            k -= found
            if k <= 0:
                return True
        return False

    def stranded(self, p: int, spare: int) -> bool:
        """Is some card of numbers p..14 sure to stay out of every meld (`whole_hand`
        under H7, where `coverable` cannot bound the melds to come)? A card of number q
        can go to a set of q only if the hand has `set_need` naturals of q and the cards
        of q still unplaced, with the Rooks left, make 3; else only to a run of its
        colour starting at p..q, through q, with a Rook for each number missing
        (`_reach`). Later runs and sets only take cards and Rooks, so a card that
        neither can take now never goes into a meld."""
        spare = min(max(spare, 0), HIGHEST)
        cnt, tot0, set_need = self.cnt, self.tot0, self.book.set_need
        live = self.live
        waiting = (live[0] | live[1] | live[2] | live[3]) >> p << p
        no_set = 0  # the numbers with cards left that can have no set
        while waiting:
            q = (waiting & -waiting).bit_length() - 1
            waiting &= waiting - 1
            if tot0[q] < set_need or \
                    cnt[q] + cnt[16 + q] + cnt[32 + q] + cnt[48 + q] + spare < 3:
                no_set |= 1 << q
        if not no_set:
            return False
        for ci in range(4):
            mask = live[ci] >> p << p
            if not mask & no_set:
                continue
            key = (mask << 4 | p) << 4 | spare
            reach = _REACH.get(key)
            if reach is None:
                reach = _reach(mask, p, spare, key)
            if mask & no_set & ~reach:
                return True
        return False

    def window_cost(self, p: int) -> int:
        """The fewest Rooks a run starting at number p or later needs now."""
        if p > HIGHEST - 3:
            return NONE
        most, live = _WINDOW_MOST14, self.live
        return 4 - max(most[live[0] >> p], most[live[1] >> p], most[live[2] >> p],
                       most[live[3] >> p])

    def coverable(self, p: int, runs_left: int, sets_left: int) -> bool:
        """Can the cards of numbers p..14 all go into melds (`whole_hand`)? Those in colours
        that start no more runs must be of at most `sets_left` numbers (the sets'), and
        with no run to come they need their sets' Rooks."""
        if sets_left >= 14:
            return True
        above = ~((1 << p) - 1)
        masks = [m & above for m in self.live]
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

    def floor_ahead(self, p: int, runs_left: int, enough: int) -> int:
        """Points that must stay in hand from numbers p..14: all of them but what the
        melds still to come can take. By runs: the most the runs can take (`gain`), and
        the sets the dearest numbers that can still have one; with one set to come, each
        such number is tried. By colours (with two sets or more to come): for each way
        to share the runs among the colours that can hold one, all cards but those the
        sets' numbers take and those the runs can reach (k runs of a colour: k cards of
        a number). Once a bound reaches `enough`, the rest are not worked out.

        A number q can still have a set when the hand has `set_need` natural cards of it
        (the sharing of H1 may give the set any of them) and the Rooks left cover what
        the cards of q still unplaced lack of 3: the walk gives a set no other cards, and
        sharing them out again does not change how many Rooks the melds take in all."""
        sets_left = self.sets_max - self.n_sets
        if runs_left > 4 or sets_left >= 14:
            return self.beyond_melds(p) if self.book.extras else 0
        cnt, live, points = self.cnt, self.live, NUMBER_POINTS
        free = self.rooks - self.run_rooks - self.short
        total = [0] * 16  # points per number
        setable: list[int] = []  # the numbers that can still have a set
        if sets_left:
            tot0, set_need = self.tot0, self.book.set_need
            numbers = (live[0] | live[1] | live[2] | live[3]) >> p << p
            while numbers:
                q = (numbers & -numbers).bit_length() - 1
                numbers &= numbers - 1
                n = cnt[q] + cnt[16 + q] + cnt[32 + q] + cnt[48 + q]
                total[q] = n * points[q]
                if tot0[q] >= set_need and 3 - n <= free:
                    setable.append(q)
            if not runs_left:  # the sets take the dearest numbers, the rest stays
                return sum(total) - _dearest(total, setable, sets_left)
        needed = max(0, self.sets_min - self.n_sets)
        spare = free - self.set_cost[p][needed]  # Rooks the runs may take
        if not sets_left:
            ahead, gain = self.gain(p, runs_left, spare, 0)
            return ahead - gain
        if sets_left == 1 and needed == 1:
            # the set of q takes its cards, needs Rooks for those it lacks, and the runs
            # that pass q take none of its points
            ahead, gain = self.gain(p, runs_left, spare, 0)
            took = 0
            for value, q in sorted([(total[q], q) for q in setable], reverse=True):
                if value + gain <= took:
                    break
                lacks = max(0, 3 - cnt[q] - cnt[16 + q] - cnt[32 + q] - cnt[48 + q])
                took = max(took, value + self.gain(p, runs_left, free - lacks, q)[1])
            return ahead - took
        # per colour that can hold a run from p on: the numbers its runs can reach, and
        # the points k of them can take in all
        reaches: list[tuple[int, int, list[int]]] = []
        ahead, gain = self.gain(p, runs_left, spare, 0, reaches)
        by_runs = ahead - gain - _dearest(total, setable, sets_left)
        if by_runs >= enough:
            return by_runs
        # ... and of each number of `setable` (k cards of it at most)
        kinds = [[(all_of[k], [min(cnt[ci * 16 + q], k) * points[q] if reach >> q & 1
                               else 0 for q in setable]) if k else (0, [])
                  for k in range(runs_left + 1)] for ci, reach, all_of in reaches]
        alone = [total[q] for q in setable]
        by_colours = NONE
        for hosts in _SHARES[len(kinds)][runs_left]:
            out = ahead
            values = alone
            for i, k in hosts:
                took, of = kinds[i][k]
                out -= took
                values = list(map(sub, values, of))
            if len(values) > sets_left:
                values = sorted(values)[-sets_left:]
            by_colours = min(by_colours, out - sum(values))
            if by_colours <= by_runs:
                return by_runs
        return by_colours

    def beyond_melds(self, p: int) -> int:
        """With melds beyond the contract (H7), what stays in hand from numbers p..14 at
        least: the cards of numbers that can have no set (see `floor_ahead`) that no run
        can reach, with the Rooks the sets still needed leave."""
        cnt, live, points = self.cnt, self.live, NUMBER_POINTS
        free = self.rooks - self.run_rooks - self.short
        needed = max(0, self.sets_min - self.n_sets)
        spare = min(max(free - self.set_cost[p][needed], 0), HIGHEST)
        tot0, set_need = self.tot0, self.book.set_need
        stays = 0
        for ci in range(4):
            mask = live[ci] >> p << p
            if not mask:
                continue
            key = (mask << 4 | p) << 4 | spare
            reach = _REACH.get(key)
            if reach is None:
                reach = _reach(mask, p, spare, key)
            rest = mask & ~reach
            base = ci * 16
            while rest:
                q = (rest & -rest).bit_length() - 1
                rest &= rest - 1
                if tot0[q] < set_need or \
                        3 - cnt[q] - cnt[16 + q] - cnt[32 + q] - cnt[48 + q] > free:
                    stays += cnt[base + q] * points[q]
        return stays

    def gain(self, p: int, runs_left: int, spare: int, skip: int,
             reaches: list[tuple[int, int, list[int]]] | None = None) -> tuple[int, int]:
        """The points of the cards of numbers p..14, and the most `runs_left` runs
        starting at p or later can take of them with `spare` Rooks, those of number
        `skip` not counted: each run of a colour can take the most any one can, and k
        runs of a colour at most k cards of each number some run can reach (`_reach`).
        For `floor_ahead`, each colour some run can reach cards of is added to `reaches`
        with the numbers of them and the points k runs could take of them (k = 0..)."""
        cnt, live, points, dups = self.cnt, self.live, NUMBER_POINTS, self.dups
        spare = min(max(spare, 0), HIGHEST)
        ahead = 0
        gain = [0] * (runs_left + 1)  # the most points r runs can take
        for ci in range(4):
            mask = live[ci] >> p << p
            if not mask:
                continue
            key = ((mask << 4 | p) << 4 | spare) << 4 | skip
            one = _ONE_RUN.get(key)
            if one is None:
                one = _one_run(p, mask, spare, skip, key)
            here = _MASK_POINTS[mask & 255] + _MASK_POINTS[256 + (mask >> 8)]
            more = mask & dups[ci]  # numbers that may have two cards or more
            base = ci * 16
            if runs_left == 1 and reaches is None:
                if one > gain[1]:
                    gain[1] = one
                while more:
                    q = (more & -more).bit_length() - 1
                    more &= more - 1
                    here += (cnt[base + q] - 1) * points[q]
                ahead += here
                continue
            reach = _REACH.get(key >> 4)
            if reach is None:
                reach = _reach(mask, p, spare, key >> 4)
            reach &= ~(1 << skip)
            # the points of the numbers a run can reach, and of those of them with at
            # least 2, 3, 4 cards
            took = [_MASK_POINTS[reach & 255] + _MASK_POINTS[256 + (reach >> 8)], 0, 0, 0]
            while more:
                q = (more & -more).bit_length() - 1
                more &= more - 1
                n = cnt[base + q]
                if n > 1:
                    pts = points[q]
                    here += (n - 1) * pts
                    if reach >> q & 1:
                        took[1] += pts
                        if n > 2:
                            took[2] += pts
                            if n > 3:
                                took[3] += pts
            ahead += here
            if not reach:
                continue
            all_of = [0, took[0]]  # the points k runs of the colour could take
            if 0 < runs_left <= 2:  # (the loops below, written out: most contracts' case)
                if runs_left == 2:
                    two = took[0] + took[1]
                    all_of.append(two)
                    if gain[1] + one > gain[2]:
                        gain[2] = gain[1] + one
                    if min(two, 2 * one) > gain[2]:
                        gain[2] = min(two, 2 * one)
                if one > gain[1]:
                    gain[1] = one
                if reaches is not None:
                    reaches.append((ci, reach, all_of))
                continue
            best = [0, one]
            for k in range(2, runs_left + 1):
                all_of.append(all_of[-1] + took[k - 1])
                best.append(min(all_of[k], k * one))
            if reaches is not None:
                reaches.append((ci, reach, all_of))
            for r in range(runs_left, 0, -1):  # gain[0] stays 0
                for k in range(1, r + 1):
                    if gain[r - k] + best[k] > gain[r]:
                        gain[r] = gain[r - k] + best[k]
        return ahead, gain[runs_left]

    def rest(self, p: int) -> bool:
        """No meld can be started any more: numbers p..14 go to their sets or stay."""
        cnt = self.cnt
        moved: list[tuple[int, int]] = []
        for q in range(p, HIGHEST + 1):
            for cell in NUMBER_CELLS[q]:
                if cnt[cell]:
                    if self.whole:
                        self.unmove(moved)
                        return False
                    moved.append((cell, cnt[cell]))
                    self.left[cell] += cnt[cell]
                    self.left_points += cnt[cell] * CELL_POINTS[cell]
                    cnt[cell] = 0
                    self.live[cell >> 4] ^= 1 << q
        done = False
        if self.left_points < self.best_points:
            done = self.finish()
        self.unmove(moved)
        return done

    def unmove(self, moved: list[tuple[int, int]]) -> None:
        """Take back what `rest` left in hand."""
        for cell, n in moved:
            self.live[cell >> 4] ^= 1 << (cell & 15)
            self.cnt[cell] += n
            self.left[cell] -= n
            self.left_points -= n * CELL_POINTS[cell]

    def cell(self, p: int, ci: int, min_high: int) -> bool:
        """Start runs of colour ci at number p (their highest numbers non-decreasing, at
        least min_high), then settle the cell's remaining cards; so on to colour 3. Under
        H7 each call is a step of the walk's budget; True once it is spent."""
        if self.steps is not None:
            self.steps -= 1
            if self.steps < 0:
                self.cut_short = True
                return True
        cnt, live = self.cnt, self.live
        more_runs = self.n_runs < self.runs_max
        spare = self.rooks - self.run_rooks - self.short
        while ci < 4:
            # a run from p takes a Rook for each of p..p+3 with no card left
            if more_runs and min_high <= HIGHEST and \
                    ((live[ci] >> p) & 15).bit_count() + spare >= 4 and \
                    self.spans(p, ci, ci * 16, min_high):
                return True
            if cnt[ci * 16 + p]:
                return self.settle(p, ci)
            ci, min_high = ci + 1, p + 3
        # number p is done: its sets' shortfall is known
        j = self.set_count[p]
        short = 0
        if j:
            took = self.set_took
            short = max(0, 3 * j - took[p] - took[16 + p] - took[32 + p] - took[48 + p])
            if short > spare:
                return False
        self.short += short
        done = self.number(p + 1)
        self.short -= short
        return done

    def spans(self, p: int, ci: int, base: int, min_high: int) -> bool:
        """Each run of colour ci that can start at number p: natural cards where there
        are any, Rooks elsewhere. Longest first when cards may stay in hand, shortest
        first for `whole_hand`."""
        book, cnt, cnt0, free, live = self.book, self.cnt, self.cnt0, self.free, self.live
        # the Rooks this run may take: what the melds so far and those still needed leave
        runs_short = self.runs_min - self.n_runs - 1
        needed = self.sets_min - self.n_sets
        spare = self.rooks - self.run_rooks - self.short - \
            self.set_cost[p + 1][needed if needed > 0 else 0] - \
            (runs_short * self.window_cost(p) if runs_short > 0 else 0)
        j = self.set_count[p]
        if j:  # the sets of p get at most the cards of p not yet settled
            took = self.set_took
            lacks = 3 * j - took[p] - took[16 + p] - took[32 + p] - took[48 + p] - \
                sum([cnt[c * 16 + p] for c in range(ci, 4)])
            if lacks > 0:
                spare -= lacks
        touch = 0  # the numbers q a run ending there would touch a run of the colour at
        if self.runs and not book.contiguous:
            for b, low, high, _ in self.runs:
                if b == base:
                    if high + 1 == p:
                        return False  # a run from p would touch this one
                    touch |= 1 << (low - 1)
        held, needs = self.held[ci] >> p, book.needs  # (numbers held from p on)
        # Rooks can always go to a set: a run then starts and ends on natural cards, or one
        # Rook beyond them (to overlap a run it would touch), or is 4 cards long
        lead = free and (cnt0[base + p] > 0 or cnt0[base + p + 1] > 0)
        taken: list[int] = []  # the cells of p.. with a card, up to where runs can reach
        options: list[tuple[int, int, int]] = []  # (high, cards taken, Rooks)
        rooks = 0
        for q in range(p, HIGHEST + 1):
            cell = base + q
            if cnt[cell]:
                taken.append(cell)
            else:
                rooks += 1
                if rooks > spare:
                    break
            if q < min_high:
                continue
            if free and q != p + 3 and not (lead and (cnt0[cell] or cnt0[cell - 1])):
                continue
            if touch >> q & 1:
                continue
            if (held & _UP_TO[q - p]).bit_count() < needs[q - p + 1]:  # H1: naturals of p..q
                continue
            options.append((q, len(taken), rooks))
        if not self.whole:
            options.reverse()
        done = False
        mask = live[ci]
        for q, n_taken, rooks in options:  # each run takes a card of each cell it has
            run = tuple(taken[:n_taken])
            gone = 0  # the numbers it takes the last card of
            for cell in run:
                cnt[cell] -= 1
                if not cnt[cell]:
                    gone |= 1 << (cell & 15)
            live[ci] = mask ^ gone
            self.runs.append((base, p, q, run))
            self.n_runs += 1
            self.run_rooks += rooks
            done = self.cell(p, ci, q)
            self.run_rooks -= rooks
            self.n_runs -= 1
            self.runs.pop()
            for cell in run:
                cnt[cell] += 1
            live[ci] = mask
            if done:
                break
        return done

    def settle(self, p: int, ci: int) -> bool:
        """The cards of colour ci, number p that no run took (there are some): to the
        set, or in hand."""
        cell = ci * 16 + p
        n = self.cnt[cell]
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
            self.left_points += n * CELL_POINTS[cell]
            done = self.left_points < self.best_points and self.cell(p, ci + 1, p + 3)
            self.left[cell] -= n
            self.left_points -= n * CELL_POINTS[cell]
        self.live[ci] ^= 1 << p
        self.cnt[cell] = n
        return done

    def finish_exactly(self, cnt: list[int], rooks: int, contract: Contract) -> None:
        """After a walk cut short: the sweep's answer where the walk has none, or a
        better one than the walk's best (whose answer stays when none is better)."""
        if self.whole:
            if self.found is None:
                end = sweep(cnt, rooks, contract, self.book, True, 0, 1)
                if end is not None:
                    self.found = end.melds(self.book)
        elif self.best_points > self.floor:
            end = sweep(cnt, rooks, contract, self.book, False, self.keep, self.best_points,
                        self.floor)
            if end is not None:
                self.best_points, self.best = end.points, end
        self.swept = True

    # -- the end: share out, add Rooks, count what stays ---------------------------------
    def finish(self) -> bool:
        """The walk's end: the melds as decided (`arrange`), if the contract, H1 and the
        Rooks allow them. `whole_hand` takes the first end, `best_lay_down` keeps the
        best so far. True stops the search."""
        if self.n_runs < self.runs_min or self.n_sets < self.sets_min:
            return False
        end = arrange(self.runs, self.set_count, self.set_took, self.left, self.all_rooks,
                      self.book, self.whole, self.keep)
        if end is None:
            return False
        if self.whole:
            self.found = end.melds(self.book)
            return True
        points = end.points
        if points < self.best_points:
            self.best_points, self.best = points, end
        return self.best_points <= self.floor


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A lay-down of the contract and the cards it leaves in hand (the solver's answer;
    the move of laying it down is `actions.LayDown`)."""

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


def best_lay_down(hand: str | Iterable[str | Card], round_number: object,
                  rules: Rules | object = None, keep: int | object = 0,
                  at_most: int | object = None) -> Arrangement | None:
    """The lay-down of the round's contract (T15) that leaves the fewest points in hand
    (T3), keeping at least `keep` cards (1 when a card must be kept to discard), or None.
    Melds may be longer than the minimum; with `extra_melds` (H7) more melds are added.

    With `at_most`, the first lay-down found that leaves at most that many points, or
    None when none does: a yes-or-no question, much quicker to answer than the best."""
    search = _search(hand, round_number, rules, whole=False, keep=keep, at_most=at_most)
    if search is None or search.best is None:
        return None
    return Arrangement(search.best.melds(search.book), search.best.left())


def whole_hand(hand: str | Iterable[str | Card], round_number: object,
               rules: Rules | object = None) -> tuple[Meld, ...] | None:
    """The whole hand as melds making the round's contract, laid down at once (T17: how
    a player goes out in round 11), or None. Under H7's default these are exactly the
    contract's melds, each as long as it needs to be."""
    search = _search(hand, round_number, rules, whole=True, keep=0)
    return None if search is None else search.found


def _search(hand: str | Iterable[str | Card], round_number: object, rules: object,
            whole: bool, keep: object, at_most: object = None) -> _Partition | None:
    """The finished search for the hand, or None when not even the contract's minimal
    melds can be made (`minimal`) with `keep` cards left over."""
    rules, contract = checked(rules, round_number)
    whole_number("keep", keep)
    whole_number("at_most", at_most, none_too=True)
    assert isinstance(keep, int) and (at_most is None or isinstance(at_most, int))
    cnt, layers, rooks, size = tally(hand)
    book = book_for(rules)
    if size - keep < contract.min_cards:
        return None
    search = None
    if at_most is not None:  # (a floor above at_most answers before the contract is met)
        search = _Partition(cnt, layers, rooks, contract, book, whole, keep)
        if at_most < search.floor:
            return None  # keeping `keep` cards leaves more than that
        # only ends leaving at most that are kept, and the first one stops the walk
        search.best_points = at_most + 1
        search.floor = at_most
        if not search.raise_floor():
            return None
    sets = contract_sets(cnt, layers, rooks, size, contract, book)
    if sets is None:
        return None
    if search is None:
        search = _Partition(cnt, layers, rooks, contract, book, whole, keep)
        if not whole:
            search.raise_floor()
    search.walk(sets)
    if search.cut_short:  # the walk ran out of steps: the sweep finishes the search
        search.finish_exactly(cnt, rooks, contract)
    return search

