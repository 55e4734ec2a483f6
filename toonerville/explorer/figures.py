"""The explorer's pictures: the plot that answers each question, as SVG.

Owns `figure_svg(question, sim)` and `deals_svg(table)`; the drawing itself is
`toonerville.explorer.plots` (standard library only), so the same SVG shows in Voila, in a page
in Pyodide and in a file written by `python -m toonerville simulate --svg FILE`.
"""

from __future__ import annotations

import math

from ..engine.messages import _, plural
from ..engine.rules import ROUNDS
from .deals import Exact
from .plots import Chart, Histogram, Series, figure
from .runner import Simulation
from .stats import Estimate
from .tables import (
    ResultTable,
    arm_names,
    buying_table,
    compare_rounds_table,
    games_phrase,
    round_table,
    seat_game_table,
    seat_round_table,
    shown_text,
)

ROUND_NAMES = tuple(str(r) for r in range(1, ROUNDS + 1))


def _points(table: ResultTable, column: str) -> tuple[tuple[float, float, float] | None, ...]:
    return tuple((c.value, c.low, c.high) if isinstance(c, Estimate) else None
                 for c in table.column(column))


def _exact(table: ResultTable) -> tuple[tuple[float, float, float] | None, ...]:
    return tuple((c.value, math.nan, math.nan) if isinstance(c, Exact) else None
                 for c in table.column("exact"))


def figure_svg(question: str, sim: Simulation, rank_by: str = "length") -> str:
    """The plot answering `question` for `sim`, as SVG text ("" with no games)."""
    if not sim.games_played:
        return ""
    facts = sim.facts[0]
    panels: list[Chart | Histogram]
    if question == "sweep":
        from .sweeps import sweep_chart

        return figure(plural("A sweep of {n} configuration ({games}, 95% intervals)",
                             "A sweep of {n} configurations ({games}, 95% intervals)",
                             len(sim.arms), games=shown_text(games_phrase(sim))),
                      sweep_chart(sim, rank_by), panel_width=560, columns=1)
    if question == "compare" and len(sim.arms) >= 2:
        t = compare_rounds_table(sim)
        panels = [Chart(_("Points left per player: B − A"), ROUND_NAMES,
                        (Series("B − A", _points(t, "points B − A")),), _("points (B − A)"),
                        _("round"), zero_line=True),
                  Chart(_("Someone goes out: B − A"), ROUND_NAMES,
                        (Series("B − A", _points(t, "goes out B − A")),),
                        _("percentage points (B − A)"), _("round"), zero_line=True,
                        percent=True)]
        title = _("A against B on the same seeds, round by round")
    elif question == "buying":
        t = buying_table(facts)
        panels = [Chart(_("Buys per round"), ROUND_NAMES,
                        (Series(_("buys"), _points(t, "buys per round")),), _("buys"),
                        _("round")),
                  Chart(_("After a buy, the buyer lays down"), ROUND_NAMES,
                        (Series(_("at the next turn"),
                                _points(t, "buyer lays down next turn")),
                         Series(_("this round"), _points(t, "buyer lays down this round"))),
                        _("share of buys"), _("round"), percent=True)]
        title = _("Buying, round by round")
    elif question == "seats":
        n = facts[0].players
        positions = tuple(str(p) for p in range(1, n + 1))
        t = seat_round_table(facts)
        g = seat_game_table(facts)
        panels = [Chart(_("Points per round by position"), positions,
                        (Series(_("points"), _points(t, "points per round")[:n]),),
                        _("points per round"), _("position (1 plays first)")),
                  Chart(_("Games won by starting position"), positions,
                        (Series(_("wins"), _points(g, "wins the game")[:n]),), _("games won"),
                        _("position (1 plays first in round 1)"), guide=1 / n, percent=True)]
        title = _("Does it matter where you sit?")
    elif question in ("bots", "scores"):
        kinds = sorted({b for g in facts for b in g.bots})
        by_bot = tuple((kind, tuple(float(g.totals[s]) for g in facts
                                    for s, b in enumerate(g.bots) if b == kind))
                       for kind in kinds)
        winning = tuple((_("winning total {name}").format(name=shown_text(name)),
                         tuple(float(min(g.totals)) for g in f))
                        for name, f in zip(arm_names(sim), sim.facts, strict=True))
        panels = [Histogram(_("A player's game total, by bot"), by_bot,
                            _("points in a game (lower is better)")),
                  Histogram(_("The winning total"), winning, _("points in a game"))]
        title = _("How the scores are spread")
    else:
        t = round_table(facts, sim.arms[0].rules)
        exact = _exact(t)
        series = [Series(_("dealt hand holds it"), _points(t, "dealt hand holds it")),
                  Series(_("someone goes out"), _points(t, "someone goes out"))]
        if any(p is not None for p in exact):
            series.insert(1, Series(_("exact chance (counted)"), exact))
        panels = [Chart(_("Per round"), ROUND_NAMES, tuple(series),
                        _("share of hands / rounds"), _("round"), percent=True),
                  Chart(_("Points left per player"), ROUND_NAMES,
                        (Series(_("points"), _points(t, "points left/player")),), _("points"),
                        _("round"))]
        title = _("How hard is each round?")
    return figure(_("{title} ({games}, 95% intervals)").format(
        title=title, games=shown_text(games_phrase(sim))), panels)


def deals_svg(table: ResultTable | None) -> str:
    """A dot per round: the share of fresh hands that hold the contract, and the exact
    chance where it is counted."""
    if table is None:
        return ""
    names = tuple(str(r) for r in table.column("round"))
    series = (Series(_("random hands"), _points(table, "hands that hold it")),
              Series(_("exact chance (counted)"), _exact(table)))
    return figure(_("Fresh hands that already hold the contract (95% Wilson intervals)"),
                  [Chart(_("Hands that hold the contract"), names, series,
                         _("share of hands"), _("round"), percent=True)], columns=1)
