"""Playing the explorer's games: anywhere, with the same results.

Owns `play_games(arms, games, seed, ...)`, which plays games 0..games-1 under every arm
and returns a `Simulation` (one `GameFacts` per game, ordered by game index), and the
places it can play them:

- in this process (`workers=1`);
- a local process pool (`workers=2` or more), the default way to use both cores;
- any `concurrent.futures.Executor` passed as `executor=`;
- a Dask distributed cluster, given its scheduler's address (`scheduler="tcp://host:8786"`;
  `distributed` is imported only then: pip install 'toonerville[explorer]');
- a page with no processes or threads (Pyodide in a browser): `StepwiseRun` plays a few
  games per `step()`, and `play_games_async` awaits between steps so the page stays
  responsive, with progress and cancel.

Game i's seed depends only on (seed, i) (`simulate.game_seed`), and every arm plays the
same indices, so the facts are the same whatever plays them, and two arms are paired.
A cancel (a flag, Ctrl-C) stops early and keeps every finished game.
"""

from __future__ import annotations

import asyncio
import signal
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass
from typing import Any, Protocol

from ..engine.errors import RulesError, ToonervilleError
from ..engine.messages import msg
from ..players.simulate import simulate
from .arms import Arm, make_explorer_bot
from .facts import GameFacts, facts_of

#: Pyodide in a browser: no processes, no threads
IN_BROWSER = sys.platform == "emscripten"
_NAN = float("nan")
#: seconds to wait for a Dask scheduler to answer
CONNECT_TIMEOUT = 20.0


class Flag(Protocol):
    def is_set(self) -> bool: ...


Progress = Callable[[int, int], None]


class SchedulerError(ToonervilleError):
    """The Dask scheduler cannot be used (not reachable, or `distributed` missing)."""


def play_facts(arm: Arm, seed: int, index: int) -> GameFacts:
    """Game `index` of the simulation seeded `seed` under `arm`, as facts."""
    bots = [make_explorer_bot(k) for k in arm.bots]
    (record,) = simulate(1, bots, seed, arm.rules, arm.turn_limit, start=index)
    return facts_of(record, arm.rules)


_STOP: Any = None  # in a local worker process: the simulation's stop event


def _init_worker(stop: Any) -> None:
    global _STOP
    _STOP = stop
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle


def play_chunk(arm_index: int, arm: Arm, seed: int, start: int, count: int
               ) -> tuple[int, list[GameFacts]]:
    """Games start..start+count-1 of one arm (a task for any executor); a local worker
    stops early, returning what it finished, once the stop event is set."""
    done = []
    for index in range(start, start + count):
        if _STOP is not None and _STOP.is_set():
            break
        done.append(play_facts(arm, seed, index))
    return arm_index, done


@dataclass(frozen=True)
class Simulation:
    """The facts of a simulation: `facts[a]` are arm a's games, ordered by game index. A
    cancelled simulation holds the games finished before the cancel (`complete` False).
    `where` says what played them."""

    arms: tuple[Arm, ...]
    games: int
    seed: int
    facts: tuple[tuple[GameFacts, ...], ...]
    cancelled: bool = False
    seconds: float = 0.0
    workers: int = 1
    where: str = "this process"

    @property
    def complete(self) -> bool:
        return all(len(f) == self.games for f in self.facts)

    @property
    def games_played(self) -> int:
        return sum(len(f) for f in self.facts)

    @property
    def games_per_arm(self) -> tuple[int, ...]:
        """The games finished under each configuration."""
        return tuple(len(f) for f in self.facts)

    @property
    def games_per_second(self) -> float:
        return self.games_played / self.seconds if self.seconds > 0 else _NAN

    def pairs(self, a: int = 0, b: int = 1) -> list[tuple[GameFacts, GameFacts]]:
        """Games played under both arms (same index, so the same game seed)."""
        by_index = {g.index: g for g in self.facts[b]}
        return [(g, by_index[g.index]) for g in self.facts[a] if g.index in by_index]

    def paired_facts(self) -> list[tuple[GameFacts, ...]]:
        """The game indices every arm finished, as one tuple of facts per index."""
        common = set.intersection(*({g.index for g in f} for f in self.facts))
        by_arm = [{g.index: g for g in f} for f in self.facts]
        return [tuple(b[i] for b in by_arm) for i in sorted(common)]


