"""Does the solver still give exactly the answers it gave before? A differential check.

Run from the repository root:

    python benchmarks/solver_diff.py record            # the reference: main's solver
    python benchmarks/solver_diff.py check             # this tree's solver against it
    python benchmarks/solver_diff.py time              # CPU time of both on the queries
    python benchmarks/solver_diff.py builds            # the compiled build against the pure

`record` loads the solver of a git revision (`--ref`, default `main`, read with `git
show` into a temporary package beside the engine, `toonerville._solver_ref`), plays
seeded heuristic-bot games (`--games` with the default rules, `--house-games` under each
of several house rules) with a recorder wrapped round `find_contract`, `best_lay_down`
and `whole_hand` where the engine's callers look them up, and notes every question play
asked (function, hand, round, rules, keep / at_most). It adds hands dealt at random for
every round and 0-5 Rooks (`--dealt` per round and rules), each asked of all four
functions (`shortfall` too). Every question is answered by the reference solver and
pickled with its answer (`--file`). `check` answers them again with this tree's
`toonerville.engine.solver` and compares the answers (melds, their order, the cards left,
None) by equality and by notation. `time` times both solvers on the recorded questions,
in the order play asked them, interleaved A B A B, by the thread's CPU clock.

`builds` compares the two builds of this tree (issue 21): the same script runs once with
the compiled engine and once with TOONERVILLE_PURE=1, each in a fresh process, and each
answers the same questions: the recorded ones of `--file` when it exists, and hands dealt
at random for every round under the default and the house rules (`--dealt`), asked of all
four functions; it plays `--games` seeded heuristic games and as many random-bot ones
under the house rules (every move's notation, the scores), and the golden playthroughs
of tests/golden (tools/golden.py). The answers must be equal one by one; each build's
CPU time for the solver's questions is printed beside them.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import pickle
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

import toonerville.engine.solver as solver  # noqa: E402
from toonerville.engine.cards import BY_INDEX, NATURALS, ROOK, Card  # noqa: E402
from toonerville.engine.rules import ROUNDS, Rules  # noqa: E402
from toonerville.players.simulate import play_game  # noqa: E402

NAMES = ("find_contract", "best_lay_down", "whole_hand", "shortfall")
FILES = ("__init__.py", "arrange.py", "contract.py", "partition.py", "tally.py")
HOUSE = (
    Rules(max_rooks_per_meld=1),
    Rules(max_rooks_per_meld=2, rooks_at_most_naturals=True),
    Rules(rooks_at_most_naturals=True),
    Rules(extra_melds=True, round11_deal=12),
    Rules(contiguous_runs=True),
    Rules(same_number_sets=True),
    Rules(same_number_sets=True, contiguous_runs=True, extra_melds=True),
    Rules(max_rooks_per_meld=0),
)
Query = tuple[str, int, tuple[Card, ...], Rules | None, dict[str, Any]]


def load_reference(ref: str) -> ModuleType:
    """The solver package of git revision `ref`, as `toonerville._solver_ref` (its
    relative imports then reach this tree's engine, which the solver only reads)."""
    where = tempfile.mkdtemp(prefix="solver_ref_")
    for name in FILES:
        text = subprocess.run(["git", "show", f"{ref}:toonerville/engine/solver/{name}"], cwd=ROOT,
                              check=True, capture_output=True, text=True).stdout
        with open(os.path.join(where, name), "w", encoding="utf-8") as f:
            f.write(text)
    return load_package("toonerville._solver_ref", where)


def load_package(name: str, where: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        name, os.path.join(where, "__init__.py"), submodule_search_locations=[where])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@contextmanager
def recording(into: list[Query]) -> Iterator[None]:
    """Wrap the solver's functions where the engine's callers (outside the solver) look
    them up, noting each call; undone on exit."""
    saved: list[tuple[ModuleType, str, Any]] = []
    for fname in NAMES[:3]:
        original = getattr(solver, fname)

        def recorded(hand: Any, round_number: int, rules: Rules | None = None,
                     _f: Callable[..., Any] = original, _n: str = fname, **kw: Any) -> Any:
            into.append((_n, round_number, tuple(hand) if not isinstance(hand, str)
                         else hand, rules, kw))
            return _f(hand, round_number, rules, **kw)

        for mname, module in list(sys.modules.items()):
            if (mname == "toonerville" or (mname.startswith("toonerville.")
                                           and not mname.startswith("toonerville.engine.solver")
                                           and not mname.startswith("toonerville._solver"))) \
                    and getattr(module, fname, None) is original:
                saved.append((module, fname, original))
                setattr(module, fname, recorded)
    try:
        yield
    finally:
        for module, fname, original in saved:
            setattr(module, fname, original)


def dealt(rng: random.Random, rules: Rules | None, per_round: int) -> list[Query]:
    """Hands dealt at random, each asked of every function."""
    shoe = NATURALS * 4
    out: list[Query] = []
    for r in range(1, ROUNDS + 1):
        for i in range(per_round):
            rooks = i % 6
            size = rng.randint(10, 17)
            hand = tuple(rng.sample(shoe, size - rooks)) + (ROOK,) * rooks
            hand = tuple(rng.sample(hand, len(hand)))
            out.append(("find_contract", r, hand, rules, {}))
            out.append(("shortfall", r, hand, rules, {}))
            out.append(("whole_hand", r, hand, rules, {}))
            out.append(("best_lay_down", r, hand, rules, {"keep": i % 3 and 1}))
            if i % 4 == 0:
                out.append(("best_lay_down", r, hand, rules, {"at_most": rng.randint(0, 60)}))
    return out


def answer(module: ModuleType, queries: list[Query]) -> list[Any]:
    """The answers: a `shortfall` message as its notation (messages do not pickle), an
    `Arrangement` as its melds and cards left (the two solvers have their own classes)."""
    out = [getattr(module, f)(hand, r, rules, **kw) for f, r, hand, rules, kw in queries]
    return [plain(q[0], a) for q, a in zip(queries, out, strict=True)]


def plain(fname: str, value: Any) -> Any:
    if fname == "shortfall":
        return notation(value)
    if fname == "best_lay_down" and value is not None:
        return value.melds, value.left
    return value


def notation(value: Any) -> str:
    if value is None:
        return "None"
    if isinstance(value, str):
        return value
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], tuple):
        return " / ".join(map(str, value[0])) + "; left: " + " ".join(map(str, value[1]))
    if isinstance(value, tuple):
        return " / ".join(map(str, value))
    return repr((value.text, value.rule, sorted(value.params.items(), key=str)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("record", "check", "time", "builds", "emit"))
    parser.add_argument("--ref", default="main")
    parser.add_argument("--file", default="/tmp/solver_diff.pickle")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--house-games", type=int, default=4)
    parser.add_argument("--dealt", type=int, default=60)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    if args.mode == "builds":
        return compare_builds(args)
    if args.mode == "emit":
        return emit(args)
    if args.mode == "record":
        ref = load_reference(args.ref)
        queries: list[Query] = []
        # the games play with the reference solver, wherever the engine looks it up
        for fname in NAMES:
            for mname, module in list(sys.modules.items()):
                if mname.startswith("toonerville") and not mname.startswith(
                        "toonerville._solver") and getattr(module, fname, None) is getattr(
                        solver, fname) and mname != "toonerville.engine.solver":
                    setattr(module, fname, getattr(ref, fname))
            setattr(solver, fname, getattr(ref, fname))
        with recording(queries):
            for i in range(args.games):
                play_game(["heuristic"] * 4, seed=args.seed + i)
            for h, rules in enumerate(HOUSE):
                for i in range(args.house_games):
                    play_game(["heuristic"] * (3 + i % 3), seed=args.seed + 1000 * h + i,
                              rules=rules)
        played = len(queries)
        rng = random.Random(args.seed)
        for rules in (None, *HOUSE):
            queries += dealt(rng, rules, args.dealt)
        answers = answer(ref, queries)
        with open(args.file, "wb") as f:
            pickle.dump((queries, answers, played), f)
        print(f"recorded {played} questions from play and {len(queries) - played} dealt "
              f"({Counter(q[0] for q in queries)}) into {args.file}")
        return 0
    with open(args.file, "rb") as f:
        queries, answers, played = pickle.load(f)
    # play's cards are the deck's own objects (unpickling made copies)
    queries = [(f, r, h if isinstance(h, str) else tuple(BY_INDEX[c.index] for c in h),
                rules, kw) for f, r, h, rules, kw in queries]
    if args.mode == "check":
        now = answer(solver, queries)
        bad = [i for i, (a, b) in enumerate(zip(answers, now, strict=True))
               if a != b or notation(a) != notation(b)]
        for i in bad[:10]:
            f, r, hand, rules, kw = queries[i]
            print(f"DIFFERS: {f}({' '.join(map(str, hand))!r}, {r}, {rules!r}, {kw})\n"
                  f"  was: {notation(answers[i])}\n  now: {notation(now[i])}")
        print(f"{len(queries)} questions, {len(bad)} answers differ")
        return 1 if bad else 0
    ref = load_reference(args.ref)
    played_queries = queries[:played]
    totals = {(label, f): 1 << 62 for label in ("ref", "new") for f in NAMES}
    clock = time.thread_time_ns
    for _ in range(args.repeat):  # the fastest replay of each, a busy machine slows some
        for label, module in (("ref", ref), ("new", solver)):
            calls = {f: getattr(module, f) for f in NAMES}
            took = dict.fromkeys(NAMES, 0)
            for f, r, hand, rules, kw in played_queries:
                call = calls[f]
                start = clock()
                call(hand, r, rules, **kw)
                took[f] += clock() - start
            for f in NAMES:
                totals[label, f] = min(totals[label, f], took[f])
    counts = Counter(q[0] for q in played_queries)
    for f in NAMES[:3]:
        ref_us, new_us = (totals[k, f] / counts[f] / 1000 for k in ("ref", "new"))
        print(f"{f:>14}: {counts[f]} calls in the order play asked; CPU us/call "
              f"ref {ref_us:.1f}, new {new_us:.1f} ({new_us / ref_us - 1:+.0%})")
    ref_s, new_s = (sum(totals[k, f] for f in NAMES[:3]) / 1e9 for k in ("ref", "new"))
    print(f"{'all':>14}: ref {ref_s:.2f} s, new {new_s:.2f} s ({new_s / ref_s - 1:+.0%}); "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


# -- the two builds ---------------------------------------------------------------------------
def emit(args: argparse.Namespace) -> int:
    """(In a process of one build) every answer, pickled to stdout."""
    import toonerville

    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import golden

    queries: list[Query] = []
    if os.path.exists(args.file):
        with open(args.file, "rb") as f:
            queries = pickle.load(f)[0]
        queries = [(f, r, h if isinstance(h, str) else tuple(BY_INDEX[c.index] for c in h),
                    rules, kw) for f, r, h, rules, kw in queries]
    rng = random.Random(args.seed)
    for rules in (None, *HOUSE):
        queries += dealt(rng, rules, args.dealt)
    start = time.process_time()
    answers = answer(solver, queries)
    solver_cpu = time.process_time() - start
    games = []
    for i in range(args.games):
        game = play_game(["heuristic"] * 4, seed=args.seed + i)
        games.append(([a.notation() for a in game.actions], game.scores))
    for h, rules in enumerate(HOUSE):
        for i in range(max(1, args.games // len(HOUSE))):
            game = play_game(["random", "heuristic", "random"][: 3 + i % 2] + ["heuristic"],
                             seed=args.seed + 100 * h + i, rules=rules)
            games.append(([a.notation() for a in game.actions], game.scores))
    goldens = {name: golden.playthrough(name) for name in sorted(golden.GAMES)}
    out = {"build": toonerville.BUILD, "queries": len(queries), "answers": answers,
           "notations": [notation(a) for a in answers], "games": games,
           "golden": goldens, "solver_cpu": solver_cpu}
    sys.stdout.buffer.write(pickle.dumps(out))
    return 0


def compare_builds(args: argparse.Namespace) -> int:
    results = {}
    for build in ("compiled", "pure"):
        env = {k: v for k, v in os.environ.items() if k != "TOONERVILLE_PURE"}
        if build == "pure":
            env["TOONERVILLE_PURE"] = "1"
        done = subprocess.run(
            [sys.executable, os.path.abspath(__file__), "emit", "--file", args.file,
             "--games", str(args.games), "--dealt", str(args.dealt), "--seed", str(args.seed)],
            env=env, capture_output=True, check=True)
        results[build] = pickle.loads(done.stdout)
        if results[build]["build"] != build:
            print(f"the {build} side ran the {results[build]['build']} engine: build it with "
                  "`python tools/compile_engine.py` first")
            return 2
    a, b = results["compiled"], results["pure"]
    bad = [i for i, (x, y) in enumerate(zip(a["answers"], b["answers"], strict=True))
           if x != y or a["notations"][i] != b["notations"][i]]
    for i in bad[:10]:
        print(f"DIFFERS: question {i}\n  compiled: {a['notations'][i]}\n"
              f"  pure:     {b['notations'][i]}")
    games_bad = [i for i, (x, y) in enumerate(zip(a["games"], b["games"], strict=True))
                 if x != y]
    golden_bad = [n for n in a["golden"] if a["golden"][n] != b["golden"][n]]
    moves = sum(len(g[0]) for g in a["games"])
    print(f"solver: {a['queries']} questions, {len(bad)} answers differ; CPU "
          f"{a['solver_cpu']:.2f} s compiled, {b['solver_cpu']:.2f} s pure "
          f"({b['solver_cpu'] / a['solver_cpu']:.2f}x)")
    print(f"games: {len(a['games'])} seeded games ({moves} moves), {len(games_bad)} differ "
          "(moves or scores)")
    print(f"golden playthroughs: {len(a['golden'])}, {len(golden_bad)} differ "
          f"{golden_bad or ''}")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 1 if bad or games_bad or golden_bad else 0


if __name__ == "__main__":
    sys.exit(main())
