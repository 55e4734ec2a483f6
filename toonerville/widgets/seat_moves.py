"""The moves of the seat view (`seat.SeatView`): what each of its buttons does, and where
the focus goes next.

Owns turning a click into a move for the owner's `send(action)`, or into a sentence that
says why not: the one selected card to discard, lay off or swap in, the engine's
lay-down (from the legal moves the view was shown), Suggest (the solver's lay-down for
the hand, or what the hand lacks: `solver.shortfall`), Hint (the strong bot's,
`coach_view.CoachHint`, noted in the log: the one hint entry point of every table
page) and Take back (the owner's, or why a move cannot be taken back here). An owner
that can say why a move does not apply now (`why_not`, e.g. "draw first (T9)") keeps
every button live, and a click on one that does not apply says why; the others'
buttons are disabled instead.

After each move the focus is on what the learner decides next: the card just drawn,
the hand after a take or a lay-down, Discard once one card is selected, Continue on a
round's recap, Buy or Pass on an offer, Draw on a new turn (`focus_next`).
A mixin: `SeatView` holds the state it reads.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from ..coach.hint import Hint
from ..engine import actions as A
from ..engine.cards import Card
from ..engine.errors import ToonervilleError
from ..engine.events import Phase
from ..engine.legal import lay_down_suggestions
from ..engine.messages import N_, Message, _, msg
from ..engine.rules import Rules
from ..engine.solver import shortfall
from ..engine.views import PlayerView
from ..pages.render import meld_html
from ..players.bots import HeuristicBot
from .base import MessageBox
from .coach_view import CoachHint
from .hand import SeatHand
from .recap import RoundRecap

#: what Take back says where no move can be taken back (a shared table)
NO_TAKE_BACK = N_("a move at this table cannot be taken back: the others see it at once "
                  "and may act on it")
#: why a move does not apply now (None: it may apply), asked of the owner by kind
WhyNot = Callable[[type[A.Action]], Message | None]


class SeatMoves:
    """The buttons' moves of a seat view (see the module); `SeatView` inherits them."""

    message: MessageBox
    hand: SeatHand
    recap: RoundRecap
    suggested: widgets.HTML
    buy_offers: widgets.Dropdown
    size: str
    rules: Rules
    no_seat: Message
    draw_button: widgets.Button
    take_button: widgets.Button
    buy_button: widgets.Button
    pass_button: widgets.Button
    lay_down_button: widgets.Button
    lay_off_button: widgets.Button
    swap_button: widgets.Button
    discard_button: widgets.Button
    _send_move: Callable[[A.Action], bool]
    _take_back: Callable[[], bool] | None
    _why_not: WhyNot | None
    _idle_focus: Callable[[], object] | None
    _ask_hint: Callable[[], Hint] | None
    _legal: list[A.Action]
    _view: PlayerView | None
    _seat: int | None
    _helper: HeuristicBot
    #: the page's own lines for the log (hints): (events before it, sentence)
    _notes: list[tuple[int, Message]]
    _history_size: int
    #: True while the page itself changes the selection (a redraw, a hint)
    _picking: bool
    #: the solver's lay-down shown last, in notation ("" when none is shown)
    suggested_text: str
    coach: CoachHint

    def _me(self) -> int:
        if self._seat is None:
            raise ToonervilleError(self.no_seat)
        return self._seat

    def _refused(self, kind: type[A.Action]) -> bool:
        """Say why a move of `kind` does not apply now, if the owner knows (True)."""
        why = None if self._why_not is None else self._why_not(kind)
        if why is not None:
            self.message.error(why)
        return why is not None

    def _play_move(self, action: A.Action) -> bool:
        """The learner's move to the owner; then the focus moves on."""
        held = Counter(self._view.hand) if self._view is not None else Counter()
        if not self._send_move(action):
            return False
        view = self._view
        if view is None or self._seat is None:
            return True
        got = list((Counter(view.hand) - held).elements())
        playing = view.current == self._seat and view.phase is Phase.PLAY \
            and not self.recap.shown
        if isinstance(action, A.Draw) and playing and got:
            self.hand.focus_card(got[0])
        elif isinstance(action, A.TakeDiscard | A.LayDown | A.LayOff | A.SwapRook) \
                and playing:
            self.hand.focus_card(None)
        else:
            self.focus_next()
        return True

    def focus_next(self) -> bool:
        """The focus on what the learner decides next: Continue on a round's recap, Pass
        on an offer (so that Enter passes), Draw, or (playing) a card. With nothing theirs
        to decide, where the owner wants it (`idle_focus`, e.g. 07's New game once the game
        is over), and False."""
        view, seat = self._view, self._seat
        if self.recap.shown:
            self.recap.continue_button.focus()
        elif view is None or seat is None or seat not in view.deciders or not self._legal:
            if self._idle_focus is not None:
                self._idle_focus()
            return False
        elif view.phase is Phase.BUY:
            self.pass_button.focus()  # Enter passes, the safe answer (B buys)
        elif view.phase is Phase.DRAW:
            self.draw_button.focus()
        else:
            self.hand.focus_card(None)
        return True

    def _selection_changed(self, change: dict[str, Any]) -> None:
        """One card selected on your turn: the focus goes on to Discard."""
        view = self._view
        if len(change["new"]) == 1 and not change["old"] and not self._picking \
                and view is not None and view.current == self._seat \
                and view.phase is Phase.PLAY:
            self.discard_button.focus()

    def _pick(self, cards: list[Card]) -> None:
        self._picking = True
        try:
            self.hand.pick(cards)
        finally:
            self._picking = False

    def _simple(self, make: Any) -> None:
        self._play_move(make(self._me()))

    def one_card(self, what: str, rule: str | None = None,
                 kind: type[A.Action] = A.Discard) -> Card | None:
        """The one selected card to `what` (English, translated here), or None after
        saying why not: the move does not apply now, or not one card is selected."""
        self._me()
        if self._refused(kind):
            return None
        chosen = self.hand.selected
        if len(chosen) != 1:
            self.message.error(msg("Select exactly one card in your hand to {what}, then "
                                   "click again ({n} selected now)", rule, what=_(what),
                                   n=len(chosen)))
            return None
        card: Card = chosen[0]
        return card

    def _discard(self) -> None:
        seat = self._me()
        card = self.one_card(N_("discard"), "T13")
        if card is not None:
            self._play_move(A.Discard(seat, card))

    def _lay_down(self) -> None:
        self._me()
        if self._refused(A.LayDown):
            return
        found = [a for a in self._legal if isinstance(a, A.LayDown)]
        if not found:
            self._no_lay_down("error")
            return
        self._play_move(found[0])

    def _no_lay_down(self, kind: str) -> None:
        view = self._view
        assert view is not None
        why = shortfall(view.hand, view.round_number, self.rules)
        self.message.show(msg("The solver finds no lay-down of round {r}'s contract in "
                              "your hand yet: {why}", "T15", r=view.round_number,
                              why=why.text), kind)

    def _lay_off(self) -> None:
        self._me()
        card = self.one_card(N_("lay off"), "H9", A.LayOff)
        if card is None:
            return
        found = [a for a in self._legal if isinstance(a, A.LayOff) and a.card == card]
        if not found:
            self.message.error(msg("{card} fits no meld on the table now", "H9", card=card))
            return
        self._play_move(found[0])

    def _swap(self) -> None:
        """The selected card in the place of a Rook on the table, the Rook played at once
        as the engine finds it (T18); or why not."""
        self._me()
        card = self.one_card(N_("swap in"), "T18", A.SwapRook)
        if card is None:
            return
        found = [a for a in self._legal if isinstance(a, A.SwapRook) and a.natural == card]
        if not found:
            self.message.error(msg("{card} takes the place of no Rook on the table now",
                                   "T18", card=card))
            return
        self._play_move(found[0])

    def suggestion(self) -> tuple[Any, ...] | None:
        """The solver's lay-down for the hand now (the legal one in the play phase of
        your turn; before drawing, the hand's as it is), or None."""
        view = self._view
        if view is None or view.down[view.seat]:
            return None
        found = [a for a in self._legal if isinstance(a, A.LayDown)]
        if found:
            return found[0].melds
        if view.phase is Phase.PLAY and view.current == view.seat:
            return None  # none the engine accepts now
        options = lay_down_suggestions(self, view)
        return options[0] if options else None

    def _suggest(self) -> None:
        """The solver's lay-down for the hand, selected in it; or what the hand lacks."""
        self._me()
        view = self._view
        assert view is not None
        if view.down[view.seat]:
            self.message.info(msg("You are down already: now lay off cards that fit melds "
                                  "on the table", "H9"))
            return
        melds = self.suggestion()
        if melds is None:
            self._no_lay_down("info")
            return
        self._pick([c for m in melds for c in m.cards])
        shown = " / ".join(str(m) for m in melds)
        self.suggested_text = shown
        self.suggested.value = "".join(meld_html(m, self.size) for m in melds)
        later = "" if view.phase is Phase.PLAY and view.current == view.seat else \
            " " + _("once you have drawn")
        self.message.info(msg("The solver suggests {melds} (selected in your hand): click "
                              "'Lay down suggested'{later}", "T15", melds=shown, later=later))
        self.lay_down_button.focus()

    def hint(self) -> tuple[A.Action, Message] | None:
        """What the strong bot would do in your place, and why (said, and noted in the
        log; the coach's panel shows what the other choices cost); the card it would play
        is selected, the button it would press has the focus. The one hint entry point of
        every table page."""
        seat = self._me()
        view = self._view
        if view is None or not self._legal:
            self.message.error(msg("A hint is for your own move: wait until it is your "
                                   "turn", None))
            return None
        legal = list(self._legal)
        # an owner that holds the game asks the coach with the whole round as this seat
        # saw it (07); the others, from the views this page was shown
        found = self.coach.ask(self._ask_hint if self._ask_hint is not None else
                               lambda: self.coach.hint_for_view(view, self.rules, legal))
        action, why = found.action, found.reason
        self.message.info(msg("Hint: {why}", why.rule, why=why.text))
        self.note(msg("Hint for {name}: {why}", why.rule, name=view.names[seat],
                      why=why.text))
        if isinstance(action, A.Discard | A.LayOff):
            self._pick([action.card])
        elif isinstance(action, A.LayDown):
            self._pick([c for m in action.melds for c in m.cards])
        target = {A.Discard: self.discard_button, A.LayOff: self.lay_off_button,
                  A.LayDown: self.lay_down_button, A.Draw: self.draw_button,
                  A.TakeDiscard: self.take_button, A.Buy: self.buy_button,
                  A.Pass: self.pass_button, A.SwapRook: self.swap_button}.get(type(action))
        if target is not None:
            target.focus()
        return action, why

    def note(self, sentence: Message) -> None:
        """A line of the page's own for the log (a hint), after the events so far."""
        self._notes.append((self._history_size, sentence))
        self._show_log()

    def _show_log(self) -> None:
        raise NotImplementedError  # the view's

    def take_back(self) -> bool:
        """Take back your last move through the owner; where no move can be taken back,
        say why. The focus then goes to your next decision."""
        self._me()
        if self._take_back is None:
            self.message.error(msg(NO_TAKE_BACK, None))
            return False
        done = self._take_back()
        if done:
            self.focus_next()
        return done
