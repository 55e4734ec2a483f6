"""Play a whole game of Toonerville Rook against bots: the `PlayGame` app of notebook 07.

`PlayGame` is a thin page around the one seat view of every table page
(`seat.SeatView`: the status, the piles and table, the recap, the prompt, the buy offer,
draw or take, the hand by colour or by number, the moves, Suggest, Hint, Take back, the
log and the score sheet, the buy-offer setting, and where the focus goes after each
move). The game lives in one `PlaySession` (`session.py`), which owns the game and the
bots and announces every change; the page shows the session's seat through the seat
view, sends the learner's moves to `PlaySession.act`, takes back through
`PlaySession.take_back`, and tells the seat view why a move does not apply now (the
engine's `play_refusal`, `lay_down_refusal`), so every button answers.

What 07 adds around the seat: the message kept in view, the folding panels (more
moves, next game, save / load: `play_panels.py`), the toolbar (new game, card size,
language) and the key legend; `?scenario=laydown` starts a seeded position in which
the human can lay down after drawing (`SCENARIOS`). On a served page the game is kept
in the class store after every change, under the key of the page's address
(`?game=KEY`), so a reload after the kernel died brings it back (`resume.GameKeeper`).

Stable hooks for tests are CSS classes: the seat view's (`tr-draw`, `tr-take`, `tr-buy`,
`tr-pass`, `tr-discard`, `tr-lay-down`, `tr-suggest`, `tr-undo`, `tr-hint`, `tr-hand`,
`tr-card`, `tr-log`, `tr-score-sheet`, … see `seat`) and the page's own: `tr-play`,
`tr-message`, `tr-new-game`, `tr-size`, `tr-language`, `tr-panel-0..2`, `tr-keys`,
`tr-game-key` (the hidden element with the game's key, `resume`), `tr-practice` (the
review's "Try it again" panel, `practice`).
"""

from __future__ import annotations

import ipywidgets as widgets

from ..engine import actions as A
from ..engine.game import Game
from ..engine.melds import Meld
from ..engine.messages import N_, Message, add_listener, direction, msg
from ..engine.rules import Rules
from ..pages.render import SIZES, TEXT_PX
from ..players.bots import Bot
from ..players.scenarios import HUMAN
from ..store.solo import SoloGames
from .base import MessageBox, size_style
from .coach_view import hint_for_game
from .keys import keys_html
from .language import LanguagePicker
from .play_panels import (
    MOVES,
    PANELS,
    SAVE,
    SETTINGS,
    MovesPanel,
    Parts,
    SavePanel,
    SettingsPanel,
)
from .practice import PracticePanel
from .practice_keep import keeper_for_page as practice_keeper
from .progress import follow_play
from .resume import keeper_for_page
from .seat import SeatView
from .session import PlaySession
from .settings import SizeToggle
from .url import query_params, size_from_url

__all__ = ["PlayGame"]

