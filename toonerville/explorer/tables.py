"""The explorer's answers: titled tables of estimates.

Owns `ResultTable` (aligned text, an HTML table, plain JSON; one number of decimals for
a whole table) and the tables a teacher asks for: how hard each round is, buying, seats
and the first player, bot against bot, the spread of scores, a paired comparison of two
configurations, and how often a fresh deal already holds the contract (no play). Where
the chance is computable (a sets-only contract in a fresh deal) the exact value stands
beside the simulated one. `questions` says which tables answer which question.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from ..engine.cards import shoe
from ..engine.messages import N_, Message, msg, ngettext, translate
from ..engine.rules import ROUNDS, Rules, contract_for
from ..players.bots import BOT_KIND_WORDS
from .deals import Exact, exact_or_none, fresh_deal
from .exact import exact_deal_share
from .facts import GameFacts, RoundFacts
from .runner import Progress, Simulation
from .stats import (
    SHARE_KINDS,
    Estimate,
    count_mean_ci,
    mean_ci,
    paired_ci,
    share_mean_ci,
    wilson,
)


class Text(str):
    """A text a table shows: as a `str` it is the English (what a lookup, a test and the
    JSON see), and `shown(text)` is the same text in the language in use, at the moment
    it is shown, so a table built once is drawn again in another language. Its parts
    are message templates (a `str` is a template without parameters, a `Message` one
    with them, `Text.plural(...)` a count) joined end to end; `+` joins two."""

    parts: tuple[Any, ...]

    def __new__(cls, *parts: Any) -> Text:
        kept = tuple(p for p in parts if not (isinstance(p, str) and not p))
        self = super().__new__(cls, "".join(_english(p) for p in kept))
        self.parts = kept
        return self

    @classmethod
    def plural(cls, singular: str, plural_form: str, n: int, **params: Any) -> Text:
        """A count: "{n} game" / "{n} games", by the plural rule of the language shown."""
        return cls(_Count(singular, plural_form, n, params))

    def shown(self) -> str:
        """The text in the language in use."""
        return "".join(_part_shown(p) for p in self.parts)

    def __add__(self, other: str) -> Text:
        return Text(*self.parts, *(other.parts if isinstance(other, Text) else (other,)))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Text, self.parts)


@dataclass(frozen=True)
class _Count:
    singular: str
    plural_form: str
    n: int
    params: dict[str, Any]


def _english(part: Any) -> str:
    if isinstance(part, _Count):
        form = part.singular if part.n == 1 else part.plural_form
        return form.format(n=part.n, **part.params)
    if isinstance(part, Message):
        return part.template.format(**part.params)
    return str(part)


def _fill(template: str, english: str, params: dict[str, Any]) -> str:
    shown = {k: shown_text(v) for k, v in params.items()}
    try:
        return template.format(**shown)
    except (KeyError, IndexError, ValueError):  # a translation with other placeholders
        return english.format(**shown)


def _part_shown(part: Any) -> str:
    if isinstance(part, _Count):
        template = ngettext(part.singular, part.plural_form, part.n)
        english = part.singular if part.n == 1 else part.plural_form
        return _fill(template, english, {"n": part.n, **part.params})
    if isinstance(part, Message):
        return _fill(translate(part.template), part.template, dict(part.params))
    if isinstance(part, Text):  # a sentence made of parts: each in the language in use
        return part.shown()
    return translate(part) if isinstance(part, str) and part else str(part)


def shown_text(value: Any) -> Any:
    """A `Text` in the language in use; anything else as it is."""
    return value.shown() if isinstance(value, Text) else value


Cell = str | int | float | Estimate | Exact | None


@dataclass(frozen=True)
class ResultTable:
    """A titled table: `str(table)` is aligned text, `_repr_html_` a notebook table,
    `to_dict()` plain JSON (estimates as value, low, high, n). Numbers and differences
    share one number of decimals (`decimals`, or 1 when any of them reaches 10, else
    2); shares always have 1."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    note: str = ""
    decimals: int | None = None

    def __repr__(self) -> str:
        return (f"<ResultTable {self.title!r}: {len(self.rows)} rows × "
                f"{len(self.columns)} columns>")

    def column(self, name: str) -> list[Cell]:
        k = self.columns.index(name)
        return [row[k] for row in self.rows]

    def row(self, key: Cell) -> tuple[Cell, ...]:
        """The row whose first cell is `key`."""
        return next(r for r in self.rows if r[0] == key)

    def cell(self, key: Cell, column: str) -> Cell:
        """The cell of row `key` in `column`."""
        return self.row(key)[self.columns.index(column)]

    @property
    def places(self) -> int:
        """The decimals of this table's numbers and differences."""
        if self.decimals is not None:
            return self.decimals
        sizes = [c.magnitude for row in self.rows for c in row[1:]
                 if isinstance(c, Estimate) and c.kind not in SHARE_KINDS]
        sizes += [abs(c) for row in self.rows for c in row[1:]
                  if isinstance(c, float) and not math.isnan(c)]
        return 1 if max(sizes, default=0.0) >= 10 else 2

    def show(self, cell: Cell) -> str:
        """One cell as text, with this table's decimals."""
        if cell is None:
            return "–"
        if isinstance(cell, Estimate):
            return cell.format(self.places)
        if isinstance(cell, float):
            return "–" if math.isnan(cell) else f"{cell:.{self.places}f}"
        return cell.shown() if isinstance(cell, Text) else str(cell)

    @property
    def headings(self) -> list[str]:
        """The column headings in the language in use (`columns` stay English: they
        are the names a column is looked up by)."""
        return [c.shown() if isinstance(c, Text) else translate(c) if c else c
                for c in self.columns]

    @property
    def shown_title(self) -> str:
        """The title in the language in use."""
        return str(shown_text(self.title))

    @property
    def shown_note(self) -> str:
        """The note in the language in use."""
        return str(shown_text(self.note))

    def __str__(self) -> str:
        cells = [self.headings] + [[self.show(c) for c in row] for row in self.rows]
        widths = [max(len(r[k]) for r in cells) for k in range(len(self.columns))]
        left = [k == 0 or all(isinstance(row[k], str) for row in self.rows)
                for k in range(len(self.columns))]
        title = self.shown_title
        lines = [title, "=" * len(title)]
        for i, r in enumerate(cells):
            lines.append("  ".join(c.ljust(w) if left[k] else c.rjust(w)
                                   for k, (c, w) in enumerate(zip(r, widths, strict=True))
                                   ).rstrip())
            if i == 0:
                lines.append("  ".join("-" * w for w in widths))
        if self.note:
            lines.append(self.shown_note)
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        head = "".join(f'<th scope="col">{escape(c)}</th>' for c in self.headings)
        body = "".join("<tr>" + "".join(
            f'<td style="text-align:{"left" if k == 0 else "right"}">'
            f"{escape(self.show(c))}</td>" for k, c in enumerate(row)) + "</tr>"
            for row in self.rows)
        note = f"<p><small>{escape(self.shown_note)}</small></p>" if self.note else ""
        return (f'<div class="tv-explorer-table"><h4>{escape(self.shown_title)}</h4><table>'
                f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{note}</div>")

    def to_dict(self) -> dict[str, Any]:
        return {"title": str(self.title), "columns": list(self.columns), "note": str(self.note),
                "rows": [[c.to_dict() if isinstance(c, Estimate | Exact) else c for c in row]
                         for row in self.rows]}


def _rounds(facts: Sequence[GameFacts], r: int) -> list[RoundFacts]:
    return [g.rounds[r - 1] for g in facts if len(g.rounds) >= r]


def _share(flags: Iterable[bool]) -> Estimate:
    xs = list(flags)
    return wilson(sum(xs), len(xs))


def _games(facts: Sequence[GameFacts] | int) -> str:
    n = facts if isinstance(facts, int) else len(facts)
    return Text.plural("{n} game", "{n} games", n)


def games_phrase(sim: Simulation) -> str:
    """How many games a result rests on: "10 games" for one configuration, "10 games
    per configuration" for a comparison or a sweep (a cancelled run may have finished
    a few more under some configurations: "9–10 games per configuration")."""
    counts = sim.games_per_arm
    if len(counts) == 1:
        return _games(counts[0])
    low, high = min(counts), max(counts)
    many = (Text(msg("{low}–{high} games", None, low=low, high=high)) if low != high
            else _games(low))
    return Text(msg("{games} per configuration", None, games=many))


def limit_note(facts: Sequence[GameFacts]) -> str:
    """A sentence for a table's note when rounds were cut short by the turn limit."""
    hit = sum(r.ended_by == "turn_limit" for g in facts for r in g.rounds)
    rounds = sum(len(g.rounds) for g in facts)
    return (Text(" ", msg("{hit} of {rounds} rounds reached the turn limit and were scored "
                          "as they stood.", None, hit=hit, rounds=rounds))
            if hit else Text())


_INTERVALS = N_("95% confidence intervals in brackets: Wilson for shares; for means of "
              "counts and points, a log-scale interval that cannot go below 0; t for "
              "differences.")


def round_table(facts: Sequence[GameFacts], rules: Rules, title: str = "") -> ResultTable:
    """How hard is each round? One row per round."""
    rows = []
    players = facts[0].players if facts else 4
    for r in range(1, ROUNDS + 1):
        rs = _rounds(facts, r)
        rows.append((
            r, f"{contract_for(r)} ({rules.deal_size(r)})",
            _share(m for x in rs for m in x.dealt_meets),
            exact_or_none(exact_deal_share(players, r, rules)),
            count_mean_ci(x.first_down for x in rs if x.first_down is not None),
            _share(x.went_out is not None for x in rs),
            count_mean_ci(x.turns for x in rs),
            count_mean_ci(statistics.fmean(x.points) for x in rs),
            _share(x.restocks > 0 for x in rs),
            _share(x.ended_by == "stock" for x in rs)))
    return ResultTable(
        title or Text(N_("How hard is each round?")),
        (N_("round"), N_("contract (deal)"), N_("dealt hand holds it"), N_("exact"),
         N_("first lay-down"), N_("someone goes out"), N_("turns"), N_("points left/player"),
         N_("stock rebuilt"), N_("stock ran out")),
        tuple(rows),
        Text(msg("{games}. {intervals} 'Dealt hand holds it': the share of freshly dealt "
                 "hands that already hold the contract's melds; 'exact': the same chance "
                 "counted exactly, for the rounds of sets only. Turns count every player's "
                 "turn (turn 1 is the first player's); 'first lay-down' is the turn of the "
                 "round's first lay-down. 'Stock ran out': the round ended because there was "
                 "nothing left to rebuild the stock from (H6).", None, games=_games(facts),
                 intervals=Text(_INTERVALS)), limit_note(facts)))


def buying_table(facts: Sequence[GameFacts], title: str = "") -> ResultTable:
    """Buys per round, and what followed a buy by a player who was not yet down."""
    rows = []
    for r in range(1, ROUNDS + 1):
        rs = _rounds(facts, r)
        outcomes = [x.buy_outcome(s, t) for x in rs for s, t in x.buys()]
        fresh = [o for o in outcomes if o != "already_down"]
        rows.append((
            r, str(contract_for(r)),
            count_mean_ci(sum(len(b) for b in x.buy_turns) for x in rs),
            _share(any(x.buy_turns) for x in rs),
            len(fresh),
            _share(o == "next_turn" for o in fresh),
            _share(o in ("next_turn", "later") for o in fresh),
            len(outcomes) - len(fresh)))
    return ResultTable(
        title or Text(N_("Buying")),
        (N_("round"), N_("contract"), N_("buys per round"), N_("rounds with a buy"),
         N_("buys by players not down"), N_("buyer lays down next turn"),
         N_("buyer lays down this round"), N_("buys by players down")),
        tuple(rows),
        Text(msg("{games}. The two lay-down columns count buys by players not yet down. "
                 "Whether buying pays: seat 'nobuy' bots (heuristic bots that never buy) "
                 "beside heuristic ones, or compare max_buys_per_round=0 with the default.",
                 None, games=_games(facts))))


def _position_label(p: int, players: int) -> str:
    if p == 1:
        return Text(msg("{p} (plays first)", None, p=p))
    return Text(msg("{p} (dealer)", None, p=p)) if p == players else str(p)


def first_player_edge(g: GameFacts) -> float:
    """Per round of a game, the first player's points minus the others' average,
    averaged over the game's rounds (negative: playing first helps)."""
    n = g.players
    return statistics.fmean(
        r.points[r.seat_at(1)] - statistics.fmean(r.points[r.seat_at(q)]
                                                  for q in range(2, n + 1))
        for r in g.rounds)


def seat_round_table(facts: Sequence[GameFacts], title: str = "") -> ResultTable:
    """Does it matter where you sit in a round? Positions counted from the dealer's left."""
    if not facts:
        return ResultTable(title or Text(N_("Seats in a round")), (N_("position"),), ())
    n = facts[0].players
    rows: list[tuple[Cell, ...]] = []
    for p in range(1, n + 1):
        rows.append((
            _position_label(p, n),
            _share(r.went_out == r.seat_at(p) for g in facts for r in g.rounds),
            _share(r.first_down is not None and r.down_turn[r.seat_at(p)] == r.first_down
                   for g in facts for r in g.rounds),
            count_mean_ci(statistics.fmean(r.points[r.seat_at(p)] for r in g.rounds)
                          for g in facts)))
    rows.append((Text(N_("first player − the others")), None, None,
                 mean_ci((first_player_edge(g) for g in facts), "difference")))
    return ResultTable(
        title or Text(N_("Seats in a round: does playing first help?")),
        (N_("position"), N_("goes out"), N_("lays down first"), N_("points per round")),
        tuple(rows),
        Text(msg("{games} × {rounds} rounds. The deal passes left each round (H2), so every "
                 "player holds each position in turn. Intervals of the last two rows are "
                 "over games; shares over rounds.", None, games=_games(facts),
                 rounds=ROUNDS)))


def seat_game_table(facts: Sequence[GameFacts], title: str = "") -> ResultTable:
    """Does the seat matter over a whole game? Positions from the first dealer's left."""
    if not facts:
        return ResultTable(title or Text(N_("Seats in a game")), (N_("position"),), ())
    n = facts[0].players
    rows: list[tuple[Cell, ...]] = []
    for p in range(1, n + 1):
        first_in = ", ".join(str(r) for r in range(1, ROUNDS + 1) if (r - 1) % n == p - 1)
        seats = [next(s for s in range(n) if g.game_position(s) == p) for g in facts]
        rows.append((
            _position_label(p, n) if p < n else Text(msg("{p} (first dealer)", None, p=p)),
            first_in,
            _share(s in g.winners for g, s in zip(facts, seats, strict=True)),
            count_mean_ci(g.totals[s] for g, s in zip(facts, seats, strict=True))))

    def lead(g: GameFacts) -> float:
        first = next(s for s in range(n) if g.game_position(s) == 1)
        return g.totals[first] - statistics.fmean(t for s, t in enumerate(g.totals)
                                                  if s != first)

    rows.append((Text(N_("1 − the others")), None, None, mean_ci((lead(g) for g in facts),
                                                       "difference")))
    return ResultTable(
        title or Text(N_("Seats in a game: does the starting seat matter?")),
        (N_("position"), N_("plays first in rounds"), N_("wins the game"), N_("game total")),
        tuple(rows),
        Text(msg("{games}. A shared win counts for every winner (T21), so the shares can add "
                 "up to a little more than 100%.", None, games=_games(facts))))


def bot_table(facts: Sequence[GameFacts], title: str = "") -> ResultTable:
    """Each kind of bot at the table: wins, totals, buys; and the differences per game."""
    if not facts:
        return ResultTable(title or Text(N_("Bots")), (N_("bot"),), ())
    kinds = sorted(set(facts[0].bots), key=facts[0].bots.index)

    def seats(g: GameFacts, kind: str) -> list[int]:
        return [s for s, b in enumerate(g.bots) if b == kind]

    def mean_total(g: GameFacts, kind: str) -> float:
        return statistics.fmean(g.totals[s] for s in seats(g, kind))

    rows: list[tuple[Cell, ...]] = []
    for kind in kinds:
        rows.append((
            Text(BOT_KIND_WORDS.get(kind, kind)), len(seats(facts[0], kind)),
            _share(s in g.winners for g in facts for s in seats(g, kind)),
            count_mean_ci(mean_total(g, kind) for g in facts),
            count_mean_ci(statistics.fmean(sum(len(r.buy_turns[s]) for r in g.rounds)
                                           for s in seats(g, kind)) for g in facts),
            _share(r.went_out == s for g in facts for r in g.rounds for s in seats(g, kind))))
    for kind in kinds[1:]:
        rows.append((Text(BOT_KIND_WORDS.get(kind, kind), " − ",
                          BOT_KIND_WORDS.get(kinds[0], kinds[0])), None, None,
                     paired_ci([mean_total(g, kinds[0]) for g in facts],
                               [mean_total(g, kind) for g in facts]), None, None))
    return ResultTable(
        title or Text(N_("The bots against each other")),
        (N_("bot"), N_("seats"), N_("wins the game"), N_("game total"), N_("buys per game"),
         N_("goes out in a round")), tuple(rows),
        Text(msg("{games}. Per player of each kind: lower totals are better (T21). A "
                 "difference row compares the two kinds' average totals within each game; an "
                 "interval that excludes 0 means the difference is not chance.", None,
                 games=_games(facts))))


def _quantiles(values: Sequence[float]) -> tuple[float, float, float]:
    if len(values) < 2:
        v = float(values[0]) if values else math.nan
        return v, v, v
    q = statistics.quantiles(values, n=10, method="inclusive")
    return q[0], float(statistics.median(values)), q[8]


def arm_names(sim: Simulation) -> list[str]:
    """A, B for one or two configurations; arm 1, arm 2 … for more."""
    if len(sim.arms) == 1:
        return ["A"]
    if len(sim.arms) == 2:
        return ["A", "B"]
    return [Text(msg("arm {i}", None, i=i + 1)) for i in range(len(sim.arms))]


def score_table(sim: Simulation) -> ResultTable:
    """How are the scores spread? One column per arm."""
    names = arm_names(sim)
    rows: list[tuple[Cell, ...]] = []
    per_arm = [list(f) for f in sim.facts]
    rows.append((Text(N_("games")), *(len(f) for f in per_arm)))
    rows.append((Text(N_("points per player per game")),
                 *(count_mean_ci(statistics.fmean(g.totals) for g in f) for f in per_arm)))
    rows.append((Text(N_("winning total")),
                 *(count_mean_ci(min(g.totals) for g in f) for f in per_arm)))
    rows.append((Text(N_("highest − lowest total")),
                 *(count_mean_ci(max(g.totals) - min(g.totals) for g in f) for f in per_arm)))
    spread = [_quantiles([t for g in f for t in g.totals]) for f in per_arm]
    for k, label in enumerate((N_("a player's total: 10th percentile"), N_("median"),
                               N_("90th percentile"))):
        rows.append((Text(label), *(s[k] for s in spread)))
    rows.append((Text(N_("rounds someone goes out (of 11)")),
                 *(count_mean_ci((sum(r.went_out is not None for r in g.rounds) for g in f),
                                 most=ROUNDS) for f in per_arm)))
    return ResultTable(Text(N_("How are the scores spread?")), ("", *names), tuple(rows),
                       Text(msg("{games}. Means with 95% intervals over games (log-scale, "
                                "never below 0); percentiles of every player's total.", None,
                                games=games_phrase(sim))))


# -- comparing two configurations (paired) -------------------------------------------------
def _mean_first_down(g: GameFacts) -> float | None:
    downs = [r.first_down for r in g.rounds if r.first_down is not None]
    return statistics.fmean(downs) if downs else None


#: (label, per-game value or None, is the value a share?); every value is 0 or more
GAME_METRICS: tuple[tuple[str, Callable[[GameFacts], float | None], bool], ...] = (
    (N_("points per player per game"), lambda g: statistics.fmean(g.totals), False),
    (N_("winning total"), lambda g: min(g.totals), False),
    (N_("highest − lowest total"), lambda g: max(g.totals) - min(g.totals), False),
    (N_("rounds someone goes out (of 11)"),
     lambda g: sum(r.went_out is not None for r in g.rounds), False),
    (N_("turns per round"), lambda g: statistics.fmean(r.turns for r in g.rounds), False),
    (N_("turn of the first lay-down"), _mean_first_down, False),
    (N_("buys per player per game"),
     lambda g: sum(len(b) for r in g.rounds for b in r.buy_turns) / g.players, False),
    (N_("dealt hands that hold the contract"),
     lambda g: statistics.fmean(m for r in g.rounds for m in r.dealt_meets), True),
    (N_("rounds the stock is rebuilt (of 11)"),
     lambda g: sum(r.restocks > 0 for r in g.rounds), False),
)
_MOST = {"rounds someone goes out (of 11)": ROUNDS, "rounds the stock is rebuilt (of 11)": ROUNDS}


def _paired(pairs: Sequence[tuple[GameFacts, GameFacts]],
            value: Callable[[GameFacts], float | None], share: bool,
            most: float | None = None) -> tuple[Estimate, Estimate, Estimate]:
    both = [(va, vb) for va, vb in ((value(a), value(b)) for a, b in pairs)
            if va is not None and vb is not None]
    xs, ys = [p[0] for p in both], [p[1] for p in both]
    if not share:
        return count_mean_ci(xs, most), count_mean_ci(ys, most), paired_ci(xs, ys)
    if all(v in (0, 1) for v in (*xs, *ys)):
        return (wilson(round(sum(xs)), len(xs)), wilson(round(sum(ys)), len(ys)),
                paired_ci(xs, ys, True))
    return share_mean_ci(xs), share_mean_ci(ys), paired_ci(xs, ys, True)


def _compare_note(sim: Simulation, pairs: int) -> Text:
    a, b = sim.arms[0], sim.arms[1]
    return Text(msg("A: {a}. B: {b}. {games} per configuration, played under both on the "
                    "same seeds; B − A is the mean of the per-game differences with its 95% "
                    "interval (pp: percentage points; for 0/1 outcomes Newcombe's paired "
                    "interval). An interval that excludes 0 is a real difference.", None,
                    a=a.describe(), b=b.describe(), games=_games(pairs)))


def compare_table(sim: Simulation, a: int = 0, b: int = 1) -> ResultTable:
    """A against B on the same seeds, game by game."""
    pairs = sim.pairs(a, b)
    rows = [(Text(label), *_paired(pairs, value, share, _MOST.get(label)))
            for label, value, share in GAME_METRICS]
    return ResultTable(Text(N_("A against B (paired games)")), ("", "A", "B", "B − A"),
                       tuple(rows),
                       _compare_note(sim, len(pairs)))


def compare_rounds_table(sim: Simulation, a: int = 0, b: int = 1) -> ResultTable:
    """A against B round by round: points left per player and going out."""
    pairs = sim.pairs(a, b)
    rows: list[tuple[Cell, ...]] = []
    for r in range(1, ROUNDS + 1):
        ok = [(x, y) for x, y in pairs if len(x.rounds) >= r and len(y.rounds) >= r]

        def points(g: GameFacts, r: int = r) -> float:
            return statistics.fmean(g.rounds[r - 1].points)

        def out(g: GameFacts, r: int = r) -> float:
            return float(g.rounds[r - 1].went_out is not None)

        rows.append((r, str(contract_for(r)), *_paired(ok, points, False),
                     *_paired(ok, out, True)))
    return ResultTable(Text(N_("A against B, round by round")),
                       (N_("round"), N_("contract"), N_("points A"), N_("points B"),
                        N_("points B − A"), N_("goes out A"), N_("goes out B"),
                        N_("goes out B − A")), tuple(rows),
                       Text(N_("Points left per player in the round; 'goes out': someone "
                               "went out."), " ", _compare_note(sim, len(pairs))))


# -- fresh deals, no play ----------------------------------------------------------------------
def deal_table(players: int = 4, rules: Rules | None = None, hands: int = 300, seed: int = 0,
               rounds: Iterable[int] = range(1, ROUNDS + 1),
               progress: Progress | None = None) -> ResultTable:
    """How often does a freshly dealt hand already hold the contract? (No play needed.)
    One row per round, each `deals.fresh_deal` (the count lesson 3's How often? makes);
    beside each estimate, the exact chance where it can be counted (sets only)."""
    rules = rules or Rules()
    chosen = list(rounds)
    rows = []
    for k, r in enumerate(chosen, 1):
        count = fresh_deal(r, players, rules, hands, seed)
        rows.append((r, str(contract_for(r)), rules.deal_size(r), count.estimate,
                     count.exact))
        if progress is not None:
            progress(k, len(chosen))
    return ResultTable(Text(N_("How often does a fresh deal already hold the contract?")),
                       (N_("round"), N_("contract"), N_("cards dealt"),
                        N_("hands that hold it"), N_("exact")),
                       tuple(rows),
                       Text(msg("{hands} seeded fresh deals (seed {seed}) from a "
                                "{players}-player shoe ({cards} cards), the first player's "
                                "hand of each; every round deals the same shuffles. 95% Wilson "
                                "intervals. 'Exact': the chance counted exactly, for the "
                                "contracts of sets only.", None, hands=hands, seed=seed,
                                players=players, cards=len(shoe(players)))))
