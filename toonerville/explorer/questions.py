"""The questions the explorer answers, and which tables answer each.

Owns `QUESTIONS` (each question's key and its title) and `tables_for` (the tables of
`tables`, or the sweep's of `sweeps`, that answer a question about a `Simulation`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..engine.errors import RulesError
from ..engine.messages import N_, msg
from .facts import GameFacts
from .runner import Simulation
from .sweeps import sweep_table
from .tables import (
    ResultTable,
    Text,
    arm_names,
    bot_table,
    buying_table,
    compare_rounds_table,
    compare_table,
    round_table,
    score_table,
    seat_game_table,
    seat_round_table,
)

#: question → its title in English (marked for the catalogue: translate it when shown)
QUESTIONS: dict[str, str] = {
    "rounds": N_("How hard is each round?"),
    "buying": N_("Does buying pay?"),
    "seats": N_("Does it matter where you sit?"),
    "bots": N_("How do the bots compare?"),
    "scores": N_("How are the scores spread?"),
    "compare": N_("What does a house rule change? (A against B)"),
    "sweep": N_("Which house rules give short, fair games? (a sweep)"),
    "deals": N_("How often does a fresh deal already hold the contract? (no play)"),
}


def tables_for(sim: Simulation, question: str = "all") -> list[ResultTable]:
    """The tables that answer `question` (a key of QUESTIONS but "deals", or "all")."""
    if question != "all" and question not in QUESTIONS:
        raise RulesError(msg("unknown question {q!r}: choose from {choices}", None,
                             q=question, choices=", ".join(["all", *QUESTIONS])))
    names = arm_names(sim)

    def titled(title: str, name: str) -> Text:
        return Text(msg("{title} — {name}", None, title=Text(title), name=name))

    def each(make: Callable[[Sequence[GameFacts], str], ResultTable], title: str
             ) -> list[ResultTable]:
        if len(sim.arms) == 1:
            return [make(sim.facts[0], "")]
        return [make(f, titled(title, name)) for f, name in zip(sim.facts, names, strict=True)]

    if question == "sweep":
        return [sweep_table(sim)]
    out: list[ResultTable] = []
    if question in ("rounds", "all"):
        out += [round_table(f, arm.rules, t) for f, arm, t in zip(
            sim.facts, sim.arms, [""] if len(sim.arms) == 1 else
            [titled(N_("How hard is each round?"), n) for n in names], strict=True)]
    if question in ("buying", "all"):
        out += each(buying_table, N_("Buying"))
        if question == "buying" and any(len(set(a.bots)) > 1 for a in sim.arms):
            out += each(bot_table, N_("The bots against each other"))
    if question in ("seats", "all"):
        out += each(seat_round_table, N_("Seats in a round"))
        out += each(seat_game_table, N_("Seats in a game"))
    if question in ("bots", "all"):
        out += each(bot_table, N_("The bots against each other"))
    if question in ("scores", "all"):
        out.append(score_table(sim))
    if question in ("compare", "all") and len(sim.arms) >= 2:
        out += [compare_table(sim), compare_rounds_table(sim)]
    if question == "compare" and len(sim.arms) < 2:
        raise RulesError(msg("a comparison needs a configuration B: give --compare "
                             "name=value (or choose B's rules)", None))
    return out
