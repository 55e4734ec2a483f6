"""What 08's rules explorer offers and says: the bots' choices, the presets' names, the
ways to rank a sweep, what a run plays (`arms_for`), the status line after a run and the
CSV download link, in the language in use.

Pure functions over `toonerville.explorer` (they read house rules panels, build no
widget): `explorer.RulesExplorer` shows them.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Callable, Sequence
from html import escape

from .. import explorer as X
from ..engine.errors import RulesError
from ..engine.messages import N_, _, msg, ngettext, plural
from .settings import HouseRulesPanel

#: The bots around the table, as a pattern repeated seat by seat (labels in English,
#: shown in the language in use).
BOT_CHOICES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (N_("heuristic bots"), ("heuristic",)),
    (N_("heuristic against random (alternating)"), ("heuristic", "random")),
    (N_("heuristic against never-buying (alternating)"), ("heuristic", "nobuy")),
    (N_("random bots"), ("random",)),
)
#: The names of `explorer.PRESETS`, marked here for the catalogue (a test keeps the two
#: lists equal); a preset is shown by its translated name and chosen by its English one.
PRESET_NAMES: tuple[str, ...] = (
    N_("5 players instead of 4"),
    N_("3 players instead of 4"),
    N_("H4: round 11 deals 12, not 14"),
    N_("H5: no buying"),
    N_("H5: at most 1 buy per player per round"),
    N_("H5: 2 penalty cards per buy"),
    N_("H5: no penalty card"),
    N_("H1: at most 1 Rook per meld"),
    N_("H7: melds beyond the contract allowed"),
    N_("H8: two sets of one number allowed"),
    N_("H9: no laying off on the lay-down turn"),
)
#: How a sweep can rank its configurations.
RANKS: tuple[tuple[str, str], ...] = (
    (N_("shortest games"), "length"), (N_("closest scores"), "spread"),
    (N_("smallest first player's edge"), "edge"))
#: Largest CSV offered as a download link inside the page.
MAX_DOWNLOAD_BYTES = 30_000_000


def question_options() -> list[tuple[str, str]]:
    """The questions the explorer answers, in the language in use."""
    return [(_(text), key) for key, text in X.QUESTIONS.items()]


def bot_options(patterns: Sequence[tuple[str, ...]]) -> list[tuple[str, tuple[str, ...]]]:
    """The bots' choices (a pattern not in `BOT_CHOICES` shown as its kinds)."""
    labels = dict((pattern, label) for label, pattern in BOT_CHOICES)
    return [(_(labels[p]) if p in labels else ", ".join(p), p) for p in patterns]


def preset_options() -> list[tuple[str, str]]:
    """What B may change: by hand, or one of `explorer.PRESETS` (chosen by its English
    name)."""
    return ([(_("(set B's rules by hand below)"), "")]
            + [(_(name), name) for name in X.PRESETS])


def rank_options() -> list[tuple[str, str]]:
    """How a sweep may rank its configurations."""
    return [(_(label), key) for label, key in RANKS]


def arms_for(question: str, bots: Sequence[str], turn_limit: int,
             a: tuple[int, HouseRulesPanel], b: tuple[int, HouseRulesPanel],
             sweep: str) -> list[X.Arm]:
    """What a run plays for `question`: configuration A (players, house rules panel), B
    as well for a comparison, or the grid of a `sweep` from A; rules that cannot be
    played, or a B equal to A, are refused saying why."""
    for (_players, panel), name in ((a, "A"), (b, "B")):
        if not panel.valid:
            raise RulesError(msg("house rules {name} cannot be played: {why}", None,
                                 name=name, why=panel.messages.text))
    arm_a = X.Arm(X.bots_for(a[0], bots), a[1].rules, turn_limit)
    if question == "sweep":
        return X.sweep_arms(arm_a, X.parse_sweep(sweep.split()))
    if question != "compare":
        return [arm_a]
    arm_b = X.Arm(X.bots_for(b[0], bots), b[1].rules, turn_limit)
    if arm_b == arm_a:
        raise RulesError(msg("B is the same as A: choose what B changes (a preset, the "
                             "players in B, or B's house rules)", None))
    return [arm_a, arm_b]


def download_html(run: X.Simulation) -> Callable[[], str]:
    """How to write the download link of `run`'s raw records (a function of nothing, so
    the page writes it again in another language); too large a CSV says how to get it."""
    buffer = io.StringIO()
    rows = X.write_csv(run, buffer)
    data = buffer.getvalue().encode()
    if len(data) > MAX_DOWNLOAD_BYTES:
        return lambda: escape(ngettext(
            "{n} row is too many to download from the page: in a notebook cell, use "
            "{code}.", "{n} rows are too many to download from the page: in a notebook "
            "cell, use {code}.", rows)).format(n=rows, code="<code>explorer.write_csv</code>")
    link = base64.b64encode(data).decode()
    return lambda: (
        f'<a download="toonerville-records.csv" href="data:text/csv;base64,{link}">'
        + escape(plural("Download the raw records (CSV, {n} row: one per game, "
                        "round and seat)", "Download the raw records (CSV, {n} "
                        "rows: one per game, round and seat)", rows)) + "</a>")


def where_words(result: X.Simulation) -> str:
    """What played a run's games, in the language in use: "this process", "2 local
    processes"; an executor's or a cluster's own name (`Dask at tcp://…`) as it is."""
    if result.where == "this process":
        return _("this process")
    if result.where == f"{result.workers} local processes":
        return plural("{n} local process", "{n} local processes", result.workers)
    if result.where.startswith("Dask at "):
        return _("a Dask cluster at {address}").format(address=result.where[8:])
    return result.where


def finished_text(result: X.Simulation) -> str:
    """The status line after a run: how many games per configuration, how fast, where."""
    counts = result.games_per_arm
    if len(counts) == 1:
        games = plural("{n} game", "{n} games", counts[0])
    else:
        low, high = min(counts), max(counts)
        each = (plural("{n} game", "{n} games", low) if low == high
                else _("{low}–{high} games").format(low=low, high=high))
        games = _("{each} per configuration ({total} in all)").format(
            each=each, total=result.games_played)
    if result.cancelled:
        text = _("Cancelled: the tables show the {games} finished in {seconds} s "
                 "({speed} games/s, {where}).")
    else:
        text = _("Done: {games} in {seconds} s ({speed} games/s, {where}).")
    return text.format(games=games, seconds=f"{result.seconds:.1f}",
                       speed=f"{result.games_per_second:.1f}", where=where_words(result))


TABLE_CSS = """<style>
.tv-explorer-table table { border-collapse: collapse; margin: 4px 0 12px; }
.tv-explorer-table th, .tv-explorer-table td { padding: 2px 8px;
  border-bottom: 1px solid #ddd; font-variant-numeric: tabular-nums; }
.tv-explorer-table th { text-align: right; }
.tv-explorer-table th:first-child { text-align: left; }
</style>"""
