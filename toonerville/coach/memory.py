"""What one seat has seen this round, and worlds consistent with it.

Owns `Memory` — a seat's notes taken from the views it is handed, one after another: the
discard pile as far as it was watched (its top at every view, and its size), the cards
other seats were seen to buy, the card this seat drew this turn — and `sample_world`,
which deals the cards the seat cannot see (the others' hands, the stock, the part of
the discard pile never watched) at random, consistently with those notes, and sets the
result up as a `Game` through the engine's own `Game.from_position` and moves.

Nothing here reads a hidden card: the only inputs are `PlayerView`s of the seat itself,
so two games that differ only in cards the seat cannot see give the same notes and,
for the same random generator, the same worlds.

What the notes do not use (yet): which discards another seat declined or took without a
buy window in between (a view shows the pile's top and size only at this seat's own
decisions), so the others' hands are dealt uniformly from the unseen cards apart from
the cards seen bought — unless a world is asked to deal them as players keep them
(`sample_world`'s `kept`: each seat not yet down is dealt a few cards more and lets go
of those that help it least toward the contract, as the heuristic bot would have by
its discards; a hand that real players hold is seldom a random one). A pile card noted
wrongly (taken between two views and replaced by a discard of the same size) only makes
a world less likely, never impossible: a note the counts cannot spare is dropped.
"""

from __future__ import annotations

import random
from collections import Counter

from ..engine import actions as A
from ..engine.cards import Card, shoe
from ..engine.events import Phase
from ..engine.game import Game
from ..engine.rules import Rules
from ..engine.views import PlayerView
from ..players.bots import Tally, hand_key

#: the turn limit of a world's playouts (a round that long is scored as it stands)
WORLD_TURN_LIMIT = 200


class Memory:
    """A seat's notes on the round so far (see the module). Feed it every view the seat
    is handed, in order, with `observe`."""

    def __init__(self) -> None:
        self.round_number = 0
        self.seat = -1
        self.pile: list[Card | None] = []  # the discard pile, bottom first; None: not seen
        self.bought: dict[int, list[Card]] = {}  # seat -> cards it was seen to buy
        self.turn_start: tuple[Card, ...] | None = None  # this seat's hand before its draw
        self._last: PlayerView | None = None

    def observe(self, view: PlayerView) -> None:
        """Take note of `view` (a view of this seat, later than the last one)."""
        if view.round_number != self.round_number or view.seat != self.seat \
                or (self._last is not None and view.scores != self._last.scores) \
                or _fresh_deal(view, self._last):
            self.__init__()  # type: ignore[misc]  # a new round: notes start afresh
            self.round_number, self.seat = view.round_number, view.seat
        last = self._last
        if last is not None and last.phase is Phase.BUY and last.offered is not None:
            for s, (before, now) in enumerate(zip(last.buys_this_round, view.buys_this_round,
                                                  strict=True)):
                if now > before and s != view.seat:
                    self.bought.setdefault(s, []).append(last.offered)
        self._watch_pile(view)
        if view.phase is Phase.DRAW and view.current == view.seat:
            self.turn_start = view.hand
        elif view.phase is Phase.BUY or view.current != view.seat:
            self.turn_start = None
        self._last = view

    def _watch_pile(self, view: PlayerView) -> None:
        n, top = view.discard_size, view.discard_top
        pile = self.pile
        if n == 0 or top is None:
            self.pile = []
        elif n <= len(pile):
            kept = pile[:n - 1]
            self.pile = [*kept, top]
        else:
            self.pile = [*pile, *[None] * (n - len(pile) - 1), top]

    def drawn(self, view: PlayerView) -> Card | None:
        """The card this seat drew this turn, if the notes say (the one card its hand holds
        beyond its hand before the draw)."""
        if self.turn_start is None:
            return None
        extra = Counter(view.hand)
        extra.subtract(self.turn_start)
        more = [c for c, k in extra.items() if k > 0]
        if len(more) == 1 and extra[more[0]] == 1 and all(k >= 0 for k in extra.values()):
            return more[0]
        return None


def _fresh_deal(view: PlayerView, last: PlayerView | None) -> bool:
    """Does `view` show a round just dealt after `last` showed one under way (a new game
    for a bot that plays another, say): one card turned up, nobody down, every hand of
    one size, no buys?"""
    return last is not None and view.discard_size == 1 and last.discard_size > 1 \
        and not any(view.down) and len(set(view.hand_sizes)) == 1 \
        and not any(view.buys_this_round) and view.phase is Phase.DRAW


def _table_cards(view: PlayerView) -> list[Card]:
    return [c for ms in view.table for m in ms for c in m.cards]


def unseen(view: PlayerView, memory: Memory) -> tuple[Counter[Card], list[Card | None]]:
    """The cards `view.seat` cannot place (a multiset), and the discard pile as noted
    (bottom first, None where not seen; a noted card the counts cannot spare is
    forgotten, so the notes never contradict the table)."""
    pool = Counter(shoe(len(view.names)))
    pool.subtract(view.hand)
    pool.subtract(_table_cards(view))
    pile = list(memory.pile) if memory.round_number == view.round_number else []
    if len(pile) != view.discard_size or (pile and pile[-1] != view.discard_top):
        pile = [None] * max(0, view.discard_size - 1) + \
            ([view.discard_top] if view.discard_top is not None else [])
    kept: list[Card | None] = []
    for c in pile:
        if c is not None and pool[c] > 0:
            pool[c] -= 1
            kept.append(c)
        else:
            kept.append(None)
    if view.discard_top is not None and kept and kept[-1] is None:
        raise ValueError("the discard pile's top card is counted twice")  # a broken view
    return +pool, kept


