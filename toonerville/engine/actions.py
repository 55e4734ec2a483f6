"""What a player can do, as values with a notation.

Owns the action records (`Draw`, `TakeDiscard`, `Buy`, `Pass`, `LayDown`, `LayOff`,
`SwapRook`, `Discard`), `validate` (is a value a well-formed move at all? a check of
types and shapes only, made before the game looks at the rules) and the one-line
notation, which is also how a saved game lists its moves: `"2: discard R7"`,
`"1: down R3 R4 R5 R6 / Y7 R7 RK"`, `"3: off RK=R4 on 1.0"` (seat 1's first meld),
`"2: swap R8 from 1.0, off RK=R9 on 0.1"`. Actions are only descriptions; the game
decides whether they are legal. `excerpt` is the short quotation of a value that every
refusal here (and of a saved game) shows instead of the whole value.
"""

from __future__ import annotations

import re
import reprlib
from dataclasses import dataclass
from typing import Any

from .cards import HIGHEST, LOWEST, Card, Colour, parse_cards
from .errors import MalformedActionError, NoSuchSeatError, NotationError
from .melds import Meld, MeldKind, check_meld
from .messages import Message, msg
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
    (`lay_down`, whose melds include the Rook) — or, under H12's switch, neither: the
    Rook is kept in hand to be played later in the turn (`"0: swap Y8 from 1.0, keep"`)."""

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
        if self.lay_off_onto is None:
            return head + "keep"
        return head + f"off {_off(Card(None, 0), self.rook_as)} on {_ref(self.lay_off_onto)}"


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


# -- short quotations --------------------------------------------------------------------
#: the longest quotation of a value a refusal shows
EXCERPT = 40
_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = _REPR.maxlong = EXCERPT
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 4
_REPR.maxlevel = 2


def excerpt(value: object, limit: int = EXCERPT) -> str:
    """A short quotation of any value, for a sentence that shows what was wrong: a text in
    quotes and cut short (`'RRRR…'`), a long list cut, a huge number described, never
    written out."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 120:
        return f"<a number of about {int(value.bit_length() * 0.30103) + 1} digits>"
    if isinstance(value, str):
        return repr(cut(value, limit - 2))
    try:
        text = _REPR.repr(value)
    except Exception:  # a value whose repr fails is still quoted by its type
        text = f"<{type(value).__name__}>"
    return cut(text, limit)


def cut(text: str, limit: int = EXCERPT) -> str:
    """`text` on one line (every run of spaces and line breaks one space), at most `limit`
    characters, ending in "…" where it was cut."""
    if len(text) > 4 * limit:
        text = text[: 4 * limit]
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- is it a move at all? -----------------------------------------------------------------
def _check_seat(seat: object, players: int) -> None:
    if type(seat) is not int:  # bool is an int subclass, and is no seat
        raise MalformedActionError(msg(
            "the seat must be a whole number such as 0, not {value}", None,
            value=excerpt(seat)))
    if not 0 <= seat < players:
        raise NoSuchSeatError(msg("there is no seat {seat}: seats go from 0 to {last}", None,
                                  seat=excerpt(seat), last=players - 1))


def _check_card(card: object, name: str) -> None:
    if not isinstance(card, Card):
        raise MalformedActionError(msg(
            "{name} must be a Card such as Card.parse('R7'), not {value}", None,
            name=name, value=excerpt(card)))


def _check_stands_for(card: object, name: str) -> None:
    """What a Rook is declared as: nothing, or a natural card."""
    if card is None:
        return
    _check_card(card, name)
    assert isinstance(card, Card)
    if card.is_rook:
        raise MalformedActionError(msg(
            "{name} says which natural card a Rook stands for, so it cannot be the Rook",
            None, name=name))


def _check_ref(ref: object, name: str, players: int) -> None:
    if not (type(ref) is tuple and len(ref) == 2 and type(ref[0]) is int
            and type(ref[1]) is int and ref[1] >= 0):
        raise MalformedActionError(msg(
            "{name} must name a meld as (seat, meld number), such as (1, 0), not {value}",
            None, name=name, value=excerpt(ref)))
    if not 0 <= ref[0] < players:
        raise NoSuchSeatError(msg("there is no seat {seat}: seats go from 0 to {last}", None,
                                  seat=excerpt(ref[0]), last=players - 1))


def _check_melds(melds: object, name: str) -> None:
    if type(melds) is not tuple or not melds:
        raise MalformedActionError(msg(
            "{name} must be a tuple of one or more melds, such as "
            "(Meld.parse('R3 R4 R5 R6'),), not {value}", None, name=name,
            value=excerpt(melds)))
    for meld in melds:
        if not _meld_shaped(meld):
            raise MalformedActionError(msg(
                "{value} in {name} is not a meld: make one with Meld.parse('R3 R4 R5 R6')",
                None, name=name, value=excerpt(meld)))


