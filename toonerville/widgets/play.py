"""Play a whole game of Toonerville Rook against bots: the `PlayGame` app of notebook 07.

`PlayGame` is a thin `VBox` over one `Game`: the human is seat 0, bots sit at the other
seats and each sees only its own `PlayerView`. Every move is a widget; the game checks
it, and a refusal shows the engine's explaining sentence (with its rule id) instead of a
traceback, leaving the game as it was. After each of the human's moves the bots play
until the human must decide again (their turn, or a declined discard they may buy).

The click → picture path is kept short: each part of the page is redrawn only when the
facts it shows change, and the hand keeps one toggle button per card (its picture is a
CSS background sent once per card value), so a draw adds one button and a new order.

Stable hooks for tests are CSS classes (`tr-draw`, `tr-take`, `tr-buy`, `tr-pass`,
`tr-discard`, `tr-lay-down`, `tr-suggest`, `tr-new-game`, `tr-hand`, `tr-log`,
`tr-score-sheet`, `tr-message`, ...). In Voila, `?scenario=laydown` starts a seeded
position in which the human can lay down after drawing (`SCENARIOS`).
"""

from __future__ import annotations

import base64
import contextlib
import random
from collections import Counter
from collections.abc import Sequence
from html import escape
from typing import Any

import ipywidgets as widgets
from ipywidgets.widgets.widget_bool import ToggleButtonStyle
from ipywidgets.widgets.widget_string import HTMLStyle

from .. import actions as A
from ..bots import Bot, HeuristicBot, make_bot
from ..cards import ROOK, Card, format_cards, sort_cards
from ..errors import NotYourTurnError, SaveFileError, ToonervilleError, WrongPhaseError
from ..game import Game
from ..laydown import as_melds
from ..melds import Meld
from ..messages import N_, Message, _, add_listener, direction, msg, plural
from ..render import SIZES, card_svg, meld_html
from ..rules import ROUNDS, Rules
from ..scenarios import BOT_NAMES as BOT_NAMES
from ..scenarios import HUMAN, HUMAN_NAME, SCENARIOS, player_names
from ..scenarios import laydown_scenario as laydown_scenario
from ..views import Event, Phase, PlayerView
from .components import (
    EventLog,
    HouseRulesPanel,
    LanguagePicker,
    MessageBox,
    PilesView,
    ScoreSheet,
    SizeToggle,
    TableView,
    query_params,
    relabel,
    size_from_url,
    size_style,
)

BOT_KINDS = (N_("heuristic"), N_("random"))
LOG_LINES = 10
#: a safety net: bot moves in one go before the app stops (a real game never needs it)
MAX_BOT_STEPS = 20_000


# -- the hand: one toggle button per card -------------------------------------------------
_CSS = """<style>
.tr-play .tr-hand { padding-top: 16px; gap: 5px; align-items: flex-end; }
.tr-play .tr-hand .tr-card {
  background-color: #fff !important; background-position: center;
  background-repeat: no-repeat; background-size: 100% 100%; border: none; padding: 0;
  margin: 0; border-radius: 7%; color: transparent !important; font-size: 0 !important;
  box-shadow: none !important; transition: transform .08s ease-out; flex: none; }
.tr-play .tr-hand .tr-card:hover { transform: translateY(-4px); }
.tr-play .tr-hand .tr-card.mod-active { transform: translateY(-14px);
  outline: 4px solid #1565c0; outline-offset: -1px; }
.tr-play .tr-hand .tr-card:focus-visible { outline: 3px dashed #1565c0; outline-offset: 3px; }
.tr-play .jupyter-button:focus-visible, .tr-play select:focus-visible,
.tr-play input:focus-visible, .tr-play textarea:focus-visible,
.tr-play .jupyter-widget-Collapse-header:focus-visible {
  outline: 3px solid #1565c0; outline-offset: 2px; }
[data-jp-theme-light="false"] .tr-play .jupyter-button:focus-visible,
[data-jp-theme-light="false"] .tr-play .tr-hand .tr-card:focus-visible,
[data-jp-theme-light="false"] .tr-play select:focus-visible,
[data-jp-theme-light="false"] .tr-play input:focus-visible { outline-color: #90caf9; }
.tr-play .tr-hand-title { font-size: .95em; }
.tr-play.tr-rtl { direction: rtl; }
.tr-play.tr-rtl .tr-hand, .tr-play.tr-rtl .tr-melds-text input { direction: ltr; }
.tr-play .tr-prompt { font-size: 1.1em; margin-top: 6px; }
.tr-play .tr-buy-row { border: 2px solid #ef6c00; border-radius: 8px; padding: 4px 10px; }
.tr-play .tr-row { align-items: center; flex-wrap: wrap; gap: 4px; }
.tr-play .tr-board, .tr-play .tr-record { align-items: flex-start; gap: 28px; }
.tr-play .tr-toolbar { gap: 16px; margin-bottom: 4px; }
.tr-play .tr-moves { border-top: 1px solid rgba(127,127,127,.45); padding-top: 6px; }
.tr-play .tr-moves .tr-suggest, .tr-play .tr-moves .tr-discard { margin-left: 1.5em; }
.tr-play .tr-log-box { flex: 1 1 22em; min-width: 18em; }
.tr-play .tr-log .tv-events { max-height: 18em; overflow-y: auto; }
""" + "".join(
    f".tr-play .tr-hand.tr-size-{name} .tr-card {{ width: {w}px !important; "
    f"height: {round(w * 1.4)}px !important; }}\n" for name, w in SIZES.items()) + "</style>"


def _card_class(card: Card) -> str:
    return f"tr-card-{card}"


