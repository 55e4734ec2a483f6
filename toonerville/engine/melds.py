"""Runs and sets: what makes a meld, and what may be added to one.

Owns `Meld` (a run or a set on the table, each Rook in a run fixed to the card it stands
for), its notation (`"R5 R6 R7 RK=R8"`, `"Y7 R7 RK"`), and the explaining checks
`is_run`, `is_set` and `check_meld`, which return a `Verdict`: truthy when the cards form
the meld, and always carrying one sentence that says why (T4–T6, H1). It also owns
changing a meld on the table: laying off a card (H9) and the Rook swap (T18, T19).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final

from .cards import (
    COLOURS,
    HIGHEST,
    LOWEST,
    NATURALS,
    ROOK,
    Card,
    Colour,
    format_cards,
    not_a_card,
    not_cards,
    quote,
)
from .errors import (
    InvalidMeldError,
    LayOffError,
    MalformedActionError,
    NotationError,
    RookSwapError,
    RulesError,
)
from .messages import N_, Message, msg, translate
from .rules import Rules

_DEFAULT_RULES: Final = Rules()


class MeldKind(Enum):
    RUN = "run"
    SET = "set"


_RUN, _SET = MeldKind.RUN, MeldKind.SET
_NATURALS: Final = tuple(NATURALS[i * HIGHEST:(i + 1) * HIGHEST] for i in range(len(COLOURS)))


def _natural(colour: Colour, number: int) -> Card:
    """The card of this colour and number (1..14), from the deck's table."""
    return _NATURALS[COLOURS.index(colour)][number - 1]


def _meld_parts(kind: object, cards: object, colour: object, low: object) -> bool:
    """Do these parts have the kinds a `Meld` is made of (a kind, a tuple of cards, a run's
    colour, a number that keeps a run within 1..14)?"""
    if type(cards) is not tuple or not cards or not isinstance(low, int) \
            or isinstance(low, bool):
        return False
    for card in cards:
        if not isinstance(card, Card):
            return False
    if kind is _SET:
        return colour is None and LOWEST <= low <= HIGHEST
    return (kind is _RUN and isinstance(colour, Colour) and low >= LOWEST
            and low + len(cards) - 1 <= HIGHEST)


