"""A hand as counts, and the pieces every search of the solver shares.

Inside the solver a hand is counts, not cards: `cnt[colour * 16 + number]` for the
natural cards (numbers 0 and 15 of each colour stay empty, guards for runs; cell 64
counts the Rooks) and, per colour, bitmasks of the numbers held once, twice, ...
(`tally`). Owns the tables between cells and cards, the H1/H7/H8 switches of a `Rules`
as the numbers the searches use (`Book`, cached per `Rules`), the sharing of natural
cards among melds when H1 asks for it (`allocate`, `check_minimal`), and the building
of `Meld` objects from cells, done only for an answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, cast

from ..actions import excerpt
from ..cards import (
    COLOURS,
    HIGHEST,
    LOWEST,
    NATURALS,
    ROOK,
    Card,
    Colour,
    not_a_card,
    not_cards,
    parse_cards,
)
from ..errors import RulesError
from ..melds import Meld, MeldKind
from ..messages import msg
from ..rules import Contract, Rules

DEFAULT_RULES: Final = Rules()
NONE: Final = 10 ** 9  # "no limit" for counts of melds and Rooks

# -- cells: colour * 16 + number ---------------------------------------------------------
CELL_CARD: Final[list[Card]] = [ROOK] * 64
CELL_POINTS: Final[list[int]] = [0] * 64
_TOKEN_CELL: Final[dict[str, int]] = {"RK": 64}
_ID_CELL: Final[dict[int, int]] = {id(ROOK): 64}
_COLOUR_BASE: Final[dict[Colour, int]] = {}
for _ci, _colour in enumerate(COLOURS):
    _COLOUR_BASE[_colour] = _ci * 16
    for _n in range(LOWEST, HIGHEST + 1):
        _card = NATURALS[_ci * 14 + _n - 1]
        CELL_CARD[_ci * 16 + _n] = _card
        CELL_POINTS[_ci * 16 + _n] = _card.points
        _TOKEN_CELL[str(_card)] = _ci * 16 + _n
        _ID_CELL[id(_card)] = _ci * 16 + _n
NUMBER_POINTS: Final = CELL_POINTS[0:16]  # a card's points depend on its number only (T3)
ROOK_POINTS: Final = ROOK.points
NUMBER_CELLS: Final = [(n, 16 + n, 32 + n, 48 + n) for n in range(16)]


_SLOTS: Final = 7  # layers kept per colour: a 5-deck shoe has at most 5 copies of a card
_SLOT: Final = [(cell >> 4) * _SLOTS for cell in range(64)] + [4 * _SLOTS]  # the Rook: cell 64
_BIT: Final = [1 << (cell & 15) for cell in range(64)] + [0]
# a card's cell by its `Card.index` (colour by colour, 1..14, then the Rook)
_INDEX_CELL: Final = [_ci * 16 + _n for _ci in range(4) for _n in range(LOWEST, HIGHEST + 1)] + [64]


def tally(hand: str | Iterable[str | Card]) -> tuple[list[int], list[list[int]], int, int]:
    """Counts of natural cards per cell (and of Rooks, as cell 64); for each colour its
    layers (bitmasks of the numbers held at least once, at least twice, ..., ending in
    0); the number of Rooks; the hand's size."""
    items: Sequence[object]  # (anything may be given: the compiled build checks types)
    if isinstance(hand, str):
        items = hand.replace(",", " ").split()
    elif isinstance(hand, (tuple, list)):
        items = hand
    else:
        try:
            items = list(hand)
        except TypeError:  # (anything may be given: a number, None, ...)
            raise not_cards(hand) from None
    if not isinstance(hand, str):
        # the usual case, written out (it is asked of every hand): every `Card` knows its
        # index, one from no deck table too
        cnt = [0] * 65
        flat = [0] * (5 * _SLOTS + len(items))
        slot, bits, index_cell = _SLOT, _BIT, _INDEX_CELL
        try:  # (a str among them fails at its `index`, a method)
            for card in cast("Sequence[Card]", items):
                cell = index_cell[card.index]
                k = cnt[cell]
                cnt[cell] = k + 1
                flat[slot[cell] + k] |= bits[cell]
        except (AttributeError, TypeError):  # notation among the cards
            pass
        else:
            return _layers(cnt, flat, len(items))
    cells = [_TOKEN_CELL.get(item) if isinstance(item, str) else None for item in items]
    return _tally_cells([_cell_of(item) if cell is None else cell
                         for item, cell in zip(items, cells, strict=True)])


def _tally_cells(cells: list[int]) -> tuple[list[int], list[list[int]], int, int]:
    """`tally` of the cards' cells."""
    cnt = [0] * 65
    flat = [0] * (5 * _SLOTS + len(cells))  # the Rook's slots (cell 64) take any count
    slot, bits = _SLOT, _BIT
    for cell in cells:
        k = cnt[cell]
        cnt[cell] = k + 1
        flat[slot[cell] + k] |= bits[cell]
    return _layers(cnt, flat, len(cells))


def _layers(cnt: list[int], flat: list[int], size: int
            ) -> tuple[list[int], list[list[int]], int, int]:
    """`tally`'s answer from the counts and the layers written in `flat`, `_SLOTS` per
    colour: the k-th copy of a card sets its bit in layer k."""
    if flat[6] or flat[13] or flat[20] or flat[27]:
        # a colour's last layer is not 0: more copies of a card than any shoe holds
        # (some spilled into the next colour's layers), so count them the long way
        width = max(cnt[:64]) + 1
        layers = [[0] * width for _ in range(4)]
        for cell in range(64):
            for k in range(cnt[cell]):
                layers[cell >> 4][k] |= _BIT[cell]
        return cnt, layers, cnt[64], size
    return cnt, [flat[0:7], flat[7:14], flat[14:21], flat[21:28]], cnt[64], size


