"""Notebook 08's rules explorer: a thin `VBox` over `toonerville.explorer`.

`RulesExplorer` lets a teacher choose a question, the rules (A, and B for a comparison,
with presets for the usual house-rule questions), the bots, the number of games and the
seed. Run plays the games in a background thread (and worker processes if asked), so
the progress bar moves and Cancel stops the run keeping every finished game. Then a plot
(matplotlib, drawn to PNG), the tables and a CSV download of the raw records appear.

`figure_png(question, run)` draws the plot; it is the only place matplotlib is used.
"""

from __future__ import annotations

import base64
import io
import os
import threading
import time
from collections.abc import Sequence
from html import escape
from typing import Any

import ipywidgets as widgets

from .. import explorer as X
from ..errors import RulesError
from ..messages import msg
from ..rules import ROUNDS, Rules
from ..simulate import DEFAULT_TURN_LIMIT
from .components import HouseRulesPanel, MessageBox

#: The bots around the table, as a pattern repeated seat by seat.
BOT_CHOICES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("heuristic bots", ("heuristic",)),
    ("heuristic against random (alternating)", ("heuristic", "random")),
    ("heuristic against never-buying (alternating)", ("heuristic", "nobuy")),
    ("random bots", ("random",)),
)
#: Largest CSV offered as a download link inside the page.
MAX_DOWNLOAD_BYTES = 30_000_000


