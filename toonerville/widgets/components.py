"""Widget building blocks shared by the lessons (01–06) and the play app (07).

Every component is a thin ipywidgets class over the engine and the pure pictures of
`toonerville.render`; none of them holds game logic. Each stands on `base.Part`: a
`size` trait ("normal", "large" or "projector"; see `SizeToggle`) that redraws it, and
the language in use, which it follows by itself (see `base` for the one way it does).

- `MessageBox`      one explaining sentence (info / ok / error); `guard` makes callbacks
                    safe: a refusal shows its sentence, anything else a short apology
- `SizeToggle`      normal / large / projector card size; `.link(*widgets)`
- `CardButton`      one card with a toggle button under it (`.value`: selected)
- `HandPicker`      a hand to select cards from (`.selected`: tuple of cards, observable)
- `HandView`        a hand as a picture, nothing to click
- `MeldView`, `VerdictView`, `TableView`, `PilesView`, `ScoreSheet`   pictures
- `HistoryStepper`  first / back / forward / last through a game's history
- `HouseRulesPanel` every `Rules` switch; `.rules` (observable), impossible values refused
- `seed_from_url`   the `?seed=N` of a Voila URL, so a demonstration deal is reproducible
- `LanguagePicker`  the kit's languages by their own names: choosing one speaks it in
                    every lesson of the page; `.link(*widgets)` redraws other widgets
                    too (`lang_from_url` reads `?lang=fa`; `rtl_style` flips a page)

- `url_notes`       what the page's address asked for and cannot have (`?seed=abc`)
- from `base`       `MessageBox`, `guard`, `CappedText`, `PageStyle`, `Part`, `relabel`,
                    `size_style` (importable from here too)

Every text a learner reads goes through `messages._` (or is a `Message`, translated when
shown), so it appears in the language of `messages.set_language`; every rule id in it
links to the rulebook (`render.rule_ids_html`).
"""

from __future__ import annotations

import functools
import logging
import os
import urllib.parse
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import fields
from enum import Enum
from html import escape
from typing import Any

import ipywidgets as widgets
import traitlets

from ..cards import Card, format_cards, parse_cards
from ..errors import ToonervilleError
from ..melds import Meld, Verdict, check_meld
from ..messages import (
    DEFAULT,
    LANGUAGES,
    N_,
    Message,
    _,
    add_listener,
    direction,
    language,
    msg,
    normalise,
    plural,
    set_language,
)
from ..render import (
    SIZES,
    TEXT_PX,
    card_html,
    hand_html,
    meld_html,
    message_html,
    piles_html,
    score_sheet_html,
    sentence_html,
    table_html,
    verdict_html,
)
from ..rules import Restock, RookTurnUp, Rules, Seating, SwappedRook
from ..views import Event, PlayerView
from .base import (
    MAX_CHARS,
    SIZE_CSS,
    SOMETHING_WENT_WRONG,
    CappedText,
    MessageBox,
    PageStyle,
    Part,
    check_size,
    guard,
    page_css,
    relabel,
    show_direction,
    size_style,
)

#: Every public name, its own and those of `base` it re-exports (components was their home).
__all__ = [
    "apply_language", "CappedText", "CardButton", "check_size", "EventLog", "guard",
    "HandPicker", "HandView", "HistoryStepper", "HouseRulesPanel", "initial_language",
    "lang_from_url", "LanguagePicker", "MAX_CHARS", "melds_by_player", "MeldView",
    "MessageBox", "page_css", "PageStyle", "Part", "PilesView", "query_params", "relabel",
    "RTL_CSS", "rtl_style", "RULE_LABELS", "RULE_TEXT_CHARS", "ScoreSheet", "seed_from_url",
    "show_direction", "SIZE_CHOICES", "SIZE_CSS", "size_from_url", "size_style",
    "SizeToggle", "SOMETHING_WENT_WRONG", "state_html", "TableView", "TEXT_PX", "url_notes",
    "VerdictView",
]

log = logging.getLogger("toonerville.widgets")
log.addHandler(logging.NullHandler())  # a library logs; the app decides where it goes

#: The card sizes a learner can choose; `render.SIZES` also has "small" for thumbnails.
SIZE_CHOICES: tuple[tuple[str, str], ...] = (
    (N_("Normal"), "normal"), (N_("Large"), "large"), (N_("Projector"), "projector"))
# TEXT_PX (the text size that goes with each card size) comes from `render`, so a
# widget's labels and the pictures inside it grow together. The base of every widget
# (`Part`, `MessageBox`, `guard`, `CappedText`, `PageStyle`, `relabel`, `size_style`)
# lives in `base` and stays importable from here.


# -- the seed of a demonstration ----------------------------------------------------------
_request_waited = False


def _wait_for_voila_request() -> None:
    """Under Voila's preheated kernels the request (and its QUERY_STRING) arrives only
    after the notebook started running: wait for it, once per kernel. Elsewhere
    (JupyterLab, nbval, plain Voila) this does nothing."""
    global _request_waited
    if _request_waited or os.environ.get("VOILA_PREHEAT", "False") != "True":
        return
    _request_waited = True
    try:
        from voila.utils import wait_for_request

        wait_for_request()
    except Exception:  # no Voila, or no request info: the default seed it is
        log.warning("could not read the Voila request", exc_info=True)


def query_params() -> dict[str, str]:
    """The query parameters of the page (Voila's `QUERY_STRING`); {} outside Voila."""
    _wait_for_voila_request()
    parsed = urllib.parse.parse_qs(os.environ.get("QUERY_STRING", ""), keep_blank_values=False)
    return {k: v[-1] for k, v in parsed.items() if v}


