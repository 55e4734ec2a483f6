"""The learner's moves in the play app (07): `PlayMoves`, a mixin of `PlayGame`.

Owns what the app's move buttons do and where the focus goes next: a move goes through
the session (`PlaySession.act`); Discard and the lay-off take the one selected card;
Suggest asks the solver (or says what the hand lacks, `solver.shortfall`); Hint asks
the coach (`coach_view`: the strong bot, what the other choices cost) and selects the
card or focuses the button of its move; after each move the focus is
on what the learner decides next (Continue on a round's recap, Pass on an offer, Draw,
or a card).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from .. import actions as A
from ..cards import Card
from ..game import Game
from ..melds import Meld
from ..messages import N_, Message, _, msg
from ..scenarios import HUMAN
from ..views import Phase
from .coach_view import CoachHint, hint_for_game
from .hand import SeatHand
from .play_panels import MovesPanel
from .recap import RoundRecap
from .session import PlaySession

#: the folding panels, each opened by a toggle button (built when first opened)
PANELS = (N_("More moves: type melds, lay off, the Rook swap"),
          N_("Next game: bots, seed, house rules"),
          N_("Save, load, or let the bots finish"))
MOVES, SETTINGS, SAVE = range(3)


class PlayMoves:
    """The move buttons' handlers and the focus (see the module)."""

    session: PlaySession
    hand: SeatHand
    recap: RoundRecap
    coach: CoachHint
    _moves: MovesPanel | None
    draw_button: widgets.Button
    take_button: widgets.Button
    buy_button: widgets.Button
    pass_button: widgets.Button
    lay_down_button: widgets.Button
    discard_button: widgets.Button
    new_game_button: widgets.Button

    if TYPE_CHECKING:  # given by `PlayGame`
        @property
        def game(self) -> Game: ...

        def open_panel(self, panel: int) -> None: ...

    def _act(self, action: A.Action) -> bool:
        """The human's move, through the session; then the focus moves on."""
        before = Counter(self.game.hand(HUMAN))
        done = self.session.act(action)
        if not done:
            return False
        if isinstance(action, A.LayDown | A.SwapRook) and self.game.view(HUMAN).down[HUMAN]:
            self.open_panel(MOVES)  # laying off is next
        got = list((Counter(self.game.hand(HUMAN)) - before).elements())
        if isinstance(action, A.Draw) and self.game.current == HUMAN \
                and self.game.phase is Phase.PLAY and got:
            self.hand.focus_card(got[0])
        elif isinstance(action, A.TakeDiscard | A.LayDown | A.LayOff | A.SwapRook) \
                and self.game.current == HUMAN:
            self.hand.focus_card(None)
        else:
            self._focus_next()
        return True

    def _one_card(self, what: str, rule: str) -> Card | None:
        """The one selected card, or None after saying why not."""
        err = self.game.play_refusal(HUMAN)  # the wrong phase or turn, any card
        if err is not None:
            self.session.say(err.message, "error")
            return None
        chosen: tuple[Card, ...] = tuple(self.hand.selected)
        if len(chosen) != 1:
            self.session.say(msg("Select exactly one card in your hand to {what}, then "
                                 "click again ({n} selected now)", rule, what=what,
                                 n=len(chosen)), "error")
            return None
        return chosen[0]

    def _discard(self) -> None:
        card = self._one_card(N_("discard"), "T13")
        if card is not None:
            self._act(A.Discard(HUMAN, card))

    def suggestion(self) -> tuple[Meld, ...] | None:
        """The solver's lay-down for your hand now, or None."""
        return self.session.suggestion or self.session.suggest() or None

    def _no_suggestion(self, kind: str) -> None:
        from ..solver import shortfall

        view = self.game.view(HUMAN)
        why = shortfall(view.hand, view.round_number, self.game.rules)
        self.session.say(msg("The solver finds no lay-down of round {r}'s contract in your "
                             "hand yet: {why}", "T15", r=view.round_number, why=why.text),
                         kind)

    def _suggest(self) -> None:
        view = self.game.view(HUMAN)
        if view.down[HUMAN]:
            self.session.say(msg("You are down already: now lay off cards that fit melds "
                                 "on the table", "H9"))
            return
        melds = self.suggestion()
        if melds is None:
            self._no_suggestion("info")
            return
        self.hand.pick([c for m in melds for c in m.cards])
        shown = " / ".join(str(m) for m in melds)
        if self._moves is not None:
            self._moves.melds_text.value = shown
        later = "" if view.phase is Phase.PLAY and view.current == HUMAN else \
            " " + _("once you have drawn")
        self.session.say(msg("The solver suggests {melds} (selected in your hand): click "
                             "'Lay down suggested'{later}", "T15", melds=shown, later=later))
        self.lay_down_button.focus()

    def _lay_down_suggested(self) -> None:
        err = self.game.lay_down_refusal(HUMAN)
        if err is not None:
            self.session.say(err.message, "error")  # before asking the solver for nothing
            return
        melds = self.suggestion()
        if melds is None:
            self._no_suggestion("error")
            return
        self._act(A.LayDown(HUMAN, melds))

    def _take_back(self) -> None:
        if self.session.take_back():
            self._focus_next()

    def _coach_hint(self, game: Game) -> tuple[A.Action, Message]:
        """The strong bot's move and why; the coach's panel shows the thinking state,
        then what the other choices cost."""
        found = self.coach.ask(lambda: hint_for_game(game, HUMAN))
        return found.action, found.reason

    def _hint(self) -> None:
        found = self.session.hint(self._coach_hint)
        if found is None:
            return
        action = found[0]
        if isinstance(action, A.Discard):
            self.hand.pick([action.card])
            self.discard_button.focus()
        elif isinstance(action, A.LayOff):
            self.hand.pick([action.card])
        elif isinstance(action, A.LayDown):
            self.hand.pick([c for m in action.melds for c in m.cards])
            self.lay_down_button.focus()
        elif isinstance(action, A.Draw):
            self.draw_button.focus()
        elif isinstance(action, A.TakeDiscard):
            self.take_button.focus()
        elif isinstance(action, A.Buy):
            self.buy_button.focus()
        elif isinstance(action, A.Pass):
            self.pass_button.focus()

    def _selection_changed(self, change: dict[str, Any]) -> None:
        """One card selected on your turn: the focus goes on to Discard."""
        game = self.game
        if len(change["new"]) == 1 and len(change["old"]) == 0 and not self._picking \
                and game.current == HUMAN and game.phase is Phase.PLAY:
            self.discard_button.focus()

    _picking = False

    def _focus_next(self) -> None:
        """The focus on what you decide next: buy or pass, draw, or (playing) a card."""
        game = self.game
        if self.recap.shown:
            self.recap.continue_button.focus()
        elif game.is_over:
            self.new_game_button.focus()
        elif game.phase is Phase.BUY and HUMAN in game.deciders:
            self.buy_button.focus() if self.session.buy_offers == "helpful" \
                else self.pass_button.focus()
        elif game.current == HUMAN and game.phase is Phase.DRAW:
            self.draw_button.focus()
        elif game.current == HUMAN and game.phase is Phase.PLAY:
            self.hand.focus_card(None)
