"""The position of a game, and the settings fixed for the whole game.

Owns `Setup` (what never changes during a game: players, names, rules, turn limit, and
whether the game is a playout's world, which records no events and ends with its round) and
`Position` (everything a move can change, in one place). Physical cards are ids, indices
into the round's `cards`, so two R7s stay two cards (T2, T14). The checks of `turn`,
`buying` and `melding` only read a position; their apply steps change a fresh copy, so
the position before a move is kept whole for `Game.undo` and `Game.position_at`.

`Change` is the apply steps' workbench for one move: the copy being changed, the events
it causes and the game's random generator, whose state is noted before the first
shuffle so that undoing the move puts the shuffle back too; `carry_out` runs one move
that its check has accepted on such a copy.

`Position.view` and `carry_out` are the game's per-decision work, kept here (a compiled
module in the compiled build) and called by `Game` only with values it has checked: the
game stays the one place where what callers hand in is checked.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from ._native import mypyc_attr
from .cards import BY_INDEX, Card
from .errors import CardNotInHandError
from .events import Event, EventKind, Phase
from .melds import Meld
from .messages import msg
from .rules import ROUND_TABLE, Rules
from .views import PlayerView, RoundRecord

#: the longest seat name a game takes (a name is shown on every seat and in every sentence)
MAX_NAME = 100

#: a meld on the table with the ids of its physical cards
Placed = tuple[Meld, tuple[int, ...]]
#: each seat's hand size, whether it is down, and its buys this round (`Position.counts`)
Counts = tuple[tuple[int, ...], tuple[bool, ...], tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class Setup:
    """What is fixed for the whole game. `playout`: a world the strong bot plays one
    round out in (`Game.from_position(playout=True)`): no events are recorded (nobody
    reads them) and the game is over when the round is (nobody plays the next)."""

    players: int
    names: tuple[str, ...]
    rules: Rules
    turn_limit: int | None
    playout: bool = False


#: a position's `_held` before any hand is worked out, by the number of seats
_NOTHING_HELD: Final = tuple((None,) * n for n in range(8))


# copies skip __init__ (`Cls.__new__(Cls)`), which a compiled class allows only so; a
# position holds only values that never point back at it (acyclic: the collector need
# not watch the thousands a game keeps)
@mypyc_attr(allow_interpreted_subclasses=True, acyclic=True)
class Position:
    """Everything that changes during a game, as immutable values (tuples): `copy` shares
    them, and the few methods that change a position replace a field whole, so a
    position once kept (for `undo`, `position_at`, a view) never changes under anyone."""

    __slots__ = ("cards", "round_number", "dealer", "current", "phase", "hands", "stock",
                 "discard", "table", "down_turn", "turn", "taken", "buyers", "buy_turns",
                 "dealt", "restocks", "scores", "records", "swapped", "_melds", "keys",
                 "_counts", "_held")

    def __init__(self, cards: tuple[Card, ...], round_number: int, dealer: int, current: int,
                 phase: Phase, hands: Sequence[Sequence[int]], stock: Sequence[int],
                 discard: Sequence[int], table: Sequence[Sequence[Placed]],
                 down_turn: Sequence[int | None], turn: int = 1,
                 taken: int | None = None, buyers: dict[int, bool | None] | None = None,
                 buy_turns: Sequence[Sequence[int]] | None = None,
                 dealt: tuple[tuple[Card, ...], ...] = (), restocks: int = 0,
                 scores: Sequence[tuple[int, ...]] | None = None,
                 records: Sequence[RoundRecord] | None = None, swapped: int | None = None
                 ) -> None:
        self.cards = cards  # this round's physical cards; an id is an index
        self.keys = tuple(card.index for card in cards)  # each id's card value, as a number
        self.round_number = round_number
        self.dealer = dealer
        self.current = current
        self.phase = phase
        self.hands: tuple[tuple[int, ...], ...] = tuple(tuple(h) for h in hands)
        self.stock: tuple[int, ...] = tuple(stock)  # the top card is the last
        self.discard: tuple[int, ...] = tuple(discard)  # the top card is the last
        self.table: tuple[tuple[Placed, ...], ...] = tuple(tuple(t) for t in table)
        self.down_turn: tuple[int | None, ...] = tuple(down_turn)  # None: not down
        self.turn = turn
        self.taken = taken  # T14: the physical card taken from the discard this turn
        # the buy window's answers; replaced, never changed in place (copies share it)
        self.buyers: dict[int, bool | None] = buyers if buyers is not None else {}
        self.buy_turns: tuple[tuple[int, ...], ...] = (
            tuple(tuple(b) for b in buy_turns) if buy_turns is not None
            else tuple(() for _ in self.hands))
        self.dealt = dealt
        self.restocks = restocks
        self.scores: tuple[tuple[int, ...], ...] = tuple(scores) if scores else ()
        self.records: tuple[RoundRecord, ...] = tuple(records) if records else ()
        self.swapped = swapped  # H12: a Rook swapped out this turn and still in hand
        self._melds: tuple[tuple[Meld, ...], ...] | None = None  # see `melds`
        self._counts: Counts | None = None  # see `counts`
        self._held: tuple[tuple[Card, ...] | None, ...] = _NOTHING_HELD[len(self.hands)]

    def copy(self) -> Position:
        """A position to change, sharing this one's values. Every field is a tuple (or a
        dict replaced whole), so the copy shares them all and a change replaces the one
        field it touches: the position before a move stays whole at the cost of a few
        references, not of a copy of every hand and pile."""
        p = Position.__new__(Position)
        p.cards, p.keys = self.cards, self.keys
        p.round_number, p.dealer = self.round_number, self.dealer
        p.current, p.phase, p.turn, p.taken = self.current, self.phase, self.turn, self.taken
        p.hands, p.stock, p.discard, p.table = self.hands, self.stock, self.discard, self.table
        p.down_turn, p.buyers, p.buy_turns = self.down_turn, self.buyers, self.buy_turns
        p.dealt, p.restocks, p.swapped = self.dealt, self.restocks, self.swapped
        p.scores, p.records, p._melds = self.scores, self.records, self._melds
        p._counts, p._held = self._counts, self._held
        return p

    def put_away(self) -> None:
        """This position is kept only for `undo` and `position_at` now: drop what it worked
        out for readers (hands as cards, the counts, the melds), so that what no later
        position shares is freed at once, not kept for the collector to look over. Asked
        again, it is worked out again."""
        self._melds = None
        self._counts = None
        self._held = _NOTHING_HELD[len(self.hands)]

    # -- changing: only apply steps call these, on their own copy -------------------
    def set_hand(self, seat: int, ids: Iterable[int]) -> None:
        hands = list(self.hands)
        hands[seat] = tuple(ids)
        self.hands, self._counts = tuple(hands), None
        if self._held[seat] is not None:
            held = list(self._held)
            held[seat] = None
            self._held = tuple(held)

    def give(self, seat: int, *ids: int) -> None:
        """Put the physical cards `ids` into `seat`'s hand."""
        self.set_hand(seat, self.hands[seat] + ids)

    def take_away(self, seat: int, *ids: int) -> None:
        """Take the physical cards `ids` out of `seat`'s hand."""
        rest = list(self.hands[seat])
        for i in ids:
            rest.remove(i)
        self.set_hand(seat, rest)

    def pop_discard(self) -> int:
        top, self.discard = self.discard[-1], self.discard[:-1]
        return top

    def push_discard(self, card_id: int) -> None:
        self.discard = (*self.discard, card_id)

    def pop_stock(self) -> int:
        top, self.stock = self.stock[-1], self.stock[:-1]
        return top

    def set_meld(self, ref: tuple[int, int], placed: Placed) -> None:
        """Put `placed` in the place of the meld `ref` (a lay-off, a Rook swap)."""
        owner, index = ref
        table = list(self.table)
        row = list(table[owner])
        row[index] = placed
        table[owner] = tuple(row)
        self.table, self._melds = tuple(table), None

    def add_melds(self, seat: int, placed: Iterable[Placed]) -> None:
        table = list(self.table)
        table[seat] = (*table[seat], *placed)
        self.table, self._melds = tuple(table), None

    def set_down(self, seat: int, turn: int) -> None:
        down = list(self.down_turn)
        down[seat] = turn
        self.down_turn, self._counts = tuple(down), None

    def add_buy_turn(self, seat: int, turn: int) -> None:
        turns = list(self.buy_turns)
        turns[seat] = (*turns[seat], turn)
        self.buy_turns, self._counts = tuple(turns), None

    def answer(self, seat: int, wants: bool) -> None:
        """Note `seat`'s answer in the buy window."""
        self.buyers = {**self.buyers, seat: wants}

    def add_round(self, row: tuple[int, ...], record: RoundRecord) -> None:
        self.scores = (*self.scores, row)
        self.records = (*self.records, record)

    # -- reading --------------------------------------------------------------------
    def hand_cards(self, seat: int) -> tuple[Card, ...]:
        """A seat's hand as card values, worked out once per hand (a copy shares it until
        that seat's hand changes: a seat's views between its turns show one tuple)."""
        found = self._held[seat]
        if found is None:
            c = self.cards
            found = tuple([c[i] for i in self.hands[seat]])
            held = list(self._held)
            held[seat] = found
            self._held = tuple(held)
        return found

    def melds(self) -> tuple[tuple[Meld, ...], ...]:
        """The melds on the table by seat, worked out once per table (a copy shares them
        until a change of the table)."""
        if self._melds is None:
            self._melds = tuple(tuple(m for m, _ in t) for t in self.table)
        return self._melds

    def counts(self) -> Counts:
        """What every view shows of every seat: hand sizes, who is down, buys this round;
        worked out once and shared by copies until a hand, a lay-down or a buy changes."""
        if self._counts is None:
            self._counts = (tuple([len(h) for h in self.hands]),
                            tuple([d is not None for d in self.down_turn]),
                            tuple([len(b) for b in self.buy_turns]))
        return self._counts

    def view(self, setup: Setup, seat: int, deciders: tuple[int, ...]) -> PlayerView:
        """What `seat` may see of this position (`Game.view`, which has checked the seat
        and knows who decides): its own hand, and only the sizes of the others'."""
        c = self.cards
        top = c[self.discard[-1]] if self.discard else None
        down = self.down_turn[seat]
        sizes, is_down, buys = self.counts()
        # the named tuple built as a tuple: its generated __new__ only binds the 20 names
        return _new_view(PlayerView, (
            seat, setup.names, self.round_number, ROUND_TABLE[self.round_number - 1][1],
            self.phase, self.current, self.dealer, deciders,
            self.hand_cards(seat) if self.hands else (),
            sizes, self.melds(), is_down, top, len(self.discard), len(self.stock),
            top if self.phase is Phase.BUY else None,
            c[self.taken] if self.taken is not None and seat == self.current else None,
            buys,
            down is not None and (setup.rules.lay_off_same_turn or down != self.turn),
            self.scores))

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
        preferred = list(dict.fromkeys(i for i in prefer if i is not None and i in hand))
        if len(cards) == 1:  # most moves play one card: look for it, and pool nothing
            want = cards[0].index
            for i in preferred:
                if k[i] == want:
                    return [i]
            for i in hand:
                if k[i] == want:
                    return [i]
        # the physical cards of each card value held, in the order they are to be taken:
        # the preferred ones first, then the others in hand order
        pool: dict[int, list[int]] = {card.index: [] for card in cards}
        for i in preferred:
            if k[i] in pool:
                pool[k[i]].append(i)
        for i in hand:
            if k[i] in pool and i not in preferred:
                pool[k[i]].append(i)
        taken: list[int] = []
        for card in cards:
            ids = pool.get(card.index)
            if not ids:
                held = sum(1 for i in hand if k[i] == card.index)
                if held:
                    raise CardNotInHandError(msg(
                        "you need {k} × {card} for this, but hold only {held}", None,
                        k=sum(1 for x in cards if x == card), card=card, held=held))
                raise CardNotInHandError(msg("you do not hold {card}", None, card=card))
            taken.append(ids.pop(0))
        return taken


