"""Sweeps: a grid of house rules, every configuration played on the same seeds.

Owns `Axis` and `parse_sweep` (`["penalty_cards=0,1,2", "max_buys_per_round=none,3"]`:
one axis per setting, every combination a configuration), `sweep_arms` (the grid as
`Arm`s), the three measures a designer ranks by (`SWEEP_METRICS`: game length, spread of
scores, first player's edge), `sweep_table` (the configurations ranked, each measure with
its 95 % interval and, for the paired games, the difference from a reference
configuration) and `sweep_chart` (the same as a plot).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.errors import RulesError
from ..engine.messages import N_, _, msg
from ..players.bots import BOT_KIND_WORDS
from .arms import Arm, arm_with, setting_value
from .facts import GameFacts
from .plots import Chart, Series
from .runner import Simulation
from .stats import Estimate, count_mean_ci, mean_ci, paired_ci
from .tables import ResultTable, Text, first_player_edge, limit_note, shown_text


@dataclass(frozen=True, slots=True)
class Axis:
    """One setting of a sweep and the values it takes (as read, and as written)."""

    name: str
    values: tuple[Any, ...]
    texts: tuple[str, ...]


def parse_sweep(items: Iterable[str]) -> list[Axis]:
    """`["penalty_cards=0,1,2", "round11_deal=12,14"]` → one `Axis` per setting."""
    axes: list[Axis] = []
    for item in items:
        name, eq, text = item.partition("=")
        name = name.strip().replace("-", "_")
        texts = tuple(t.strip() for t in text.split(",") if t.strip())
        if not eq or not texts:
            raise RulesError(msg("write a sweep as name=value,value,…, like "
                                 "penalty_cards=0,1,2, not {item!r}", None, item=item))
        if any(a.name == name for a in axes):
            raise RulesError(msg("{name} is swept twice: give all its values in one "
                                 "name=value,value,…", None, name=name))
        values = tuple(setting_value(name, t) for t in texts)
        if len(set(values)) < len(values):
            raise RulesError(msg("{name} has the same value twice in the sweep", None,
                                 name=name))
        axes.append(Axis(name, values, texts))
    if not axes:
        raise RulesError(msg("a sweep needs at least one setting, like penalty_cards=0,1,2",
                             None))
    return axes


def sweep_arms(base: Arm, axes: Sequence[Axis]) -> list[Arm]:
    """Every combination of the axes' values, as configurations (RulesError if one of
    them cannot be played)."""
    return [arm_with(base, {a.name: v for a, v in zip(axes, combo, strict=True)})
            for combo in itertools.product(*(a.values for a in axes))]


def sweep_label(arm: Arm, arms: Sequence[Arm]) -> str:
    """A configuration named by what sets it apart: its house rules (and its players,
    when the sweep changes them)."""
    if len({a.players for a in arms}) > 1:
        return Text(msg("{n} players; {rules}", None, n=arm.players,
                        rules=house_rules_text(arm)))
    return house_rules_text(arm)


def house_rules_text(arm: Arm) -> Text:
    """`arm.house_rules()` as a page shows it: "rulebook defaults" in the language in
    use (name=value changes are notation, as the sweep box takes them)."""
    return Text(arm.house_rules())


def table_text(arm: Arm) -> Text:
    """`arm.table()` as a page shows it, the bot kinds in the language in use."""
    kinds = sorted(set(arm.bots), key=arm.bots.index)
    who: list[str] = []
    for kind in kinds:
        who += [", "] if who else []
        who += [BOT_KIND_WORDS.get(kind, kind), f" ×{arm.bots.count(kind)}"]
    return Text(msg("{n} players ({who})", None, n=arm.players, who=Text(*who)))


#: (label, per-game value, can it be negative?)
SWEEP_METRICS: tuple[tuple[str, Callable[[GameFacts], float], bool], ...] = (
    (N_("turns per game"), lambda g: float(g.turns), False),
    (N_("score spread"), lambda g: float(max(g.totals) - min(g.totals)), False),
    (N_("first player's edge"), first_player_edge, True),
)
RANKS = {"length": 0, "spread": 1, "edge": 2}


def reference_arm(sim: Simulation) -> int:
    """The configuration differences are taken from: the rulebook's rules at the base
    table if the sweep has them, else the first configuration."""
    return next((i for i, a in enumerate(sim.arms) if not a.rules.changes()
                 and a.players == sim.arms[0].players), 0)


def _estimate(values: Sequence[float], signed: bool) -> Estimate:
    return mean_ci(values, "difference") if signed else count_mean_ci(values)


@dataclass(frozen=True)
class SweepRow:
    """One configuration of a sweep: its measures and differences from the reference."""

    arm: int
    label: str
    measures: tuple[Estimate, ...]
    versus: tuple[Estimate | None, ...]


def sweep_rows(sim: Simulation, rank_by: str = "length") -> list[SweepRow]:
    """The configurations, best first by `rank_by` ("length", "spread" or "edge": the
    smallest size of the first player's edge). Every measure is over the games every
    configuration finished, so the differences are paired."""
    if rank_by not in RANKS:
        raise RulesError(msg("rank a sweep by {choices}, not {by!r}", None,
                             choices=", ".join(RANKS), by=rank_by))
    games = sim.paired_facts()
    ref = reference_arm(sim)
    rows = []
    for k, arm in enumerate(sim.arms):
        values = [[metric(g[k]) for g in games] for _name, metric, _signed in SWEEP_METRICS]
        base = [[metric(g[ref]) for g in games] for _name, metric, _signed in SWEEP_METRICS]
        measures = tuple(_estimate(v, signed) for v, (_name, _metric, signed) in
                         zip(values, SWEEP_METRICS, strict=True))
        versus = tuple(None if k == ref else paired_ci(b, v)
                       for b, v in zip(base, values, strict=True))
        rows.append(SweepRow(k, sweep_label(arm, sim.arms), measures, versus))
    key = RANKS[rank_by]

    def order(row: SweepRow) -> float:
        v = row.measures[key].value
        return math.inf if math.isnan(v) else abs(v) if key == 2 else v

    return sorted(rows, key=order)


def sweep_table(sim: Simulation, rank_by: str = "length") -> ResultTable:
    """The configurations of a sweep, ranked: game length, spread of scores and the
    first player's edge, each with its 95 % interval, and the paired differences from
    the reference configuration."""
    rows = sweep_rows(sim, rank_by)
    ref = reference_arm(sim)
    n = len(sim.paired_facts())
    cells = tuple((i, r.label, r.measures[0], r.versus[0], r.measures[1], r.versus[1],
                   r.measures[2]) for i, r in enumerate(rows, 1))
    title = {
        "length": Text.plural("A sweep of {n} configuration, shortest games first",
                              "A sweep of {n} configurations, shortest games first",
                              len(sim.arms)),
        "spread": Text.plural("A sweep of {n} configuration, closest scores first",
                              "A sweep of {n} configurations, closest scores first",
                              len(sim.arms)),
        "edge": Text.plural("A sweep of {n} configuration, smallest first player's edge "
                            "first", "A sweep of {n} configurations, smallest first "
                            "player's edge first", len(sim.arms)),
    }[rank_by]
    note = Text.plural(
        "{n} game per configuration, the same seeds for all; {table}, turn limit {limit}. "
        "Turns per game: every player's turns in 11 rounds. Score spread: the highest minus "
        "the lowest total of a game. First player's edge: per round, the first player's "
        "points minus the others' average (negative: playing first helps). 'vs reference': "
        "the paired difference from {reference} (the same games, game by game), much "
        "tighter than comparing two intervals. 95% intervals (log-scale for the means, t "
        "for differences), each for one configuration on its own: with many "
        "configurations, expect about 1 in 20 to miss by chance.",
        "{n} games per configuration, the same seeds for all; {table}, turn limit {limit}. "
        "Turns per game: every player's turns in 11 rounds. Score spread: the highest minus "
        "the lowest total of a game. First player's edge: per round, the first player's "
        "points minus the others' average (negative: playing first helps). 'vs reference': "
        "the paired difference from {reference} (the same games, game by game), much "
        "tighter than comparing two intervals. 95% intervals (log-scale for the means, t "
        "for differences), each for one configuration on its own: with many "
        "configurations, expect about 1 in 20 to miss by chance.",
        n, table=table_text(sim.arms[0]), limit=sim.arms[0].turn_limit,
        reference=sweep_label(sim.arms[ref], sim.arms))
    return ResultTable(
        title,
        (N_("rank"), N_("configuration"), N_("turns per game"), N_("turns vs reference"),
         N_("score spread"), N_("spread vs reference"), N_("first player's edge")), cells,
        note + limit_note([g for f in sim.facts for g in f]))


def sweep_chart(sim: Simulation, rank_by: str = "length") -> list[Chart]:
    """Three panels: each measure per configuration, with intervals, in rank order."""
    rows = sweep_rows(sim, rank_by)
    labels = tuple(r.label for r in rows)
    charts = []
    for k, (label, _metric, signed) in enumerate(SWEEP_METRICS):
        points = tuple((e.value, e.low, e.high) for e in (r.measures[k] for r in rows))
        unit = {0: _("turns"), 1: _("points"), 2: _("points per round")}[k]
        charts.append(Chart(_(label), tuple(shown_text(x) for x in labels),
                            (Series(_(label), points),), unit,
                            horizontal=True, zero_line=signed))
    return charts