class RulesExplorer(widgets.VBox):  # type: ignore[misc]
    """Choose a question, rules, bots, games and seed; Run; see a plot and tables.

    `.result` is the last `explorer.Run` (partial if cancelled), `.shown_tables` its
    tables; `.start()` / `.cancel()` / `.wait()` do what the buttons do, for a notebook
    cell or a test. With `background=False` a run blocks until it is done. `workers`
    defaults to both cores (two processes; the results are the same as with one)."""

    def __init__(self, games: int = 20, seed: int = 1, players: int = 4,
                 bots: Sequence[str] = ("heuristic",), question: str = "rounds",
                 workers: int | None = None, turn_limit: int = DEFAULT_TURN_LIMIT,
                 background: bool = True, **kwargs: Any) -> None:
        style = {"description_width": "initial"}
        self.background = background
        self.question = widgets.Dropdown(
            options=[(text, key) for key, text in X.QUESTIONS.items()], value=question,
            description="Question", style=style, layout=widgets.Layout(width="34em"))
        self.players = widgets.Dropdown(options=[3, 4, 5], value=players,
                                        description="Players", style=style)
        choices = [(label, pattern) for label, pattern in BOT_CHOICES]
        if tuple(bots) not in [p for _, p in choices]:
            choices.append((", ".join(bots), tuple(bots)))
        self.bots = widgets.Dropdown(options=choices, value=tuple(bots), description="Bots",
                                     style=style)
        self.games = widgets.BoundedIntText(value=games, min=1, max=100_000,
                                            description="Games", style=style,
                                            layout=widgets.Layout(width="12em"))
        self.seed = widgets.BoundedIntText(value=seed, min=0, max=2**31 - 1,
                                           description="Seed", style=style,
                                           layout=widgets.Layout(width="14em"))
        cores = max(1, os.cpu_count() or 1)
        workers = min(2, cores) if workers is None else workers
        self.workers = widgets.Dropdown(options=list(range(1, max(cores, workers) + 1)),
                                        value=workers, description="Worker processes",
                                        style=style)
        self.turn_limit = widgets.BoundedIntText(value=turn_limit, min=5, max=2000,
                                                 description="Turn limit", style=style,
                                                 layout=widgets.Layout(width="12em"))
        self.rules_a = HouseRulesPanel()
        self.preset = widgets.Dropdown(
            options=[("(set B's rules by hand below)", "")] + [(k, k) for k in X.PRESETS],
            value="", description="B changes", style=style,
            layout=widgets.Layout(width="34em"))
        self.players_b = widgets.Dropdown(options=[3, 4, 5], value=players,
                                          description="Players in B", style=style)
        self.rules_b = HouseRulesPanel()
        self.rules_box = widgets.Accordion(
            children=(self.rules_a, widgets.VBox((
                widgets.HTML("<i>Used by the question “What does a house rule change?”: "
                             "B is played on the same seeds as A.</i>"),
                self.preset, self.players_b, self.rules_b))),
            selected_index=None)
        self.rules_box.set_title(0, "House rules A")
        self.rules_box.set_title(1, "House rules B (for a comparison)")
        for control, name in ((self.question, "question"), (self.games, "games"),
                              (self.seed, "seed"), (self.workers, "workers"),
                              (self.turn_limit, "turn-limit"), (self.players, "players"),
                              (self.bots, "bots")):
            control.add_class(f"tv-explorer-{name}")
        self.run_button = widgets.Button(description="Run", button_style="primary",
                                         icon="play", tooltip="Play the games")
        self.cancel_button = widgets.Button(description="Cancel", icon="stop", disabled=True,
                                            tooltip="Stop, keeping the games finished")
        self.progress = widgets.IntProgress(value=0, min=0, max=1, description="Progress",
                                            style=style, layout=widgets.Layout(width="24em"))
        self.status = widgets.HTML()
        self.status.add_class("tv-explorer-status")
        self.progress.add_class("tv-explorer-progress")
        self.messages = MessageBox()
        self.plot = widgets.Image(format="png", layout=widgets.Layout(
            display="none", max_width="100%"))
        self.plot.add_class("tv-explorer-plot")
        self.tables = widgets.HTML()
        self.tables.add_class("tv-explorer-tables")
        self.download = widgets.HTML()
        self.download.add_class("tv-explorer-download")
        self.result: X.Run | None = None
        self.shown_tables: list[X.Table] = []
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._last_progress = 0.0
        self.run_button.on_click(self.messages.guard(lambda _b: self.start()))
        self.cancel_button.on_click(self.messages.guard(lambda _b: self.cancel()))
        self.preset.observe(self.messages.guard(self._preset_chosen), "value")
        settings = widgets.HBox(
            (self.players, self.bots, self.games, self.seed),
            layout=widgets.Layout(flex_flow="row wrap"))
        more = widgets.HBox((self.workers, self.turn_limit),
                            layout=widgets.Layout(flex_flow="row wrap"))
        bar = widgets.HBox((self.run_button, self.cancel_button, self.progress, self.status),
                           layout=widgets.Layout(align_items="center", flex_flow="row wrap"))
        super().__init__(children=(self.question, settings, more, self.rules_box, bar,
                                   self.messages, self.plot, self.tables, self.download),
                         **kwargs)
        self.add_class("tv-rules-explorer")

    def __repr__(self) -> str:
        return (f"RulesExplorer(question={self.question.value!r}, games={self.games.value}, "
                f"seed={self.seed.value})")

    # -- what to run -------------------------------------------------------------------
    def arms(self) -> list[X.Arm]:
        """Configuration A, and B when the question is a comparison."""
        for panel, name in ((self.rules_a, "A"), (self.rules_b, "B")):
            if not panel.valid:
                raise RulesError(msg("house rules {name} cannot be played: {why}", None,
                                     name=name, why=panel.messages.text))
        limit = self.turn_limit.value
        a = X.Arm(X.bots_for(self.players.value, self.bots.value), self.rules_a.rules, limit)
        if self.question.value != "compare":
            return [a]
        b = X.Arm(X.bots_for(self.players_b.value, self.bots.value), self.rules_b.rules,
                  limit)
        if b == a:
            raise RulesError(msg("B is the same as A: choose what B changes (a preset, the "
                                 "players in B, or B's house rules)", None))
        return [a, b]

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
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        """What Run does: check the settings, then play in the background."""
        if self.running:
            return
        question = self.question.value
        arms = self.arms()
        games, seed, workers = self.games.value, self.seed.value, self.workers.value
        self.messages.clear()
        self._stop = threading.Event()
        self.run_button.disabled = True
        self.cancel_button.disabled = False
        total = games * len(arms) if question != "deals" else ROUNDS
        self.progress.max, self.progress.value = max(1, total), 0
        self.progress.bar_style = ""
        self.status.value = "Playing…" if question != "deals" else "Dealing…"
        if self.background:
            self._thread = threading.Thread(target=self._work, daemon=True,
                                            args=(question, arms, games, seed, workers))
            self._thread.start()
        else:
            self._work(question, arms, games, seed, workers)

    def cancel(self) -> None:
        """What Cancel does: stop soon, keeping every finished game."""
        self._stop.set()
        self.cancel_button.disabled = True
        self.status.value = "Stopping…"

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the run is over (for a notebook cell or a test); True if it is."""
        if self._thread is not None:
            self._thread.join(timeout)
        return not self.running

    def _progress(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self._last_progress < 0.1:
            return
        self._last_progress = now
        self.progress.max, self.progress.value = max(1, total), done
        self.status.value = f"{done} of {total}"

    def _work(self, question: str, arms: list[X.Arm], games: int, seed: int,
              workers: int) -> None:
        try:
            if question == "deals":
                hands = games * arms[0].players
                table = X.deal_table(arms[0].players, arms[0].rules, hands, seed,
                                     progress=self._progress)
                self.result, self.shown_tables = None, [table]
                self._show_tables([table], deals=table)
                self.status.value = f"{hands} hands per round dealt."
                return
            result = X.run(arms, games, seed, workers, progress=self._progress,
                           cancel=self._stop)
            self.result = result
            self.progress.value = result.games_played
            self.shown_tables = X.tables_for(result, question)
            self._show_tables(self.shown_tables, run=result, question=question)
            self._offer_csv(result)
            what = "Cancelled: the tables show the" if result.cancelled else "Done:"
            self.status.value = escape(f"{what} {result.games_played} games in "
                                       f"{result.seconds:.1f} s "
                                       f"({result.games_per_second:.1f} games/s).")
            self.progress.bar_style = "warning" if result.cancelled else "success"
        except Exception as err:  # noqa: BLE001 - shown to the teacher, never raised
            self.status.value = ""
            self.progress.bar_style = "danger"
            self.messages.show_exception(err)
        finally:
            self.run_button.disabled = False
            self.cancel_button.disabled = True

    # -- showing -------------------------------------------------------------------------
    def _show_tables(self, tables: list[X.Table], run: X.Run | None = None,
                     question: str = "", deals: X.Table | None = None) -> None:
        png = figure_png(question, run) if run is not None else deals_png(deals)
        self.plot.value = png
        self.plot.layout.display = "block" if png else "none"
        self.tables.value = _TABLE_CSS + "".join(t._repr_html_() for t in tables)

    def _offer_csv(self, run: X.Run) -> None:
        buffer = io.StringIO()
        rows = X.write_csv(run, buffer)
        data = buffer.getvalue().encode()
        if len(data) > MAX_DOWNLOAD_BYTES:
            self.download.value = (f"{rows} rows are too many to download from the page: "
                                   "in a notebook cell, use <code>explorer.write_csv</code>.")
            return
        link = base64.b64encode(data).decode()
        self.download.value = (f'<a download="toonerville-records.csv" '
                               f'href="data:text/csv;base64,{link}">Download the raw records '
                               f"(CSV, {rows} rows: one per game, round and seat)</a>")

    def save_csv(self, path: str) -> int:
        """Write the last run's raw records to `path`; returns the number of rows."""
        if self.result is None:
            raise RulesError(msg("run some games first", None))
        with open(path, "w", newline="", encoding="utf-8") as f:
            return X.write_csv(self.result, f)


