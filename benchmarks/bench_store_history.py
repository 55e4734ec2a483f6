"""What the history check of a shared table's moves costs per move (issue 27).

A move is stored only onto the history it was computed from: each move row carries the
BLAKE2b digest of the history up to it, and `Backend.append` compares the last row's
digest, where the code before compared only the number of moves. Measured, interleaved
round by round in one run so the machine's load falls on all alike:

1. the database primitive: N moves appended to a table, per move, by `append` with the
   history check (`SQLiteBackend.append`, alone and behind `RetryingBackend`, plus the
   client's `chained` digest of each move) against the count-only append of the code
   before (main's `append`, its statements written out below: the baseline);
2. the store as pages use it: a table of three bots played to the end of round 1
   through `TableStore.play_bots`, and a fresh store replaying it (a page opening the
   table), per move, by this checkout against a copy of the code it started from
   (`git archive` of `--baseline`, by default where this branch left `main`), each in
   its own process, in turn, one seed per round; both run the pure engine;
3. the digest itself (`chained`), per move.

The load average is printed beside the figures.

    python benchmarks/bench_store_history.py                  # SQLite
    python benchmarks/bench_store_history.py --where postgresql://…   # and PostgreSQL
    python benchmarks/bench_store_history.py --rounds 3 --moves 200 --no-store
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from toonerville.store import RetryingBackend, SQLiteBackend  # noqa: E402
from toonerville.store.backend import Backend, chained, first_digest  # noqa: E402

# -- the baseline: main's count-only append, as its backends ran it -------------------------
LAST_MOVE = "SELECT COALESCE(MAX(number), 0) FROM moves WHERE code = ?"
INSERT_MOVE = "INSERT INTO moves (code, number, move) VALUES (?, ?, ?)"
INSERT_MOVE_IF_LAST = (
    "INSERT INTO moves (code, number, move) SELECT ?, ?, ? WHERE "
    "(SELECT COALESCE(MAX(number), 0) FROM moves WHERE code = ?) = ?")


def count_only_sqlite(backend: SQLiteBackend) -> Callable[[str, int, str], bool]:
    """main's `SQLiteBackend.append`: the write lock, the last number, the insert."""
    def append(code: str, number: int, move: str) -> bool:
        con = backend._con()
        con.execute("BEGIN IMMEDIATE")
        (last,) = con.execute(LAST_MOVE, (code,)).fetchone()
        if last != number - 1:
            con.execute("ROLLBACK")
            return False
        con.execute(INSERT_MOVE, (code, number, move))
        con.execute("COMMIT")
        return True
    return append


def count_only_postgres(backend: Any) -> Callable[[str, int, str], bool]:
    """main's `PostgresBackend.append`: one INSERT … SELECT … WHERE on the count."""
    text = INSERT_MOVE_IF_LAST.replace("?", "%s")

    def append(code: str, number: int, move: str) -> bool:
        cur = backend._con().execute(text, (code, number, move, code, number - 1))
        return bool(cur.rowcount == 1)
    return append


# -- 1. the primitive ------------------------------------------------------------------------
def with_history(backend: Backend) -> Callable[[str, int, str], bool]:
    """This checkout's append, with the client's digest of each move, as `_store` does."""
    state = {"code": "", "history": ""}

    def append(code: str, number: int, move: str) -> bool:
        if state["code"] != code:
            state["code"], state["history"] = code, first_digest(code, "{}")
        done = backend.append(code, number, move, state["history"])
        state["history"] = chained(state["history"], move)
        return done
    return append


def primitive(name: str, variants: dict[str, Callable[[str, int, str], bool]],
              rounds: int, moves: int) -> None:
    """Per move: wall time, and this process's CPU time (all of SQLite's work; for
    PostgreSQL only the client's, the server's is in the wall time)."""
    wall: dict[str, list[float]] = {k: [] for k in variants}
    cpu: dict[str, list[float]] = {k: [] for k in variants}
    texts = [f"{k % 3}: discard R{k % 13 + 1}" for k in range(moves)]
    order = list(variants.items())
    for r in range(rounds):  # interleaved, each round starting with the next variant
        for k, (label, append) in enumerate(order[r % len(order):] + order[:r % len(order)]):
            code = f"B{os.getpid() % 1000:03d}{r:02d}V{k}"
            start, start_cpu = time.perf_counter(), time.process_time()
            for number, move in enumerate(texts, start=1):
                if not append(code, number, move):
                    raise SystemExit(f"{label}: move {number} was refused")
            cpu[label].append((time.process_time() - start_cpu) / moves * 1e6)
            wall[label].append((time.perf_counter() - start) / moves * 1e6)
    print(f"\n{name}: append {moves} moves, {rounds} rounds interleaved "
          "(µs per move, median [min–max], difference and ratio to the baseline)")
    for clock, figures in (("wall", wall), ("CPU", cpu)):
        base = statistics.median(figures["count only (main)"])
        for label, values in figures.items():
            med = statistics.median(values)
            print(f"  {clock:4s} {label:34s} {med:8.1f}  [{min(values):.1f}–"
                  f"{max(values):.1f}]  {med - base:+7.1f} µs  ×{med / base:.2f}")