def _cards_css(cards: Sequence[Card]) -> str:
    """These cards' pictures as CSS backgrounds (SVG data URIs)."""
    rules = []
    for card in cards:
        svg = base64.b64encode(card_svg(card).encode()).decode()
        rules.append(f'.tr-play .tr-hand .{_card_class(card)} '
                     f'{{ background-image: url("data:image/svg+xml;base64,{svg}"); }}')
    return "<style>" + "\n".join(rules) + "</style>"


class _HandPicker(widgets.HBox):  # type: ignore[misc]
    """The human's hand as card buttons: a click selects or unselects a card.

    Unlike `components.HandPicker` (three widgets per card, all made anew on each
    change), a button is kept per card copy and reused, the buttons share one layout
    and one style, and each card value's picture is sent once, as CSS: a draw sends
    one new button at most, then the new order."""

    def __init__(self, size: str = "normal") -> None:
        self._styles = widgets.Box(layout=widgets.Layout(display="none"))
        super().__init__(children=[self._styles],
                         layout=widgets.Layout(flex_flow="row wrap", min_height="40px"))
        self.add_class("tr-hand")
        self._size = size
        self.add_class(f"tr-size-{size}")
        self._layout = widgets.Layout()
        self._style = ToggleButtonStyle()
        self._pool: dict[tuple[Card, int], widgets.ToggleButton] = {}
        self._shown: list[tuple[Card, int]] = []
        self._drawn: set[Card] = set()

    @property
    def size(self) -> str:
        return self._size

    @size.setter
    def size(self, size: str) -> None:
        if size != self._size:
            self.remove_class(f"tr-size-{self._size}")
            self._size = size
            self.add_class(f"tr-size-{size}")

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for card, _ in self._shown)

    def show(self, cards: Sequence[Card]) -> None:
        """Show these cards, in this order, none selected."""
        seen: Counter[Card] = Counter()
        keys = []
        for card in cards:
            keys.append((card, seen[card]))
            seen[card] += 1
        self.clear()
        if keys == self._shown:
            return
        new = sorted({card for card, _ in keys} - self._drawn, key=lambda c: c.sort_key)
        if new:
            self._drawn.update(new)
            self._styles.children = (*self._styles.children, widgets.HTML(_cards_css(new)))
        buttons = [self._button(key) for key in keys]
        self._shown = keys
        self.children = [self._styles, *buttons]

    def _button(self, key: tuple[Card, int]) -> widgets.ToggleButton:
        button = self._pool.get(key)
        if button is None:
            card = key[0]
            button = widgets.ToggleButton(description=str(card), layout=self._layout,
                                          style=self._style,
                                          tooltip=card.name)
            button.add_class("tr-card")
            button.add_class(_card_class(card))
            self._pool[key] = button
        return button

    @property
    def selected(self) -> tuple[Card, ...]:
        """The selected cards, in hand order; set it to select these cards."""
        return tuple(key[0] for key in self._shown if self._pool[key].value)

    @selected.setter
    def selected(self, cards: Sequence[Card]) -> None:
        wanted = Counter(cards)
        for key in self._shown:
            pick = wanted[key[0]] > 0
            if pick:
                wanted[key[0]] -= 1
            if self._pool[key].value != pick:
                self._pool[key].value = pick

    def clear(self) -> None:
        for key in self._shown:
            if self._pool[key].value:
                self._pool[key].value = False


# -- small helpers ------------------------------------------------------------------------
def _smaller(size: str) -> str:
    """The table's card size: one step below the hand's, so every meld fits in view."""
    order = list(SIZES)
    return order[max(0, order.index(size) - 1)]


def _typed_melds(text: str, rules: Rules) -> tuple[Meld, ...]:
    """Melds typed in notation, separated by '/'; an invalid one says why (T4, T5)."""
    return as_melds([part for part in text.split("/") if part.strip()], rules)


ROOK_ENDS = ((N_("Rook: either end"), ""), (N_("Rook: low end"), "low"),
             (N_("Rook: high end"), "high"))


def _rook_ends() -> list[tuple[str, str]]:
    """`ROOK_ENDS` in the language in use."""
    return [(_(label), end) for label, end in ROOK_ENDS]


def _rook_as(meld: Meld | None, end: str) -> Card | None:
    """The card a Rook added at `end` of a run stands for (None: the game decides)."""
    if meld is None or not meld.is_run or not end or meld.colour is None:
        return None
    number = meld.low - 1 if end == "low" else meld.high + 1
    return Card(meld.colour, number) if 1 <= number <= 14 else None


def _you(names: Sequence[str]) -> list[str]:
    return [_("{name} (you)").format(name=n) if seat == HUMAN else n
            for seat, n in enumerate(names)]


def _and(names: Sequence[str]) -> str:
    """`"Crow and Jay"`, in the language in use."""
    return (" " + _("and") + " ").join(names)


