"""The rules explorer: many seeded bot games, turned into tables with honest uncertainty.

Owns
- the statistics, standard library only and all at 95 %: `Estimate`, `wilson` (a
  proportion), `mean_ci` (a mean, with a t quantile for small samples), `paired_ci` (the
  mean of per-game differences between two configurations played on the same seeds);
- `Arm`, one configuration to study (bots, so the player count, `Rules`, turn limit),
  and `arm_with`/`parse_changes`, which read `name=value` settings with `RulesError`s;
- `run(arms, games, seed, workers, progress, cancel)`: plays games 0..games-1 of every
  arm, in this process or in worker processes, and returns a `Run` holding one compact
  `GameFacts` per game, ordered by game index. Game i's seed depends only on (seed, i),
  so 1 or 2 workers give identical facts; a cancelled run keeps every finished game;
- the tables a teacher asks for (`tables_for(run, question)`): how hard each round is,
  buying, seats and the first player, bot against bot, score spread, a paired
  comparison of two configurations, and how often a fresh deal already holds the
  contract (`deal_table`, no play needed);
- export: `write_csv` (one row per game, round and seat), `run_json` and back,
  `run_from_json`.
"""

from __future__ import annotations

import csv
import math
import multiprocessing
import random
import signal
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, fields
from typing import IO, Any, Protocol

from .bots import BOT_KINDS as BOT_KINDS
from .bots import Bot
from .bots import NoBuyBot as NoBuyBot
from .cards import Card, format_cards, shoe
from .errors import RulesError
from .messages import msg
from .rules import ROUNDS, RULE_OF, Rules, contract_for
from .simulate import DEFAULT_TURN_LIMIT, GameRecord, simulate

# -- statistics -------------------------------------------------------------------------
Z95 = statistics.NormalDist().inv_cdf(0.975)  # 1.959964...
#: two-sided 95 % quantiles of Student's t for 1..30 degrees of freedom
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201,
        2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074,
        2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t95(df: int) -> float:
    """The 97.5 % quantile of Student's t with `df` degrees of freedom (a table to 30,
    then the Cornish-Fisher expansion, good to 4 decimals)."""
    if df < 1:
        raise ValueError("a t quantile needs at least 1 degree of freedom")
    if df <= len(_T95):
        return _T95[df - 1]
    z = Z95
    return (z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3))


@dataclass(frozen=True, slots=True)
class Estimate:
    """A value with its 95 % confidence interval [low, high] from `n` observations.
    `kind` says how to show it: "number", "percent" (a share), "difference" (B − A) or
    "share_difference" (B − A of two shares, in percentage points)."""

    value: float
    low: float
    high: float
    n: int
    kind: str = "number"

    def __str__(self) -> str:
        if self.n == 0 or math.isnan(self.value):
            return "–"
        scale = 100 if self.kind in ("percent", "share_difference") else 1
        if math.isnan(self.low):  # a single observation: no interval
            return f"{scale * self.value:.1f}" + ("%" if scale == 100 else "")
        if self.kind == "percent":
            v, lo, hi = (100 * x for x in (self.value, self.low, self.high))
            return f"{v:.1f}% ({lo:.1f}–{hi:.1f})"
        d = 1 if max(abs(self.low), abs(self.high), abs(self.value)) >= 20 else 2
        if self.kind == "share_difference":  # a difference of two shares, in points
            v, lo, hi = (100 * x for x in (self.value, self.low, self.high))
            return f"{v:+.1f} pp ({lo:+.1f} to {hi:+.1f})"
        if self.kind == "difference":
            return f"{self.value:+.{d}f} ({self.low:+.{d}f} to {self.high:+.{d}f})"
        sep = " to " if self.low < 0 else "–"
        return f"{self.value:.{d}f} ({self.low:.{d}f}{sep}{self.high:.{d}f})"

    @property
    def excludes_zero(self) -> bool:
        """Is the whole interval on one side of 0 (a difference that is 'real')?"""
        return self.low > 0 or self.high < 0

    def to_dict(self) -> dict[str, Any]:
        def plain(x: float) -> float | None:
            return None if math.isnan(x) else x
        return {"value": plain(self.value), "low": plain(self.low), "high": plain(self.high),
                "n": self.n}


_NAN = float("nan")


def wilson(successes: int, n: int) -> Estimate:
    """A share `successes / n` with its 95 % Wilson score interval."""
    if not 0 <= successes <= n:
        raise ValueError(f"{successes} successes out of {n} is not a proportion")
    if n == 0:
        return Estimate(_NAN, 0.0, 1.0, 0, "percent")
    p, z2 = successes / n, Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return Estimate(p, max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)), n,
                    "percent")


def mean_ci(values: Iterable[float], kind: str = "number") -> Estimate:
    """The mean with a 95 % interval, mean ± t·sd/√n (t from n - 1 degrees of freedom)."""
    xs = [float(v) for v in values]
    n = len(xs)
    if n == 0:
        return Estimate(_NAN, _NAN, _NAN, 0, kind)
    mean = statistics.fmean(xs)
    if n == 1:
        return Estimate(mean, _NAN, _NAN, 1, kind)
    half = t95(n - 1) * statistics.stdev(xs) / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n, kind)


def paired_ci(a: Sequence[float], b: Sequence[float], share: bool = False) -> Estimate:
    """B − A from pairs (the same game seed under A and B): the mean of the per-pair
    differences, with its 95 % interval. `share`: the values are 0/1 or shares."""
    if len(a) != len(b):
        raise ValueError("paired values come in pairs: A and B need the same length")
    e = mean_ci((y - x for x, y in zip(a, b, strict=True)),
                "share_difference" if share else "difference")
    if share and not math.isnan(e.low):  # two shares differ by at most 100 points
        return Estimate(e.value, max(-1.0, e.low), min(1.0, e.high), e.n, e.kind)
    return e


