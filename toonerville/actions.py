"""What a player can do, as values with a notation.

Owns the action records (`Draw`, `TakeDiscard`, `Buy`, `Pass`, `LayDown`, `LayOff`,
`SwapRook`, `Discard`) and their one-line notation, which is also how a saved game lists
its moves: `"2: discard R7"`, `"1: down R3 R4 R5 R6 / Y7 R7 RK"`, `"3: off RK=R4 on 1.0"`
(seat 1's first meld), `"2: swap R8 from 1.0, off RK=R9 on 0.1"`. Actions are only
descriptions; the game decides whether they are legal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .cards import Card, parse_cards
from .errors import NotationError
from .melds import Meld, check_meld
from .messages import msg
from .rules import Rules

MeldRef = tuple[int, int]  # (seat that owns the meld, index among that seat's melds)


def _ref(ref: MeldRef) -> str:
    return f"{ref[0]}.{ref[1]}"


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw from the stock, declining the top discard (T9); buying may happen first."""

    seat: int

    def notation(self) -> str:
        return f"{self.seat}: draw"


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take the top card of the discard pile (T9)."""

    seat: int

    def notation(self) -> str:
        return f"{self.seat}: take"


@dataclass(frozen=True, slots=True)
class Buy:
    """Ask to buy the declined discard (T10, T11)."""

    seat: int

    def notation(self) -> str:
        return f"{self.seat}: buy"


@dataclass(frozen=True, slots=True)
class Pass:
    """Do not buy the declined discard."""

    seat: int

    def notation(self) -> str:
        return f"{self.seat}: pass"


@dataclass(frozen=True, slots=True)
class LayDown:
    """Lay down the contract (T15)."""

    seat: int
    melds: tuple[Meld, ...]

    def notation(self) -> str:
        return f"{self.seat}: down " + " / ".join(str(m) for m in self.melds)


@dataclass(frozen=True, slots=True)
class LayOff:
    """Add a card to a meld on the table (H9); a Rook onto a run says what it stands for."""

    seat: int
    card: Card
    onto: MeldRef
    as_card: Card | None = None

    def notation(self) -> str:
        return f"{self.seat}: off {_off(self.card, self.as_card)} on {_ref(self.onto)}"


@dataclass(frozen=True, slots=True)
class SwapRook:
    """Put `natural` in the place of the Rook that stands for it in a run (T18), and play
    the Rook at once: laid off (`lay_off_onto`, `rook_as`) or inside a lay-down
    (`lay_down`, whose melds include the Rook)."""

    seat: int
    natural: Card
    source: MeldRef
    lay_off_onto: MeldRef | None = None
    rook_as: Card | None = None
    lay_down: tuple[Meld, ...] | None = None

    def notation(self) -> str:
        head = f"{self.seat}: swap {self.natural} from {_ref(self.source)}, "
        if self.lay_down is not None:
            return head + "down " + " / ".join(str(m) for m in self.lay_down)
        onto = self.lay_off_onto if self.lay_off_onto is not None else (-1, -1)
        return head + f"off {_off(Card(None, 0), self.rook_as)} on {_ref(onto)}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard a card, ending the turn (T13) or going out (T16)."""

    seat: int
    card: Card

    def notation(self) -> str:
        return f"{self.seat}: discard {self.card}"


Action = Draw | TakeDiscard | Buy | Pass | LayDown | LayOff | SwapRook | Discard


def _off(card: Card, as_card: Card | None) -> str:
    return f"RK={as_card}" if card.is_rook and as_card is not None else str(card)


_HEAD = re.compile(r"^\s*(\d)\s*:\s*(\w+)\s*(.*?)\s*$")
_OFF = re.compile(r"^(\S+)\s+on\s+(\d)\.(\d+)$")
_SWAP = re.compile(r"^(\S+)\s+from\s+(\d)\.(\d+)\s*,\s*(down|off)\s+(.*)$")


def _bad(text: str, why: str) -> NotationError:
    return NotationError(msg("'{text}' is not an action: {why}", None, text=text, why=why))