class _Parts:
    """Widgets made for one app that share one layout and one style per kind: fewer
    models for the page to build, so the app is usable sooner."""

    def __init__(self) -> None:
        self.auto = widgets.Layout(width="auto")
        self.button_style = widgets.ButtonStyle()
        self.html_style = HTMLStyle()
        self.none = widgets.Layout(display="none")
        #: (widget, trait, English text): what a change of language redraws
        self.texts: list[tuple[widgets.Widget, str, str]] = []

    def text(self, widget: widgets.Widget, trait: str, english: str) -> None:
        """Show `english` in `widget.trait` in the language in use, now and later."""
        self.texts.append((widget, trait, english))
        setattr(widget, trait, _(english))

    def relabel(self) -> None:
        for widget, trait, english in self.texts:
            if getattr(widget, trait) != _(english):
                setattr(widget, trait, _(english))

    def button(self, description: str, css: str, tooltip: str) -> widgets.Button:
        button = widgets.Button(layout=self.auto, style=self.button_style)
        self.text(button, "description", description)
        self.text(button, "tooltip", tooltip)
        button.add_class(css)
        return button

    def html(self, css: str, value: str = "") -> widgets.HTML:
        html = widgets.HTML(value, style=self.html_style)
        html.add_class(css)
        return html

    def row(self, *children: widgets.Widget, css: str = "") -> widgets.HBox:
        row = widgets.HBox(list(children))
        row.add_class("tr-row")
        if css:
            row.add_class(css)
        return row


#: the panels of the "more" accordion, built when first opened
PANELS = (N_("More moves: type melds, lay off, the Rook swap"),
          N_("Next game: bots, seed, house rules"),
          N_("Save, load, or let the bots finish"))
MOVES, SETTINGS, SAVE = range(3)
#: what the meld choices say when there is nothing to choose
NO_MELDS, NO_ROOK = N_("(no melds on the table)"), N_("(no Rook in a run)")
INTO_LAY_DOWN = N_("into my typed lay-down")


