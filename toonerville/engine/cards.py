"""Cards, their notation and their points.

Owns the card as a value (`Card`: a colour and a number, or the Rook), the notation of
RULES.md (`R5`, `Y14`, `G1`, `B10`, `RK`) with its parser and printer, the shoe of one
deck per player (T1, T2) and card points (T3). A physical card in a game is an index
into the shoe; identical values from different decks are equal `Card`s.
"""

from __future__ import annotations

import random
import re
import reprlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from .errors import NotationError, RulesError
from .messages import N_, msg, translate

LOWEST, HIGHEST = 1, 14
ROOK_INDEX: Final = 56
DECK_SIZE: Final = 57


class Colour(Enum):
    """The four colours, by their notation letter."""

    RED = "R"
    YELLOW = "Y"
    GREEN = "G"
    BLACK = "B"

    @property
    def letter(self) -> str:
        return self.value

    @property
    def title(self) -> str:
        return self.name.capitalize()


#: the colours in card order: `COLOURS.index(c)` is a colour's place (an enum member as a
#: dict key would be hashed by Python code, card by card)
COLOURS: Final[tuple[Colour, ...]] = tuple(Colour)
#: each card's notation by `Card.index` ("R7", "RK"): a move's notation names cards at
#: every move, and an enum's `value` is looked up by Python code each time
_TEXT: Final = [f"{c.value}{n}" for c in COLOURS for n in range(LOWEST, HIGHEST + 1)] + ["RK"]


@dataclass(frozen=True, slots=True, eq=False, init=False)
class Card:
    """A card value: `Card(Colour.RED, 7)` is R7; the Rook is `Card(None, 0)` (`ROOK`)."""

    colour: Colour | None
    number: int
    #: 0..55 colour by colour and low to high, 56 for the Rook: the card's identity as a
    #: value, used for equality, hashing and sorting (cards are compared very often)
    index: int = field(repr=False, compare=False)
    #: is this the Rook? (kept, not worked out: it is asked very often)
    is_rook: bool = field(repr=False, compare=False)
    #: what the card costs left in hand (T3)
    points: int = field(repr=False, compare=False)

    def __init__(self, colour: object, number: object) -> None:
        """Anything may be given: what is no colour or no card number is refused (T1)
        before the card is made."""
        if colour is None:
            if number != 0:
                raise NotationError(msg("the Rook has no number", "T1"))
            object.__setattr__(self, "colour", None)
            object.__setattr__(self, "number", 0)
            object.__setattr__(self, "index", ROOK_INDEX)
            object.__setattr__(self, "is_rook", True)
            object.__setattr__(self, "points", 25)
            return
        if type(number) is not int or not LOWEST <= number <= HIGHEST:
            raise NotationError(
                msg("{number} is not a card number: numbers go from 1 to 14", "T1",
                    number=quote(number))
            )
        if not isinstance(colour, Colour):
            raise NotationError(
                msg("{colour} is not a colour: a card is Red, Yellow, Green or Black, or the "
                    "Rook", "T1", colour=quote(colour)))
        object.__setattr__(self, "colour", colour)
        object.__setattr__(self, "number", number)
        object.__setattr__(self, "index", COLOURS.index(colour) * HIGHEST + number - 1)
        object.__setattr__(self, "is_rook", False)
        object.__setattr__(self, "points", 5 if number <= 9 else 10)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Card and not isinstance(other, Card):
            return NotImplemented
        return self.index == other.index

    def __hash__(self) -> int:
        return self.index

    def __reduce__(self) -> tuple[type[Card], tuple[Colour | None, int]]:
        """A card pickles as its colour and number (the explorer's worker processes send
        cards back; a compiled `Card` is only made through `__init__`)."""
        return Card, (self.colour, self.number)

    @classmethod
    def parse(cls, text: object) -> Card:
        """`Card.parse("R7")`; case and surrounding spaces are forgiven."""
        return _parse_token(text)

    @property
    def name(self) -> str:
        """Spoken name for screen readers: "Red 7", "Rook"."""
        return "Rook" if self.colour is None else f"{self.colour.title} {self.number}"

    @property
    def sort_key(self) -> int:
        """Colour then number, the Rook last."""
        return self.index

    def __str__(self) -> str:
        return _TEXT[self.index]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def _repr_html_(self) -> str:
        from ..pages.render import card_html

        return card_html(self)


ROOK: Final = Card(None, 0)
NATURALS: Final[tuple[Card, ...]] = tuple(
    Card(colour, number) for colour in COLOURS for number in range(LOWEST, HIGHEST + 1)
)
#: every card value by its `index` (0..55 the naturals, 56 the Rook), made once
BY_INDEX: Final[tuple[Card, ...]] = (*NATURALS, ROOK)