def seed_from_url(default: int, name: str = "seed") -> int:
    """The seed given in the page's URL (`…/03-contracts.ipynb?seed=42`), or `default`.

    A value that is not a whole number from 0 to 2**31 - 1 is ignored."""
    text = query_params().get(name, "").strip()
    try:
        seed = int(text)
    except ValueError:
        return default
    return seed if 0 <= seed < 2**31 else default


def size_from_url(default: str = "normal", name: str = "size") -> str:
    """The card and text size given in the page's URL (`…/07-play-a-game.ipynb?size=
    projector`: normal, large or projector), or `default`; anything else is ignored."""
    text = query_params().get(name, "").strip().lower()
    return text if text in dict((v, k) for k, v in SIZE_CHOICES) else default


def url_notes(seed_default: int | None = None) -> list[Message]:
    """What the page's address asked for and cannot have, in the learner's words: a
    `?seed=` that is not a whole number from 0 to 2**31 - 1 (when the page uses a seed,
    `seed_default`, the one used instead), a `?size=` that is not a size."""
    params, notes = query_params(), []
    seed = params.get("seed", "").strip()
    if seed_default is not None and seed and seed_from_url(-1) == -1:
        notes.append(msg("The address asks for seed “{text}”, but a seed is a whole number "
                         "from 0 to 2147483647, so this page uses seed {seed}.",
                         text=seed[:40], seed=seed_default))
    size = params.get("size", "").strip()
    if size and size_from_url("") == "":
        notes.append(msg("The address asks for size “{text}”, which this page does not "
                         "have: the sizes are normal, large and projector.", text=size[:40]))
    return notes


def lang_from_url(default: str = DEFAULT, name: str = "lang") -> str:
    """The language given in the page's URL (`…/02-runs-and-sets.ipynb?lang=fa`), or
    `default`. Regional forms are understood (`fa-IR`, `de_AT`); a code that is not one
    of `LANGUAGES` is ignored."""
    text = query_params().get(name, "").strip()
    if not text:
        return default
    code = normalise(text)
    asked_english = text.replace("_", "-").split("-")[0].lower() == DEFAULT
    return code if code != DEFAULT or asked_english else default


# -- languages ----------------------------------------------------------------------------
#: A right-to-left page: the lesson flows from the right, while card rows, card notation
#: typed in a text box and numbers stay left to right (the pictures isolate them too).
RTL_CSS = """<style>
.tr-rtl { direction: rtl; }
.tr-rtl .tv-hand-picker-row { direction: ltr; justify-content: flex-end; }
.tr-rtl .tv-card-picker-card, .tr-rtl .widget-inline-hbox input[type="number"],
.tr-rtl .widget-readout, .tr-rtl .widget-progress { direction: ltr; }
.tr-rtl .widget-text input { unicode-bidi: plaintext; text-align: start; }
.tr-rtl .widget-inline-hbox .widget-label { text-align: left; }
</style>"""


def rtl_style() -> widgets.HTML:
    """An invisible widget holding `RTL_CSS`; `LanguagePicker` and the lessons carry one,
    and any layout that uses `apply_language` needs one on the page."""
    return widgets.HTML(RTL_CSS, layout=widgets.Layout(display="none"))


def apply_language(widget: widgets.Widget, redraw: bool = True) -> None:
    """Show `widget` in the language in use. A `Part` follows the language by itself:
    this draws it only if it is not drawn in that language yet. Any other widget gets
    its direction (class `tr-rtl`) and its `refresh()` (else `_redraw()`). A closed
    widget is left."""
    if getattr(widget, "comm", None) is None:
        return
    if isinstance(widget, Part):
        if redraw and widget._drawn_in != language():
            widget.refresh()
        else:
            show_direction(widget)
        return
    show_direction(widget)
    draw = getattr(widget, "refresh", None) or getattr(widget, "_redraw", None)
    if redraw and draw is not None:
        draw()


_url_language_read = False


def initial_language() -> str:
    """The language a new picker or lesson starts in: the page's `?lang=` for the first
    of a kernel, then whatever the learner chose since."""
    global _url_language_read
    if _url_language_read:
        return language()
    _url_language_read = True
    return lang_from_url(language())


