"""The three folding panels of the play app (notebook 07): more moves (typed lay-down,
lay-off, the Rook swap), the next game's settings, and save / load.

Each panel is opened by a toggle button that sits just before it, so Tab reaches the
panel's controls right after its button (an accordion's headers are not reached by
Tab in every front end). A panel is built the first time it opens. The panels only turn
the learner's choices into moves for the session (`PlaySession.act`); which of them
apply is the engine's answer."""

from __future__ import annotations

import base64
import contextlib
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets
from ipywidgets.widgets.widget_string import HTMLStyle

from ..engine import actions as A
from ..engine.cards import Card
from ..engine.errors import NotationError, ToonervilleError
from ..engine.laydown import as_melds
from ..engine.melds import Meld
from ..engine.messages import N_, _, msg
from ..engine.rules import Rules
from ..engine.saves import MAX_SIZE
from ..engine.views import PlayerView
from ..players.scenarios import HUMAN
from .base import MessageBox, apply_texts, relabel, translated_button
from .level_view import LevelGuide
from .play_text import download_html
from .session import PlaySession
from .session_words import settings_kinds
from .settings import HouseRulesPanel
from .textbox import capped_area

#: the longest lay-down typed in the melds box (far longer than any lay-down)
MAX_TYPED_CHARS = 2_000
#: what the meld choices say when there is nothing to choose (never a blank choice)
NO_MELDS, NO_ROOK = N_("(no melds on the table)"), N_("(no Rook in a run)")
INTO_LAY_DOWN = N_("into my typed lay-down")
NONE, LAY_DOWN = "none", "lay-down"
ROOK_ENDS = ((N_("Rook: either end"), ""), (N_("Rook: low end"), "low"),
             (N_("Rook: high end"), "high"))
#: labels wide enough for every language (German ones are long)
WIDE = {"description_width": "initial"}

OneCard = Callable[[str, str], Card | None]
#: the folding panels, each opened by a toggle button (built when first opened)
PANELS = (N_("More moves: type melds, lay off, the Rook swap"),
          N_("Next game: bots, seed, house rules"),
          N_("Save, load, or let the bots finish"))
MOVES, SETTINGS, SAVE = range(3)


class Parts:
    """Widgets of one app that share one layout and one style per kind (fewer models for
    the page to build), and remember their English texts to redraw on a language change."""

    def __init__(self) -> None:
        self.auto = widgets.Layout(width="auto")
        self.button_style = widgets.ButtonStyle()
        self.html_style = HTMLStyle()
        self.none = widgets.Layout(display="none")
        #: (widget, trait, English text): what a change of language redraws
        self.texts: list[tuple[widgets.Widget, str, str]] = []

    def text(self, widget: widgets.Widget, trait: str, english: str) -> None:
        """Show `english` in `widget.trait` in the language in use, now and later
        (`base.apply_texts`, the kit's one way, for an app that is not a `Part`)."""
        self.texts.append((widget, trait, english))
        apply_texts(widget, {trait: english})

    def relabel(self) -> None:
        for widget, trait, english in self.texts:
            if getattr(widget, trait) != _(english):
                apply_texts(widget, {trait: english})

    def button(self, description: str, css: str, tooltip: str) -> widgets.Button:
        made = translated_button(description, css, tooltip, layout=self.auto,
                                 style=self.button_style)
        self.texts += [(made, "description", description), (made, "tooltip", tooltip)]
        return made

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


def rook_ends() -> list[tuple[str, str]]:
    """`ROOK_ENDS` in the language in use."""
    return [(_(label), end) for label, end in ROOK_ENDS]


def rook_as(meld: Meld | None, end: str) -> Card | None:
    """The card a Rook added at `end` of a run stands for (None: the game decides)."""
    if meld is None or not meld.is_run or not end or meld.colour is None:
        return None
    number = meld.low - 1 if end == "low" else meld.high + 1
    return Card(meld.colour, number) if 1 <= number <= 14 else None


def typed_melds(text: str, rules: Rules) -> tuple[Meld, ...]:
    """Melds typed in notation, separated by '/'; an invalid one says why (T4, T5)."""
    if len(text) > MAX_TYPED_CHARS:
        raise NotationError(msg("That is {n} characters: type at most {most}", None,
                                n=len(text), most=MAX_TYPED_CHARS))
    return as_melds([part for part in text.split("/") if part.strip()], rules)