@dataclass(frozen=True, slots=True, init=False)
class Meld:
    """A valid run or set. For a run, `cards` go from low to high and a Rook's place in
    that order is the card it stands for; `key` is the run's colour or the set's number.

    Make one with `Meld.parse("R5 R6 R7 RK=R8")` or from a `Verdict`; the constructor
    checks only the kinds of its parts (anything may be given; `MalformedActionError`
    otherwise), whether they make a valid meld is for `check_run` / `check_set`.
    """

    kind: MeldKind
    cards: tuple[Card, ...]
    colour: Colour | None  # runs
    low: int  # runs: the number of the first card; sets: the number of every card

    def __init__(self, kind: object, cards: object, colour: object = None,
                 low: object = 0) -> None:
        if not _meld_parts(kind, cards, colour, low):
            raise MalformedActionError(msg(
                "these parts do not make a meld ({value}): make one with "
                "Meld.parse('R3 R4 R5 R6')", None,
                value=quote((kind, cards, colour, low))))
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "colour", colour)
        object.__setattr__(self, "low", low)

    def __reduce__(self) -> tuple[type[Meld], tuple[MeldKind, tuple[Card, ...],
                                                    Colour | None, int]]:
        """Pickled as its fields, made again through `__init__` (as a compiled class is)."""
        return Meld, (self.kind, self.cards, self.colour, self.low)

    @classmethod
    def parse(cls, text: str | Iterable[str | Card], rules: Rules | None = None) -> Meld:
        """The meld that notation describes, or `InvalidMeldError` saying why not."""
        return check_meld(text, rules).meld_or_raise()

    @property
    def is_run(self) -> bool:
        return self.kind is _RUN

    @property
    def number(self) -> int:
        """A set's number."""
        return self.low

    @property
    def high(self) -> int:
        return self.low + len(self.cards) - 1 if self.kind is _RUN else self.low

    @property
    def rooks(self) -> int:
        return [c.colour for c in self.cards].count(None)

    @property
    def naturals(self) -> int:
        return len(self.cards) - self.rooks

    @property
    def points(self) -> int:
        return sum(c.points for c in self.cards)

    def stands_for(self, index: object) -> Card | None:
        """The natural card at a run position (what a Rook there stands for), counted from
        0 for the run's lowest card."""
        if not isinstance(index, int) or isinstance(index, bool):
            raise MalformedActionError(msg(
                "{value} is not a place in a run: places are whole numbers, 0 for its "
                "lowest card", "T6", value=quote(index)))
        return self._at(index)

    def _at(self, index: int) -> Card | None:
        if self.kind is not _RUN:
            return None
        assert self.colour is not None
        number = self.low + index
        if not LOWEST <= number <= HIGHEST:
            return Card(self.colour, number)  # refuses it, saying why
        return _natural(self.colour, number)

    def rook_positions(self) -> tuple[Card, ...]:
        """The cards the Rooks in a run stand for."""
        if self.kind is not _RUN:
            return ()
        cards = self.cards
        for card in cards:  # `ROOK in cards` would call Card.__eq__ for every other card
            if card.is_rook:
                break
        else:
            return ()
        assert self.colour is not None
        colour, low = self.colour, self.low
        return tuple([_natural(colour, low + i) for i, c in enumerate(cards) if c.is_rook])

    def __str__(self) -> str:
        if not self.is_run:
            return format_cards(self.cards)
        return " ".join(f"RK={self._at(i)}" if c.is_rook else str(c)
                        for i, c in enumerate(self.cards))

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"

    def describe(self) -> str:
        """"a run of Red 5–8", "a set of 7s", in the language in use."""
        if self.is_run:
            assert self.colour is not None
            return translate(N_("a run of {colour} {low}–{high}")).format(
                colour=translate(self.colour.title), low=self.low, high=self.high)
        return translate(N_("a set of {n}s")).format(n=self.low)

    def _repr_html_(self) -> str:
        from ..pages.render import meld_html

        return meld_html(self)

    # -- changing a meld on the table ----------------------------------------------
    def fits(self, card: object) -> bool:
        """Could `card` (a `Card` or its notation) be laid off here by its number and
        colour? (A quick test before `lay_off`, which also checks the house rules' Rook
        limits.)"""
        c = card if isinstance(card, Card) else Card.parse(card)
        colour = c.colour
        if self.kind is not _RUN:
            return colour is None or c.number == self.low
        if colour is None:
            return self.low > LOWEST or self.low + len(self.cards) <= HIGHEST
        return colour is self.colour and (c.number == self.low - 1
                                          or c.number == self.low + len(self.cards))

    def lay_off(self, card: object, as_card: object = None,
                rules: Rules | None = None) -> Meld:
        """This meld with `card` added (H9), or `LayOffError` saying why it does not fit.
        A Rook added to a run needs `as_card` (the card it stands for) when both ends
        are open. Cards may be given as notation ("R9")."""
        return self._lay_off(card if isinstance(card, Card) else Card.parse(card),
                             _card_or_none(as_card), rules_or_default(rules))

    def _lay_off(self, card: Card, as_card: Card | None, rules: Rules) -> Meld:
        if as_card is None and not card.is_rook:  # the common case: a natural card that fits
            n, cards = card.number, self.cards
            if self.kind is not _RUN:
                if n == self.low:
                    return Meld(_SET, (*cards, card), None, n)
            elif card.colour is self.colour:
                if n == self.low - 1:
                    return Meld(_RUN, (card, *cards), card.colour, n)
                if n == self.low + len(cards):
                    return Meld(_RUN, (*cards, card), card.colour, self.low)
        if card.is_rook:
            naturals = self.naturals
            if self.rooks + 1 > rules.rooks_allowed(naturals):
                raise LayOffError(msg(
                    "{meld} cannot take another Rook: these house rules allow at most "
                    "{limit} Rooks in it", "H1", meld=str(self),
                    limit=rules.rooks_allowed(naturals)))
        if not self.is_run:
            if not card.is_rook and card.number != self.low:
                raise LayOffError(msg(
                    "{card} does not fit {meld}: a set is all one number", "T5",
                    card=card, meld=self.describe()))
            if as_card is not None and (as_card.is_rook or as_card.number != self.low):
                raise LayOffError(msg(
                    "a Rook added to {meld} stands for a {n}, not {as_card}", "T6",
                    meld=self.describe(), n=self.low, as_card=as_card))
            return Meld(MeldKind.SET, (*self.cards, card), None, self.low)
        assert self.colour is not None
        below = _natural(self.colour, self.low - 1) if self.low > LOWEST else None
        above = _natural(self.colour, self.high + 1) if self.high < HIGHEST else None
        ends = [c for c in (below, above) if c is not None]
        if card.is_rook:
            if as_card is None:
                if len(ends) == 1:
                    as_card = ends[0]
                elif not ends:
                    raise LayOffError(msg(
                        "{meld} already runs from 1 to 14: nothing can be added", "T4",
                        meld=self.describe()))
                else:
                    raise LayOffError(msg(
                        "say which card the Rook stands for on {meld}: {a} or {b}", "H9",
                        meld=self.describe(), a=ends[0], b=ends[1]))
            target = as_card
        else:
            if as_card is not None and as_card != card:
                raise LayOffError(msg(
                    "only a Rook stands for another card; {card} is itself", "T6",
                    card=card))
            target = card
        if target.is_rook or target not in ends:
            if target in self._slots():
                held = self.cards[target.number - self.low]
                if held.is_rook and not card.is_rook:
                    raise LayOffError(msg(
                        "{card} is already in {meld}, played by the Rook: to put it in the "
                        "Rook's place, swap the Rook", "T18", card=card,
                        meld=self.describe()))
            if not ends:
                raise LayOffError(msg(
                    "{meld} already runs from 1 to 14: nothing can be added", "T4",
                    meld=self.describe()))
            raise LayOffError(msg(
                "{card} does not fit {meld}: only {ends} could be added there", "T4",
                card=target, meld=self.describe(), ends=" or ".join(str(e) for e in ends)))
        if target == below:
            return Meld(MeldKind.RUN, (card, *self.cards), self.colour, self.low - 1)
        return Meld(MeldKind.RUN, (*self.cards, card), self.colour, self.low)

    def _slots(self) -> tuple[Card, ...]:
        assert self.colour is not None
        return tuple(Card(self.colour, n) for n in range(self.low, self.high + 1))

    def swap_rook(self, natural: object) -> Meld:
        """This run with `natural` (a `Card` or its notation) put in the place of the Rook
        that stands for it (T18); `RookSwapError` if there is no such Rook, and always for
        a set (T19)."""
        card = natural if isinstance(natural, Card) else Card.parse(natural)
        if not self.is_run:
            raise RookSwapError(msg(
                "a Rook in a set can never be swapped out: it does not stand for one "
                "definite card", "T19"))
        for i, c in enumerate(self.cards):
            if c.is_rook and self._at(i) == card:
                cards = list(self.cards)
                cards[i] = card
                return Meld(MeldKind.RUN, tuple(cards), self.colour, self.low)
        stood = self.rook_positions()
        if not stood:
            raise RookSwapError(msg("{meld} has no Rook to swap", "T18", meld=str(self)))
        raise RookSwapError(msg(
            "the Rook in {meld} stands for {stood}, so only that card can take its place, "
            "not {card}", "T18", meld=str(self), stood=" / ".join(map(str, stood)),
            card=card))


