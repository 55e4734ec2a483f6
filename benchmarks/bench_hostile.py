"""What a careless or hostile visitor's input costs the engine (issue 18, items 3 and 5).

Run from the repository root (nice: the games take minutes on a shared machine):

    nice python benchmarks/bench_hostile.py                 # saves, then 2,000 H7 games
    nice python benchmarks/bench_hostile.py --games 100     # a quick look
    nice python benchmarks/bench_hostile.py --games 0       # the saves only

1. The crafted save: a quote followed by escaped quotes (`"\\"\\"\\"…`), one text in
   quotes that never ends, at 64, 128 and 256 KiB (the last just under the upload limit),
   loaded with `Game.from_json` (each the fastest of `--repeat` runs, wall clock); and
   the sentence it is refused with. Before the fix the nesting check read it in time
   growing with its square: 11 s at 64 KB, 45-50 s at 128 KB, 463 s at 256 KiB.
2. `legal_actions` under H7 (melds beyond the contract): `--games` seeded bot games
   (game i: seed `game_seed(--seed, i)`, 3 to 5 players, every other game random bots
   only, whose hands grow large with buys, the others heuristic and random mixed), every
   call of `Game.legal_actions` timed (wall and the thread's CPU clock). It prints the
   slowest calls by each clock with their round and hand size, the slowest in round 11
   (by CPU), the slowest by the wall timed again from their positions, how many calls
   took over 10 ms (wall), and how many whole-hand walks stopped at the H7 step limit
   (`solver.partition.EXTRA_MELDS_STEPS`). Before the fix 6 of 1,996 games ran past 60 s,
   all under H7 (a 91-card hand: 209 s).

The load average is printed at the start and the end: on a busy machine the wall clock
of one process is inflated (the CPU clock much less). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from toonerville.engine.errors import SaveFileError  # noqa: E402
from toonerville.engine.game import Game  # noqa: E402
from toonerville.engine.rules import Rules  # noqa: E402
from toonerville.engine.solver import partition  # noqa: E402
from toonerville.players.simulate import game_seed, play_game  # noqa: E402


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} ({os.cpu_count()} cores)"


def crafted(size: int) -> str:
    return '"' + '\\"' * ((size - 1) // 2)


def saves(repeat: int) -> None:
    print("1. the crafted save (a quote, then escaped quotes), Game.from_json:")
    for kib in (64, 128, 256):
        text = crafted(kib * 1024 - 1)
        best = float("inf")
        why = ""
        for _ in range(repeat):
            start = time.perf_counter()
            try:
                Game.from_json(text)
                why = "LOADED (unexpected)"
            except SaveFileError as err:
                why = str(err)
            best = min(best, time.perf_counter() - start)
        print(f"   {kib:3} KiB ({len(text):,} characters): {best * 1000:8.2f} ms")
    print(f"   refused with: {why}")


class Timed:
    """`Game.legal_actions`, timed at every call (installed by this script only)."""

    def __init__(self) -> None:
        self.calls = 0
        self.over_10ms = 0
        self.slowest: list[tuple[float, float, int, int, int, int]] = []  # wall, cpu, ...
        self.slowest_cpu: list[tuple[float, float, int, int, int, int]] = []
        # the position of each of the slowest calls by the wall, to time it again
        self.again: dict[tuple[float, float, int, int, int, int], tuple[str, int | None]] = {}
        self.slowest_11: tuple[float, float, int, int] | None = None
        self.game = 0
        self.original = Game.legal_actions

    def install(self) -> None:
        timed = self

        def legal_actions(game: Game, seat: int | None = None) -> list[object]:
            w0, c0 = time.perf_counter(), time.thread_time()
            out = timed.original(game, seat)
            wall, cpu = time.perf_counter() - w0, time.thread_time() - c0
            timed.note(game, seat, wall, cpu)
            return out  # type: ignore[return-value]

        Game.legal_actions = legal_actions  # type: ignore[assignment, method-assign]

    def note(self, game: Game, seat: int | None, wall: float, cpu: float) -> None:
        self.calls += 1
        if wall > 0.010:
            self.over_10ms += 1
        who = game.current if seat is None else seat
        size = len(game.hand(who))
        row = (wall, cpu, self.game, game.round_number, size, game.players)
        if len(self.slowest) < 5 or wall > self.slowest[-1][0] or \
                cpu > self.slowest_cpu[-1][1]:
            self.again[row] = (game.to_json(indent=None), seat)
        self.slowest.append(row)
        self.slowest.sort(reverse=True)
        del self.slowest[5:]
        self.slowest_cpu.append(row)
        self.slowest_cpu.sort(key=lambda r: r[1], reverse=True)
        del self.slowest_cpu[5:]
        for gone in set(self.again) - set(self.slowest) - set(self.slowest_cpu):
            del self.again[gone]
        if game.round_number == 11 and (self.slowest_11 is None or cpu > self.slowest_11[1]):
            self.slowest_11 = (wall, cpu, self.game, size)


class Walks:
    """Counts the whole-hand / best-lay-down walks and those cut at the H7 step limit."""

    def __init__(self) -> None:
        self.walks = self.cut = 0
        self.original = partition._search

    def install(self) -> None:
        walks = self

        def search(*args: object, **kwargs: object) -> partition._Partition | None:
            found = walks.original(*args, **kwargs)  # type: ignore[arg-type]
            if found is not None:
                walks.walks += 1
                walks.cut += found.cut_short
            return found

        partition._search = search  # type: ignore[assignment]


def games(count: int, seed: int) -> None:
    print(f"2. legal_actions under H7 (extra melds) over {count:,} seeded bot games "
          f"(step limit {partition.EXTRA_MELDS_STEPS:,}):", flush=True)
    timed, walks = Timed(), Walks()
    timed.install()
    walks.install()
    rules = Rules(extra_melds=True)
    start = time.perf_counter()
    for i in range(count):
        timed.game = i
        players = 3 + i % 3
        bots = ["random"] * players if i % 2 == 0 else \
            ["heuristic" if s % 2 else "random" for s in range(players)]
        play_game(bots, game_seed(seed, i), rules)
        if (i + 1) % 50 == 0 or i + 1 == count:
            wall, cpu, game, rnd, size, _ = timed.slowest_cpu[0]
            print(f"   {i + 1:5} games, {time.perf_counter() - start:7.0f} s; slowest so far "
                  f"{cpu * 1000:.1f} ms cpu / {wall * 1000:.1f} ms wall (game {game}, round "
                  f"{rnd}, {size} cards), by the wall {timed.slowest[0][0] * 1000:.1f} ms; "
                  f"{load()}", flush=True)
    print(f"   {timed.calls:,} calls; over 10 ms: {timed.over_10ms}; walks "
          f"{walks.walks:,}, stopped at the step limit: {walks.cut}")
    for title, rows in (("by the thread's CPU clock", timed.slowest_cpu),
                        ("by the wall clock", timed.slowest)):
        print(f"   slowest calls {title} (wall ms / cpu ms, game, round, cards in hand, "
              "players):")
        for wall, cpu, game, rnd, size, players in rows:
            print(f"     {wall * 1000:8.2f} / {cpu * 1000:8.2f}  game {game:5}  round {rnd:2}  "
                  f"{size:3} cards  {players} players")
    print("   the slowest by either clock, timed again from their positions (the fastest of "
          "3, wall ms / cpu ms): a busy machine pauses a process, and the first time counts "
          "that pause")
    for row in sorted(set(timed.slowest) | set(timed.slowest_cpu), reverse=True):
        text, seat = timed.again[row]
        game = Game.from_json(text)
        best = (float("inf"), float("inf"))
        for _ in range(3):
            w0, c0 = time.perf_counter(), time.thread_time()
            timed.original(game, seat)
            best = min(best, (time.perf_counter() - w0, time.thread_time() - c0))
        print(f"     {row[0] * 1000:8.2f} -> {best[0] * 1000:8.2f} / {best[1] * 1000:8.2f}  "
              f"game {row[2]:5}  round {row[3]:2}  {row[4]:3} cards")
    if timed.slowest_11 is not None:
        wall, cpu, game, size = timed.slowest_11
        print(f"   slowest in round 11: {wall * 1000:.2f} ms wall / {cpu * 1000:.2f} ms cpu "
              f"(game {game}, {size} cards)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(load(), flush=True)
    saves(args.repeat)
    if args.games:
        games(args.games, args.seed)
    print(load())


if __name__ == "__main__":
    main()