def choose(dropdown: widgets.Dropdown, options: list[tuple[str, Any]],
           default: Any = None, keep: bool = True) -> None:
    """New options; the choice stays (with `keep`) if it still exists, else `default`
    (if offered), else the first option: a dropdown never shows a blank."""
    kept = dropdown.value
    values = [value for _, value in options]
    dropdown.options = options
    if keep and kept in values and kept != NONE:
        dropdown.value = kept
    else:
        dropdown.value = default if default in values else values[0]


class MovesPanel(widgets.VBox):  # type: ignore[misc]
    """Typed lay-down, lay-off, the Rook swap."""

    def __init__(self, session: PlaySession, make: Parts, box: MessageBox,
                 one_card: OneCard, act: Callable[[A.Action], bool] | None = None) -> None:
        self.session, self._one_card = session, one_card
        self._act = act or session.act
        guard = box.guard
        self.melds_text = widgets.Text(placeholder="R3 R4 R5 R6 / Y7 R7 RK",
                                       layout=widgets.Layout(width="26em"), style=WIDE)
        make.text(self.melds_text, "description", N_("Melds"))
        self.melds_text.add_class("tr-melds-text")
        self.lay_down_typed_button = make.button(
            N_("Lay down these melds"), "tr-lay-down-typed",
            N_("Lay down the melds typed in the box (T15)"))
        self.lay_off_meld = widgets.Dropdown(options=[(_(NO_MELDS), NONE)], value=NONE,
                                             layout=widgets.Layout(width="auto"),
                                             style=WIDE)
        make.text(self.lay_off_meld, "description", N_("Onto"))
        self.lay_off_meld.add_class("tr-lay-off-meld")
        self.lay_off_end = widgets.Dropdown(options=rook_ends(), value="", layout=make.auto)
        self.lay_off_end.add_class("tr-lay-off-end")
        self.lay_off_button = make.button(N_("Lay off selected card"), "tr-lay-off-chosen",
                                          N_("Add the selected card to the chosen meld (H9)"))
        self.swap_source = widgets.Dropdown(options=[(_(NO_ROOK), NONE)], value=NONE,
                                            layout=widgets.Layout(width="auto"), style=WIDE)
        make.text(self.swap_source, "description", N_("Rook in"))
        self.swap_source.add_class("tr-swap-source")
        self.swap_target = widgets.Dropdown(options=[(_(INTO_LAY_DOWN), LAY_DOWN)],
                                            value=LAY_DOWN,
                                            layout=widgets.Layout(width="auto"), style=WIDE)
        make.text(self.swap_target, "description", N_("then"))
        self.swap_target.add_class("tr-swap-target")
        self.swap_end = widgets.Dropdown(options=rook_ends(), value="", layout=make.auto)
        self.swap_end.add_class("tr-swap-end")
        self.swap_button = make.button(N_("Swap in selected card"), "tr-swap-chosen",
                                       N_("Put the selected card in the Rook's place, then "
                                          "play the Rook at once (T18)"))
        self._refreshing = False
        self._picked: set[str] = set()  # the dropdowns the learner chose in
        for name, dropdown in (("source", self.swap_source), ("target", self.swap_target)):
            dropdown.observe(lambda _c, n=name: self._chosen(n), "value")
        for button, handler in ((self.lay_down_typed_button, self.lay_down_typed),
                                (self.lay_off_button, self.lay_off),
                                (self.swap_button, self.swap)):
            button.on_click(guard(lambda _b, h=handler: h()))
        help_text = make.html("tr-help")
        make.text(help_text, "value", N_(
            "<b>Lay down</b> melds typed in notation, separated by <code>/</code> (T15). "
            "<b>Lay off</b> (H9): select one card in your hand and choose a meld. "
            "<b>Rook swap</b> (T18): select the natural card a Rook in a run stands for; "
            "the Rook then goes into your typed lay-down or onto a meld. For a Rook added "
            "to a run, say which end it goes to."))
        super().__init__([
            help_text, make.row(self.melds_text, self.lay_down_typed_button),
            make.row(self.lay_off_meld, self.lay_off_end, self.lay_off_button),
            make.row(self.swap_source, self.swap_target, self.swap_end, self.swap_button)])
        self.add_class("tr-moves-panel")
        self.refresh()

    def relabel(self) -> None:
        relabel(self.lay_off_end, rook_ends())
        relabel(self.swap_end, rook_ends())
        self.refresh()

    def refresh(self) -> None:
        """The meld choices for the table now; the swap defaults to one the engine
        accepts (a legal swap of the hand, else what can apply: a meld once down)."""
        game = self.session.game
        view = game.view(HUMAN)
        names = game.names
        melds = [((owner, index), meld) for owner, ms in enumerate(view.table)
                 for index, meld in enumerate(ms)]
        options = [(f"{names[o]}: {m.describe()} · {m}", (o, i)) for (o, i), m in melds]
        rooks = [(_("{name}: {meld} (Rook = {cards})").format(
                      name=names[o], meld=m, cards=" / ".join(map(str, m.rook_positions()))),
                  (o, i)) for (o, i), m in melds if m.rook_positions()]
        legal_swap = next((a for a in game.legal_actions(HUMAN)
                           if isinstance(a, A.SwapRook)), None) \
            if HUMAN in game.deciders and rooks else None
        self._refreshing = True
        try:
            self._choose_all(view, options, rooks, legal_swap)
        finally:
            self._refreshing = False

    def _choose_all(self, view: PlayerView, options: list[tuple[str, Any]],
                    rooks: list[tuple[str, Any]], legal_swap: A.SwapRook | None) -> None:
        choose(self.lay_off_meld, options or [(_(NO_MELDS), NONE)])
        choose(self.swap_source, rooks or [(_(NO_ROOK), NONE)],
               legal_swap.source if legal_swap else None, "source" in self._picked)
        targets = [(_(INTO_LAY_DOWN), LAY_DOWN),
                   *((_("onto {meld}").format(meld=label), ref) for label, ref in options)]
        if legal_swap is not None:
            default: Any = legal_swap.lay_off_onto or LAY_DOWN
        elif view.down[HUMAN] and options:
            default = options[0][1]  # a player who is down can only lay the Rook off
        else:
            default = LAY_DOWN
        choose(self.swap_target, targets, default, "target" in self._picked)

    def _chosen(self, name: str) -> None:
        if not self._refreshing:
            self._picked.add(name)

    def _meld(self, ref: Any) -> Meld | None:
        table = self.session.game.view(HUMAN).table
        if not isinstance(ref, tuple) or ref[0] >= len(table) or ref[1] >= len(table[ref[0]]):
            return None
        return table[ref[0]][ref[1]]

    def lay_down_typed(self) -> None:
        text = self.melds_text.value.strip()
        if not text:
            self.session.say(msg("Type your melds in the box, separated by '/': "
                                 "R3 R4 R5 R6 / Y7 R7 RK (or click Suggest)", "T15"), "error")
            return
        if self._act(A.LayDown(HUMAN, typed_melds(text, self.session.game.rules))):
            self.melds_text.value = ""

    def lay_off(self) -> None:
        ref = self.lay_off_meld.value
        if ref == NONE:
            self.session.say(msg("There is no meld on the table to lay off onto yet", "H9"),
                             "error")
            return
        card = self._one_card(N_("lay off"), "H9")
        if card is not None:
            as_card = rook_as(self._meld(ref), self.lay_off_end.value) if card.is_rook \
                else None
            self._act(A.LayOff(HUMAN, card, ref, as_card))

    def swap(self) -> None:
        session = self.session
        source = self.swap_source.value
        if source == NONE:
            session.say(msg("No run on the table holds a Rook to swap; a Rook in a set "
                            "never can be swapped", "T19"), "error")
            return
        natural = self._one_card(N_("swap a Rook"), "T18")
        if natural is None:
            return
        target = self.swap_target.value
        if target == LAY_DOWN:
            text = self.melds_text.value.strip()
            if not text:
                session.say(msg("Type the lay-down that uses the Rook in the melds box, or "
                                "choose a meld to lay the Rook off onto", "T18"), "error")
                return
            self._act(A.SwapRook(HUMAN, natural, source,
                                   lay_down=typed_melds(text, session.game.rules)))
            return
        meld = self._meld(target)
        if meld is not None and target == source:
            with contextlib.suppress(ToonervilleError):  # the move itself says why
                meld = meld.swap_rook(natural)
        self._act(A.SwapRook(HUMAN, natural, source, target,
                               rook_as(meld, self.swap_end.value)))