@dataclass(frozen=True, slots=True, init=False)
class Verdict:
    """The answer of a meld check: truthy when valid; `reason` says why either way."""

    ok: bool
    reason: Message
    meld: Meld | None

    def __init__(self, ok: object, reason: object, meld: object = None) -> None:
        """Anything may be given: parts of the wrong kind are refused
        (`MalformedActionError`) before the verdict is made."""
        if type(ok) is not bool or not isinstance(reason, Message) \
                or not (meld is None or isinstance(meld, Meld)):
            raise MalformedActionError(msg(
                "a Verdict is made of True or False, a Message and a Meld or None, not "
                "{value}", None, value=quote((ok, reason, meld))))
        object.__setattr__(self, "ok", ok)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "meld", meld)

    def __reduce__(self) -> tuple[type[Verdict], tuple[bool, Message, Meld | None]]:
        """Pickled as its fields, made again through `__init__`."""
        return Verdict, (self.ok, self.reason, self.meld)

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        return str(self.reason)

    @property
    def rule(self) -> str | None:
        return self.reason.rule

    def meld_or_raise(self) -> Meld:
        if self.meld is None:
            raise InvalidMeldError(self.reason)
        return self.meld

    def __repr__(self) -> str:
        return f"Verdict(ok={self.ok}, reason={str(self.reason)!r})"

    def _repr_html_(self) -> str:
        from ..pages.render import verdict_html

        return verdict_html(self)


# -- notation with declared Rooks ------------------------------------------------------
Token = tuple[Card, Card | None]  # a card and, for a Rook, what it is declared as