class PlayGame(widgets.VBox):  # type: ignore[misc]
    """A game of Toonerville Rook: you at seat 0 against 2–4 bots.

    `PlayGame(seed=7)` deals a new game; `bots` (2–4), `bot_kind` ("heuristic",
    "random" or a bot object) and `rules` set it up, and the page's "Next game" panel
    changes them for "New game". `game=` plays on from a given `Game` (seat 0 is you),
    for lessons and tests; `scenario="laydown"` starts a teaching position (by default
    the scenario is read from the page address in Voila: `?scenario=laydown`).
    `offer_buys=False` passes on every declined discard for you. The game is `.game`.
    """

    def __init__(self, seed: int = 7, bots: int = 3, bot_kind: str | Bot = "heuristic",
                 rules: Rules | None = None, *, game: Game | None = None,
                 scenario: str | None = None, size: str | None = None,
                 turn_limit: int | None = None, offer_buys: bool = True) -> None:
        size = size or size_from_url()  # the page's ?size= unless the caller chose
        self._size = size if size in SIZES else "normal"
        self._settings: dict[str, Any] = {"seed": seed, "bots": min(max(bots, 2), 4),
                          "kind": bot_kind if isinstance(bot_kind, str) else bot_kind.name}
        self._custom_bot = None if isinstance(bot_kind, str) else bot_kind
        self._rules = rules or Rules()
        self._turn_limit = turn_limit
        self._shown: dict[str, object] = {}
        self._suggestion: tuple[Meld, ...] | None = None
        self._built: set[int] = set()
        self._download_data = ""  # the last save, base64: the download link's data
        self._make = _Parts()
        self.language = LanguagePicker()  # the page's ?lang= (first picker of a kernel)
        self.language.add_class("tr-language")
        self._build(offer_buys)
        super().__init__(children=self._layout())
        self.add_class("tr-play")
        self.add_class("tv-sized")
        self.add_class(f"tv-size-{self._size}")
        problem = None
        if game is None:
            wanted = scenario if scenario is not None else query_params().get("scenario")
            players = self._settings["bots"] + 1
            if wanted in SCENARIOS:
                game = SCENARIOS[wanted](players=players, seed=seed, rules=self._rules,
                                         names=player_names(players))
                self._settings["seed"] = seed + 1
            elif wanted:
                problem = msg("there is no scenario '{name}' (there is {known}): here is a "
                              "new game instead", None, name=wanted, known=", ".join(SCENARIOS))
        if game is None:
            self.new_game()
        else:
            self.start(game)
        if problem is not None:
            self.message.error(problem)
        self._set_direction()
        add_listener(self._language_changed)

    def __repr__(self) -> str:
        """Short, so a saved notebook's text fallback stays small and readable."""
        game = self.game
        return (f"PlayGame(seed={game.seed}, players={game.players}, "
                f"round={game.round_number})")

    # -- building the page ---------------------------------------------------------------
    def _build(self, offer_buys: bool) -> None:
        make = self._make
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
        self.hand = _HandPicker(self._size)
        self.suggested = make.html("tr-suggested")
        self.log_view = EventLog(size=self._size, limit=LOG_LINES)
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
                                      N_("Buy the declined discard (T10, T11)"))
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
        self.new_game_button = make.button(N_("New game"), "tr-new-game",
                                           N_("Deal a new game (settings: see 'Next game')"))
        self.size_toggle = SizeToggle(self._size if self._size != "small" else "normal")
        self.size_toggle.add_class("tr-size")
        self.offer_buys = widgets.Checkbox(value=offer_buys, indent=False, layout=make.auto)
        make.text(self.offer_buys, "description", N_("Offer me declined discards to buy"))
        self.more = widgets.Accordion(children=[widgets.Box(layout=make.none)
                                                for _panel in PANELS],
                                      titles=tuple(_(t) for t in PANELS), selected_index=None)
        self.more.add_class("tr-more")
        self.more.observe(guard(lambda change: self._open(change["new"])), "selected_index")
        # every callback is guarded: a refusal shows its sentence, never a traceback
        for button, handler in (
                (self.draw_button, lambda: self._act(A.Draw(HUMAN))),
                (self.take_button, lambda: self._act(A.TakeDiscard(HUMAN))),
                (self.buy_button, lambda: self._act(A.Buy(HUMAN))),
                (self.pass_button, lambda: self._act(A.Pass(HUMAN))),
                (self.suggest_button, self._suggest),
                (self.lay_down_button, self._lay_down_suggested),
                (self.discard_button, self._discard), (self.new_game_button, self.new_game)):
            button.on_click(guard(lambda _b, h=handler: h()))
        self.size_toggle.observe(guard(lambda change: self.set_size(change["new"])), "value")
        self.offer_buys.observe(guard(lambda _c: self._bots_then_refresh()), "value")

    def _layout(self) -> list[widgets.Widget]:
        make = self._make
        board = make.row(self.piles, self.table, css="tr-board")
        # the tab order follows a turn: buy or pass, draw or take, the hand, then the
        # moves that end with the discard
        start = make.row(self.draw_button, self.take_button, css="tr-start")
        moves = make.row(self.suggest_button, self.lay_down_button, self.discard_button,
                         css="tr-moves")
        record = make.row(self.log_box, self.score_sheet, css="tr-record")
        toolbar = make.row(self.new_game_button, self.size_toggle, self.offer_buys,
                           self.language, css="tr-toolbar")
        return [widgets.HTML(_CSS, layout=make.none), size_style(), toolbar, self.status,
                self.others, board, self.prompt, self.buy_row, start, self.hand_title,
                self.hand, moves, self.message, self.suggested, self.more, record]

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
        self.more.titles = tuple(_(t) for t in PANELS)
        self.size_toggle.refresh()
        self.message.refresh()
        if MOVES in self._built:  # the meld choices are redone with the table, below
            relabel(self.lay_off_end, _rook_ends())
            relabel(self.swap_end, _rook_ends())
        if SETTINGS in self._built:
            relabel(self.bot_kind, self._kind_options())
            self.rules_panel.refresh()
        if SAVE in self._built and self._download_data:
            self.download.value = _download_html(self._download_data)
        for part in ("log", "scores", "piles", "table"):
            self._shown.pop(part, None)
        self._refresh()

    def _open(self, panel: int | None) -> None:
        """Build a panel of the accordion the first time it opens."""
        if panel is None or panel in self._built:
            return
        self._built.add(panel)
        children = list(self.more.children)
        children[panel] = (self._moves_panel, self._settings_panel, self._save_panel)[panel]()
        self.more.children = children
        if panel == MOVES:
            self._meld_choices(self.game.view(HUMAN))

    def open_panel(self, panel: int) -> None:
        """Open (and build) a panel: `MOVES`, `SETTINGS` or `SAVE`."""
        self.more.selected_index = panel

    def _moves_panel(self) -> widgets.Widget:
        make, guard = self._make, self.message.guard
        self.melds_text = widgets.Text(placeholder="R3 R4 R5 R6 / Y7 R7 RK",
                                       layout=widgets.Layout(width="26em"))
        make.text(self.melds_text, "description", N_("Melds"))
        self.melds_text.add_class("tr-melds-text")
        self.lay_down_typed_button = make.button(
            N_("Lay down these melds"), "tr-lay-down-typed",
            N_("Lay down the melds typed in the box (T15)"))
        self.lay_off_meld = widgets.Dropdown(options=[(_(NO_MELDS), None)],
                                             layout=widgets.Layout(width="26em"))
        make.text(self.lay_off_meld, "description", N_("Onto"))
        self.lay_off_meld.add_class("tr-lay-off-meld")
        self.lay_off_end = widgets.Dropdown(options=_rook_ends(), value="", layout=make.auto)
        self.lay_off_button = make.button(N_("Lay off selected card"), "tr-lay-off",
                                          N_("Add the selected card to the chosen meld (H9)"))
        self.swap_source = widgets.Dropdown(options=[(_(NO_ROOK), None)],
                                            layout=widgets.Layout(width="26em"))
        make.text(self.swap_source, "description", N_("Rook in"))
        self.swap_source.add_class("tr-swap-source")
        self.swap_target = widgets.Dropdown(options=[(_(INTO_LAY_DOWN), None)],
                                            layout=widgets.Layout(width="26em"))
        make.text(self.swap_target, "description", N_("then"))
        self.swap_target.add_class("tr-swap-target")
        self.swap_end = widgets.Dropdown(options=_rook_ends(), value="", layout=make.auto)
        self.swap_button = make.button(N_("Swap in selected card"), "tr-swap",
                                       N_("Put the selected card in the Rook's place, then "
                                          "play the Rook at once (T18)"))
        for button, handler in ((self.lay_down_typed_button, self._lay_down_typed),
                                (self.lay_off_button, self._lay_off),
                                (self.swap_button, self._swap)):
            button.on_click(guard(lambda _b, h=handler: h()))
        help_text = make.html("tr-help")
        make.text(help_text, "value", N_(
            "<b>Lay down</b> melds typed in notation, separated by <code>/</code> (T15). "
            "<b>Lay off</b> (H9): select one card in your hand and choose a meld. "
            "<b>Rook swap</b> (T18): select the natural card a Rook in a run stands for; "
            "the Rook then goes into your typed lay-down or onto a meld. For a Rook added "
            "to a run, say which end it goes to."))
        return widgets.VBox([
            help_text, make.row(self.melds_text, self.lay_down_typed_button),
            make.row(self.lay_off_meld, self.lay_off_end, self.lay_off_button),
            make.row(self.swap_source, self.swap_target, self.swap_end, self.swap_button)])

    def _settings_panel(self) -> widgets.Widget:
        make = self._make
        settings = self._settings
        self.bots_count = widgets.Dropdown(options=[2, 3, 4], value=settings["bots"],
                                           layout=make.auto)
        make.text(self.bots_count, "description", N_("Bots"))
        self.bot_kind = widgets.Dropdown(options=self._kind_options(), value=settings["kind"],
                                         layout=make.auto)
        make.text(self.bot_kind, "description", N_("Bot kind"))
        self.seed = widgets.IntText(value=settings["seed"],
                                    layout=widgets.Layout(width="13em"))
        make.text(self.seed, "description", N_("Seed"))
        self.rules_panel = HouseRulesPanel(self._rules, size=self._size)
        for name, control in (("bots", self.bots_count), ("kind", self.bot_kind),
                              ("seed", self.seed)):
            control.observe(lambda change, n=name: settings.__setitem__(n, change["new"]),
                            "value")
        note = make.html("tr-help")
        make.text(note, "value", N_("These apply when you click <b>New game</b> (at the "
                                    "top). The seed moves on by one with each new game; "
                                    "the same seed deals the same game."))
        return widgets.VBox([note, make.row(self.bots_count, self.bot_kind, self.seed),
                             self.rules_panel])

    def _kind_options(self) -> list[tuple[str, str]]:
        """The bot kinds, named in the language in use (a custom bot by its own name)."""
        kinds = [(_(kind), kind) for kind in BOT_KINDS]
        if self._custom_bot is not None:
            kinds.insert(0, (self._custom_bot.name, self._custom_bot.name))
        return kinds

    def _save_panel(self) -> widgets.Widget:
        make, guard = self._make, self.message.guard
        self.save_button = make.button(N_("Save"), "tr-save",
                                       N_("Put this game in the box as text"))
        self.load_button = make.button(N_("Load"), "tr-load",
                                       N_("Load the saved game pasted in the box"))
        self.save_text = widgets.Textarea(layout=widgets.Layout(width="100%", height="8em"))
        make.text(self.save_text, "placeholder", N_("Save puts this game here as text; paste "
                                                    "a saved game here and click Load"))
        self.save_text.add_class("tr-save-text")
        self.download = make.html("tr-download")
        self.upload = widgets.FileUpload(accept=".json", multiple=False)
        make.text(self.upload, "description", N_("Load a file"))
        self.autoplay_button = make.button(N_("Let the bots finish the game"), "tr-autoplay",
                                           N_("A heuristic bot plays your seat to the end"))
        self.save_button.on_click(guard(lambda _b: self.save()))
        self.load_button.on_click(guard(lambda _b: self.load(self.save_text.value)))
        self.upload.observe(guard(self._uploaded), "value")
        self.autoplay_button.on_click(guard(lambda _b: self.autoplay()))
        return widgets.VBox([
            make.row(self.save_button, self.download, self.load_button, self.upload),
            self.save_text, make.row(self.autoplay_button)])

    # -- starting games ------------------------------------------------------------------
    def new_game(self) -> None:
        """Deal a new game with the "Next game" settings (bots, bot kind, seed, house
        rules); the seed then moves on by one for the game after."""
        if SETTINGS in self._built:
            if not self.rules_panel.valid:
                self.message.error(msg("fix the house rules first: {why}", None,
                                       why=self.rules_panel.messages.text))
                return
            self._rules = self.rules_panel.rules
        settings = self._settings
        players, seed = int(settings["bots"]) + 1, int(settings["seed"])
        game = Game.new(players=players, seed=seed, rules=self._rules, names=player_names(players),
                        turn_limit=self._turn_limit)
        settings["seed"] = seed + 1
        if SETTINGS in self._built:
            self.seed.value = seed + 1
        self.start(game)

    def start(self, game: Game) -> None:
        """Play on from `game` (seat 0 is you); the bots play until you must decide."""
        self.game = game
        kind = str(self._settings["kind"])
        custom = self._custom_bot
        self.bots: list[Bot | None] = [None, *(
            custom if custom is not None and kind == custom.name else make_bot(kind)
            for _seat in range(game.players - 1))]
        self._rngs = [random.Random(f"{game.seed}:bot:{seat}") for seat in range(game.players)]
        self._log_from = max(0, len(game.history) - LOG_LINES)
        self._suggestion = None
        self._shown.clear()
        if MOVES in self._built:
            self.melds_text.value = ""
        seen = len(game.history)
        self._play_bots()
        self._refresh()
        news = _news(game, game.history[seen:])
        if news is not None:
            self.message.show(*news)
        else:
            self.message.info(msg("a new game (seed {seed}): you are {name}, at seat 0, "
                                  "against {k} {kind} bots. {turn}", None, seed=game.seed,
                                  name=HUMAN_NAME, k=game.players - 1,
                                  kind=_(kind) if kind in BOT_KINDS else kind,
                                  turn=self._whose()))

    # -- the moves -----------------------------------------------------------------------
    def _act(self, action: A.Action) -> bool:
        """Apply the human's move, let the bots answer, show what happened. A refusal
        shows its sentence and changes nothing."""
        game = self.game
        before = Counter(game.hand(HUMAN))
        seen = len(game.history)
        try:
            game.apply(action)
        except ToonervilleError as err:
            self.message.error(err.message)
            return False
        mine = [e for e in game.history[seen:] if e.seat == HUMAN and e.action]
        self._play_bots()
        news = _news(game, game.history[seen:])
        got = Counter(game.hand(HUMAN)) - before  # a draw completes after the buy window
        self._suggestion = None
        self._refresh()
        if news is not None:
            self.message.show(*news)
        elif isinstance(action, A.Draw | A.Buy) and got:
            self.message.info(msg("you got {cards}", "T9" if isinstance(action, A.Draw)
                                  else "T11", cards=format_cards(sort_cards(got.elements()))))
        elif mine:
            self.message.ok(mine[-1].text)
        if isinstance(action, A.LayDown | A.SwapRook) and game.view(HUMAN).down[HUMAN] \
                and self.more.selected_index is None:
            self.open_panel(MOVES)  # laying off is next
        return True

    def _one_card(self, what: str, rule: str) -> Card | None:
        """The one selected card, or None after saying why not."""
        err = self.game.refusal(A.Discard(HUMAN, ROOK))  # the wrong phase or turn, any card
        if isinstance(err, WrongPhaseError | NotYourTurnError):
            self.message.error(err.message)
            return None
        chosen = self.hand.selected
        if len(chosen) != 1:
            self.message.error(msg("select exactly one card in your hand to {what}, then "
                                   "click again ({n} selected now)", rule, what=what,
                                   n=len(chosen)))
            return None
        return chosen[0]

    def _discard(self) -> None:
        card = self._one_card(N_("discard"), "T13")
        if card is not None:
            self._act(A.Discard(HUMAN, card))

    def suggestion(self) -> tuple[Meld, ...] | None:
        """The solver's lay-down for your hand now, or None (kept until your next move)."""
        if self._suggestion is None:
            self._suggestion = self.game.suggest_lay_down(HUMAN) or ()
        return self._suggestion or None

    def _no_suggestion(self, kind: str) -> None:
        from ..solver import shortfall

        view = self.game.view(HUMAN)
        self.message.show(msg("the solver finds no lay-down of round {r}'s contract in your "
                              "hand yet: {why}", "T15", r=view.round_number,
                              why=shortfall(view.hand, view.round_number, self.game.rules)),
                          kind)

    def _suggest(self) -> None:
        view = self.game.view(HUMAN)
        if view.down[HUMAN]:
            self.message.info(msg("you are down already: now lay off cards that fit melds "
                                  "on the table", "H9"))
            return
        melds = self.suggestion()
        if melds is None:
            self._no_suggestion("info")
            return
        self.hand.selected = [c for m in melds for c in m.cards]
        shown = " / ".join(str(m) for m in melds)
        if MOVES in self._built:
            self.melds_text.value = shown
        later = "" if view.phase is Phase.PLAY and view.current == HUMAN else \
            " " + _("once you have drawn")
        self.message.info(msg("the solver suggests {melds} (selected in your hand): click "
                              "'Lay down suggested'{later}", "T15", melds=shown, later=later))
        self.suggested.value = "".join(meld_html(m, self._size) for m in melds)

    def _lay_down_suggested(self) -> None:
        err = self.game.lay_down_refusal(HUMAN)
        if err is not None:
            self.message.error(err.message)  # before asking the solver for nothing
            return
        melds = self.suggestion()
        if melds is None:
            self._no_suggestion("error")
            return
        self._act(A.LayDown(HUMAN, melds))

    def _lay_down_typed(self) -> None:
        text = self.melds_text.value.strip()
        if not text:
            self.message.error(msg("type your melds in the box, separated by '/': "
                                   "R3 R4 R5 R6 / Y7 R7 RK (or click Suggest)", "T15"))
            return
        self._act(A.LayDown(HUMAN, _typed_melds(text, self.game.rules)))

    def _meld(self, ref: tuple[int, int] | None) -> Meld | None:
        table = self.game.view(HUMAN).table
        if ref is None or ref[0] >= len(table) or ref[1] >= len(table[ref[0]]):
            return None
        return table[ref[0]][ref[1]]

    def _lay_off(self) -> None:
        ref = self.lay_off_meld.value
        if ref is None:
            self.message.error(msg("there is no meld on the table to lay off onto yet", "H9"))
            return
        card = self._one_card(N_("lay off"), "H9")
        if card is not None:
            as_card = _rook_as(self._meld(ref), self.lay_off_end.value) if card.is_rook \
                else None
            self._act(A.LayOff(HUMAN, card, ref, as_card))

    def _swap(self) -> None:
        source = self.swap_source.value
        if source is None:
            self.message.error(msg("no run on the table holds a Rook to swap (and a Rook in "
                                   "a set never can be swapped, T19)", "T18"))
            return
        natural = self._one_card(_("put in the Rook's place"), "T18")
        if natural is None:
            return
        target = self.swap_target.value
        if target is None:
            text = self.melds_text.value.strip()
            if not text:
                self.message.error(msg("type the lay-down that uses the Rook in the melds "
                                       "box, or choose a meld to lay the Rook off onto",
                                       "T18"))
                return
            self._act(A.SwapRook(HUMAN, natural, source,
                                 lay_down=_typed_melds(text, self.game.rules)))
            return
        meld = self._meld(target)
        if meld is not None and target == source:
            with contextlib.suppress(ToonervilleError):  # the move itself says why
                meld = meld.swap_rook(natural)
        self._act(A.SwapRook(HUMAN, natural, source, target,
                             _rook_as(meld, self.swap_end.value)))

    # -- bots ----------------------------------------------------------------------------
    def _play_bots(self, for_me: bool = False) -> None:
        """Let the bots move until the human must decide (with `for_me`, a heuristic bot
        plays the human's seat too)."""
        game = self.game
        stand_in = HeuristicBot()
        for _step in range(MAX_BOT_STEPS):
            if game.is_over:
                break
            seat = next((s for s in game.deciders if s != HUMAN or for_me), None)
            if seat is None:  # only the human decides
                if game.phase is Phase.BUY and not self.offer_buys.value:
                    game.apply(A.Pass(HUMAN))
                    continue
                break
            _bot_move(game, self.bots[seat] or stand_in, seat, self._rngs[seat])

    def _bots_then_refresh(self) -> None:
        seen = len(self.game.history)
        self._play_bots()
        self._refresh()
        news = _news(self.game, self.game.history[seen:])
        if news is not None:
            self.message.show(*news)

    def autoplay(self) -> None:
        """A heuristic bot plays your seat until the game is over (demos, benchmarks)."""
        seen = len(self.game.history)
        self._play_bots(for_me=True)
        self._suggestion = None
        self._refresh()
        news = _news(self.game, self.game.history[seen:])
        self.message.show(*(news or (msg("the bots played on for you", None), "info")))

    # -- save and load -------------------------------------------------------------------
    def save(self) -> str:
        """The game as JSON, shown in the save box with a download link."""
        text = self.game.to_json()
        self.open_panel(SAVE)
        self.save_text.value = text
        self._download_data = base64.b64encode(text.encode()).decode()
        self.download.value = _download_html(self._download_data)
        self.message.ok(msg("saved: the game is in the box below; copy the text or "
                            "download the file, and load it later", None))
        return text

    def load(self, text: str | bytes) -> bool:
        """Replace the game by a saved one; a bad save says why and keeps this game."""
        if isinstance(text, bytes):  # a file: anything not UTF-8 is refused as not JSON
            text = text.decode("utf-8", errors="replace")
        try:
            game = Game.from_json(text)
        except SaveFileError as err:
            self.message.error(err.message)
            return False
        self._settings["bots"] = game.players - 1
        if SETTINGS in self._built:
            self.bots_count.value = game.players - 1
        self.start(game)
        self.message.ok(msg("loaded: round {r}. {turn}", None, r=game.round_number,
                            turn=self._whose()))
        return True

    def _uploaded(self, change: dict[str, Any]) -> None:
        files = change["new"]
        if files:
            content = files[0]["content"]
            data = content.tobytes() if hasattr(content, "tobytes") else bytes(content)
            self.save_text.value = data.decode(errors="replace")
            self.load(data)

    # -- showing the game ----------------------------------------------------------------
    def set_size(self, size: str) -> None:
        """Card size for every picture: normal, large or projector (`SIZES`)."""
        if size not in SIZES or size == self._size:
            return
        self.remove_class(f"tv-size-{self._size}")
        self._size = size
        self.add_class(f"tv-size-{size}")
        self.hand.size = size
        parts = [self.message, self.piles, self.score_sheet, self.log_view]
        if SETTINGS in self._built:
            parts.append(self.rules_panel)
        for part in parts:
            part.size = size
        self.table.size = _smaller(size)
        if size in dict(self.size_toggle.options).values() and self.size_toggle.value != size:
            self.size_toggle.value = size
        self.suggested.value = ""

    def _changed(self, part: str, key: object) -> bool:
        if self._shown.get(part) == key:
            return False
        self._shown[part] = key
        return True

    def _whose(self) -> str:
        game = self.game
        if game.is_over:
            return _("The game is over.")
        if HUMAN in game.deciders:
            return _("It is your move.")
        return _("It is {name}'s turn.").format(name=game.names[game.current])

    def _refresh(self) -> None:
        """Redraw the parts of the page whose facts changed."""
        game = self.game
        view = game.view(HUMAN)
        if self._changed("hand", view.hand):
            self.hand.show(sort_cards(view.hand))
            self.suggested.value = ""
        if self._changed("piles", (view.stock_size, view.discard_top, view.discard_size)):
            self.piles.update(view)
        if self._changed("table", view.table):
            self.table.update(dict(zip(_you(game.names), view.table, strict=True)))
            if MOVES in self._built:
                self._meld_choices(view)
        if self._changed("scores", (view.scores, game.is_over)):
            self.score_sheet.update(_you(game.names), view.scores,
                                    None if game.is_over else view.round_number)
        self.status.value = _status_html(game, view)
        self.others.value = _others_html(game, view)
        self.prompt.value = _prompt_html(game, view)
        offered = view.phase is Phase.BUY and HUMAN in view.deciders
        self.buy_row.layout.display = "flex" if offered else "none"
        if offered and view.offered is not None:
            self.buy_button.description = _("Buy {card}").format(card=view.offered)
            k = game.rules.penalty_cards
            self.offer_text.value = plural(
                "<b>{name}</b> declines <b>{card}</b>. Buy it? You also take {k} penalty "
                "card from the stock (T10, T11).",
                "<b>{name}</b> declines <b>{card}</b>. Buy it? You also take {k} penalty "
                "cards from the stock (T10, T11).", k,
                name=escape(game.names[view.current]), card=view.offered, k=k)
        self._highlight(view)
        if self._changed("log", len(game.history)):
            self.log_view.show(game.history[self._log_from:])

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

    def _meld_choices(self, view: PlayerView) -> None:
        names = self.game.names
        melds = [((owner, index), meld) for owner, ms in enumerate(view.table)
                 for index, meld in enumerate(ms)]
        options = [(f"{names[o]}: {m.describe()} · {m}", (o, i)) for (o, i), m in melds]
        rooks = [(_("{name}: {meld} (Rook = {cards})").format(
                      name=names[o], meld=m, cards=" / ".join(map(str, m.rook_positions()))),
                  (o, i)) for (o, i), m in melds if m.rook_positions()]
        _choose(self.lay_off_meld, options or [(_(NO_MELDS), None)])
        _choose(self.swap_source, rooks or [(_(NO_ROOK), None)])
        _choose(self.swap_target, [(_(INTO_LAY_DOWN), None),
                                   *((_("onto {meld}").format(meld=label), ref)
                                     for label, ref in options)])