class LanguagePicker(widgets.HBox):  # type: ignore[misc]
    """The kit's languages, each by its own name. Choosing one speaks it everywhere (it
    calls `messages.set_language`): every picker follows, every lesson redraws itself,
    and each picker redraws the other widgets linked to it (`picker.link(app)`), right to
    left for Persian. Put one at the top of a notebook: `LanguagePicker()`.

    `LanguagePicker()` starts in the language of the page's URL (`?lang=fa`) the first
    time in a kernel, afterwards in the one in use; `LanguagePicker("de")` chooses.

    On a served page (Voila, or the static site: the kernel knows the page's query
    string) choosing a language also reloads the page with `?lang=xx`, the other query
    parameters kept, so the lesson prose — translated when the page is rendered —
    switches with the widgets. In JupyterLab only the widgets switch (the translated
    notebooks are files of their own there: `python tools/i18n.py notebooks`)."""

    value = traitlets.Unicode(DEFAULT)

    def __init__(self, value: str | None = None, **kwargs: Any) -> None:
        self._ready = False
        self.dropdown = widgets.Dropdown(
            options=[(name, code) for code, name in LANGUAGES.items()],
            style={"description_width": "initial"}, layout=widgets.Layout(width="auto"))
        self.dropdown.add_class("tv-language-dropdown")
        self._linked: list[weakref.ref[widgets.Widget]] = []
        self.reload = widgets.HTML(layout=widgets.Layout(display="none"))
        self.reload.add_class("tv-language-reload")
        super().__init__(children=(rtl_style(), self.dropdown, self.reload), **kwargs)
        self.add_class("tv-language-picker")
        chosen = set_language(initial_language() if value is None else value)
        self.value = self.dropdown.value = chosen
        widgets.link((self.dropdown, "value"), (self, "value"))
        add_listener(self._language_changed)
        self._label()
        self._ready = True

    @staticmethod
    def served() -> bool:
        """Whether this kernel serves a page with a URL (Voila or the static site)."""
        return "QUERY_STRING" in os.environ

    @staticmethod
    def reload_html(code: str) -> str:
        """What makes the page in the browser load itself again in `code`: the page's own
        URL with `lang` set, every other parameter and the #anchor kept. (An HTML widget
        runs no <script>; the handler of an image that cannot load does run. In that
        handler a bare `URL` is `document.URL`, a string: hence `window.URL`.)"""
        if code not in LANGUAGES:
            raise ValueError(f"unknown language {code!r}")
        script = ("var u=new window.URL(window.location.href);"
                  f"u.searchParams.set('lang','{code}');"
                  "if(u.href!==window.location.href){window.location.assign(u.href);}")
        return f'<img src="data:," alt="" hidden onerror="{escape(script)}">'

    def _ask_reload(self, code: str) -> None:
        if not self._ready or not self.served():
            return
        if code != lang_from_url():  # every picker asks: one may not be on the page
            self.reload.value = self.reload_html(code)

    def __repr__(self) -> str:
        return f"LanguagePicker({self.value!r})"

    def link(self, *targets: widgets.Widget, redraw: bool = True) -> None:
        """Redraw `targets` whenever the language changes, and now in the one in use
        (`redraw=False`: only their direction now, for widgets just drawn in it)."""
        for target in targets:
            self._linked.append(weakref.ref(target))
            apply_language(target, redraw)

    @traitlets.observe("value")
    def _value_changed(self, change: Any) -> None:
        set_language(change["new"])
        self._ask_reload(change["new"])

    def _language_changed(self, code: str) -> None:
        if self.comm is None:  # closed
            return
        if self.value != code:
            self.value = code
        self._label()
        alive = []
        for ref in self._linked:
            target = ref()
            if target is None:
                continue
            alive.append(ref)
            try:
                apply_language(target)
            except Exception:  # noqa: BLE001 - one broken widget must not stop the rest
                log.error("could not redraw %r in %s", target, code, exc_info=True)
        self._linked = alive

    def _label(self) -> None:
        self.dropdown.description = "🌐 " + _("Language")
        self.dropdown.tooltip = _("The language of the lessons and the game")
        if direction() == "rtl":
            self.add_class("tr-rtl")
        else:
            self.remove_class("tr-rtl")


# -- sizes --------------------------------------------------------------------------------
_check_size = check_size


class SizeToggle(Part, widgets.ToggleButtons):  # type: ignore[misc]
    """Normal / large / projector size. `toggle.link(a, b)` keeps the `size` of widgets
    a and b equal to the toggle's value; the toggle itself grows with its value."""

    def __init__(self, value: str = "normal", **kwargs: Any) -> None:
        fixed = {k for k in ("description", "tooltips") if k in kwargs}
        kwargs.setdefault("style", {"button_width": "auto", "description_width": "auto"})
        super().__init__(options=self._options(), value=check_size(value), **kwargs)
        self.add_class("tv-size-toggle")
        labels: dict[str, Any] = {"options": self._options}
        if "description" not in fixed:
            labels["description"] = N_("Card size")
        if "tooltips" not in fixed:
            labels["tooltips"] = [N_("Cards for one screen"), N_("Bigger cards"),
                                  N_("Cards to read from the back of a room")]
        self.texts(self, **labels)
        widgets.dlink((self, "value"), (self, "size"))

    @staticmethod
    def _options() -> list[tuple[str, str]]:
        return [(_(label), size) for label, size in SIZE_CHOICES]

    def link(self, *targets: widgets.Widget) -> None:
        for target in targets:
            widgets.dlink((self, "value"), (target, "size"))


#: The base's old name, kept for code written before `Part`.
_Sized = Part


# -- one card, a hand ---------------------------------------------------------------------
def _button_style(size: str) -> dict[str, str]:
    return {"font_size": f"{TEXT_PX[size]}px", "font_weight": "bold"}


class CardButton(Part, widgets.VBox):  # type: ignore[misc]
    """One card drawn by `render.card_html` with a toggle button under it named by the
    card ("R7", tooltip "Red 7"). `.value` is True while the card is selected."""

    value = traitlets.Bool(False)

    def __init__(self, card: Card | str, size: str = "normal", value: bool = False,
                 **kwargs: Any) -> None:
        self._card = card if isinstance(card, Card) else Card.parse(card)
        self.picture = widgets.HTML()
        self.button = widgets.ToggleButton()
        self.button.add_class("tv-card-button")
        super().__init__(children=(self.picture, self.button), **kwargs)
        self.add_class("tv-card-picker-card")
        widgets.link((self.button, "value"), (self, "value"))
        self.value = value
        self.size = size
        self.card = self._card

    @property
    def card(self) -> Card:
        return self._card

    @card.setter
    def card(self, card: Card) -> None:
        self._card = card
        self.button.description = str(card)
        self._redraw()

    @traitlets.observe("value")
    def _value_changed(self, change: Any) -> None:
        self._redraw()

    def _redraw(self) -> None:
        width = SIZES[self.size]
        self.button.tooltip = _("{card}: select or unselect").format(card=self.card.name)
        self.picture.value = card_html(self.card, self.size, selected=self.value)
        self.layout.width = f"{width + 4}px"
        self.layout.align_items = "center"
        self.layout.padding = f"{round(width * 0.15)}px 0 0 0"
        self.button.layout.width = f"{width}px"
        self.button.layout.height = "auto"
        self.button.style = _button_style(self.size)