def parse_meld_tokens(cards: str | Iterable[str | Card]) -> tuple[Token, ...]:
    """Cards of a proposed meld; a Rook may be written `RK=R8` to declare its card."""
    given: object = cards  # callers may pass anything: checked here, never trusted
    items: Iterable[object]
    if isinstance(given, str):
        items = given.replace(",", " ").split()
    elif isinstance(given, Iterable) and not isinstance(given, (bytes, dict)):
        items = given
    else:
        raise not_cards(given)
    out: list[Token] = []
    for item in items:
        if isinstance(item, Card):
            out.append((item, None))
            continue
        if not isinstance(item, str):
            raise not_a_card(item)
        text = item.strip()
        if "=" in text:
            left, _, right = text.partition("=")
            card = Card.parse(left) if left.strip() else None
            if card is None or not card.is_rook:
                raise NotationError(msg(
                    "'{token}': only the Rook can be declared as another card (RK=R8)",
                    "T6", token=text))
            declared = Card.parse(right) if right.strip() else None
            if declared is None or declared.is_rook:
                raise NotationError(msg(
                    "'{token}': after RK= write the natural card the Rook stands for, "
                    "like RK=R8", "T6", token=text))
            out.append((card, declared))
        else:
            out.append((Card.parse(text), None))
    return tuple(out)


def _card_or_none(value: object) -> Card | None:
    """What a Rook is declared as: nothing, a `Card` or its notation."""
    if value is None or isinstance(value, Card):
        return value
    return Card.parse(value)


def rules_or_default(rules: object) -> Rules:
    """The house rules a check was given: `Rules`, or None for the rulebook's; anything
    else is refused (`RulesError`) before it is used."""
    if rules is None:
        return _DEFAULT_RULES
    if isinstance(rules, Rules):
        return rules
    raise RulesError(msg("{value} is not a set of house rules: give Rules(...), or None for "
                         "the rulebook's", None, value=quote(rules)))


def _fail(template: str, rule: str, **params: object) -> Verdict:
    return Verdict(False, msg(template, rule, **params))


def _rook_limit(naturals: int, rooks: int, rules: Rules, what: str) -> Verdict | None:
    if naturals == 0:
        return _fail("not a {what}: every meld needs at least one natural card, not only "
                     "Rooks", "H1", what=what)
    if rules.max_rooks_per_meld is not None and rooks > rules.max_rooks_per_meld:
        return _fail("not a {what} under these house rules: at most {limit} Rooks in a meld, "
                     "this has {rooks}", "H1", what=what, limit=rules.max_rooks_per_meld,
                     rooks=rooks)
    if rules.rooks_at_most_naturals and rooks > naturals:
        return _fail("not a {what} under these house rules: more Rooks ({rooks}) than natural "
                     "cards ({naturals})", "H1", what=what, rooks=rooks, naturals=naturals)
    return None


def check_run(cards: str | Iterable[str | Card], rules: Rules | None = None) -> Verdict:
    """Is this a run (T4, T6, H1)? The cards may come in any order; a Rook takes the place
    it is declared as (`RK=R8`), or fills a gap, or extends the top (then the bottom)."""
    rules = rules_or_default(rules)
    tokens = parse_meld_tokens(cards)
    shown = " ".join(str(c) if d is None else f"RK={d}" for c, d in tokens)
    if len(tokens) < 4:
        return _fail("not a run: a run needs at least 4 cards, {cards} has {n}", "T4",
                     cards=shown or "this", n=len(tokens))
    naturals = [c for c, _ in tokens if not c.is_rook]
    declared = [d for c, d in tokens if c.is_rook and d is not None]
    free_rooks = sum(1 for c, d in tokens if c.is_rook and d is None)
    failure = _rook_limit(len(naturals), len(tokens) - len(naturals), rules, "run")
    if failure is not None:
        return failure
    colours = sorted({c.colour.title for c in naturals if c.colour}, key=str)
    if len(colours) > 1:
        return _fail("not a run: a run is all one colour, {cards} mixes {colours}", "T4",
                     cards=shown, colours=" and ".join(colours))
    colour = naturals[0].colour
    assert colour is not None
    for d in declared:
        if d.colour is not colour:
            return _fail("not a run: the Rook is declared as {d}, but this run is {colour}",
                         "T6", d=d, colour=colour.title)
    placed = [c.number for c in naturals] + [d.number for d in declared]
    dup = [Card(colour, n) for n, k in Counter(placed).items() if k > 1]
    if dup:
        return _fail("not a run: {card} appears twice, and a run has each number once",
                     "T4", card=dup[0])
    if len(tokens) > HIGHEST:
        return _fail("not a run: a run has at most 14 cards (1 to 14), this has {n}", "T4",
                     n=len(tokens))
    low, high = min(placed), max(placed)
    gaps = high - low + 1 - len(placed)
    if gaps > free_rooks:
        if _wraps(placed, len(tokens)):
            return _fail("not a run: {cards} wraps past 14; 14 is the top and 1 the bottom",
                         "T4", cards=shown)
        span = {"low": Card(colour, low), "high": Card(colour, high), "gaps": gaps}
        if free_rooks == 0:
            return _fail("not a run: from {low} to {high}, {gaps} numbers are missing and "
                         "there is no Rook to fill them", "T4", **span)
        if free_rooks == 1:
            return _fail("not a run: from {low} to {high}, {gaps} numbers are missing and "
                         "there is only one Rook to fill them", "T4", **span)
        return _fail("not a run: from {low} to {high}, {gaps} numbers are missing and "
                     "there are only {rooks} Rooks to fill them", "T4", rooks=free_rooks,
                     **span)
    extra = free_rooks - gaps
    up = min(extra, HIGHEST - high)
    down = extra - up
    if low - down < LOWEST:
        return _fail("not a run: a run has at most 14 cards (1 to 14)", "T4")
    low -= down
    high += up
    by_number = {c.number: c for c in naturals}
    run = tuple(by_number.get(n, ROOK) for n in range(low, high + 1))
    meld = Meld(MeldKind.RUN, run, colour, low)
    if extra and low > LOWEST and (up > 0) and free_rooks:
        other = Card(colour, low - 1)
        reason = msg("a run: {meld}; a Rook at the end could instead stand for {other} — "
                     "declare it as RK={other}", "T6", meld=str(meld), other=other)
    else:
        reason = msg("a run: {meld}", "T4", meld=str(meld))
    return Verdict(True, reason, meld)


