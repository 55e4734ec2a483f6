"""One seat at a table, as a learner sees it: the `SeatView` widget of every table page.

Owns what a learner sees and does at every table: 07's game against bots (`PlayGame`),
a shared table (09's `SharedTable`, a tournament table of 10) and a pass-and-play
screen (`PassAndPlay`): the status line, each seat's cards and marks, the piles and
the melds on the table, the recap at the end of a round (`recap.RoundRecap`), the
prompt, the buy offer (naming the card and who declined it, numbered when the owner
counts offers), draw or take, the hand (sorted, by colour or by number:
`hand.SeatHand`), the moves (Suggest, Lay down, Lay off, the Rook swap, Discard, Take
back, Hint: `seat_moves`), the log with the page's notes (`play_log.PlayLog`) and the
score sheet, and the buy-offer setting. It is laid out in the order of a turn, which is
also the Tab order: the piles and table, the prompt, the buy offer, draw or take, the
hand, the moves that end with the discard, take back and hint, the record; after each
move the focus moves to the next sensible control (`SeatMoves.focus_next`, a part
composed into the view with a small interface, not a mixin). Its style,
sentences sized with the cards, is `seat_style`.

It asks nothing of where the game lives: it follows the owner's seat model
(`follow(model)`, a `seat_model.SeatModel`: what the seat may see, its moves now, the
log's notes) and redraws on each of its changes; every move the learner makes goes to
the owner's `send(action)` (True if played). Rules knowledge stays in the engine: the
legal moves come with the model, a hint from the coach (`coach_view`: the strong bot
and what the other choices cost; the owner's `ask_hint` where it holds the game), a
lay-down from the legal moves or the solver (or why not, from `solver.shortfall`),
whether a discard helps from the buy-offer rule (`table.offer_help`), and, from an
owner that holds the game, why a move does not apply now (`why_not`). Take back is the
model's (`SeatModel.take_back`: each model its own rule, one entry point), or an
owner's `take_back` that guards it (pass-and-play's: only the learner holding the
device); it may refuse and say why. With `send_offers` the buy-offer setting is shown and
each choice goes to the owner (a shared table's store answers the declined discards the
setting does not offer, so a draw nobody wants needs no click, even while the learner's
page is closed; 07's session does the same in this kernel).

A watcher's view (`watching=True`) has no hand and no buttons; `cover()` empties the hand
and hides the buttons, so nothing of a hand stays in the page while the device changes
hands. Stable hooks for tests are CSS classes: `tr-seat-view`, `tr-status`, `tr-others`,
`tr-piles`, `tr-table`, `tr-recap`, `tr-prompt`, `tr-buy-row`, `tr-offer`, `tr-start`,
`tr-moves`, `tr-hand`, `tr-card`, `tr-hand-order`, `tr-draw`, `tr-take`, `tr-buy`,
`tr-pass`, `tr-suggest`, `tr-lay-down`, `tr-lay-off`, `tr-swap`, `tr-discard`, `tr-undo`,
`tr-hint`, `tr-buy-offers`, `tr-log-box`, `tr-log`, `tr-score-sheet`, `tr-keys` (the key
legend) and `tr-next-<step>` on the prompt (what the seat decides next: `keys.next_step`);
the template's key script (`keys.js`) acts on them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets

from ..coach.hint import Hint
from ..engine import actions as A
from ..engine.cards import Card
from ..engine.events import Event, Phase
from ..engine.messages import N_, Message, _, msg
from ..engine.rules import Rules
from ..engine.views import PlayerView
from ..players.table import offer_help
from .base import MessageBox, Part, displayed, translated_button
from .board import PilesView, ScoreSheet, TableView
from .coach_view import CoachHint
from .hand import HandOrder, SeatHand
from .keys import keys_html, mark_next, next_step
from .play_log import LOG_LINES, PlayLog
from .recap import RoundRecap
from .seat_model import SeatModel
from .seat_moves import NO_TAKE_BACK, MoveControls, MoveOwner, SeatMoves, SeatNow, WhyNot
from .seat_style import SEAT_CSS, smaller
from .seat_text import offer_html, prompt_html, seat_names, seats_html, status_html
from .session_words import buy_offer_options

#: the move buttons: (attribute, CSS class, label, tooltip, the action kind it makes)
_MOVES = (
    ("buy_button", "tr-buy", N_("Buy"), N_("Buy the declined discard (T10, T11)"), A.Buy),
    ("pass_button", "tr-pass", N_("Pass"), N_("Do not buy it (T10)"), A.Pass),
    ("draw_button", "tr-draw", N_("Draw from stock"),
     N_("Start your turn: draw the top card of the stock (T9)"), A.Draw),
    ("take_button", "tr-take", N_("Take the discard"),
     N_("Start your turn: take the top discard (T9)"), A.TakeDiscard),
    ("lay_down_button", "tr-lay-down", N_("Lay down suggested"),
     N_("Lay down the solver's suggestion (T15)"), A.LayDown),
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


class SeatView(Part, widgets.VBox):  # type: ignore[misc]
    """What one seat sees, and its moves; moves go to `send(action)`.

    `message` is the page's message box (refusals and hints are shown there); `size` the
    page's size; `take_back()` the owner's take-back (None: the followed model's,
    `SeatModel.take_back`, which says why not where no move can be taken back);
    `countdown` the seconds a round's recap stays above the new round, which it then
    leaves in reach (None: it covers the new round until Continue; a followed model's
    `recap_seconds` says it instead); `send_offers`
    takes the learner's buy-offer setting to the table (None: the setting is not shown,
    every offer is put to the learner); `why_not(kind)` the owner's reason a move of
    that kind does not apply now (None: the buttons of moves that do not apply are
    disabled); `idle_focus()` puts the focus where the owner wants it when the learner
    has nothing to decide. Buttons are attributes (`draw_button`, `discard_button`, `hint_button`,
    …)."""

    #: what each button does, and where the focus goes next (`seat_moves.SeatMoves`)
    mover: SeatMoves
    # the buttons (made in `_build` from `_MOVES` and `_HELPERS`)
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
                 send_offers: Callable[[str], None] | None = None,
                 why_not: WhyNot | None = None,
                 idle_focus: Callable[[], object] | None = None,
                 ask_hint: Callable[[], Hint] | None = None, legend: bool = True) -> None:
        super().__init__()
        #: show the key legend (07 shows its own, under its toolbar)
        self._legend = legend
        self.size = size
        self._owner = MoveOwner(send=send, note=self.note, no_seat=lambda: self.no_seat,
                                take_back=take_back or self._model_take_back,
                                why_not=why_not,
                                idle_focus=idle_focus, ask_hint=ask_hint)
        self._send_offers = send_offers
        self._why_not = why_not
        self._countdown = countdown
        self.message = message
        #: the seat model the view follows (`follow`), None for a view shown by hand
        self.model: SeatModel | None = None
        self._legal: list[A.Action] = []
        self._view: PlayerView | None = None
        self._seat: int | None = None
        self._notes: list[tuple[int, Message]] = []
        self._owner_notes: tuple[tuple[int, Message], ...] = ()
        self._history: Sequence[Event] = ()
        self._history_size = 0
        self._log_from = 0
        self.rules = Rules()
        #: what a click says while no seat is shown (a watcher's page, a covered device)
        self.no_seat = msg("you are watching: join a seat to play", None)
        self._build()

    def follow_teacher(self, hints: bool, take_back: bool) -> None:
        """The class teacher's choice (`store.ClassSettings`): with hints off the Hint and
        Suggest buttons go and a hint asked by key is refused; with take back off the
        Take back button goes and a take-back asked by key is refused."""
        moves = self.mover
        moves.hints_allowed, moves.take_back_allowed = bool(hints), bool(take_back)
        for button in (self.hint_button, self.suggest_button):
            button.layout.display = displayed(moves.hints_allowed)
        self.undo_button.layout.display = displayed(moves.take_back_allowed)

    def _build(self) -> None:
        guard, size = self.message.guard, self.size
        self.status = self._html("tr-status")
        self.others = self._html("tr-others")
        self.piles = PilesView(size=size)
        self.piles.add_class("tr-piles")
        self.table = TableView(size=smaller(size))
        self.table.add_class("tr-table")
        self.recap = RoundRecap(size, countdown=self._countdown,
                                on_close=self._recap_closed)
        self.prompt = self._html("tr-prompt")
        self.offer_text = self._html("tr-offer")
        self.hand = SeatHand(size)
        self.hand.observe(guard(lambda change: self.mover.selection_changed(change)),
                          "selected")
        self.hand_order = HandOrder()
        self.watch(self.hand_order, guard(lambda change: self.hand.reorder(change["new"])))
        self.hand_title = self.texts(self._html("tr-hand-title"), value=N_(
            "<b>Your hand</b> (<kbd>Tab</kbd> to a card; <kbd>Space</kbd> or <kbd>Enter</kbd> "
            "selects it)"))
        self.suggested = self._html("tr-suggested")
        self.coach = CoachHint(size)
        for attribute, css, label, tooltip, *_kind in (*_MOVES, *_HELPERS):
            setattr(self, attribute, translated_button(label, css, tooltip, owner=self))
        self.mover = mover = SeatMoves(MoveControls(
            message=self.message, hand=self.hand, recap=self.recap, coach=self.coach,
            suggested=self.suggested, draw=self.draw_button, take=self.take_button,
            buy=self.buy_button, pass_=self.pass_button, lay_down=self.lay_down_button,
            lay_off=self.lay_off_button, swap=self.swap_button,
            discard=self.discard_button), self._owner)
        for _a, _c, _l, _t, kind in _MOVES[:4]:
            button = getattr(self, _a)
            button.on_click(guard(lambda _b, k=kind: mover.simple(k)))
        for button, handler in ((self.lay_down_button, mover.lay_down),
                                (self.lay_off_button, mover.lay_off),
                                (self.swap_button, mover.swap),
                                (self.discard_button, mover.discard),
                                (self.suggest_button, mover.suggest),
                                (self.undo_button, self.take_back),
                                (self.hint_button, self.hint)):
            button.on_click(guard(lambda _b, h=handler: h()))
        self.buy_offers = self.texts(
            widgets.Dropdown(options=buy_offer_options(), value="helpful",
                             layout=widgets.Layout(width="auto"),
                             style={"description_width": "initial"}),
            options=buy_offer_options, description=N_("Offer me a declined discard"))
        self.buy_offers.add_class("tr-buy-offers")
        self.watch(self.buy_offers, guard(lambda change: self.send_offers(change["new"])))
        self.buy_offers.layout.display = displayed(self._send_offers is not None)
        self.buy_row = _row([self.offer_text, self.buy_button, self.pass_button],
                            "tr-buy-row")
        self.start_row = _row([self.draw_button, self.take_button], "tr-start")
        self.moves = _row([self.suggest_button, self.lay_down_button, self.lay_off_button,
                           self.swap_button, self.discard_button, self.undo_button,
                           self.hint_button], "tr-moves")
        self.hand_head = _row([self.hand_title, self.hand_order], "tr-hand-head")
        self.log_view = PlayLog()
        self.log_view.add_class("tr-log")
        log_title = self.texts(self._html("tr-log-title"), value=N_(
            "<b>What happened</b> (newest last, in bold)"))
        self.log_box = widgets.VBox([log_title, self.log_view])
        self.log_box.add_class("tr-log-box")
        self.score_sheet = ScoreSheet(size=size)
        self.score_sheet.add_class("tr-score-sheet")
        board = _row([self.piles, self.table], "tr-seat-board")
        #: what the recap covers while it is open: the new round's table and moves (only
        #: where the table waits for the learner: see `covered`)
        self.round_parts = [board, self.prompt, self.buy_row, self.start_row,
                            self.hand_head, self.hand, self.moves, self.suggested,
                            self.coach]
        self.record = _row([self.log_box, self.score_sheet], "tr-record")
        #: the card-game keys (the template's key script acts on the classes above)
        self.key_legend = self.texts(self._html("tr-keys"), value=keys_html)
        self.key_legend.layout.display = displayed(self._legend)
        self.children = [widgets.HTML(SEAT_CSS, layout=widgets.Layout(display="none")),
                         self.status, self.others, self.recap, *self.round_parts,
                         self.record, self.buy_offers,
                         *((self.key_legend,) if self._legend else ())]
        self.add_class("tr-seat-view")

    def __repr__(self) -> str:
        return f"SeatView(seat={self._seat!r})"

    @staticmethod
    def _html(css: str) -> widgets.HTML:
        html = widgets.HTML()
        html.add_class(css)
        return html

    # -- showing ---------------------------------------------------------------------
    def follow(self, model: SeatModel) -> None:
        """Show `model`'s seat, now and after every change of it (its `revision`): the
        one way a page shows a seat (07's session, pass-and-play's table, a shared
        table's seat each give the view a `seat_model.SeatModel`)."""
        if self.model is not None:
            self.model.unobserve(self._model_changed, "revision")
        self.model = model
        self.recap.countdown = model.recap_seconds  # the model's table says if it waits
        model.observe(self._model_changed, "revision")
        self.redraw()

    def _model_changed(self, _change: object) -> None:
        self.redraw()

    def redraw(self) -> None:
        """Show the model's seat as it is now (after a change of language, say)."""
        model = self.model
        if model is None or model.view is None:
            return
        self.show(model.view, legal=model.legal, history=model.history,
                  number=model.number, finished=model.finished, watching=model.watching,
                  rules=model.game_rules, notes=model.notes,
                  offer_number=model.offer[0] if model.offer else None)

    def begin(self, history: Sequence[Event]) -> None:
        """A new game at this seat: no recap of its rounds so far, no notes, the log
        from its last lines."""
        self.recap.close_recap()
        self.recap.start(history)
        self._notes = []
        self._log_from = max(0, len(history) - LOG_LINES)
        self.suggested.value = ""

    def show(self, view: PlayerView, *, legal: Sequence[A.Action],
             history: Sequence[Event], number: int, finished: bool,
             watching: bool = False, rules: Rules | None = None,
             offer_number: int | None = None,
             notes: Sequence[tuple[int, Message]] = ()) -> None:
        """Show `view` (the names in it are the ones the page shows) after `number`
        moves; `legal` are the seat's moves now (none while it waits), `history` the
        sentences everyone at the table may read, `rules` the table's rules,
        `offer_number` which offer since the learner's turn this is (when the owner
        counts them), `notes` the owner's lines for the log (events before each, line).
        A page does not call this: its seat model's changes do (`follow`, `redraw`); a
        view driven by hand (a test) may."""
        me = None if watching else view.seat
        if self._view is None:
            self.begin(history)
        self._view, self._seat = view, me
        self.rules = rules or self.rules
        self._legal = [] if watching or finished else list(legal)
        self._tell_moves()
        self._history, self._owner_notes = history, tuple(notes)
        if len(history) < self._history_size:  # taken back: notes stay, after what is left
            self._notes = [(min(at, len(history)), n) for at, n in self._notes]
        self._history_size = len(history)
        if me is not None:
            self.coach.observe_view(view)
        names = seat_names(view.names, me)
        self.piles.update(view)
        self.table.update(dict(zip(names, view.table, strict=True)))
        self.score_sheet.update(names, view.scores, None if finished else view.round_number)
        self._show_log()
        self.recap.me, self.recap.rules = me, self.rules
        opened = self.recap.offer(history)
        # the hand goes to the page before the prompt and the buttons: a learner who
        # reads "your turn" and clicks a card at once clicks the card the hand holds now
        self.hand.layout.display = displayed(not watching)
        with self.mover.picking():
            if watching:
                if self.hand.cards:
                    self.hand.show(())
            elif self.hand.held != view.hand:
                # a selection stays while cards only arrive (a draw, a buy); once a card
                # has left the hand (a discard, a lay-down) none is, not even its twin
                self.hand.show(view.hand,
                               keep=not Counter(self.hand.held) - Counter(view.hand))
        self.prompt.value = prompt_html(view, watching, finished, self._legal)
        self._offer_number = offer_number
        self._show_offer(view, watching)
        self._show_buttons(watching, finished)
        # after the buttons: the page's key script puts the focus on the next one
        mark_next(self.prompt, next_step(view, me, finished))
        self.key_legend.layout.display = displayed(self._legend and not watching)
        self.suggested.value = self.suggested_text = ""
        self.others.value = seats_html(view, me, finished)
        self._show_round(not self.covered)
        if opened and self.covered:
            self.recap.continue_button.focus()
        # the status goes last: it carries the move number, so a page that sees it change
        # (a learner, a test) finds every other part of the seat already current
        self.status.value = status_html(view, number, watching, finished,
                                        self.score_sheet.rounds)

    _offer_number: int | None = None

    def _show_buttons(self, watching: bool, finished: bool) -> None:
        """The moves that apply now are blue; the others are disabled, or (for an owner
        that says why not) stay live and answer with the reason they do not apply."""
        kinds = {type(a) for a in self._legal}
        live = self._why_not is not None and not watching
        for attribute, _css, _label, _tip, kind in _MOVES:
            button = getattr(self, attribute)
            button.disabled = kind not in kinds and not live
            style = "primary" if kind in kinds else ""
            if button.button_style != style:
                button.button_style = style
        for attribute, *_rest in _HELPERS:
            getattr(self, attribute).disabled = watching or (finished and not live)
        for row in (self.start_row, self.moves, self.hand_head):
            row.layout.display = displayed(not watching)

    def _show_log(self) -> None:
        """The log: the table's sentences with the owner's and the page's notes."""
        view = self._view
        me = self._seat
        mine = None if me is None else next(
            (e for e in reversed(self._history)  # your last move of a turn
             if e.seat == me and e.action and e.kind.value != "pass"), None)
        notes = sorted((*self._owner_notes, *self._notes), key=lambda n: n[0])
        if view is not None or self._history:
            self.log_view.show(self._history, notes, self._log_from, self.size,
                               None if mine is None else str(mine.text))

    def _show_offer(self, view: PlayerView, watching: bool) -> None:
        offered = not watching and view.phase is Phase.BUY and view.seat in view.deciders \
            and view.offered is not None and not self.covered
        self.buy_row.layout.display = "flex" if offered else "none"
        if offered:
            self.buy_button.description = _("Buy {card}").format(card=view.offered)
            reason = self._reason(view) if self.buy_offers.value == "helpful" else None
            self.offer_text.value = offer_html(view, self.rules, reason, self._offer_number)

    @property
    def covered(self) -> bool:
        """Does the round's recap cover the new round now? Only where the table waits
        for the learner (no countdown: the model's `recap_seconds`, 07 and pass-and-play);
        at a shared table the recap counts down above the new round, whose offers and
        turns stay in reach: the table does not wait for a learner reading it."""
        return self.recap.shown and self.recap.countdown is None

    def _show_round(self, shown: bool) -> None:
        for part in self.round_parts:
            part.layout.display = displayed(shown)
        if shown and self._view is not None:
            self._show_offer(self._view, self._seat is None)
        if shown and self._seat is None:  # a watcher (or a covered device): no hand
            for part in (self.start_row, self.moves, self.hand, self.hand_head):
                part.layout.display = "none"

    def _recap_closed(self) -> None:
        """Continue: the new round's table comes back, the focus on your next move."""
        self._show_round(True)
        self.focus_next()

    def cover(self) -> None:
        """Take the hand out of the page and the buttons out of reach (the device is
        changing hands); `show` brings them back."""
        self._legal = []
        self._seat = None
        self._tell_moves()
        self.hand.show(())
        for part in (self.hand, self.start_row, self.moves, self.buy_row, self.key_legend):
            part.layout.display = "none"
        mark_next(self.prompt, "wait")
        self.suggested.value = ""
        self.coach.clear()
        for attribute, *_rest in (*_MOVES, *_HELPERS):
            getattr(self, attribute).disabled = True

    def _tell_moves(self) -> None:
        """Hand what the seat shows now to its moves (`seat_moves.SeatNow`)."""
        self.mover.now = SeatNow(self._view, self._seat, tuple(self._legal), self.rules,
                                 self.size)

    # -- the moves (`seat_moves.SeatMoves`) ----------------------------------------------
    def focus_next(self) -> bool:
        """The focus on what the learner decides next (`SeatMoves.focus_next`)."""
        return self.mover.focus_next()

    def one_card(self, what: str, rule: str | None = None,
                 kind: type[A.Action] = A.Discard) -> Card | None:
        """The one selected card to `what`, or None after saying why not."""
        return self.mover.one_card(what, rule, kind)

    def suggestion(self) -> tuple[Any, ...] | None:
        """The solver's lay-down for the hand now, or None."""
        return self.mover.suggestion()

    def hint(self) -> tuple[A.Action, Message] | None:
        """The strong bot's move in your place, and why (`SeatMoves.hint`)."""
        return self.mover.hint()

    def take_back(self) -> bool:
        """Take back your last move through the owner, or say why not."""
        return self.mover.take_back()

    def _model_take_back(self) -> bool:
        """Take back by the followed model's rule (`SeatModel.take_back`, which says
        what was taken back, or why not); with no model, say why no move can be."""
        if self.model is None:
            self.message.error(msg(NO_TAKE_BACK, None))
            return False
        return self.model.take_back()

    @property
    def suggested_text(self) -> str:
        """The solver's lay-down shown last, in notation ("" when none is shown)."""
        return self.mover.suggested_text

    @suggested_text.setter
    def suggested_text(self, text: str) -> None:
        self.mover.suggested_text = text

    def note(self, sentence: Message) -> None:
        """A line of the page's own for the log (a hint), after the events so far."""
        self._notes.append((self._history_size, sentence))
        self._show_log()

    # -- the buy-offer setting -------------------------------------------------------
    def _reason(self, view: PlayerView) -> Message | None:
        return offer_help(view, self.rules)

    def send_offers(self, setting: str | None = None) -> None:
        """Take the buy-offer setting (default: the one chosen) to the owner, which
        hands it to the table; nothing without `send_offers`."""
        if self._send_offers is not None:
            self._send_offers(self.buy_offers.value if setting is None else setting)

    def _redraw(self) -> None:
        if not hasattr(self, "mover"):
            return
        self._tell_moves()
        for part in (self.piles, self.score_sheet, self.hand, self.recap, self.coach):
            part.size = self.size
        self.table.size = smaller(self.size)
        self._show_log()
        if self._view is not None:
            self._show_offer(self._view, self._seat is None)


def _row(children: list[widgets.Widget], css: str) -> widgets.HBox:
    row = widgets.HBox(children, layout=widgets.Layout(flex_flow="row wrap",
                                                       align_items="center"))
    row.add_class(css)
    return row

