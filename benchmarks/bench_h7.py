"""Issue 27: under H7 (melds beyond the contract), does the search answer exactly, and how
fast, on hands built to be hard? Main's solver (its walk cut short at 5,000 steps)
against this tree's (the same walk, then the exact sweep where it was cut short).

Run from the repository root:

    python benchmarks/bench_h7.py                 # 120 hands (a few minutes)
    python benchmarks/bench_h7.py --hands 30      # a quick look
    python benchmarks/bench_h7.py --ref main      # the git revision to compare with

The old solver is loaded from its sources (`solver_diff.load_reference`), so it always
runs as plain Python: compare like with like under TOONERVILLE_PURE=1 (the new solver's
compiled times, without it, are its times in the kit's real build).

The hands (seeded, `--seed`): each is built of melds (runs of 4-7 cards, sets of 3-5,
some cards turned into Rooks, at most 5 copies of a card and 5 Rooks: a five-player
shoe), 30 to 90 cards, mostly round 11, some round 10 (4 runs) and 9 (5 sets); a third
get one or two stray cards, so that the whole hand cannot go down and the best lay-down
leaves points. Every hand is asked `whole_hand` and `best_lay_down` under
`Rules(extra_melds=True)` by the old solver and the new one, interleaved (old, new per
call), each timed by the thread's CPU clock (a busy machine does not inflate it); the
answers are checked against the oracle: this tree's walk without the sweep and with a
limit of 500,000 steps in place of 5,000 (the search whose answers the limit used to
cut short); on a hand it does not finish even so, the sweep alone, from scratch. Printed: one line
per hand, the disagreements with the oracle, the median and worst time per call of
each solver, and the load average before and after.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

from solver_diff import load_reference  # noqa: E402

import toonerville.engine.solver as solver  # noqa: E402
from toonerville.engine.cards import NATURALS, ROOK, Card  # noqa: E402
from toonerville.engine.rules import Rules  # noqa: E402
from toonerville.engine.solver import partition  # noqa: E402
from toonerville.engine.solver.sweep import sweep  # noqa: E402
from toonerville.engine.solver.tally import NONE, book_for, tally  # noqa: E402

H7 = Rules(extra_melds=True)


def built(rng: random.Random, size: int, rooks: int) -> tuple[Card, ...]:
    """A hand of about `size` cards, all melds, `rooks` of its natural cards turned into
    Rooks; at most 5 copies of a card."""
    cards: list[Card] = []
    while len(cards) < size:
        if rng.random() < 0.55:
            colour, length = rng.randrange(4), rng.randint(4, 7)
            low = rng.randint(1, 15 - length)
            meld = [NATURALS[colour * 14 + low - 1 + i] for i in range(length)]
        else:
            number = rng.randint(1, 14)
            meld = [NATURALS[rng.randrange(4) * 14 + number - 1]
                    for _ in range(rng.randint(3, 5))]
        have = Counter(cards)
        if all(have[c] + meld.count(c) <= 5 for c in meld):
            cards += meld
    for i in rng.sample(range(len(cards)), rooks):
        cards[i] = ROOK
    return tuple(cards)


def hands(rng: random.Random, count: int) -> list[tuple[tuple[Card, ...], int]]:
    out = []
    for i in range(count):
        hand = list(built(rng, rng.randint(30, 90), rng.randint(0, 5)))
        if i % 3 == 2:  # stray cards: no whole-hand lay-down, points left
            for _ in range(rng.randint(1, 2)):
                card = rng.choice(NATURALS)
                if Counter(hand)[card] < 5:
                    hand.append(card)
        rng.shuffle(hand)
        out.append((tuple(hand), rng.choice((11, 11, 11, 11, 10, 9))))
    return out


#: the oracle's walk stops here (about a second of pure Python): without a limit it can
#: take minutes (issue 18); a hand it does not finish is answered by the sweep alone
WALK_STEPS = 500_000


def oracle(hand: tuple[Card, ...], round_number: int) -> tuple[bool, int | None, bool]:
    """Is there a whole-hand lay-down, and the fewest points a lay-down leaves: by this
    tree's walk without the sweep, given `WALK_STEPS` steps; when it does not finish,
    by the sweep from scratch (no bound from a walk). And whether the walk finished."""
    saved = partition.EXTRA_MELDS_STEPS
    partition.EXTRA_MELDS_STEPS = WALK_STEPS
    finish = partition._Partition.finish_exactly
    partition._Partition.finish_exactly = lambda self, *args: None  # type: ignore[method-assign]
    try:
        whole = partition._search(hand, round_number, H7, whole=True, keep=0)
        best = partition._search(hand, round_number, H7, whole=False, keep=0)
    finally:
        partition.EXTRA_MELDS_STEPS = saved
        partition._Partition.finish_exactly = finish  # type: ignore[method-assign]
    walked = not ((whole and whole.cut_short) or (best and best.cut_short))
    if walked:
        return (whole is not None and whole.found is not None,
                None if best is None or best.best is None else best.best.points, True)
    cnt, _, rooks, _ = tally(hand)
    contract, book = H7.contract(round_number), book_for(H7)
    swept_whole = sweep(cnt, rooks, contract, book, True, 0, NONE)
    swept_best = sweep(cnt, rooks, contract, book, False, 0, NONE)
    return swept_whole is not None, None if swept_best is None else swept_best.points, False


def timed(call: Callable[[], Any]) -> tuple[Any, float]:
    start = time.thread_time()
    answer = call()
    return answer, time.thread_time() - start


def summary(times: list[float]) -> str:
    return f"median {statistics.median(times) * 1e3:8.2f} ms, worst {max(times) * 1e3:8.1f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=120)
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--ref", default="main")
    args = parser.parse_args(argv)
    old = load_reference(args.ref)
    print(f"load average at the start: {os.getloadavg()}")
    print(f"build: {__import__('toonerville').BUILD}; old: {args.ref}'s solver, new: this tree's")
    times: dict[str, list[float]] = {"old": [], "new": []}
    unfinished = 0
    wrong = {"old": Counter[str](), "new": Counter[str]()}
    for number, (hand, round_number) in enumerate(hands(random.Random(args.seed), args.hands)):
        truth_whole, truth_best, walked = oracle(hand, round_number)
        unfinished += not walked
        said = []
        for name, module in (("old", old), ("new", solver)):  # interleaved, call by call
            whole, t1 = timed(lambda m=module, h=hand, r=round_number: m.whole_hand(h, r, H7))
            best, t2 = timed(lambda m=module, h=hand, r=round_number: m.best_lay_down(h, r, H7))
            times[name] += [t1, t2]
            points = None if best is None else best.points_left
            if (whole is not None) != truth_whole:
                wrong[name]["whole_hand"] += 1
            if points != truth_best:
                wrong[name]["best_lay_down"] += 1
            said.append(f"{name}: whole {'yes' if whole else 'no ':3} best {points!s:>4} "
                        f"({(t1 + t2) * 1e3:7.1f} ms)")
        rooks = hand.count(ROOK)
        print(f"{number:3} round {round_number:2} {len(hand):2} cards {rooks} Rooks | "
              f"{'oracle' if walked else 'sweep '}: "
              f"whole {'yes' if truth_whole else 'no ':3} best {truth_best!s:>4} | "
              + " | ".join(said))
        print("     " + " ".join(map(str, sorted(hand, key=lambda c: c.sort_key))))
    print()
    for name in ("old", "new"):
        print(f"{name}: disagreements with the oracle: whole_hand "
              f"{wrong[name]['whole_hand']}, best_lay_down {wrong[name]['best_lay_down']} "
              f"(of {args.hands} hands); per call {summary(times[name])}")
    print(f"the walk without a limit did not finish within {WALK_STEPS:,} steps on "
          f"{unfinished} hands: there the oracle is the sweep alone")
    print(f"load average at the end: {os.getloadavg()}")
    return 0 if not sum(wrong["new"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