def card_of(colour: Colour, number: int) -> Card:
    """The natural card `colour` `number` (1..14) without making a new value."""
    return BY_INDEX[COLOURS.index(colour) * HIGHEST + number - 1]
_BY_TEXT: Final = {str(c): c for c in (*NATURALS, ROOK)}
_TOKEN: Final = re.compile(r"[,\s]+")


def quote(value: object) -> str:
    """A value inside a sentence, cut short (a refusal never quotes a whole long value)."""
    if isinstance(value, int) and value.bit_length() > 64:
        return "<a very long number>"
    text = reprlib.repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def not_a_card(value: object) -> NotationError:
    """The refusal of something given as a card that is neither text nor a `Card`."""
    return NotationError(msg("{value} is not a card: write a card as text, like R7, or give a "
                             "Card", "T1", value=quote(value)))


def not_cards(value: object) -> NotationError:
    """The refusal of something given as a group of cards that is no text and no list."""
    return NotationError(msg("{value} is not a group of cards: write them as text, like "
                             "'R5 R6 RK', or give a list of cards", "T1", value=quote(value)))


def _parse_token(token: object) -> Card:
    if not isinstance(token, str):
        raise not_a_card(token)
    text = token.strip().upper()
    card = _BY_TEXT.get(text)
    if card is not None:
        return card
    if not text:
        raise NotationError(msg("an empty text is not a card", "T1"))
    letter, rest = text[0], text[1:]
    if letter not in "RYGB":
        raise NotationError(
            msg("'{token}' is not a card: a card starts with a colour letter R, Y, G or B, "
                "or is the Rook RK", "T1", token=token.strip())
        )
    if rest.isdigit():
        raise NotationError(
            msg("'{token}' is not a card: numbers go from 1 to 14", "T1", token=token.strip())
        )
    raise NotationError(
        msg("'{token}' is not a card: write a colour letter and a number, like R7 or B14",
            "T1", token=token.strip())
    )


def parse_cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """`parse_cards("R5 R6 RK")` → three cards. Commas or spaces separate cards."""
    given: object = text  # callers may pass anything: checked here, never trusted
    if isinstance(given, str):
        tokens: Iterable[object] = [t for t in _TOKEN.split(given) if t]
    elif isinstance(given, Iterable) and not isinstance(given, (bytes, dict)):
        tokens = given
    else:
        raise not_cards(given)
    return tuple(t if isinstance(t, Card) else _parse_token(t) for t in tokens)


def as_cards(cards: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Accept notation or cards wherever the engine takes a group of cards."""
    return parse_cards(cards)


def format_cards(cards: str | Iterable[str | Card]) -> str:
    """The notation of a group of cards: `"R5 R6 RK"` (cards, or notation to tidy)."""
    return " ".join([_TEXT[c.index] for c in parse_cards(cards)])


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Colour by colour, low to high, Rooks last: how a hand is usually held."""
    return tuple(sorted(cards, key=lambda c: c.sort_key))


def hand_points(cards: str | Iterable[str | Card]) -> int:
    """Points counted against a player for these cards left in hand (T3)."""
    return sum(c.points for c in as_cards(cards))


def deck() -> tuple[Card, ...]:
    """One Rook deck: 1–14 in four colours and one Rook, 57 cards (T1)."""
    return (*NATURALS, ROOK)


def shoe(players: object) -> tuple[Card, ...]:
    """One deck per player (3 to 5), unshuffled, deck after deck (T2)."""
    if type(players) is not int or not 3 <= players <= 5:
        raise RulesError(
            msg("Toonerville Rook is for 3 to 5 players, not {players}", "T2",
                players=quote(players))
        )
    return deck() * players


def shoe_sizes() -> str:
    """How many cards one deck has (T1) and the shoe for 3, 4 and 5 players (T2), a line
    each, in the language in use: "one deck: 57 cards", "3 players: 171 cards in the
    shoe", …"""
    lines = [translate(N_("one deck: {n} cards")).format(n=len(deck()))]
    lines += [translate(N_("{players} players: {n} cards in the shoe")).format(
        players=p, n=len(shoe(p))) for p in (3, 4, 5)]
    return "\n".join(lines)


def shuffled_shoe(players: int, rng: random.Random) -> tuple[Card, ...]:
    """The shoe shuffled with the given seeded generator."""
    cards = list(shoe(players))
    rng.shuffle(cards)
    return tuple(cards)
