"""Play a whole game of Toonerville Rook against bots: the `PlayGame` app of notebook 07.

`PlayGame` is a thin `VBox` of views over one `PlaySession` (`session.py`), which owns
the game and the bots and announces every change; the views redraw from
`game.view(0)` and ask the engine everything (which moves apply, why not, the solver's
lay-down, the heuristic bot's hint). Sentences are in `play_text.py`, the folding
panels (more moves, next game, save / load) in `play_panels.py`, the log in
`play_log.py`; what each button does and where the focus goes next is `play_moves.py`,
redrawing what changed (and the round's recap) `play_show.py`. The hand is the seat
view's (`hand.SeatHand`, by colour or by number).

The page is laid out in the order of a turn, which is also the Tab order: the message
(kept in view), the piles and table, the buy offer, draw or take, the hand, the moves
that end with the discard, take back and hint, the panels, the record, and the
toolbar. After each action the focus moves to the next sensible control: the Draw
button on your turn, the card you drew, Discard once one card is selected.

Stable hooks for tests are CSS classes (`tr-draw`, `tr-take`, `tr-buy`, `tr-pass`,
`tr-discard`, `tr-lay-down`, `tr-suggest`, `tr-undo`, `tr-hint`, `tr-new-game`,
`tr-hand`, `tr-card`, `tr-log`, `tr-score-sheet`, `tr-message`, `tr-panel-0..2` ...).
In Voila, `?scenario=laydown` starts a seeded position in which the human can lay down
after drawing (`SCENARIOS`).
"""

from __future__ import annotations

import ipywidgets as widgets

from .. import actions as A
from ..bots import Bot
from ..game import Game
from ..messages import N_, add_listener, direction, msg
from ..render import SIZES
from ..rules import Rules
from ..scenarios import BOT_NAMES as BOT_NAMES
from ..scenarios import HUMAN, SCENARIOS, player_names
from ..scenarios import HUMAN_NAME as HUMAN_NAME
from ..scenarios import laydown_scenario as laydown_scenario
from .base import MessageBox, size_style
from .board import PilesView, ScoreSheet, TableView
from .coach_view import CoachHint
from .hand import HandOrder, SeatHand
from .language import LanguagePicker
from .play_log import LOG_LINES as LOG_LINES
from .play_log import PlayLog
from .play_moves import MOVES, PANELS, SAVE, SETTINGS, PlayMoves
from .play_panels import MovesPanel, Parts, SavePanel, SettingsPanel, buy_offer_dropdown
from .play_show import PLAY_CSS, PlayShow, smaller
from .play_text import keys_html
from .recap import RoundRecap
from .session import PlaySession, buy_offer_options
from .settings import SizeToggle
from .url import query_params, size_from_url

__all__ = ["BOT_NAMES", "HUMAN_NAME", "MOVES", "PANELS", "SAVE", "SCENARIOS", "SETTINGS",
           "PlayGame", "PlayHand", "laydown_scenario", "player_names"]

#: the hand of the app is the seat view's hand (`hand.SeatHand`), under its old name too
PlayHand = SeatHand


