"""The exact search without a step limit: one sweep over the numbers, a table of states.

Owns `sweep`, which answers what `partition`'s walk answers (`best_lay_down`,
`whole_hand`) for any hand the rules allow, in time bounded by the hand's counts, not by
how many ways its cards can be placed. The walk is the quicker of the two on the hands
play asks about, and its answers are the kit's; when its step budget runs out (H7, with
melds beyond the contract, can make it exponential) the sweep answers instead.

It takes the cells in order, number by number (1..14) and colour by colour within a
number, and keeps a table of states, each the best way found to place the cards of the
cells behind it. A state holds, per colour, the runs still open (a multiset: runs in the
same state are interchangeable, `_Moves`), each as its length so far (1, 2, 3, 4 or
more) and, as far as H1 needs them, its natural cards and Rooks; how many sets the
number being swept has (chosen before its cells) and how many natural cards of that
number wait for them; the Rooks used; the runs and sets so far (counted up to the
contract's); the cards left in hand (counted up to `keep`); and the Rooks more that the
sets could take. Its value is the points of the natural cards left in hand, the least
over every way of reaching it. A card's points depend on its number only (T3), so which
colour a set takes, or leaves, is never asked. At the end the Rooks not used go to the
sets' room, or stay; the best final state is walked back to the moves that made it and
made into an `arrange.End`, which builds the melds as the walk's ends do.
"""

from __future__ import annotations

from typing import Final

from ..cards import HIGHEST, LOWEST
from ..rules import Contract
from .arrange import End, Run
from .tally import NONE, NUMBER_POINTS, ROOK_POINTS, Book

# A run's state, as one int: (length - 1, capped at 3) + 4 * (naturals, capped at `ycap`
# + (ycap + 1) * Rooks). `_Shape` holds the caps and the rules that read them.
# A colour's open runs: their states, sorted (a multiset). A move of a colour at a cell:
# for each state of the open runs, how many end before the cell, take its natural card,
# take a Rook; then how many new runs start there on a natural card, on a Rook.
Group = tuple[int, int, int, int]  # state, ending, taking a natural, taking a Rook
Made = tuple[tuple[Group, ...], int, int]
Move = tuple[tuple[int, ...], int, int, int, Made]
# a state of the table: the open runs of each colour, then the sets of the number being
# swept, the natural cards of it waiting for them, the Rooks used, runs, sets and cards
# left so far (capped), and the Rooks the sets can take more
Key = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...],
            int, int, int, int, int, int, int]
# what a step decided: a colour's move at a cell (None: nothing to do there), or how many
# natural cards of a number stay in hand beside its sets
Decision = Made | int | None


class _Shape:
    """The rules as the sweep reads them, for a hand with `rooks` Rooks: what a run's
    state keeps, and which states may end (H1)."""

    __slots__ = ("most", "ratio", "ycap", "track_x", "contiguous", "rooks")

    def __init__(self, book: Book, rooks: int) -> None:
        self.rooks = rooks if book.max_rooks else 0  # none may go into a meld (H1)
        self.most = book.max_rooks  # Rooks per meld
        self.ratio = book.ratio
        # naturals are counted up to the most Rooks a run could hold: past that, "no more
        # Rooks than naturals" always holds; without that rule, "at least one" is all
        self.ycap = max(1, self.rooks) if self.ratio else 1
        self.track_x = self.ratio or self.most < self.rooks
        self.contiguous = book.contiguous

    def code(self, length: int, naturals: int, rooks: int) -> int:
        return min(length, 4) - 1 + 4 * (min(naturals, self.ycap) +
                                         (self.ycap + 1) * (rooks if self.track_x else 0))

    def parts(self, code: int) -> tuple[int, int, int]:
        """Length (4: four or more), naturals (capped), Rooks (if kept) of a state."""
        rest = code >> 2
        return (code & 3) + 1, rest % (self.ycap + 1), rest // (self.ycap + 1)

    def closes(self, code: int) -> bool:
        """May a run in this state end here (four cards or more, H1)?"""
        length, naturals, rooks = self.parts(code)
        return length == 4 and naturals >= 1 and (not self.ratio or rooks <= naturals)


