"""One seat's view of a game, as a learner at a table sees it: the `SeatView` widget.

Owns the part of the page that a shared table (`classroom.SharedTable`) and a
pass-and-play table (`passplay.PassAndPlay`) have in common: the status line, the
piles, the melds on the table, the prompt, the move buttons, the seat's own hand, the
table's log and the score sheet. It asks nothing of where the game lives: the owner
calls `show(...)` with what the seat may see, and the view hands every move the learner
makes to the owner's `send(action)` (which returns True if the move was played). A
watcher's view (`watching=True`) has no hand and no buttons; `cover()` empties the hand
and hides the buttons, so nothing of a hand stays in the page while the device changes
hands.

Stable hooks for tests are CSS classes: `tr-status`, `tr-piles`, `tr-table`,
`tr-prompt`, `tr-moves`, `tr-hand`, `tr-draw`, `tr-take`, `tr-buy`, `tr-pass`,
`tr-lay-down`, `tr-lay-off`, `tr-discard`, `tr-log`, `tr-score-sheet`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

import ipywidgets as widgets

from .. import actions as A
from ..errors import ToonervilleError
from ..events import Event
from ..messages import N_, _, msg
from ..views import Phase, PlayerView
from .components import EventLog, HandPicker, MessageBox, PilesView, ScoreSheet, TableView

#: the move buttons: (attribute, CSS class, label, tooltip, the action kind it makes)
_BUTTONS = (
    ("buy_button", "tr-buy", N_("Buy"), N_("Buy the declined discard (T10, T11)"), A.Buy),
    ("pass_button", "tr-pass", N_("Pass"), N_("Do not buy it (T10)"), A.Pass),
    ("draw_button", "tr-draw", N_("Draw from stock"),
     N_("Start your turn: draw the top card of the stock (T9)"), A.Draw),
    ("take_button", "tr-take", N_("Take the discard"),
     N_("Start your turn: take the top discard (T9)"), A.TakeDiscard),
    ("lay_down_button", "tr-lay-down", N_("Lay down"),
     N_("Lay down this round's contract as the engine finds it in your hand (T15)"),
     A.LayDown),
    ("lay_off_button", "tr-lay-off", N_("Lay off selected card"),
     N_("Add the selected card to a meld it fits (H9)"), A.LayOff),
    ("discard_button", "tr-discard", N_("Discard selected card"),
     N_("End your turn: discard the one selected card (T13)"), A.Discard),
)


def make_button(label: str, css: str, tooltip: str) -> widgets.Button:
    """A button of the table pages: translated label and tooltip, a CSS hook."""
    button = widgets.Button(description=_(label), tooltip=_(tooltip),
                            layout=widgets.Layout(width="auto"))
    button.add_class(css)
    return button


class SeatView(widgets.VBox):  # type: ignore[misc]
    """What one seat sees, and its move buttons; moves go to `send(action)`.

    `message` is the page's message box (refusals and hints are shown there); `size` is
    the page's size. Buttons are attributes (`draw_button`, `discard_button`, …)."""

    draw_button: widgets.Button
    take_button: widgets.Button
    buy_button: widgets.Button
    pass_button: widgets.Button
    lay_down_button: widgets.Button
    lay_off_button: widgets.Button
    discard_button: widgets.Button

    def __init__(self, send: Callable[[A.Action], bool], message: MessageBox, *,
                 size: str = "normal") -> None:
        self._send_move = send
        self.message = message
        self._legal: list[A.Action] = []
        self._seat: int | None = None
        #: what a click says while no seat is shown (a watcher's page, a covered device)
        self.no_seat = msg("you are watching: join a seat to play", None)
        guard = message.guard
        self.status = widgets.HTML()
        self.status.add_class("tr-status")
        self.piles = PilesView(size=size)
        self.piles.add_class("tr-piles")
        self.table = TableView(size="small" if size == "normal" else "normal")
        self.table.add_class("tr-table")
        self.prompt = widgets.HTML()
        self.prompt.add_class("tr-prompt")
        self.hand = HandPicker(size=size)
        self.hand.add_class("tr-hand")
        buttons = []
        for attribute, css, label, tooltip, kind in _BUTTONS:
            button = make_button(label, css, tooltip)
            setattr(self, attribute, button)
            buttons.append(button)
            if kind in (A.Draw, A.TakeDiscard, A.Buy, A.Pass):
                button.on_click(guard(lambda _b, k=kind: self._simple(k)))
        self.lay_down_button.on_click(guard(lambda _b: self._lay_down()))
        self.lay_off_button.on_click(guard(lambda _b: self._lay_off()))
        self.discard_button.on_click(guard(lambda _b: self._discard()))
        self.moves = widgets.HBox(buttons, layout=widgets.Layout(flex_flow="row wrap"))
        self.moves.add_class("tr-moves")
        self.log_view = EventLog(size=size, limit=10)
        self.log_view.add_class("tr-log")
        self.score_sheet = ScoreSheet(size=size)
        self.score_sheet.add_class("tr-score-sheet")
        super().__init__([self.status, widgets.HBox([self.piles, self.table]), self.prompt,
                          self.moves, self.hand,
                          widgets.HBox([self.log_view, self.score_sheet])])
        self.add_class("tr-seat-view")

    def __repr__(self) -> str:
        return f"SeatView(seat={self._seat!r})"

    # -- showing ---------------------------------------------------------------------
    def show(self, view: PlayerView, *, legal: Sequence[A.Action],
             history: Sequence[Event], number: int, finished: bool,
             watching: bool = False) -> None:
        """Show `view` (the names in it are the ones the page shows) after `number`
        moves; `legal` are the seat's moves now (none while it waits), `history` the
        sentences everyone at the table may read."""
        me = None if watching else view.seat
        self._seat = me
        self._legal = [] if watching or finished else list(legal)
        names = [_("{name} (you)").format(name=n) if seat == me else n
                 for seat, n in enumerate(view.names)]
        who = _("watching") if watching else _("you are {name}, seat {seat}").format(
            name=escape(view.names[view.seat]), seat=view.seat)
        self.piles.update(view)
        self.table.update(view)
        self.score_sheet.update(names, view.scores, None if finished else view.round_number)
        self.log_view.show(history)
        # the hand goes to the page before the prompt and the buttons: a learner who
        # reads "your turn" and clicks a card at once clicks the card the hand holds now
        self.hand.layout.display = "none" if watching else None
        if watching:
            if self.hand.cards:
                self.hand.set_cards(())
        elif tuple(self.hand.cards) != view.hand:
            self.hand.set_cards(view.hand)
        self.prompt.value = escape(self.prompt_text(view, watching, finished))
        kinds = {type(a) for a in self._legal}
        for attribute, _css, _label, _tip, kind in _BUTTONS:
            button = getattr(self, attribute)
            button.disabled = kind not in kinds
            button.button_style = "primary" if kind in kinds else ""
        self.moves.layout.display = "none" if watching else None
        # the status goes last: it carries the move number, so a page that sees it change
        # (a learner, a test) finds every other part of the seat already current
        self.status.value = _(
            "Round {r} of 11 · contract: {contract} · move {k} · {who}").format(
            r=view.round_number, contract=escape(str(view.contract)), k=number, who=who)

    def cover(self) -> None:
        """Take the hand out of the page and the buttons out of reach (the device is
        changing hands); `show` brings them back."""
        self._legal = []
        self._seat = None
        self.hand.set_cards(())
        self.hand.layout.display = "none"
        self.moves.layout.display = "none"
        for attribute, *_rest in _BUTTONS:
            getattr(self, attribute).disabled = True

    @staticmethod
    def prompt_text(view: PlayerView, watching: bool, finished: bool) -> str:
        """The sentence above the buttons: whose decision it is, and what it is."""
        if finished:
            return _("The game at this table is over.")
        waiting = [view.names[s] for s in view.deciders]
        if not watching and view.seat in view.deciders:
            if view.phase == Phase.BUY:
                return _("Your answer: buy the declined discard, or pass?")
            return _("Your turn: draw or take the discard, then discard one card.") \
                if view.phase == Phase.DRAW else _("Your turn: lay down, lay off, or "
                                                  "discard one card.")
        return _("Waiting for {names}…").format(names=", ".join(waiting))

    # -- the moves -------------------------------------------------------------------
    def _me(self) -> int:
        if self._seat is None:
            raise ToonervilleError(self.no_seat)
        return self._seat

    def _simple(self, make: Any) -> None:
        self._send_move(make(self._me()))

    def _one_card(self, what: str) -> Any:
        chosen = self.hand.selected
        if len(chosen) != 1:
            self.message.error(msg("select exactly one card in your hand to {what}, then "
                                   "click again ({n} selected now)", None, what=_(what),
                                   n=len(chosen)))
            return None
        return chosen[0]

    def _discard(self) -> None:
        seat = self._me()
        card = self._one_card(N_("discard"))
        if card is not None:
            self._send_move(A.Discard(seat, card))

    def _lay_down(self) -> None:
        self._me()
        found = [a for a in self._legal if isinstance(a, A.LayDown)]
        if not found:
            self.message.error(msg("there is no lay-down of this round's contract in your "
                                   "hand now", "T15"))
            return
        self._send_move(found[0])

    def _lay_off(self) -> None:
        self._me()
        card = self._one_card(N_("lay off"))
        if card is None:
            return
        found = [a for a in self._legal if isinstance(a, A.LayOff) and a.card == card]
        if not found:
            self.message.error(msg("{card} fits no meld on the table now", "H9", card=card))
            return
        self._send_move(found[0])
