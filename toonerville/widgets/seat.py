"""One seat at a table, as a learner sees it: the `SeatView` widget of every table page.

Owns what a learner at a shared table (09's `SharedTable`, a tournament table of 10) and
at a pass-and-play screen (`PassAndPlay`) sees and does: the status line, each seat's
cards and marks, the piles and the melds on the table, the recap at the end of a round
(`recap.RoundRecap`), the prompt, the buy offer (naming the card and who declined it),
draw or take, the hand (sorted, by colour or by number: `hand.SeatHand`), the moves
(Suggest, Lay down, Lay off, the Rook swap, Discard, Take back, Hint), the table's log and the score
sheet, and the buy-offer setting.

It asks nothing of where the game lives: the owner calls `show(...)` with what the seat
may see, and every move the learner makes goes to the owner's `send(action)` (True if
played). Rules knowledge stays in the engine: the legal moves come with `show`, a hint
from `HeuristicBot.explain`, a lay-down from the legal moves (or why not, from
`solver.shortfall`), whether a discard helps from `hints.discard_helps`. Take back is
the owner's (`take_back`, which may refuse and say why); without one the page says why
a move cannot be taken back here. With `send_offers` (shared tables) the buy-offer
setting is shown and each choice goes to the owner, which hands it to the store: the
store answers the declined discards the setting does not offer ("helpful": only a card
that helps; "always"; "never"), so a draw nobody wants needs no click, even while the
learner's page is closed.

A watcher's view (`watching=True`) has no hand and no buttons; `cover()` empties the hand
and hides the buttons, so nothing of a hand stays in the page while the device changes
hands. Stable hooks for tests are CSS classes: `tr-status`, `tr-others`, `tr-piles`,
`tr-table`, `tr-recap`, `tr-prompt`, `tr-buy-row`, `tr-offer`, `tr-moves`, `tr-hand`,
`tr-hand-order`, `tr-draw`, `tr-take`, `tr-buy`, `tr-pass`, `tr-suggest`, `tr-lay-down`,
`tr-lay-off`, `tr-swap`, `tr-discard`, `tr-undo`, `tr-hint`, `tr-buy-offers`, `tr-log`,
`tr-score-sheet`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

import ipywidgets as widgets

from .. import actions as A
from ..bots import HeuristicBot
from ..events import Event
from ..hints import discard_helps
from ..messages import N_, Message, _, msg
from ..rules import Rules
from ..views import Phase, PlayerView
from .base import MessageBox, Part, translated_button
from .board import EventLog, PilesView, ScoreSheet, TableView
from .coach_view import CoachHint
from .hand import HandOrder, SeatHand
from .recap import RoundRecap
from .seat_moves import NO_TAKE_BACK as NO_TAKE_BACK
from .seat_moves import SeatMoves
from .seat_text import offer_html, prompt_html, seat_names, seats_html, status_html
from .seat_text import prompt_text as _prompt_text
from .session import BUY_OFFERS

#: the move buttons: (attribute, CSS class, label, tooltip, the action kind it makes)
_MOVES = (
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
    ("swap_button", "tr-swap", N_("Swap in selected card"),
     N_("Put the selected card in the Rook's place, then play the Rook at once (T18)"),
     A.SwapRook),
    ("discard_button", "tr-discard", N_("Discard selected card"),
     N_("End your turn: discard the one selected card (T13)"), A.Discard),
)
#: the helpers, always at hand while a seat is shown: they answer, or say why not
_HELPERS = (
    ("suggest_button", "tr-suggest", N_("Suggest"),
     N_("Ask the solver for a lay-down of this round's contract")),
    ("undo_button", "tr-undo", N_("Take back"),
     N_("Take back your last move, if nobody has acted since")),
    ("hint_button", "tr-hint", N_("Hint"),
     N_("What would the strong bot do in your place, and what would the other choices "
        "cost?")),
)
def make_button(label: str, css: str, tooltip: str) -> widgets.Button:
    """A button of the table pages (`base.translated_button`, under the name the pages
    know)."""
    return translated_button(label, css, tooltip)


class SeatView(SeatMoves, Part, widgets.VBox):  # type: ignore[misc]
    """What one seat sees, and its moves; moves go to `send(action)`.

    `message` is the page's message box (refusals and hints are shown there); `size` the
    page's size; `take_back()` the owner's take-back (None: the page says why not);
    `countdown` the seconds a round's recap stays (None: until Continue); `send_offers`
    takes the learner's buy-offer setting to the table (None: the setting is not shown,
    every offer is put to the learner). Buttons are attributes
    (`draw_button`, `discard_button`, `hint_button`, …)."""

    draw_button: widgets.Button
    take_button: widgets.Button
    buy_button: widgets.Button
    pass_button: widgets.Button
    lay_down_button: widgets.Button
    lay_off_button: widgets.Button
    swap_button: widgets.Button
    discard_button: widgets.Button
    suggest_button: widgets.Button
    undo_button: widgets.Button
    hint_button: widgets.Button

    def __init__(self, send: Callable[[A.Action], bool], message: MessageBox, *,
                 size: str = "normal", take_back: Callable[[], bool] | None = None,
                 countdown: int | None = None,
                 send_offers: Callable[[str], None] | None = None) -> None:
        super().__init__()
        self.size = size
        self._send_move = send
        self._take_back = take_back
        self._send_offers = send_offers
        self.message = message
        self._legal: list[A.Action] = []
        self._view: PlayerView | None = None
        self._seat: int | None = None
        self.rules = Rules()
        self._helper = HeuristicBot()
        #: what a click says while no seat is shown (a watcher's page, a covered device)
        self.no_seat = msg("you are watching: join a seat to play", None)
        guard = message.guard
        self.status = self._html("tr-status")
        self.others = self._html("tr-others")
        self.piles = PilesView(size=size)
        self.piles.add_class("tr-piles")
        self.table = TableView(size="small" if size == "normal" else "normal")
        self.table.add_class("tr-table")
        self.recap = RoundRecap(size, countdown=countdown, on_close=self._recap_closed)
        self.prompt = self._html("tr-prompt")
        self.offer_text = self._html("tr-offer")
        self.hand = SeatHand(size)
        self.hand_order = HandOrder()
        self.watch(self.hand_order, guard(lambda change: self.hand.reorder(change["new"])))
        self.suggested = self._html("tr-suggested")
        self.coach = CoachHint(size)
        for attribute, css, label, tooltip, *_kind in (*_MOVES, *_HELPERS):
            setattr(self, attribute, translated_button(label, css, tooltip, owner=self))
        for _a, _c, _l, _t, kind in _MOVES[:4]:
            button = getattr(self, _a)
            button.on_click(guard(lambda _b, k=kind: self._simple(k)))
        for button, handler in ((self.lay_down_button, self._lay_down),
                                (self.lay_off_button, self._lay_off),
                                (self.swap_button, self._swap),
                                (self.discard_button, self._discard),
                                (self.suggest_button, self._suggest),
                                (self.undo_button, self.take_back),
                                (self.hint_button, self.hint)):
            button.on_click(guard(lambda _b, h=handler: h()))
        self.buy_offers = self.texts(
            widgets.Dropdown(options=_offer_options(), value="helpful",
                             layout=widgets.Layout(width="auto"),
                             style={"description_width": "initial"}),
            options=_offer_options, description=N_("Offer me a declined discard"))
        self.buy_offers.add_class("tr-buy-offers")
        self.watch(self.buy_offers, guard(lambda change: self.send_offers(change["new"])))
        self.buy_offers.layout.display = None if send_offers else "none"
        self.buy_row = _row([self.offer_text, self.buy_button, self.pass_button],
                            "tr-buy-row")
        self.moves = _row([self.draw_button, self.take_button, self.suggest_button,
                           self.lay_down_button, self.lay_off_button, self.swap_button,
                           self.discard_button,
                           self.undo_button, self.hint_button], "tr-moves")
        self.log_view = EventLog(size=size, limit=10)
        self.log_view.add_class("tr-log")
        self.score_sheet = ScoreSheet(size=size)
        self.score_sheet.add_class("tr-score-sheet")
        self.round_parts = [_row([self.piles, self.table], "tr-seat-board"), self.prompt,
                            self.buy_row, self.moves, _row([self.hand_order], "tr-hand-head"),
                            self.hand, self.suggested, self.coach]
        self.children = [self.status, self.others, self.recap, *self.round_parts,
                         _row([self.log_view, self.score_sheet], "tr-record"),
                         self.buy_offers]
        self.add_class("tr-seat-view")

    def __repr__(self) -> str:
        return f"SeatView(seat={self._seat!r})"

    @staticmethod
    def _html(css: str) -> widgets.HTML:
        html = widgets.HTML()
        html.add_class(css)
        return html

    # -- showing ---------------------------------------------------------------------
    def show(self, view: PlayerView, *, legal: Sequence[A.Action],
             history: Sequence[Event], number: int, finished: bool,
             watching: bool = False, rules: Rules | None = None) -> None:
        """Show `view` (the names in it are the ones the page shows) after `number`
        moves; `legal` are the seat's moves now (none while it waits), `history` the
        sentences everyone at the table may read, `rules` the table's rules."""
        me = None if watching else view.seat
        first = self._view is None
        self._view, self._seat = view, me
        self.rules = rules or self.rules
        self._legal = [] if watching or finished else list(legal)
        if me is not None:
            self.coach.observe_view(view)
        names = seat_names(view.names, me)
        self.piles.update(view)
        self.table.update(dict(zip(names, view.table, strict=True)))
        self.score_sheet.update(names, view.scores, None if finished else view.round_number)
        self.log_view.show(history)
        self.recap.me, self.recap.rules = me, self.rules
        if first:
            self.recap.start(history)
        opened = self.recap.offer(history)
        # the hand goes to the page before the prompt and the buttons: a learner who
        # reads "your turn" and clicks a card at once clicks the card the hand holds now
        self.hand.layout.display = "none" if watching else None
        if watching:
            if self.hand.cards:
                self.hand.show(())
        elif self.hand.held != view.hand:
            # a selection stays while cards only arrive (a draw, a buy); once a card has
            # left the hand (a discard, a lay-down) none is selected, not even its twin
            self.hand.show(view.hand, keep=not Counter(self.hand.held) - Counter(view.hand))
        self.prompt.value = prompt_html(view, watching, finished)
        self._show_offer(view, watching)
        kinds = {type(a) for a in self._legal}
        for attribute, _css, _label, _tip, kind in _MOVES:
            button = getattr(self, attribute)
            button.disabled = kind not in kinds
            button.button_style = "primary" if kind in kinds else ""
        for attribute, *_rest in _HELPERS:
            getattr(self, attribute).disabled = watching or finished
        self.moves.layout.display = "none" if watching else None
        self.suggested.value = ""
        self.others.value = seats_html(view, me, finished)
        self._show_round(not self.recap.shown)
        if opened:
            self.recap.continue_button.focus()
        # the status goes last: it carries the move number, so a page that sees it change
        # (a learner, a test) finds every other part of the seat already current
        self.status.value = status_html(view, number, watching, finished)

    def _show_offer(self, view: PlayerView, watching: bool) -> None:
        offered = not watching and view.phase is Phase.BUY and view.seat in view.deciders \
            and view.offered is not None
        self.buy_row.layout.display = "flex" if offered else "none"
        if offered:
            self.buy_button.description = _("Buy {card}").format(card=view.offered)
            reason = self._reason(view) if self.buy_offers.value == "helpful" else None
            self.offer_text.value = offer_html(view, self.rules, reason)

    def _show_round(self, shown: bool) -> None:
        for part in self.round_parts:
            part.layout.display = None if shown else "none"
        if shown and self._view is not None:
            self._show_offer(self._view, self._seat is None)
        if shown and self._seat is None:  # a watcher (or a covered device): no hand
            for part in (self.moves, self.hand, self.round_parts[4]):
                part.layout.display = "none"

    def _recap_closed(self) -> None:
        self._show_round(True)
        if self._seat is not None and self._view is not None \
                and self._seat in self._view.deciders:
            (self.pass_button if self._view.phase is Phase.BUY else self.draw_button
             if self._view.phase is Phase.DRAW else self.discard_button).focus()

    def cover(self) -> None:
        """Take the hand out of the page and the buttons out of reach (the device is
        changing hands); `show` brings them back."""
        self._legal = []
        self._seat = None
        self.hand.show(())
        self.hand.layout.display = "none"
        self.moves.layout.display = "none"
        self.buy_row.layout.display = "none"
        self.suggested.value = ""
        self.coach.clear()
        for attribute, *_rest in (*_MOVES, *_HELPERS):
            getattr(self, attribute).disabled = True

    @staticmethod
    def prompt_text(view: PlayerView, watching: bool, finished: bool) -> str:
        """The sentence above the buttons: whose decision it is, and what it is."""
        return _prompt_text(view, watching, finished)

    # -- the buy-offer setting -------------------------------------------------------
    def _reason(self, view: PlayerView) -> Message | None:
        return None if view.offered is None else discard_helps(view, view.offered,
                                                               self.rules)

    def send_offers(self, setting: str | None = None) -> None:
        """Take the buy-offer setting (default: the one chosen) to the owner, which
        hands it to the table; nothing without `send_offers`."""
        if self._send_offers is not None:
            self._send_offers(self.buy_offers.value if setting is None else setting)

    def _redraw(self) -> None:
        if not hasattr(self, "hand"):
            return
        for part in (self.piles, self.score_sheet, self.hand, self.recap, self.log_view,
                     self.coach):
            part.size = self.size
        self.table.size = "small" if self.size == "normal" else "normal"


def _row(children: list[widgets.Widget], css: str) -> widgets.HBox:
    row = widgets.HBox(children, layout=widgets.Layout(flex_flow="row wrap",
                                                       align_items="center"))
    row.add_class(css)
    return row


def _offer_options() -> list[tuple[str, str]]:
    return [(_(label), key) for key, label in BUY_OFFERS]