class _Moves:
    """Every move of one colour at one cell, by the colour's open runs, the cell's
    natural cards, the Rooks still free, whether a run may start there and how many
    (kept: colours and hands repeat the same open runs)."""

    def __init__(self, shape: _Shape) -> None:
        self.shape = shape
        self.known: dict[tuple[tuple[int, ...], int, int, bool, int], list[Move]] = {}

    def of(self, runs: tuple[int, ...], naturals: int, rooks: int, start: bool,
           most_new: int) -> list[Move]:
        key = (runs, naturals, rooks, start, most_new)
        found = self.known.get(key)
        if found is None:
            if len(self.known) > 1 << 16:
                self.known.clear()
            found = self.known[key] = self.make(runs, naturals, rooks, start, most_new)
        return found

    def make(self, runs: tuple[int, ...], naturals: int, rooks: int, start: bool,
             most_new: int) -> list[Move]:
        shape = self.shape
        groups: list[tuple[int, int]] = []
        for code in runs:
            if groups and groups[-1][0] == code:
                groups[-1] = (code, groups[-1][1] + 1)
            else:
                groups.append((code, 1))
        out: list[Move] = []
        new_nat = shape.code(1, 1, 0)
        new_rook = shape.code(1, 0, 1)
        rook_start = shape.most >= 1  # a run may begin with a Rook (T6)

        def extend(i: int, nat: int, used: int, ended: bool, codes: list[int],
                   decided: list[Group]) -> None:
            if i == len(groups):
                if start and (shape.contiguous or not ended):
                    for nn in range(min(naturals - nat, most_new) + 1):
                        most_r = min(rooks - used, most_new - nn) if rook_start else 0
                        for nr in range(most_r + 1):
                            after = codes + [new_nat] * nn + [new_rook] * nr
                            after.sort()
                            out.append((tuple(after), nat + nn, used + nr, nn + nr,
                                        (tuple(decided), nn, nr)))
                else:
                    after = sorted(codes)
                    out.append((tuple(after), nat, used, 0, (tuple(decided), 0, 0)))
                return
            code, k = groups[i]
            length, have, held = shape.parts(code)
            on_nat = shape.code(length + 1, have + 1, held)
            rook_ok = held + 1 <= shape.most
            on_rook = shape.code(length + 1, have, held + 1)
            for e in range(k + 1 if shape.closes(code) else 1):
                for a in range(min(k - e, naturals - nat) + 1):
                    b = k - e - a
                    if b and (not rook_ok or used + b > rooks):
                        continue
                    decided.append((code, e, a, b))
                    extend(i + 1, nat + a, used + b, ended or e > 0,
                           codes + [on_nat] * a + [on_rook] * b, decided)
                    decided.pop()

        extend(0, 0, 0, False, [], [])
        extend = None  # type: ignore[assignment]  # (a cycle: freed at once)
        # the likeliest first: fewest Rooks, then fewest new runs, then most natural cards
        # placed (measured: on a round-11 hand of 81 cards, 70 times quicker than the
        # other orders tried)
        out.sort(key=lambda m: (m[2], m[3], -m[1]))
        return out


