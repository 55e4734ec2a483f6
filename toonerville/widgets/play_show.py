"""Showing the game in the play app (07): `PlayShow`, a mixin of `PlayGame`.

Owns redrawing what changed: the card size, the message, the hand, the piles, the table,
the score sheet, the status, the seats, the prompt, the buy offer, the solver's
suggestion and the log, each only when its facts changed; and the round's recap, which
covers the new round's table until Continue.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import ipywidgets as widgets

from ..game import Game
from ..messages import _
from ..render import SIZES, TEXT_PX, meld_html
from ..scenarios import HUMAN
from ..views import Phase, PlayerView
from .base import MessageBox
from .board import PilesView, ScoreSheet, TableView
from .coach_view import CoachHint
from .hand import SeatHand
from .play_log import LOG_LINES, PlayLog
from .play_panels import MovesPanel, SettingsPanel
from .play_text import offer_html, others_html, prompt_html, status_html, you
from .recap import RoundRecap
from .session import PlaySession
from .settings import SizeToggle

#: the app's own style: the sticky message, the focus ring, the rows, the captions' sizes
PLAY_CSS = """<style>
.tr-play, .tr-play .tr-top { overflow: visible !important; }
.tr-play .tr-message { position: sticky; top: 0; z-index: 4;
  background: var(--jp-layout-color0, #fff); }
/* the message box sticks to the top of the page's scroller: the output boxes around the
   app must not clip (an overflow other than visible would be the sticky's scroller) */
.jp-OutputArea:has(.tr-play), .jp-OutputArea-child:has(.tr-play),
.jp-OutputArea-output:has(> .tr-play) { overflow: visible !important; }
.tr-play .tv-message > div::first-letter { text-transform: uppercase; }
.tr-play .jupyter-button:focus-visible, .tr-play select:focus-visible,
.tr-play input:focus-visible, .tr-play textarea:focus-visible {
  outline: 3px solid #1565c0; outline-offset: 2px; }
[data-jp-theme-light="false"] .tr-play .jupyter-button:focus-visible,
[data-jp-theme-light="false"] .tr-play select:focus-visible,
[data-jp-theme-light="false"] .tr-play input:focus-visible { outline-color: #90caf9; }
.tr-play.tr-rtl { direction: rtl; }
.tr-play.tr-rtl .tr-hand, .tr-play.tr-rtl .tr-melds-text input { direction: ltr; }
.tr-play .tr-prompt { margin-top: 6px; }
.tr-play .tr-buy-row { border: 2px solid #ef6c00; border-radius: 8px; padding: 4px 10px; }
.tr-play .tr-offer-even .tr-offer-number { background: #fff3e0; color: #4e2600; }
.tr-play .tr-offer-odd .tr-offer-number { background: #e3f2fd; color: #0d2b52; }
.tr-play .tr-offer-number { padding: 1px 6px; border-radius: 4px; }
.tr-play .tr-row { align-items: center; flex-wrap: wrap; gap: 4px; }
.tr-play .tr-board, .tr-play .tr-record { align-items: flex-start; gap: 28px; }
.tr-play .tr-toolbar { gap: 16px; margin-top: 6px; }
.tr-play .tr-moves { border-top: 1px solid rgba(127,127,127,.45); padding-top: 6px; }
.tr-play .tr-log-box { flex: 1 1 22em; min-width: 18em; }
.tr-play .tr-log .tr-events { max-height: 18em; overflow-y: auto; }
.tr-play .tr-panels { align-items: flex-start; gap: 4px; }
.tr-play .tr-panels > .widget-vbox { align-self: stretch; }
.tr-play .tr-note { font-style: italic; }
.tr-play .tr-keys-list { margin: 2px 0; padding-inline-start: 1.4em; }
.tr-play .tr-keys-box kbd { font-family: inherit; font-weight: bold; }
""" + "".join(  # the app's own captions follow the card size too (projector: 28px)
    f".tr-play.tv-size-{name} :is(.tr-hand-title, .tr-log-title, .tr-help, .tr-keys, "
    f".tr-download) {{ font-size: {px}px; }}\n" for name, px in TEXT_PX.items()
) + "</style>"


def smaller(size: str) -> str:
    """The table's card size: one step below the hand's, so every meld fits in view."""
    order = list(SIZES)
    return order[max(0, order.index(size) - 1)]


class PlayShow:
    """Redrawing the app from the session's game (see the module)."""

    session: PlaySession
    _size: str
    _shown: dict[str, object]
    _log_from: int
    _moves: MovesPanel | None
    _settings: SettingsPanel | None
    _picking: bool
    message: MessageBox
    hand: SeatHand
    piles: PilesView
    table: TableView
    score_sheet: ScoreSheet
    recap: RoundRecap
    coach: CoachHint
    size_toggle: SizeToggle
    status: widgets.HTML
    others: widgets.HTML
    prompt: widgets.HTML
    offer_text: widgets.HTML
    suggested: widgets.HTML
    buy_row: widgets.HBox
    buy_button: widgets.Button
    draw_button: widgets.Button
    take_button: widgets.Button
    suggest_button: widgets.Button
    lay_down_button: widgets.Button
    discard_button: widgets.Button
    log_view: PlayLog
    round_parts: list[widgets.Widget]

    if TYPE_CHECKING:  # given by `PlayGame`, `PlayMoves` and the widget class
        @property
        def game(self) -> Game: ...

        def _focus_next(self) -> None: ...

        def add_class(self, css: str) -> None: ...

        def remove_class(self, css: str) -> None: ...

    def set_size(self, size: str) -> None:
        """Card size for every picture: normal, large or projector (`SIZES`)."""
        if size not in SIZES or size == self._size:
            return
        self.remove_class(f"tv-size-{self._size}")
        self._size = size
        self.add_class(f"tv-size-{size}")
        self.hand.size = size
        parts = [self.message, self.piles, self.score_sheet, self.recap, self.coach]
        if self._settings is not None:
            parts.append(self._settings.rules_panel)
        for part in parts:
            part.size = size
        self.table.size = smaller(size)
        if size in dict(self.size_toggle.options).values() and self.size_toggle.value != size:
            self.size_toggle.value = size
        self._show_suggestion()
        self._refresh()
        self._show_offer()

    def _said(self) -> None:
        _serial, message, kind = self.session.message
        if message:
            self.message.show(message, kind)
        else:
            self.message.clear()

    def _changed(self, part: str, key: object) -> bool:
        if self._shown.get(part) == key:
            return False
        self._shown[part] = key
        return True

    def _changed_game(self) -> None:
        game = self.game
        if self._changed("game", id(game)):
            self._log_from = max(0, len(game.history) - LOG_LINES)
            self._shown = {"game": id(game)}
            self.recap.close_recap()
            self.recap.rules = game.rules
            self.recap.start(game.history)
        self._refresh()
        if self.recap.offer(game.history):
            self._show_round_parts(False)
            self.recap.continue_button.focus()

    def _show_round_parts(self, shown: bool) -> None:
        for part in self.round_parts:
            part.layout.display = None if shown else "none"
        if shown:
            self._show_offer()  # the buy row shows only with an offer

    def _recap_closed(self) -> None:
        """Continue: the new round's table comes back, the focus on your next move."""
        self._show_round_parts(True)
        self._focus_next()

    def _refresh(self) -> None:
        """Redraw the parts of the page whose facts changed."""
        game = self.game
        view = game.view(HUMAN)
        self.coach.observe_view(view)
        if self._changed("hand", view.hand):
            self._picking = True
            try:
                self.hand.show(view.hand)
            finally:
                self._picking = False
        if self._changed("piles", (view.stock_size, view.discard_top, view.discard_size)):
            self.piles.update(view)
        if self._changed("table", view.table):
            self.table.update(dict(zip(you(game.names), view.table, strict=True)))
        if self._moves is not None:
            self._moves.refresh()
        if self._changed("scores", (view.scores, game.is_over)):
            self.score_sheet.update(you(game.names), view.scores,
                                    None if game.is_over else view.round_number)
        self.status.value = _sized(status_html(game, view), self._size, 1.15)
        self.others.value = _sized(others_html(game, view), self._size)
        self.prompt.value = _sized(prompt_html(game, view), self._size, 1.1)
        self._highlight(view)
        self._show_log()

    def _show_offer(self) -> None:
        offer = self.session.offer
        self.buy_row.layout.display = "flex" if offer and not self.recap.shown else "none"
        if not offer:
            return
        number, card, seat = offer
        self.buy_button.description = _("Buy {card}").format(card=card)
        reason = self.session.offer_reason() if self.session.buy_offers == "helpful" else None
        self.offer_text.value = _sized(offer_html(self.game, number, card, seat, reason),
                                       self._size)

    def _show_suggestion(self) -> None:
        self.suggested.value = "".join(meld_html(m, self._size)
                                       for m in self.session.suggestion)

    def _show_log(self) -> None:
        game = self.game
        key = (len(game.history), len(self.session.notes), self._size, id(game))
        if self._changed("log", key):
            mine = next((e for e in reversed(game.history)  # your last move of a turn
                         if e.seat == HUMAN and e.action and e.kind.value != "pass"), None)
            self.log_view.show(game.history, self.session.notes, self._log_from,
                               self._size, None if mine is None else str(mine.text))

    def _highlight(self, view: PlayerView) -> None:
        """The buttons for what the human may do now are blue (the others still answer,
        with the reason they do not apply)."""
        mine = view.current == HUMAN and not self.game.is_over
        draw, play = mine and view.phase is Phase.DRAW, mine and view.phase is Phase.PLAY
        down = view.down[HUMAN]
        for button, on in ((self.draw_button, draw), (self.take_button, draw),
                           (self.suggest_button, play and not down),
                           (self.lay_down_button, play and not down),
                           (self.discard_button, play)):
            style = "primary" if on else ""
            if button.button_style != style:
                button.button_style = style


def _sized(html: str, size: str, scale: float = 1.0) -> str:
    """`html` at the text size of `size` (so projector size scales every sentence)."""
    return f'<div style="font-size:{round(TEXT_PX[size] * scale)}px">{html}</div>'