class SettingsPanel(widgets.VBox):  # type: ignore[misc]
    """Bots, bot kind, seed and house rules for the next new game; the buy offers."""

    def __init__(self, session: PlaySession, make: Parts, size: str) -> None:
        self.session = session
        settings = session.settings
        self.bots_count = widgets.Dropdown(options=[2, 3, 4], value=settings["bots"],
                                           layout=make.auto, style=WIDE)
        make.text(self.bots_count, "description", N_("Bots"))
        self.bot_kind = widgets.Dropdown(options=settings_kinds(session.custom_bot),
                                         value=settings["kind"], layout=make.auto,
                                         style=WIDE)
        make.text(self.bot_kind, "description", N_("Bot kind"))
        self.seed = widgets.IntText(value=settings["seed"],
                                    layout=widgets.Layout(width="13em"), style=WIDE)
        make.text(self.seed, "description", N_("Seed"))
        self.rules_panel = HouseRulesPanel(session.rules, size=size)
        for name, control in (("bots", self.bots_count), ("kind", self.bot_kind),
                              ("seed", self.seed)):
            control.observe(lambda change, n=name: self._set(n, change["new"]), "value")
        session.observe(lambda _c: self._settings_changed(), "settings")
        note = make.html("tr-help")
        make.text(note, "value", N_("These apply when you click <b>New game</b> (at the "
                                    "bottom). The seed moves on by one with each new game; "
                                    "the same seed deals the same game."))
        #: every bot level described, the one chosen in bold (`level_view`)
        self.levels = LevelGuide(size).follow(self.bot_kind)
        super().__init__([note, make.row(self.bots_count, self.bot_kind, self.seed),
                          self.levels, self.rules_panel])
        self.add_class("tr-settings-panel")

    def _set(self, name: str, value: object) -> None:
        if self.session.settings.get(name) != value:
            self.session.settings = {**self.session.settings, name: value}

    def _settings_changed(self) -> None:
        settings = self.session.settings
        if self.bots_count.value != settings["bots"]:
            self.bots_count.value = settings["bots"]
        if self.seed.value != settings["seed"]:
            self.seed.value = settings["seed"]

    def relabel(self) -> None:
        relabel(self.bot_kind, settings_kinds(self.session.custom_bot))
        self.rules_panel.refresh()


