"""Cards to look at and to choose: `CardButton`, `HandPicker`, `HandView`, `MeldView`,
`VerdictView`.

Owns the widgets of single cards and hands: a card drawn by `render.card_html` with a
toggle under it, a hand to select cards from (`.selected` is observable), and pictures of
a hand, a meld and a meld's verdict. Each is a `base.Part`: it follows the page's size
and language by itself.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from html import escape
from typing import Any

import ipywidgets as widgets
import traitlets

from ..engine.cards import Card, format_cards, parse_cards
from ..engine.melds import Meld, Verdict
from ..engine.messages import _, plural
from ..pages.render import SIZES, TEXT_PX, card_html, card_name, hand_html, meld_html, verdict_html
from .base import SHOWN, Part


def button_style(size: str) -> dict[str, str]:
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
        self.button.tooltip = _("{card}: select or unselect").format(
            card=card_name(self.card))
        self.picture.value = card_html(self.card, self.size, selected=self.value)
        self.layout.width = f"{width + 4}px"
        self.layout.align_items = "center"
        self.layout.padding = f"{round(width * 0.15)}px 0 0 0"
        self.button.layout.width = f"{width}px"
        self.button.layout.height = "auto"
        self.button.style = button_style(self.size)


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
        self.label.layout.display = SHOWN
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
class Picture(Part, widgets.HTML):  # type: ignore[misc]
    """An HTML widget drawn by one pure function of `render`."""

    def __init__(self, size: str = "normal", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.size = size


class HandView(Picture):
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


class MeldView(Picture):
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


class VerdictView(Picture):
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