# -- what one game leaves behind -----------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RoundFacts:
    """A finished round (see `views.RoundRecord`), plus whether each dealt hand already
    held the contract's melds, and the dealt hands in notation."""

    round_number: int
    dealer: int
    went_out: int | None
    ended_by: str
    turns: int
    restocks: int
    points: tuple[int, ...]
    down_turn: tuple[int | None, ...]
    buy_turns: tuple[tuple[int, ...], ...]
    dealt_meets: tuple[bool, ...]
    dealt: tuple[str, ...] = ()

    @property
    def players(self) -> int:
        return len(self.points)

    def position(self, seat: int) -> int:
        """1 for the player who plays first (the dealer's left) … players for the dealer."""
        return (seat - self.dealer - 1) % self.players + 1

    def seat_at(self, position: int) -> int:
        return (self.dealer + position) % self.players

    def seat_of_turn(self, turn: int) -> int:
        """Turn 1 is the first player's, then turns pass to the left."""
        return (self.dealer + turn) % self.players

    @property
    def first_down(self) -> int | None:
        """The turn of the round's first lay-down (all players' turns counted)."""
        turns = [t for t in self.down_turn if t is not None]
        return min(turns) if turns else None

    def buys(self) -> Iterable[tuple[int, int]]:
        """Every buy as (seat, turn)."""
        for seat, turns in enumerate(self.buy_turns):
            for t in turns:
                yield seat, t

    def next_own_turn(self, seat: int, turn: int) -> int:
        """The first turn after `turn` that is `seat`'s."""
        return turn + (seat - self.seat_of_turn(turn) - 1) % self.players + 1

    def buy_outcome(self, seat: int, turn: int) -> str:
        """What followed a buy: "already_down", "next_turn" (the buyer laid down at their
        very next turn), "later" (later in the round) or "never"."""
        down = self.down_turn[seat]
        if down is not None and down < turn:
            return "already_down"
        if down is None:
            return "never"
        return "next_turn" if down == self.next_own_turn(seat, turn) else "later"


@dataclass(frozen=True, slots=True)
class GameFacts:
    """One bot game of a run: its index and seed, the bots by seat, every round."""

    index: int
    seed: int
    bots: tuple[str, ...]
    first_dealer: int
    rounds: tuple[RoundFacts, ...]

    @property
    def players(self) -> int:
        return len(self.bots)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(r.points[i] for r in self.rounds) for i in range(self.players))

    @property
    def winners(self) -> tuple[int, ...]:
        best = min(self.totals)
        return tuple(i for i, t in enumerate(self.totals) if t == best)

    def game_position(self, seat: int) -> int:
        """1 for the player who plays first in round 1 … players for the first dealer."""
        return (seat - self.first_dealer - 1) % self.players + 1

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "seed": self.seed, "bots": list(self.bots),
                "first_dealer": self.first_dealer, "totals": list(self.totals),
                "rounds": [{f.name: _jsonable(getattr(r, f.name)) for f in fields(r)}
                           for r in self.rounds]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameFacts:
        """Read back `to_dict()` (e.g. from a run saved with `run_json`)."""
        rounds = tuple(RoundFacts(
            r["round_number"], r["dealer"], r["went_out"], r["ended_by"], r["turns"],
            r["restocks"], tuple(r["points"]), tuple(r["down_turn"]),
            tuple(tuple(b) for b in r["buy_turns"]), tuple(r["dealt_meets"]),
            tuple(r["dealt"])) for r in data["rounds"])
        return cls(data["index"], data["seed"], tuple(data["bots"]), data["first_dealer"],
                   rounds)


def _jsonable(value: Any) -> Any:
    return [_jsonable(v) for v in value] if isinstance(value, tuple) else value


def hand_meets(hand: Sequence[Card], round_number: int, rules: Rules) -> bool:
    """Does this hand already hold the melds of the round's contract (the solver)?"""
    from .solver import find_contract

    return find_contract(tuple(hand), round_number, rules) is not None


def _turns_played(turns: int, ended_by: str) -> int:
    """The engine's turn counter has already moved past the limit when a round ends by
    the turn limit; the turns played are one fewer."""
    return turns - 1 if ended_by == "turn_limit" else turns


def facts_of(record: GameRecord, rules: Rules) -> GameFacts:
    """The compact facts of a finished game (what the worker processes send back)."""
    rounds = tuple(RoundFacts(
        round_number=r.round_number, dealer=r.dealer, went_out=r.went_out,
        ended_by=r.ended_by, turns=_turns_played(r.turns, r.ended_by), restocks=r.restocks,
        points=tuple(r.points),
        down_turn=tuple(r.down_turn), buy_turns=tuple(tuple(b) for b in r.buy_turns),
        dealt_meets=tuple(hand_meets(h, r.round_number, rules) for h in r.dealt),
        dealt=tuple(format_cards(h) for h in r.dealt)) for r in record.rounds)
    return GameFacts(record.index, record.seed, record.bots, record.first_dealer, rounds)


# -- one configuration ---------------------------------------------------------------------
def make_explorer_bot(kind: str) -> Bot | str:
    """A bot kind checked against the one registry (`bots.BOTS`)."""
    if kind not in BOT_KINDS:
        raise RulesError(msg("unknown bot {kind!r}: choose from {kinds}", None, kind=kind,
                             kinds=", ".join(BOT_KINDS)))
    return kind


