"""Notebook 08's rules explorer: a thin `VBox` over `toonerville.explorer`.

`RulesExplorer` lets a teacher choose a question, the rules (A, and B for a comparison,
with presets for the usual house-rule questions, or a sweep: a grid of house rules), the
bots, the number of games and the seed, and optionally a Dask scheduler to play on.
Run plays the games without freezing the page, so the progress bar moves and Cancel
stops the run keeping every finished game: in a background thread (and worker
processes if asked) in Voila, or, in a browser with no threads or processes (Pyodide:
`explorer.IN_BROWSER`), a few games at a time on the page's event loop
(`explorer.play_games_async`). Then a plot (SVG from `explorer.figure_svg`), the tables
and a CSV download of the raw records appear.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Callable, Sequence
from html import escape
from typing import Any

import ipywidgets as widgets

from .. import explorer as X
from ..engine.messages import _, plural
from ..engine.rules import ROUNDS, Rules
from ..players.simulate import DEFAULT_TURN_LIMIT
from .base import MessageBox, PageStyle, Part, relabel, size_style
from .explorer_words import (
    BOT_CHOICES,
    TABLE_CSS,
    arms_for,
    bot_options,
    download_html,
    finished_text,
    preset_options,
    question_options,
    rank_options,
)
from .language import LanguagePicker
from .level_compare import LevelComparer
from .settings import HouseRulesPanel, SizeToggle
from .url import size_from_url


class RulesExplorer(Part, widgets.VBox):  # type: ignore[misc]
    """Choose a question, rules, bots, games and seed; Run; see a plot and tables.

    `.result` is the last `explorer.Simulation` (partial if cancelled), `.shown_tables`
    its tables; `.start()` / `.cancel()` / `.wait()` do what the buttons do, for a
    notebook cell or a test. With `background=False` a run blocks until it is done.
    `workers` defaults to both cores (two processes; the results are the same as with
    one). `mode` is "thread" (a background thread) or "page" (a few games at a time on
    the running event loop, for a browser without threads); it is "page" by itself in
    Pyodide. In page mode `start()` returns the asyncio task playing the games."""

    def __init__(self, games: int = 20, seed: int = 1, players: int = 4,
                 bots: Sequence[str] = ("heuristic",), question: str = "rounds",
                 workers: int | None = None, turn_limit: int = DEFAULT_TURN_LIMIT,
                 background: bool = True, mode: str | None = None,
                 sweep: str = "penalty_cards=0,1,2 round11_deal=12,14",
                 size: str | None = None, **kwargs: Any) -> None:
        style = {"description_width": "initial"}
        self.mode = mode or ("page" if X.IN_BROWSER else "thread")
        if self.mode not in ("thread", "page"):
            raise ValueError(f"mode is 'thread' or 'page', not {self.mode!r}")
        self.background = background
        self.question = widgets.Dropdown(
            options=question_options(), value=question, style=style,
            layout=widgets.Layout(width="34em"))
        self.players = widgets.Dropdown(options=[3, 4, 5], value=players, style=style)
        self._bot_patterns = [pattern for _label, pattern in BOT_CHOICES]
        if tuple(bots) not in self._bot_patterns:
            self._bot_patterns.append(tuple(bots))
        self.bots = widgets.Dropdown(options=bot_options(self._bot_patterns), value=tuple(bots),
                                     style=style)
        self.games = widgets.BoundedIntText(value=games, min=1, max=100_000, style=style,
                                            layout=widgets.Layout(width="12em"))
        self.seed = widgets.BoundedIntText(value=seed, min=0, max=2**31 - 1, style=style,
                                           layout=widgets.Layout(width="14em"))
        cores = 1 if self.mode == "page" else max(1, os.cpu_count() or 1)
        workers = min(2, cores) if workers is None else workers
        self.workers = widgets.Dropdown(options=list(range(1, max(cores, workers) + 1)),
                                        value=workers, style=style,
                                        disabled=self.mode == "page")
        self.scheduler = widgets.Text(
            value="", style=style, layout=widgets.Layout(
                width="22em", display="none" if self.mode == "page" else None))
        self.turn_limit = widgets.BoundedIntText(value=turn_limit, min=5, max=2000,
                                                 style=style,
                                                 layout=widgets.Layout(width="12em"))
        self.rules_a = HouseRulesPanel()
        self.preset = widgets.Dropdown(
            options=preset_options(), value="", style=style,
            layout=widgets.Layout(width="34em"))
        self.players_b = widgets.Dropdown(options=[3, 4, 5], value=players, style=style)
        self.rules_b = HouseRulesPanel()
        self.sweep = widgets.Text(value=sweep, style=style,
                                  layout=widgets.Layout(width="40em"))
        self.rank_by = widgets.Dropdown(options=rank_options(), value="length",
                                        style=style)
        self.compare_help = widgets.HTML()
        self.sweep_help = widgets.HTML()
        self.rules_box = widgets.Accordion(
            children=(self.rules_a, widgets.VBox((
                self.compare_help, self.preset, self.players_b, self.rules_b)),
                widgets.VBox((self.sweep_help, self.sweep, self.rank_by))),
            selected_index=None)
        for control, name in ((self.question, "question"), (self.games, "games"),
                              (self.seed, "seed"), (self.workers, "workers"),
                              (self.turn_limit, "turn-limit"), (self.players, "players"),
                              (self.bots, "bots"), (self.scheduler, "scheduler"),
                              (self.sweep, "sweep"), (self.preset, "preset")):
            control.add_class(f"tv-explorer-{name}")
        self.run_button = widgets.Button(button_style="primary", icon="play")
        self.cancel_button = widgets.Button(icon="stop", disabled=True)
        self.progress = widgets.IntProgress(value=0, min=0, max=1, style=style,
                                            layout=widgets.Layout(width="24em"))
        self.status = widgets.HTML()
        self.status.add_class("tv-explorer-status")
        self.progress.add_class("tv-explorer-progress")
        self.messages = MessageBox()
        self.plot = widgets.HTML(layout=widgets.Layout(display="none", max_width="100%"))
        self.plot.add_class("tv-explorer-plot")
        self.tables = widgets.HTML()
        self.tables.add_class("tv-explorer-tables")
        self.download = widgets.HTML()
        self.download.add_class("tv-explorer-download")
        self.result: X.Simulation | None = None
        self.shown_tables: list[X.ResultTable] = []
        self._thread: threading.Thread | None = None
        self._task: asyncio.Task[None] | None = None
        self._stop = threading.Event()
        self._last_progress = 0.0
        #: how to write the status line, the plot and the download link again (in the
        #: language in use): each is kept as a function of nothing
        self._status_text: Callable[[], str] = str
        self._plot_svg: Callable[[], str] = str
        self._download_html: Callable[[], str] = str
        self.run_button.on_click(self.messages.guard(lambda _b: self.start()))
        self.cancel_button.on_click(self.messages.guard(lambda _b: self.cancel()))
        self.preset.observe(self.messages.guard(self._preset_chosen), "value")
        settings = widgets.HBox(
            (self.players, self.bots, self.games, self.seed),
            layout=widgets.Layout(flex_flow="row wrap"))
        more = widgets.HBox((self.workers, self.turn_limit, self.scheduler),
                            layout=widgets.Layout(flex_flow="row wrap"))
        bar = widgets.HBox((self.run_button, self.cancel_button, self.progress, self.status),
                           layout=widgets.Layout(align_items="center", flex_flow="row wrap"))
        # the size of the whole page, prose and tables too (the page's ?size= first)
        self.size_toggle = SizeToggle(size or size_from_url())
        self.page_style = PageStyle()
        # the page's language menu, as 00-07 have it (the page's ?lang= first)
        self.language = LanguagePicker()
        top = widgets.HBox((self.language, self.size_toggle),
                           layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        #: how many points a bot level is worth against another (`level_compare`)
        self.levels = LevelComparer(seed=seed, players=players)
        super().__init__(children=(size_style(), self.page_style, top,
                                   self.question, settings, more, self.rules_box, bar,
                                   self.messages, self.plot, self.tables, self.download,
                                   self.levels),
                         **kwargs)
        self.add_class("tv-rules-explorer")
        widgets.dlink((self.size_toggle, "value"), (self, "size"))
        self._label()

    # -- texts ---------------------------------------------------------------------------
    def _label(self) -> None:
        """Every label, title and tooltip in the language in use; the values stay."""
        for control, options in ((self.question, question_options()),
                                 (self.bots, bot_options(self._bot_patterns)),
                                 (self.preset, preset_options()),
                                 (self.rank_by, rank_options())):
            relabel(control, options)
        for control, text in ((self.question, _("Question")), (self.players, _("Players")),
                              (self.bots, _("Bots")), (self.games, _("Games")),
                              (self.seed, _("Seed")), (self.workers, _("Worker processes")),
                              (self.scheduler, _("Dask scheduler")),
                              (self.turn_limit, _("Turn limit")),
                              (self.preset, _("B changes")),
                              (self.players_b, _("Players in B")),
                              (self.sweep, _("Settings to sweep")),
                              (self.rank_by, _("Rank by")), (self.progress, _("Progress"))):
            control.description = text
        self.scheduler.placeholder = _("tcp://host:8786 (optional)")
        self.compare_help.value = "<i>{}</i>".format(escape(_(
            "Used by the question “What does a house rule change?”: B is played on the "
            "same seeds as A.")))
        self.sweep_help.value = "<i>{}</i>".format(escape(_(
            "Used by the question “Which house rules give short, fair games?”: every "
            "combination of the values, from A's rules, on the same seeds. Write "
            "name=value,value,… separated by spaces.")))
        self.rules_box.set_title(0, _("House rules A"))
        self.rules_box.set_title(1, _("House rules B (for a comparison)"))
        self.rules_box.set_title(2, _("A sweep of house rules"))
        self.run_button.description = _("Run")
        self.run_button.tooltip = _("Play the games")
        self.cancel_button.description = _("Cancel")
        self.cancel_button.tooltip = _("Stop, keeping the games finished")

    def refresh(self) -> None:
        """Everything the explorer shows, in the language in use: its labels, the house
        rules panels, the status line, the plot, the tables and the download link (the
        choices and the last result stay)."""
        self._label()
        for panel in (self.rules_a, self.rules_b):
            panel.refresh()
        self.messages.refresh()
        self.status.value = self._status_text()
        if self.plot.value:
            self.plot.value = self._plot_svg()
        if self.shown_tables:
            self.tables.value = TABLE_CSS + "".join(t._repr_html_() for t in self.shown_tables)
        self.download.value = self._download_html()
        super().refresh()  # the sizes, and the direction of the language in use

    def _say(self, text: Callable[[], str]) -> None:
        """Show a status line, and keep how to write it again in another language."""
        self._status_text = text
        self.status.value = text()
    def _redraw(self) -> None:
        """Everything sized at the size chosen (the tables follow the page's text)."""
        if hasattr(self, "page_style"):
            for part in (self.page_style, self.rules_a, self.rules_b, self.messages):
                part.size = self.size

    def __repr__(self) -> str:
        return (f"RulesExplorer(question={self.question.value!r}, games={self.games.value}, "
                f"seed={self.seed.value})")

    # -- what to run -------------------------------------------------------------------
    def arms(self) -> list[X.Arm]:
        """Configuration A, and B for a comparison, or the grid of a sweep."""
        return arms_for(self.question.value, self.bots.value, self.turn_limit.value,
                        (self.players.value, self.rules_a), (self.players_b.value, self.rules_b),
                        self.sweep.value)

    def _preset_chosen(self, change: Any) -> None:
        name = change["new"]
        if not name:
            return
        changes = dict(X.PRESETS[name])
        self.players_b.value = changes.pop("players", self.players.value)
        self.rules_b.set_rules(Rules.from_dict({**self.rules_a.rules.to_dict(), **changes}))
        self.question.value = "compare"

    # -- running -------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        if self._task is not None and not self._task.done():
            return True
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> asyncio.Task[None] | None:
        """What Run does: check the settings, then play in the background (a thread,
        or in page mode a task on the running event loop, which is returned)."""
        if self.running:
            return self._task
        question = self.question.value
        arms = self.arms()
        games, seed, workers = self.games.value, self.seed.value, self.workers.value
        scheduler = self.scheduler.value.strip() or None
        self.messages.clear()
        self._clear_result()  # the last question's answer is not this run's
        self._stop = threading.Event()
        self.run_button.disabled = True
        self.cancel_button.disabled = False
        total = games * len(arms) if question != "deals" else ROUNDS
        self.progress.max, self.progress.value = max(1, total), 0
        self.progress.bar_style = ""
        self._say((lambda: _("Playing…")) if question != "deals" else (lambda: _("Dealing…")))
        job = (question, arms, games, seed, workers, scheduler)
        if self.mode == "page":
            self._task = asyncio.get_event_loop().create_task(self._work_in_page(*job))
            return self._task
        if self.background:
            self._thread = threading.Thread(target=self._work, daemon=True, args=job)
            self._thread.start()
        else:
            self._work(*job)
        return None

    def cancel(self) -> None:
        """What Cancel does: stop soon, keeping every finished game."""
        self._stop.set()
        self.cancel_button.disabled = True
        self._say(lambda: _("Stopping…"))

    def wait(self, timeout: float | None = None) -> bool:
        """Block until a threaded run is over (for a notebook cell or a test); True if
        it is. (In page mode, await the task `start()` returned instead.)"""
        if self._thread is not None:
            self._thread.join(timeout)
        return not self.running

    def _progress(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self._last_progress < 0.1:
            return
        self._last_progress = now
        self.progress.max, self.progress.value = max(1, total), done
        self._say(lambda: _("{done} of {total}").format(done=done, total=total))

    def _work(self, question: str, arms: list[X.Arm], games: int, seed: int,
              workers: int, scheduler: str | None) -> None:
        try:
            if question == "deals":
                self._deals(arms, games, seed)
                return
            result = X.play_games(arms, games, seed, workers, progress=self._progress,
                                  cancel=self._stop, scheduler=scheduler)
            self._finished(question, result)
        except Exception as err:  # noqa: BLE001 - shown to the teacher, never raised
            self._failed(err)
        finally:
            self.run_button.disabled = False
            self.cancel_button.disabled = True

    async def _work_in_page(self, question: str, arms: list[X.Arm], games: int, seed: int,
                            workers: int, scheduler: str | None) -> None:
        try:
            if question == "deals":
                self._deals(arms, games, seed)
                return
            result = await X.play_games_async(arms, games, seed, progress=self._progress,
                                              cancel=self._stop)
            self._finished(question, result)
        except Exception as err:  # noqa: BLE001 - shown to the teacher, never raised
            self._failed(err)
        finally:
            self.run_button.disabled = False
            self.cancel_button.disabled = True

    def _deals(self, arms: list[X.Arm], games: int, seed: int) -> None:
        hands = games * arms[0].players
        table = X.deal_table(arms[0].players, arms[0].rules, hands, seed,
                             progress=self._progress)
        self.result, self.shown_tables = None, [table]
        self._show(lambda: X.deals_svg(table), [table])
        self._say(lambda: plural("{n} hand per round dealt.", "{n} hands per round dealt.",
                                 hands))

    def _finished(self, question: str, result: X.Simulation) -> None:
        self.result = result
        self.progress.value = result.games_played
        if question == "sweep":
            self.shown_tables = [X.sweep_table(result, self.rank_by.value)]
        else:
            self.shown_tables = X.tables_for(result, question)
        rank_by = self.rank_by.value
        self._show(lambda: X.figure_svg(question, result, rank_by), self.shown_tables)
        self._offer_csv(result)
        self._say(lambda: escape(finished_text(result)))
        self.progress.bar_style = "warning" if result.cancelled else "success"

    def _failed(self, err: Exception) -> None:
        self._say(str)
        self.progress.bar_style = "danger"
        self.messages.show_exception(err)

    # -- showing -------------------------------------------------------------------------
    def _clear_result(self) -> None:
        """No plot, tables or download link: what a new run starts from."""
        self._plot_svg = str
        self.plot.value = ""
        self.plot.layout.display = "none"
        self.shown_tables = []
        self.tables.value = ""
        self._download_html = str
        self.download.value = ""

    def _show(self, draw: Callable[[], str], tables: list[X.ResultTable]) -> None:
        self._plot_svg = draw
        svg = draw()
        self.plot.value = svg
        self.plot.layout.display = "block" if svg else "none"
        self.tables.value = TABLE_CSS + "".join(t._repr_html_() for t in tables)

    def _offer_csv(self, run: X.Simulation) -> None:
        self._download_html = download_html(run)
        self.download.value = self._download_html()



__all__ = ["RulesExplorer"]
