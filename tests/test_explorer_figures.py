"""Figures a teacher can trust: one count of fresh deals behind lesson 3 and notebook 08,
an interval beside every simulated share and the exact chance where it is counted, no
interval of a count or a share below 0, one number of decimals per table, and a
comparison that says how many games each configuration played."""

from __future__ import annotations

import math
import re

import pytest

from toonerville import explorer as X
from toonerville.engine.cards import shuffled_shoe
from toonerville.engine.deal import deal
from toonerville.engine.rules import Rules

TWO_ARMS = (X.Arm(("heuristic", "random") * 2, turn_limit=10),
            X.Arm(("heuristic", "random") * 2, Rules(penalty_cards=2), turn_limit=10))


@pytest.fixture(scope="module")
def comparison() -> X.Simulation:
    return X.play_games(TWO_ARMS, games=3, seed=5)


# -- one count of fresh deals ------------------------------------------------------------------
@pytest.mark.parametrize(("players", "round_number"), [(3, 1), (4, 9), (5, 11)])
def test_T7_a_fresh_hand_is_the_first_players_hand_of_the_games_deal(
        players: int, round_number: int) -> None:
    import random

    rules = Rules()
    cards = shuffled_shoe(players, random.Random(77))
    dealer = players - 1  # the first player, at the dealer's left, is seat 0
    dealt = deal(range(len(cards)), cards, players, round_number, dealer, rules)
    first = tuple(cards[i] for i in dealt.hands[0])
    assert X.dealt_hand(players, 77, round_number, rules) == first
    assert len(first) == rules.deal_size(round_number)


@pytest.mark.parametrize(("round_number", "players", "seed"), [(1, 4, 11), (4, 3, 2), (2, 5, 0)])
def test_lesson_3_and_the_explorer_count_the_same_deals(round_number: int, players: int,
                                                         seed: int) -> None:
    pytest.importorskip("ipywidgets")
    from toonerville.widgets.lessons import contract_rate

    count = X.fresh_deal(round_number, players, hands=200, seed=seed)
    assert count.met == contract_rate(round_number, 200, players, seed)
    table = X.deal_table(players, hands=200, seed=seed, rounds=[round_number])
    assert table.cell(round_number, "hands that hold it") == count.estimate
    assert table.cell(round_number, "exact") == count.exact


def test_a_fresh_deal_count_shows_its_interval_and_the_exact_chance() -> None:
    count = X.fresh_deal(1, 4, hands=300, seed=11)
    exact = X.exact_deal_share(4, 1)
    assert exact is not None and count.exact == X.Exact(exact)
    e = count.estimate
    assert (e.n, e.kind) == (300, "percent") and 0 <= e.low < e.value < e.high <= 1
    assert count.exact_in_interval is (e.low <= exact <= e.high)
    text = str(count)
    assert f"{count.met} of 300" in text and e.format() in text
    assert "counted exactly: 15.4%" in text
    runs = X.fresh_deal(2, 4, hands=20, seed=11)
    assert runs.exact is None and runs.exact_in_interval is None
    assert "exactly" not in str(runs)


def test_more_deals_narrow_the_interval_around_the_exact_chance() -> None:
    few, many = (X.fresh_deal(1, 4, hands=n, seed=11) for n in (300, 3000))
    assert few.exact is not None and many.exact_in_interval
    assert many.estimate.high - many.estimate.low < few.estimate.high - few.estimate.low


def test_every_round_deals_the_same_shuffles() -> None:
    # round 4 (3 sets) from the same 12 cards as round 1 (2 sets): never met more often
    one, four = (X.fresh_deal(r, 4, hands=300, seed=5) for r in (1, 4))
    assert four.met <= one.met


def test_a_fresh_deal_count_needs_a_deal() -> None:
    with pytest.raises(ValueError, match="at least one deal"):
        X.fresh_deal(1, hands=0)


def test_progress_is_told_after_every_deal() -> None:
    seen: list[tuple[int, int]] = []
    X.fresh_deal(1, 4, hands=5, seed=1, progress=lambda k, n: seen.append((k, n)))
    assert seen == [(k, 5) for k in range(1, 6)]


