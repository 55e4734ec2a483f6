"""`python -m toonerville simulate ...`: the rules explorer on the command line.

Plays seeded bot games under one configuration (A), two (A and B, on the same seeds) or
a sweep (a grid of house rules, all on the same seeds), on this machine's cores or a
Dask cluster; shows progress on stderr (tqdm: games done, games per second, time left),
prints the tables that answer the chosen question on stdout, and writes the raw records
as CSV, the tables and records as JSON and the plot as SVG. Ctrl-C or SIGTERM stops the
workers and prints the tables of the games finished so far.

    python -m toonerville simulate --games 200 --bots heuristic,heuristic,random,random \\
        --seed 1 --workers 2 --rules penalty_cards=2 --compare round11_deal=12 \\
        --csv records.csv --json summary.json --svg plot.svg
    python -m toonerville simulate --games 100 --workers 2 \\
        --sweep penalty_cards=0,1,2 max_buys_per_round=none,3 round11_deal=12,14
    python -m toonerville simulate --games 500 --scheduler tcp://host:8786
    python -m toonerville simulate --games 100 --levels strong,heuristic --players 4
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import IO, Any

from .. import explorer as X
from ..engine.errors import RulesError, ToonervilleError
from ..engine.messages import msg
from ..engine.rules import Rules
from ..players.simulate import DEFAULT_TURN_LIMIT
from .arms import compare_level_arms

EPILOG = """settings (--rules, --compare, --sweep) are name=value, separated by spaces or commas
(a sweep gives each setting its values: name=value,value,...):
  players=3..5 (--compare, --sweep), max_rooks_per_meld=N|none, rooks_at_most_naturals=BOOL,
  first_dealer=SEAT|none, rook_turn_up=bury|stays, round11_deal=14|12,
  max_buys_per_round=N|none, down_players_may_buy=BOOL, penalty_cards=0..3,
  restock=shuffle|turn_over, extra_melds=BOOL, contiguous_runs=BOOL, same_number_sets=BOOL,
  lay_off_same_turn=BOOL, lay_off_on_others=BOOL, rook_swap=BOOL, swap_only_when_down=BOOL

questions (--question):
""" + "\n".join(f"  {k:8} {v}" for k, v in X.QUESTIONS.items()) + """

a Dask cluster (--scheduler) needs `pip install 'toonerville[explorer]'` here and on its
workers; the games and their records are the same as on this machine's cores.

exit status: 0 done; 1 stopped early by Ctrl-C or SIGTERM (the finished games are kept and
their tables printed, the CSV/JSON/SVG written); 2 bad settings; 3 the Dask scheduler
cannot be used"""


def _count(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"needs a whole number 1 or more, not {text}")
    return value


def add_simulate_command(subparsers: Any) -> argparse.ArgumentParser:
    """Add `simulate` to the `python -m toonerville` subcommands."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "simulate", help="the rules explorer: many seeded bot games, tables with 95%% "
        "confidence intervals", description=__doc__.split("\n\n")[1],
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=_count, default=100, help="games per configuration "
                   "(default 100)")
    p.add_argument("--players", type=int, choices=(3, 4, 5), default=None,
                   help="players (default: one per bot named when 3 to 5 are named, else 4)")
    p.add_argument("--bots", default="heuristic", help="bots by seat, comma-separated "
                   f"({', '.join(X.BOT_KINDS)}); repeated around the table to fill "
                   "--players (default: heuristic)")
    p.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    p.add_argument("--workers", type=_count, default=1, help="local processes (default 1)")
    p.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="play on the Dask cluster whose scheduler is at ADDRESS "
                   "(e.g. tcp://host:8786) instead of local processes")
    p.add_argument("--rules", nargs="+", action="extend", default=[], metavar="NAME=VALUE",
                   help="house rules of configuration A")
    p.add_argument("--compare", nargs="+", action="extend", default=None,
                   metavar="NAME=VALUE", help="what configuration B changes from A "
                   "(played on the same seeds, paired)")
    p.add_argument("--sweep", nargs="+", action="extend", default=None,
                   metavar="NAME=V,V", help="a grid of house rules from A: every "
                   "combination of the values, all on the same seeds, ranked")
    p.add_argument("--rank-by", choices=("length", "spread", "edge"), default="length",
                   help="how a sweep is ranked: shortest games, closest scores, or the "
                   "smallest first player's edge (default length)")
    p.add_argument("--question", choices=("all", *X.QUESTIONS), default="all",
                   help="which tables to print (default all; a sweep's table with --sweep)")
    p.add_argument("--turn-limit", type=_count, default=DEFAULT_TURN_LIMIT,
                   help=f"turns after which a round is scored as it stands "
                   f"(default {DEFAULT_TURN_LIMIT})")
    p.add_argument("--hands", type=_count, default=400,
                   help="random hands per round for --question deals (default 400)")
    p.add_argument("--csv", type=Path, help="write the raw records (one row per game, "
                   "round and seat) to this CSV file")
    p.add_argument("--json", type=Path, help="write the configuration, the tables and the "
                   "records to this JSON file")
    p.add_argument("--svg", type=Path, help="write the question's plot to this SVG file")
    p.add_argument("--levels", metavar="A,B", default=None,
                   help="compare two bot levels instead (e.g. strong,heuristic): each "
                   "deal played twice, one seat (rotated) by A once and by B once, the "
                   "others heuristic; points per game each level is worth, with 95%% "
                   "intervals (one process)")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(run=run_simulate)
    return p


