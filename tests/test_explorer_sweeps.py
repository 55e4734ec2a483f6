"""Sweeps: the grid read from name=value,value settings, played on paired seeds, ranked
with intervals; measures checked against games built by hand."""

from __future__ import annotations

import pytest

from toonerville import explorer as X
from toonerville.engine.errors import RulesError
from toonerville.engine.rules import Rules

BASE = X.Arm(("heuristic",) * 3, turn_limit=8)


def test_a_sweep_is_every_combination_of_its_values() -> None:
    axes = X.parse_sweep(["penalty_cards=0,1,2", "max_buys_per_round=none,3",
                          "round11_deal=12,14"])
    assert [(a.name, a.values) for a in axes] == [
        ("penalty_cards", (0, 1, 2)), ("max_buys_per_round", (None, 3)),
        ("round11_deal", (12, 14))]
    arms = X.sweep_arms(BASE, axes)
    assert len(arms) == 12 == len({a.rules for a in arms})
    assert arms[0].rules == Rules(penalty_cards=0, max_buys_per_round=None, round11_deal=12)
    assert arms[-1].rules == Rules(penalty_cards=2, max_buys_per_round=3)
    assert all(a.bots == BASE.bots and a.turn_limit == 8 for a in arms)


@pytest.mark.parametrize(("items", "words"), [
    (["penalty_cards"], "name=value,value"),
    (["penalty_cards="], "name=value,value"),
    (["penalty_cards=0,1", "penalty_cards=2"], "swept twice"),
    (["penalty_cards=1,1"], "same value twice"),
    (["rooks=1,2"], "unknown house rule 'rooks'"),
    ([], "at least one setting"),
])
def test_bad_sweeps_are_refused_with_a_sentence(items: list[str], words: str) -> None:
    with pytest.raises(RulesError, match=words):
        X.parse_sweep(items)


def test_an_unplayable_combination_is_refused_by_the_rules() -> None:
    with pytest.raises(RulesError) as err:
        X.sweep_arms(BASE, X.parse_sweep(["penalty_cards=1,7"]))
    assert err.value.rule == "H5"


def game(index: int, turns: tuple[int, int], points: tuple[tuple[int, ...], ...],
         dealer: int = 0) -> X.GameFacts:
    """A two-round game: round r has turns[r] turns and the points given, by seat."""
    rounds = tuple(X.RoundFacts(r + 1, (dealer + r) % 3, 0, "out", turns[r], 0, points[r],
                                (None,) * 3, ((),) * 3, (False,) * 3) for r in range(2))
    return X.GameFacts(index, index, ("heuristic",) * 3, dealer, rounds)


def test_sweep_measures_and_ranking_by_hand() -> None:
    # arm 0 (the rulebook's rules) and arm 1 (no penalty card), same two seeds
    a = (game(0, (10, 20), ((0, 5, 10), (6, 0, 3))), game(1, (12, 18), ((0, 9, 3), (3, 3, 0))))
    b = (game(0, (8, 10), ((0, 4, 8), (2, 0, 1))), game(1, (6, 10), ((0, 2, 1), (1, 1, 0))))
    sim = X.Simulation((BASE, X.arm_with(BASE, {"penalty_cards": 0})), 2, 0, (a, b))
    assert X.reference_arm(sim) == 0
    rows = X.sweep_rows(sim)
    assert [r.label for r in rows] == ["penalty_cards=0", "rulebook defaults"]  # shorter first
    first, ref = rows
    assert first.measures[0] == X.count_mean_ci([18, 16])  # turns per game
    assert first.versus[0] == X.paired_ci([30, 30], [18, 16])
    # spread: totals (2, 4, 9) and (1, 3, 1) → 7 and 2
    assert first.measures[1] == X.count_mean_ci([7, 2])
    # edge, round 1 of game 0: dealer 0, first player seat 1 has 4, the others 0 and 8 → 0;
    # round 2: dealer 1, first player seat 2 has 1, the others 2 and 0 → 0. Game 1:
    # 2 − (1 + 0)/2 = 1.5, then 0 − (1 + 1)/2 = −1: 0.25 per round
    assert [X.first_player_edge(g) for g in b] == [0, 0.25]
    assert first.measures[2] == X.mean_ci([0, 0.25], "difference")
    assert ref.versus == (None, None, None)
    table = X.sweep_table(sim)
    assert table.title == "A sweep of 2 configurations, shortest games first"
    assert [r[1] for r in table.rows] == ["penalty_cards=0", "rulebook defaults"]
    assert "2 games per configuration" in table.note
    by_edge = X.sweep_rows(sim, "edge")
    assert abs(by_edge[0].measures[2].value) <= abs(by_edge[1].measures[2].value)
    with pytest.raises(RulesError, match="rank a sweep by"):
        X.sweep_rows(sim, "beauty")


def test_a_played_sweep_is_paired_on_the_same_seeds() -> None:
    arms = X.sweep_arms(BASE, X.parse_sweep(["penalty_cards=0,2"]))
    sim = X.play_games(arms, 2, seed=8)
    for games in sim.paired_facts():
        assert len({g.seed for g in games}) == 1
        assert len({g.rounds[0].dealt for g in games}) == 1  # the first deal is the same
    (table,) = X.tables_for(sim, "sweep")
    assert {r[1] for r in table.rows} == {"penalty_cards=0", "penalty_cards=2"}
    charts = X.sweep_chart(sim)
    assert [c.title for c in charts] == ["turns per game", "score spread",
                                         "first player's edge"]
    assert charts[2].zero_line and charts[0].categories == tuple(r[1] for r in table.rows)
