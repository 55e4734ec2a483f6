"""Bot levels on a page: the choice of a level and the sentence that describes each.

Owns `level_options()` (the levels `coach.levels.LEVELS` offers, weakest first, named in
the language in use: a menu's (label, value) pairs), `give_seat_options()` (the same levels
in the menu that hands an absent learner's seat to a bot, or to a new learner) and
`LevelGuide` (CSS class `tr-levels`), the few lines under a page's bot choices that
describe every level with `coach.levels.describe_level`'s sentence, the level chosen now
in bold (`follow(menu)` keeps it so). Pages: 07's "Next game" settings, pass-and-play's
seats, the shared table's opener and its "give the seat" menu, the tournament's set-up and
its "give the seat" menu, and the explorer's comparison of two levels.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

import ipywidgets as widgets

from ..coach.levels import LEVEL_NAMES, describe_level
from ..engine.messages import _
from ..pages.render import TEXT_PX
from ..players.bots import BOT_LEVELS
from .base import Part


def level_options() -> list[tuple[str, str]]:
    """The levels as a menu's (label, value) pairs, weakest first."""
    return [(_(LEVEL_NAMES[level]), level) for level in BOT_LEVELS]


def give_seat_options() -> list[tuple[str, str]]:
    """The choices of a "give the seat" menu (a learner who cannot come back): a bot of
    each level, weakest first, then a new learner (value "")."""
    return [*((_("to a bot ({level})").format(level=label), level)
              for label, level in level_options()), (_("to a new learner"), "")]


def levels_html(chosen: Sequence[str] = (), size: str = "normal") -> str:
    """Every level with its sentence; the levels in `chosen` in bold."""
    items = []
    for level in BOT_LEVELS:
        name = escape(_(LEVEL_NAMES[level]))
        about = escape(describe_level(level).text)
        mark = ' aria-current="true" style="font-weight:bold"' if level in chosen else ""
        items.append(f'<li class="tr-level" data-level="{level}"{mark}>'
                     f"<b>{name}</b>: {about}</li>")
    return (f'<ul class="tr-levels-list" style="margin:2px 0;font-size:{TEXT_PX[size]}px">'
            f'{"".join(items)}</ul>')


class LevelGuide(Part, widgets.HTML):  # type: ignore[misc]
    """Every level described, the ones chosen in the menus it follows in bold."""

    def __init__(self, size: str = "normal", **kwargs: Any) -> None:
        self._menus: list[widgets.Dropdown] = []
        super().__init__(**kwargs)
        self.size = size
        self.add_class("tr-levels")
        self._redraw()

    def follow(self, *menus: widgets.Dropdown) -> LevelGuide:
        """Mark the level each of `menus` holds, now and whenever it changes."""
        for menu in menus:
            self._menus.append(menu)
            menu.observe(lambda _c: self._redraw(), "value")
        self._redraw()
        return self

    @property
    def chosen(self) -> tuple[str, ...]:
        """The levels the followed menus hold now."""
        return tuple(str(m.value) for m in self._menus if m.value in BOT_LEVELS)

    def _redraw(self) -> None:
        if hasattr(self, "_menus"):
            self.value = levels_html(self.chosen, self.size)
