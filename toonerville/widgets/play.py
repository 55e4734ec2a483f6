"""Play a whole game of Toonerville Rook against bots: the `PlayGame` app of notebook 07.

`PlayGame` is a thin `VBox` of views over one `PlaySession` (`session.py`), which owns
the game and the bots and announces every change; the views redraw from
`game.view(0)` and ask the engine everything (which moves apply, why not, the solver's
lay-down, the heuristic bot's hint). Sentences are in `play_text.py`, the folding
panels (more moves, next game, save / load) in `play_panels.py`.

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

from collections import Counter
from collections.abc import Sequence
from html import escape
from typing import Any

import ipywidgets as widgets

from .. import actions as A
from ..bots import Bot
from ..cards import ROOK, Card
from ..errors import NotYourTurnError, WrongPhaseError
from ..game import Game
from ..melds import Meld
from ..messages import N_, Message, _, add_listener, direction, msg
from ..render import SIZES, TEXT_PX, meld_html
from ..rules import Rules
from ..scenarios import BOT_NAMES as BOT_NAMES
from ..scenarios import HUMAN, SCENARIOS, player_names
from ..scenarios import HUMAN_NAME as HUMAN_NAME
from ..scenarios import laydown_scenario as laydown_scenario
from ..views import Event, Phase, PlayerView
from .base import MessageBox, size_style
from .board import PilesView, ScoreSheet, TableView
from .hand import HandOrder, SeatHand
from .language import LanguagePicker
from .play_panels import MovesPanel, Parts, SavePanel, SettingsPanel, buy_offer_dropdown
from .play_text import (
    keys_html,
    offer_html,
    others_html,
    prompt_html,
    status_html,
    you,
)
from .recap import RoundRecap
from .session import PlaySession, buy_offer_options
from .settings import SizeToggle
from .url import query_params, size_from_url

__all__ = ["BOT_NAMES", "HUMAN_NAME", "MOVES", "PANELS", "SAVE", "SCENARIOS", "SETTINGS",
           "PlayGame", "PlayHand", "laydown_scenario", "player_names"]

LOG_LINES = 10

_CSS = """<style>
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

#: the folding panels, each opened by a toggle button (built when first opened)
PANELS = (N_("More moves: type melds, lay off, the Rook swap"),
          N_("Next game: bots, seed, house rules"),
          N_("Save, load, or let the bots finish"))
MOVES, SETTINGS, SAVE = range(3)


def _smaller(size: str) -> str:
    """The table's card size: one step below the hand's, so every meld fits in view."""
    order = list(SIZES)
    return order[max(0, order.index(size) - 1)]


#: the hand of the app is the seat view's hand (`hand.SeatHand`), under its old name too
PlayHand = SeatHand


def log_lines(events: Sequence[Event], notes: Sequence[tuple[int, Message]], first: int
              ) -> list[tuple[str, bool]]:
    """The game's sentences from event `first` on, with the app's notes (take-backs,
    hints) in their places: (text, is a note)."""
    lines: list[tuple[str, bool]] = []
    placed = sorted(range(len(notes)), key=lambda k: notes[k][0])
    k = 0
    for index in range(first, len(events) + 1):
        while k < len(placed) and notes[placed[k]][0] <= index:
            if notes[placed[k]][0] >= first:
                lines.append((str(notes[placed[k]][1]), True))
            k += 1
        if index < len(events):
            lines.append((str(events[index].text), False))
    return lines


class PlayLog(widgets.HTML):  # type: ignore[misc]
    """What happened: the last `limit` lines, numbered, the newest last and in bold;
    the app's notes in italics. `.text` is every line since the first shown."""

    def __init__(self, limit: int = LOG_LINES) -> None:
        super().__init__()
        self.limit = limit
        self.lines: list[tuple[str, bool]] = []

    @property
    def text(self) -> str:
        return "\n".join(text for text, _note in self.lines)

    def show(self, events: Sequence[Event], notes: Sequence[tuple[int, Message]],
             first: int, size: str, keep: str | None = None) -> None:
        """The lines from event `first` on; at least `limit` of them, and every line from
        the last one equal to `keep` (your own last move) on."""
        self.lines = lines = log_lines(events, notes, first)
        start = max(0, len(lines) - self.limit)
        if keep is not None:
            mine = [n for n, (line, _note) in enumerate(lines) if line == keep]
            start = min(start, mine[-1]) if mine else start
        items = []
        for n, (text, note) in enumerate(lines[start:], start + 1):
            body = f"<b>{escape(text)}</b>" if n == len(lines) else escape(text)
            items.append(f'<li class="tr-note">{body}</li>' if note else f"<li>{body}</li>")
        self.value = "" if not items else (
            f'<ol class="tr-events" start="{first + start + 1}" style="margin:4px 0;'
            f'padding-inline-start:2.2em;font-size:{TEXT_PX[size]}px;line-height:1.4">'
            f'{"".join(items)}</ol>')


class PlayGame(widgets.VBox):  # type: ignore[misc]
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
        self.table = TableView(size=_smaller(self._size))
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
        self.recap.start(session.game.history)
        self.suggested = make.html("tr-suggested")
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
                                       N_("What would the heuristic bot do in your place?"))
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
                            moves, self.suggested]
        return [widgets.HTML(_CSS, layout=make.none), size_style(), self.status,
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

    # -- the moves -----------------------------------------------------------------------
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
        err = self.game.refusal(A.Discard(HUMAN, ROOK))  # the wrong phase or turn, any card
        if isinstance(err, WrongPhaseError | NotYourTurnError):
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

    def _hint(self) -> None:
        found = self.session.hint()
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

    # -- showing the game ----------------------------------------------------------------
    def set_size(self, size: str) -> None:
        """Card size for every picture: normal, large or projector (`SIZES`)."""
        if size not in SIZES or size == self._size:
            return
        self.remove_class(f"tv-size-{self._size}")
        self._size = size
        self.add_class(f"tv-size-{size}")
        self.hand.size = size
        parts = [self.message, self.piles, self.score_sheet, self.recap]
        if self._settings is not None:
            parts.append(self._settings.rules_panel)
        for part in parts:
            part.size = size
        self.table.size = _smaller(size)
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