class ProgressBar:
    """Progress on stderr with tqdm: games done, games per second, time left."""

    def __init__(self, out: IO[str], label: str) -> None:
        self.out, self.label = out, label
        self.bar: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self.bar is False:
            return
        if self.bar is None:
            try:
                from tqdm import tqdm
            except ImportError:  # the engine needs nothing; the bar is an extra
                print("(for a progress bar: pip install 'toonerville[explorer]')",
                      file=self.out)
                self.bar = False
                return
            self.bar = tqdm(total=total, desc=self.label, file=self.out, unit=" games",
                            mininterval=0.2, dynamic_ncols=True, bar_format=(
                                "{desc}: {n_fmt}/{total_fmt} games |{bar}| {rate_fmt}, "
                                "{remaining} left"))
        self.bar.update(done - self.bar.n)
        if done >= total:
            self.close()

    def close(self) -> None:
        if self.bar:
            self.bar.close()
        if self.bar is not False:
            self.bar = None




@contextmanager
def stop_on_signals() -> Iterator[threading.Event]:
    """An event set by the first Ctrl-C (SIGINT) or SIGTERM, so the run stops its workers
    and keeps the finished games; a second signal interrupts at once."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    before = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for s, h in before.items():
            signal.signal(s, h)


def arms_from_args(args: argparse.Namespace) -> list[X.Arm]:
    """Configuration A (and B with --compare, or the grid with --sweep) from the command
    line; RulesError if a setting cannot be played."""
    pattern = [b.strip() for b in args.bots.split(",") if b.strip()]
    players = args.players or (len(pattern) if 3 <= len(pattern) <= 5 else 4)
    if len(pattern) > players:
        raise RulesError(msg("{k} bots named for {n} players: name one bot per seat, or "
                             "fewer to repeat around the table", "T2", k=len(pattern),
                             n=players))
    base = X.Arm(X.bots_for(players, pattern), turn_limit=args.turn_limit)
    a_changes = X.parse_changes(args.rules)
    if "players" in a_changes:
        raise RulesError(msg("give the player count of A with --players, not "
                             "--rules players=...", None))
    arms = [X.arm_with(base, a_changes)]
    sweep = getattr(args, "sweep", None)
    if sweep is not None and args.compare is not None:
        raise RulesError(msg("choose --compare (A against B) or --sweep (a grid), not both",
                             None))
    if sweep is not None:
        return X.sweep_arms(arms[0], X.parse_sweep(sweep))
    if args.compare is not None:
        arms.append(X.arm_with(arms[0], X.parse_changes(args.compare)))
    return arms


def _question(args: argparse.Namespace) -> str:
    if getattr(args, "sweep", None) is not None and args.question in ("all", "sweep"):
        return "sweep"
    if args.question == "sweep":
        raise RulesError(msg("the sweep question needs --sweep name=value,value", None))
    return str(args.question)


def run_simulate(args: argparse.Namespace, out: IO[str] | None = None,
                 err: IO[str] | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    if getattr(args, "levels", None):
        return run_levels(args, out, err)
    try:
        arms = arms_from_args(args)
        question = _question(args)
        if question == "compare" and len(arms) < 2:
            raise RulesError(msg("the compare question needs --compare name=value", None))
    except ToonervilleError as problem:
        print(f"toonerville simulate: error: {problem}", file=err)
        return 2
    progress = None if args.quiet else ProgressBar(err, "simulate")
    if question == "deals":
        table = X.deal_table(arms[0].players, arms[0].rules, args.hands, args.seed,
                             progress=progress)
        print(table, file=out)
        if args.json:
            args.json.write_text(json.dumps({"tables": [table.to_dict()]}, indent=1))
        if args.svg:
            args.svg.write_text(X.deals_svg(table), encoding="utf-8")
        return 0
    names = X.arm_names(X.Simulation(tuple(arms), 0, args.seed, ((),) * len(arms)))
    for name, arm in zip(names, arms, strict=True):
        print(f"{name}: {arm.describe()}", file=err)
    try:
        with stop_on_signals() as stop:
            result = X.play_games(arms, args.games, args.seed, args.workers,
                                  progress=progress, cancel=stop,
                                  scheduler=getattr(args, "scheduler", None))
    except X.SchedulerError as problem:
        print(f"toonerville simulate: error: {problem}", file=err)
        return 3
    finally:
        if progress is not None:
            progress.close()
    if result.cancelled:
        print(f"stopped: {result.games_played} games finished are kept", file=err)
    arms_text = f" ({len(arms)} configurations on the same seeds)" if len(arms) > 1 else ""
    print(f"{result.games_played} games{arms_text} in {result.seconds:.1f} s "
          f"({result.games_per_second:.1f} games/s, {result.where})", file=err)
    tables = (X.tables_for(result, question) if question != "sweep"
              else [X.sweep_table(result, args.rank_by)])
    if question != "sweep":
        for name, arm, facts in zip(names, arms, result.facts, strict=True):
            print(f"{name}: {arm.describe()} — {len(facts)} games, seed {args.seed}",
                  file=out)
    for table in tables:
        print(f"\n{table}", file=out)
    if args.csv:
        with args.csv.open("w", newline="", encoding="utf-8") as f:
            rows = X.write_csv(result, f)
        print(f"wrote {rows} rows to {args.csv}", file=err)
    if args.json:
        args.json.write_text(json.dumps(X.run_json(result, tables), indent=1),
                             encoding="utf-8")
        print(f"wrote {args.json}", file=err)
    if args.svg:
        plot = question if question != "all" else "rounds"
        args.svg.write_text(X.figure_svg(plot, result, args.rank_by), encoding="utf-8")
        print(f"wrote {args.svg}", file=err)
    return 1 if result.cancelled else 0


def run_levels(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """`--levels A,B`: what level A is worth against level B (`compare_level_arms`)."""
    try:
        kinds = [k.strip() for k in str(args.levels).split(",") if k.strip()]
        if len(kinds) != 2:
            raise RulesError(msg("--levels names two bot levels, like strong,heuristic, not "
                                 "{text!r}", None, text=args.levels))
        changes = X.parse_changes(args.rules)
        players = int(changes.pop("players", args.players or 4))
        rules = Rules.from_dict(changes) if changes else None
        progress = None if args.quiet else ProgressBar(err, "levels")
        with stop_on_signals() as stop:
            try:
                result = compare_level_arms(kinds[0], kinds[1], args.games, args.seed,
                                              players, rules, args.turn_limit,
                                              progress=progress, cancel=stop.is_set)
            finally:
                if progress is not None:
                    progress.close()
    except ToonervilleError as problem:
        print(f"toonerville simulate: error: {problem}", file=err)
        return 2
    print(result, file=out)
    if args.json:
        s = result.summary()
        args.json.write_text(json.dumps({
            "levels": [result.a, result.b], "players": result.players, "seed": result.seed,
            "a": s["a"].to_dict(), "b": s["b"].to_dict(),
            "b_minus_a": s["b_minus_a"].to_dict(), "relative": s["relative"],
            "pairs": [{"index": p.index, "seed": p.seed, "seat": p.seat, "a": p.a, "b": p.b}
                      for p in result.pairs]}, indent=1), encoding="utf-8")
    return 1 if len(result.pairs) < args.games else 0