@dataclass(frozen=True, slots=True)
class Arm:
    """One configuration to study: the bots by seat (so the player count), the rules and
    the turn limit after which a round is scored as it stands."""

    bots: tuple[str, ...] = ("heuristic",) * 4
    rules: Rules = field(default_factory=Rules)
    turn_limit: int | None = DEFAULT_TURN_LIMIT

    def __post_init__(self) -> None:
        if not 3 <= len(self.bots) <= 5:
            raise RulesError(msg("Toonerville Rook is for 3 to 5 players, not {n}", "T2",
                                 n=len(self.bots)))
        for kind in self.bots:
            make_explorer_bot(kind)

    @property
    def players(self) -> int:
        return len(self.bots)

    def describe(self) -> str:
        kinds = sorted(set(self.bots), key=self.bots.index)
        who = ", ".join(f"{k} ×{self.bots.count(k)}" for k in kinds)
        changes = self.rules.changes()
        house = ", ".join(f"{k}={v}" for k, v in changes.items()) or "rulebook defaults"
        return f"{self.players} players ({who}); {house}"


def bots_for(players: int, pattern: Sequence[str]) -> tuple[str, ...]:
    """`pattern` repeated around the table: ("heuristic", "random") for 5 players is
    heuristic, random, heuristic, random, heuristic."""
    if not pattern:
        raise RulesError(msg("name at least one bot", None))
    return tuple(pattern[i % len(pattern)] for i in range(players))


_FIELD_TYPES = {f.name: str(f.type) for f in fields(Rules)}
_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


def _rule_value(name: str, text: str) -> Any:
    kind, t = _FIELD_TYPES[name], text.strip()
    rule = RULE_OF[name]
    if "None" in kind and t.lower() in ("none", "any", "unlimited", "random", ""):
        return None
    if kind == "bool":
        if t.lower() in _TRUE + _FALSE:
            return t.lower() in _TRUE
        raise RulesError(msg("{name} is true or false, not {text!r}", rule, name=name,
                             text=text))
    if kind.startswith("int"):
        try:
            return int(t)
        except ValueError:
            raise RulesError(msg("{name} needs a whole number{none}, not {text!r}", rule,
                                 name=name, text=text,
                                 none=" (or none)" if "None" in kind else "")) from None
    return t  # an enum: Rules itself names the choices when the value is wrong


def parse_changes(items: Iterable[str]) -> dict[str, Any]:
    """`["penalty_cards=2", "round11_deal=12,extra_melds=yes"]` → a dict of settings.
    `players=N` is allowed too; anything else must be a `Rules` switch."""
    changes: dict[str, Any] = {}
    for item in items:
        for part in (p.strip() for p in item.split(",")):
            if not part:
                continue
            name, eq, text = part.partition("=")
            name = name.strip().replace("-", "_")
            if not eq:
                raise RulesError(msg("write each setting as name=value, like penalty_cards=2,"
                                     " not {part!r}", None, part=part))
            if name == "players":
                try:
                    changes[name] = int(text)
                except ValueError:
                    raise RulesError(msg("players needs a whole number 3, 4 or 5, not "
                                         "{text!r}", "T2", text=text)) from None
            elif name in _FIELD_TYPES:
                changes[name] = _rule_value(name, text)
            else:
                known = ", ".join(["players", *_FIELD_TYPES])
                raise RulesError(msg("unknown house rule {name!r}: the settings are {known}",
                                     None, name=name, known=known))
    return changes


def arm_with(arm: Arm, changes: dict[str, Any]) -> Arm:
    """`arm` with some settings changed (the rules, and `players`, which repeats the
    bots' pattern around the larger or smaller table)."""
    changes = dict(changes)
    bots = arm.bots
    if "players" in changes:
        bots = bots_for(changes.pop("players"), arm.bots)
    rules = Rules.from_dict({**arm.rules.to_dict(), **changes})
    return Arm(bots, rules, arm.turn_limit)


# -- running many games ----------------------------------------------------------------------
class Flag(Protocol):
    def is_set(self) -> bool: ...


Progress = Callable[[int, int], None]


def play_facts(arm: Arm, seed: int, index: int) -> GameFacts:
    """Game `index` of the run seeded `seed` under `arm`, as facts."""
    bots = [make_explorer_bot(k) for k in arm.bots]
    (record,) = simulate(1, bots, seed, arm.rules, arm.turn_limit, start=index)
    return facts_of(record, arm.rules)


_STOP: Any = None  # in a worker process: the run's stop event


def _init_worker(stop: Any) -> None:
    global _STOP
    _STOP = stop
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle


def _play_chunk(arm_index: int, arm: Arm, seed: int, start: int, count: int
                ) -> tuple[int, list[GameFacts]]:
    done = []
    for index in range(start, start + count):
        if _STOP is not None and _STOP.is_set():
            break
        done.append(play_facts(arm, seed, index))
    return arm_index, done


@dataclass(frozen=True)
class Run:
    """The facts of a run: `facts[a]` are arm a's games, ordered by game index. A
    cancelled run holds the games finished before the cancel (`complete` False)."""

    arms: tuple[Arm, ...]
    games: int
    seed: int
    facts: tuple[tuple[GameFacts, ...], ...]
    cancelled: bool = False
    seconds: float = 0.0
    workers: int = 1

    @property
    def complete(self) -> bool:
        return all(len(f) == self.games for f in self.facts)

    @property
    def games_played(self) -> int:
        return sum(len(f) for f in self.facts)

    @property
    def games_per_second(self) -> float:
        return self.games_played / self.seconds if self.seconds > 0 else _NAN

    def pairs(self, a: int = 0, b: int = 1) -> list[tuple[GameFacts, GameFacts]]:
        """Games played under both arms (same index, so the same game seed)."""
        by_index = {g.index: g for g in self.facts[b]}
        return [(g, by_index[g.index]) for g in self.facts[a] if g.index in by_index]