# -- every table of a run ---------------------------------------------------------------------
def all_tables(sim: X.Simulation) -> list[X.ResultTable]:
    return [*X.tables_for(sim, "all"), X.deal_table(4, hands=40, seed=2, rounds=[1, 2, 4])]


def test_every_simulated_share_has_an_interval_and_none_goes_below_zero(
        comparison: X.Simulation) -> None:
    for table in all_tables(comparison):
        for row in table.rows:
            for name, cell in zip(table.columns, row, strict=True):
                if not isinstance(cell, X.Estimate) or cell.n == 0:
                    continue
                where = f"{table.title}: {row[0]} / {name}"
                assert not math.isnan(cell.low) and not math.isnan(cell.high), where
                assert cell.low <= cell.value <= cell.high, where
                if cell.kind in ("percent", "number"):  # shares, counts, points
                    assert cell.low >= 0, where
                if cell.kind == "percent":
                    assert cell.high <= 1, where


def test_the_exact_chance_stands_beside_the_simulated_one_for_rounds_of_sets_only(
        comparison: X.Simulation) -> None:
    for table in (X.round_table(comparison.facts[0], Rules()),
                  X.deal_table(4, hands=10, seed=0)):
        exact = {r: c for r, c in zip(table.column("round"), table.column("exact"),
                                      strict=True) if c is not None}
        assert sorted(exact) == [1, 4, 7, 9]


def decimals(text: str) -> set[int]:
    return {len(m) for m in re.findall(r"\d\.(\d+)", text)}


def test_each_table_prints_its_numbers_with_one_number_of_decimals(
        comparison: X.Simulation) -> None:
    for table in all_tables(comparison):
        numbers: set[int] = set()
        for row in table.rows:
            for cell in row[1:]:
                shown = table.show(cell)
                if isinstance(cell, X.Exact) or (
                        isinstance(cell, X.Estimate) and cell.kind in X.stats.SHARE_KINDS):
                    assert decimals(shown) <= {1}, f"{table.title}: {shown}"  # percentages
                elif isinstance(cell, X.Estimate | float):
                    numbers |= decimals(shown)
        assert numbers <= {table.places}, f"{table.title}: {numbers}"


def test_a_comparison_says_how_many_games_each_configuration_played(
        comparison: X.Simulation) -> None:
    assert comparison.games_per_arm == (3, 3) and comparison.games_played == 6
    assert X.games_phrase(comparison) == "3 games per configuration"
    for question in ("compare", "rounds", "scores"):
        assert "3 games per configuration" in X.figure_svg(question, comparison)
    assert X.score_table(comparison).note.startswith("3 games per configuration.")
    assert "3 games per configuration" in X.compare_table(comparison).note
    one = X.play_games(TWO_ARMS[0], games=2, seed=4)
    assert X.games_phrase(one) == "2 games"
    assert "(2 games, 95% intervals)" in X.figure_svg("rounds", one)


def test_the_explorer_page_says_games_per_configuration(comparison: X.Simulation) -> None:
    pytest.importorskip("ipywidgets")
    from toonerville.widgets.explorer_words import finished_text

    text = finished_text(comparison)
    assert text.startswith("Done: 3 games per configuration (6 in all) in ")
    one = X.play_games(TWO_ARMS[0], games=1, seed=4)
    assert finished_text(one).startswith("Done: 1 game in ")



def test_a_bound_that_rounds_to_zero_never_prints_as_minus_zero() -> None:
    assert X.Estimate(0.8, -0.04, 1.6, 50, "difference").format(1) == "+0.8 (+0.0 to +1.6)"
    assert X.Estimate(-0.0004, -0.0004, 0.02, 50, "share_difference").format() == (
        "+0.0 pp (+0.0 to +2.0)")
    assert X.Estimate(2.0, 1.0, 3.0, 50, "difference").format(1) == "+2.0 (+1.0 to +3.0)"