class PlayGame(PlayMoves, PlayShow, widgets.VBox):  # type: ignore[misc]
    """A game of Toonerville Rook: you at seat 0 against 2–4 bots.

    `PlayGame(seed=7)` deals a new game; `bots` (2–4), `bot_kind` ("heuristic",
    "random" or a bot object) and `rules` set it up, and the page's "Next game" panel
    changes them for "New game". `game=` plays on from a given `Game` (seat 0 is you),
    for lessons and tests; `scenario="laydown"` starts a teaching position (by default
    the scenario is read from the page address in Voila: `?scenario=laydown`).
    `buy_offers` says which declined discards you are offered: "helpful" (those that
    help you, the default), "always" or "never" (`offer_buys=False` is "never").
    The session is `.session`, the game `.game`.
    """

    def __init__(self, seed: int = 7, bots: int = 3, bot_kind: str | Bot = "heuristic",
                 rules: Rules | None = None, *, game: Game | None = None,
                 scenario: str | None = None, size: str | None = None,
                 turn_limit: int | None = None, offer_buys: bool = True,
                 buy_offers: str | None = None) -> None:
        size = size or size_from_url()  # the page's ?size= unless the caller chose
        self._size = size if size in SIZES else "normal"
        offers = buy_offers or ("helpful" if offer_buys else "never")
        wanted = scenario if scenario is not None or game is not None \
            else query_params().get("scenario")
        self.session = session = PlaySession(seed, bots, bot_kind, rules, turn_limit, offers,
                                             game=game, scenario=wanted)
        self._make = Parts()
        self._shown: dict[str, object] = {}
        self._moves: MovesPanel | None = None
        self._settings: SettingsPanel | None = None
        self._save: SavePanel | None = None
        self._log_from = 0
        self.language = LanguagePicker()  # the page's ?lang= (first picker of a kernel)
        self.language.add_class("tr-language")
        self._build()
        super().__init__(children=self._layout())
        for css in ("tr-play", "tv-sized", f"tv-size-{self._size}"):
            self.add_class(css)
        session.observe(lambda _c: self._said(), "message")
        session.observe(lambda _c: self._changed_game(), "revision")
        session.observe(lambda _c: self._show_suggestion(), "suggestion")
        session.observe(lambda _c: self._show_log(), "notes")
        session.observe(lambda _c: self._show_offer(), "offer")
        self._said()
        self._changed_game()
        self._show_offer()
        self._set_direction()
        add_listener(self._language_changed)
        self._focus_next()

    def __repr__(self) -> str:
        """Short, so a saved notebook's text fallback stays small and readable."""
        game = self.game
        return (f"PlayGame(seed={game.seed}, players={game.players}, "
                f"round={game.round_number})")

    @property
    def game(self) -> Game:
        return self.session.game

    # -- building the page ---------------------------------------------------------------
    def _build(self) -> None:
        make, session = self._make, self.session
        self.message = MessageBox(size=self._size)
        self.message.add_class("tr-message")
        guard = self.message.guard
        self.status = make.html("tr-status")
        self.others = make.html("tr-others")
        self.piles = PilesView(size=self._size)
        self.piles.add_class("tr-piles")
        self.table = TableView(size=smaller(self._size))
        self.table.add_class("tr-table")
        self.prompt = make.html("tr-prompt")
        self.hand = SeatHand(self._size)
        self.hand.observe(guard(self._selection_changed), "selected")
        self.hand_order = HandOrder()
        self.hand_order.watch(self.hand_order, guard(
            lambda change: self.hand.reorder(change["new"])))
        #: the end of a round, shown before the next round's table (Continue closes it)
        self.recap = RoundRecap(self._size, on_close=self._recap_closed)
        self.recap.rules = session.rules
        self.recap.me = HUMAN
        self.recap.review_source = lambda: (self.game, HUMAN)
        self.recap.start(session.game.history)
        self.suggested = make.html("tr-suggested")
        self.coach = CoachHint(self._size)
        self.log_view = PlayLog()
        self.log_view.add_class("tr-log")
        log_title = make.html("tr-log-title")
        make.text(log_title, "value", N_("<b>What happened</b> (newest last, in bold)"))
        self.hand_title = make.html("tr-hand-title")
        make.text(self.hand_title, "value", N_("<b>Your hand</b> (Tab to a card; Space or "
                                               "Enter selects it)"))
        self.log_box = widgets.VBox([log_title, self.log_view])
        self.log_box.add_class("tr-log-box")
        self.score_sheet = ScoreSheet(size=self._size)
        self.score_sheet.add_class("tr-score-sheet")
        self.offer_text = make.html("tr-offer")
        self.buy_button = make.button(N_("Buy"), "tr-buy",
                                      N_("Buy the declined discard (T10)"))
        self.buy_button.button_style = "warning"
        self.pass_button = make.button(N_("Pass"), "tr-pass", N_("Do not buy it (T10)"))
        self.buy_row = make.row(self.offer_text, self.buy_button, self.pass_button,
                                css="tr-buy-row")
        self.buy_row.layout.display = "none"
        self.draw_button = make.button(
            N_("Draw from stock"), "tr-draw",
            N_("Start your turn: draw the top card of the stock (T9)"))
        self.take_button = make.button(N_("Take the discard"), "tr-take",
                                       N_("Start your turn: take the top discard (T9)"))
        self.suggest_button = make.button(
            N_("Suggest"), "tr-suggest",
            N_("Ask the solver for a lay-down of this round's contract"))
        self.lay_down_button = make.button(N_("Lay down suggested"), "tr-lay-down",
                                           N_("Lay down the solver's suggestion (T15)"))
        self.discard_button = make.button(
            N_("Discard selected card"), "tr-discard",
            N_("End your turn: discard the one selected card (T13)"))
        self.undo_button = make.button(N_("Take back"), "tr-undo",
                                       N_("Take back your last move (and the bots' since)"))
        self.hint_button = make.button(N_("Hint"), "tr-hint",
                                       N_("What would the strong bot do in your place, "
                                          "and what would the other choices cost?"))
        self.new_game_button = make.button(N_("New game"), "tr-new-game",
                                           N_("Deal a new game (settings: see 'Next game')"))
        self.size_toggle = SizeToggle(self._size if self._size != "small" else "normal")
        self.size_toggle.add_class("tr-size")
        self.buy_offers = buy_offer_dropdown(session, make)
        self.key_legend = make.html("tr-keys", keys_html())
        self.toggles = []
        for index, title in enumerate(PANELS):
            toggle = widgets.ToggleButton(layout=make.auto)
            make.text(toggle, "description", title)
            toggle.add_class("tr-panel-toggle")
            toggle.add_class(f"tr-panel-{index}")
            toggle.observe(guard(lambda change, i=index: self._toggle(i, change["new"])),
                           "value")
            self.toggles.append(toggle)
        self.panel_boxes = [widgets.VBox(layout=widgets.Layout(display="none"))
                            for _panel in PANELS]
        for button, handler in (
                (self.draw_button, lambda: self._act(A.Draw(HUMAN))),
                (self.take_button, lambda: self._act(A.TakeDiscard(HUMAN))),
                (self.buy_button, lambda: self._act(A.Buy(HUMAN))),
                (self.pass_button, lambda: self._act(A.Pass(HUMAN))),
                (self.suggest_button, self._suggest),
                (self.lay_down_button, self._lay_down_suggested),
                (self.discard_button, self._discard),
                (self.undo_button, self._take_back), (self.hint_button, self._hint),
                (self.new_game_button, self.new_game)):
            button.on_click(guard(lambda _b, h=handler: h()))
        self.size_toggle.observe(guard(lambda change: self.set_size(change["new"])), "value")

    def _layout(self) -> list[widgets.Widget]:
        make = self._make
        board = make.row(self.piles, self.table, css="tr-board")
        start = make.row(self.draw_button, self.take_button, css="tr-start")
        moves = make.row(self.suggest_button, self.lay_down_button, self.discard_button,
                         self.undo_button, self.hint_button, css="tr-moves")
        panels = widgets.VBox([w for pair in zip(self.toggles, self.panel_boxes, strict=True)
                               for w in pair])
        panels.add_class("tr-panels")
        record = make.row(self.log_box, self.score_sheet, css="tr-record")
        toolbar = make.row(self.new_game_button, self.size_toggle, self.buy_offers,
                           self.language, css="tr-toolbar")
        hand_title = make.row(self.hand_title, self.hand_order, css="tr-hand-head")
        #: what the recap covers while it is open: the new round's table and moves
        self.round_parts = [board, self.prompt, self.buy_row, start, hand_title, self.hand,
                            moves, self.suggested, self.coach]
        return [widgets.HTML(PLAY_CSS, layout=make.none), size_style(), self.status,
                self.others, self.message, self.recap, *self.round_parts, panels, record,
                toolbar, self.key_legend]

    # -- panels --------------------------------------------------------------------------
    def _toggle(self, index: int, opened: bool) -> None:
        """Open or close a panel; an opened panel takes the focus (its first control)."""
        self.panel_boxes[index].layout.display = "flex" if opened else "none"
        if opened:
            panel = self._panel(index)
            first = {MOVES: "melds_text", SETTINGS: "bots_count", SAVE: "save_button"}
            getattr(panel, first[index]).focus()

    def _panel(self, index: int) -> widgets.Widget:
        """The panel `index`, built the first time it is asked for."""
        session, make = self.session, self._make
        panel: MovesPanel | SettingsPanel | SavePanel | None
        panel = (self._moves, self._settings, self._save)[index]
        if panel is None:
            if index == MOVES:
                panel = self._moves = MovesPanel(session, make, self.message, self._one_card,
                                                   self._act)
            elif index == SETTINGS:
                panel = self._settings = SettingsPanel(session, make, self._size)
            else:
                panel = self._save = SavePanel(session, make, self.message)
            self.panel_boxes[index].children = [panel]
        return panel

    def open_panel(self, panel: int) -> None:
        """Open (and build) a panel: `MOVES`, `SETTINGS` or `SAVE`."""
        self.toggles[panel].value = True

    @property
    def moves_panel(self) -> MovesPanel:
        """The "More moves" panel (opened)."""
        self.open_panel(MOVES)
        assert self._moves is not None
        return self._moves

    @property
    def settings_panel(self) -> SettingsPanel:
        """The "Next game" panel (opened)."""
        self.open_panel(SETTINGS)
        assert self._settings is not None
        return self._settings

    @property
    def save_panel(self) -> SavePanel:
        """The "Save, load" panel (opened)."""
        self.open_panel(SAVE)
        assert self._save is not None
        return self._save

    # -- languages -----------------------------------------------------------------------
    def _set_direction(self) -> None:
        if direction() == "rtl":
            self.add_class("tr-rtl")
        else:
            self.remove_class("tr-rtl")

    def _language_changed(self, _code: str) -> None:
        """Redraw every text of the app in the language now in use."""
        self._set_direction()
        self._make.relabel()
        self.size_toggle.refresh()
        self.message.refresh()
        self.key_legend.value = keys_html()
        options = buy_offer_options()
        if list(self.buy_offers.options) != options:
            value = self.buy_offers.value
            self.buy_offers.options = options
            self.buy_offers.value = value
        for panel in (self._moves, self._settings, self._save):
            if panel is not None:
                panel.relabel()
        self._shown.clear()
        self._refresh()
        self._show_offer()

    # -- starting games ------------------------------------------------------------------
    def new_game(self) -> None:
        """Deal a new game with the "Next game" settings (bots, bot kind, seed, house
        rules); the seed then moves on by one for the game after."""
        rules = None
        if self._settings is not None:
            house = self._settings.rules_panel
            if not house.valid:
                self.session.say(msg("Fix the house rules first: {why}", None,
                                     why=house.messages.text), "error")
                return
            rules = house.rules
        self.session.new_game(rules)
        self._focus_next()

    def start(self, game: Game) -> None:
        """Play on from `game` (seat 0 is you); the bots play until you must decide."""
        self.session.start(game)
        self._focus_next()

    def save(self) -> str:
        """The game as JSON, in the save box with a download link."""
        return self.save_panel.save()

    def load(self, text: str | bytes) -> bool:
        """Replace the game by a saved one; a bad file says why and keeps this game."""
        done = self.save_panel.load(text)
        if done:
            self._focus_next()
        return done

    def autoplay(self) -> None:
        """A heuristic bot plays your seat until the game is over (demos, benchmarks)."""
        self.session.autoplay()