class SavePanel(widgets.VBox):  # type: ignore[misc]
    """Save the game as text (and a download), load one pasted or given as a file, or
    let the bots finish."""

    def __init__(self, session: PlaySession, make: Parts, box: MessageBox) -> None:
        self.session = session
        guard = box.guard
        self._data = ""
        self.save_button = make.button(N_("Save"), "tr-save",
                                       N_("Put this game in the box as text"))
        self.load_button = make.button(N_("Load"), "tr-load",
                                       N_("Load the saved game pasted in the box"))
        #: the load box: a whole saved game, up to the longest one a save may be
        self.save_text = capped_area(MAX_SIZE, box, css="tr-save-text")
        make.text(self.save_text, "placeholder", N_("Save puts this game here as text; paste "
                                                    "a saved game here and click Load"))
        self.download = make.html("tr-download")
        self.upload = widgets.FileUpload(accept=".json", multiple=False)
        make.text(self.upload, "description", N_("Load a file"))
        self.upload.add_class("tr-upload")
        self.autoplay_button = make.button(N_("Let the bots finish the game"), "tr-autoplay",
                                           N_("A heuristic bot plays your seat to the end"))
        self.save_button.on_click(guard(lambda _b: self.save()))
        self.load_button.on_click(guard(lambda _b: self.load(self.save_text.value)))
        self.upload.observe(guard(self._uploaded), "value")
        self.autoplay_button.on_click(guard(lambda _b: session.autoplay()))
        super().__init__([
            make.row(self.save_button, self.download, self.load_button, self.upload),
            self.save_text, make.row(self.autoplay_button)])
        self.add_class("tr-save-panel")

    def save(self) -> str:
        """The game as JSON, shown in the box with a download link."""
        text = self.session.game.to_json()
        self.save_text.value = text
        self._data = base64.b64encode(text.encode()).decode()
        self.download.value = download_html(self._data)
        self.session.say(msg("Saved: the game is in the box below; copy the text or "
                             "download the file, and load it later", None), "ok")
        return text

    def load(self, text: str | bytes) -> bool:
        return self.session.load(text)

    def _uploaded(self, change: dict[str, Any]) -> None:
        files = change["new"]
        if not files:
            return
        content = files[0]["content"]
        data = content.tobytes() if hasattr(content, "tobytes") else bytes(content)
        shown = data[:MAX_SIZE].decode(errors="replace")
        self.save_text.value = shown
        self.load(data)

    def relabel(self) -> None:
        if self._data:
            self.download.value = download_html(self._data)