def _download_html(data: str) -> str:
    """A link that downloads the saved game (`data`: its JSON, base64)."""
    return (f'<a download="toonerville-game.json" '
            f'href="data:application/json;base64,{data}">{escape(_("Download"))}</a>')


def _choose(dropdown: widgets.Dropdown, options: list[tuple[str, Any]]) -> None:
    """New options; the choice stays if it still exists, else the first option."""
    keep = dropdown.value
    values = [value for _, value in options]
    dropdown.options = options
    dropdown.value = keep if keep in values else values[0]


# -- pieces of the picture ----------------------------------------------------------------
def _status_html(game: Game, view: PlayerView) -> str:
    if game.is_over:
        head = _("<b>Game over</b> after {n} rounds").format(n=ROUNDS)
    else:
        head = _("<b>Round {r} of {n}</b> · contract <b>{contract}</b> (T7) · dealer "
                 "{dealer}").format(r=view.round_number, n=ROUNDS,
                                    contract=escape(str(view.contract)),
                                    dealer=escape(game.names[view.dealer]))
    return f'<div style="font-size:1.15em">{head}</div>'


def _prompt_html(game: Game, view: PlayerView) -> str:
    """What the human should do now, in a sentence with its rule."""
    if game.is_over:
        best = min(game.totals)
        who = _and([game.names[i] for i, t in enumerate(game.totals) if t == best])
        text = _("<b>The game is over:</b> the lowest total wins (T21): {who}, with "
                 "{best}. Click <b>New game</b> to play again.").format(who=escape(who),
                                                                        best=best)
    elif view.phase is Phase.BUY and HUMAN in view.deciders:
        text = _("<b>Your answer:</b> buy the declined discard, or pass (T10).")
    elif view.current != HUMAN:
        text = _("{name} is playing…").format(name=escape(game.names[view.current]))
    elif view.phase is Phase.DRAW:
        top = f" <b>{view.discard_top}</b>" if view.discard_top is not None else ""
        text = _("<b>Your turn:</b> draw from the stock, or take the discard{top} "
                 "(T9).").format(top=top)
    elif view.down[HUMAN]:
        text = _("<b>Your turn:</b> lay off cards that fit melds on the table (H9), then "
                 "select one card and discard it (T13).")
    else:
        text = _("<b>Your turn:</b> lay down {contract} if you can (T15; try "
                 "<b>Suggest</b>), then select one card and discard it (T13).").format(
                     contract=escape(str(view.contract)))
    if view.taken_this_turn is not None and view.current == HUMAN:
        text += " " + _("You took <b>{card}</b> from the discard pile: you may not discard "
                        "it this turn (T14).").format(card=view.taken_this_turn)
    return f'<div role="status">{text}</div>'


