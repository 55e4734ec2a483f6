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

A part of the seat view composed of small pieces, not a mixin: the controls it acts on
(`MoveControls`), what the owner answers (`MoveOwner`), and what the seat shows now
(`SeatNow`, an immutable value the view replaces on each redraw).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
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
from .base import MessageBox
from .coach_view import CoachHint
from .hand import SeatHand
from .recap import RoundRecap

#: what Take back says where no move can be taken back (a shared table)
#: what a page says of a helper the class teacher turned off (`SeatView.follow_teacher`)
TEACHER_SAID_NO = N_("your teacher has turned “{what}” off for this class")
NO_TAKE_BACK = N_("a move at this table cannot be taken back: the others see it at once "
                  "and may act on it")
#: why a move does not apply now (None: it may apply), asked of the owner by kind
WhyNot = Callable[[type[A.Action]], Message | None]


@dataclass(frozen=True, slots=True)
class SeatNow:
    """What the seat shows now, as its moves need it: the seat's view (None before any),
    the learner's seat (None: watching, or a covered device), their moves now, the
    table's rules and the page's card size."""

    view: PlayerView | None = None
    seat: int | None = None
    legal: tuple[A.Action, ...] = ()
    rules: Rules = field(default_factory=Rules)
    size: str = "normal"


@dataclass(frozen=True, slots=True)
class MoveControls:
    """The controls the moves act on: the page's message box, the hand, the recap, the
    coach's panel, the solver's suggestion, and the move buttons."""

    message: MessageBox
    hand: SeatHand
    recap: RoundRecap
    coach: CoachHint
    suggested: widgets.HTML
    draw: widgets.Button
    take: widgets.Button
    buy: widgets.Button
    pass_: widgets.Button
    lay_down: widgets.Button
    lay_off: widgets.Button
    swap: widgets.Button
    discard: widgets.Button


@dataclass(frozen=True, slots=True)
class MoveOwner:
    """What the page that owns the seat answers: `send(action)` plays a move (True if
    played); `take_back()` (None: no move can be taken back here); `why_not(kind)`
    (None: the buttons of moves that do not apply are disabled); `idle_focus()`;
    `ask_hint()` (an owner that holds the game); `no_seat()` what a click says while no
    seat is shown; `note(sentence)` a line for the log."""

    send: Callable[[A.Action], bool]
    note: Callable[[Message], None]
    no_seat: Callable[[], Message]
    take_back: Callable[[], bool] | None = None
    why_not: WhyNot | None = None
    idle_focus: Callable[[], object] | None = None
    ask_hint: Callable[[], Hint] | None = None


