"""The class dashboard with 30 learners writing progress (issue 29, item 3).

A class of N learners (`ClassStore`, default 30) in one store (an SQLite file, or
PostgreSQL with `--where postgresql://…`), each with `--history` rows of progress
already (a class some lessons in), and N writer threads, each with a store of its own as
each learner's kernel has, recording a row every `--every` seconds on average (a page
opened, a Try-it, a hint, a review). The teacher's `ClassDashboard` polls the store
every `--poll` seconds, as its timer does in the page, and:

1. refresh: the seconds one poll takes (the one folded query, and the drawing when
   something changed), p50 / p90 / max, with the writers running and, interleaved in
   blocks of `--block` seconds, with the writers paused (the baseline of the same run);
2. update: the seconds from a probe learner's Try-it written to the dashboard's table
   showing its tick (the poll interval included: what a teacher waits), p50 / p90 / max;
3. the rows the query folded and the rows in the class.

The load average is printed beside the figures.

    python benchmarks/bench_dashboard.py
    python benchmarks/bench_dashboard.py --learners 30 --seconds 40 --where postgresql://…
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from toonerville.store import TableStore, open_store  # noqa: E402
from toonerville.store.classes import ClassStore  # noqa: E402
from toonerville.store.progress import (  # noqa: E402
    HINT_USED,
    LESSONS,
    PAGE_OPENED,
    REVIEW_OPENED,
    TRY_IT_DONE,
    TRY_ITS,
    ProgressStore,
    try_it,
)
from toonerville.widgets.dashboard import ClassDashboard  # noqa: E402

PAGES = ("01-deck-and-deal", "02-runs-and-sets", "03-contracts", "07-play-a-game")


def random_row(rng: random.Random) -> tuple[str, str, str]:
    """(kind, page, detail) of a plausible thing a learner does."""
    kind = rng.choice((PAGE_OPENED, TRY_IT_DONE, TRY_IT_DONE, HINT_USED, HINT_USED,
                       REVIEW_OPENED))
    page = rng.choice(PAGES)
    if kind == TRY_IT_DONE:
        lesson = rng.choice(LESSONS)
        return kind, page, try_it(lesson, rng.randint(1, TRY_ITS[lesson]))
    if kind == REVIEW_OPENED:
        return kind, "07-play-a-game", str(rng.randint(0, 40))
    return kind, page, ""


def stats(values: list[float]) -> str:
    if not values:
        return "no samples"
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (f"p50 {1000 * statistics.median(ordered):7.1f} ms  p90 {1000 * p90:7.1f} ms  "
            f"max {1000 * ordered[-1]:7.1f} ms  (n={len(ordered)})")


class Writers:
    """N learners' kernels, each writing a row every `every` s on average while on."""

    def __init__(self, where: str, code: str, keys: list[str], every: float) -> None:
        self.on = threading.Event()
        self.stop = threading.Event()
        self.written = 0
        self.failed = 0
        self._lock = threading.Lock()
        self.threads = [threading.Thread(target=self._run, args=(where, code, key, every, n),
                                         daemon=True) for n, key in enumerate(keys)]
        for thread in self.threads:
            thread.start()

    def _run(self, where: str, code: str, key: str, every: float, n: int) -> None:
        store = open_store(where)
        progress = ProgressStore(store.backend, ClassStore(store.backend))
        rng = random.Random(n)
        while not self.stop.is_set():
            if not self.on.wait(0.1):
                continue
            kind, page, detail = random_row(rng)
            try:
                progress.record(code, key, kind, page=page, detail=detail)
                with self._lock:
                    self.written += 1
            except Exception:
                with self._lock:
                    self.failed += 1
            self.stop.wait(rng.expovariate(1 / every))
        store.close()


