"""What a learner's clicks on their buy-offer setting cost every later poll (issue 27).

Two shared tables of three learners in one database (SQLite by default): at the
"toggled" table one learner switches their buy-offer setting `--toggles` times (5,000 by
default: about 150 s of widget messages), at the "quiet" table nobody does. Then a
learner's page polls each table in turn, Q T Q T … (`TableStore.play_bots` and the seat's
`refresh`, what the page's timer does when nothing happens): the quiet table is the
baseline measured in the same run, interleaved. Prints per-poll milliseconds (median,
90th percentile) of each, their ratio, the rows the toggles left in the database, the
seconds the toggles took, and the load average.

    python benchmarks/bench_seat_log.py [--toggles 5000] [--polls 300]
    python benchmarks/bench_seat_log.py --where postgresql://…
    python benchmarks/bench_seat_log.py --tree /path/to/an/older/checkout --toggles 4998

(`--tree`: measure another checkout's store; before issue 27 the log refused entries past
5,000, so give an older tree at most 4,998 toggles.)
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--toggles", type=int, default=5_000)
    parser.add_argument("--polls", type=int, default=300)
    parser.add_argument("--where", default=None, help="a postgresql:// URL (default: a "
                        "fresh SQLite file)")
    parser.add_argument("--tree", default=str(Path(__file__).resolve().parent.parent),
                        help="the checkout whose store is measured (default: this one)")
    args = parser.parse_args()
    sys.path.insert(0, args.tree)
    from toonerville.store import open_store

    with tempfile.TemporaryDirectory() as folder:
        where = args.where or str(Path(folder) / "bench.sqlite")
        opener = open_store(where)
        tables = {}
        for name in ("quiet", "toggled"):
            code = opener.open_table(3, seed=5, names=["Ann", "Bo", "Cy"])
            pages = [open_store(where) for _ in range(3)]
            seats = [page.claim(code) for page in pages]
            tables[name] = (code, pages[0], seats[0])
        code, page, seat = tables["toggled"]
        rows_before = _rows(page, code)
        started = time.perf_counter()
        for k in range(args.toggles):
            seat.set_buy_offers(("always", "never")[k % 2])
        toggling = time.perf_counter() - started
        rows_after = _rows(page, code)
        times: dict[str, list[float]] = {"quiet": [], "toggled": []}
        for _ in range(args.polls):
            for name in ("quiet", "toggled"):
                code, page, seat = tables[name]
                t0 = time.perf_counter()
                page.play_bots(code)
                seat.refresh()
                times[name].append((time.perf_counter() - t0) * 1000)
    print(f"store of {args.tree}, {'PostgreSQL' if args.where else 'SQLite'}; "
          f"{args.toggles} toggles took {toggling:.1f} s")
    print(f"rows of the toggled table's seat log and settings: {rows_before} before, "
          f"{rows_after} after")
    for name, got in times.items():
        cuts = statistics.quantiles(got, n=10)
        print(f"poll, {name:7}: median {statistics.median(got):7.2f} ms, "
              f"p90 {cuts[-1]:7.2f} ms ({len(got)} polls)")
    ratio = statistics.median(times["toggled"]) / statistics.median(times["quiet"])
    print(f"toggled / quiet: {ratio:.2f}x")
    print("load average: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


def _rows(store: object, code: str) -> int:
    """The rows a table's seat log and settings hold (every scope `<code>~…`)."""
    backend = store.backend  # type: ignore[attr-defined]
    total = 0
    for suffix in ("~seats", "~settings"):
        total += len(backend.claims(code + suffix)) + len(backend.seat_names(code + suffix))
    chunk = 1
    while rows := backend.claims(f"{code}~seats~{chunk}"):
        total += len(rows)
        chunk += 1
    return total


if __name__ == "__main__":
    main()
