"""The sentences of the seat view (`seat.SeatView`) as HTML, from what the seat may see.

Pure functions of a `PlayerView` (and the rules), so a test can read them without a page
and a shared table, which holds no `Game`, can show them: the round line, each seat's
cards and marks, what to do now, and the buy offer (naming the card and who declined it,
what buying costs, and why it helps). Names are the ones the page shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from ..engine import actions as A
from ..engine.cards import Card
from ..engine.events import Phase
from ..engine.messages import Message, _, plural
from ..engine.rules import ROUNDS, Rules
from ..engine.scoring import winners
from ..engine.views import PlayerView


def seat_names(names: Sequence[str], me: int | None) -> list[str]:
    """The seat names, the learner's own marked "(you)"."""
    return [_("{name} (you)").format(name=n) if seat == me else n
            for seat, n in enumerate(names)]


def status_html(view: PlayerView, number: int, watching: bool, finished: bool,
                rounds: int = ROUNDS) -> str:
    """The round (of `rounds`: a game's 11, or a shorter tournament's), its contract, the
    move number and who this page is."""
    who = _("watching") if watching else _("you are {name}, seat {seat}").format(
        name=escape(view.names[view.seat]), seat=view.seat)
    if finished:
        return _("<b>Game over</b> after {n} rounds").format(n=rounds) + f" · {who}"
    return _("Round {r} of {k} · contract: {contract} · move {n} · {who}").format(
        r=view.round_number, k=rounds, contract=escape(str(view.contract)), n=number,
        who=who)


def seats_html(view: PlayerView, me: int | None, finished: bool) -> str:
    """Each seat: cards in hand, dealer, down, buys; the seat to play marked ▶."""
    cells = []
    for seat, name in enumerate(seat_names(view.names, me)):
        marks = []
        if seat == view.dealer:
            marks.append(_("dealer"))
        if view.down[seat]:
            marks.append(_("down") + " ✓")
        if view.buys_this_round[seat]:
            marks.append(_("bought {n}").format(n=view.buys_this_round[seat]))
        playing = seat == view.current and not finished
        extra = "".join(f" · {m}" for m in marks)
        count = plural("{n} card", "{n} cards", view.hand_sizes[seat])
        bold = ";font-weight:bold" if playing else ""
        cells.append(f'<span class="tr-seat-cell{" tr-playing" if playing else ""}" '
                     f'style="margin-inline-end:1.6em{bold}">'
                     f'{"▶ " if playing else ""}<bdi>{escape(name)}</bdi>: {count}{extra}'
                     "</span>")
    return (f'<div class="tr-seats" style="display:flex;flex-wrap:wrap">'
            f'{"".join(cells)}</div>')


def winners_text(names: Sequence[str], totals: Sequence[int]) -> str:
    """Who has the lowest total (T21), joined in the language in use."""
    return (" " + _("and") + " ").join(names[seat] for seat in winners(totals))


def still_taken(view: PlayerView, legal: Sequence[A.Action]) -> Card | None:
    """The card taken from the discard pile this turn that may not be discarded now
    (T14): it is still held and its discard is not among the legal moves."""
    card = view.taken_this_turn
    if card is None or view.current != view.seat or card not in view.hand \
            or view.phase is not Phase.PLAY or not legal:
        return None
    return None if A.Discard(view.seat, card) in legal else card


def prompt_html(view: PlayerView, watching: bool, finished: bool,
                legal: Sequence[A.Action] = ()) -> str:
    """What to do now, in a sentence with one rule id: the learner's own decision (the
    buy window, the draw, the play phase, down or not, the card that may not be
    discarded: T14), whom the table waits for, or who won (T21). `legal` are the seat's
    moves now."""
    if finished:
        best = min(view.totals)
        return _("<b>The game is over:</b> the lowest total wins (T21): {who}, with "
                 "{best}.").format(who=escape(winners_text(view.names, view.totals)),
                                   best=best)
    mine = not watching and view.seat in view.deciders
    if not mine:
        waiting = [view.names[s] for s in view.deciders]
        return escape(_("Waiting for {names}…").format(names=", ".join(waiting)))
    if view.phase is Phase.BUY:
        return escape(_("Your answer: buy the declined discard, or pass?"))
    if view.phase is Phase.DRAW:
        top = f" <b>{view.discard_top}</b>" if view.discard_top is not None else ""
        return _("<b>Your turn:</b> draw from the stock, or take the discard{top} "
                 "(T9).").format(top=top)
    if view.down[view.seat]:
        text = _("<b>Your turn:</b> lay off cards that fit melds on the table, then "
                 "select one card and discard it (H9).")
    else:
        text = _("<b>Your turn:</b> lay down {contract} if you can (try <b>Suggest</b>), "
                 "then select one card and discard it (T15).").format(
                     contract=escape(str(view.contract)))
    taken = still_taken(view, legal)
    if taken is not None:
        text += " " + _("You took <b>{card}</b> from the discard pile: you may not discard "
                        "it this turn (T14).").format(card=taken)
    return text


def offer_html(view: PlayerView, rules: Rules, reason: Message | None,
               number: int | None = None) -> str:
    """The buy offer: which one since your turn (`number`, when the owner counts them),
    the card, who declined it, what buying costs (T11), and why it helps (when the
    learner's setting offers only those)."""
    card, name = view.offered, escape(view.names[view.current])
    if number is None:
        head = _("{name} declines <b>{card}</b>").format(card=card, name=name)
        parity = ""
    else:
        head = _("Offer {k}: {name} declines <b>{card}</b>").format(k=number, card=card,
                                                                  name=name)
        parity = f' tr-offer-{"odd" if number % 2 else "even"}'
    return (f'<div class="tr-offer{parity}"><span class="tr-offer-number">{head}</span>.'
            f'{offer_tail_html(rules, reason)}</div>')


def offer_tail_html(rules: Rules, reason: Message | None) -> str:
    """What follows the card on offer, wherever it is shown: why it helps (when the
    learner's setting offers only those) and what buying costs (T11)."""
    k = rules.penalty_cards
    cost = plural("Buy it? You also take {k} penalty card from the stock (T11).",
                  "Buy it? You also take {k} penalty cards from the stock (T11).", k, k=k)
    why = f' <span class="tr-offer-why">{escape(reason.text)}.</span>' if reason else ""
    return f"{why} {escape(cost)}"
