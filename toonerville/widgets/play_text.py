"""The sentences of the play app (notebook 07) as HTML: the round line, who holds what,
what to do now, the buy offer, and the key legend (from `keys.keys_html`). Pure functions
of the game (asked through its public API), so a test can read them without a page."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from .. import actions as A
from ..cards import Card
from ..game import Game
from ..messages import Message, _
from ..rules import ROUNDS
from ..scenarios import HUMAN
from ..views import Phase, PlayerView
from .keys import KEYS as KEYS
from .keys import keys_html as keys_html
from .seat_text import offer_tail_html, seats_html


def you(names: Sequence[str]) -> list[str]:
    """The seat names, the human's marked "(you)"."""
    return [_("{name} (you)").format(name=n) if seat == HUMAN else n
            for seat, n in enumerate(names)]


def _and(names: Sequence[str]) -> str:
    return (" " + _("and") + " ").join(names)


def status_html(game: Game, view: PlayerView) -> str:
    """The round, its contract and the dealer."""
    if game.is_over:
        head = _("<b>Game over</b> after {n} rounds").format(n=ROUNDS)
    else:
        head = _("<b>Round {r} of {n}</b> · contract <b>{contract}</b> (T7) · dealer "
                 "{dealer}").format(r=view.round_number, n=ROUNDS,
                                    contract=escape(str(view.contract)),
                                    dealer=escape(game.names[view.dealer]))
    return f'<div class="tr-status-line">{head}</div>'


def still_taken(game: Game, view: PlayerView) -> Card | None:
    """The card taken from the discard pile this turn while the engine still refuses
    its discard (T14): None once it is melded (or laid off)."""
    card = view.taken_this_turn
    if card is None or view.current != HUMAN or card not in view.hand:
        return None
    refusal = game.refusal(A.Discard(HUMAN, card))
    return card if refusal is not None and refusal.message.rule == "T14" else None


def prompt_html(game: Game, view: PlayerView) -> str:
    """What the human should do now, in a sentence with one rule id."""
    if game.is_over:
        first = game.winners
        best = game.totals[first[0]]
        who = _and([game.names[i] for i in first])
        text = _("<b>The game is over:</b> the lowest total wins (T21): {who}, with "
                 "{best}. Click <b>New game</b> to play again.").format(who=escape(who),
                                                                        best=best)
    elif view.phase is Phase.BUY and HUMAN in view.deciders:
        text = _("<b>Your answer:</b> buy the declined discard, or pass (T10).")
    elif view.current != HUMAN:
        text = _("{name} is playing…").format(name=escape(game.names[view.current]))
    elif view.phase is Phase.DRAW:
        top = f" <b>{view.discard_top}</b>" if view.discard_top is not None else ""
        text = _("<b>Your turn:</b> draw from the stock, or take the discard{top} "
                 "(T9).").format(top=top)
    elif view.down[HUMAN]:
        text = _("<b>Your turn:</b> lay off cards that fit melds on the table, then "
                 "select one card and discard it (H9).")
    else:
        text = _("<b>Your turn:</b> lay down {contract} if you can (try <b>Suggest</b>), "
                 "then select one card and discard it (T15).").format(
                     contract=escape(str(view.contract)))
    taken = still_taken(game, view)
    if taken is not None:
        text += " " + _("You took <b>{card}</b> from the discard pile: you may not discard "
                        "it this turn (T14).").format(card=taken)
    return f'<div role="status">{text}</div>'


def others_html(game: Game, view: PlayerView) -> str:
    """Each seat: cards in hand, dealer, down, buys (the seat view's line, `seats_html`)."""
    return seats_html(view, HUMAN, game.is_over)


def offer_html(game: Game, number: int, card: Card, seat: int,
               reason: Message | None) -> str:
    """The buy offer now: which one since your turn, the card, who declined it, what it
    costs (T11), and why it helps you (when the setting offers only those)."""
    head = _("Offer {k}: {name} declines <b>{card}</b>").format(
        k=number, card=card, name=escape(game.names[seat]))
    return (f'<div class="tr-offer-{"odd" if number % 2 else "even"}">'
            f'<span class="tr-offer-number">{head}</span>.'
            f'{offer_tail_html(game.rules, reason)}</div>')


def download_html(data: str) -> str:
    """A link that downloads the saved game (`data`: its JSON, base64)."""
    return (f'<a download="toonerville-game.json" '
            f'href="data:application/json;base64,{data}">{escape(_("Download"))}</a>')
