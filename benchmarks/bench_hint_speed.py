"""How long does a page's hint take, this tree against a baseline checkout, interleaved?

Positions: decisions of seat 0 that the strong bot weighs (a real choice: take or draw,
buy or pass, which card to discard), in heuristic games of `--players` players (game
seeds 0..`--games`-1, played through with a turn limit of 200), `--per-round` of them in
each of rounds 1–11, spread over the round. At each, the page's hint is asked
(`coach.hint.hint` with `widgets.coach_view.HINT_WORLDS` and `HINT_PRICE`: a budget of
worlds and played-out moves, no clock), once by this tree and once by the baseline, in
turn (which goes first alternates), each in a worker process of its own that stays up
the whole run, so both see the same load. Printed: per tree the total and median wall
and CPU seconds a hint, the ratio of the totals (baseline / this tree), whether every
hint was the same (move, reason, every figure), and the load average before and after.

The baseline is another checkout of the kit (say `git worktree add /tmp/old main`, built
the same way: compiled with `tools/compile_engine.py`, or run with TOONERVILLE_PURE=1
for both). `--positions` alone lists the positions; `--profile FILE` writes a cProfile
of this tree's hints instead of comparing.

    python benchmarks/bench_hint_speed.py --baseline /tmp/old
    TOONERVILLE_PURE=1 python benchmarks/bench_hint_speed.py --baseline /tmp/old --games 1
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def positions(games: int, per_round: int, players: int) -> list[tuple[int, int]]:
    """(game seed, moves) of the positions, `per_round` a round spread over the games."""
    from toonerville.coach.strong import StrongBot
    from toonerville.players.bots import HeuristicBot
    from toonerville.players.simulate import play_game

    strong, heuristic = StrongBot(), HeuristicBot()
    found: dict[int, list[tuple[int, int]]] = {}
    for seed in range(games):
        game = play_game(("heuristic",) * players, seed=seed, turn_limit=200)
        for k in range(game.moves_made):
            pos = game.position_at(k)
            if 0 not in pos.deciders:
                continue
            view, legal = pos.view(0), partial(pos.legal_actions, 0)
            action, _ = heuristic.explain(view, pos.rules, legal)
            if len(strong._options(view, pos.rules, action, legal)) >= 2:
                found.setdefault(pos.round_number, []).append((seed, k))
    out = []
    for _r, ks in sorted(found.items()):
        step = max(1, len(ks) // per_round)
        out += ks[::step][:per_round]
    return out


def worker(players: int) -> None:
    """Answer position after position ("seed moves" a line) with one JSON line: the
    hint's wall and CPU seconds and its text."""
    from toonerville.coach.hint import hint
    from toonerville.engine.game import Game
    from toonerville.players.simulate import play_game
    from toonerville.widgets.coach_view import HINT_PRICE, HINT_WORLDS

    games: dict[int, Game] = {}
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        seed, k = map(int, line.split())
        if seed not in games:
            games[seed] = play_game(("heuristic",) * players, seed=seed, turn_limit=200)
        game = games[seed].position_at(k)
        start, start_cpu = time.perf_counter(), time.process_time()
        found = hint(game, 0, worlds=HINT_WORLDS, time_budget=None, price=HINT_PRICE)
        wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        print(json.dumps({"wall": wall, "cpu": cpu, "hint": repr(found)}), flush=True)


def _start(tree: Path, players: int) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--worker",
                             "--players", str(players)], cwd=tree, env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdout is not None
    json.loads(proc.stdout.readline())
    return proc


def _ask(proc: subprocess.Popen[str], seed: int, k: int) -> dict[str, Any]:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(f"{seed} {k}\n")
    proc.stdin.flush()
    answer: dict[str, Any] = json.loads(proc.stdout.readline())
    return answer


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--baseline", type=Path, help="a checkout of the kit to compare with")
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--per-round", type=int, default=2)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--positions", action="store_true", help="list the positions only")
    p.add_argument("--profile", type=Path, help="cProfile this tree's hints into FILE")
    args = p.parse_args()
    if args.worker:
        worker(args.players)
        return
    sys.path.insert(0, str(ROOT))
    chosen = positions(args.games, args.per_round, args.players)
    if args.positions:
        print(chosen)
        return
    if args.profile is not None:
        import cProfile

        from toonerville.coach.hint import hint
        from toonerville.players.simulate import play_game
        from toonerville.widgets.coach_view import HINT_PRICE, HINT_WORLDS

        played = {s: play_game(("heuristic",) * args.players, seed=s, turn_limit=200)
                  for s in range(args.games)}
        todo = [played[s].position_at(k) for s, k in chosen]
        with cProfile.Profile() as prof:
            for game in todo:
                hint(game, 0, worlds=HINT_WORLDS, time_budget=None, price=HINT_PRICE)
        prof.dump_stats(args.profile)
        return
    if args.baseline is None:
        p.error("--baseline (or --positions, --profile) is needed")
    print(f"{len(chosen)} positions; load average at start: "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    trees = {"baseline": args.baseline.resolve(), "this tree": ROOT}
    procs = {name: _start(tree, args.players) for name, tree in trees.items()}
    got: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
    differ = 0
    for i, (seed, k) in enumerate(chosen):
        order = list(trees) if i % 2 else list(reversed(trees))
        answers = {name: _ask(procs[name], seed, k) for name in order}
        for name in trees:
            got[name].append(answers[name])
        differ += answers["baseline"]["hint"] != answers["this tree"]["hint"]
    for proc in procs.values():
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
    for name in trees:
        wall = [float(x["wall"]) for x in got[name]]
        cpu = [float(x["cpu"]) for x in got[name]]
        print(f"{name:10} wall total {sum(wall):7.2f} s median {statistics.median(wall):.3f}"
              f" s max {max(wall):.3f} s | CPU total {sum(cpu):7.2f} s median "
              f"{statistics.median(cpu):.3f} s max {max(cpu):.3f} s")
    ratio = {kind: sum(float(x[kind]) for x in got["baseline"])
             / sum(float(x[kind]) for x in got["this tree"]) for kind in ("wall", "cpu")}
    print(f"baseline / this tree: wall {ratio['wall']:.3f}, CPU {ratio['cpu']:.3f}")
    print(f"hints that differ: {differ} of {len(chosen)}")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
