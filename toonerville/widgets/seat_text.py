"""The sentences of the seat view (`seat.SeatView`) as HTML, from what the seat may see.

Pure functions of a `PlayerView` (and the rules), so a test can read them without a page
and a shared table, which holds no `Game`, can show them: the round line, each seat's
cards and marks, what to do now, and the buy offer (naming the card and who declined it,
what buying costs, and why it helps). Names are the ones the page shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from ..messages import Message, _, plural
from ..rules import ROUNDS, Rules
from ..scoring import winners
from ..views import Phase, PlayerView


def seat_names(names: Sequence[str], me: int | None) -> list[str]:
    """The seat names, the learner's own marked "(you)"."""
    return [_("{name} (you)").format(name=n) if seat == me else n
            for seat, n in enumerate(names)]


def status_html(view: PlayerView, number: int, watching: bool, finished: bool) -> str:
    """The round, its contract, the move number and who this page is."""
    who = _("watching") if watching else _("you are {name}, seat {seat}").format(
        name=escape(view.names[view.seat]), seat=view.seat)
    if finished:
        return _("<b>Game over</b> after {n} rounds").format(n=ROUNDS) + f" · {who}"
    return _("Round {r} of 11 · contract: {contract} · move {k} · {who}").format(
        r=view.round_number, contract=escape(str(view.contract)), k=number, who=who)


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


def prompt_text(view: PlayerView, watching: bool, finished: bool) -> str:
    """The sentence above the buttons: whose decision it is, and what it is."""
    if finished:
        return _("The game at this table is over.")
    if not watching and view.seat in view.deciders:
        if view.phase == Phase.BUY:
            return _("Your answer: buy the declined discard, or pass?")
        if view.phase == Phase.DRAW:
            return _("Your turn: draw or take the discard, then discard one card.")
        return _("Your turn: lay down, lay off, or discard one card.")
    waiting = [view.names[s] for s in view.deciders]
    return _("Waiting for {names}…").format(names=", ".join(waiting))


def prompt_html(view: PlayerView, watching: bool, finished: bool) -> str:
    """`prompt_text` with the winners when the game is over (T21)."""
    text = escape(prompt_text(view, watching, finished))
    if finished:
        text += " " + escape(_("The lowest total wins (T21): {who}.").format(
            who=winners_text(view.names, view.totals)))
    return text


def offer_html(view: PlayerView, rules: Rules, reason: Message | None) -> str:
    """The buy offer: the card, who declined it, what buying costs (T11), and why it
    helps (when the learner's setting offers only those)."""
    card = view.offered
    head = _("{name} declines <b>{card}</b>").format(
        card=card, name=escape(view.names[view.current]))
    return f'<div class="tr-offer"><span>{head}</span>.{offer_tail_html(rules, reason)}</div>'


def offer_tail_html(rules: Rules, reason: Message | None) -> str:
    """What follows the card on offer, wherever it is shown: why it helps (when the
    learner's setting offers only those) and what buying costs (T11)."""
    k = rules.penalty_cards
    cost = plural("Buy it? You also take {k} penalty card from the stock (T11).",
                  "Buy it? You also take {k} penalty cards from the stock (T11).", k, k=k)
    why = f' <span class="tr-offer-why">{escape(reason.text)}.</span>' if reason else ""
    return f"{why} {escape(cost)}"