def _cell_of(item: object) -> int:
    """The cell of a card given as a `Card` not from the deck tables, or as notation in
    any case; notation that is not a card raises `NotationError` with the reason."""
    if not isinstance(item, (str, Card)):
        raise not_a_card(item)
    card = item if isinstance(item, Card) else parse_cards(item)[0]
    return 64 if card.colour is None else _COLOUR_BASE[card.colour] + card.number


def checked(rules: object, round_number: object) -> tuple[Rules, Contract]:
    """The rules (the defaults for None) and the round's contract, both checked, since
    anything may be given to the solver: other values raise `RulesError`."""
    if rules is None:
        rules = DEFAULT_RULES
    elif not isinstance(rules, Rules):
        raise RulesError(msg("rules must be a Rules such as Rules(extra_melds=True), or None "
                             "for the defaults, not {value}", None, value=excerpt(rules)))
    if isinstance(round_number, bool):  # (an int to Python, but no round)
        raise RulesError(msg("there is no round {round}: a game has rounds 1 to 11", "T7",
                             round=round_number))
    return rules, rules.contract(round_number)


def whole_number(name: str, value: object, none_too: bool = False) -> None:
    """Refuse (`RulesError`) a count given to the solver that is not a whole number."""
    if value is None and none_too:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(msg("{field} must be a whole number, not {value!r}", None,
                             field=name, value=value))


class Book:
    """The H1/H7/H8 switches of a `Rules`, as the numbers the searches use."""

    __slots__ = ("max_rooks", "ratio", "run_need", "set_need", "needs", "contiguous",
                 "same_sets", "extras")

    def __init__(self, rules: Rules) -> None:
        self.max_rooks = NONE if rules.max_rooks_per_meld is None else rules.max_rooks_per_meld
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


_BOOKS: Final[dict[int, tuple[Rules, Book]]] = {}
_DEFAULT_BOOK: Final = Book(DEFAULT_RULES)


def book_for(rules: Rules | None) -> Book:
    """The `Book` of these rules (of the default rules for None), made once per `Rules`."""
    if rules is None or rules is DEFAULT_RULES:
        return _DEFAULT_BOOK
    entry = _BOOKS.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_BOOKS) > 64:
            _BOOKS.clear()
        entry = _BOOKS[id(rules)] = (rules, Book(rules))
    return entry[1]


# -- which natural card goes to which meld -------------------------------------------------
Demand = tuple[tuple[int, ...], int, int, int]  # cells, copies per cell, need, most


def allocate(demands: list[Demand], pool: list[int]) -> list[dict[int, int]] | None:
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

    try:
        for i, (_, _, need, _) in enumerate(demands):
            for _ in range(need):
                if not augment(i, set()):
                    return None
        for i, (_, _, need, most) in enumerate(demands):
            for _ in range(most - need):
                if not augment(i, set()):
                    break
        return use
    finally:
        # augment refers to itself, a cycle: unbound, it is freed at once, not by the collector
        augment = None  # type: ignore[assignment]


# -- building the answer -------------------------------------------------------------------
RUN, SET = MeldKind.RUN, MeldKind.SET
CELL_COLOUR: Final[list[Colour | None]] = [COLOURS[c >> 4] for c in range(64)] + [None]


def run_meld(colour_base: int, low: int, high: int, naturals: Iterable[int]) -> Meld:
    """A run of one colour from `low` to `high`: its natural cards (cells), a Rook
    elsewhere."""
    held = set(naturals)
    cards = tuple([CELL_CARD[cell] if cell in held else ROOK
                   for cell in range(colour_base + low, colour_base + high + 1)])
    return Meld(RUN, cards, CELL_COLOUR[colour_base], low)


def set_meld(number: int, naturals: list[int], rooks: int) -> Meld:
    """A set: its natural cards (cells, in colour order) then its Rooks."""
    return Meld(SET, tuple([CELL_CARD[c] for c in naturals]) + (ROOK,) * rooks, None, number)


def cells_of(counts: dict[int, int]) -> list[int]:
    """Counts per cell as a sorted list of cells, one per card."""
    return [cell for cell, n in sorted(counts.items()) for _ in range(n)]


# A plan of minimal melds: runs as (cell of the lowest number, natural cards taken as
# counts per cell), sets as (number, natural cards taken as counts per cell).
Plan = tuple[list[tuple[int, dict[int, int]]], list[tuple[int, dict[int, int]]]]


def check_minimal(runs: list[int], sets: list[int], cnt: list[int], rooks: int,
                   book: Book) -> Plan | None:
    """Can these 4-card runs (cell of their lowest number) and 3-card sets be made from
    the hand with its Rooks, H1 included, sharing the naturals out any way needed?"""
    demands: list[Demand] = [((b, b + 1, b + 2, b + 3), 1, book.run_need, 4) for b in runs]
    demands += [(NUMBER_CELLS[n], 3, book.set_need, 3) for n in sets]
    use = allocate(demands, cnt)
    if use is None:
        return None
    if 4 * len(runs) + 3 * len(sets) - sum(sum(u.values()) for u in use) > rooks:
        return None
    return ([(b, use[i]) for i, b in enumerate(runs)],
            [(n, use[len(runs) + i]) for i, n in enumerate(sets)])
