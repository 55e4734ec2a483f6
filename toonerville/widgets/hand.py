"""A learner's own hand, held the way they like: `SeatHand` and `HandOrder`.

Owns the order a hand is shown in (`HAND_ORDERS`: by colour, then number, as a hand is
usually held; or by number, the colours side by side, which shows sets at a glance), the
choice of it (`HandOrder`, a translated toggle), and the hand itself (`SeatHand`: a
`HandPicker` whose card buttons carry `tr-card`, which keeps a selection by card value
across a change of order and can put the focus on one card). The play app (07) and the
seat view of every table use these, so a hand looks and behaves the same everywhere.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import ipywidgets as widgets

from ..engine.cards import Card, sort_cards
from ..engine.messages import N_, _
from .base import Part
from .cards import HandPicker

#: the orders a hand may be shown in: (key, label)
HAND_ORDERS = (("colour", N_("by colour")), ("number", N_("by number")))


def _by_number(card: Card) -> tuple[int, int]:
    return (99, 0) if card.is_rook else (card.number, card.index)


def order_cards(cards: Iterable[Card], order: str = "colour") -> tuple[Card, ...]:
    """`cards` in the order `order` ("colour" or "number"), the Rook last either way."""
    if order == "number":
        return tuple(sorted(cards, key=_by_number))
    return sort_cards(cards)


class HandOrder(Part, widgets.ToggleButtons):  # type: ignore[misc]
    """By colour / by number: the order of the learner's hand (its `value`)."""

    def __init__(self, value: str = "colour", **kwargs: Any) -> None:
        kwargs.setdefault("style", {"button_width": "auto", "description_width": "auto"})
        super().__init__(options=self._options(), value=value, **kwargs)
        self.add_class("tr-hand-order")
        labels: dict[str, Any] = {
            "options": self._options, "description": N_("Hand order"),
            "tooltips": [N_("Colour by colour, low to high"),
                         N_("Number by number: sets side by side")]}
        self.texts(self, **labels)

    @staticmethod
    def _options() -> list[tuple[str, str]]:
        return [(_(label), key) for key, label in HAND_ORDERS]


class SeatHand(HandPicker):
    """The learner's hand: shown in `order`, card buttons with `tr-card`, the focus
    movable to one card; `show(cards)` keeps the cards selected that are still held."""

    def __init__(self, size: str = "normal", order: str = "colour") -> None:
        super().__init__(size=size)
        self.order = order
        self.held: tuple[Card, ...] = ()
        self.add_class("tr-hand")

    def show(self, cards: Iterable[Card], keep: bool = False) -> None:
        """Show these cards in the hand's order; with `keep`, the cards selected now stay
        selected (by value), else none is."""
        chosen = self.selected if keep else ()
        self.held = tuple(cards)
        self.set_cards(order_cards(self.held, self.order))
        for picker in self.row.children:
            picker.button.add_class("tr-card")
        if chosen:
            self.pick(chosen)

    def reorder(self, order: str) -> None:
        """Show the same hand in another order, the selection kept."""
        if order != self.order:
            self.order = order
            self.show(self.held, keep=True)

    def pick(self, cards: Sequence[Card]) -> None:
        """Select these cards (by value, each copy once)."""
        wanted = Counter(cards)
        indices = []
        for i, card in enumerate(self.cards):
            if wanted[card] > 0:
                wanted[card] -= 1
                indices.append(i)
        self.select(indices)

    def focus_card(self, card: Card | None) -> None:
        """Put the focus on (the first copy of) `card`, else on the first card."""
        buttons = self.row.children
        if not buttons:
            return
        index = self.cards.index(card) if card in self.cards else 0
        buttons[index].button.focus()