class _Search:
    """The search behind `sweep`: depth first over the steps (each cell, then each
    number's sets), every state's answer kept (`known`), so that no state is searched
    twice; a branch that cannot leave fewer points than the best found is cut."""

    def __init__(self, cnt: list[int], rooks: int, contract: Contract, book: Book,
                 whole: bool, keep: int, floor: int) -> None:
        self.cnt, self.rooks, self.book = cnt, rooks, book
        self.shape = shape = _Shape(book, rooks)
        self.usable = shape.rooks
        self.moves = _Moves(shape)
        self.runs_want, self.sets_want = contract.runs, contract.sets
        self.extras, self.whole, self.keep = book.extras, whole, keep
        self.tot = [cnt[q] + cnt[16 + q] + cnt[32 + q] + cnt[48 + q] for q in range(16)]
        self.floor = floor  # no lay-down leaves fewer points: the search stops there
        self.stop = False
        # by step and state: (exact, points): the fewest points the steps from there can
        # leave, or (not exact) a number they leave no fewer than
        self.known: list[dict[Key, tuple[bool, int]]] = [{} for _ in range(_STEPS + 1)]
        self.choice: list[dict[Key, tuple[Key, Decision]]] = [{} for _ in range(_STEPS + 1)]
        self.lacks: dict[tuple[int, int, tuple[int, ...]], int] = {}
        self.closes: dict[int, bool] = {}
        # whole hands, when any number of Rooks fits in a set (H1) and there will be a
        # set: a Rook not used goes into one at the end, so a state that failed fails
        # with more Rooks used too (`failed`: the fewest used it failed with)
        self.dominated = whole and book.max_rooks == NONE and not book.ratio and \
            contract.sets > 0
        self.failed: list[dict[Key, int]] = [{} for _ in range(_STEPS + 1)]

    def sets_at(self, q: int, ks: int) -> int:
        """The most sets number q may have, with `ks` sets before it."""
        tot, book = self.tot, self.book
        if q > HIGHEST or tot[q] < book.set_need:
            return 0
        most = min(tot[q] // book.set_need, (tot[q] + self.usable) // 3)
        want = self.sets_want
        if self.extras:
            return min(most, max(1, want - ks)) if book.same_sets else min(most, 1)
        return min(most, want - ks) if book.same_sets else min(most, 1, want - ks)

    def lack(self, c: int, q: int, runs: tuple[int, ...]) -> int:
        """The fewest Rooks the runs of colour c open after number q need: a run of
        fewer than 4 cards goes on, and where the cells ahead have fewer natural cards
        than the runs that must go through them, Rooks stand in (NONE: past 14)."""
        if not runs:
            return 0
        key = (c, q, runs)
        found = self.lacks.get(key)
        if found is None:
            found = 0
            cnt = self.cnt
            for k in range(1, 4):
                through = 0
                for code in runs:
                    if code & 3 <= 3 - k:  # (length - 1 <= 3 - k: still short at q + k)
                        through += 1
                if through:
                    if q + k > HIGHEST:
                        found = NONE
                        break
                    short = through - cnt[c * 16 + q + k]
                    if short > 0:
                        found += short
            self.lacks[key] = found
        return found

    def go(self, i: int, key: Key, spent: int, budget: int) -> int:
        """The fewest points the steps from step i on leave from state `key`, if fewer
        than `budget`; else NONE. `spent`: the points left before step i."""
        if budget <= 0 or self.stop:
            return NONE
        if self.dominated:  # a state like this one with no more Rooks used has failed
            rest: Key = (key[0], key[1], key[2], key[3], key[4], key[5], 0, key[7], key[8],
                         key[9], key[10])
            fewest = self.failed[i].get(rest)
            if fewest is not None and key[6] >= fewest:
                return NONE
        seen = self.known[i].get(key)
        if seen is not None:
            exact, points = seen
            if exact:
                return points if points < budget else NONE
            if points >= budget:
                return NONE
        if i == _STEPS:
            found = self.end(key)
        elif i % 5 == 4:
            found = self.sets(i, key, spent, budget)
        else:
            found = self.cell(i, key, spent, budget)
        if self.stop:
            return found if found < budget else NONE
        if found < budget:
            self.known[i][key] = (True, found)
            if spent + found <= self.floor:
                self.stop = True
            return found
        self.known[i][key] = (False, budget)
        if self.dominated:
            rest = (key[0], key[1], key[2], key[3], key[4], key[5], 0, key[7], key[8],
                    key[9], key[10])
            fewest = self.failed[i].get(rest)
            if fewest is None or key[6] < fewest:
                self.failed[i][rest] = key[6]
        return NONE

    def cell(self, i: int, key: Key, spent: int, budget: int) -> int:
        """Step i: the cell of colour i % 5 and number i // 5 + 1."""
        q, c = i // 5 + 1, i % 5
        naturals = self.cnt[c * 16 + q]
        profiles = (key[0], key[1], key[2], key[3])
        open_runs = profiles[c]
        pool, j, used, kr, ks, kl, room = key[4:]
        points = NUMBER_POINTS[q]
        start = q <= HIGHEST - 3
        usable, whole, keep = self.usable, self.whole, self.keep
        best = NONE
        made_best: tuple[Key, Decision] | None = None
        if not open_runs and not naturals and not (start and used < usable):
            found = self.go(i + 1, key, spent, budget)
            if found < NONE:
                self.choice[i][key] = (key, None)
            return found
        most_new = NONE if self.extras else self.runs_want - kr
        others = 0  # the Rooks the other colours will need at least
        for c2 in range(4):
            if c2 != c:
                others += self.lack(c2, q if c2 < c else q - 1, profiles[c2])
        free = usable - used - others
        if free < 0:
            return NONE
        for after, nat, rk, started, made in self.moves.of(open_runs, naturals, free, start,
                                                           most_new):
            if self.lack(c, q, after) > free - rk:
                continue
            rest = naturals - nat
            cost, p2, l2 = 0, pool, kl
            if rest:
                if not j:
                    if whole:
                        continue
                    cost = rest * points
                    l2 = min(keep, kl + rest)
                else:
                    p2 = min(pool + rest, 3 * j + usable + keep)
            limit = min(best, budget) - cost
            if limit <= 0:
                continue
            k2 = kr + started
            if self.extras and k2 > self.runs_want:
                k2 = self.runs_want
            now = list(profiles)
            now[c] = after
            nk: Key = (now[0], now[1], now[2], now[3], p2, j, used + rk, k2, ks, l2, room)
            found = self.go(i + 1, nk, spent + cost, limit)
            if found < limit:
                best = found + cost
                made_best = (nk, made)
            if self.stop:
                break
        if made_best is not None:
            self.choice[i][key] = made_best
        return best

    def sets(self, i: int, key: Key, spent: int, budget: int) -> int:
        """Step i: the sets of number i // 5 + 1 take the natural cards waiting for them
        (but those kept back for `keep`) and the Rooks they lack; then the sets of the
        next number are chosen, most first."""
        q = i // 5 + 1
        points = NUMBER_POINTS[q]
        pool, j, used, kr, ks, kl, room = key[4:]
        options: list[tuple[int, int, int, int, int, int]] = []
        if not j:
            options.append((0, used, ks, kl, room, 0))
        else:
            for left in range(min(self.keep - kl, pool) + 1):
                lo, hi = self.book.set_rooks(j, pool - left)
                if lo > hi or used + lo > self.usable:
                    continue
                k2 = ks + j
                if self.extras and k2 > self.sets_want:
                    k2 = self.sets_want
                options.append((left * points, used + lo, k2, kl + left,
                                min(self.usable, room + hi - lo), left))
        best = NONE
        made_best: tuple[Key, Decision] | None = None
        for cost, u2, k2, l2, r2, left in options:
            for j2 in range(self.sets_at(q + 1, k2), -1, -1):
                limit = min(best, budget) - cost
                if limit <= 0:
                    break
                nk: Key = (key[0], key[1], key[2], key[3], 0, j2, u2, kr, k2, l2, r2)
                found = self.go(i + 1, nk, spent + cost, limit)
                if found < limit:
                    best = found + cost
                    made_best = (nk, left)
                if self.stop:
                    break
        if made_best is not None:
            self.choice[i][key] = made_best
        return best

    def end(self, key: Key) -> int:
        """The end: every run still open ends at 14; the contract must be met; the Rooks
        not used go into the sets' room, or stay in hand."""
        used, kr, ks, kl, room = key[6:]
        if kr < self.runs_want or ks < self.sets_want:
            return NONE
        for runs in (key[0], key[1], key[2], key[3]):
            for code in runs:
                ok = self.closes.get(code)
                if ok is None:
                    ok = self.closes[code] = self.shape.closes(code)
                if not ok:
                    return NONE
        free = self.rooks - used  # (all the Rooks, those no meld may hold too)
        dump = min(room, self.usable - used, free - max(0, self.keep - kl))
        if dump < 0:
            return NONE
        spare = free - dump
        if self.whole and spare:
            return NONE
        return spare * ROOK_POINTS

    def answer(self, first: Key) -> End:
        """The lay-down the search found from state `first`, its steps played again."""
        path: list[Key] = []
        steps: list[Decision] = []
        key = first
        for i in range(_STEPS):
            path.append(key)
            key, made = self.choice[i][key]
            steps.append(made)
        used, kl = key[6], key[9]
        free = self.rooks - used
        dump = min(key[10], self.usable - used, free - max(0, self.keep - kl))
        return _replay(self.cnt, self.rooks, self.shape, path, steps, dump)


_STEPS: Final = 5 * HIGHEST  # a step per cell, then one for the number's sets, per number


def sweep(cnt: list[int], rooks: int, contract: Contract, book: Book, whole: bool,
          keep: int, bound: int, floor: int = 0) -> End | None:
    """The lay-down of `contract` from the hand (`cnt`, counts per cell, and `rooks`)
    that leaves the fewest points in hand with at least `keep` cards, if it leaves fewer
    than `bound`; with `whole`, one that leaves nothing. None when there is none. The
    search stops at the first lay-down leaving no more than `floor` points (no lay-down
    leaves fewer)."""
    search = _Search(cnt, rooks, contract, book, whole, keep, floor)
    if whole:
        bound = 1
    best = NONE
    first: Key | None = None
    for j in range(search.sets_at(LOWEST, 0), -1, -1):
        key: Key = ((), (), (), (), 0, j, 0, 0, 0, 0, 0)
        found = search.go(0, key, 0, min(best, bound))
        if found < min(best, bound):
            best, first = found, key
        if search.stop:
            break
    if first is None:
        return None
    return search.answer(first)


def _replay(cnt: list[int], rooks: int, shape: _Shape, path: list[Key],
            steps: list[Decision], dump: int) -> End:
    """The lay-down the moves `steps` make, played on the cards; `path[i]` is the state
    the i-th move was made from; `dump` Rooks more go to the sets."""
    open_runs: list[list[tuple[int, int, list[int]]]] = [[], [], [], []]  # state, low, cells
    closed: list[Run] = []
    left_cells: list[int] = []
    set_count = [0] * 16
    set_cells: list[dict[int, int]] = []
    groups: list[int] = []
    set_rooks = 0
    used = 0
    i = 0
    for q in range(LOWEST, HIGHEST + 1):
        waiting: list[int] = []
        j = path[i][5]  # the sets of q
        for c in range(4):
            made = steps[i]
            i += 1
            cell = c * 16 + q
            taken = 0
            if made is not None:
                assert not isinstance(made, int)
                decided, nn, nr = made
                mine = open_runs[c]
                after: list[tuple[int, int, list[int]]] = []
                for code, e, a, b in decided:
                    same = [r for r in mine if r[0] == code]
                    mine = [r for r in mine if r[0] != code]
                    length, have, held = shape.parts(code)
                    for _, low, cells in same[:e]:
                        closed.append((c * 16, low, q - 1, tuple(cells)))
                    for _, low, cells in same[e:e + a]:
                        after.append((shape.code(length + 1, have + 1, held), low,
                                      [*cells, cell]))
                    for _, low, cells in same[e + a:e + a + b]:
                        after.append((shape.code(length + 1, have, held + 1), low, cells))
                    taken += a
                    used += b
                after += [(shape.code(1, 1, 0), q, [cell])] * nn
                after += [(shape.code(1, 0, 1), q, [])] * nr
                taken += nn
                used += nr
                open_runs[c] = sorted(after, key=lambda r: r[0])
            rest = cnt[cell] - taken
            (waiting if j else left_cells).extend([cell] * rest)
        left = steps[i]
        i += 1
        if j:
            assert isinstance(left, int)
            keep_back = waiting[len(waiting) - left:] if left else []
            took = waiting[:len(waiting) - left]
            left_cells += keep_back
            set_count[q] = j
            groups.append(q)
            mine_cells: dict[int, int] = {}
            for cell in took:
                mine_cells[cell] = mine_cells.get(cell, 0) + 1
            set_cells.append(mine_cells)
            lo = max(0, 3 * j - len(took))
            set_rooks += lo
            used += lo
    for c in range(4):
        for _, low, cells in open_runs[c]:
            closed.append((c * 16, low, HIGHEST, tuple(cells)))
    closed.sort(key=lambda r: (r[1], r[0], r[2]))
    set_rooks += dump
    spare = rooks - used - dump
    return End(tuple(closed), [list(r[3]) for r in closed], set_count, groups, set_cells,
               set_rooks, left_cells, spare)