class HandPicker(Part, widgets.VBox):  # type: ignore[misc]
    """A hand to select cards from: one `CardButton` per card, in a wrapping row.

    `.selected` (tuple of cards, in hand order) and `.selected_indices` are traits:
    observe them with `picker.observe(fn, "selected")`. `max_selected` keeps at most
    that many cards selected (selecting another unselects the oldest)."""

    selected = traitlets.Tuple()
    selected_indices = traitlets.Tuple()
    disabled = traitlets.Bool(False)

    def __init__(self, cards: Iterable[Card | str] | str = (), size: str = "normal",
                 label: str | None = None, max_selected: int | None = None,
                 **kwargs: Any) -> None:
        self.max_selected = max_selected
        self.label = widgets.HTML()
        self.row = widgets.Box(layout=widgets.Layout(flex_flow="row wrap",
                                                     align_items="flex-end"))
        self.row.add_class("tv-hand-picker-row")
        self.row.add_class("tv-row")
        super().__init__(children=(self.label, self.row), **kwargs)
        self.add_class("tv-hand-picker")
        self._label_text = label
        self._cards: tuple[Card, ...] = ()
        self._order: list[int] = []  # selection order, for max_selected
        self._syncing = False
        self.size = size
        self.set_cards(cards)

    @property
    def cards(self) -> tuple[Card, ...]:
        return self._cards

    def set_cards(self, cards: Iterable[Card | str] | str,
                  selected: Iterable[int] = ()) -> None:
        """Show another hand (the selection is replaced by `selected` indices)."""
        self._cards = parse_cards(cards) if isinstance(cards, str) else tuple(
            c if isinstance(c, Card) else Card.parse(c) for c in cards)
        chosen = set(selected)
        old = list(self.row.children)
        buttons = []
        self._syncing = True
        try:
            for i, card in enumerate(self._cards):
                if i < len(old):  # reuse the card's widgets: fewer messages to the page
                    b = old[i]
                    b.value = i in chosen
                    if b.card != card:
                        b.card = card
                else:
                    b = CardButton(card, self.size, value=i in chosen)
                    b.observe(functools.partial(self._toggled, i), "value")
                b.button.disabled = self.disabled
                buttons.append(b)
        finally:
            self._syncing = False
        if len(buttons) != len(old):
            self.row.children = tuple(buttons)
        for b in old[len(buttons):]:
            b.close()
        self._order = sorted(chosen)
        self._publish()
        self._draw_label()

    def select(self, indices: Iterable[int]) -> None:
        """Select exactly these positions of the hand."""
        chosen = [i for i in indices if 0 <= i < len(self._cards)]
        self._order = chosen
        self._syncing = True
        try:
            for i, b in enumerate(self.row.children):
                b.value = i in chosen
        finally:
            self._syncing = False
        self._publish()

    def clear_selection(self) -> None:
        self.select(())

    def _toggled(self, index: int, change: Any) -> None:
        if self._syncing:
            return
        if change["new"]:
            self._order.append(index)
            if self.max_selected is not None and len(self._order) > self.max_selected:
                oldest = self._order.pop(0)
                self._syncing = True
                try:
                    self.row.children[oldest].value = False
                finally:
                    self._syncing = False
        elif index in self._order:
            self._order.remove(index)
        self._publish()

    def _publish(self) -> None:
        indices = tuple(i for i, b in enumerate(self.row.children) if b.value)
        self.selected_indices = indices
        self.selected = tuple(self._cards[i] for i in indices)
        self._draw_label()

    def _draw_label(self) -> None:
        if self._label_text is None:
            self.label.value = ""
            self.label.layout.display = "none"
            return
        self.label.layout.display = None
        n = len(self._cards)
        count = plural("{n} card", "{n} cards", n)
        chosen = (" · " + _("selected: {cards}").format(cards=format_cards(self.selected))
                  if self.selected else "")
        self.label.value = (f'<div style="font-size:{TEXT_PX[self.size]}px">'
                            f"<b>{escape(_(self._label_text))}</b> · {escape(count)}"
                            f"{escape(chosen)}</div>")

    @traitlets.observe("disabled")
    def _disabled_changed(self, change: Any) -> None:
        for b in self.row.children:
            b.button.disabled = change["new"]

    def _redraw(self) -> None:
        for b in getattr(self, "row", widgets.Box()).children:
            b.size = self.size
        if hasattr(self, "label"):
            self._draw_label()