# one at a time, holding no cycles: the compiled build reuses a freed one, untracked
@mypyc_attr(acyclic=True, free_list_len=1)
class Change:
    """One move being applied: the position being changed (a copy), the events it causes,
    and the generator's state before its first shuffle."""

    __slots__ = ("setup", "pos", "events", "rng", "rng_before", "action", "quiet")

    def __init__(self, setup: Setup, pos: Position, rng: random.Random,
                 action: str | None) -> None:
        self.setup = setup
        self.pos = pos
        self.events: list[Event] = []
        self.rng = rng
        self.rng_before: tuple[Any, ...] | None = None
        self.action = action  # the move's notation, kept on the events it causes directly
        self.quiet = setup.playout  # a playout's world records no events

    def log(self, kind: EventKind, seat: int | None, cards: tuple[Card, ...] = (),
            by_move: bool = False, **detail: Any) -> None:
        """Record an event; `by_move` marks the one event that is the move itself."""
        if self.quiet:
            return
        if len(cards) == 1:  # a card's own 1-tuple, made once: a game logs thousands
            cards = _ONE_CARD[cards[0].index]
        # the named tuple built as a tuple: its generated __new__ only binds the 7 names
        self.events.append(_new_event(Event, (
            self.pos.round_number, kind, seat, cards, self.action if by_move else None,
            MappingProxyType(detail) if detail else _EMPTY, self.setup.names)))

    def shuffle(self, ids: list[int]) -> None:
        if self.rng_before is None:
            self.rng_before = self.rng.getstate()
        self.rng.shuffle(ids)


def carry_out(setup: Setup, before: Position, rng: random.Random, notation: str | None,
              apply: Callable[[Change, Any, Any], None], action: Any, plan: Any) -> Change:
    """A move that its check has accepted (`plan`), carried out by its apply step on a
    copy of `before`, which stays as it was: the `Change` holds the new position and the
    events. An apply step that fails (a bug) puts the generator back before raising."""
    ch = Change(setup, before.copy(), rng, notation)
    try:
        apply(ch, action, plan)
    except BaseException:
        if ch.rng_before is not None:
            rng.setstate(ch.rng_before)
        raise
    return ch


_EMPTY: Final[Any] = MappingProxyType({})
_ONE_CARD: Final = tuple((card,) for card in BY_INDEX)
_new_event: Final = tuple.__new__  # see `Change.log`
_new_view: Final = tuple.__new__  # see `Position.view`