def _others_html(game: Game, view: PlayerView) -> str:
    cells = []
    for seat, name in enumerate(_you(game.names)):
        marks = []
        if seat == view.dealer:
            marks.append(_("dealer"))
        if view.down[seat]:
            marks.append(_("down") + " ✓")
        if view.buys_this_round[seat]:
            marks.append(_("bought {n}").format(n=view.buys_this_round[seat]))
        playing = seat == view.current and not game.is_over
        n = view.hand_sizes[seat]
        extra = "".join(f" · {m}" for m in marks)
        count = plural("{n} card", "{n} cards", n)
        cells.append(f'<span style="margin-right:1.6em;{"font-weight:bold" if playing else ""}">'
                     f'{"▶ " if playing else ""}{escape(name)}: {count}{extra}</span>')
    return f'<div style="display:flex;flex-wrap:wrap">{"".join(cells)}</div>'


def _news(game: Game, events: Sequence[Event]) -> tuple[Message, str] | None:
    """A message for the round (or the game) that ended among these events."""
    ended = [e for e in events if e.kind == "round_end"]
    if not ended:
        return None
    number = ended[-1].round_number
    record = game.records[number - 1]
    if record.went_out is None:
        why = (_("nobody went out: the stock ran out (H6)") if record.ended_by == "stock"
               else _("nobody went out before the turn limit"))
    else:
        why = _("you went out") if record.went_out == HUMAN else \
            _("{name} went out").format(name=game.names[record.went_out])
    points = ", ".join(f"{n} {p}" for n, p in zip(game.names, record.points, strict=True))
    if game.is_over:
        best = min(game.totals)
        who = _and([game.names[i] for i, t in enumerate(game.totals) if t == best])
        return msg("round {r} is over: {why}. Points: {points}. The game is over: {who} "
                   "wins with the lowest total, {best}", "T21", r=number, why=why,
                   points=points, who=who, best=best), "ok"
    return msg("round {r} is over: {why}. Points: {points}. Round {next} is dealt; its "
               "contract is {contract}", "T20", r=number, why=why, points=points,
               next=number + 1, contract=str(game.rules.contract(number + 1))), "ok"


def _bot_move(game: Game, bot: Bot, seat: int, rng: random.Random) -> None:
    """One bot move. A bot that errs (a bug, never the player's fault) is replaced for
    that move by the first legal move, so the game always goes on."""
    try:
        game.apply(bot.choose(game.view(seat), game.rules,
                              lambda: game.legal_actions(seat), rng))
        return
    except Exception:  # noqa: BLE001 - a broken bot must not break the page
        pass
    for action in game.legal_actions(seat):
        try:
            game.apply(action)
            return
        except ToonervilleError:
            continue
    raise RuntimeError(f"seat {seat} has no legal move")  # pragma: no cover


