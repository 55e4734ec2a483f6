"""The moves of the seat view (`seat.SeatView`): what each of its buttons does.

Owns turning a click into a move for the owner's `send(action)`, or into a sentence that
says why not: the one selected card to discard or lay off, the engine's lay-down (from
the legal moves the view was shown), Suggest (that lay-down, or what the hand lacks, from
`solver.shortfall`), Hint (the strong bot's, `coach_view.CoachHint`) and Take back (the
owner's, or why a move cannot be taken back here). A mixin: `SeatView` holds the state it reads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from .. import actions as A
from ..bots import HeuristicBot
from ..errors import ToonervilleError
from ..messages import N_, Message, _, msg
from ..render import meld_html
from ..rules import Rules
from ..solver import shortfall
from ..views import PlayerView
from .base import MessageBox
from .coach_view import CoachHint
from .hand import SeatHand

#: what Take back says where no move can be taken back (a shared table)
NO_TAKE_BACK = N_("a move at this table cannot be taken back: the others see it at once "
                  "and may act on it")


class SeatMoves:
    """The buttons' moves of a seat view (see the module); `SeatView` inherits them."""

    message: MessageBox
    hand: SeatHand
    suggested: widgets.HTML
    size: str
    rules: Rules
    no_seat: Message
    draw_button: widgets.Button
    take_button: widgets.Button
    buy_button: widgets.Button
    pass_button: widgets.Button
    lay_down_button: widgets.Button
    lay_off_button: widgets.Button
    discard_button: widgets.Button
    _send_move: Callable[[A.Action], bool]
    _take_back: Callable[[], bool] | None
    _legal: list[A.Action]
    _view: PlayerView | None
    _seat: int | None
    _helper: HeuristicBot
    coach: CoachHint

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

    def _swap(self) -> None:
        """The selected card in the place of a Rook on the table, the Rook played at once
        as the engine finds it (T18); or why not."""
        self._me()
        card = self._one_card(N_("swap in"))
        if card is None:
            return
        found = [a for a in self._legal if isinstance(a, A.SwapRook) and a.natural == card]
        if not found:
            self.message.error(msg("{card} takes the place of no Rook on the table now",
                                   "T18", card=card))
            return
        self._send_move(found[0])

    def _suggest(self) -> None:
        """The engine's lay-down for the hand, selected in it; or what the hand lacks."""
        self._me()
        view = self._view
        assert view is not None
        if view.down[view.seat]:
            self.message.info(msg("You are down already: now lay off cards that fit melds "
                                  "on the table", "H9"))
            return
        found = [a for a in self._legal if isinstance(a, A.LayDown)]
        if not found:
            why = shortfall(view.hand, view.round_number, self.rules)
            self.message.info(msg("The solver finds no lay-down of round {r}'s contract in "
                                  "your hand yet: {why}", "T15", r=view.round_number,
                                  why=why.text))
            return
        melds = found[0].melds
        self.hand.pick([c for m in melds for c in m.cards])
        self.suggested.value = "".join(meld_html(m, self.size) for m in melds)
        self.message.info(msg("The engine suggests {melds} (selected in your hand): click "
                              "'Lay down'", "T15", melds=" / ".join(map(str, melds))))
        self.lay_down_button.focus()

    def hint(self) -> tuple[A.Action, Message] | None:
        """What the strong bot would do in your place, and why (the coach's panel shows
        what the other choices cost); the card it would play is selected, the button it
        would press has the focus."""
        self._me()
        view = self._view
        if view is None or not self._legal:
            self.message.error(msg("A hint is for your own move: wait until it is your "
                                   "turn", None))
            return None
        legal = list(self._legal)
        found = self.coach.ask(lambda: self.coach.hint_for_view(view, self.rules, legal))
        action, why = found.action, found.reason
        self.message.info(msg("Hint: {why}", why.rule, why=why.text))
        if isinstance(action, A.Discard | A.LayOff):
            self.hand.pick([action.card])
        elif isinstance(action, A.LayDown):
            self.hand.pick([c for m in action.melds for c in m.cards])
        target = {A.Discard: self.discard_button, A.LayOff: self.lay_off_button,
                  A.LayDown: self.lay_down_button, A.Draw: self.draw_button,
                  A.TakeDiscard: self.take_button, A.Buy: self.buy_button,
                  A.Pass: self.pass_button}.get(type(action))
        if target is not None:
            target.focus()
        return action, why

    def take_back(self) -> bool:
        """Take back your last move through the owner; where no move can be taken back,
        say why."""
        self._me()
        if self._take_back is None:
            self.message.error(msg(NO_TAKE_BACK, None))
            return False
        return self._take_back()