def sample_world(view: PlayerView, rules: Rules, memory: Memory, rng: random.Random,
                 playout: bool = False, kept: int = 0, shift: int = 0
                 ) -> tuple[Game, int]:
    """A game as it might stand now, seen from `view.seat`: the seat's own cards, the
    table and the watched pile as they are, every other card dealt at random (the cards
    another seat was seen to buy stay in its hand where the counts allow). Returns the
    game and the moves that lead to `view`'s decision (the setup's own moves: a draw, a
    buy window), so that `position_at` of that number is the decision itself. `playout`:
    the game is a playout's world (`Game.from_position(playout=True)`: no history, over
    when the round is), for a playout that reads only the round's scores. `kept`: the
    others' hands are dealt as players keep them (see the module): each seat not down
    is dealt up to `kept` cards more (no more than the turns each seat has had this
    round, roughly: the pile's size over the seats) and lets go of the ones that help it
    least
    (`Tally.least_useful`, never a card it was seen to buy), which go back among the
    unseen cards at random places; 0 deals them uniformly. `shift`: the unseen stock's
    top `shift` cards are put at its bottom (below 0: its bottom cards on its top), which
    leaves the world as likely as before (the unseen stock is in random order, and one
    fixed reordering of a random order is as random): the same world, for another move,
    with its later draws lined up (`strong.weigh`: after a take, one card fewer is drawn
    from the stock, after a buy one more)."""
    me, n = view.seat, len(view.names)
    pool, pile = unseen(view, memory)
    rest = sorted(pool.elements(), key=lambda c: c.sort_key)
    rng.shuffle(rest)
    bag = Counter(rest)

    def take(card: Card) -> bool:
        if bag[card] > 0:
            bag[card] -= 1
            rest.remove(card)
            return True
        return False

    hands: list[list[Card]] = [[] for _ in range(n)]
    hands[me] = list(view.hand)
    # the current player of a play phase, or of a buy window, holds a card fewer before
    # the draw the world replays (`_lead_in`)
    drawing = view.phase is not Phase.DRAW
    current = view.current
    lead_card: Card | None = None
    if drawing and current == me:
        lead_card = view.taken_this_turn if view.taken_this_turn in view.hand \
            else memory.drawn(view)
        if lead_card is None or lead_card not in view.hand:
            lead_card = view.hand[-1] if view.hand else None
        if lead_card is not None:
            hands[me].remove(lead_card)
    sizes = list(view.hand_sizes)
    for s in range(n):
        if s == me:
            continue
        for card in memory.bought.get(s, [])[:sizes[s]]:
            if take(card):
                hands[s].append(card)
    extra = min(kept, view.discard_size // n)
    for s in range(n):
        if s == me:
            continue
        bought = len(hands[s])  # the cards seen bought come first and stay
        more = 0 if view.down[s] else extra
        while len(hands[s]) < sizes[s] + more and rest:
            hands[s].append(rest.pop())
        while len(hands[s]) > sizes[s]:
            card = Tally(hand_key(hands[s])).least_useful(hands[s][bought:], view.contract)
            del hands[s][hands[s].index(card, bought)]  # not a seen-bought twin of it
            rest.insert(rng.randrange(len(rest) + 1), card)
    filled = [c if c is not None else rest.pop() for c in pile]
    stock = list(rest)  # bottom first
    if shift and stock:
        k = shift % len(stock)
        stock = stock[len(stock) - k:] + stock[:len(stock) - k]
    taken = view.phase is Phase.PLAY and current == me and lead_card is not None \
        and lead_card == view.taken_this_turn
    if lead_card is not None:
        if taken:
            filled.append(lead_card)
        else:
            stock.append(lead_card)
    # from_position lists the stock and the pile from the top down; ours are bottom first
    table = {s: list(ms) for s, ms in enumerate(view.table) if ms}
    game = Game.from_position(
        [list(h) for h in hands], list(reversed(stock)), list(reversed(filled)), table,
        round_number=view.round_number, dealer=view.dealer, current=current, rules=rules,
        seed=rng.randrange(2**31), names=view.names, scores=view.scores,
        turn_limit=WORLD_TURN_LIMIT, playout=playout)
    return game, _lead_in(game, view, taken)


def _lead_in(game: Game, view: PlayerView, taken: bool) -> int:
    """Play the world from its draw phase to `view`'s phase: the draw or the take of the
    current player, the buy window opened (every seat but this one passing), and
    returns the number of moves made."""
    if view.phase is Phase.DRAW:
        return 0
    cur = view.current
    if view.phase is Phase.BUY:
        game.apply(A.Draw(cur))
        # the seats that have answered already (their answers are not shown): passes
        for s in tuple(game.deciders):
            if s not in view.deciders and game.phase is Phase.BUY:
                game.apply(A.Pass(s))
        return game.moves_made
    game.apply(A.TakeDiscard(cur) if taken else A.Draw(cur))
    while game.phase is Phase.BUY:
        game.apply(A.Pass(game.deciders[0]))
    return game.moves_made


