"""The chores of a round that are nobody's decision: dealing, drawing for the player
whose turn it is, restocking, passing the turn, going out and scoring.

Owns H6 (an empty stock is restocked from the discard pile, or the round ends), T16
(going out ends the round), T20 (the score row), T21 (the game ends after round 11; a
playout's world, `Setup.playout`, ends after its one round, with no next deal) and the
turn limit that ends a round of bots that never go out. Each chore changes the
`Change`'s position and records its events; none of them can refuse.
"""

from __future__ import annotations

from .cards import shoe
from .deal import deal
from .events import EventKind, Joined, Phase
from .rules import ROUNDS, Restock
from .scoring import round_scores, winners
from .state import Change, Position
from .views import RoundRecord


def start_round(ch: Change, round_number: int, dealer: int, order: list[int]) -> None:
    """Deal round `round_number` from the shoe's `order` (top first) into a new position,
    keeping the score sheet (T7, T8, H3)."""
    setup, old = ch.setup, ch.pos
    n = setup.players
    cards = shoe(n)
    d = deal(order, cards, n, round_number, dealer, setup.rules)
    ch.pos = pos = Position(
        cards, round_number, dealer, (dealer + 1) % n, Phase.DRAW,
        d.hands, d.stock, (d.turned_up,), [() for _ in range(n)], (None,) * n,
        dealt=tuple(tuple(cards[i] for i in h) for h in d.hands),
        scores=old.scores, records=old.records)
    ch.log(EventKind.DEAL, dealer, k=setup.rules.deal_size(round_number),
           contract=setup.rules.contract(round_number), r=round_number)
    for rook in d.buried:
        ch.log(EventKind.BURY, None, (cards[rook],))
    ch.log(EventKind.TURN_UP, None, (pos.cards[d.turned_up],))


def pop_stock(ch: Change) -> int | None:
    """The top of the stock, restocking from the discard pile when it is empty (H6);
    None when there is nothing left to restock with."""
    s = ch.pos
    if not s.stock:
        if len(s.discard) <= 1:
            return None
        pile, s.discard = list(s.discard[:-1]), s.discard[-1:]
        if ch.setup.rules.restock is Restock.SHUFFLE:
            ch.shuffle(pile)
            s.stock = tuple(pile)
        else:
            s.stock = tuple(pile[::-1])
        s.restocks += 1
        ch.log(EventKind.RESTOCK, None)
    return s.pop_stock()


def draw_for_turn(ch: Change) -> None:
    """The player whose turn it is draws from the stock (T9, T12); an empty stock with
    nothing to restock ends the round (H6)."""
    s = ch.pos
    card_id = pop_stock(ch)
    if card_id is None:
        end_round(ch, None, "stock")
        return
    s.give(s.current, card_id)
    s.phase = Phase.PLAY
    ch.log(EventKind.DRAW, s.current, (s.cards[card_id],))


def next_turn(ch: Change) -> None:
    s, limit = ch.pos, ch.setup.turn_limit
    s.current = (s.current + 1) % ch.setup.players
    s.phase = Phase.DRAW
    s.taken = None
    s.swapped = None
    s.turn += 1
    if limit is not None and s.turn > limit:
        ch.log(EventKind.TURN_LIMIT, None, k=limit)
        end_round(ch, None, "turn_limit")


def go_out(ch: Change, seat: int) -> None:
    ch.log(EventKind.OUT, seat)
    end_round(ch, seat, "out")


def end_round(ch: Change, went_out: int | None, ended_by: str) -> None:
    """Score the round (T20), then end the game after round 11 (T21) or deal the next
    round, the deal passing to the left (H2)."""
    s, setup = ch.pos, ch.setup
    left = tuple(tuple(s.cards[i] for i in h) for h in s.hands)
    row = round_scores(left, went_out)
    s.add_round(row, RoundRecord(
        round_number=s.round_number, dealer=s.dealer, went_out=went_out,
        ended_by=ended_by, turns=s.turn, dealt=s.dealt, down_turn=tuple(s.down_turn),
        buy_turns=s.buy_turns, points=row, restocks=s.restocks))
    if setup.playout:  # the round is all a playout plays: no events, no next deal
        s.phase = Phase.GAME_OVER
        s.buyers = {}
        return
    # the hands left and the melds on the table, as the round ends: every seat's cards
    # are scored in the open (T20), so a page may show them before the next deal
    ch.log(EventKind.ROUND_END, went_out, r=s.round_number, ended_by=ended_by, left=left,
           table=s.melds())
    ch.log(EventKind.SCORES, None, r=s.round_number, row=Joined(row))
    if s.round_number == ROUNDS:
        s.phase = Phase.GAME_OVER
        s.buyers = {}
        totals = s.totals()
        first = winners(totals)
        # `seats`: the winners, named late by the event's names (the names a page shows
        # at the end, not the ones the table opened with); `who` as they were then
        ch.log(EventKind.GAME_OVER, None, best=totals[first[0]], seats=tuple(first),
               who=Joined(tuple(setup.names[i] for i in first), ", "))
        return
    order = list(range(len(shoe(setup.players))))
    ch.shuffle(order)
    start_round(ch, s.round_number + 1, (s.dealer + 1) % setup.players, order)
