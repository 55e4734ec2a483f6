"""The lobby of 09's shared tables: your name, open a table, or join one with its code.

`TableLobby` holds the lobby's controls and reads them (the name to give a seat, the
seat chosen); it plays nothing itself: `classroom.SharedTable` places it above the table
and connects *Open a table* and *Join* to the store. Stable CSS hooks for tests:
`tr-lobby`, `tr-name`, `tr-players`, `tr-learners`, `tr-bot-level` (the level of the
bots and of the stand-in for an away learner, described by `level_view.LevelGuide`),
`tr-away-after`, `tr-open`, `tr-code`, `tr-seat`, `tr-key`, `tr-join`.
"""

from __future__ import annotations

import ipywidgets as widgets

from ..engine.messages import N_, _
from ..store.names import NAME_LIMIT, clean_name
from ..store.seats import AWAY_AFTER, LIMITS
from .base import MessageBox, translated, translated_button
from .level_view import LevelGuide, level_options
from .textbox import capped_text

#: the seat choice "the first free seat" and "watch" (other choices are seat numbers)
WATCH = "watch"
FIRST_FREE = -2
#: the most characters the code and key boxes keep (a code has 6, a key 24)
CODE_BOX_LIMIT = 40
KEY_BOX_LIMIT = 80


def seat_options(players: int) -> list[tuple[str, int]]:
    """The seat choices of a table of `players`, in the language in use."""
    return [(_("first free seat"), FIRST_FREE),
            *((_("seat {k}").format(k=k), k) for k in range(players)),
            (_("watch"), -1)]


class TableLobby(widgets.VBox):  # type: ignore[misc]
    """The controls to open a table or join one; long texts are cut and said in
    `message`."""

    def __init__(self, message: MessageBox) -> None:
        # every text follows the language menu (`base.translated`)
        self.name_text = translated(capped_text(NAME_LIMIT, message, css="tr-name"),
                                    description=N_("Your name"),
                                    placeholder=N_("as the others will see it"))
        self.players = translated(
            widgets.Dropdown(options=[3, 4, 5], value=4, layout=widgets.Layout(width="auto")),
            description=N_("Players"))
        self.players.add_class("tr-players")
        self.learners = translated(
            widgets.Dropdown(options=[1, 2, 3, 4, 5], value=2,
                             layout=widgets.Layout(width="auto")),
            description=N_("Learners"))
        self.learners.add_class("tr-learners")
        self.away_after = translated(widgets.BoundedIntText(
            value=int(AWAY_AFTER), min=int(LIMITS[0]), max=int(LIMITS[1]),
            style={"description_width": "initial"}, layout=widgets.Layout(width="auto")),
            description=N_("Away after (seconds)"))
        self.away_after.add_class("tr-away-after")
        self.bot_level = translated(
            widgets.Dropdown(options=level_options(), value="heuristic",
                             layout=widgets.Layout(width="auto")),
            description=N_("Bots play"), options=level_options)
        self.bot_level.add_class("tr-bot-level")
        #: every bot level described, the one chosen in bold
        self.levels = LevelGuide().follow(self.bot_level)
        self.open_button = translated_button(N_("Open a table"), "tr-open", N_(
            "Open a new table: you take seat 0, bots play the seats no learner takes"))
        self.code_text = translated(capped_text(CODE_BOX_LIMIT, message, css="tr-code",
                                                placeholder="KXR4PT"),
                                    description=N_("Table code"))
        self.seat_choice = translated(
            widgets.Dropdown(options=seat_options(5), value=FIRST_FREE,
                             layout=widgets.Layout(width="auto")),
            description=N_("Seat"), options=lambda: seat_options(5))
        self.seat_choice.add_class("tr-seat")
        self.key_text = translated(capped_text(KEY_BOX_LIMIT, message, css="tr-key",
                                               width="22em"),
                                   description=N_("Rejoin key"),
                                   placeholder=N_("only to rejoin your seat"))
        self.join_button = translated_button(N_("Join"), "tr-join", N_(
            "Join the table with this code: a free seat, your seat again with your "
            "rejoin key, or watch"))
        super().__init__([
            self.name_text,
            widgets.HBox([self.players, self.learners, self.bot_level, self.away_after,
                          self.open_button]),
            self.levels,
            widgets.HBox([self.code_text, self.seat_choice, self.key_text,
                          self.join_button])])
        self.add_class("tr-lobby")

    def chosen_name(self, name: str | None) -> str | None:
        """The name to give the seat: `name`, else the name box's (None if empty)."""
        text = self.name_text.value if name is None else name
        return clean_name(text) if text.strip() else None

    def chosen_seat(self) -> int | str | None:
        """The seat chosen: a number, None for the first free seat, or `WATCH`."""
        chosen = self.seat_choice.value
        return WATCH if chosen == -1 else (None if chosen == FIRST_FREE else chosen)
