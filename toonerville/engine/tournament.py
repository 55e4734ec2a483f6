"""Tournaments (T22, H11): each table's deal, the tournament as a value, the master sheet.

Who sits where each round (the H11 switches of `Rules.seating`) is `seating`'s job
(`seat_round`, `spread_schedule`, `table_sizes`, `meetings` ...). The dealer of every
table is drawn at random (seeded).
`Tournament` is the whole tournament as a value (JSON for the store, so it survives a
server restart).

Design of a tournament table: a T22 round is one of the game's 11 rounds, so each table
of tournament round r plays exactly game round r (its deal size and contract) and then
the players reseat. The simplest correct way with the public `Game` API is
`Game.from_position`: `table_game` deals round r itself (seeded shuffle, one card at a
time from the dealer's left, the top of the stock turned up, a turned-up Rook buried
under H3) and starts a game at round r whose earlier rows are the players' own
tournament scores; the table is finished when round r has a record (the game would go on
to deal round r + 1, which nobody plays).
"""

from __future__ import annotations

import csv
import io
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from .cards import format_cards, shoe
from .deal import deal
from .errors import RulesError
from .game import Game
from .messages import msg
from .names import bot_names
from .rules import ROUNDS, Rules
from .scoring import MasterSheet, Standing, place_label
from .seating import Seating_, seat_round, table_sizes
from .state import MAX_NAME


def dealer_for(seed: int, round_number: int, table: int, players: int) -> int:
    """The dealer of a table, drawn at random (seeded) (H11)."""
    return random.Random(f"toonerville-dealer:{seed}:{round_number}:{table}").randrange(
        players)


def table_game(names: Sequence[str], round_number: int, dealer: int, rules: Rules,
               seed: int, scores: Sequence[Sequence[int]] = (),
               turn_limit: int | None = None) -> Game:
    """A game that starts with round `round_number` dealt (seeded): a tournament table.
    `scores` are the earlier rounds' rows (one number per player), or none for zeros."""
    n = len(names)
    universe = shoe(n)
    order = list(range(len(universe)))
    random.Random(f"toonerville-deal:{seed}:{round_number}").shuffle(order)
    d = deal(order, universe, n, round_number, dealer, rules)  # the one dealer (T7, T8, H3)
    hands = [[universe[i] for i in h] for h in d.hands]
    stock = [universe[i] for i in reversed(d.stock)]  # top first
    up = universe[d.turned_up]
    rows = [list(r) for r in scores] or [[0] * n for _ in range(round_number - 1)]
    return Game.from_position(
        hands=[format_cards(h) for h in hands], stock=format_cards(stock),
        discard_pile=format_cards([up]), round_number=round_number, dealer=dealer,
        rules=rules, seed=seed, names=names, scores=rows, turn_limit=turn_limit)


