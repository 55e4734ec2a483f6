"""What keeping 07's game for a reload costs per move (issue 27).

After every change of the play session the page keeps its game in the class store
(`widgets.resume.GameKeeper.keep`: the save as JSON, compressed, one SQLite upsert with
the expiry). Measured on a game's positions of increasing length (moves 100, 500, …, the
whole game), interleaved with the baseline of the same run: the save alone
(`Game.to_json`), so the store's own share shows. Prints the median milliseconds of each
and the load average (`os.getloadavg()`), and the bytes one record takes.

    python benchmarks/bench_solo_keep.py [--players 4] [--repeat 30]
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from toonerville.engine.game import Game  # noqa: E402
from toonerville.players.table import Table  # noqa: E402
from toonerville.store.solo import SoloGames, new_key  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    whole = Game.new(players=args.players, seed=3)
    Table(whole, dict.fromkeys(range(args.players), "heuristic")).run()
    moves = [a.notation() for a in whole.actions]
    print(f"load average before: {os.getloadavg()}")
    print(f"{args.players} players, heuristic bots, {len(moves)} moves in the whole game")
    with tempfile.TemporaryDirectory() as folder:
        games = SoloGames(Path(folder) / "class.sqlite")
        key = new_key()
        for upto in (100, 500, 1000, len(moves)):
            game = Game.new(players=args.players, seed=3)
            for move in moves[:upto]:
                game.apply(move)
            save_ms, keep_ms = [], []
            for _ in range(args.repeat):  # interleaved: the baseline, then the keep
                start = time.perf_counter()
                text = game.to_json(indent=None)
                save_ms.append((time.perf_counter() - start) * 1000)
                start = time.perf_counter()
                games.keep(key, game.to_json(indent=None), '{"kind": "heuristic"}')
                keep_ms.append((time.perf_counter() - start) * 1000)
            (stored,) = sqlite3.connect(games.path).execute(
                "SELECT length(save) FROM solo_games").fetchone()
            print(f"move {upto:5}: save alone {statistics.median(save_ms):6.2f} ms, "
                  f"save + keep {statistics.median(keep_ms):6.2f} ms; "
                  f"save {len(text):6} chars, record {stored:5} bytes")
        games.close()
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
