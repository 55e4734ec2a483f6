"""Where the explorer's games are played: a real local Dask cluster, any Executor, and a
page without threads (step by step, on an event loop) all give the records of this
process; a cancel keeps the finished games; the solver's caches are bounded."""

from __future__ import annotations

import asyncio
import inspect
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import distributed  # never skipped: the test extra pins it
import pytest
from asynchelpers import run_to_end

from toonerville import explorer as X
from toonerville.engine.solver import arrange, contract, partition, tally
from toonerville.explorer import runner

ARM = X.Arm(("heuristic", "random", "heuristic"), turn_limit=10)
OTHER = X.arm_with(ARM, {"penalty_cards": 0})


@pytest.fixture(scope="module")
def here() -> X.Simulation:
    return X.play_games([ARM, OTHER], 3, seed=6)


def test_a_local_dask_cluster_gives_the_records_of_this_process(here: X.Simulation) -> None:
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        on_dask = X.play_games([ARM, OTHER], 3, seed=6, scheduler=cluster.scheduler_address)
        workers = {w["id"] for w in cluster.scheduler_info["workers"].values()}
    assert on_dask.complete and not on_dask.cancelled
    assert on_dask.facts == here.facts
    assert on_dask.where == f"Dask at {cluster.scheduler_address}"
    assert len(workers) == 2


def test_an_unreachable_scheduler_is_said_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "CONNECT_TIMEOUT", 2.0)
    with pytest.raises(X.SchedulerError, match="no Dask scheduler answers at tcp://127.0.0.1:9"):
        X.play_games(ARM, 1, scheduler="tcp://127.0.0.1:9")


def test_any_executor_gives_the_same_records(here: X.Simulation) -> None:
    with ThreadPoolExecutor(2) as pool:
        threaded = X.play_games([ARM, OTHER], 3, seed=6, executor=pool, chunk=1)
    assert threaded.facts == here.facts and threaded.where == "ThreadPoolExecutor"


def test_step_by_step_gives_the_same_records(here: X.Simulation) -> None:
    seen: list[int] = []
    steps = X.StepwiseRun([ARM, OTHER], 3, seed=6, progress=lambda d, t: seen.append(d),
                          chunk=2)
    calls = 0
    while steps.step():
        calls += 1
    assert steps.finished and calls == 2  # 6 games, 2 per step: the third step ends it
    assert steps.result().facts == here.facts and not steps.result().cancelled
    assert seen == [1, 2, 3, 4, 5, 6]


def test_a_cancelled_step_by_step_run_keeps_its_games(here: X.Simulation) -> None:
    steps = X.StepwiseRun([ARM, OTHER], 3, seed=6, chunk=3)
    steps.step()
    steps.cancel()
    assert not steps.step()
    part = steps.result()
    assert part.cancelled and part.games_played == 3
    assert part.facts[0] == here.facts[0][:2] and part.facts[1] == here.facts[1][:1]


def test_the_async_runner_yields_between_games_and_stops_on_cancel(here: X.Simulation
                                                                   ) -> None:
    stop = threading.Event()
    ticks: list[int] = []
    at_each_game: list[int] = []

    async def other_work() -> None:  # e.g. the page answering a click
        while True:
            ticks.append(len(ticks))
            await asyncio.sleep(0)

    async def both() -> tuple[X.Simulation, X.Simulation]:
        background = asyncio.ensure_future(other_work())
        full = await X.play_games_async([ARM, OTHER], 3, seed=6, chunk=1,
                                        progress=lambda d, t: at_each_game.append(len(ticks)))
        part = await X.play_games_async(
            [ARM, OTHER], 3, seed=6, chunk=1,
            progress=lambda d, t: stop.set() if d >= 2 else None, cancel=stop)
        background.cancel()
        return full, part

    full, part = run_to_end(both())
    assert full.facts == here.facts and full.where == "this page"
    assert part.cancelled and part.games_played == 2
    # the other task ran between every two games
    assert all(b > a for a, b in zip(at_each_game, at_each_game[1:], strict=False))
    assert len(at_each_game) == 6


def test_every_solver_cache_has_a_size_limit() -> None:
    cached = [(module.__name__, name, fn) for module in (arrange, contract, partition, tally)
              for name, fn in inspect.getmembers(module) if hasattr(fn, "cache_info")]
    assert cached, "the solver caches its searches"
    for module, name, fn in cached:
        assert fn.cache_parameters()["maxsize"] is not None, f"{module}.{name} is unbounded"
    # measured: about 0.9 KB a cached entry after heuristic games, so at most 48,000
    # entries keep a long-lived worker's caches near 40 MB
    assert sum(fn.cache_parameters()["maxsize"] for _, _, fn in cached) <= 48_000
    assert len(tally._BOOKS) <= 65  # one Book per Rules object, cleared past 64


def test_a_page_needs_no_processes_or_threads() -> None:
    # as in Pyodide: the process machinery cannot be imported and threads cannot start
    code = """
import sys, threading
for name in ("multiprocessing", "_multiprocessing", "concurrent.futures.process"):
    sys.modules[name] = None
def refuse(self): raise RuntimeError("can't start new thread")
threading.Thread.start = refuse
from toonerville import explorer as X
steps = X.StepwiseRun(X.Arm(("random",) * 3, turn_limit=5), 2, seed=1)
while steps.step():
    pass
print(steps.result().games_played, steps.result().complete)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2", "True"]
