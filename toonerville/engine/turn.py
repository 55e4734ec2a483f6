"""A turn's own moves: drawing (T9), taking the discard (T9), discarding (T13, T14, T16,
T17) — each as a check that only reads the position and raises the refusal, and an
apply step that cannot refuse.

Declining the discard (`Draw`) opens the buy window when anyone may buy (`buying`);
otherwise the player draws from the stock at once. A discard passes the turn, or goes
out when it is the player's last card.
"""

from __future__ import annotations

from . import actions as A
from . import buying
from .cards import BY_INDEX, DECK_SIZE, Card
from .errors import (
    CardNotInHandError,
    DiscardError,
    NotYourTurnError,
    RookSwapError,
    WrongPhaseError,
)
from .events import EventKind, Phase
from .messages import msg
from .rounds import draw_for_turn, go_out, next_turn
from .state import Change, Position, Setup


def check_playing(s: Position, setup: Setup, seat: int, what: str) -> None:
    """`seat` may act in the play phase of its own turn (after drawing)."""
    if s.phase is Phase.BUY:
        raise WrongPhaseError(msg(
            "wait: the discard is being offered to buyers, then {name} draws", "T10",
            name=setup.names[s.current]))
    if seat != s.current:
        raise NotYourTurnError(msg("it is {name}'s turn, not {who}'s", "T9",
                                   name=setup.names[s.current], who=setup.names[seat]))
    if s.phase is Phase.DRAW:
        raise WrongPhaseError(msg("draw first: a turn starts by taking the top discard or "
                                  "drawing from the stock, then you may {what}", "T9",
                                  what=what))


def _check_drawing(s: Position, setup: Setup, seat: int) -> None:
    if seat != s.current:
        raise NotYourTurnError(msg("it is {name}'s turn to draw, not {who}'s", "T9",
                                   name=setup.names[s.current], who=setup.names[seat]))


# -- take the discard ----------------------------------------------------------------------
def check_take(s: Position, setup: Setup, a: A.TakeDiscard) -> None:
    _check_drawing(s, setup, a.seat)
    if s.phase is Phase.BUY:
        raise WrongPhaseError(msg(
            "you declined the discard: it is offered to the others now, and you draw "
            "from the stock", "T12"))
    if s.phase is not Phase.DRAW:
        raise WrongPhaseError(msg("you have already drawn this turn", "T9"))
    if not s.discard:
        raise WrongPhaseError(msg("the discard pile is empty: draw from the stock", "T9"))


def apply_take(ch: Change, a: A.TakeDiscard, _plan: None) -> None:
    s = ch.pos
    card_id = s.pop_discard()
    s.give(a.seat, card_id)
    s.taken = card_id
    s.phase = Phase.PLAY
    ch.log(EventKind.TAKE, a.seat, (s.cards[card_id],), by_move=True)


# -- decline it and draw from the stock ----------------------------------------------------
def check_draw(s: Position, setup: Setup, a: A.Draw) -> tuple[int, ...]:
    """The seats that may buy the declined discard (the buy window opens if any)."""
    _check_drawing(s, setup, a.seat)
    if s.phase is not Phase.DRAW:
        raise WrongPhaseError(msg("you have already drawn this turn", "T9"))
    return buying.buyers(s, setup) if s.discard else ()


def apply_draw(ch: Change, a: A.Draw, buyers: tuple[int, ...]) -> None:
    s = ch.pos
    if buyers:
        s.phase = Phase.BUY
        s.buyers = {seat: None for seat in buyers}
        ch.log(EventKind.OFFER, a.seat, (s.cards[s.discard[-1]],), by_move=True)
        return
    ch.log(EventKind.DECLINE, a.seat, by_move=True)
    draw_for_turn(ch)


# -- discard -------------------------------------------------------------------------------
def check_discard(s: Position, setup: Setup, a: A.Discard) -> int:
    """The physical card the discard throws (T13, T14, T16, T17, H12)."""
    seat, card = a.seat, a.card
    check_playing(s, setup, seat, "discard")
    hand, k, want = s.hands[seat], s.keys, card.index
    ids = [i for i in hand if k[i] == want]
    if not ids:
        raise CardNotInHandError(msg("you do not hold {card}", None, card=card))
    if s.swapped is not None and s.swapped in hand:
        raise RookSwapError(msg("play the Rook you swapped out in a meld first: your turn "
                                "cannot end while you hold it", "H12"))
    free = [i for i in ids if i != s.taken]
    if not free:
        raise DiscardError(msg("you took {card} from the discard pile this turn, so you may "
                               "not discard that card (another {card} would be fine)",
                               "T14", card=card))
    if len(hand) == 1:
        if s.down_turn[seat] is None:
            raise DiscardError(msg("you cannot discard your last card before your contract "
                                   "is down", "T16"))
        if not setup.rules.may_go_out_by_discard(s.round_number):
            raise DiscardError(msg("in round 11 nobody goes out by discarding: the whole "
                                   "hand must go down in melds", "T17"))
    return free[0]


def apply_discard(ch: Change, a: A.Discard, card_id: int) -> None:
    s = ch.pos
    s.take_away(a.seat, card_id)
    s.push_discard(card_id)
    ch.log(EventKind.DISCARD, a.seat, (a.card,), by_move=True)
    if not s.hands[a.seat]:
        go_out(ch, a.seat)
    else:
        next_turn(ch)


def discardable(s: Position, setup: Setup, seat: int) -> list[Card]:
    """The distinct cards `seat` may discard now, in card order: what
    `check_discard` allows, worked out once for the whole hand."""
    if s.phase is not Phase.PLAY or seat != s.current:
        return []
    hand, k = s.hands[seat], s.keys
    if s.swapped is not None and s.swapped in hand:
        return []  # H12
    if len(hand) == 1 and (s.down_turn[seat] is None
                           or not setup.rules.may_go_out_by_discard(s.round_number)):
        return []  # T16, T17
    held = [False] * DECK_SIZE  # by card value: the values held, in card order
    taken = s.taken
    for i in hand:
        if i != taken:  # T14
            held[k[i]] = True
    return [BY_INDEX[v] for v in range(DECK_SIZE) if held[v]]
