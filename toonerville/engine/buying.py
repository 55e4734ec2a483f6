"""The buy window (T10, T11, T12, H5): who may buy a declined discard, their answers,
and how the window settles.

The window opens when the player whose turn it is declines the top discard and anyone
may buy it. It settles as soon as its outcome is certain: the nearest asker to that
player's left gets the card and a penalty card from the stock (T11, H5 — without one if
even restocking gives none); then the player draws from the stock (T12).
"""

from __future__ import annotations

from typing import Final

from . import actions as A
from .errors import BuyError, WrongPhaseError
from .events import EventKind, Phase
from .messages import Message, msg
from .rounds import draw_for_turn, pop_stock
from .state import Change, Position, Setup


def left_of(seat: int, players: int) -> tuple[int, ...]:
    """The other seats in turn order, starting at `seat`'s left."""
    return _LEFT[players][seat]


_LEFT: Final = {n: tuple(tuple((seat + k) % n for k in range(1, n)) for seat in range(n))
         for n in (3, 4, 5)}


def buy_refusal(s: Position, setup: Setup, seat: int) -> Message | None:
    """Why `seat` may not buy in this turn's buy window (H5), or None."""
    r = setup.rules
    if seat == s.current:
        return msg("it is your own turn: take the discard or draw, you cannot buy", "T10")
    if not r.down_players_may_buy and s.down_turn[seat] is not None:
        return msg("in these house rules a player who is already down may not buy", "H5")
    if r.max_buys_per_round is not None and len(s.buy_turns[seat]) >= r.max_buys_per_round:
        return msg("you have used all {k} buys allowed per round in these house rules",
                   "H5", k=r.max_buys_per_round)
    return None


def buyers(s: Position, setup: Setup) -> tuple[int, ...]:
    """The seats that may buy the discard the current player declines, nearest first."""
    return tuple(seat for seat in left_of(s.current, setup.players)
                 if buy_refusal(s, setup, seat) is None)


def waiting(s: Position, setup: Setup) -> tuple[int, ...]:
    """The seats still to answer in the buy window, nearest to the left first."""
    answers = s.buyers  # a seat that may not buy is not in it (`get` gives False then)
    return tuple([seat for seat in _LEFT[setup.players][s.current]
                  if answers.get(seat, False) is None])


def check_answer(s: Position, setup: Setup, a: A.Buy | A.Pass) -> None:
    if s.phase is not Phase.BUY:
        raise WrongPhaseError(msg("nothing is offered to buy now: a card can be bought only "
                                  "when the player whose turn it is declines the discard",
                                  "T10"))
    if a.seat not in s.buyers:
        raise BuyError(buy_refusal(s, setup, a.seat) or msg("you may not buy this card", "H5"))
    if s.buyers[a.seat] is not None:
        raise BuyError(msg("you have already answered for this card", "T10"))


def apply_answer(ch: Change, a: A.Buy | A.Pass, _plan: None) -> None:
    s = ch.pos
    wants = isinstance(a, A.Buy)
    s.answer(a.seat, wants)
    if wants:
        ch.log(EventKind.BUY_REQUEST, a.seat, (s.cards[s.discard[-1]],), by_move=True)
    else:
        ch.log(EventKind.PASS, a.seat, by_move=True)
    _settle(ch)


def _settle(ch: Change) -> None:
    """Settle the window once its outcome is certain (T10)."""
    s, setup = ch.pos, ch.setup
    winner = None
    for seat in left_of(s.current, setup.players):
        if seat not in s.buyers:
            continue
        answer = s.buyers[seat]
        if answer is None:
            return  # a nearer player has still to answer
        if answer:
            winner = seat
            break
    s.buyers = {}
    if winner is None:
        ch.log(EventKind.NO_BUY, None)
    else:
        card_id = s.pop_discard()
        s.give(winner, card_id)
        s.add_buy_turn(winner, s.turn)
        ch.log(EventKind.BUY, winner, (s.cards[card_id],))
        for _ in range(setup.rules.penalty_cards):
            penalty = pop_stock(ch)
            if penalty is None:
                ch.log(EventKind.NO_PENALTY, winner)
                break
            s.give(winner, penalty)
            ch.log(EventKind.PENALTY, winner, (s.cards[penalty],))
    draw_for_turn(ch)
