"""How fast is the solver on the hands a game deals?

Run from the repository root:

    python benchmarks/bench_solver.py              # the full run (under a minute)
    python benchmarks/bench_solver.py --hands 300  # a quick look

For each round 1..11, each Rook count 0..5 and each hand size (the round's deal, and
the deal plus one: a hand after drawing) it deals seeded random hands — the Rooks exact,
the natural cards drawn from a 5-deck shoe without its Rooks — and times every
`find_contract` call with `time.perf_counter_ns` (and with the thread's CPU clock,
which a busy machine does not inflate). Then it times `whole_hand` on round 11 (14 and
15 cards), and `best_lay_down` in every round on hands of 13 to 17 cards (those of a
player who has bought cards: one row per round and Rook count, the sizes in equal
parts), and prints one verdict line per target and clock:

- `find_contract`, 0-3 Rooks: median <= 50 us and p99 <= 250 us in every row;
- `find_contract`, 4-5 Rooks: every call <= 1000 us;
- `whole_hand`, round 11: every call <= 1000 us (a goal, not a promise);
- `best_lay_down`, 13-17 cards: p99 <= 5000 us in every row (a goal, not a promise).

A wall-clock time over 1000 us is re-timed (three cold runs, the fastest kept): such a
time is often the process being paused by a busy machine. The exit status is 0 when
the three `find_contract` targets hold by the wall clock.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from toonerville.cards import NATURALS, ROOK, Card  # noqa: E402
from toonerville.rules import ROUNDS, Rules  # noqa: E402
from toonerville.solver import best_lay_down, find_contract, whole_hand  # noqa: E402
from toonerville.solver.contract import _colour_best, _colour_pair  # noqa: E402
from toonerville.solver.partition import _ONE_RUN  # noqa: E402

SHOE = NATURALS * 5  # a 5-deck shoe without its Rooks
RETIME = 1000.0  # us: a call slower than this by the wall clock is timed again
LAY_SIZES = range(13, 18)  # the hand sizes of the best_lay_down rows


def deal(rng: random.Random, size: int, rooks: int) -> tuple[Card, ...]:
    hand = rng.sample(SHOE, size - rooks) + [ROOK] * rooks
    rng.shuffle(hand)
    return tuple(hand)


def forget() -> None:
    """Empty the solver's caches of per-colour results, so that a call starts cold."""
    _colour_best.cache_clear()
    _colour_pair.cache_clear()
    _ONE_RUN.clear()


def time_calls(fn: Callable[[tuple[Card, ...]], object], hands: Sequence[tuple[Card, ...]]
               ) -> tuple[list[float], list[float], int]:
    """Microseconds per call by the wall clock and by this thread's CPU clock (which does
    not count time the process spent waiting for a busy machine), and how many calls
    found something. A call over RETIME us by the wall clock is timed again three times,
    each starting cold (caches emptied), and keeps the fastest: on a busy machine a
    process is often paused for milliseconds in the middle of a call, and that pause
    is the scheduler's time, not the solver's."""
    wall, cpu, met = [], [], 0
    clock, cpu_clock = time.perf_counter_ns, time.thread_time_ns
    for hand in hands:
        start_cpu = cpu_clock()
        start = clock()
        found = fn(hand)
        end = clock()
        end_cpu = cpu_clock()
        took = (end - start) / 1000
        if took > RETIME:
            for _ in range(3):
                forget()
                start = clock()
                fn(hand)
                took = min(took, (clock() - start) / 1000)
        wall.append(took)
        cpu.append((end_cpu - start_cpu) / 1000)
        met += found is not None
    return wall, cpu, met


def summary(times: list[float]) -> tuple[float, float, float]:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(round(0.99 * len(ordered))) - 1)]
    return statistics.median(ordered), p99, ordered[-1]


class Worst:
    """The worst figures over the rows of one target, by wall and by CPU clock."""

    def __init__(self) -> None:
        self.wall = [0.0, 0.0, 0.0]  # median, p99, max
        self.cpu = [0.0, 0.0, 0.0]

    def add(self, wall: tuple[float, float, float], cpu: tuple[float, float, float]) -> None:
        self.wall = [max(a, b) for a, b in zip(self.wall, wall, strict=True)]
        self.cpu = [max(a, b) for a, b in zip(self.cpu, cpu, strict=True)]


HEAD = (f"{'median':>8} {'p99':>8} {'max':>8} | {'cpu med':>8} {'cpu p99':>8} {'cpu max':>8}"
        f" {'meet':>6}")