def _meld_shaped(meld: object) -> bool:
    """A `Meld` whose parts have the right types and whose numbers stay within 1..14, so
    that it can be written down (whether it is a valid meld is the rules' question)."""
    if not (isinstance(meld, Meld) and type(meld.cards) is tuple and meld.cards
            and all(isinstance(c, Card) for c in meld.cards) and type(meld.low) is int):
        return False
    if meld.kind is MeldKind.SET:
        return LOWEST <= meld.low <= HIGHEST
    return (meld.kind is MeldKind.RUN and isinstance(meld.colour, Colour)
            and meld.low >= LOWEST and meld.low + len(meld.cards) - 1 <= HIGHEST)


def _seat_only(action: Any, players: int) -> None:
    seat = action.seat
    if seat.__class__ is not int or not 0 <= seat < players:  # every move asks: the
        _check_seat(seat, players)  # plain case is answered here, the refusal there


def _lay_down(action: LayDown, players: int) -> None:
    _check_seat(action.seat, players)
    _check_melds(action.melds, "melds")


def _lay_off(action: LayOff, players: int) -> None:
    _check_seat(action.seat, players)
    _check_card(action.card, "card")
    _check_ref(action.onto, "onto", players)
    _check_stands_for(action.as_card, "as_card")
    if action.as_card is not None and not action.card.is_rook:
        raise MalformedActionError(msg(
            "as_card is only for a Rook: {card} stands for itself", None, card=action.card))


def _swap(action: SwapRook, players: int) -> None:
    _check_seat(action.seat, players)
    _check_card(action.natural, "natural")
    _check_ref(action.source, "source", players)
    if action.lay_off_onto is not None and action.lay_down is not None:
        raise MalformedActionError(msg(
            "a Rook swap plays the Rook once: give lay_off_onto or lay_down, not both",
            None))
    if action.lay_off_onto is None and action.lay_down is None:
        if action.rook_as is not None:
            raise MalformedActionError(msg(
                "rook_as goes with lay_off_onto: a Rook kept in hand stands for nothing yet",
                None))
        return  # the Rook is kept in hand for later in the turn (H12; the game checks)
    if action.lay_down is not None:
        _check_melds(action.lay_down, "lay_down")
        if action.rook_as is not None:
            raise MalformedActionError(msg(
                "rook_as goes with lay_off_onto: in a lay-down the meld says what the Rook "
                "stands for", None))
    else:
        _check_ref(action.lay_off_onto, "lay_off_onto", players)
        _check_stands_for(action.rook_as, "rook_as")


def _discard(action: Discard, players: int) -> None:
    seat = action.seat
    if seat.__class__ is not int or not 0 <= seat < players:  # see `_seat_only`
        _check_seat(seat, players)
    if action.card.__class__ is not Card:
        _check_card(action.card, "card")


_CHECKS: dict[type, Any] = {
    Draw: _seat_only, TakeDiscard: _seat_only, Buy: _seat_only, Pass: _seat_only,
    LayDown: _lay_down, LayOff: _lay_off, SwapRook: _swap, Discard: _discard,
}


def validate(action: object, players: int) -> None:
    """Refuse a value that is not a well-formed move before any rule is asked: a seat that
    is not a whole number (`Buy(seat=False)`), a card that is not a `Card`, melds that are
    not `Meld` values, a meld reference that is not two numbers (`MalformedActionError`),
    or a seat that is not at a table of `players` (`NoSuchSeatError`). Only types and
    shapes are looked at, so it is cheap enough to run before every move."""
    check = _CHECKS.get(type(action))
    if check is None:
        raise MalformedActionError(msg(
            "{value} is not a move: a move is a Draw, TakeDiscard, Buy, Pass, LayDown, "
            "LayOff, SwapRook or Discard", None, value=excerpt(action)))
    check(action, players)


# -- notation -----------------------------------------------------------------------------
#: the longest move line read: a lay-down of a whole five-deck shoe (285 cards, each
#: written like "RK=R14") needs about 2,300 characters
MAX_LINE = 4000
#: the longest word of a move line: a card with its declaration ("RK=R14") or a meld
#: reference ("1.12") is far shorter
_MAX_WORD = 16
_WORDS = re.compile(r"[^\s,/]+")
_HEAD = re.compile(r"(\d)\s*:\s*(\w+)(?:\s+(.*))?")
_OFF = re.compile(r"(\S+)\s+on\s+(\d)\.(\d{1,4})")
_SWAP = re.compile(r"(\S+)\s+from\s+(\d)\.(\d{1,4})\s*,\s*(down|off|keep)\s*(.*)")