_TABLE_CSS = """<style>
.tv-explorer-table table { border-collapse: collapse; margin: 4px 0 12px; }
.tv-explorer-table th, .tv-explorer-table td { padding: 2px 8px;
  border-bottom: 1px solid #ddd; font-variant-numeric: tabular-nums; }
.tv-explorer-table th { text-align: right; }
.tv-explorer-table th:first-child { text-align: left; }
</style>"""


# -- plots -----------------------------------------------------------------------------------
def _whiskers(estimates: Sequence[X.Estimate], scale: float) -> tuple[list[float],
                                                                      list[float]]:
    """Lengths of the whiskers below and above each value (0 where there is no interval)."""
    import math

    lo = [0.0 if math.isnan(e.low) else max(0.0, scale * (e.value - e.low)) for e in estimates]
    hi = [0.0 if math.isnan(e.high) else max(0.0, scale * (e.high - e.value))
          for e in estimates]
    return lo, hi


def _bars(ax: Any, xs: Sequence[float], estimates: Sequence[X.Estimate], label: str,
          offset: float = 0.0, width: float = 0.38, scale: float = 1.0) -> None:
    """Bars with 95 % interval whiskers; missing estimates are left out."""
    import math

    keep = [(x, e) for x, e in zip(xs, estimates, strict=True) if not math.isnan(e.value)]
    if not keep:
        return
    vx = [x + offset for x, _ in keep]
    v = [scale * e.value for _, e in keep]
    lo, hi = _whiskers([e for _, e in keep], scale)
    ax.bar(vx, v, width=width, label=label, yerr=[lo, hi], capsize=3)


