"""The position of a game, and the settings fixed for the whole game.

Owns `Setup` (what never changes during a game: players, names, rules, turn limit) and
`Position` (everything a move can change, in one place). Physical cards are ids, indices
into the round's `cards`, so two R7s stay two cards (T2, T14). The checks of `turn`,
`buying` and `melding` only read a position; their apply steps change a fresh copy, so
the position before a move is kept whole for `Game.undo` and `Game.position_at`.

`Change` is the apply steps' workbench for one move: the copy being changed, the events
it causes and the game's random generator, whose state is noted before the first
shuffle so that undoing the move puts the shuffle back too.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .cards import Card
from .errors import CardNotInHandError
from .events import Event, EventKind, Phase
from .melds import Meld
from .messages import msg
from .rules import Rules
from .views import RoundRecord

#: the longest seat name a game takes (a name is shown on every seat and in every sentence)
MAX_NAME = 100

#: a meld on the table with the ids of its physical cards
Placed = tuple[Meld, tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class Setup:
    """What is fixed for the whole game."""

    players: int
    names: tuple[str, ...]
    rules: Rules
    turn_limit: int | None


class Position:
    """Everything that changes during a game. Lists are owned by one position: `copy`
    makes a position that shares nothing mutable with this one."""

    __slots__ = ("cards", "round_number", "dealer", "current", "phase", "hands", "stock",
                 "discard", "table", "down_turn", "turn", "taken", "buyers", "buy_turns",
                 "dealt", "restocks", "scores", "records", "swapped", "_melds", "keys")

    def __init__(self, cards: tuple[Card, ...], round_number: int, dealer: int, current: int,
                 phase: Phase, hands: list[list[int]], stock: list[int], discard: list[int],
                 table: list[list[Placed]], down_turn: list[int | None], turn: int = 1,
                 taken: int | None = None, buyers: dict[int, bool | None] | None = None,
                 buy_turns: list[list[int]] | None = None,
                 dealt: tuple[tuple[Card, ...], ...] = (), restocks: int = 0,
                 scores: list[tuple[int, ...]] | None = None,
                 records: list[RoundRecord] | None = None, swapped: int | None = None) -> None:
        self.cards = cards  # this round's physical cards; an id is an index
        self.keys = tuple(card.index for card in cards)  # each id's card value, as a number
        self.round_number = round_number
        self.dealer = dealer
        self.current = current
        self.phase = phase
        self.hands = hands
        self.stock = stock  # the top card is the last
        self.discard = discard  # the top card is the last
        self.table = table
        self.down_turn = down_turn  # the turn each seat laid down, None if not down
        self.turn = turn
        self.taken = taken  # T14: the physical card taken from the discard this turn
        self.buyers = buyers if buyers is not None else {}  # the buy window's answers
        self.buy_turns = buy_turns if buy_turns is not None else [[] for _ in hands]
        self.dealt = dealt
        self.restocks = restocks
        self.scores = scores if scores is not None else []  # rows are tuples, never changed
        self.records = records if records is not None else []
        self.swapped = swapped  # H12: a Rook swapped out this turn and still in hand
        self._melds: tuple[tuple[Meld, ...], ...] | None = None  # see `melds`

    def copy(self) -> Position:
        """A position sharing nothing mutable with this one (also from a frozen one)."""
        p = Position.__new__(Position)
        p.cards, p.keys = self.cards, self.keys
        p.round_number, p.dealer = self.round_number, self.dealer
        p.current, p.phase, p.turn, p.taken = self.current, self.phase, self.turn, self.taken
        p.hands = [list(h) for h in self.hands]
        p.stock, p.discard = list(self.stock), list(self.discard)
        p.table = [list(t) for t in self.table]
        p.down_turn = list(self.down_turn)
        p.buyers = dict(self.buyers)
        p.buy_turns = [list(b) for b in self.buy_turns]
        p.dealt, p.restocks, p.swapped = self.dealt, self.restocks, self.swapped
        p.scores, p.records = list(self.scores), list(self.records)
        p._melds = None
        return p

    def freeze(self) -> None:
        """Turn this position's lists into tuples, once no move will change it again (a
        position kept for `undo` and `position_at`): a game keeps one per move, and tuples
        of numbers cost the garbage collector nothing, where lists are walked again and
        again. Reading works the same; `copy` gives lists back."""
        self.hands = tuple(tuple(h) for h in self.hands)  # type: ignore[assignment]
        self.stock = tuple(self.stock)  # type: ignore[assignment]
        self.discard = tuple(self.discard)  # type: ignore[assignment]
        self.table = tuple(tuple(t) for t in self.table)  # type: ignore[assignment]
        self.down_turn = tuple(self.down_turn)  # type: ignore[assignment]
        self.buy_turns = tuple(tuple(b) for b in self.buy_turns)  # type: ignore[assignment]
        self.scores = tuple(self.scores)  # type: ignore[assignment]
        self.records = tuple(self.records)  # type: ignore[assignment]

    # -- reading --------------------------------------------------------------------
    def hand_cards(self, seat: int) -> tuple[Card, ...]:
        c = self.cards
        return tuple(c[i] for i in self.hands[seat])

    def melds(self) -> tuple[tuple[Meld, ...], ...]:
        """The melds on the table by seat. Worked out once per position: a position that
        has been read is never changed again (moves change a fresh copy)."""
        if self._melds is None:
            self._melds = tuple(tuple(m for m, _ in t) for t in self.table)
        return self._melds

    def is_down(self, seat: int) -> bool:
        return self.down_turn[seat] is not None

    def totals(self) -> tuple[int, ...]:
        n = len(self.hands)
        return tuple(sum(r[i] for r in self.scores) for i in range(n))

    def pick(self, seat: int, cards: Sequence[Card], prefer: Iterable[int | None] = ()
             ) -> list[int]:
        """The physical cards of `seat`'s hand that would play these card values, those in
        `prefer` first (T14: the card taken from the discard; a swapped-out Rook). Reads
        only; `CardNotInHandError` names the first card the hand does not hold."""
        hand, k = self.hands[seat], self.keys
        preferred = [i for i in prefer if i is not None and i in hand]
        taken: list[int] = []
        for card in cards:
            want = card.index
            pick = next((i for i in preferred if k[i] == want and i not in taken), None)
            if pick is None:
                pick = next((i for i in hand if k[i] == want and i not in taken), None)
            if pick is None:
                held = sum(1 for i in hand if k[i] == want)
                if held:
                    raise CardNotInHandError(msg(
                        "you need {k} × {card} for this, but hold only {held}", None,
                        k=sum(1 for x in cards if x == card), card=card, held=held))
                raise CardNotInHandError(msg("you do not hold {card}", None, card=card))
            taken.append(pick)
        return taken


class Change:
    """One move being applied: the position being changed (a copy), the events it causes,
    and the generator's state before its first shuffle."""

    __slots__ = ("setup", "pos", "events", "rng", "rng_before", "action")

    def __init__(self, setup: Setup, pos: Position, rng: random.Random,
                 action: str | None) -> None:
        self.setup = setup
        self.pos = pos
        self.events: list[Event] = []
        self.rng = rng
        self.rng_before: tuple[Any, ...] | None = None
        self.action = action  # the move's notation, kept on the events it causes directly

    def log(self, kind: EventKind, seat: int | None, cards: tuple[Card, ...] = (),
            by_move: bool = False, **detail: Any) -> None:
        """Record an event; `by_move` marks the one event that is the move itself."""
        self.events.append(Event(
            self.pos.round_number, kind, seat, cards, self.action if by_move else None,
            MappingProxyType(detail) if detail else _EMPTY, self.setup.names))

    def shuffle(self, ids: list[int]) -> None:
        if self.rng_before is None:
            self.rng_before = self.rng.getstate()
        self.rng.shuffle(ids)


_EMPTY: Any = MappingProxyType({})
