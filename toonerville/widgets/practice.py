"""Try it again: the learner's costly decisions of a reviewed round, played again.

Owns `PracticePanel` (CSS class `tr-practice`; its body, `tr-practice-body`, is also a
`tr-seat-view`, so the card-game keys of `keys.py` work in it as in a seat: D, T, B, P,
L, the card digits, X; Tab and Enter everywhere; `tr-practice-open` opens a closed
panel). The review's "Try it again" (`coach_review.RoundReview.on_try`) hands the
panel the round's costly decisions (`add`): each becomes a practice position
(`coach.practice`) on the learner's list, and the panel opens at the first new one. A
position is shown as the seat saw it — the hand, the top of the discard pile or the card
on offer, the melds on the table — without the answer: the learner chooses with controls
like the seat's (draw or take, buy or pass, a card of the hand and Discard, and the
review's other move when it was something else, such as a lay-off), and only then reads
what they chose against the coach's best move, priced on fresh worlds in the hints' own
words ("costs about 6 points … (2 to 10 points; 32 rounds played out)", "about the same"
when the interval covers 0, "may be better"). Next and Previous go through the list;
Forget takes a position off it.

The list survives a reload through the page's keeper (`practice_keep`: the class store
on a served page, the browser's storage on the static site), read when the panel is made
and written after each change. A list that cannot all be read says so on the panel and
is written back with the entries it could not read kept as they were.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

import ipywidgets as widgets

from ..coach.practice import (
    PRICE,
    Answer,
    PracticePosition,
    check_answer,
    choices,
    dump_positions,
    load_positions,
    merged,
    positions_from_review,
)
from ..coach.review import Mistake
from ..coach.strong import move_words
from ..engine import actions as A
from ..engine.cards import Card
from ..engine.game import Game
from ..engine.messages import N_, Message, _, msg
from ..pages.render import TEXT_PX, card_html, hand_html, meld_html, sentence_html
from .base import MessageBox, Part, displayed, translated_button
from .coach_review import OFFER_AFTER, OFFER_BEFORE, TURN
from .hand import SeatHand
from .keys import mark_next
from .practice_keep import PracticeKeeper

TITLE = N_("Try it again: position {i} of {n}")
EMPTY = N_("No positions to practise yet: after a round, open its review and press "
           "Try it again.")
PROMPT = N_("What would you do here? Choose: the coach's answer comes after.")
NOT_KEPT = N_("Your practice positions cannot be kept for a reload ({why}); they stay "
              "while this page is open.")


def practice_heading(position: PracticePosition) -> str:
    """Which decision it was ("Round 1, your turn 4"), as the review says it."""
    r, n = position.round_number, position.turn
    if not position.offer:
        return _(TURN).format(r=r, n=n)
    return _(OFFER_AFTER if n else OFFER_BEFORE).format(r=r, n=n)


class PracticePanel(Part, widgets.VBox):  # type: ignore[misc]
    """The learner's practice list and the position being practised (see the module).
    `keeper`: where the list is kept (`practice_keep`), None: in this kernel only.
    `price`: (least, most) fresh worlds an answer is priced on."""

    def __init__(self, keeper: PracticeKeeper | None = None, size: str = "normal",
                 price: tuple[int, int] = PRICE, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.size = size
        self.keeper = keeper
        self.price = price
        self.positions: tuple[PracticePosition, ...] = ()
        self.unread: tuple[Any, ...] = ()
        self.index = 0
        #: the answer to the position shown (None: not answered yet)
        self.answer: Answer | None = None
        self._game: Game | None = None  # the position shown, replayed
        self._choices: tuple[A.Action, ...] = ()
        self.message = MessageBox(size=size)
        self.message.add_class("tr-practice-message")
        guard = self.message.guard
        self.title = self._html("tr-practice-title")
        self.board = self._html("tr-practice-board")
        self.prompt = self._html("tr-prompt")
        self.prompt.add_class("tr-practice-prompt")
        self.hand = SeatHand(size)
        self.draw_button = translated_button(
            N_("Draw from stock"), "tr-draw",
            N_("Start your turn: draw the top card of the stock (T9)"), owner=self)
        self.take_button = translated_button(
            N_("Take the discard"), "tr-take",
            N_("Start your turn: take the top discard (T9)"), owner=self)
        self.buy_button = translated_button(N_("Buy"), "tr-buy",
                                            N_("Buy the declined discard (T10, T11)"),
                                            owner=self)
        self.pass_button = translated_button(N_("Pass"), "tr-pass", N_("Do not buy it (T10)"),
                                             owner=self)
        self.discard_button = translated_button(
            N_("Discard selected card"), "tr-discard",
            N_("End your turn: discard the one selected card (T13)"), owner=self)
        self.lay_off_button = translated_button(
            N_("Lay off selected card"), "tr-lay-off",
            N_("Add the selected card to a meld it fits (H9)"), owner=self)
        self.lay_down_button = translated_button(
            N_("Lay down suggested"), "tr-lay-down",
            N_("Lay down the solver's suggestion (T15)"), owner=self)
        self.other_button = widgets.Button(layout=widgets.Layout(width="auto"))
        self.other_button.add_class("tr-practice-other")
        for button, kind in ((self.draw_button, A.Draw), (self.take_button, A.TakeDiscard),
                             (self.buy_button, A.Buy), (self.pass_button, A.Pass)):
            button.on_click(guard(lambda _b, k=kind: self.choose_kind(k)))
        self.discard_button.on_click(guard(lambda _b: self.discard()))
        self.lay_off_button.on_click(guard(lambda _b: self.lay_off()))
        self.lay_down_button.on_click(guard(lambda _b: self.lay_down()))
        self.other_button.on_click(guard(lambda _b: self.choose_other()))
        self.moves = widgets.HBox([self.draw_button, self.take_button, self.buy_button,
                                   self.pass_button, self.lay_down_button,
                                   self.lay_off_button, self.discard_button,
                                   self.other_button])
        self.moves.add_class("tr-practice-moves")
        self.result = self._html("tr-practice-result")
        self.previous_button = translated_button(N_("Previous"), "tr-practice-previous",
                                                 N_("The position before this one"),
                                                 owner=self)
        self.next_button = translated_button(N_("Next"), "tr-practice-next",
                                             N_("The next position of your list"), owner=self)
        self.forget_button = translated_button(
            N_("Forget this position"), "tr-practice-forget",
            N_("Take this position off your practice list"), owner=self)
        self.close_button = translated_button(N_("Close"), "tr-practice-close",
                                              N_("Close the practice"), owner=self)
        self.previous_button.on_click(guard(lambda _b: self.go(self.index - 1)))
        self.next_button.on_click(guard(lambda _b: self.go(self.index + 1)))
        self.forget_button.on_click(guard(lambda _b: self.forget()))
        self.close_button.on_click(guard(lambda _b: self.close_panel()))
        self.nav = widgets.HBox([self.previous_button, self.next_button, self.forget_button,
                                 self.close_button])
        self.nav.add_class("tr-practice-nav")
        marker = [] if keeper is None or keeper.marker is None else [keeper.marker]
        self.body = widgets.VBox([self.title, self.message, self.board, self.prompt,
                                  self.hand, self.moves, self.result, self.nav])
        self.body.add_class("tr-practice-body")
        self.body.add_class("tr-seat-view")  # the card-game keys act on its buttons
        self.body.layout.display = "none"
        #: opens the list (shown while the panel is closed and the list is not empty)
        self.open_button = translated_button(
            N_("Your practice positions ({n})"), "tr-practice-open",
            N_("Play again the decisions you chose to practise"), owner=self)
        self.open_button.on_click(guard(lambda _b: self.show_at(self.index)))
        self.children = [self.open_button, self.body, *marker]
        self.add_class("tr-practice")
        self._load()
        self._redraw()

    @staticmethod
    def _html(css: str) -> widgets.HTML:
        html = widgets.HTML()
        html.add_class(css)
        return html

    # -- the list -------------------------------------------------------------------------
    def _load(self) -> None:
        if self.keeper is None:
            return
        loaded = load_positions(self.keeper.load())
        self.positions, self.unread = loaded.positions, loaded.unread
        if loaded.problems:
            self.message.show(loaded.problems[0], "error")

    def _keep(self) -> None:
        if self.keeper is None:
            return
        why = self.keeper.keep(dump_positions(self.positions, self.unread))
        if why is not None:
            self.message.show(msg(NOT_KEPT, None, why=why), "error")

    def add(self, game: Game, mistakes: Sequence[Mistake]) -> None:
        """The review's costly decisions of `game`: onto the list (each once), kept, and
        the panel opened at the first of them."""
        new = positions_from_review(game, mistakes)
        self.positions = merged(self.positions, new)
        self._keep()
        keys = [p.key for p in self.positions]
        first = keys.index(new[0].key) if new and new[0].key in keys else 0
        self.show_at(first)

    @property
    def opened(self) -> bool:
        return bool(self.body.layout.display != "none")

    def show_at(self, index: int = 0) -> None:
        """Open the panel at position `index` of the list."""
        self.body.layout.display = "flex"
        self.go(index)

    def close_panel(self) -> None:
        self.body.layout.display = "none"
        self._redraw()
        if self.positions:
            self.open_button.focus()

    def go(self, index: int) -> None:
        """Show position `index` (kept within the list), not yet answered."""
        self.index = max(0, min(index, len(self.positions) - 1))
        self.answer = None
        self._game = None
        self._choices = ()
        if self.positions:
            position = self.positions[self.index]
            self._game = game = position.game()
            self._choices = choices(position, game)
            self.hand.show(game.view(position.seat).hand)
        self._redraw()
        self._focus_first()

    def forget(self) -> None:
        """Take the position shown off the list."""
        if not self.positions:
            return
        self.positions = self.positions[:self.index] + self.positions[self.index + 1:]
        self._keep()
        self.go(self.index)

    @property
    def position(self) -> PracticePosition | None:
        return self.positions[self.index] if self.positions else None

    # -- answering ------------------------------------------------------------------------
    def choose_kind(self, kind: type[A.Action]) -> None:
        """Draw, take, buy or pass (the one of that kind among the choices)."""
        action = next((a for a in self._choices if type(a) is kind), None)
        if action is not None:
            self.choose(action)

    def _one_card(self, what: str, rule: str) -> Card | None:
        """The one card selected, or None after saying so (the seat's sentence)."""
        picked = self.hand.selected
        if len(picked) != 1:
            self.message.error(msg("Select exactly one card in your hand to {what}, then "
                                   "click again ({n} selected now)", rule, what=_(what),
                                   n=len(picked)))
            return None
        card: Card = picked[0]
        return card

    def discard(self) -> None:
        """Discard the one card selected in the hand."""
        card = self._one_card(N_("discard"), "T13")
        if card is not None and self.position is not None:
            self.choose(A.Discard(self.position.seat, card))

    def lay_off(self) -> None:
        """Lay off the one card selected: onto the meld of the review's move with that
        card, else the first meld it fits; a card that fits none says so."""
        card = self._one_card(N_("lay off"), "H9")
        position = self.position
        if card is None or position is None:
            return
        offs = [a for a in self._choices if isinstance(a, A.LayOff) and a.card == card]
        mine = [a for a in (position.best_action, position.made_action) if a in offs]
        if not offs:
            self.message.show(msg("{card} fits no meld on the table now", "H9", card=card),
                              "error")
            return
        self.choose((mine or offs)[0])

    def lay_down(self) -> None:
        """Lay down: the review's lay-down when it was one, else the solver's."""
        position, game = self.position, self._game
        if position is None or game is None:
            return
        downs = [a for a in (position.best_action, position.made_action)
                 if isinstance(a, A.LayDown)]
        if not downs:
            best = game.suggest_lay_down(position.seat)
            downs = [A.LayDown(position.seat, best)] if best is not None else []
        if downs:
            self.choose(downs[0])

    def choose_other(self) -> None:
        other = self._other()
        if other is not None:
            self.choose(other)

    def choose(self, action: A.Action) -> None:
        """The learner's choice: checked against the coach's best (`check_answer`)."""
        position = self.position
        if position is None or self.answer is not None:
            return
        self.answer = check_answer(position, action, *self.price, game=self._game)
        self.message.clear()
        self._redraw()
        self.next_button.focus()

    def _other(self) -> A.Action | None:
        """The review's move that no control of the panel makes (a Rook swap)."""
        plain = (A.Draw, A.TakeDiscard, A.Buy, A.Pass, A.Discard, A.LayOff, A.LayDown)
        return next((a for a in self._choices if not isinstance(a, plain)), None)

    def _focus_first(self) -> None:
        for button in (self.draw_button, self.buy_button):
            if button.layout.display != "none":
                button.focus()
                return
        self.hand.focus_card(None)

    # -- drawing ----------------------------------------------------------------------------
    def _redraw(self) -> None:
        if not hasattr(self, "nav"):
            return
        position, game, size = self.position, self._game, self.size
        for part in (self.hand, self.message):  # the page's card size, in every part
            if part.size != size:
                part.size = size
        has = bool(position) and game is not None
        n = len(self.positions)
        self.title.value = (f'<div style="font-weight:bold;font-size:{TEXT_PX[size]}px">'
                            + (escape(_(TITLE).format(i=self.index + 1, n=n)) + " · "
                               + escape(practice_heading(position)) if has and position
                               else escape(_(EMPTY))) + "</div>")
        kinds = {type(a) for a in self._choices}
        answered = self.answer is not None
        for button, kind in ((self.draw_button, A.Draw), (self.take_button, A.TakeDiscard),
                             (self.buy_button, A.Buy), (self.pass_button, A.Pass),
                             (self.discard_button, A.Discard),
                             (self.lay_off_button, A.LayOff),
                             (self.lay_down_button, A.LayDown)):
            button.layout.display = displayed(kind in kinds)
            button.disabled = answered
        other = self._other()
        self.other_button.layout.display = displayed(other is not None)
        self.other_button.disabled = answered
        if other is not None and game is not None and position is not None:
            view = game.view(position.seat)
            words = _move_words(other, view.offered or view.discard_top)
            text = str(words)
            self.other_button.description = text[:1].upper() + text[1:]
        self.hand.layout.display = displayed(A.Discard in kinds)
        self.hand.disabled = answered
        for part in (self.board, self.prompt, self.moves, self.forget_button):
            part.layout.display = displayed(has)
        self.open_button.description = _("Your practice positions ({n})").format(n=n)
        self.open_button.layout.display = displayed(n > 0 and not self.opened)
        self.previous_button.disabled = self.index <= 0
        self.next_button.disabled = self.index >= n - 1
        if not has or game is None or position is None:
            self.board.value = self.prompt.value = self.result.value = ""
            mark_next(self.prompt, "wait")
            return
        self.board.value = self._board_html(game, position, A.Discard not in kinds)
        self.prompt.value = (f'<div style="font-size:{TEXT_PX[size]}px">'
                             f"{escape(_(PROMPT))}</div>")
        step = "wait" if answered else position.phase
        mark_next(self.prompt, step)
        self.result.value = "" if self.answer is None else (
            f'<div class="tr-practice-answer" role="status" style="font-size:'
            f'{TEXT_PX[size]}px;margin:6px 0;padding:4px 8px;border-left:4px solid '
            f'{"#2e7d32" if self.answer.found else "#b26a00"}">'
            f"<div>{sentence_html(self.answer.message())}</div>"
            f"<div>{sentence_html(self.answer.figures())}</div></div>")

    def _board_html(self, game: Game, position: PracticePosition, with_hand: bool) -> str:
        """The position as the seat saw it: its hand (when it is not the picker), the
        top of the discard pile or the card offered, the melds on the table."""
        view = game.view(position.seat)
        small = "small" if self.size in ("small", "normal") else "normal"
        card: Card | None
        if view.offered is not None and position.phase == "buy":
            label, card = _("Offered to buy"), view.offered
        else:
            label, card = _("Top of the discard pile"), view.discard_top
        pile = card_html(card, small) if card is not None else escape(_("empty"))
        melds = "".join(meld_html(m, small) for seat_melds in view.table for m in seat_melds)
        table = (f'<div><div style="font-weight:bold">{escape(_("Melds on the table"))}'
                 f"</div>{melds}</div>") if melds else ""
        hand = hand_html(view.hand, small, (), label=_("Your hand then")) if with_hand else ""
        return (f'<div style="display:flex;flex-wrap:wrap;gap:12px;align-items:flex-end">'
                f'{hand}<div><div style="font-weight:bold">{escape(label)}</div>{pile}</div>'
                f"{table}</div>")


def _move_words(action: A.Action, card: Card | None) -> Message:
    return move_words(action, card or "")
