"""The end of a walk of the exact search: from the runs and sets it decided to the melds.

Owns `arrange` and its answer, `End`. The walk (`partition`) has decided which runs
there are, with the natural cards each took, and which numbers have sets, with the
natural cards the runs left them. `arrange` shares the naturals out again when H1 asks
for it (`tally.allocate`), gives the sets the Rooks the runs leave, puts any Rooks no
set can take in runs in place of natural cards (`_convert`), keeps cards back when the
player must keep some (`_keep_back`), and says what stays in hand. The `Meld` objects
are made only when asked for (`End.melds`): for `best_lay_down`, only for the best end.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from typing import Final

from ..cards import HIGHEST, LOWEST, ROOK, Card
from ..melds import Meld
from .tally import (
    CELL_CARD,
    CELL_POINTS,
    NONE,
    NUMBER_CELLS,
    NUMBER_POINTS,
    ROOK_POINTS,
    Book,
    Demand,
    allocate,
    cells_of,
    run_meld,
    set_meld,
)

Run = tuple[int, int, int, tuple[int, ...]]  # colour base, low, high, natural cells taken
_CELLS: Final = range(64)


class End:
    """A lay-down as a walk ends it: the runs and their natural cards; the numbers with
    sets (`groups`), how many sets each has, their natural cards (counts per cell) and
    their Rooks; the natural cards (cells) and Rooks left in hand."""

    __slots__ = ("runs", "run_cells", "set_count", "groups", "set_cells", "set_rooks",
                 "left_cells", "spare")

    def __init__(self, runs: tuple[Run, ...], run_cells: list[list[int]], set_count: list[int],
                 groups: list[int], set_cells: list[dict[int, int]], set_rooks: int,
                 left_cells: list[int], spare: int) -> None:
        self.runs, self.run_cells, self.set_count = runs, run_cells, set_count
        self.groups, self.set_cells, self.set_rooks = groups, set_cells, set_rooks
        self.left_cells, self.spare = left_cells, spare

    @property
    def points(self) -> int:
        """What the cards left in hand cost (T3)."""
        return sum(map(CELL_POINTS.__getitem__, self.left_cells)) + ROOK_POINTS * self.spare

    def left(self) -> tuple[Card, ...]:
        """The cards left in hand: natural cards in cell order, then Rooks."""
        return tuple(CELL_CARD[c] for c in sorted(self.left_cells)) + (ROOK,) * self.spare

    def melds(self, book: Book) -> tuple[Meld, ...]:
        """The runs with their natural cards, then the sets of each number (its natural
        cards shared out in turn), the Rooks given to each set the fewest it needs
        first."""
        groups, set_cells, set_count = self.groups, self.set_cells, self.set_count
        melds = [run_meld(base, low, high, cells)
                 for (base, low, high, _), cells in zip(self.runs, self.run_cells, strict=True)]
        set_rooks = self.set_rooks
        naturals = [cells_of(cells) for cells in set_cells]
        shares = [0] * len(groups)  # the Rooks of each number's sets (none, usually)
        if set_rooks:
            for g, p in enumerate(groups):
                lo = book.set_rooks(set_count[p], len(naturals[g]))[0]
                shares[g] = lo
                set_rooks -= lo
            for g, p in enumerate(groups):
                hi = book.set_rooks(set_count[p], len(naturals[g]))[1]
                more = min(set_rooks, hi - shares[g])
                shares[g] += more
                set_rooks -= more
        assert set_rooks == 0
        for g, p in enumerate(groups):
            j = set_count[p]
            if j == 1:  # (one set: all the naturals, then its Rooks)
                rooks = max(0, 3 - len(naturals[g]))
                rooks += min(shares[g] - rooks, book.room(len(naturals[g])) - rooks)
                melds.append(set_meld(p, naturals[g], rooks))
                continue
            parts: list[list[int]] = [[] for _ in range(j)]
            for i, cell in enumerate(naturals[g]):
                parts[i % j].append(cell)
            lacks = [max(0, 3 - len(part)) for part in parts]
            extra = shares[g] - sum(lacks)
            for i, part in enumerate(parts):
                more = min(extra, book.room(len(part)) - lacks[i])
                lacks[i] += more
                extra -= more
            melds += [set_meld(p, part, r) for part, r in zip(parts, lacks, strict=True)]
        return tuple(melds)


def arrange(runs: Sequence[Run], set_count: list[int], set_took: list[int], left: list[int],
            rooks: int, book: Book, whole: bool, keep: int) -> End | None:
    """The end of a walk: `runs` as the walk made them, `set_count` sets of each number
    with the natural cards `set_took` (counts per cell), the cards `left` in hand (counts
    per cell), `rooks` Rooks in all. None when H1 or the Rooks do not allow it, when
    `whole` and something would stay in hand, or when `keep` cards cannot stay."""
    groups = [p for p in range(LOWEST, HIGHEST + 1) if set_count[p]]
    run_cells = [list(r[3]) for r in runs]
    set_cells: list[dict[int, int]] = [
        {c: set_took[c] for c in NUMBER_CELLS[p] if set_took[c]} for p in groups]
    group_nat = [sum(c.values()) for c in set_cells]
    needs, set_need = book.needs, book.set_need
    ok = all(len(cells) >= needs[high - low + 1]
             for cells, (_, low, high, _) in zip(run_cells, runs, strict=True)) and \
        all(t >= set_count[p] * set_need for p, t in zip(groups, group_nat, strict=True))
    if not ok:  # H1: share the same naturals out another way
        pool = [0] * 64
        demands: list[Demand] = []
        for cells, (base, low, high, _) in zip(run_cells, runs, strict=True):
            for c in cells:
                pool[c] += 1
            demands.append((tuple(range(base + low, base + high + 1)), 1,
                            book.need(high - low + 1), high - low + 1))
        for p, took in zip(groups, set_cells, strict=True):
            for c, k in took.items():
                pool[c] += k
            demands.append((NUMBER_CELLS[p], NONE, set_count[p] * book.set_need, NONE))
        use = allocate(demands, pool)
        if use is None:
            return None
        run_cells = [cells_of(u) for u in use[:len(runs)]]
        set_cells = [{c: k for c, k in u.items() if k} for u in use[len(runs):]]
        group_nat = [sum(c.values()) for c in set_cells]
    lengths = [high - low + 1 for _, low, high, _ in runs]
    spare = rooks - sum(n - len(c) for n, c in zip(lengths, run_cells, strict=True))
    least = most = 0
    for p, t in zip(groups, group_nat, strict=True):
        lo, hi = book.set_rooks(set_count[p], t)
        least += lo
        most += hi
    if spare < least:
        return None
    spare -= min(spare, most)
    # in cell order (most cells hold none: `compress` skips them at C speed)
    left_cells = [c for c in compress(_CELLS, left) for _ in range(left[c])]
    if spare:  # Rooks no set can take: into the runs, in place of natural cards
        spare, extra = _convert(spare, groups, group_nat, set_count, set_cells, run_cells,
                                lengths, book, whole)
        if whole and (spare or extra):
            return None
        left_cells += extra
    set_rooks = rooks - spare - sum(n - len(c) for n, c in zip(lengths, run_cells, strict=True))
    short = keep - len(left_cells) - spare
    if short > 0:
        out = _keep_back(short, groups, set_count, set_cells, set_rooks, book)
        if out is None:
            return None
        cells, back_rooks = out
        left_cells += cells
        spare += back_rooks
        set_rooks -= back_rooks
    return End(tuple(runs), run_cells, set_count[:], groups, set_cells, set_rooks, left_cells,
               spare)


def _convert(spare: int, groups: list[int], group_nat: list[int], set_count: list[int],
             set_cells: list[dict[int, int]], run_cells: list[list[int]], lengths: list[int],
             book: Book, whole: bool) -> tuple[int, list[int]]:
    """Put spare Rooks in runs in place of natural cards: first cards a set of their
    number takes instead (nothing stays in hand), then (unless `whole`) the cheapest.
    Returns the Rooks still spare and the natural cards that go back to hand."""
    index = {p: i for i, p in enumerate(groups)}
    back: list[int] = []
    for cheap_only in (False, True)[:1 if whole else 2]:
        for r, cells in enumerate(run_cells):
            if not spare:
                break
            order = sorted(cells, key=CELL_POINTS.__getitem__) if cheap_only else cells[:]
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
                before = book.set_rooks(set_count[p], group_nat[g])[1]
                group_nat[g] += 1
                set_cells[g][cell] = set_cells[g].get(cell, 0) + 1
                gain = book.set_rooks(set_count[p], group_nat[g])[1] - before
                spare -= min(spare, gain)
    return spare, back


def _keep_back(short: int, groups: list[int], set_count: list[int],
               set_cells: list[dict[int, int]], set_rooks: int, book: Book
               ) -> tuple[list[int], int] | None:
    """Keep `short` more cards in hand (the `keep` of `best_lay_down`), the cheapest
    way: natural cards a set can spare, else Rooks the sets can spare."""
    nat = [sum(c.values()) for c in set_cells]

    def bounds(g: int, naturals: int) -> tuple[int, int]:
        return book.set_rooks(set_count[groups[g]], naturals)

    cells: list[int] = []
    back_rooks = 0
    for _ in range(short):
        spans = [bounds(g, nat[g]) for g in range(len(groups))]
        least, most = sum(lo for lo, _ in spans), sum(hi for _, hi in spans)
        best: tuple[int, int] | None = None
        for g, p in enumerate(groups):
            lo, hi = bounds(g, nat[g] - 1)
            if lo <= hi and least - spans[g][0] + lo <= set_rooks <= \
                    most - spans[g][1] + hi and (best is None or NUMBER_POINTS[p] < best[0]):
                best = (NUMBER_POINTS[p], g)
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
