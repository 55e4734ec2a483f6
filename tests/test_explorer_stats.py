"""The explorer's intervals: by hand, by their promises (never below 0 for a count, never
outside ±100 points for a paired share) and by their coverage on simulated data."""

from __future__ import annotations

import math
import random
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toonerville import explorer as X


def test_exact_poisson_interval_by_hand() -> None:
    # total 0: P(X = 0) = e^-mu = 0.025 at mu = ln 40
    assert X.poisson_ci(0) == (0.0, pytest.approx(math.log(40)))
    # total 1: P(X >= 1) = 1 - e^-mu = 0.025; P(X <= 1) = e^-mu (1 + mu) = 0.025
    low, high = X.poisson_ci(1)
    assert low == pytest.approx(-math.log(0.975))
    assert math.exp(-high) * (1 + high) == pytest.approx(0.025)
    assert X.poisson_ci(10) == (pytest.approx(4.7954, abs=1e-4), pytest.approx(18.3904, abs=1e-4))


def test_count_mean_is_log_scale_by_hand() -> None:
    # 3 and 4: mean 3.5, se 0.5, t(1) 12.706: factor exp(12.706 * 0.5 / 3.5)
    e = X.count_mean_ci([3, 4])
    factor = math.exp(12.706 * 0.5 / 3.5)
    assert (e.value, e.low, e.high) == (3.5, pytest.approx(3.5 / factor),
                                        pytest.approx(3.5 * factor))
    assert str(e) == "3.5 (0.6–21.5)" and e.format(2) == "3.50 (0.57–21.50)"


def test_the_issue_example_no_longer_goes_below_zero() -> None:
    # "buys per game 3.50 (−9.21 to 16.21)": two games, 2.5 and 4.5 buys
    assert X.mean_ci([2.5, 4.5]).low < 0
    e = X.count_mean_ci([2.5, 4.5])
    assert e.value == 3.5 and 0 < e.low < 3.5 < e.high


def test_counts_without_spread_fall_back_to_the_exact_poisson_interval() -> None:
    none = X.count_mean_ci([0] * 20)  # no buys at all in 20 games
    assert (none.value, none.low) == (0.0, 0.0)
    assert none.high == pytest.approx(math.log(40) / 20)
    one = X.count_mean_ci([7])
    assert (one.low, one.high) == pytest.approx(X.poisson_ci(7))
    capped = X.count_mean_ci([11] * 30, most=11)  # rounds out of 11: never above 11
    assert capped.high == 11 and capped.low < 11
    assert math.isnan(X.count_mean_ci([2.5]).low)  # not a count: no interval from one value
    with pytest.raises(ValueError):
        X.count_mean_ci([1, -1])


@given(st.lists(st.integers(0, 300), min_size=1, max_size=40))
def test_a_count_interval_is_never_below_zero_and_holds_the_mean(xs: list[int]) -> None:
    e = X.count_mean_ci(xs)
    assert 0 <= e.low <= e.value + 1e-9 <= e.high + 2e-9


@given(st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=60))
def test_a_paired_share_difference_stays_within_100_points(pairs: list[tuple[bool, bool]]
                                                           ) -> None:
    a, b = [int(x) for x, _ in pairs], [int(y) for _, y in pairs]
    e = X.paired_share_ci(a, b)
    assert -1 <= e.low <= e.value <= e.high <= 1
    assert e.value == pytest.approx(statistics.fmean(b) - statistics.fmean(a))


def test_paired_shares_with_uncorrelated_pairs_give_the_square_and_add_interval() -> None:
    # every margin balanced, phi = 0: Newcombe's interval is d ± sqrt of the summed
    # squared distances of each share to its Wilson limits
    a = [1, 1, 0, 0] * 5
    b = [1, 0, 1, 0] * 5
    ea, eb = X.wilson(10, 20), X.wilson(10, 20)
    e = X.paired_share_ci(a, b)
    half = math.hypot(eb.value - eb.low, ea.high - ea.value)
    assert (e.value, e.low, e.high) == (0.0, pytest.approx(-half), pytest.approx(half))


def test_positively_correlated_pairs_give_a_narrower_interval() -> None:
    same = X.paired_share_ci([1] * 10 + [0] * 10, [1] * 11 + [0] * 9)
    mixed = X.paired_share_ci([1] * 10 + [0] * 10, [0] * 9 + [1] * 11)
    assert same.value == mixed.value == pytest.approx(0.05)
    assert same.high - same.low < mixed.high - mixed.low


def coverage(make: object, true: float, draws: int = 1500) -> float:
    """The share of `draws` intervals from `make(rng)` that hold `true`."""
    rng = random.Random(12)
    hits = 0
    for _ in range(draws):
        e = make(rng)  # type: ignore[operator]
        hits += e.low <= true <= e.high
    return hits / draws


def test_count_intervals_cover_the_true_mean_about_95_percent_of_the_time() -> None:
    def poisson(rng: random.Random, mu: float) -> int:
        k, p, limit = 0, rng.random(), math.exp(-mu)
        while p > limit:
            k += 1
            p *= rng.random()
        return k

    got = coverage(lambda rng: X.count_mean_ci([poisson(rng, 2.0) for _ in range(30)]), 2.0)
    assert 0.92 <= got <= 0.98


def test_paired_share_intervals_cover_the_true_difference() -> None:
    # each game: A goes out with chance 0.6; B goes out when A did with chance 0.9, else 0.3
    true = (0.6 * 0.9 + 0.4 * 0.3) - 0.6

    def draw(rng: random.Random) -> X.Estimate:
        a = [int(rng.random() < 0.6) for _ in range(40)]
        b = [int(rng.random() < (0.9 if x else 0.3)) for x in a]
        return X.paired_share_ci(a, b)

    assert 0.93 <= coverage(draw, true) <= 0.99


def test_a_table_prints_its_numbers_with_one_number_of_decimals() -> None:
    small, large = X.count_mean_ci([1, 2, 3]), X.count_mean_ci([40, 50, 60])
    table = X.ResultTable("t", ("", "x"), (("a", small), ("b", large), ("c", 2.25)))
    assert table.places == 1
    assert table.show(small) == small.format(1) and table.show(2.25) == "2.2"
    assert X.ResultTable("t", ("", "x"), (("a", small),)).places == 2
    share = X.wilson(3, 10)
    assert table.show(share) == str(share) == "30.0% (10.8–60.3)"
