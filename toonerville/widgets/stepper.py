"""A game's history, step by step: `HistoryStepper`.

Owns first / back / forward / last through a history: events one by one, or a game move
by move with a picture of the whole table after each move (`render.state_html` of
`Game.position_at(k)`: the engine keeps every position, nothing is replayed here).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

import ipywidgets as widgets
import traitlets

from ..engine.events import Event
from ..engine.messages import N_, _
from ..pages.render import TEXT_PX, hand_html, message_html, state_html
from .base import MessageBox, Part
from .cards import button_style


class HistoryStepper(Part, widgets.VBox):  # type: ignore[misc]
    """First / back / forward / last through a history.

    `HistoryStepper(events)` steps through events one by one, each shown with its
    sentence and its cards. `HistoryStepper.for_game(game)` steps move by move: step 0
    is the deal, step k shows the sentences of move k and a picture of the whole table
    after it (the engine's own position after move k). `.index` (observable)
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
            b.style = button_style(size)
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
    """A game's steps (the events of the deal, then of each move) and the picture of the
    table after move k, from the positions the engine keeps (`Game.position_at`)."""

    def __init__(self, game: Any, reveal: bool) -> None:
        self.game = game
        self.reveal = reveal
        history = game.history
        ends = [len(game.position_at(k).history) for k in range(len(game.actions) + 1)]
        self.steps: tuple[tuple[Event, ...], ...] = (
            tuple(history[:ends[0]]),
            *(tuple(history[a:b]) for a, b in zip(ends, ends[1:], strict=False)))

    def picture(self, k: int, size: str) -> str:
        return state_html(self.game.position_at(k), size, self.reveal)