def default_chunk(games: int, workers: int) -> int:
    """Games per task: small enough for a moving progress bar and a prompt cancel."""
    return max(1, min(8, games // (4 * max(1, workers)) or 1))


def run(arms: Arm | Sequence[Arm], games: int, seed: int = 0, workers: int = 1,
        progress: Progress | None = None, cancel: Flag | None = None,
        chunk: int | None = None) -> Run:
    """Play games 0..games-1 under every arm (in chunks of game indices, arms
    interleaved) and collect their facts. `workers` > 1 uses that many processes; the
    facts are the same whatever the number. `progress(done, total)` is called as games
    finish; setting `cancel` (or Ctrl-C) stops early, keeping every finished game."""
    arm_list = (arms,) if isinstance(arms, Arm) else tuple(arms)
    if not arm_list:
        raise ValueError("run needs at least one arm")
    if not isinstance(games, int) or games < 0:
        raise RulesError(msg("the number of games must be a whole number 0 or more", None))
    if not isinstance(workers, int) or workers < 1:
        raise RulesError(msg("workers must be a whole number 1 or more", None))
    size = chunk or default_chunk(games, workers)
    tasks = [(a, start, min(size, games - start))
             for start in range(0, games, size) for a in range(len(arm_list))]
    found: list[dict[int, GameFacts]] = [{} for _ in arm_list]
    total = games * len(arm_list)
    began = time.perf_counter()

    def keep(arm_index: int, facts: list[GameFacts]) -> None:
        for g in facts:
            found[arm_index][g.index] = g
        if progress is not None and facts:
            progress(sum(len(f) for f in found), total)

    if workers == 1 or len(tasks) <= 1:
        stopped = _run_here(arm_list, seed, tasks, keep, cancel)
    else:
        stopped = _run_pool(arm_list, seed, tasks, keep, cancel, workers)
    facts = tuple(tuple(f[i] for i in sorted(f)) for f in found)
    return Run(arm_list, games, seed, facts, stopped, time.perf_counter() - began, workers)


def _run_here(arms: tuple[Arm, ...], seed: int, tasks: list[tuple[int, int, int]],
              keep: Callable[[int, list[GameFacts]], None], cancel: Flag | None) -> bool:
    for arm_index, start, count in tasks:
        for index in range(start, start + count):
            if cancel is not None and cancel.is_set():
                return True
            try:
                facts = play_facts(arms[arm_index], seed, index)
            except KeyboardInterrupt:
                return True
            keep(arm_index, [facts])
    return False


def _run_pool(arms: tuple[Arm, ...], seed: int, tasks: list[tuple[int, int, int]],
              keep: Callable[[int, list[GameFacts]], None], cancel: Flag | None,
              workers: int) -> bool:
    # spawn, not fork: a notebook kernel has threads, and forking them can deadlock
    context = multiprocessing.get_context("spawn")
    stop = context.Event()
    stopping = False
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker,
                             initargs=(stop,)) as pool:
        pending: set[Future[tuple[int, list[GameFacts]]]] = {
            pool.submit(_play_chunk, a, arms[a], seed, start, count)
            for a, start, count in tasks}
        try:
            while pending:
                interrupted = False
                try:
                    done, pending = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
                except KeyboardInterrupt:
                    done, interrupted = set(), True
                for future in done:
                    if not future.cancelled():
                        keep(*future.result())
                if not stopping and (interrupted or (cancel is not None and cancel.is_set())):
                    stopping = True
                    stop.set()  # running chunks return what they have finished
                    for future in pending:
                        future.cancel()
        except BaseException:
            stop.set()
            for future in pending:
                future.cancel()
            raise
    return stopping


# -- tables --------------------------------------------------------------------------------
Cell = str | int | float | Estimate | None


@dataclass(frozen=True)
class Table:
    """A titled table: `str(table)` is aligned text, `_repr_html_` a notebook table,
    `to_dict()` plain JSON (estimates as value, low, high, n)."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    note: str = ""

    def __repr__(self) -> str:
        return f"<Table {self.title!r}: {len(self.rows)} rows × {len(self.columns)} columns>"

    def column(self, name: str) -> list[Cell]:
        k = self.columns.index(name)
        return [row[k] for row in self.rows]

    def row(self, key: Cell) -> tuple[Cell, ...]:
        """The row whose first cell is `key`."""
        return next(r for r in self.rows if r[0] == key)

    def __str__(self) -> str:
        cells = [list(self.columns)] + [[_show(c) for c in row] for row in self.rows]
        widths = [max(len(r[k]) for r in cells) for k in range(len(self.columns))]
        lines = [self.title, "=" * len(self.title)]
        for i, r in enumerate(cells):
            lines.append("  ".join(c.ljust(w) if k == 0 else c.rjust(w)
                                   for k, (c, w) in enumerate(zip(r, widths, strict=True))
                                   ).rstrip())
            if i == 0:
                lines.append("  ".join("-" * w for w in widths))
        if self.note:
            lines.append(self.note)
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        from html import escape

        head = "".join(f"<th>{escape(c)}</th>" for c in self.columns)
        body = "".join("<tr>" + "".join(
            f'<td style="text-align:{"left" if k == 0 else "right"}">{escape(_show(c))}</td>'
            for k, c in enumerate(row)) + "</tr>" for row in self.rows)
        note = f"<p><small>{escape(self.note)}</small></p>" if self.note else ""
        return (f'<div class="tv-explorer-table"><h4>{escape(self.title)}</h4><table>'
                f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{note}</div>")

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "columns": list(self.columns), "note": self.note,
                "rows": [[c.to_dict() if isinstance(c, Estimate) else c for c in row]
                         for row in self.rows]}


def _show(cell: Cell) -> str:
    if cell is None:
        return "–"
    if isinstance(cell, float):
        return "–" if math.isnan(cell) else f"{cell:.1f}"
    return str(cell)


def _rounds(facts: Sequence[GameFacts], r: int) -> list[RoundFacts]:
    return [g.rounds[r - 1] for g in facts if len(g.rounds) >= r]


def _share(flags: Iterable[bool]) -> Estimate:
    xs = list(flags)
    return wilson(sum(xs), len(xs))


def _limit_note(facts: Sequence[GameFacts]) -> str:
    hit = sum(r.ended_by == "turn_limit" for g in facts for r in g.rounds)
    rounds = sum(len(g.rounds) for g in facts)
    return (f" {hit} of {rounds} rounds reached the turn limit and were scored as they stood."
            if hit else "")


def round_table(facts: Sequence[GameFacts], rules: Rules, title: str = "") -> Table:
    """How hard is each round? One row per round."""
    rows = []
    for r in range(1, ROUNDS + 1):
        rs = _rounds(facts, r)
        rows.append((
            r, f"{contract_for(r)} ({rules.deal_size(r)})",
            _share(m for x in rs for m in x.dealt_meets),
            mean_ci(x.first_down for x in rs if x.first_down is not None),
            _share(x.went_out is not None for x in rs),
            mean_ci(x.turns for x in rs),
            mean_ci(statistics.fmean(x.points) for x in rs),
            _share(x.restocks > 0 for x in rs),
            _share(x.ended_by == "stock" for x in rs)))
    return Table(
        title or "How hard is each round?",
        ("round", "contract (deal)", "dealt hand holds it", "first lay-down", "someone goes out",
         "turns", "points left/player", "stock rebuilt", "stock ran out"),
        tuple(rows),
        f"{len(facts)} games; 95% confidence intervals in brackets. 'Dealt hand holds it': "
        "the share of freshly dealt hands that already hold the contract's melds. Turns "
        "count every player's turn (turn 1 is the first player's); 'first lay-down' is the "
        "turn of the round's first lay-down. 'Stock ran out': the round ended because "
        "there was nothing left to rebuild the stock from (H6)." + _limit_note(facts))


def buying_table(facts: Sequence[GameFacts], title: str = "") -> Table:
    """Buys per round, and what followed a buy by a player who was not yet down."""
    rows = []
    for r in range(1, ROUNDS + 1):
        rs = _rounds(facts, r)
        outcomes = [x.buy_outcome(s, t) for x in rs for s, t in x.buys()]
        fresh = [o for o in outcomes if o != "already_down"]
        rows.append((
            r, str(contract_for(r)),
            mean_ci(sum(len(b) for b in x.buy_turns) for x in rs),
            _share(any(x.buy_turns) for x in rs),
            len(fresh),
            _share(o == "next_turn" for o in fresh),
            _share(o in ("next_turn", "later") for o in fresh),
            len(outcomes) - len(fresh)))
    return Table(
        title or "Buying",
        ("round", "contract", "buys per round", "rounds with a buy", "buys by players not down",
         "buyer lays down next turn", "buyer lays down this round", "buys by players down"),
        tuple(rows),
        "The two lay-down columns count buys by players not yet down. Whether buying pays: "
        "seat 'nobuy' bots (heuristic bots that never buy) beside heuristic ones, or compare "
        "max_buys_per_round=0 with the default.")


def _position_label(p: int, players: int) -> str:
    return f"{p} (plays first)" if p == 1 else f"{p} (dealer)" if p == players else str(p)


def seat_round_table(facts: Sequence[GameFacts], title: str = "") -> Table:
    """Does it matter where you sit in a round? Positions counted from the dealer's left."""
    if not facts:
        return Table(title or "Seats in a round", ("position",), ())
    n = facts[0].players
    rows: list[tuple[Cell, ...]] = []
    for p in range(1, n + 1):
        rows.append((
            _position_label(p, n),
            _share(r.went_out == r.seat_at(p) for g in facts for r in g.rounds),
            _share(r.first_down is not None and r.down_turn[r.seat_at(p)] == r.first_down
                   for g in facts for r in g.rounds),
            mean_ci(statistics.fmean(r.points[r.seat_at(p)] for r in g.rounds)
                    for g in facts)))
    advantage = mean_ci(statistics.fmean(
        r.points[r.seat_at(1)] - statistics.fmean(r.points[r.seat_at(q)]
                                                  for q in range(2, n + 1))
        for r in g.rounds) for g in facts)
    rows.append(("first player − the others", None, None,
                 Estimate(advantage.value, advantage.low, advantage.high, advantage.n,
                          "difference")))
    return Table(
        title or "Seats in a round: does playing first help?",
        ("position", "goes out", "lays down first", "points per round"), tuple(rows),
        f"{len(facts)} games × {ROUNDS} rounds. The deal passes left each round (H2), so "
        "every player holds each position in turn. Intervals of the last two rows are over "
        "games; shares over rounds.")


def seat_game_table(facts: Sequence[GameFacts], title: str = "") -> Table:
    """Does the seat matter over a whole game? Positions from the first dealer's left."""
    if not facts:
        return Table(title or "Seats in a game", ("position",), ())
    n = facts[0].players
    rows: list[tuple[Cell, ...]] = []
    for p in range(1, n + 1):
        first_in = ", ".join(str(r) for r in range(1, ROUNDS + 1) if (r - 1) % n == p - 1)
        seats = [next(s for s in range(n) if g.game_position(s) == p) for g in facts]
        rows.append((
            _position_label(p, n) if p < n else f"{p} (first dealer)", first_in,
            _share(s in g.winners for g, s in zip(facts, seats, strict=True)),
            mean_ci(g.totals[s] for g, s in zip(facts, seats, strict=True))))

    def lead(g: GameFacts) -> float:
        first = next(s for s in range(n) if g.game_position(s) == 1)
        return g.totals[first] - statistics.fmean(t for s, t in enumerate(g.totals)
                                                  if s != first)

    advantage = mean_ci(lead(g) for g in facts)
    rows.append(("1 − the others", None, None, Estimate(
        advantage.value, advantage.low, advantage.high, advantage.n, "difference")))
    return Table(
        title or "Seats in a game: does the starting seat matter?",
        ("position", "plays first in rounds", "wins the game", "game total"), tuple(rows),
        f"{len(facts)} games. A shared win counts for every winner (T21), so the shares can "
        f"add up to a little more than 100%.")


def bot_table(facts: Sequence[GameFacts], title: str = "") -> Table:
    """Each kind of bot at the table: wins, totals, buys; and the differences per game."""
    if not facts:
        return Table(title or "Bots", ("bot",), ())
    kinds = sorted(set(facts[0].bots), key=facts[0].bots.index)

    def seats(g: GameFacts, kind: str) -> list[int]:
        return [s for s, b in enumerate(g.bots) if b == kind]

    def mean_total(g: GameFacts, kind: str) -> float:
        return statistics.fmean(g.totals[s] for s in seats(g, kind))

    rows: list[tuple[Cell, ...]] = []
    for kind in kinds:
        rows.append((
            kind, len(seats(facts[0], kind)),
            _share(s in g.winners for g in facts for s in seats(g, kind)),
            mean_ci(mean_total(g, kind) for g in facts),
            mean_ci(statistics.fmean(sum(len(r.buy_turns[s]) for r in g.rounds)
                                     for s in seats(g, kind)) for g in facts),
            _share(r.went_out == s for g in facts for r in g.rounds for s in seats(g, kind))))
    for kind in kinds[1:]:
        rows.append((f"{kind} − {kinds[0]}", None, None,
                     paired_ci([mean_total(g, kinds[0]) for g in facts],
                               [mean_total(g, kind) for g in facts]), None, None))
    return Table(
        title or "The bots against each other",
        ("bot", "seats", "wins the game", "game total", "buys per game",
         "goes out in a round"), tuple(rows),
        f"{len(facts)} games. Per player of each kind: lower totals are better (T21). A "
        "difference row compares the two kinds' average totals within each game; an interval "
        "that excludes 0 means the difference is not chance.")


def _quantiles(values: Sequence[float]) -> tuple[float, float, float]:
    if len(values) < 2:
        v = values[0] if values else _NAN
        return v, v, v
    q = statistics.quantiles(values, n=10, method="inclusive")
    return q[0], statistics.median(values), q[8]


def score_table(run: Run) -> Table:
    """How are the scores spread? One column per arm."""
    names = _arm_names(run)
    rows: list[tuple[Cell, ...]] = []
    per_arm = [list(f) for f in run.facts]
    rows.append(("games", *(len(f) for f in per_arm)))
    rows.append(("points per player per game",
                 *(mean_ci(statistics.fmean(g.totals) for g in f) for f in per_arm)))
    rows.append(("winning total", *(mean_ci(min(g.totals) for g in f) for f in per_arm)))
    rows.append(("highest − lowest total",
                 *(mean_ci(max(g.totals) - min(g.totals) for g in f) for f in per_arm)))
    spread = [_quantiles([t for g in f for t in g.totals]) for f in per_arm]
    for k, label in enumerate(("a player's total: 10th percentile", "median",
                               "90th percentile")):
        rows.append((label, *(s[k] for s in spread)))
    rows.append(("rounds someone goes out (of 11)",
                 *(mean_ci(sum(r.went_out is not None for r in g.rounds) for g in f)
                   for f in per_arm)))
    return Table("How are the scores spread?", ("", *names), tuple(rows),
                 "Means with 95% intervals over games; percentiles of every player's total.")


# -- comparing two configurations (paired) -------------------------------------------------
def _mean_first_down(g: GameFacts) -> float | None:
    downs = [r.first_down for r in g.rounds if r.first_down is not None]
    return statistics.fmean(downs) if downs else None


#: (label, per-game value or None, is the value a share?)
GAME_METRICS: tuple[tuple[str, Callable[[GameFacts], float | None], bool], ...] = (
    ("points per player per game", lambda g: statistics.fmean(g.totals), False),
    ("winning total", lambda g: min(g.totals), False),
    ("highest − lowest total", lambda g: max(g.totals) - min(g.totals), False),
    ("rounds someone goes out (of 11)",
     lambda g: sum(r.went_out is not None for r in g.rounds), False),
    ("turns per round", lambda g: statistics.fmean(r.turns for r in g.rounds), False),
    ("turn of the first lay-down", _mean_first_down, False),
    ("buys per player per game",
     lambda g: sum(len(b) for r in g.rounds for b in r.buy_turns) / g.players, False),
    ("dealt hands that hold the contract",
     lambda g: statistics.fmean(m for r in g.rounds for m in r.dealt_meets), True),
    ("rounds the stock is rebuilt (of 11)",
     lambda g: sum(r.restocks > 0 for r in g.rounds), False),
)


def _arm_names(run: Run) -> list[str]:
    if len(run.arms) == 1:
        return ["A"]
    return ["A", "B"] if len(run.arms) == 2 else [f"arm {i + 1}" for i in range(len(run.arms))]


def _paired(pairs: Sequence[tuple[GameFacts, GameFacts]],
            value: Callable[[GameFacts], float | None], share: bool
            ) -> tuple[Estimate, Estimate, Estimate]:
    both = [(va, vb) for va, vb in ((value(a), value(b)) for a, b in pairs)
            if va is not None and vb is not None]
    xs, ys = [p[0] for p in both], [p[1] for p in both]
    if not share:
        return mean_ci(xs), mean_ci(ys), paired_ci(xs, ys)
    return _clip(mean_ci(xs, "percent")), _clip(mean_ci(ys, "percent")), paired_ci(xs, ys, True)


def _clip(e: Estimate) -> Estimate:
    """A mean of shares with its interval kept within 0–100 %."""
    if math.isnan(e.low):
        return e
    return Estimate(e.value, max(0.0, e.low), min(1.0, e.high), e.n, e.kind)


def _compare_note(run: Run, pairs: int) -> str:
    a, b = run.arms[0], run.arms[1]
    return (f"A: {a.describe()}. B: {b.describe()}. {pairs} games played under both on the "
            "same seeds; B − A is the mean of the per-game differences with its 95% interval "
            "(pp: percentage points). An interval that excludes 0 is a real difference.")


def compare_table(run: Run, a: int = 0, b: int = 1) -> Table:
    """A against B on the same seeds, game by game."""
    pairs = run.pairs(a, b)
    rows = [(label, *_paired(pairs, value, share)) for label, value, share in GAME_METRICS]
    return Table("A against B (paired games)", ("", "A", "B", "B − A"), tuple(rows),
                 _compare_note(run, len(pairs)))


def compare_rounds_table(run: Run, a: int = 0, b: int = 1) -> Table:
    """A against B round by round: points left per player and going out."""
    pairs = run.pairs(a, b)
    rows: list[tuple[Cell, ...]] = []
    for r in range(1, ROUNDS + 1):
        ok = [(x, y) for x, y in pairs if len(x.rounds) >= r and len(y.rounds) >= r]

        def points(g: GameFacts, r: int = r) -> float:
            return statistics.fmean(g.rounds[r - 1].points)

        def out(g: GameFacts, r: int = r) -> float:
            return float(g.rounds[r - 1].went_out is not None)

        rows.append((r, str(contract_for(r)), *_paired(ok, points, False),
                     *_paired(ok, out, True)))
    return Table("A against B, round by round",
                 ("round", "contract", "points A", "points B", "points B − A",
                  "goes out A", "goes out B", "goes out B − A"), tuple(rows),
                 "Points left per player in the round; 'goes out': someone went out. "
                 + _compare_note(run, len(pairs)))


# -- fresh deals, no play ----------------------------------------------------------------------
def deal_share(cards: Sequence[Card], hand_size: int, round_number: int, rules: Rules,
               hands: int, seed: int = 0) -> Estimate:
    """The share of `hands` random hands of `hand_size` cards from `cards` (any shoe,
    also a reduced one) that already hold the round's contract."""
    rng = random.Random(f"toonerville:deal:{seed}:{round_number}:{hand_size}")
    hits = sum(hand_meets(rng.sample(list(cards), hand_size), round_number, rules)
               for _ in range(hands))
    return wilson(hits, hands)


def deal_table(players: int = 4, rules: Rules | None = None, hands: int = 400, seed: int = 0,
               rounds: Iterable[int] = range(1, ROUNDS + 1),
               progress: Progress | None = None) -> Table:
    """How often does a freshly dealt hand already hold the contract? (No play needed.)"""
    rules = rules or Rules()
    cards = shoe(players)
    chosen = list(rounds)
    rows = []
    for k, r in enumerate(chosen, 1):
        rows.append((r, str(contract_for(r)), rules.deal_size(r),
                     deal_share(cards, rules.deal_size(r), r, rules, hands, seed)))
        if progress is not None:
            progress(k, len(chosen))
    return Table("How often does a fresh deal already hold the contract?",
                 ("round", "contract", "cards dealt", "hands that hold it"), tuple(rows),
                 f"{hands} random hands per round from a {players}-player shoe "
                 f"({len(cards)} cards), seed {seed}; 95% Wilson intervals.")


# -- the questions ---------------------------------------------------------------------------
QUESTIONS: dict[str, str] = {
    "rounds": "How hard is each round?",
    "buying": "Does buying pay?",
    "seats": "Does it matter where you sit?",
    "bots": "How do the bots compare?",
    "scores": "How are the scores spread?",
    "compare": "What does a house rule change? (A against B)",
    "deals": "How often does a fresh deal already hold the contract? (no play)",
}

#: Comparisons a class often asks about: what B changes from A.
PRESETS: dict[str, dict[str, Any]] = {
    "5 players instead of 4": {"players": 5},
    "3 players instead of 4": {"players": 3},
    "H4: round 11 deals 12, not 14": {"round11_deal": 12},
    "H5: no buying": {"max_buys_per_round": 0},
    "H5: at most 1 buy per player per round": {"max_buys_per_round": 1},
    "H5: 2 penalty cards per buy": {"penalty_cards": 2},
    "H5: no penalty card": {"penalty_cards": 0},
    "H1: at most 1 Rook per meld": {"max_rooks_per_meld": 1},
    "H7: melds beyond the contract allowed": {"extra_melds": True},
    "H8: two sets of one number allowed": {"same_number_sets": True},
    "H9: no laying off on the lay-down turn": {"lay_off_same_turn": False},
}


def tables_for(run: Run, question: str = "all") -> list[Table]:
    """The tables that answer `question` (a key of QUESTIONS but "deals", or "all")."""
    if question != "all" and question not in QUESTIONS:
        raise RulesError(msg("unknown question {q!r}: choose from {choices}", None,
                             q=question, choices=", ".join(["all", *QUESTIONS])))
    names = _arm_names(run)

    def each(make: Callable[[Sequence[GameFacts], str], Table], title: str) -> list[Table]:
        if len(run.arms) == 1:
            return [make(run.facts[0], "")]
        return [make(f, f"{title} — {name}") for f, name in zip(run.facts, names, strict=True)]

    out: list[Table] = []
    if question in ("rounds", "all"):
        out += [round_table(f, arm.rules, t) for f, arm, t in zip(
            run.facts, run.arms, [""] if len(run.arms) == 1 else
            [f"How hard is each round? — {n}" for n in names], strict=True)]
    if question in ("buying", "all"):
        out += each(buying_table, "Buying")
        if question == "buying" and any(len(set(a.bots)) > 1 for a in run.arms):
            out += each(bot_table, "The bots against each other")
    if question in ("seats", "all"):
        out += each(seat_round_table, "Seats in a round")
        out += each(seat_game_table, "Seats in a game")
    if question in ("bots", "all"):
        out += each(bot_table, "The bots against each other")
    if question in ("scores", "all"):
        out.append(score_table(run))
    if question in ("compare", "all") and len(run.arms) >= 2:
        out += [compare_table(run), compare_rounds_table(run)]
    if question == "compare" and len(run.arms) < 2:
        raise RulesError(msg("a comparison needs a configuration B: give --compare "
                             "name=value (or choose B's rules)", None))
    return out


# -- export --------------------------------------------------------------------------------
CSV_COLUMNS = ("arm", "game", "game_seed", "round", "seat", "bot", "dealer", "position",
               "points", "game_total", "went_out", "ended_by", "turns", "restocks",
               "down_turn", "buys", "buy_turns", "dealt_meets", "dealt")


def csv_rows(run: Run) -> Iterable[dict[str, Any]]:
    """One row per arm, game, round and seat: the raw records."""
    names = _arm_names(run)
    for name, facts in zip(names, run.facts, strict=True):
        for g in facts:
            totals = g.totals
            for r in g.rounds:
                for s in range(g.players):
                    down = r.down_turn[s]
                    yield {"arm": name, "game": g.index, "game_seed": g.seed,
                           "round": r.round_number, "seat": s, "bot": g.bots[s],
                           "dealer": r.dealer, "position": r.position(s),
                           "points": r.points[s], "game_total": totals[s],
                           "went_out": int(r.went_out == s), "ended_by": r.ended_by,
                           "turns": r.turns, "restocks": r.restocks,
                           "down_turn": "" if down is None else down,
                           "buys": len(r.buy_turns[s]),
                           "buy_turns": " ".join(map(str, r.buy_turns[s])),
                           "dealt_meets": int(r.dealt_meets[s]),
                           "dealt": r.dealt[s] if r.dealt else ""}


def write_csv(run: Run, file: IO[str]) -> int:
    """Write the raw records as CSV; returns the number of rows."""
    writer = csv.DictWriter(file, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    count = 0
    for row in csv_rows(run):
        writer.writerow(row)
        count += 1
    return count


def run_json(run: Run, tables: Sequence[Table] = (), records: bool = True) -> dict[str, Any]:
    """The run as plain JSON: the configurations, timing, the tables and (by default)
    every game's facts."""
    data: dict[str, Any] = {
        "games": run.games, "seed": run.seed, "workers": run.workers,
        "seconds": round(run.seconds, 3), "cancelled": run.cancelled,
        "complete": run.complete,
        "arms": [{"name": name, "bots": list(arm.bots), "rules": arm.rules.changes(),
                  "turn_limit": arm.turn_limit, "description": arm.describe(),
                  "games_played": len(facts)}
                 for name, arm, facts in zip(_arm_names(run), run.arms, run.facts,
                                             strict=True)],
        "tables": [t.to_dict() for t in tables]}
    if records:
        data["records"] = {name: [g.to_dict() for g in facts]
                           for name, facts in zip(_arm_names(run), run.facts, strict=True)}
    return data


def run_from_json(data: dict[str, Any]) -> Run:
    """A run saved by `run_json` (with its records), to look at again."""
    arms = tuple(Arm(tuple(a["bots"]), Rules.from_dict(a["rules"]), a["turn_limit"])
                 for a in data["arms"])
    names = [a["name"] for a in data["arms"]]
    facts = tuple(tuple(GameFacts.from_dict(g) for g in data["records"][name])
                  for name in names)
    return Run(arms, data["games"], data["seed"], facts, data["cancelled"],
               data["seconds"], data["workers"])