def _wraps(numbers: Sequence[int], length: int) -> bool:
    """Would these numbers fit in `length` consecutive places if 14 ran on into 1?"""
    present = set(numbers)
    for start in range(LOWEST, HIGHEST + 1):
        window = {(start - 1 + i) % HIGHEST + 1 for i in range(length)}
        if present <= window:
            return True
    return False


def check_set(cards: str | Iterable[str | Card], rules: Rules | None = None) -> Verdict:
    """Is this a set (T5, T6, H1)? Colours may mix and repeat."""
    rules = rules_or_default(rules)
    tokens = parse_meld_tokens(cards)
    shown = " ".join(str(c) if d is None else f"RK={d}" for c, d in tokens)
    if len(tokens) < 3:
        return _fail("not a set: a set needs at least 3 cards, {cards} has {n}", "T5",
                     cards=shown or "this", n=len(tokens))
    naturals = [c for c, _ in tokens if not c.is_rook]
    failure = _rook_limit(len(naturals), len(tokens) - len(naturals), rules, "set")
    if failure is not None:
        return failure
    numbers = sorted({c.number for c in naturals})
    if len(numbers) > 1:
        return _fail("not a set: a set is all one number, {cards} has {numbers}", "T5",
                     cards=shown, numbers=" and ".join(map(str, numbers)))
    number = numbers[0]
    for _, d in tokens:
        if d is not None and d.number != number:
            return _fail("not a set: the Rook is declared as {d}, but this is a set of {n}s",
                         "T6", d=d, n=number)
    meld = Meld(MeldKind.SET, tuple(c for c, _ in tokens), None, number)
    return Verdict(True, msg("a set: {meld}", "T5", meld=str(meld)), meld)


def is_run(cards: str | Iterable[str | Card], rules: Rules | None = None) -> Verdict:
    """`is_run("B11 B12 B13 B14")` → a truthy verdict; `str(verdict)` explains (T4)."""
    return check_run(cards, rules)


def is_set(cards: str | Iterable[str | Card], rules: Rules | None = None) -> Verdict:
    """`is_set("Y7 R7 RK")` → a truthy verdict; `str(verdict)` explains (T5)."""
    return check_set(cards, rules)


def check_meld(cards: str | Iterable[str | Card], rules: Rules | None = None) -> Verdict:
    """A run or a set, whichever the cards are meant to be: all natural cards of one number
    make a set (unless a Rook is declared as another number), anything else a run."""
    rules = rules_or_default(rules)
    tokens = parse_meld_tokens(cards)
    numbers = {c.number for c, _ in tokens if not c.is_rook}
    declared = {d.number for _, d in tokens if d is not None}
    if len(numbers) <= 1 and declared <= numbers and len(tokens) >= 3:
        return check_set(tokens_to_cards(tokens), rules)
    return check_run([str(c) if d is None else f"RK={d}" for c, d in tokens], rules)


def tokens_to_cards(tokens: Iterable[Token]) -> tuple[Card, ...]:
    return tuple(c for c, _ in tokens)