def default_chunk(games: int, workers: int) -> int:
    """Games per task: small enough for a moving progress bar and a prompt cancel."""
    return max(1, min(8, games // (4 * max(1, workers)) or 1))


class _Collector:
    """The tasks of a simulation and the facts found so far."""

    def __init__(self, arms: Arm | Sequence[Arm], games: int, seed: int, size: int,
                 progress: Progress | None) -> None:
        self.arms = (arms,) if isinstance(arms, Arm) else tuple(arms)
        if not self.arms:
            raise ValueError("a simulation needs at least one arm")
        if not isinstance(games, int) or games < 0:
            raise RulesError(msg("the number of games must be a whole number 0 or more",
                                 None))
        self.games, self.seed, self.progress = games, seed, progress
        self.tasks = [(a, start, min(size, games - start))
                      for start in range(0, games, size) for a in range(len(self.arms))]
        self.found: list[dict[int, GameFacts]] = [{} for _ in self.arms]
        self.total = games * len(self.arms)
        self.began = time.perf_counter()

    def keep(self, arm_index: int, facts: list[GameFacts]) -> None:
        for g in facts:
            self.found[arm_index][g.index] = g
        if self.progress is not None and facts:
            self.progress(self.done, self.total)

    @property
    def done(self) -> int:
        return sum(len(f) for f in self.found)

    def simulation(self, cancelled: bool, workers: int, where: str) -> Simulation:
        facts = tuple(tuple(f[i] for i in sorted(f)) for f in self.found)
        return Simulation(self.arms, self.games, self.seed, facts, cancelled,
                          time.perf_counter() - self.began, workers, where)


def play_games(arms: Arm | Sequence[Arm], games: int, seed: int = 0, workers: int = 1,
               progress: Progress | None = None, cancel: Flag | None = None,
               chunk: int | None = None, executor: Executor | None = None,
               scheduler: str | None = None) -> Simulation:
    """Play games 0..games-1 under every arm (in chunks of game indices, arms
    interleaved) and collect their facts. `workers` > 1 uses that many local processes;
    `executor` any Executor; `scheduler` a Dask cluster. The facts are the same whatever
    plays them. `progress(done, total)` is called as games finish; setting `cancel` (or
    Ctrl-C) stops early, keeping every finished game."""
    if not isinstance(workers, int) or workers < 1:
        raise RulesError(msg("workers must be a whole number 1 or more", None))
    if scheduler:
        return _play_on_dask(arms, games, seed, progress, cancel, chunk, scheduler)
    width = workers if executor is None else max(2, workers)
    plan = _Collector(arms, games, seed, chunk or default_chunk(games, width), progress)
    if executor is not None:
        stopped = _play_on(executor, plan, cancel, None)
        return plan.simulation(stopped, workers, type(executor).__name__)
    if workers == 1 or len(plan.tasks) <= 1:
        return plan.simulation(_play_here(plan, cancel), 1, "this process")
    import multiprocessing  # not in a browser: imported only here
    from concurrent.futures import ProcessPoolExecutor

    # spawn, not fork: a notebook kernel has threads, and forking them can deadlock
    context = multiprocessing.get_context("spawn")
    stop = context.Event()
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker,
                             initargs=(stop,)) as pool:
        stopped = _play_on(pool, plan, cancel, stop)
    return plan.simulation(stopped, workers, f"{workers} local processes")


def _play_here(plan: _Collector, cancel: Flag | None) -> bool:
    for arm_index, start, count in plan.tasks:
        for index in range(start, start + count):
            if cancel is not None and cancel.is_set():
                return True
            try:
                facts = play_facts(plan.arms[arm_index], plan.seed, index)
            except KeyboardInterrupt:
                return True
            plan.keep(arm_index, [facts])
    return False


def _play_on(executor: Executor, plan: _Collector, cancel: Flag | None, stop: Any) -> bool:
    """Submit every task to `executor` and keep results as they come; True if stopped."""
    from concurrent.futures.process import BrokenProcessPool

    stopping = False
    pending: set[Future[tuple[int, list[GameFacts]]]] = {
        executor.submit(play_chunk, a, plan.arms[a], plan.seed, start, count)
        for a, start, count in plan.tasks}

    def halt() -> None:
        if stop is not None:
            stop.set()  # running local chunks return what they have finished
        for future in pending:
            future.cancel()

    try:
        while pending:
            interrupted = False
            try:
                done, pending = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
            except KeyboardInterrupt:
                done, interrupted = set(), True
            for future in done:
                if future.cancelled():
                    continue
                try:
                    plan.keep(*future.result())
                except BrokenProcessPool:
                    if not stopping:  # a worker died without being asked to stop
                        raise
            if not stopping and (interrupted or (cancel is not None and cancel.is_set())):
                stopping = True
                halt()
    except BaseException:
        halt()
        raise
    return stopping


def _play_on_dask(arms: Arm | Sequence[Arm], games: int, seed: int,
                  progress: Progress | None, cancel: Flag | None, chunk: int | None,
                  scheduler: str) -> Simulation:
    try:
        import distributed
    except ImportError:
        raise SchedulerError(msg("playing on a Dask cluster needs the distributed package: "
                                 "pip install 'toonerville[explorer]'", None)) from None
    try:
        connect: Any = distributed.Client
        client: Any = connect(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except OSError as err:
        raise SchedulerError(msg("no Dask scheduler answers at {address} ({why})", None,
                                 address=scheduler, why=str(err))) from None
    try:
        width = max(2, sum(w.get("nthreads", 1) for w in
                           client.scheduler_info().get("workers", {}).values()))
        plan = _Collector(arms, games, seed, chunk or default_chunk(games, width), progress)
        stopped = _play_on(client.get_executor(pure=False), plan, cancel, None)
        return plan.simulation(stopped, width, f"Dask at {scheduler}")
    finally:
        client.close()


class StepwiseRun:
    """A simulation played in this process a few games per `step()`, for a place with
    no processes or threads (a page in Pyodide): call `step()` until it returns False,
    or `cancel()`; `result()` is the `Simulation` so far. Same facts as `play_games`."""

    def __init__(self, arms: Arm | Sequence[Arm], games: int, seed: int = 0,
                 progress: Progress | None = None, chunk: int = 2) -> None:
        self._plan = _Collector(arms, games, seed, 1, progress)
        self._next = 0
        self.chunk = max(1, chunk)
        self.cancelled = False

    @property
    def finished(self) -> bool:
        return self.cancelled or self._next >= len(self._plan.tasks)

    def step(self) -> bool:
        """Play the next `chunk` games; True while some are left to play."""
        plan = self._plan
        for arm_index, start, _ in plan.tasks[self._next:self._next + self.chunk]:
            if self.cancelled:
                break
            plan.keep(arm_index, [play_facts(plan.arms[arm_index], plan.seed, start)])
            self._next += 1
        return not self.finished

    def cancel(self) -> None:
        self.cancelled = True

    def result(self) -> Simulation:
        stopped = self.cancelled and self._next < len(self._plan.tasks)
        return self._plan.simulation(stopped, 1, "this page")


async def play_games_async(arms: Arm | Sequence[Arm], games: int, seed: int = 0,
                           progress: Progress | None = None, cancel: Flag | None = None,
                           chunk: int = 2, pause: float = 0.0) -> Simulation:
    """`play_games` for a page: a few games, then `await asyncio.sleep(pause)` so the
    page (and a Cancel button) can be served, until done or `cancel` is set."""
    steps = StepwiseRun(arms, games, seed, progress, chunk)
    while not steps.finished:
        if cancel is not None and cancel.is_set():
            steps.cancel()
            break
        steps.step()
        await asyncio.sleep(pause)
    return steps.result()
