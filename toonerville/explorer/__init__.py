"""The rules explorer: many seeded bot games, turned into tables with honest uncertainty.

One job per module, arrows pointing down:

- `stats`: estimates and their 95 % intervals (Wilson for shares, log-scale or exact
  Poisson for means of counts, t for differences, Newcombe for paired shares);
- `exact`: chances counted exactly (a sets-only contract in a fresh deal);
- `deals`: fresh deals, no play (`fresh_deal`: the one count behind lesson 3's How often?
  and the fresh-deal table, with its interval and the exact chance);
- `facts`: what one game leaves behind (`GameFacts`, `RoundFacts`);
- `arms`: the configurations studied (`Arm`, `parse_changes`, `arm_with`, `PRESETS`);
- `runner`: playing them anywhere with the same results (`play_games` on this process,
  a local pool, any Executor or a Dask cluster; `StepwiseRun`/`play_games_async` for a
  page in Pyodide), returning a `Simulation`;
- `tables`: the answers (`ResultTable`, `deal_table` …);
- `sweeps`: grids of house rules on paired seeds, ranked (`parse_sweep`, `sweep_table`);
- `questions`: which tables answer which question (`QUESTIONS`, `tables_for`);
- `figures`: the plot of each answer as SVG (`figure_svg`, drawn by `toonerville.explorer.plots`);
- `export`: CSV and JSON (`write_csv`, `run_json`, `run_from_json`);
- `cli`: the command line (`python -m toonerville simulate ...`).
"""

from __future__ import annotations

from ..players.bots import BOT_KINDS, NoBuyBot
from .arms import PRESETS, Arm, arm_with, bots_for, make_explorer_bot, parse_changes
from .deals import Exact, FreshDeal, deal_seed, deal_share, dealt_hand, fresh_deal
from .exact import exact_deal_share, exact_share, sets_hands
from .export import CSV_COLUMNS, csv_rows, run_from_json, run_json, write_csv
from .facts import GameFacts, RoundFacts, facts_of, hand_meets
from .figures import deals_svg, figure_svg
from .questions import QUESTIONS, tables_for
from .runner import (
    IN_BROWSER,
    Flag,
    Progress,
    SchedulerError,
    Simulation,
    StepwiseRun,
    default_chunk,
    play_chunk,
    play_facts,
    play_games,
    play_games_async,
)
from .stats import (
    Z95,
    Estimate,
    count_mean_ci,
    mean_ci,
    paired_ci,
    paired_share_ci,
    poisson_ci,
    share_mean_ci,
    t95,
    wilson,
)
from .sweeps import (
    SWEEP_METRICS,
    Axis,
    SweepRow,
    parse_sweep,
    reference_arm,
    sweep_arms,
    sweep_chart,
    sweep_label,
    sweep_rows,
    sweep_table,
)
from .tables import (
    GAME_METRICS,
    Cell,
    ResultTable,
    arm_names,
    bot_table,
    buying_table,
    compare_rounds_table,
    compare_table,
    deal_table,
    first_player_edge,
    games_phrase,
    round_table,
    score_table,
    seat_game_table,
    seat_round_table,
)

__all__ = [
    "BOT_KINDS", "CSV_COLUMNS", "GAME_METRICS", "IN_BROWSER", "PRESETS", "QUESTIONS",
    "SWEEP_METRICS", "Z95", "Arm", "Axis", "Cell", "Estimate", "Exact", "Flag",
    "FreshDeal", "GameFacts", "NoBuyBot", "Progress", "ResultTable", "RoundFacts",
    "SchedulerError", "Simulation", "StepwiseRun", "SweepRow",
    "arm_names", "arm_with", "bot_table", "bots_for", "buying_table",
    "compare_rounds_table", "compare_table", "count_mean_ci", "csv_rows", "deal_seed",
    "deal_share", "deal_table", "deals_svg", "dealt_hand", "default_chunk",
    "exact_deal_share", "exact_share", "facts_of", "figure_svg", "first_player_edge",
    "fresh_deal", "games_phrase", "hand_meets", "make_explorer_bot", "mean_ci", "paired_ci",
    "paired_share_ci", "parse_changes", "parse_sweep", "play_chunk", "play_facts",
    "play_games", "play_games_async", "poisson_ci", "reference_arm", "round_table",
    "run_from_json", "run_json", "score_table", "seat_game_table",
    "seat_round_table", "sets_hands", "share_mean_ci", "sweep_arms", "sweep_chart",
    "sweep_label", "sweep_rows", "sweep_table", "t95", "tables_for", "wilson",
    "write_csv",
]
