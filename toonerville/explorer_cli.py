"""`python -m toonerville simulate ...`: the rules explorer on the command line.

Plays seeded bot games under one configuration (A) or two (A and B, on the same seeds),
shows progress on stderr, prints the tables that answer the chosen question on stdout,
and writes the raw records as CSV and the tables and records as JSON. Ctrl-C stops the
run and prints the tables of the games finished so far.

    python -m toonerville simulate --games 200 --bots heuristic,heuristic,random,random \\
        --seed 1 --workers 2 --rules penalty_cards=2 --compare round11_deal=12 \\
        --csv records.csv --json summary.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import IO, Any

from . import explorer as X
from .errors import RulesError, ToonervilleError
from .messages import msg
from .simulate import DEFAULT_TURN_LIMIT

EPILOG = """settings (--rules, --compare) are name=value, separated by spaces or commas:
  players=3..5 (--compare only), max_rooks_per_meld=N|none, rooks_at_most_naturals=BOOL,
  first_dealer=SEAT|none, rook_turn_up=bury|stays, round11_deal=14|12,
  max_buys_per_round=N|none, down_players_may_buy=BOOL, penalty_cards=0..3,
  restock=shuffle|turn_over, extra_melds=BOOL, contiguous_runs=BOOL, same_number_sets=BOOL,
  lay_off_same_turn=BOOL, lay_off_on_others=BOOL, rook_swap=BOOL, swap_only_when_down=BOOL

questions (--question):
""" + "\n".join(f"  {k:8} {v}" for k, v in X.QUESTIONS.items()) + """

exit status: 0 done, 1 stopped early (Ctrl-C; partial tables printed), 2 bad settings"""


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
    p.add_argument("--workers", type=_count, default=1, help="processes (default 1)")
    p.add_argument("--rules", nargs="+", action="extend", default=[], metavar="NAME=VALUE",
                   help="house rules of configuration A")
    p.add_argument("--compare", nargs="+", action="extend", default=None,
                   metavar="NAME=VALUE", help="what configuration B changes from A "
                   "(played on the same seeds, paired)")
    p.add_argument("--question", choices=("all", *X.QUESTIONS), default="all",
                   help="which tables to print (default all)")
    p.add_argument("--turn-limit", type=_count, default=DEFAULT_TURN_LIMIT,
                   help=f"turns after which a round is scored as it stands "
                   f"(default {DEFAULT_TURN_LIMIT})")
    p.add_argument("--hands", type=_count, default=400,
                   help="random hands per round for --question deals (default 400)")
    p.add_argument("--csv", type=Path, help="write the raw records (one row per game, "
                   "round and seat) to this CSV file")
    p.add_argument("--json", type=Path, help="write the configuration, the tables and the "
                   "records to this JSON file")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(run=run_simulate)
    return p


class ProgressLine:
    """Progress on stderr: one rewritten line on a terminal, else a line per 10 %."""

    def __init__(self, out: IO[str], label: str) -> None:
        self.out, self.label = out, label
        self.began = time.perf_counter()
        self.tty = out.isatty()
        self.shown = -1

    def __call__(self, done: int, total: int) -> None:
        elapsed = time.perf_counter() - self.began
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (total - done) / rate if rate > 0 else 0.0
        text = (f"{self.label}: {done}/{total} games, {rate:.1f} games/s, "
                f"about {left:.0f} s left")
        if self.tty:
            filled = int(30 * done / total) if total else 30
            print(f"\r[{'#' * filled}{'.' * (30 - filled)}] {text}  ", end="", file=self.out,
                  flush=True)
            if done == total:
                print(file=self.out)
        else:
            tenth = 10 * done // total if total else 10
            if tenth > self.shown:
                self.shown = tenth
                print(text, file=self.out, flush=True)


def arms_from_args(args: argparse.Namespace) -> list[X.Arm]:
    """Configuration A (and B with --compare) from the command line; RulesError if a
    setting cannot be played."""
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
    if args.compare is not None:
        arms.append(X.arm_with(arms[0], X.parse_changes(args.compare)))
    return arms


def run_simulate(args: argparse.Namespace, out: IO[str] | None = None,
                 err: IO[str] | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        arms = arms_from_args(args)
        if args.question == "compare" and len(arms) < 2:
            raise RulesError(msg("the compare question needs --compare name=value",
                                         None))
    except ToonervilleError as problem:
        print(f"toonerville simulate: error: {problem}", file=err)
        return 2
    progress = None if args.quiet else ProgressLine(err, "simulate")
    if args.question == "deals":
        table = X.deal_table(arms[0].players, arms[0].rules, args.hands, args.seed,
                             progress=progress)
        print(table, file=out)
        if args.json:
            args.json.write_text(json.dumps({"tables": [table.to_dict()]}, indent=1))
        return 0
    for name, arm in zip("AB", arms, strict=False):
        print(f"{name}: {arm.describe()}", file=err)
    result = X.run(arms, args.games, args.seed, args.workers, progress=progress)
    if result.cancelled:
        print(f"\nstopped: {result.games_played} games finished are kept", file=err)
    arms_text = f" ({len(arms)} configurations on the same seeds)" if len(arms) > 1 else ""
    print(f"{result.games_played} games{arms_text} in {result.seconds:.1f} s "
          f"({result.games_per_second:.1f} games/s, {result.workers} worker"
          f"{'s' if result.workers > 1 else ''})", file=err)
    tables = X.tables_for(result, args.question)
    for name, arm, facts in zip("AB", arms, result.facts, strict=False):
        print(f"{name}: {arm.describe()} — {len(facts)} games, seed {args.seed}", file=out)
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
    return 1 if result.cancelled else 0