def _bad(text: str, why: Message) -> NotationError:
    return NotationError(msg("'{text}' is not an action: {why}", None, text=cut(text),
                             why=why))


def _melds(line: str, text: str, rules: Rules | None) -> tuple[Meld, ...]:
    parts = [part.strip() for part in text.split("/")]
    if not text.strip() or any(not p for p in parts):
        raise _bad(line, msg("name the melds, separated by '/', like "
                             "'down R3 R4 R5 R6 / Y7 R7 RK'"))
    return tuple(check_meld(part, rules).meld_or_raise() for part in parts)


def _one_card(line: str, text: str) -> Card:
    cards = parse_cards(text)
    if len(cards) != 1:
        raise _bad(line, msg("name exactly one card, not {n}", None, n=len(cards)))
    return cards[0]


def _card_as(line: str, text: str) -> tuple[Card, Card | None]:
    if text.upper().startswith("RK="):
        return Card(None, 0), _one_card(line, text[3:])
    return _one_card(line, text), None


def _read_line(text: object) -> str:
    """The line stripped, or a `NotationError` if it is no single short line of text."""
    if not isinstance(text, str):
        raise NotationError(msg("a move is a line of text such as '2: discard R7', not "
                                "{value}", None, value=excerpt(text)))
    if len(text) > MAX_LINE:
        raise NotationError(msg("this move line has {n} characters; no move needs more than "
                                "{limit}", None, n=len(text), limit=MAX_LINE))
    line = text.strip()
    if "\n" in line or "\r" in line:
        raise _bad(line, msg("write one move per line"))
    for word in _WORDS.finditer(line):
        if len(word.group()) > _MAX_WORD:
            raise _bad(line, msg("'{word}' is too long to be a card or a word of a move",
                                 None, word=cut(word.group(), 20)))
    return line


def parse_action(text: str, rules: Rules | None = None) -> Action:
    """The action a line of notation describes (the inverse of `action.notation()`).
    Text that is not a move raises `NotationError`, a lay-down meld that is no run or set
    `InvalidMeldError` (with its rule); nothing else, whatever the text."""
    line = _read_line(text)
    m = _HEAD.fullmatch(line)
    if not m:
        raise _bad(line, msg("write the seat, a colon and the move, like '2: discard R7'"))
    seat, verb, rest = int(m.group(1)), m.group(2).lower(), m.group(3) or ""
    simple: dict[str, type[Draw | TakeDiscard | Buy | Pass]] = {
        "draw": Draw, "take": TakeDiscard, "buy": Buy, "pass": Pass}
    if verb in simple:
        if rest:
            raise _bad(line, msg("'{verb}' takes nothing after it", None, verb=verb))
        return simple[verb](seat)
    if verb == "discard":
        if not rest:
            raise _bad(line, msg("name the card to discard"))
        return Discard(seat, _one_card(line, rest))
    if verb == "down":
        return LayDown(seat, _melds(line, rest, rules))
    if verb == "off":
        o = _OFF.fullmatch(rest)
        if not o:
            raise _bad(line, msg("write 'off CARD on SEAT.MELD', like 'off R9 on 1.0'"))
        card, as_card = _card_as(line, o.group(1))
        return LayOff(seat, card, (int(o.group(2)), int(o.group(3))), as_card)
    if verb == "swap":
        s = _SWAP.fullmatch(rest)
        if not s:
            raise _bad(line, msg("write 'swap CARD from SEAT.MELD, off RK=CARD on SEAT.MELD' "
                             "or 'swap CARD from SEAT.MELD, down MELD / MELD'"))
        natural = _one_card(line, s.group(1))
        source = (int(s.group(2)), int(s.group(3)))
        if s.group(4) == "keep":
            if s.group(5):
                raise _bad(line, msg("'keep' takes nothing after it"))
            return SwapRook(seat, natural, source)
        if s.group(4) == "down":
            return SwapRook(seat, natural, source, lay_down=_melds(line, s.group(5), rules))
        o = _OFF.fullmatch(s.group(5))
        if not o:
            raise _bad(line, msg("after 'off' write 'RK=CARD on SEAT.MELD' or 'RK on SEAT.MELD'"))
        card, as_card = _card_as(line, o.group(1))
        if not card.is_rook:
            raise _bad(line, msg("after a swap it is the Rook that is laid off"))
        return SwapRook(seat, natural, source, (int(o.group(2)), int(o.group(3))), as_card)
    raise _bad(line, msg("the moves are draw, take, buy, pass, down, off, swap and discard"))