@dataclass(frozen=True, slots=True)
class RoundTable:
    """One table of one round: its code in the store, its players by seat, the dealer."""

    code: str
    round_number: int
    number: int  # 1, 2, … within the round
    players: tuple[str, ...]
    dealer: int


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament as a value: its players (bots by kind), house rules, seed, how many
    rounds (game rounds 1..rounds, one per tournament round), and the tables of every
    round started so far. The store keeps it as `to_json()`."""

    code: str
    names: tuple[str, ...]
    bots: Mapping[str, str] = field(default_factory=dict)  # bot player → bot kind
    rules: Rules = field(default_factory=Rules)
    seed: int = 0
    rounds: int = ROUNDS
    turn_limit: int | None = 200
    tables: tuple[tuple[RoundTable, ...], ...] = ()

    def __post_init__(self) -> None:
        table_sizes(len(self.names))
        if len(set(self.names)) != len(self.names) or any(
                not isinstance(n, str) or not n.strip() for n in self.names):
            raise RulesError(msg("every player in a tournament needs a different name",
                                 "T22"))
        for name in self.names:  # (each plays at a table, where a game checks it again)
            if len(name) > MAX_NAME:
                raise RulesError(msg("the name '{name}…' is too long: at most {k} characters",
                                     None, name=name[:20], k=MAX_NAME))
        if not isinstance(self.rounds, int) or not 1 <= self.rounds <= ROUNDS:
            raise RulesError(msg("a tournament plays 1 to 11 rounds, not {r}", "T22",
                                 r=self.rounds))
        if any(b not in self.names for b in self.bots):
            raise RulesError(msg("every bot of a tournament must be one of its players",
                                 "T22"))

    @classmethod
    def new(cls, code: str, names: Sequence[str], *, bots: int = 0, bot_kind: str = "heuristic",
            rules: Rules | None = None, seed: int = 0, rounds: int = ROUNDS,
            turn_limit: int | None = 200) -> Tournament:
        """A tournament of the learners `names`, with `bots` bots added (and as many more
        as it takes to reach 3 players), named as every table names its bots ("Crow",
        "Jay", …, never a learner's name: `names.bot_names`)."""
        learners = tuple(n.strip() if isinstance(n, str) else n for n in names)
        count = max(bots, 3 - len(learners))
        birds = bot_names(count, (n for n in learners if isinstance(n, str)))
        return cls(code, learners + birds, {b: bot_kind for b in birds},
                   rules or Rules(), seed, rounds, turn_limit)

    @property
    def learners(self) -> tuple[str, ...]:
        return tuple(n for n in self.names if n not in self.bots)

    @property
    def round_number(self) -> int:
        """The round being played (0 before the start)."""
        return len(self.tables)

    def seating(self, round_number: int, totals: Mapping[str, int] | None = None
                ) -> Seating_:
        return seat_round(self.names, round_number, self.seed, self.rules.seating, totals)

    def with_round(self, codes: Sequence[str], totals: Mapping[str, int] | None = None
                   ) -> Tournament:
        """This tournament with its next round seated at tables with these codes."""
        r = self.round_number + 1
        if r > self.rounds:
            raise RulesError(msg("the tournament is over: all {k} rounds are played",
                                 "T22", k=self.rounds))
        seating = self.seating(r, totals)
        tables = tuple(
            RoundTable(code, r, i, players, dealer_for(self.seed, r, i, len(players)))
            for i, (code, players) in enumerate(zip(codes, seating, strict=True), start=1))
        return replace(self, tables=self.tables + (tables,))

    def table_of(self, name: str, round_number: int | None = None) -> RoundTable:
        """The table `name` plays at in a round (default: the current one)."""
        r = self.round_number if round_number is None else round_number
        if not 1 <= r <= self.round_number:
            raise RulesError(msg("round {r} of the tournament has not started", "T22", r=r))
        for table in self.tables[r - 1]:
            if name in table.players:
                return table
        raise RulesError(msg("{name} is not in this tournament", "T22", name=name))

    # -- notation --------------------------------------------------------------------
    def to_json(self) -> str:
        return json.dumps({
            "code": self.code, "names": list(self.names), "bots": dict(self.bots),
            "rules": self.rules.changes(), "seed": self.seed, "rounds": self.rounds,
            "turn_limit": self.turn_limit,
            "tables": [[{"code": t.code, "players": list(t.players), "dealer": t.dealer}
                        for t in round_tables] for round_tables in self.tables]},
            ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Tournament:
        data = json.loads(text)
        tables = tuple(
            tuple(RoundTable(t["code"], r, i, tuple(t["players"]), t["dealer"])
                  for i, t in enumerate(round_tables, start=1))
            for r, round_tables in enumerate(data["tables"], start=1))
        return cls(data["code"], tuple(data["names"]), dict(data["bots"]),
                   Rules.from_dict(data["rules"]), data["seed"], data["rounds"],
                   data["turn_limit"], tables)


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One player's line of the master sheet."""

    standing: Standing
    tables: tuple[int | None, ...]  # table number in each round started
    points: tuple[int | None, ...]  # points in each round (None: not finished)


def master_sheet(t: Tournament, points: Mapping[str, Sequence[int] | None]) -> tuple[
        SheetRow, ...]:
    """The live master sheet (T22): everyone ranked by total so far, ties sharing a place,
    with their table and points in every round. `points` maps a table code to its seats'
    points once that table has finished (missing or None: still playing)."""
    sheet = MasterSheet(t.names)
    for round_tables in t.tables:
        for table in round_tables:
            got = points.get(table.code)
            if got is not None:
                sheet.record(table.round_number, dict(zip(table.players, got, strict=True)),
                             table=table.number)
    rows = []
    for s in sheet.standings():
        tables = tuple(t.table_of(s.name, r).number for r in range(1, t.round_number + 1))
        done = sheet.rows[s.name]
        pts = tuple(done[r] if r < len(done) else None for r in range(t.round_number))
        rows.append(SheetRow(s, tables, pts))
    return tuple(rows)


#: what a spreadsheet reads a cell starting with as a formula (or the start of one)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def sheet_cell(value: object) -> object:
    """A value as a CSV cell no spreadsheet reads as a formula: a text starting like one
    (`=HYPERLINK(…)`, `+1+1`, `@SUM(A1)`, a name typed with a tab) gets a leading
    apostrophe, which spreadsheets take as "this is text" and do not show."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def sheet_csv(rows: Sequence[SheetRow]) -> str:
    """The master sheet as CSV: place, name, total, then table and points per round.
    Every text cell is a `sheet_cell`: a learner's name is never run as a formula."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    rounds = max((len(r.tables) for r in rows), default=0)
    header = ["place", "name", "total"]
    for r in range(1, rounds + 1):
        header += [f"round {r} table", f"round {r} points"]
    writer.writerow(header)
    for row in rows:
        line: list[object] = [place_label(row.standing.place, row.standing.shared),
                              row.standing.name, row.standing.total]
        for table, pts in zip(row.tables, row.points, strict=True):
            line += [table if table is not None else "", "" if pts is None else pts]
        writer.writerow([sheet_cell(cell) for cell in line])
    return out.getvalue()