class SeatMoves:
    """The buttons' moves of a seat view (see the module)."""

    def __init__(self, controls: MoveControls, owner: MoveOwner) -> None:
        self.controls = controls
        self.owner = owner
        #: what the seat shows now (the view replaces it)
        self.now = SeatNow()
        #: the solver's lay-down shown last, in notation ("" when none is shown)
        self.suggested_text = ""
        self._picking = False
        #: the class teacher's choices (`seat.SeatView.follow_teacher`)
        self.hints_allowed = True
        self.take_back_allowed = True

    @contextmanager
    def picking(self) -> Iterator[None]:
        """While the page itself changes the selection (a redraw, a hint): no focus moves."""
        self._picking = True
        try:
            yield
        finally:
            self._picking = False

    def _me(self) -> int:
        if self.now.seat is None:
            raise ToonervilleError(self.owner.no_seat())
        return self.now.seat

    def _refused(self, kind: type[A.Action]) -> bool:
        """Say why a move of `kind` does not apply now, if the owner knows (True)."""
        why_not = self.owner.why_not
        why = None if why_not is None else why_not(kind)
        if why is not None:
            self.controls.message.error(why)
        return why is not None

    def _play_move(self, action: A.Action) -> bool:
        """The learner's move to the owner; then the focus moves on."""
        before = self.now.view
        held = Counter(before.hand) if before is not None else Counter()
        if not self.owner.send(action):
            return False
        view, hand = self.now.view, self.controls.hand
        if view is None or self.now.seat is None:
            return True
        got = list((Counter(view.hand) - held).elements())
        playing = view.current == self.now.seat and view.phase is Phase.PLAY \
            and not self.controls.recap.shown
        if isinstance(action, A.Draw) and playing and got:
            hand.focus_card(got[0])
        elif isinstance(action, A.TakeDiscard | A.LayDown | A.LayOff | A.SwapRook) \
                and playing:
            hand.focus_card(None)
        else:
            self.focus_next()
        return True

    def focus_next(self) -> bool:
        """The focus on what the learner decides next: Continue on a round's recap, Pass
        on an offer (so that Enter passes), Draw, or (playing) a card. With nothing theirs
        to decide, where the owner wants it (`idle_focus`, e.g. 07's New game once the game
        is over), and False."""
        view, seat, c = self.now.view, self.now.seat, self.controls
        if c.recap.shown:
            c.recap.continue_button.focus()
        elif view is None or seat is None or seat not in view.deciders or not self.now.legal:
            if self.owner.idle_focus is not None:
                self.owner.idle_focus()
            return False
        elif view.phase is Phase.BUY:
            c.pass_.focus()  # Enter passes, the safe answer (B buys)
        elif view.phase is Phase.DRAW:
            c.draw.focus()
        else:
            c.hand.focus_card(None)
        return True

    def selection_changed(self, change: dict[str, Any]) -> None:
        """One card selected on your turn: the focus goes on to Discard."""
        view = self.now.view
        if len(change["new"]) == 1 and not change["old"] and not self._picking \
                and view is not None and view.current == self.now.seat \
                and view.phase is Phase.PLAY:
            self.controls.discard.focus()

    def _pick(self, cards: list[Card]) -> None:
        with self.picking():
            self.controls.hand.pick(cards)

    def simple(self, make: Any) -> None:
        """Draw, take, buy or pass (`make` the action's kind) for the seat."""
        self._play_move(make(self._me()))

    def one_card(self, what: str, rule: str | None = None,
                 kind: type[A.Action] = A.Discard) -> Card | None:
        """The one selected card to `what` (English, translated here), or None after
        saying why not: the move does not apply now, or not one card is selected."""
        self._me()
        if self._refused(kind):
            return None
        chosen = self.controls.hand.selected
        if len(chosen) != 1:
            self.controls.message.error(msg(
                "Select exactly one card in your hand to {what}, then click again ({n} "
                "selected now)", rule, what=_(what), n=len(chosen)))
            return None
        card: Card = chosen[0]
        return card

    def discard(self) -> None:
        """Discard the one selected card."""
        seat = self._me()
        card = self.one_card(N_("discard"), "T13")
        if card is not None:
            self._play_move(A.Discard(seat, card))

    def lay_down(self) -> None:
        """Lay down the engine's lay-down (from the legal moves), or say why not."""
        self._me()
        if self._refused(A.LayDown):
            return
        found = [a for a in self.now.legal if isinstance(a, A.LayDown)]
        if not found:
            self._no_lay_down("error")
            return
        self._play_move(found[0])

    def _no_lay_down(self, kind: str) -> None:
        view = self.now.view
        assert view is not None
        why = shortfall(view.hand, view.round_number, self.now.rules)
        self.controls.message.show(msg(
            "The solver finds no lay-down of round {r}'s contract in your hand yet: {why}",
            "T15", r=view.round_number, why=why.text), kind)

    def lay_off(self) -> None:
        """Lay off the one selected card onto a meld it fits, or say why not."""
        self._me()
        card = self.one_card(N_("lay off"), "H9", A.LayOff)
        if card is None:
            return
        found = [a for a in self.now.legal if isinstance(a, A.LayOff) and a.card == card]
        if not found:
            self.controls.message.error(msg("{card} fits no meld on the table now", "H9",
                                            card=card))
            return
        self._play_move(found[0])

    def swap(self) -> None:
        """The selected card in the place of a Rook on the table, the Rook played at once
        as the engine finds it (T18); or why not."""
        self._me()
        card = self.one_card(N_("swap in"), "T18", A.SwapRook)
        if card is None:
            return
        found = [a for a in self.now.legal if isinstance(a, A.SwapRook) and a.natural == card]
        if not found:
            self.controls.message.error(msg(
                "{card} takes the place of no Rook on the table now", "T18", card=card))
            return
        self._play_move(found[0])

    def suggestion(self) -> tuple[Any, ...] | None:
        """The solver's lay-down for the hand now (the legal one in the play phase of
        your turn; before drawing, the hand's as it is), or None."""
        view = self.now.view
        if view is None or view.down[view.seat]:
            return None
        found = [a for a in self.now.legal if isinstance(a, A.LayDown)]
        if found:
            return found[0].melds
        if view.phase is Phase.PLAY and view.current == view.seat:
            return None  # none the engine accepts now
        options = lay_down_suggestions(self.now, view)
        return options[0] if options else None

    def suggest(self) -> None:
        """The solver's lay-down for the hand, selected in it; or what the hand lacks."""
        self._me()
        view, c = self.now.view, self.controls
        if not self.hints_allowed:
            c.message.error(msg(TEACHER_SAID_NO, None, what=_("Suggest")))
            return
        assert view is not None
        if view.down[view.seat]:
            c.message.info(msg("You are down already: now lay off cards that fit melds "
                               "on the table", "H9"))
            return
        melds = self.suggestion()
        if melds is None:
            self._no_lay_down("info")
            return
        self._pick([card for m in melds for card in m.cards])
        shown = " / ".join(str(m) for m in melds)
        self.suggested_text = shown
        c.suggested.value = "".join(meld_html(m, self.now.size) for m in melds)
        later = "" if view.phase is Phase.PLAY and view.current == view.seat else \
            " " + _("once you have drawn")
        c.message.info(msg("The solver suggests {melds} (selected in your hand): click "
                           "'Lay down suggested'{later}", "T15", melds=shown, later=later))
        c.lay_down.focus()

    def hint(self) -> tuple[A.Action, Message] | None:
        """What the strong bot would do in your place, and why (said, and noted in the
        log; the coach's panel shows what the other choices cost); the card it would play
        is selected, the button it would press has the focus. The one hint entry point of
        every table page."""
        seat = self._me()
        view, c, now = self.now.view, self.controls, self.now
        if not self.hints_allowed:
            c.message.error(msg(TEACHER_SAID_NO, None, what=_("Hint")))
            return None
        if view is None or not now.legal:
            c.message.error(msg("A hint is for your own move: wait until it is your "
                                "turn", None))
            return None
        legal = list(now.legal)
        # an owner that holds the game asks the coach with the whole round as this seat
        # saw it (07); the others, from the views this page was shown
        ask = self.owner.ask_hint
        found = c.coach.ask(ask if ask is not None else
                            lambda: c.coach.hint_for_view(view, now.rules, legal))
        action, why = found.action, found.reason
        c.message.info(msg("Hint: {why}", why.rule, why=why.text))
        self.owner.note(msg("Hint for {name}: {why}", why.rule, name=view.names[seat],
                            why=why.text))
        if isinstance(action, A.Discard | A.LayOff):
            self._pick([action.card])
        elif isinstance(action, A.LayDown):
            self._pick([card for m in action.melds for card in m.cards])
        target = {A.Discard: c.discard, A.LayOff: c.lay_off, A.LayDown: c.lay_down,
                  A.Draw: c.draw, A.TakeDiscard: c.take, A.Buy: c.buy, A.Pass: c.pass_,
                  A.SwapRook: c.swap}.get(type(action))
        if target is not None:
            target.focus()
        return action, why

    def take_back(self) -> bool:
        """Take back your last move through the owner; where no move can be taken back,
        say why. The focus then goes to your next decision."""
        self._me()
        if not self.take_back_allowed:
            self.controls.message.error(msg(TEACHER_SAID_NO, None, what=_("Take back")))
            return False
        take_back = self.owner.take_back
        if take_back is None:
            self.controls.message.error(msg(NO_TAKE_BACK, None))
            return False
        done = take_back()
        if done:
            self.focus_next()
        return done