class Probe:
    """The probe learner: a Try-it of its own at a random moment between the polls, the
    next one once the dashboard has shown the last."""

    def __init__(self, where: str, code: str, key: str) -> None:
        store = open_store(where)
        self.progress = ProgressStore(store.backend, ClassStore(store.backend))
        self.code, self.key = code, key
        self.item = 0
        self.written_at: float | None = None
        self.shown = threading.Event()
        self.stop = threading.Event()
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        rng = random.Random(1)
        while not self.stop.wait(rng.uniform(0.3, 1.7)):
            self.item += 1
            self.progress.record(self.code, self.key, TRY_IT_DONE, page="bench",
                                 detail=f"probe:{self.item}")
            self.written_at = time.monotonic()
            self.shown.clear()
            while not self.stop.is_set() and not self.shown.wait(0.05):
                pass

    def seen(self, done: frozenset[str]) -> float | None:
        """The seconds from the probe's last Try-it written to now, if `done` shows it
        for the first time."""
        at = self.written_at
        if at is None or self.shown.is_set() or f"probe:{self.item}" not in done:
            return None
        self.shown.set()
        return time.monotonic() - at


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--every", type=float, default=2.0,
                        help="mean seconds between two rows of one learner")
    parser.add_argument("--history", type=int, default=200,
                        help="rows each learner has before the run")
    parser.add_argument("--poll", type=float, default=1.0)
    parser.add_argument("--block", type=float, default=5.0)
    parser.add_argument("--where", default=None)
    args = parser.parse_args(argv)

    folder = tempfile.mkdtemp(prefix="bench-dashboard-")
    where = args.where or str(Path(folder) / "class.sqlite")
    tables: TableStore = open_store(where)
    classes = ClassStore(tables.backend)
    opened = classes.open_class("Benchmark class")
    keys = [classes.join(opened.code, f"Learner {n:02d}") for n in range(args.learners)]
    probe_key = keys[0]
    progress = ProgressStore(tables.backend, classes)
    rng = random.Random(0)
    for key in keys:  # a class some lessons in
        for _row in range(args.history):
            kind, page, detail = random_row(rng)
            progress.record(opened.code, key, kind, page=page, detail=detail)
    dash = ClassDashboard(opened.code, opened.teacher_key, board=progress.board,
                          tables=tables)
    writers = Writers(where, opened.code, keys[1:], args.every)
    probe = Probe(where, opened.code, probe_key)

    loaded: list[float] = []
    quiet: list[float] = []
    updates: list[float] = []
    started = time.monotonic()
    while time.monotonic() - started < args.seconds:
        block = int((time.monotonic() - started) // args.block)
        busy = block % 2 == 0
        (writers.on.set if busy else writers.on.clear)()
        tick = time.perf_counter()
        dash.poll()
        took = time.perf_counter() - tick
        (loaded if busy else quiet).append(took)
        shown = dash.shown
        if shown is not None:
            me = next(p for p in shown.learners if p.name == "Learner 00")
            seen = probe.seen(me.done)
            if seen is not None:
                updates.append(seen)
        time.sleep(max(0.0, args.poll - took))
    probe.stop.set()
    probe_item = probe.item
    writers.stop.set()
    writers.on.set()
    for thread in writers.threads:
        thread.join(5)
    rows = len(tables.backend.progress(opened.code))
    total = args.learners * args.history + writers.written + probe_item
    load = os.getloadavg()
    print(f"class dashboard, {args.learners} learners, "
          f"{'PostgreSQL' if where.startswith('postgres') else 'SQLite'}, "
          f"poll every {args.poll:g} s, {args.seconds:g} s")
    print(f"writers: {writers.written} rows written in the run "
          f"({writers.written / max(args.seconds / 2, 1e-9):.1f}/s while on), "
          f"{writers.failed} failed; rows in the class {total}, folded to {rows}")
    print(f"refresh, writers running : {stats(loaded)}")
    print(f"refresh, writers paused  : {stats(quiet)}  (baseline, interleaved)")
    if loaded and quiet:
        print(f"refresh ratio running/paused (p50): "
              f"{statistics.median(loaded) / statistics.median(quiet):.2f}")
    print(f"update, Try-it written to tick shown: {stats(updates)}")
    print(f"load average: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    tables.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
