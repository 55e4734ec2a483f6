"""The configurations the explorer studies.

Owns `Arm` (bots by seat, so the player count; `Rules`; the turn limit), `bots_for`,
`parse_changes` and `arm_with` (read `name=value` house-rule settings, refusing with a
`RulesError` a learner can read), `PRESETS`, the comparisons a class often asks for, and
`compare_level_arms` → `LevelComparison`: how many points per game one bot level is
worth against another (paired deals, `coach.levels.compare_levels`), with 95 % intervals
(`level_difference`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from ..coach.levels import Pair, compare_levels
from ..engine.errors import RulesError
from ..engine.messages import N_, msg
from ..engine.rules import RULE_OF, Rules
from ..players.bots import BOT_KINDS, Bot
from ..players.simulate import DEFAULT_TURN_LIMIT
from .stats import count_mean_ci, paired_ci


def make_explorer_bot(kind: str) -> Bot | str:
    """A bot kind checked against the one registry (`bots.BOTS`)."""
    if kind not in BOT_KINDS:
        raise RulesError(msg("unknown bot {kind!r}: choose from {kinds}", None, kind=kind,
                             kinds=", ".join(BOT_KINDS)))
    return kind


def level_difference(pairs: list[Pair]) -> dict[str, object]:
    """Mean points per game of each level, B − A (paired) with its 95 % interval, and
    A's points relative to B's ((A − B) / B: −0.15 is 15 % fewer points)."""
    a = [float(p.a) for p in pairs]
    b = [float(p.b) for p in pairs]
    diff = paired_ci(a, b)
    mean_b = sum(b) / len(b) if b else float("nan")
    return {"games": len(pairs), "a": count_mean_ci(a), "b": count_mean_ci(b),
            "b_minus_a": diff,
            "relative": -diff.value / mean_b if b and mean_b else float("nan")}


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

    def house_rules(self) -> str:
        """The rules that differ from the rulebook, as name=value, or "rulebook defaults"."""
        changes = self.rules.changes()
        return ", ".join(f"{k}={v}" for k, v in changes.items()) or N_("rulebook defaults")

    def table(self) -> str:
        """Who plays: "4 players (heuristic ×2, random ×2)"."""
        kinds = sorted(set(self.bots), key=self.bots.index)
        who = ", ".join(f"{k} ×{self.bots.count(k)}" for k in kinds)
        return f"{self.players} players ({who})"

    def describe(self) -> str:
        return f"{self.table()}; {self.house_rules()}"


def bots_for(players: int, pattern: Sequence[str]) -> tuple[str, ...]:
    """`pattern` repeated around the table: ("heuristic", "random") for 5 players is
    heuristic, random, heuristic, random, heuristic."""
    if not pattern:
        raise RulesError(msg("name at least one bot", None))
    return tuple(pattern[i % len(pattern)] for i in range(players))


FIELD_TYPES = {f.name: str(f.type) for f in fields(Rules)}
_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


def rule_value(name: str, text: str) -> Any:
    """The value of the switch `name` written as `text` (RulesError if it cannot be)."""
    kind, t = FIELD_TYPES[name], text.strip()
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


def setting_value(name: str, text: str) -> Any:
    """One setting's value: `players` or a `Rules` switch (RulesError otherwise)."""
    name = name.strip().replace("-", "_")
    if name == "players":
        try:
            return int(text)
        except ValueError:
            raise RulesError(msg("players needs a whole number 3, 4 or 5, not {text!r}",
                                 "T2", text=text)) from None
    if name in FIELD_TYPES:
        return rule_value(name, text)
    known = ", ".join(["players", *FIELD_TYPES])
    raise RulesError(msg("unknown house rule {name!r}: the settings are {known}", None,
                         name=name, known=known))


def parse_changes(items: Iterable[str]) -> dict[str, Any]:
    """`["penalty_cards=2", "round11_deal=12,extra_melds=yes"]` → a dict of settings.
    `players=N` is allowed too; anything else must be a `Rules` switch."""
    changes: dict[str, Any] = {}
    for item in items:
        for part in (p.strip() for p in item.split(",")):
            if not part:
                continue
            name, eq, text = part.partition("=")
            if not eq:
                raise RulesError(msg("write each setting as name=value, like penalty_cards=2,"
                                     " not {part!r}", None, part=part))
            changes[name.strip().replace("-", "_")] = setting_value(name, text)
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


@dataclass(frozen=True, slots=True)
class LevelComparison:
    """Level A against level B on paired deals: each deal played twice, one seat (rotated)
    played by A once and by B once, the other seats heuristic."""

    a: str
    b: str
    players: int
    seed: int
    pairs: tuple[Pair, ...]

    def summary(self) -> dict[str, Any]:
        """Mean points per game of each level (95 % intervals), B − A (what A is worth,
        in points per game; > 0: A scores fewer), and (A − B) / B."""
        return level_difference(list(self.pairs))

    def __str__(self) -> str:
        if not self.pairs:
            return f"{self.a} against {self.b}: no games played"
        s = self.summary()
        return (f"{len(self.pairs)} paired games, {self.players} players, seed {self.seed}\n"
                f"  {self.a}: {s['a']} points per game\n"
                f"  {self.b}: {s['b']} points per game\n"
                f"  {self.a} is worth {s['b_minus_a']} points per game against {self.b} "
                f"(95 % interval); {self.a} scores {s['relative']:+.1%} points relative "
                f"to {self.b}")


def compare_level_arms(a: str, b: str, games: int, seed: int = 0, players: int = 4,
                       rules: Rules | None = None,
                       turn_limit: int | None = DEFAULT_TURN_LIMIT,
                       progress: Callable[[int, int], None] | None = None,
                       cancel: Callable[[], bool] | None = None) -> LevelComparison:
    """Play `games` paired deals of level `a` against level `b` (bot kinds of the
    registry); `progress(done, games)` after each, `cancel()` stops early (the deals
    played are kept)."""
    for kind in (a, b):
        make_explorer_bot(kind)
    if not 3 <= players <= 5:
        raise RulesError(msg("Toonerville Rook is for 3 to 5 players, not {n}", "T2",
                             n=players))
    pairs: list[Pair] = []
    for pair in compare_levels(a, b, games, seed, players, rules=rules,
                               turn_limit=turn_limit):
        pairs.append(pair)
        if progress is not None:
            progress(len(pairs), games)
        if cancel is not None and cancel():
            break
    return LevelComparison(a, b, players, seed, tuple(pairs))