#: the app's own style: the sticky message, the focus ring of the page's own controls,
#: the toolbar and panels, the captions' sizes (the seat's style is `seat_style`)
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
.tr-play .tr-row { align-items: center; flex-wrap: wrap; gap: 4px; }
.tr-play .tr-toolbar { gap: 16px; margin-top: 6px; }
.tr-play .tr-panels { align-items: flex-start; gap: 4px; }
.tr-play .tr-panels > .widget-vbox { align-self: stretch; }
.tr-play .tr-keys-list { margin: 2px 0; padding-inline-start: 1.4em; }
.tr-play .tr-keys-box kbd { font-family: inherit; font-weight: bold; }
""" + "".join(  # the app's own captions follow the card size too (projector: 28px)
    f".tr-play.tv-size-{name} :is(.tr-help, .tr-keys, .tr-download) "
    f"{{ font-size: {px}px; }}\n" for name, px in TEXT_PX.items()
) + "</style>"


class PlayGame(widgets.VBox):  # type: ignore[misc]
    """A game of Toonerville Rook: you at seat 0 against 2–4 bots.

    `PlayGame(seed=7)` deals a new game; `bots` (2–4), `bot_kind` ("heuristic",
    "random" or a bot object) and `rules` set it up, and the page's "Next game" panel
    changes them for "New game". `game=` plays on from a given `Game` (seat 0 is you),
    for lessons and tests; `scenario="laydown"` starts a teaching position (by default
    the scenario is read from the page address in Voila: `?scenario=laydown`).
    `buy_offers` says which declined discards you are offered: "helpful" (those that
    help you, the default), "always" or "never" (`offer_buys=False` is "never").
    `keep` keeps the game for a reload in a new kernel: a `store.solo.SoloGames`, True
    (the class store), False, or None (the class store on a served page only); the key
    is `game_key`, else the page's `?game=` (`resume.keeper_for_page`).
    The session is `.session`, the game `.game`, the seat view `.seat_view` (its parts
    are attributes here too: `.hand`, `.draw_button`, `.log_view`, …).
    """

    def __init__(self, seed: int = 7, bots: int = 3, bot_kind: str | Bot = "heuristic",
                 rules: Rules | None = None, *, game: Game | None = None,
                 scenario: str | None = None, size: str | None = None,
                 turn_limit: int | None = None, offer_buys: bool = True,
                 buy_offers: str | None = None, keep: SoloGames | bool | None = None,
                 game_key: str | None = None) -> None:
        size = size or size_from_url()  # the page's ?size= unless the caller chose
        self._size = size if size in SIZES else "normal"
        offers = buy_offers or ("helpful" if offer_buys else "never")
        #: keeps the game for a reload in a new kernel (`resume`): None outside Voila
        self.keeper = keeper = keeper_for_page(keep, game_key) if game is None else None
        back = keeper.restored() if keeper is not None else None
        if back is not None:  # the page's game, as it was when the last kernel kept it
            game, rules, bot_kind, seed, offers = (back.game, back.game.rules, back.kind,
                                                   back.seed, back.buy_offers)
            bots = back.game.players - 1
        wanted = scenario if scenario is not None or game is not None \
            else query_params().get("scenario")
        self.session = session = PlaySession(seed, bots, bot_kind, rules, turn_limit, offers,
                                             game=game, scenario=wanted)
        if back is not None:
            session.say(msg("Your game is back, at round {r}, move {n}. {turn}", None,
                            r=back.game.round_number, n=len(back.game.actions),
                            turn=session.whose()), "ok")
        elif keeper is not None and keeper.missing is not None:
            session.say(msg("{why}, so here is a new game. {turn}", None,
                            why=keeper.missing, turn=session.whose()), "info")
        self._make = Parts()
        self._moves: MovesPanel | None = None
        self._settings: SettingsPanel | None = None
        self._save: SavePanel | None = None
        self.language = LanguagePicker()  # the page's ?lang= (first picker of a kernel)
        self.language.add_class("tr-language")
        self._build()
        super().__init__(children=self._layout())
        for css in ("tr-play", "tv-sized", f"tv-size-{self._size}"):
            self.add_class(css)
        session.observe(lambda _c: self._said(), "message")
        session.observe(lambda _c: self.seat_view.begin(session.game.history), "game")
        self.seat_view.follow(session)  # the seat view redraws on every change
        session.observe(lambda _c: self._moves_changed(), "revision")
        follow_play(session)  # a page of a class notes 07's Try-its for the dashboard
        self._said()
        self._set_direction()
        add_listener(self._language_changed)
        self._focus_next()
        if keeper is not None:
            keeper.follow(session)

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
        self.seat_view = seat = SeatView(
            self._act, self.message, size=self._size,  # Take back: the session's
            send_offers=lambda setting: setattr(session, "buy_offers", setting),
            why_not=self._why_not, idle_focus=self._idle_focus,
            ask_hint=lambda: hint_for_game(self.game, HUMAN),
            legend=False)  # 07's key legend is its own, under the toolbar
        seat.buy_offers.value = session.buy_offers
        # what 07's take-back does (the session's): your last move and the bots' since;
        # the buy-offer setting under the name notebook 07's prose gives it
        seat.texts(seat.undo_button,
                   tooltip=N_("Take back your last move (and the bots' since)"))
        seat.texts(seat.buy_offers, description=N_("Buy offers"))
        # the seat view's parts, under the names the app's notebooks and tests know
        self.status, self.others, self.piles, self.table = (
            seat.status, seat.others, seat.piles, seat.table)
        self.recap, self.prompt, self.offer_text, self.buy_row = (
            seat.recap, seat.prompt, seat.offer_text, seat.buy_row)
        self.hand, self.hand_order, self.suggested = seat.hand, seat.hand_order, seat.suggested
        self.log_view, self.score_sheet, self.buy_offers = (
            seat.log_view, seat.score_sheet, seat.buy_offers)
        self.round_parts = seat.round_parts
        # the coach's panel, and the round's review of your seat (prepared when a round
        # ends, while you read the recap)
        self.coach = seat.coach
        self.recap.review_source = lambda: (self.game, HUMAN)
        # "Try it again": the review's costly decisions, played again (`practice`), the
        # list kept with the page's game (the store) or in the browser (the static site);
        # the panel is made when first needed (a list kept from before, or the button)
        self._practice_keeper = practice_keeper(self.keeper)
        self._practice: PracticePanel | None = None
        self.practice_box = widgets.VBox()
        self.practice_box.add_class("tr-practice-box")
        self.recap.review.on_try = guard(lambda game, found: self.practice.add(game, found))
        if self._practice_keeper is not None and self._practice_keeper.load():
            self._practice_panel()
        for name in ("draw_button", "take_button", "buy_button", "pass_button",
                     "suggest_button", "lay_down_button", "lay_off_button", "swap_button",
                     "discard_button", "undo_button", "hint_button"):
            setattr(self, name, getattr(seat, name))
        self.new_game_button = make.button(N_("New game"), "tr-new-game",
                                           N_("Deal a new game (settings: see 'Next game')"))
        self.new_game_button.on_click(guard(lambda _b: self.new_game()))
        self.size_toggle = SizeToggle(self._size if self._size != "small" else "normal")
        self.size_toggle.add_class("tr-size")
        self.size_toggle.observe(guard(lambda change: self.set_size(change["new"])), "value")
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
        # the solver's suggestion also goes into the typed lay-down box, to edit there
        seat.suggest_button.on_click(guard(lambda _b: self._suggested()))

    def _layout(self) -> list[widgets.Widget]:
        make = self._make
        panels = widgets.VBox([w for pair in zip(self.toggles, self.panel_boxes, strict=True)
                               for w in pair])
        panels.add_class("tr-panels")
        toolbar = make.row(self.new_game_button, self.size_toggle, self.language,
                           css="tr-toolbar")
        kept = [] if self.keeper is None else [self.keeper.marker]
        return [widgets.HTML(PLAY_CSS, layout=make.none), size_style(), self.message,
                self.seat_view, self.practice_box, panels, toolbar, self.key_legend, *kept]

    # -- the seat ------------------------------------------------------------------------
    def _moves_changed(self) -> None:
        """The "More moves" panel follows the session's seat too."""
        if self._moves is not None:
            self._moves.refresh()

    def _act(self, action: A.Action) -> bool:
        """The learner's move, through the session; after a lay-down, laying off is
        next (the "More moves" panel opens)."""
        if not self.session.act(action):
            return False
        if isinstance(action, A.LayDown | A.SwapRook) and self.game.view(HUMAN).down[HUMAN]:
            self.open_panel(MOVES)
        return True

    def _why_not(self, kind: type[A.Action]) -> Message | None:
        """Why a move of `kind` does not apply now, whatever its cards (the engine's)."""
        game = self.game
        refusal = game.lay_down_refusal(HUMAN) if kind is A.LayDown \
            else game.play_refusal(HUMAN)
        return None if refusal is None else refusal.message

    def _suggested(self) -> None:
        if self._moves is not None and self.seat_view.suggested_text:
            self._moves.melds_text.value = self.seat_view.suggested_text

    def _said(self) -> None:
        _serial, message, kind = self.session.message
        if message:
            self.message.show(message, kind)
        else:
            self.message.clear()

    def _focus_next(self) -> None:
        """The focus on what you decide next; New game once the game is over."""
        self.seat_view.focus_next()

    def _idle_focus(self) -> None:
        if self.game.is_over:
            self.new_game_button.focus()

    def suggestion(self) -> tuple[Meld, ...] | None:
        """The solver's lay-down for your hand now, or None."""
        return self.seat_view.suggestion()

    def set_size(self, size: str) -> None:
        """Card size for every picture: normal, large or projector (`SIZES`)."""
        if size not in SIZES or size == self._size:
            return
        self.remove_class(f"tv-size-{self._size}")
        self._size = size
        self.add_class(f"tv-size-{size}")
        self.seat_view.size = size
        if self._practice is not None:
            self._practice.size = size
        self.message.size = size
        if self._settings is not None:
            self._settings.rules_panel.size = size
        if size in dict(self.size_toggle.options).values() and self.size_toggle.value != size:
            self.size_toggle.value = size

    # -- practice ------------------------------------------------------------------------
    def _practice_panel(self) -> PracticePanel:
        if self._practice is None:
            self._practice = PracticePanel(self._practice_keeper, size=self._size)
            self.practice_box.children = [self._practice]
        return self._practice

    @property
    def practice(self) -> PracticePanel:
        """The "Try it again" panel (`practice.PracticePanel`), made when first asked for."""
        return self._practice_panel()

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
                panel = self._moves = MovesPanel(session, make, self.message,
                                                 self.seat_view.one_card, self._act)
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
        for panel in (self._moves, self._settings, self._save):
            if panel is not None:
                panel.relabel()
        if self.keeper is not None:
            self.keeper.relabel()
        self.seat_view.redraw()
        self._moves_changed()

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
