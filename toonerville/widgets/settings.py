"""The settings a learner or a teacher chooses: the card size and the house rules.

Owns `SizeToggle` (normal / large / projector; `.link(*widgets)` keeps their sizes with
it) and `HouseRulesPanel` (a control for every `Rules` switch, grouped by rule id, an
impossible value refused with the engine's sentence), with their labels (`SIZE_CHOICES`,
`RULE_LABELS`), all shown in the language in use through `base.Part.texts`.
"""

from __future__ import annotations

import functools
from dataclasses import fields
from enum import Enum
from html import escape
from typing import Any

import ipywidgets as widgets
import traitlets

from ..engine.errors import ToonervilleError
from ..engine.messages import N_, _
from ..engine.rules import Restock, RookTurnUp, Rules, Seating, SwappedRook
from ..pages.render import TEXT_PX
from .base import CappedText, MessageBox, Part, check_size

#: The card sizes a learner can choose; `render.SIZES` also has "small" for thumbnails.
SIZE_CHOICES: tuple[tuple[str, str], ...] = (
    (N_("Normal"), "normal"), (N_("Large"), "large"), (N_("Projector"), "projector"))
# TEXT_PX (the text size that goes with each card size) comes from `render`, so a
# widget's labels and the pictures inside it grow together.


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
