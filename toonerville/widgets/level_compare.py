"""The explorer's comparison of two bot levels (08): how many points a level is worth.

Owns `LevelComparer` (CSS class `tv-explorer-levels`): two level menus (A and B, each
level described by `level_view.LevelGuide`), games, seed and players, Compare and Stop,
a progress bar and the result — each level's mean points per game and B − A with their
95 % intervals (`coach.levels.level_difference`, paired deals: each deal played twice,
one seat by A then by B, the other seats heuristic, `coach.levels.compare_levels`).
The deals are played in a background thread in a kernel, or one pair at a time on the
page's event loop in a browser without threads (Pyodide: `explorer.IN_BROWSER`); Stop
keeps the deals played. The strong level plays out every real choice, so a game of it
takes about a minute on this machine: the default is a few games, and choosing it says
so (`SLOW`).
"""

from __future__ import annotations

import asyncio
import threading
from html import escape
from typing import Any

import ipywidgets as widgets

from .. import explorer as X
from ..coach.levels import LEVEL_NAMES, Pair, compare_levels
from ..engine.messages import N_, _
from ..explorer.arms import level_difference
from .base import Part, translated_button
from .level_view import LevelGuide, level_options

#: games a comparison plays by default, and at most by default once the strong level is in
DEFAULT_GAMES, STRONG_GAMES = 10, 2

HOW = N_("Each deal is played twice: one seat by level A, then by level B, the other seats "
         "by the heuristic bot (the seat moves round from deal to deal).")
SLOW = N_("The strong level plays every real choice out many times: a game of it takes "
          "about a minute here. Start with a few games.")
PROGRESS = N_("{done} of {games} paired games played")
RESULT = N_("{level}: {points} points per game (95 % interval)")
WORTH = N_("B − A: {diff} points per game (95 % interval), from {n} paired games. Above 0, "
           "level A scores fewer points than level B: it plays better.")


