"""How much stronger is a level than another? Paired games, with 95 % intervals.

Each deal is played twice: one seat (rotated deal by deal) once by level A (default
"strong") and once by level B (default "heuristic"), the other seats heuristic. Prints
the mean points per game of each level at that seat, B − A and A's change relative to
B, each with its 95 % interval, and the load average before and after. Progress (deals
done, seconds per deal) goes to stderr; `--out FILE` appends one JSON line per deal,
with the run's settings (run_seed, players, levels, worlds, clear, budget, and kept,
aligned and closer when on), and
`--resume` skips the deals already in that file (a long run can stop and go on, across
sessions: the runs kept in `benchmarks/strength/`); it refuses a file made with other
settings.
`--compare OTHER` pairs this run's deals with OTHER's (the same seed and players, so the
same deals and the same B level): level A of one against level A of the other, deal by
deal, with its 95 % interval.

    nice python benchmarks/bench_strength.py --games 1000 --out strength.jsonl --resume
    # the same run on two cores: two processes, one file
    nice python benchmarks/bench_strength.py --games 1000 --out s.jsonl --resume --shard 0/2 &
    nice python benchmarks/bench_strength.py --games 1000 --out s.jsonl --resume --shard 1/2
    python benchmarks/bench_strength.py --games 20 --worlds 6      # a quick look
    # 12 worlds against 20 on the deals both runs played
    python benchmarks/bench_strength.py --games 0 --resume --out w12.jsonl --compare w20.jsonl
    # the figures of the first 150 deals of a longer run, and of the deals after them
    python benchmarks/bench_strength.py --games 150 --resume --out w12.jsonl
    python benchmarks/bench_strength.py --games 0 --since 150 --resume --out w12.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

from toonerville.coach.levels import Pair, compare_levels
from toonerville.coach.strong import StrongBot
from toonerville.explorer.arms import level_difference
from toonerville.explorer.stats import paired_ci
from toonerville.players.bots import Bot, make_bot


def _level(kind: str, worlds: int, budget: float | None,  # type: ignore[no-untyped-def]
           clear: tuple[float, float], kept: int, aligned: bool = False, closer: int = 0):
    if kind == "strong":
        return lambda: StrongBot(worlds=worlds, time_budget=budget, clear=clear, kept=kept,
                                 aligned=aligned, closer=closer)

    def make() -> Bot:
        return make_bot(kind)
    return make


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=1000,
                   help="the run's deals: 0 to GAMES-1 (with --resume, the figures are "
                   "those of the file's deals below GAMES; 0: play none, figures of all)")
    p.add_argument("--since", type=int, default=0, metavar="INDEX",
                   help="the figures of the deals from INDEX on only (leave out the deals "
                   "a choice of the level's settings was made on; plays the same deals)")
    p.add_argument("--a", default="strong", help="level A (default strong)")
    p.add_argument("--b", default="heuristic", help="level B (default heuristic)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--worlds", type=int, default=None,
                   help="the strong bot's worlds per decision (default: its own)")
    p.add_argument("--budget", type=float, default=None,
                   help="the strong bot's seconds per decision (default: none, so the "
                   "figures do not depend on the machine's load)")
    p.add_argument("--clear", default=None, metavar="SE[,POINTS]",
                   help="standard errors (and points) by which the strong bot's best "
                   "estimate must beat the heuristic bot's move (default: the strong "
                   "level's, strong.PLAYING; the coach's is strong.ADVICE, 2,0)")
    p.add_argument("--kept", type=int, default=0, metavar="CARDS",
                   help="the strong bot's worlds deal the others' hands as players keep "
                   "them, letting go of up to CARDS least useful cards (default 0: "
                   "uniformly; coach.memory.sample_world)")
    p.add_argument("--aligned", action="store_true",
                   help="the strong bot lines up its worlds' stock after a take or a buy "
                   "with the other move's (strong.STOCK_SHIFT; default: as dealt)")
    p.add_argument("--closer", type=int, default=0, metavar="WORLDS",
                   help="the strong bot weighs a close call on WORLDS more worlds "
                   "(strong.close_call; default 0: none)")
    p.add_argument("--out", type=Path, default=None)
    p.add_argument("--resume", action="store_true")
    p.add_argument("--compare", type=Path, default=None, metavar="OTHER",
                   help="a run of the same deals (its --out file): pair the two runs' A "
                   "levels deal by deal")
    p.add_argument("--shard", default="0/1", metavar="K/N",
                   help="play only the deals whose index is K modulo N: N processes "
                   "(K = 0 … N-1) with the same --out share one run between cores")
    args = p.parse_args()
    shard, shards = (int(x) for x in args.shard.split("/"))
    if args.kept < 0 or args.closer < 0:
        p.error("--kept and --closer are numbers of cards and worlds, not below 0")
    worlds = args.worlds or StrongBot().worlds
    clear = StrongBot().clear
    if args.clear:
        parts = [float(x) for x in args.clear.split(",")]
        clear = (parts[0], parts[1] if len(parts) > 1 else 0.0)
    settings = {"run_seed": args.seed, "players": args.players, "levels": [args.a, args.b],
                "worlds": worlds, "clear": list(clear), "budget": args.budget,
                # (runs of before --kept have no such key: kept 0)
                **({"kept": args.kept} if args.kept else {}),
                # (nor of before --aligned and --closer: off)
                **({"aligned": True} if args.aligned else {}),
                **({"closer": args.closer} if args.closer else {})}
    print(f"load average at start: {os.getloadavg()}", flush=True)
    pairs: list[Pair] = []
    if args.out and args.out.exists() and args.out.stat().st_size:
        if not args.resume:
            p.error(f"{args.out} holds a run already: --resume carries it on; another "
                    "file starts a new one")
        pairs = read_run(args.out, settings, p)
    done = {p.index for p in pairs}
    start = time.perf_counter()
    fresh = 0
    try:
        for index in range(args.games):
            if index in done or index % shards != shard:
                continue
            pair = next(compare_levels(
                _level(args.a, worlds, args.budget, clear, args.kept, args.aligned, args.closer),
                _level(args.b, worlds, args.budget, clear, args.kept, args.aligned, args.closer),
                1, seed=args.seed, players=args.players, start=index))
            pairs.append(pair)
            fresh += 1
            if args.out:
                with args.out.open("a") as f:
                    f.write(json.dumps({"index": pair.index, "seed": pair.seed,
                                        "seat": pair.seat, "a": pair.a, "b": pair.b,
                                        **settings}) + "\n")
            spent = time.perf_counter() - start
            print(f"\r{len(pairs)}/{args.games} deals, {spent / fresh:.1f} s a deal, "
                  f"A−B so far {sum(x.a - x.b for x in pairs) / len(pairs):+.1f}",
                  end="", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print("\nstopped early", file=sys.stderr)
    print(file=sys.stderr)
    if args.games:  # the figures of this run's deals (a longer run's file may hold more)
        pairs = [x for x in pairs if x.index < args.games]
    pairs = [x for x in pairs if x.index >= args.since]
    if not pairs:
        p.error("no deals to count: --games 0 with no --out file to resume, or none "
                "from --since on")
    summary = level_difference(sorted(pairs, key=lambda x: x.index))
    a, b, diff = summary["a"], summary["b"], summary["b_minus_a"]
    since = f" (deals {args.since} on)" if args.since else ""
    print(f"{summary['games']} paired games{since}, {args.players} players, seed {args.seed}, "
          f"strong worlds {worlds}, clear {clear[0]:g} SE and {clear[1]:g} points, "
          f"budget {args.budget}, kept {args.kept}, aligned {args.aligned}, closer "
          f"{args.closer}")
    print(f"level A {args.a}: {a} points per game")
    print(f"level B {args.b}: {b} points per game")
    print(f"B − A: {diff} points per game (95 % interval; > 0: A is stronger)")
    base = b.value  # type: ignore[attr-defined]
    if base:
        print(f"A's points are {diff.value / base:.1%} lower than B's (interval "  # type: ignore[attr-defined]
              f"{diff.low / base:.1%} to {diff.high / base:.1%}, relative to B's mean)")  # type: ignore[attr-defined]
    if args.compare:
        compare(pairs, args.compare, settings, p)
    print(f"load average at end: {os.getloadavg()}")


def read_run(path: Path, settings: dict[str, object],
             parser: argparse.ArgumentParser) -> list[Pair]:
    """The deals of the run kept in `path`, which must have been played with
    `settings`."""
    pairs, theirs = read_pairs(path, parser)
    differ = sorted(k for k in {*settings, *theirs} if theirs.get(k) != settings.get(k))
    if differ:
        said = "; ".join(f"{k}: the file's {theirs.get(k)!r}, this run's {settings.get(k)!r}"
                         for k in differ)
        parser.error(f"{path} was made with other settings ({said}): carry it on with "
                     "its own, or write to another file")
    return pairs


def read_pairs(path: Path, parser: argparse.ArgumentParser
               ) -> tuple[list[Pair], dict[str, object]]:
    """The deals kept in `path` and the settings they were played with: every line must
    have them, and the same ones (one file holds one run)."""
    pairs: list[Pair] = []
    settings: dict[str, object] | None = None
    for number, line in enumerate(path.read_text().splitlines(), 1):
        try:
            d = json.loads(line)
            pair = Pair(d["index"], d["seed"], d["seat"], d["a"], d["b"])
        except (ValueError, KeyError, TypeError) as err:
            parser.error(f"{path}, line {number}: not a deal of this benchmark ({err})")
        these = {k: v for k, v in d.items() if k not in ("index", "seed", "seat", "a", "b")}
        if not these:
            parser.error(f"{path}, line {number}: a deal without the run's settings (a "
                         "file of before they were kept): add them to every line first")
        if settings is not None and these != settings:
            parser.error(f"{path}, line {number}: another run's settings ({these}, not "
                         f"{settings}): one file holds one run")
        settings = these
        pairs.append(pair)
    if settings is None:
        parser.error(f"{path} holds no deals")
    return pairs, settings


def compare(pairs: list[Pair], other: Path, settings: dict[str, object],
            parser: argparse.ArgumentParser) -> None:
    """This run's level A against `other`'s, on the deals both played (the same seed and
    players: the same deals, and level B's totals must be the same deal by deal)."""
    theirs, their_settings = read_pairs(other, parser)
    for key in ("run_seed", "players"):
        if their_settings.get(key) != settings[key]:
            parser.error(f"{other} was played with {key} {their_settings.get(key)!r}, "
                         f"this run with {settings[key]!r}: not the same deals")
    by_index = {x.index: x for x in theirs}
    both = [(x, by_index[x.index]) for x in sorted(pairs, key=lambda x: x.index)
            if x.index in by_index]
    if not both:
        parser.error(f"{other} has none of this run's deals")
    unlike = [x.index for x, y in both if (x.seed, x.seat, x.b) != (y.seed, y.seat, y.b)]
    if unlike:
        parser.error(f"{other}'s deals {unlike[:5]} differ from this run's (seed, seat or "
                     "level B's points): not the same deals")
    mine = [float(x.a) for x, _y in both]
    yours = [float(y.a) for _x, y in both]
    diff = paired_ci(yours, mine)  # this run's A − the other's A, deal by deal
    base = statistics.fmean(float(x.b) for x, _y in both)
    print(f"on the {len(both)} deals both runs played: this run's A {statistics.fmean(mine):.1f}"
          f", {other.name}'s A {statistics.fmean(yours):.1f}, B {base:.1f} points per game")
    print(f"this run's A − {other.name}'s A: {diff} points per game (95 % interval; < 0: "
          f"this run's A scored fewer) = {diff.value / base:+.1%} of B's points "
          f"({diff.low / base:+.1%} to {diff.high / base:+.1%})")


if __name__ == "__main__":
    main()