# -- pictures -----------------------------------------------------------------------------
class _Picture(Part, widgets.HTML):  # type: ignore[misc]
    """An HTML widget drawn by one pure function of `render`."""

    def __init__(self, size: str = "normal", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.size = size


class HandView(_Picture):
    """A hand as a picture (`render.hand_html`); `.show(cards, label=..., selected=...)`."""

    def __init__(self, cards: Iterable[Card | str] | str = (), size: str = "normal",
                 label: str | None = None, selected_indices: Iterable[int] = (),
                 **kwargs: Any) -> None:
        self._cards: tuple[Card, ...] = ()
        self._label = label
        self._chosen: tuple[int, ...] = ()
        super().__init__(size, **kwargs)
        self.add_class("tv-hand-view")
        self.show(cards, label, selected_indices)

    @property
    def cards(self) -> tuple[Card, ...]:
        return self._cards

    def show(self, cards: Iterable[Card | str] | str, label: str | None = None,
             selected_indices: Iterable[int] = ()) -> None:
        self._cards = parse_cards(cards) if isinstance(cards, str) else tuple(
            c if isinstance(c, Card) else Card.parse(c) for c in cards)
        self._label = label
        self._chosen = tuple(selected_indices)
        self._redraw()

    def _redraw(self) -> None:
        if hasattr(self, "_chosen"):
            self.value = hand_html(self._cards, self.size, self._chosen, self._label)


class MeldView(_Picture):
    """One meld (`render.meld_html`); `.meld` may be set to a Meld, notation or None."""

    def __init__(self, meld: Meld | str | None = None, size: str = "normal",
                 **kwargs: Any) -> None:
        self._meld: Meld | None = None
        super().__init__(size, **kwargs)
        self.add_class("tv-meld-view")
        self.meld = meld

    @property
    def meld(self) -> Meld | None:
        return self._meld

    @meld.setter
    def meld(self, meld: Meld | str | None) -> None:
        self._meld = Meld.parse(meld) if isinstance(meld, str) else meld
        self._redraw()

    def _redraw(self) -> None:
        if hasattr(self, "_meld"):
            self.value = "" if self._meld is None else meld_html(self._meld, self.size)


class VerdictView(_Picture):
    """A meld verdict: the valid / not valid badge, its sentence and its meld."""

    def __init__(self, verdict: Verdict | None = None, size: str = "normal",
                 **kwargs: Any) -> None:
        self._verdict: Verdict | None = None
        super().__init__(size, **kwargs)
        self.add_class("tv-verdict-view")
        self.verdict = verdict

    @property
    def verdict(self) -> Verdict | None:
        return self._verdict

    @verdict.setter
    def verdict(self, verdict: Verdict | None) -> None:
        self._verdict = verdict
        self._redraw()

    @property
    def text(self) -> str:
        return "" if self._verdict is None else str(self._verdict)

    def _redraw(self) -> None:
        if hasattr(self, "_verdict"):
            self.value = ("" if self._verdict is None
                          else verdict_html(self._verdict, self.size))


MeldsByPlayer = Mapping[str, Sequence[Meld | str]]


def melds_by_player(source: PlayerView | MeldsByPlayer) -> dict[str, tuple[Meld, ...]]:
    """The table as {player name: melds}, from a `PlayerView` or such a mapping (whose
    melds may be notation)."""
    if isinstance(source, PlayerView):
        return {name: tuple(source.table[i]) for i, name in enumerate(source.names)}
    return {name: tuple(m if isinstance(m, Meld) else check_meld(m).meld_or_raise()
                        for m in melds) for name, melds in source.items()}


class TableView(_Picture):
    """The melds on the table (`render.table_html`), from a `PlayerView` or a mapping
    {player name: melds}; `.update(source)` redraws."""

    def __init__(self, source: PlayerView | MeldsByPlayer | None = None,
                 size: str = "normal", **kwargs: Any) -> None:
        self._table: dict[str, tuple[Meld, ...]] = {}
        super().__init__(size, **kwargs)
        self.add_class("tv-table-view")
        self.update(source or {})

    @property
    def table(self) -> dict[str, tuple[Meld, ...]]:
        return dict(self._table)

    def update(self, source: PlayerView | MeldsByPlayer) -> None:
        self._table = melds_by_player(source)
        self._redraw()

    def _redraw(self) -> None:
        if hasattr(self, "_table"):
            self.value = table_html(self._table, self.size)


class PilesView(_Picture):
    """The stock and the discard pile (`render.piles_html`); `.update(view)` or
    `.show(stock_count, discard_top, discard_count)`."""

    def __init__(self, view: PlayerView | None = None, size: str = "normal",
                 **kwargs: Any) -> None:
        self._piles: tuple[int, Card | None, int] = (0, None, 0)
        super().__init__(size, **kwargs)
        self.add_class("tv-piles-view")
        if view is not None:
            self.update(view)
        else:
            self._redraw()

    def update(self, view: PlayerView) -> None:
        self.show(view.stock_size, view.discard_top, view.discard_size)

    def show(self, stock_count: int, discard_top: Card | None, discard_count: int) -> None:
        self._piles = (stock_count, discard_top, discard_count)
        self._redraw()

    @property
    def piles(self) -> tuple[int, Card | None, int]:
        return self._piles

    def _redraw(self) -> None:
        if hasattr(self, "_piles"):
            self.value = piles_html(*self._piles, size=self.size)


class ScoreSheet(_Picture):
    """The score sheet of 11 rounds (`render.score_sheet_html`): `.update(players, rows)`,
    `.show_game(game)` or `.show_view(view)`."""

    def __init__(self, players: Sequence[str] = (), rows: Sequence[Sequence[int]] = (),
                 size: str = "normal", highlight_round: int | None = None,
                 **kwargs: Any) -> None:
        self._sheet: tuple[tuple[str, ...], tuple[tuple[int, ...], ...], int | None] = (
            (), (), None)
        super().__init__(size, **kwargs)
        self.add_class("tv-score-sheet-view")
        self.update(players, rows, highlight_round)

    def update(self, players: Sequence[str], rows: Sequence[Sequence[int]],
               highlight_round: int | None = None) -> None:
        self._sheet = (tuple(players), tuple(tuple(r) for r in rows), highlight_round)
        self._redraw()

    def show_game(self, game: Any) -> None:
        """A `Game`'s sheet; the round in play is highlighted until the game is over."""
        self.update(game.names, game.scores, None if game.is_over else game.round_number)

    def show_view(self, view: PlayerView) -> None:
        self.update(view.names, view.scores, view.round_number)

    @property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        return self._sheet[1]

    def _redraw(self) -> None:
        if not hasattr(self, "_sheet"):
            return
        players, rows, current = self._sheet
        self.value = score_sheet_html(players, rows, highlight_round=current,
                                      size=self.size) if players else ""


class EventLog(_Picture):
    """Sentences of a game's history as a numbered list, the newest last and in bold;
    `.show(events)`; `limit` keeps only the last so many."""

    def __init__(self, events: Sequence[Event] = (), size: str = "normal",
                 limit: int | None = 12, **kwargs: Any) -> None:
        self._events: tuple[Event, ...] = ()
        self.limit = limit
        super().__init__(size, **kwargs)
        self.add_class("tv-event-log")
        self.show(events)

    @property
    def events(self) -> tuple[Event, ...]:
        return self._events

    @property
    def text(self) -> str:
        return "\n".join(str(e.text) for e in self._events)

    def show(self, events: Sequence[Event]) -> None:
        self._events = tuple(events)
        self._redraw()

    def _redraw(self) -> None:
        if not hasattr(self, "_events"):
            return
        events = self._events
        first = 0 if self.limit is None else max(0, len(events) - self.limit)
        items = []
        for k, e in enumerate(events[first:], first + 1):
            text = sentence_html(e.text)
            items.append(f"<li><b>{text}</b></li>" if k == len(events) else f"<li>{text}</li>")
        self.value = (f'<ol class="tv-events" start="{first + 1}" style="margin:4px 0;'
                      f'padding-inline-start:2.2em;font-size:{TEXT_PX[self.size]}px;'
                      f'line-height:1.4">{"".join(items)}</ol>' if items else "")


# -- history ------------------------------------------------------------------------------
def state_html(game: Any, size: str = "normal", reveal: bool = True,
               highlight: Mapping[int, Sequence[int]] | None = None) -> str:
    """A picture of a whole game position for teaching: whose turn, the piles, every
    hand (face up when `reveal`, else only its size) and the melds on the table.
    `highlight` maps a seat to positions in its hand to lift (e.g. cards just bought)."""
    view = game.view(game.current)
    names = game.names
    phase = {"draw": _("{name} to draw"),
             "buy": _("{name}: the discard is offered to buyers"),
             "play": _("{name} to play"),
             "game_over": _("{name}: the game is over")}[view.phase.value]
    who = phase.format(name=f"<b>{escape(names[view.current])}</b>")
    head = (f'<div style="font-size:{TEXT_PX[size]}px;margin:4px 0">'
            + _("<b>Round {r}</b> · contract {contract} · dealer {dealer}").format(
                r=view.round_number, contract=escape(str(view.contract)),
                dealer=escape(names[view.dealer]))
            + f" · {who}</div>")
    hands = []
    for seat, name in enumerate(names):
        down = " · " + _("down") if view.down[seat] else ""
        turn = " · " + _("to play") if seat == view.current and not game.is_over else ""
        n = view.hand_sizes[seat]
        cards = plural("{n} card", "{n} cards", n)
        label = f"{name}{turn}{down} · {cards}"
        if reveal:
            chosen = (highlight or {}).get(seat, ())
            hands.append(hand_html(game.hand(seat), size, chosen, label=label))
        else:
            hands.append(f"<div>{escape(label)}</div>")
    return (f'<div class="tv-state">{head}{piles_html(view.stock_size, view.discard_top, view.discard_size, size)}'  # noqa: E501
            f'{"".join(hands)}{table_html(melds_by_player(view), size)}</div>')


def _replay_start(game: Any) -> Any:
    """`game` as it stood before its first move (the engine keeps every position)."""
    return game.root()


class HistoryStepper(Part, widgets.VBox):  # type: ignore[misc]
    """First / back / forward / last through a history.

    `HistoryStepper(events)` steps through events one by one, each shown with its
    sentence and its cards. `HistoryStepper.for_game(game)` steps move by move: step 0
    is the deal, step k shows the sentences of move k and a picture of the whole table
    after it (made by replaying the game's moves on a fresh copy). `.index` (observable)
    is the step shown; `.step_count` the number of steps."""

    index = traitlets.Int(0)

    def __init__(self, events: Sequence[Event] = (), size: str = "normal",
                 picture: Callable[[int, str], str] | None = None,
                 steps: Sequence[Sequence[Event]] | None = None, **kwargs: Any) -> None:
        self._steps: tuple[tuple[Event, ...], ...] = (
            tuple(tuple(s) for s in steps) if steps is not None
            else tuple((e,) for e in events))
        self._picture = picture
        self.first_button = widgets.Button()
        self.back_button = widgets.Button()
        self.forward_button = widgets.Button()
        self.last_button = widgets.Button()
        self.position = widgets.HTML()
        self.sentences = widgets.HTML()
        self.picture = widgets.HTML()
        self.messages = MessageBox()
        buttons = (self.first_button, self.back_button, self.forward_button, self.last_button)
        for b, move in zip(buttons, (self.first, self.back, self.forward, self.last),
                           strict=True):
            b.on_click(self.messages.guard(lambda _b, move=move: move()))
        bar = widgets.HBox((*buttons, self.position),
                           layout=widgets.Layout(align_items="center", flex_flow="row wrap"))
        super().__init__(children=(bar, self.sentences, self.messages, self.picture),
                         **kwargs)
        self.add_class("tv-history-stepper")
        for button, description, tooltip in (
                (self.first_button, N_("⏮ First"), N_("First step")),
                (self.back_button, N_("◀ Back"), N_("One step back")),
                (self.forward_button, N_("Forward ▶"), N_("One step forward")),
                (self.last_button, N_("Last ⏭"), N_("Last step"))):
            self.texts(button, description=description, tooltip=tooltip)
        self.size = size
        self._redraw()

    @classmethod
    def for_game(cls, game: Any, size: str = "normal", reveal: bool = True,
                 **kwargs: Any) -> HistoryStepper:
        """Step through `game` move by move, with a picture of the table at each step."""
        replay = _Replay(game, reveal)
        return cls(size=size, picture=replay.picture, steps=replay.steps, **kwargs)

    @property
    def step_count(self) -> int:
        return len(self._steps)

    @property
    def events(self) -> tuple[Event, ...]:
        """The events of the step shown."""
        return self._steps[self.index] if self._steps else ()

    @property
    def text(self) -> str:
        """The sentences of the step shown, one per line."""
        return "\n".join(str(e.text) for e in self.events)

    def first(self) -> None:
        self.index = 0

    def back(self) -> None:
        self.index = max(0, self.index - 1)

    def forward(self) -> None:
        self.index = min(self.step_count - 1, self.index + 1)

    def last(self) -> None:
        self.index = max(0, self.step_count - 1)

    @traitlets.validate("index")
    def _valid_index(self, proposal: Any) -> int:
        return max(0, min(int(proposal["value"]), max(0, len(self._steps) - 1)))

    @traitlets.observe("index")
    def _index_changed(self, change: Any) -> None:
        self._redraw()

    def _redraw(self) -> None:
        if not hasattr(self, "picture"):
            return
        n, k, size = self.step_count, self.index, self.size
        px = TEXT_PX[size]
        for b in (self.first_button, self.back_button, self.forward_button,
                  self.last_button):
            b.style = _button_style(size)
        self.first_button.disabled = self.back_button.disabled = k <= 0
        self.forward_button.disabled = self.last_button.disabled = k >= n - 1
        self.position.value = (f'<span style="font-size:{px}px;margin-inline-start:8px">'
                               + escape(_("Step {k} of {n}").format(k=k + 1 if n else 0, n=n))
                               + "</span>")
        events = self.events
        self.sentences.value = "".join(
            message_html(e.text, "info", size)
            + (hand_html(e.cards, size) if e.cards and self._picture is None else "")
            for e in events)
        if self._picture is not None and n:
            try:
                self.picture.value = self._picture(k, size)
            except Exception as err:  # noqa: BLE001 - a picture must never break the page
                self.messages.show_exception(err)
        self.messages.size = size


class _Replay:
    """Replays a game's moves on a fresh copy, to draw the position after move k."""

    def __init__(self, game: Any, reveal: bool) -> None:
        self.actions = game.actions
        self.reveal = reveal
        start = _replay_start(game)
        first = tuple(start.history)
        steps = [first]
        for action in self.actions:
            steps.append(start.apply(action))
        self.steps: tuple[tuple[Event, ...], ...] = tuple(steps)
        self._game = _replay_start(game)
        self._at = 0

    def game_at(self, k: int) -> Any:
        if k < self._at:
            self._game, self._at = _replay_start(self._game), 0
        while self._at < k:
            self._game.apply(self.actions[self._at])
            self._at += 1
        return self._game

    def picture(self, k: int, size: str) -> str:
        return state_html(self.game_at(k), size, self.reveal)


# -- house rules --------------------------------------------------------------------------
#: The label and rule id of each `Rules` switch, in the rulebook's order.
#: The labels are English; they are shown through `messages._` (marked with `N_`).
RULE_LABELS: dict[str, tuple[str, str]] = {
    "max_rooks_per_meld": ("H1", N_("Most Rooks in one meld (blank: any number)")),
    "rooks_at_most_naturals": ("H1", N_("No more Rooks than natural cards in a meld")),
    "first_dealer": ("H2", N_("First dealer's seat (blank: drawn at random)")),
    "rook_turn_up": ("H3", N_("A Rook turned up as the first discard")),
    "round11_deal": ("H4", N_("Cards dealt in round 11")),
    "max_buys_per_round": ("H5", N_("Most buys per player per round (blank: no limit)")),
    "down_players_may_buy": ("H5", N_("Players already down may buy")),
    "penalty_cards": ("H5", N_("Penalty cards per buy")),
    "restock": ("H6", N_("When the stock runs out")),
    "extra_melds": ("H7", N_("Melds beyond the contract allowed")),
    "contiguous_runs": ("H8", N_("Two same-colour runs may touch end to end")),
    "same_number_sets": ("H8", N_("Two sets of one number in a lay-down")),
    "lay_off_same_turn": ("H9", N_("Lay off on the turn you lay down")),
    "lay_off_on_others": ("H9", N_("Lay off onto other players' melds")),
    "rook_swap": ("H10", N_("The Rook swap is allowed")),
    "swap_only_when_down": ("H10", N_("Only players who are down may swap")),
    "seating": ("H11", N_("Tournament seating between rounds")),
    "swapped_rook": ("H12", N_("When the swapped Rook is played")),
}
_CHOICES: dict[str, list[tuple[str, Any]]] = {
    "rook_turn_up": [(N_("it is buried in the stock"), RookTurnUp.BURY),
                     (N_("it stays up"), RookTurnUp.STAYS)],
    "restock": [(N_("shuffle the discard pile"), Restock.SHUFFLE),
                (N_("turn the discard pile over"), Restock.TURN_OVER)],
    "round11_deal": [(N_("14 (published table)"), 14), (N_("12 (other version)"), 12)],
    "seating": [(N_("spread: opponents change evenly"), Seating.SPREAD),
                (N_("stay: every table keeps its players"), Seating.STAY),
                (N_("standing: the leaders play each other"), Seating.STANDING)],
    "swapped_rook": [(N_("at once, in the same move"), SwappedRook.AT_ONCE),
                     (N_("later in the same turn"), SwappedRook.THIS_TURN)],
}


#: How many characters a house rule's text box holds (a number, or blank).
RULE_TEXT_CHARS = 12


class HouseRulesPanel(Part, widgets.VBox):  # type: ignore[misc]
    """A control for every `Rules` switch, grouped by rule id.

    `.rules` (an observable trait) is the last playable configuration; a value the
    engine refuses leaves it unchanged and shows the `RulesError` sentence
    (`.messages.text`), with `.valid` False until it is fixed. `.controls[name]` is the
    widget of the switch `name`; `.set_rules(rules)` shows another configuration."""

    rules = traitlets.Instance(Rules)
    valid = traitlets.Bool(True)

    def __init__(self, rules: Rules | None = None, size: str = "normal",
                 **kwargs: Any) -> None:
        self.controls: dict[str, widgets.Widget] = {}
        self.messages = MessageBox()
        self.summary = widgets.HTML()
        self.reset_button = widgets.Button()
        rows: list[widgets.Widget] = []
        default = Rules()
        for f in fields(Rules):
            control = self._control(f.name, getattr(default, f.name))
            self.controls[f.name] = control
            rows.append(control)
        self._loading = False
        super().__init__(children=(*rows, self.reset_button, self.messages, self.summary),
                         **kwargs)
        self.add_class("tv-house-rules")
        self._label()
        self.rules = rules or Rules()
        self.set_rules(self.rules)
        for control in self.controls.values():
            control.observe(self.messages.guard(self._edited), "value")
        self.reset_button.on_click(self.messages.guard(lambda _b: self.set_rules(Rules())))
        self.size = size

    @staticmethod
    def _control(name: str, default: Any) -> widgets.Widget:
        style = {"description_width": "initial"}
        layout = widgets.Layout(width="auto")
        if name in _CHOICES:
            return widgets.Dropdown(options=_choices(name), style=style, layout=layout)
        if isinstance(default, bool):
            return widgets.Checkbox(indent=False, style=style, layout=layout)
        if isinstance(default, Enum):
            return widgets.Dropdown(options=[(e.value, e) for e in type(default)],
                                    style=style, layout=layout)
        if isinstance(default, int):
            return widgets.IntText(style=style, layout=widgets.Layout(width="auto"))
        return CappedText(max_chars=RULE_TEXT_CHARS, style=style, layout=layout)

    def _label(self) -> None:
        """Every label, now and in every later language; the values stay as they are."""
        self.texts(self.reset_button, description=N_("Rulebook defaults"),
                   tooltip=N_("Back to the rules as the rulebook states them"))
        for name, control in self.controls.items():
            rule, label = RULE_LABELS.get(name, ("", name.replace("_", " ")))

            def description(label: str = label, rule: str = rule) -> str:
                return (_("{label} ({rule})").format(label=_(label), rule=rule)
                        if rule else _(label))

            labels: dict[str, Any] = {"description": description}
            if name in _CHOICES:
                labels["options"] = functools.partial(_choices, name)
            if isinstance(control, widgets.Text):
                labels["placeholder"] = N_("blank")
            self.texts(control, **labels)

    def set_rules(self, rules: Rules) -> None:
        """Show `rules` in the controls (and make them `.rules`)."""
        self._loading = True
        try:
            for name, control in self.controls.items():
                value = getattr(rules, name)
                if isinstance(control, widgets.Text):
                    control.value = "" if value is None else str(value)
                else:
                    control.value = value
        finally:
            self._loading = False
        self.rules = rules
        self.valid = True
        self.messages.clear()
        self._draw_summary()

    def _read(self, name: str) -> Any:
        control = self.controls[name]
        value = control.value
        if isinstance(control, widgets.Text):
            text = value.strip()
            if not text:
                return None
            try:
                return int(text)
            except ValueError:
                return text  # the engine refuses it with its own sentence
        return value

    def _edited(self, change: Any) -> None:
        if self._loading:
            return
        values = {name: self._read(name) for name in self.controls}
        try:
            rules = Rules(**values)
        except ToonervilleError as err:
            self.valid = False
            self.messages.error(err.message)
            return
        self.valid = True
        self.messages.clear()
        self.rules = rules
        self._draw_summary()

    def _draw_summary(self) -> None:
        changes = self.rules.changes()
        text = (_("The rulebook's defaults.") if not changes
                else _("House rules: {changes}").format(changes=", ".join(
                    f"{k} = {v}" for k, v in changes.items())))
        self.summary.value = (f'<div style="font-size:{TEXT_PX[self.size]}px;opacity:.85">'
                              f"{escape(text)}</div>")

    def _redraw(self) -> None:
        if not hasattr(self, "summary"):
            return
        for control in self.controls.values():
            control.style.font_size = f"{TEXT_PX[self.size]}px"
        self.messages.size = self.size
        self.messages.refresh()
        self._draw_summary()


def _choices(name: str) -> list[tuple[str, Any]]:
    """The options of a house-rule dropdown, labelled in the language in use."""
    return [(_(label), value) for label, value in _CHOICES[name]]
