"""What happened in a game, as data: the phase of a turn, and the events of its history.

Owns `Phase` (who decides what now), `EventKind` (every kind of step a game records, a
player's move or an automatic chore) and `Event`. An event keeps values — the seat, the
cards, the contract, the melds, a score row — never text: its sentence (`event.text`, a
`Message`) is put together only when it is shown, in the language chosen at that moment,
so switching the language re-renders a whole log correctly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum, StrEnum
from types import MappingProxyType
from typing import Any, Final, NamedTuple

from .cards import Card
from .messages import N_, Message


class Phase(Enum):
    """Who decides what now."""

    DRAW = "draw"  # the player whose turn it is: take the discard or draw from the stock
    BUY = "buy"  # the other players: buy the declined discard or pass (T10)
    PLAY = "play"  # the player whose turn it is: lay down, lay off, swap, discard
    GAME_OVER = "game_over"


class EventKind(StrEnum):
    """Every kind of step in a game's history. A `StrEnum`, so `event.kind == "deal"`
    reads as it always did."""

    POSITION = "position"  # a game set up from a given position
    DEAL = "deal"
    BURY = "bury"
    TURN_UP = "turn_up"
    TAKE = "take"
    OFFER = "offer"  # the player declines the discard and the others may buy it
    DECLINE = "decline"  # the player declines the discard and nobody may buy it
    BUY_REQUEST = "buy_request"
    PASS = "pass"
    BUY = "buy"
    PENALTY = "penalty"
    NO_PENALTY = "no_penalty"
    NO_BUY = "no_buy"
    DRAW = "draw"
    RESTOCK = "restock"
    LAY_DOWN = "lay_down"
    LAY_OFF = "lay_off"
    SWAP = "swap"
    DISCARD = "discard"
    OUT = "out"
    TURN_LIMIT = "turn_limit"
    ROUND_END = "round_end"
    SCORES = "scores"
    GAME_OVER = "game_over"


#: The sentence of each kind (English template, rule id). Parameters: `name` (the seat's
#: name), `card` (the first card), and the event's `detail`.
_TEXT: Final[dict[str, tuple[str, str | None]]] = {
    EventKind.POSITION: (N_("Round {r}: a game set up from a given position"), None),
    EventKind.DEAL: (N_("round {r}: {name} deals {k} cards to each player; the contract is "
                     "{contract}"), "T7"),
    EventKind.BURY: (N_("a Rook was turned up: it is buried in the stock and the next card "
                     "turned up"), "H3"),
    EventKind.TURN_UP: (N_("{card} is turned up to start the discard pile"), "T8"),
    EventKind.TAKE: (N_("{name} takes {card} from the discard pile"), "T9"),
    EventKind.OFFER: (N_("{name} declines {card}: the others may buy it"), "T10"),
    EventKind.DECLINE: (N_("{name} draws from the stock"), "T9"),
    EventKind.BUY_REQUEST: (N_("{name} asks to buy {card}"), "T10"),
    EventKind.PASS: (N_("{name} passes"), "T10"),
    EventKind.BUY: (N_("{name} buys {card}"), "T10"),
    EventKind.PENALTY: (N_("{name} also takes a penalty card from the stock"), "T11"),
    EventKind.NO_PENALTY: (N_("the stock is empty: no penalty card to give"), "H6"),
    EventKind.NO_BUY: (N_("nobody buys"), "T10"),
    EventKind.DRAW: (N_("{name} draws from the stock"), "T12"),
    EventKind.RESTOCK: (N_("the stock is empty: the discard pile but its top card becomes the "
                        "new stock"), "H6"),
    EventKind.LAY_DOWN: (N_("{name} lays down {melds}"), "T15"),
    EventKind.LAY_OFF: (N_("{name} lays off {card} onto {meld}"), "H9"),
    EventKind.SWAP: (N_("{name} puts {card} in place of the Rook in {meld}"), "T18"),
    EventKind.DISCARD: (N_("{name} discards {card}"), "T13"),
    EventKind.OUT: (N_("{name} goes out"), "T16"),
    EventKind.TURN_LIMIT: (N_("the turn limit of {k} is reached: the round ends"), None),
    "round_end:stock": (N_("the stock is empty and there is nothing to shuffle: round {r} "
                          "ends"), "H6"),
    EventKind.ROUND_END: (N_("round {r} is over"), "T20"),
    EventKind.SCORES: (N_("scores for round {r}: {row}"), "T20"),
    EventKind.GAME_OVER: (N_("the game is over: lowest total {best}, {who}"), "T21"),
}

_EMPTY: Final[Mapping[str, Any]] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Joined:
    """Values an event keeps together (its melds, a score row, the winners' names),
    printed joined when the sentence is rendered: melds with " / ", a row with spaces."""

    values: tuple[Any, ...]
    joiner: str = " "

    def __str__(self) -> str:
        return self.joiner.join(str(v) for v in self.values)


class Event(NamedTuple):
    """One step of a game's history. `action` is the move's notation for a player's move
    and None for an automatic step (deal, turn-up, restock, scoring); `detail` holds the
    other values the sentence needs (the contract, the melds, a score row …); `names` is
    the table's seat names, shared by every event of a game.

    A named tuple, as `PlayerView` is, rather than a frozen dataclass: a game records an
    event or two at every move, and a tuple is built several times faster, immutable all
    the same (`event._replace(names=...)` makes a changed copy)."""

    round_number: int
    kind: EventKind
    seat: int | None
    cards: tuple[Card, ...] = ()
    action: str | None = None
    detail: Mapping[str, Any] = _EMPTY
    names: tuple[str, ...] = ()

    @property
    def text(self) -> Message:
        """The event's sentence, rendered in the active language when shown."""
        template, rule = _TEXT[self._text_key]
        params: dict[str, Any] = dict(self.detail)
        if self.seat is not None and self.names:
            params.setdefault("name", self.names[self.seat])
        if self.cards:
            params.setdefault("card", self.cards[0])
        seats = self.detail.get("seats")
        if self.kind is EventKind.GAME_OVER and seats and self.names:
            # the winners by the names the event carries now (a shared table's pages
            # give it the names at the end: the learners' own, who holds each seat)
            params["who"] = Joined(tuple(self.names[i] for i in seats), ", ")
        return Message(template, params, rule)

    @property
    def rule(self) -> str | None:
        return _TEXT[self._text_key][1]

    @property
    def _text_key(self) -> str:
        if self.kind is EventKind.ROUND_END and self.detail.get("ended_by") == "stock":
            return "round_end:stock"  # the stock ran out with nothing to shuffle (H6)
        return self.kind

    def __str__(self) -> str:
        return f"R{self.round_number} {self.text}"