def row(wall: list[float], cpu: list[float], met: int) -> tuple[str, tuple[float, float, float],
                                                                tuple[float, float, float]]:
    w, c = summary(wall), summary(cpu)
    text = (f"{w[0]:>8.1f} {w[1]:>8.1f} {w[2]:>8.1f} | {c[0]:>8.1f} {c[1]:>8.1f} {c[2]:>8.1f}"
            f" {met / len(wall):>6.1%}")
    return text, w, c


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per row")
    parser.add_argument("--lay-hands", type=int, default=None,
                        help="hands per best_lay_down row (default: a quarter of --hands)")
    parser.add_argument("--seed", type=int, default=20261129)
    args = parser.parse_args(argv)
    lay_hands = args.lay_hands or max(len(LAY_SIZES), args.hands // 4)
    rules = Rules()
    rng = random.Random(args.seed)
    began = time.perf_counter()
    gc.disable()  # a collection pause is not the solver's time
    # find_contract with 0-3 Rooks, with 4-5 Rooks; whole_hand; best_lay_down
    low, high, whole, lay = Worst(), Worst(), Worst(), Worst()
    print(f"find_contract: {args.hands} hands per row, seed {args.seed}, times in us "
          "(wall clock, then this thread's CPU clock)")
    print(f"{'round':>5} {'contract':<15} {'cards':>5} {'rooks':>5} " + HEAD)
    for round_number in range(1, ROUNDS + 1):
        contract = rules.contract(round_number)
        dealt = rules.deal_size(round_number)
        for size in (dealt, dealt + 1):
            for rooks in range(6):
                hands = [deal(rng, size, rooks) for _ in range(args.hands)]
                text, w, c = row(*time_calls(
                    lambda h, r=round_number: find_contract(h, r, rules), hands))
                (low if rooks <= 3 else high).add(w, c)
                print(f"{round_number:>5} {str(contract):<15} {size:>5} {rooks:>5} {text}")
    print()
    print(f"whole_hand, round {ROUNDS}: {args.hands} hands per row, times in us")
    print(f"{'cards':>5} {'rooks':>5} " + HEAD)
    for size in (rules.deal_size(ROUNDS), rules.deal_size(ROUNDS) + 1):
        for rooks in range(6):
            hands = [deal(rng, size, rooks) for _ in range(args.hands)]
            text, w, c = row(*time_calls(lambda h: whole_hand(h, ROUNDS, rules), hands))
            whole.add(w, c)
            print(f"{size:>5} {rooks:>5} {text}")
    print()
    print(f"best_lay_down, {LAY_SIZES[0]}-{LAY_SIZES[-1]} cards: {lay_hands} hands per row, "
          "times in us")
    print(f"{'round':>5} {'contract':<15} {'rooks':>5} " + HEAD)
    for round_number in range(1, ROUNDS + 1):
        contract = rules.contract(round_number)
        for rooks in range(6):
            hands = [deal(rng, LAY_SIZES[i * len(LAY_SIZES) // lay_hands], rooks)
                     for i in range(lay_hands)]
            text, w, c = row(*time_calls(
                lambda h, r=round_number: best_lay_down(h, r, rules), hands))
            lay.add(w, c)
            print(f"{round_number:>5} {str(contract):<15} {rooks:>5} {text}")
    gc.enable()
    print()
    ok = True
    for clock in ("wall", "cpu"):
        lo, hi, wh, la = (getattr(x, clock) for x in (low, high, whole, lay))
        verdicts = [
            ("find_contract 0-3 Rooks: median <= 50 us", lo[0] <= 50, lo[0]),
            ("find_contract 0-3 Rooks: p99 <= 250 us", lo[1] <= 250, lo[1]),
            ("find_contract 4-5 Rooks: max <= 1000 us", hi[2] <= 1000, hi[2]),
            ("whole_hand round 11: max <= 1000 us (goal)", wh[2] <= 1000, wh[2]),
            ("best_lay_down 13-17 cards: p99 <= 5000 us (goal)", la[1] <= 5000, la[1]),
        ]
        for text, passed, value in verdicts:
            print(f"{'PASS' if passed else 'FAIL'}  {clock:>4}: {text} (worst row: {value:.1f} us)")
        if clock == "wall":
            ok = all(passed for _, passed, _ in verdicts[:3])
    print(f"total time {time.perf_counter() - began:.1f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