class LevelComparer(Part, widgets.VBox):  # type: ignore[misc]
    """Compare two bot levels (see the module). `start()`, `cancel()` and `wait()` do
    what the buttons do, for a notebook cell or a test; `pairs` are the deals played."""

    def __init__(self, games: int = DEFAULT_GAMES, seed: int = 1, players: int = 4,
                 mode: str | None = None, **kwargs: Any) -> None:
        self.mode = mode or ("page" if X.IN_BROWSER else "thread")
        self.pairs: list[Pair] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._task: asyncio.Task[None] | None = None
        self._planned = 0
        self._levels = ("beginner", "heuristic")  # the levels of the run shown
        style = {"description_width": "initial"}
        self.level_a = self.texts(widgets.Dropdown(options=level_options(), value="beginner",
                                                   style=style),
                                  options=level_options, description=N_("Level A"))
        self.level_b = self.texts(widgets.Dropdown(options=level_options(), value="heuristic",
                                                   style=style),
                                  options=level_options, description=N_("Level B"))
        self.games = self.texts(widgets.BoundedIntText(
            value=games, min=1, max=10_000, style=style, layout=widgets.Layout(width="10em")),
            description=N_("Games"))
        self.seed = self.texts(widgets.BoundedIntText(
            value=seed, min=0, max=2**31 - 1, style=style,
            layout=widgets.Layout(width="12em")), description=N_("Seed"))
        self.players = self.texts(widgets.Dropdown(options=[3, 4, 5], value=players,
                                                   style=style), description=N_("Players"))
        self.run_button = translated_button(N_("Compare levels"), "tv-explorer-levels-run",
                                            HOW, owner=self)
        self.run_button.button_style = "primary"
        self.stop_button = translated_button(N_("Stop"), "tv-explorer-levels-stop", N_(
            "Stop after the deal being played; the deals played are kept"), owner=self)
        self.stop_button.disabled = True
        self.progress = widgets.IntProgress(value=0, min=0, max=1,
                                            layout=widgets.Layout(width="18em"))
        self.progress.add_class("tv-explorer-levels-progress")
        self.status = widgets.HTML()
        self.status.add_class("tv-explorer-levels-status")
        self.note = widgets.HTML()
        self.result = widgets.HTML()
        self.result.add_class("tv-explorer-levels-result")
        self.guide = LevelGuide().follow(self.level_a, self.level_b)
        self.title = widgets.HTML()
        self.run_button.on_click(lambda _b: self.start())
        self.stop_button.on_click(lambda _b: self.cancel())
        for menu in (self.level_a, self.level_b):
            menu.observe(lambda _c: self._levels_chosen(), "value")
        super().__init__([self.title, widgets.HBox(
            [self.level_a, self.level_b, self.players, self.games, self.seed],
            layout=widgets.Layout(flex_flow="row wrap")), self.guide, self.note,
            widgets.HBox([self.run_button, self.stop_button, self.progress, self.status],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            self.result], **kwargs)
        self.add_class("tv-explorer-levels")
        self._redraw()

    # -- running ---------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return (self._thread is not None and self._thread.is_alive()) or \
            (self._task is not None and not self._task.done())

    def _levels_chosen(self) -> None:
        if "strong" in (self.level_a.value, self.level_b.value) \
                and self.games.value > STRONG_GAMES:
            self.games.value = STRONG_GAMES
        self._redraw()

    def start(self) -> asyncio.Task[None] | None:
        """Play the comparison (in the background); the page mode returns its task."""
        if self.running:
            return None
        a, b = str(self.level_a.value), str(self.level_b.value)
        games, seed, players = int(self.games.value), int(self.seed.value), \
            int(self.players.value)
        with self._lock:
            self.pairs = []
        self._planned, self._levels = games, (a, b)
        self._stop.clear()
        self.run_button.disabled, self.stop_button.disabled = True, False
        self.progress.max, self.progress.value = games, 0
        self._redraw()
        deals = compare_levels(a, b, games, seed, players)
        if self.mode == "page":
            self._task = asyncio.get_event_loop().create_task(self._play_on_page(deals))
            return self._task
        self._thread = threading.Thread(target=self._play, args=(deals,), daemon=True,
                                        name="compare-levels")
        self._thread.start()
        return None

    def _play(self, deals: Any) -> None:
        try:
            for pair in deals:
                self._played(pair)
                if self._stop.is_set():
                    break
        finally:
            self._done()

    async def _play_on_page(self, deals: Any) -> None:
        try:
            for pair in deals:
                self._played(pair)
                if self._stop.is_set():
                    break
                await asyncio.sleep(0)
        finally:
            self._done()

    def _played(self, pair: Pair) -> None:
        with self._lock:
            self.pairs.append(pair)
        self.progress.value = len(self.pairs)
        self._redraw()

    def _done(self) -> None:
        self.run_button.disabled, self.stop_button.disabled = False, True
        self._redraw()

    def cancel(self) -> None:
        """Stop after the deal being played (the deals played are kept)."""
        self._stop.set()

    def wait(self, timeout: float | None = None) -> None:
        """Wait for a run in a thread to end."""
        if self._thread is not None:
            self._thread.join(timeout)

    def close(self) -> None:
        self._stop.set()
        super().close()

    # -- showing ---------------------------------------------------------------------------
    def _redraw(self) -> None:
        if not hasattr(self, "result"):
            return
        self.title.value = f"<h3>{escape(_('Compare two bot levels'))}</h3>"
        slow = "strong" in (self.level_a.value, self.level_b.value)
        self.note.value = f"<i>{escape(_(HOW))}" + (
            f" {escape(_(SLOW))}" if slow else "") + "</i>"
        with self._lock:
            pairs = list(self.pairs)
        self.status.value = escape(_(PROGRESS).format(done=len(pairs),
                                                      games=self._planned)) \
            if self._planned else ""
        if not pairs:
            self.result.value = ""
            return
        s = level_difference(pairs)
        rows = [escape(_(RESULT).format(level=_(LEVEL_NAMES[level]), points=s[key]))
                for level, key in zip(self._levels, ("a", "b"), strict=True)]
        worth = escape(_(WORTH).format(diff=s["b_minus_a"], n=s["games"]))
        self.result.value = ('<ul style="margin:2px 0">' + "".join(
            f"<li>{row}</li>" for row in rows) + f"</ul><p>{worth}</p>")
