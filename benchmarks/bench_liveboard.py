"""The live board over the store: from a learner's answer to the projector's chart data.

No browser: each learner is a process of its own with its own `LiveBoardStore` (as each
learner's kernel is under Voila), and the projector is this process, reading the spread
(`LiveBoardStore.spread`, what the teacher's page draws its bars from) every `--every`
seconds. For each question the teacher asks, every learner answers once at a random
moment within `--spread` seconds (a class clicking); the figure is, per answer, the time
from the learner's call to `answer` to the first spread the projector reads that counts
it. The page itself polls every `widgets.liveboard.POLL_MS` (400 ms): a page shows an
answer up to that much later than the store has it.

Baseline, interleaved with the board question by question: the same learners append a
row to a plain table's move log (`Backend.append`, the store's one compare-and-append)
and the projector reads the log (`history_from`): the floor of any answer's trip through
this database. Also printed: how long a learner's `answer` call took, and one projector
read of the spread with every answer in. The load average is printed before and after.

    python benchmarks/bench_liveboard.py                 # 3 and 30 learners, SQLite
    python benchmarks/bench_liveboard.py --learners 30 --questions 5
    python benchmarks/bench_liveboard.py --store postgresql://…
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from toonerville.coach.positions import scenario_position  # noqa: E402
from toonerville.store import open_store  # noqa: E402
from toonerville.store.backend import TableRow, first_digest  # noqa: E402
from toonerville.store.classes import ClassStore  # noqa: E402
from toonerville.store.liveboard import LiveBoardStore, Source  # noqa: E402

RAW = "BENCH~raw"


def learner(where: str, klass: str, key: str, name: str, orders: Any, done: Any) -> None:
    """One learner's kernel: answers each question it is told of, after its delay."""
    board = LiveBoardStore(open_store(where).backend)
    backend = board.backend
    history: list[Any] = [0, first_digest(RAW, "{}")]
    while True:
        order = orders.get()
        if order is None:
            return
        kind, number, delay, answer = order
        time.sleep(delay)
        start = time.time()
        if kind == "board":
            board.answer(klass, key, number, answer)
        else:  # the baseline: one row appended to a plain move log, racing the others
            from toonerville.store.backend import chained

            text = json.dumps({"q": number, "name": name})
            while True:
                rows = backend.history_from(RAW, history[0] + 1)
                for n, move, _digest in rows:
                    history[:] = [n, chained(history[1], move)]
                if backend.append(RAW, history[0] + 1, text, history[1]):
                    history[:] = [history[0] + 1, chained(history[1], text)]
                    break
        done.put((kind, number, name, start, time.time()))


def measure(where: str, learners: int, questions: int, every: float, spread: float
            ) -> dict[str, Any]:
    store = open_store(where)
    classes = ClassStore(store.backend)
    opened = classes.open_class("Bench")
    board = LiveBoardStore(store.backend)
    board.open_board(opened.code, opened.teacher_key)
    store.backend.create_table(TableRow(RAW, "bench", "{}", "{}"))
    names = [f"L{k:02d}" for k in range(learners)]
    keys = [classes.join(opened.code, n) for n in names]
    game, seat = scenario_position("roundend")
    moves = [a.notation() for a in game.legal_actions(seat)]
    ctx = mp.get_context("fork")
    done = ctx.Queue()
    orders = [ctx.Queue() for _ in names]
    workers = [ctx.Process(target=learner, args=(where, opened.code, key, name, q, done))
               for key, name, q in zip(keys, names, orders, strict=True)]
    for w in workers:
        w.start()
    rng = random.Random(7)
    out: dict[str, list[float]] = {"board": [], "raw": [], "call": [], "read": []}
    raw_seen = 0
    for number in range(1, questions + 1):
        for kind in ("board", "raw"):  # interleaved: the board, then the baseline
            if kind == "board":
                board.ask(opened.code, opened.teacher_key, game.to_json(indent=None), seat,
                          Source("scenario", (("name", "roundend"),)), 600)
            for q in orders:
                q.put((kind, number, rng.uniform(0, spread), rng.choice(moves)))
            first: dict[str, float] = {}
            deadline = time.monotonic() + 120
            while len(first) < learners and time.monotonic() < deadline:
                if kind == "board":
                    before = time.perf_counter()
                    seen = board.spread(opened.code, number)
                    out["read"].append(time.perf_counter() - before)
                    now = time.time()
                    for name, _answer in seen.by_learner:
                        first.setdefault(name, now)
                else:
                    rows = store.backend.history_from(RAW, raw_seen + 1)
                    now = time.time()
                    for n, move, _d in rows:
                        raw_seen = n
                        first.setdefault(json.loads(move)["name"], now)
                time.sleep(every)
            sent = [done.get(timeout=120) for _ in names]
            for _kind, _n, name, start, end in sent:
                if name in first:
                    out[kind].append(first[name] - start)
                if kind == "board":
                    out["call"].append(end - start)
    for q in orders:
        q.put(None)
    for w in workers:
        w.join()
    read_all = time.perf_counter()
    board.spread(opened.code, questions)
    out["last_read"] = [time.perf_counter() - read_all]
    return out


def figures(values: list[float]) -> str:
    if not values:
        return "none"
    ms = sorted(v * 1000 for v in values)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return (f"p50 {statistics.median(ms):7.1f} ms  p95 {p95:7.1f} ms  max {ms[-1]:7.1f} ms"
            f"  (n={len(ms)})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, nargs="*", default=[3, 30])
    parser.add_argument("--questions", type=int, default=3)
    parser.add_argument("--every", type=float, default=0.01,
                        help="seconds between two reads of the projector (default 0.01)")
    parser.add_argument("--spread", type=float, default=1.0,
                        help="the learners answer within this many seconds (default 1)")
    parser.add_argument("--store", default=None,
                        help="a postgresql:// URL (default: an SQLite file made here)")
    args = parser.parse_args(argv)
    print(f"load average before: {os.getloadavg()}  (cores: {os.cpu_count()})")
    with tempfile.TemporaryDirectory() as folder:
        for count in args.learners:
            where = args.store or str(Path(folder) / f"board-{count}.sqlite")
            got = measure(where, count, args.questions, args.every, args.spread)
            kind = "PostgreSQL" if args.store else "SQLite"
            print(f"\n{count} learners, {args.questions} questions, {kind}, projector "
                  f"reads every {args.every * 1000:.0f} ms:")
            print(f"  answer -> projector's chart data  {figures(got['board'])}")
            print(f"  baseline: a row appended -> read  {figures(got['raw'])}")
            print(f"  a learner's answer call           {figures(got['call'])}")
            print(f"  one projector read of the spread  {figures(got['read'])}")
            print(f"  load average now: {os.getloadavg()}")
    print("\nA page polls every 400 ms (widgets.liveboard.POLL_MS): add up to that for "
          "the bars on the screen.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
