"""Does a card help a hand? The engine's answer for "offer me only discards that help".

`discard_helps(view, card, rules)` says whether `card` (a discard another player
declined) would help the player of `view`, and why, in one sentence: it completes the
round's contract, completes or extends a meld the hand holds (a set of three or more,
T5; a run of four or more, T4), or — once the player is down — lays off onto a meld on
the table (H9). A Rook always helps (T6). None: the card does not help.
Pure standard library, like the rest of the engine.
"""

from __future__ import annotations

from .cards import Card
from .melding import lay_off_spots
from .messages import Message, msg
from .rules import Rules
from .solver import find_contract
from .views import PlayerView

#: a run needs this many cards (T4), a set this many (T5)
RUN_LENGTH, SET_SIZE = 4, 3


def _run_through(card: Card, hand: tuple[Card, ...]) -> int:
    """How long the run of `card`'s colour through `card` would be, naturals only."""
    held = {c.number for c in hand if not c.is_rook and c.colour == card.colour}
    low = high = card.number
    while low - 1 in held:
        low -= 1
    while high + 1 in held:
        high += 1
    return high - low + 1


def discard_helps(view: PlayerView, card: Card, rules: Rules) -> Message | None:
    """Why `card` would help the player of `view` (see the module), or None."""
    hand = view.hand
    if view.down[view.seat]:
        if lay_off_spots(card, view.table, view.seat, rules):
            return msg("{card} lays off onto a meld on the table", "H9", card=card)
        return None
    if card.is_rook:
        return msg("{card} is wild: it fits any meld", "T6", card=card)
    round_number = view.round_number
    if find_contract(hand, round_number, rules) is None \
            and find_contract((*hand, card), round_number, rules) is not None:
        return msg("{card} completes your contract", "T7", card=card)
    contract = rules.contract(round_number)
    same = sum(1 for c in hand if not c.is_rook and c.number == card.number)
    if contract.sets and same + 1 >= SET_SIZE:
        return msg("{card} makes a set of {n} with your cards", "T5", card=card,
                   n=same + 1)
    length = _run_through(card, hand)
    if contract.runs and length >= RUN_LENGTH:
        return msg("{card} makes a run of {n} with your cards", "T4", card=card, n=length)
    return None