def _melds(line: str, text: str, rules: Rules | None) -> tuple[Meld, ...]:
    parts = [part.strip() for part in text.split("/")]
    if not text.strip() or any(not p for p in parts):
        raise _bad(line, "name the melds, separated by '/', like 'down R3 R4 R5 R6 / Y7 R7 RK'")
    return tuple(check_meld(part, rules).meld_or_raise() for part in parts)


def _one_card(line: str, text: str) -> Card:
    cards = parse_cards(text)
    if len(cards) != 1:
        raise _bad(line, f"name exactly one card, not {len(cards)}")
    return cards[0]


def _card_as(line: str, text: str) -> tuple[Card, Card | None]:
    if text.upper().startswith("RK="):
        return Card(None, 0), _one_card(line, text[3:])
    return _one_card(line, text), None


def parse_action(text: str, rules: Rules | None = None) -> Action:
    """The action a line of notation describes (the inverse of `action.notation()`)."""
    m = _HEAD.match(text)
    if not m:
        raise _bad(text, "write the seat, a colon and the move, like '2: discard R7'")
    seat, verb, rest = int(m.group(1)), m.group(2).lower(), m.group(3)
    simple: dict[str, type[Draw | TakeDiscard | Buy | Pass]] = {
        "draw": Draw, "take": TakeDiscard, "buy": Buy, "pass": Pass}
    if verb in simple:
        if rest:
            raise _bad(text, f"'{verb}' takes nothing after it")
        return simple[verb](seat)
    if verb == "discard":
        if not rest:
            raise _bad(text, "name the card to discard")
        return Discard(seat, _one_card(text, rest))
    if verb == "down":
        return LayDown(seat, _melds(text, rest, rules))
    if verb == "off":
        o = _OFF.match(rest)
        if not o:
            raise _bad(text, "write 'off CARD on SEAT.MELD', like 'off R9 on 1.0'")
        card, as_card = _card_as(text, o.group(1))
        return LayOff(seat, card, (int(o.group(2)), int(o.group(3))), as_card)
    if verb == "swap":
        s = _SWAP.match(rest)
        if not s:
            raise _bad(text, "write 'swap CARD from SEAT.MELD, off RK=CARD on SEAT.MELD' "
                             "or 'swap CARD from SEAT.MELD, down MELD / MELD'")
        natural = _one_card(text, s.group(1))
        source = (int(s.group(2)), int(s.group(3)))
        if s.group(4) == "down":
            return SwapRook(seat, natural, source, lay_down=_melds(text, s.group(5), rules))
        o = _OFF.match(s.group(5))
        if not o:
            raise _bad(text, "after 'off' write 'RK=CARD on SEAT.MELD' or 'RK on SEAT.MELD'")
        card, as_card = _card_as(text, o.group(1))
        if not card.is_rook:
            raise _bad(text, "after a swap it is the Rook that is laid off")
        return SwapRook(seat, natural, source, (int(o.group(2)), int(o.group(3))), as_card)
    raise _bad(text, "the moves are draw, take, buy, pass, down, off, swap and discard")


def validate(action: object, players: int) -> None:
    """Refuse an action value of the wrong type or shape before anything else reads it
    (`MalformedActionError`), or for a seat that is not at the table (`NoSuchSeatError`).
    Only cheap `isinstance` tests: it runs before every check."""
    from .errors import MalformedActionError, NoSuchSeatError

    if not isinstance(action, _TYPES):
        raise MalformedActionError(msg("{action} is not a move of this game", None,
                                       action=repr(action)[:40]))
    seat = action.seat
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise MalformedActionError(msg("a seat is a whole number, not {seat}", None,
                                       seat=repr(seat)[:40]))
    if not 0 <= seat < players:
        raise NoSuchSeatError(msg("there is no seat {seat}: seats go from 0 to {last}", None,
                                  seat=seat, last=players - 1))


_TYPES = (Draw, TakeDiscard, Buy, Pass, LayDown, LayOff, SwapRook, Discard)