# -- 2. the store, this checkout against main ----------------------------------------------
STORE_RUN = r"""
import json, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from toonerville.store import open_store
with tempfile.TemporaryDirectory() as tmp:
    where = str(Path(tmp) / "t.sqlite")
    store = open_store(where)
    code = store.open_table(players=3, seed=int(sys.argv[2]), last_round=1,
                            bots={0: "heuristic", 1: "heuristic", 2: "heuristic"})
    start = time.process_time()
    while not store.finished(code):
        store.play_bots(code)
    played = time.process_time() - start
    moves = len(store.moves_since(code))
    page = open_store(where)
    start = time.process_time()
    page.moves_since(code)
    replayed = time.process_time() - start
    print(json.dumps({"moves": moves, "play": played, "replay": replayed}))
"""


def baseline_checkout(tmp: Path, ref: str | None) -> Path:
    """The store's code at `ref` (default: where this branch left main), unpacked."""
    if ref is None:
        ref = subprocess.run(["git", "-C", str(ROOT), "merge-base", "main", "HEAD"],
                             capture_output=True, text=True, check=True).stdout.strip()
    out = tmp / "baseline"
    out.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "toonerville"],
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive, check=True)
    return out


def store_level(rounds: int, ref: str | None) -> None:
    env = {**os.environ, "TOONERVILLE_PURE": "1"}
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"main": baseline_checkout(Path(tmp), ref), "this checkout": ROOT}
        play: dict[str, list[float]] = {k: [] for k in trees}
        replay: dict[str, list[float]] = {k: [] for k in trees}
        counts: dict[str, int] = {}
        for r in range(rounds):
            for label, tree in trees.items():
                done = subprocess.run([sys.executable, "-c", STORE_RUN, str(tree),
                                       str(50 + r)], capture_output=True, text=True,
                                      env=env, check=True)
                got = json.loads(done.stdout.strip().splitlines()[-1])
                play[label].append(got["play"] / got["moves"] * 1e6)
                replay[label].append(got["replay"] / got["moves"] * 1e6)
                counts[label] = counts.get(label, 0) + got["moves"]
    print(f"\nstore level (SQLite, pure engine, CPU time): a 3-bot table played to the end "
          f"of round 1 by play_bots, then replayed by a fresh store; {rounds} seeds, in "
          f"turn (µs per move, median [min–max]; moves: {counts})")
    for what, figures in (("play_bots", play), ("replay", replay)):
        base = statistics.median(figures["main"])
        for label, values in figures.items():
            med = statistics.median(values)
            print(f"  {what:10s} {label:14s} {med:9.1f}  [{min(values):.1f}–"
                  f"{max(values):.1f}]  {med - base:+8.1f} µs  ×{med / base:.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--where", default=None, help="a PostgreSQL URL, measured too")
    parser.add_argument("--no-store", action="store_true", help="skip part 2")
    parser.add_argument("--baseline", default=None,
                        help="the git ref part 2 compares with (default: merge-base of main)")
    args = parser.parse_args(argv)
    print(f"load average before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as tmp:
        sqlite = SQLiteBackend(Path(tmp) / "bench.sqlite")
        primitive("SQLite", {
            "count only (main)": count_only_sqlite(sqlite),
            "history check": with_history(sqlite),
            "history check + RetryingBackend": with_history(RetryingBackend(sqlite)),
        }, args.rounds, args.moves)
        sqlite.close()
    if args.where:
        from toonerville.store.postgres import PostgresBackend

        pg = PostgresBackend(args.where)
        primitive("PostgreSQL", {
            "count only (main)": count_only_postgres(pg),
            "history check": with_history(pg),
            "history check + RetryingBackend": with_history(RetryingBackend(pg)),
        }, args.rounds, args.moves)
        pg._run("DELETE FROM moves WHERE code LIKE ?", (f"B{os.getpid() % 1000:03d}%",))
        pg.close()
    if not args.no_store:
        store_level(args.rounds, args.baseline)
    digest = min(timeit.repeat(lambda: chained("0" * 32, "2: discard R7"), number=20000,
                               repeat=5)) / 20000 * 1e6
    print(f"\nchained() alone: {digest:.2f} µs per move")
    print(f"load average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
