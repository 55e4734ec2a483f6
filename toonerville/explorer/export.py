"""The explorer's records on disk: CSV for a spreadsheet, JSON to keep and reload.

Owns `write_csv` (one row per configuration, game, round and seat), `run_json` (the
configurations, timing, tables and every game's facts as plain JSON) and
`run_from_json` (a simulation back from that JSON, to look at again).
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from typing import IO, Any

from ..engine.rules import Rules
from .arms import Arm
from .facts import GameFacts
from .runner import Simulation
from .tables import ResultTable, arm_names

CSV_COLUMNS = ("arm", "game", "game_seed", "round", "seat", "bot", "dealer", "position",
               "points", "game_total", "went_out", "ended_by", "turns", "restocks",
               "down_turn", "buys", "buy_turns", "dealt_meets", "dealt", "rules")


def csv_rows(sim: Simulation) -> Iterable[dict[str, Any]]:
    """One row per arm, game, round and seat: the raw records."""
    for name, arm, facts in zip(arm_names(sim), sim.arms, sim.facts, strict=True):
        house = arm.house_rules()
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
                           "dealt": r.dealt[s] if r.dealt else "", "rules": house}


def write_csv(sim: Simulation, file: IO[str]) -> int:
    """Write the raw records as CSV; returns the number of rows."""
    writer = csv.DictWriter(file, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    count = 0
    for row in csv_rows(sim):
        writer.writerow(row)
        count += 1
    return count


def run_json(sim: Simulation, tables: Sequence[ResultTable] = (), records: bool = True
             ) -> dict[str, Any]:
    """The simulation as plain JSON: the configurations, timing, the tables and (by
    default) every game's facts."""
    names = arm_names(sim)
    data: dict[str, Any] = {
        "games": sim.games, "seed": sim.seed, "workers": sim.workers, "where": sim.where,
        "seconds": round(sim.seconds, 3), "cancelled": sim.cancelled,
        "complete": sim.complete,
        "arms": [{"name": name, "bots": list(arm.bots), "rules": arm.rules.changes(),
                  "turn_limit": arm.turn_limit, "description": arm.describe(),
                  "games_played": len(facts)}
                 for name, arm, facts in zip(names, sim.arms, sim.facts, strict=True)],
        "tables": [t.to_dict() for t in tables]}
    if records:
        data["records"] = {name: [g.to_dict() for g in facts]
                           for name, facts in zip(names, sim.facts, strict=True)}
    return data


def run_from_json(data: dict[str, Any]) -> Simulation:
    """A simulation saved by `run_json` (with its records), to look at again."""
    arms = tuple(Arm(tuple(a["bots"]), Rules.from_dict(a["rules"]), a["turn_limit"])
                 for a in data["arms"])
    names = [a["name"] for a in data["arms"]]
    facts = tuple(tuple(GameFacts.from_dict(g) for g in data["records"][name])
                  for name in names)
    return Simulation(arms, data["games"], data["seed"], facts, data["cancelled"],
                      data["seconds"], data["workers"], data.get("where", "this process"))