def _points(ax: Any, xs: Sequence[float], estimates: Sequence[X.Estimate], label: str,
            scale: float = 1.0) -> None:
    """Differences with interval whiskers around a zero line."""
    import math

    keep = [(x, e) for x, e in zip(xs, estimates, strict=True) if not math.isnan(e.value)]
    ax.axhline(0, color="grey", linewidth=1)
    if not keep:
        return
    v = [scale * e.value for _, e in keep]
    lo, hi = _whiskers([e for _, e in keep], scale)
    ax.errorbar([x for x, _ in keep], v, yerr=[lo, hi], fmt="o", capsize=4, label=label)


def _estimates(table: X.Table, column: str) -> list[X.Estimate]:
    return [c for c in table.column(column) if isinstance(c, X.Estimate)]


def _png(fig: Any) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90)
    return buffer.getvalue()


def figure_png(question: str, run: X.Run) -> bytes:
    """A plot answering `question` for `run`, as PNG bytes (b"" with no games)."""
    from matplotlib.figure import Figure

    if not run.games_played:
        return b""
    fig = Figure(figsize=(10, 3.8))
    left, right = fig.subplots(1, 2)
    rounds = list(range(1, ROUNDS + 1))
    facts = run.facts[0]
    if question == "compare" and len(run.arms) >= 2:
        t = X.compare_rounds_table(run)
        _points(left, rounds, _estimates(t, "points B − A"), "B − A")
        left.set_title("Points left per player: B − A (95% CI)")
        _points(right, rounds, _estimates(t, "goes out B − A"), "B − A", scale=100)
        right.set_title("Someone goes out: B − A, percentage points")
    elif question == "buying":
        t = X.buying_table(facts)
        _bars(left, rounds, _estimates(t, "buys per round"), "buys", width=0.7)
        left.set_title("Buys per round (95% CI)")
        _bars(right, rounds, _estimates(t, "buyer lays down next turn"), "at the next turn",
              -0.2, scale=100)
        _bars(right, rounds, _estimates(t, "buyer lays down this round"), "this round",
              0.2, scale=100)
        right.set_title("After a buy, the buyer lays down (%)")
        right.legend(fontsize=8)
    elif question == "seats":
        n = facts[0].players
        t = X.seat_round_table(facts)
        _bars(left, list(range(1, n + 1)), _estimates(t, "points per round")[:n],
              "points", width=0.7)
        left.set_title("Points per round by position (1 plays first)")
        g = X.seat_game_table(facts)
        _bars(right, list(range(1, n + 1)), _estimates(g, "wins the game"), "wins",
              width=0.7, scale=100)
        right.axhline(100 / n, color="grey", linewidth=1, linestyle="--")
        right.set_title("Games won (%) by starting position")
    elif question in ("bots", "scores"):
        kinds = sorted({b for g in facts for b in g.bots})
        for kind in kinds:
            totals = [g.totals[s] for g in facts for s, b in enumerate(g.bots) if b == kind]
            left.hist(totals, bins=20, alpha=0.6, label=kind)
        left.set_title("A player's game total, by bot")
        left.set_xlabel("points (lower is better)")
        left.legend(fontsize=8)
        for name, arm_facts in zip("AB", run.facts, strict=False):
            right.hist([min(g.totals) for g in arm_facts], bins=15, alpha=0.6,
                       label=f"winning total {name}")
        right.set_title("The winning total")
        right.set_xlabel("points")
        right.legend(fontsize=8)
    else:
        t = X.round_table(facts, run.arms[0].rules)
        _bars(left, rounds, _estimates(t, "dealt hand holds it"), "dealt hand holds it",
              -0.2, scale=100)
        _bars(left, rounds, _estimates(t, "someone goes out"), "someone goes out", 0.2,
              scale=100)
        left.set_title("Per round (%), 95% CI")
        left.legend(fontsize=8)
        _bars(right, rounds, _estimates(t, "points left/player"), "points", width=0.7)
        right.set_title("Points left per player (95% CI)")
    for ax in (left, right):
        if question not in ("bots", "scores", "seats"):
            ax.set_xticks(rounds)
            ax.set_xlabel("round")
    return _png(fig)


def deals_png(table: X.Table | None) -> bytes:
    """A bar per round: the share of fresh hands that hold the contract."""
    from matplotlib.figure import Figure

    if table is None:
        return b""
    fig = Figure(figsize=(6, 3.4))
    ax = fig.subplots()
    rounds = [int(r) for r in table.column("round") if isinstance(r, int)]
    _bars(ax, rounds, _estimates(table, "hands that hold it"), "hands", width=0.7, scale=100)
    ax.set_xticks(rounds)
    ax.set_xlabel("round")
    ax.set_title("Fresh hands that already hold the contract (%)")
    return _png(fig)
