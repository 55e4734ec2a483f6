"""`coach.shrink`: a measured cost's posterior under a prior of true costs (issue 28: an
honest coach states costs closer to the truth than a few dozen worlds' raw mean)."""

from __future__ import annotations

import math
import statistics

import pytest

from toonerville.coach.hint import Alternative
from toonerville.coach.shrink import PRIORS, Prior, posterior, prior_for
from toonerville.coach.strong import Difference
from toonerville.engine import actions as A
from toonerville.engine.cards import Card
from toonerville.engine.messages import msg

Z = statistics.NormalDist().inv_cdf(0.975)
ONE = Prior(((1.0, 2.0, 3.0),))
TWO = Prior(((0.7, 1.0, 1.5), (0.3, 8.0, 10.0)))


def _mixture_cdf(prior: Prior, x: float) -> float:
    return sum(w * statistics.NormalDist(m, sd).cdf(x) for w, m, sd in prior.components)


@pytest.mark.parametrize("prior", [ONE, TWO, *PRIORS.values()])
def test_a_huge_standard_error_gives_the_prior(prior: Prior) -> None:
    for d in (Difference(40.0, 1e9, 32), Difference(-30.0, math.inf, 16),
              Difference(5.0, 3.0, 1)):  # one world: no standard error at all
        got = posterior(prior, d)
        assert got.mean == pytest.approx(sum(w * m for w, m, _sd in prior.components),
                                         abs=1e-6)
        assert _mixture_cdf(prior, got.low) == pytest.approx(0.025, abs=1e-6)
        assert _mixture_cdf(prior, got.high) == pytest.approx(0.975, abs=1e-6)


@pytest.mark.parametrize("prior", [ONE, TWO, *PRIORS.values()])
def test_a_tiny_standard_error_gives_the_measurement(prior: Prior) -> None:
    for mean in (-25.0, -3.0, 0.0, 4.0, 30.0):
        got = posterior(prior, Difference(mean, 1e-4, 48))
        assert got.mean == pytest.approx(mean, abs=1e-3)
        assert got.low == pytest.approx(mean, abs=1e-3)
        assert got.high == pytest.approx(mean, abs=1e-3)


def test_one_normal_prior_gives_the_textbook_posterior() -> None:
    d = Difference(10.0, 4.0, 32)
    s = d.half_width / Z  # the standard error widened as its t interval is
    weight = 3.0 ** 2 / (3.0 ** 2 + s ** 2)
    mean = 2.0 + weight * (10.0 - 2.0)
    sd = math.sqrt(weight) * s
    got = posterior(ONE, d)
    assert got.mean == pytest.approx(mean)
    assert (got.low, got.high) == (pytest.approx(mean - Z * sd), pytest.approx(mean + Z * sd))
    assert 2.0 < got.mean < 10.0  # between the prior's mean and the measurement


def test_a_flat_prior_gives_the_measurements_own_interval() -> None:
    d = Difference(6.0, 2.0, 16)
    got = posterior(Prior(((1.0, 0.0, 1e6),)), d)
    assert got.mean == pytest.approx(6.0, abs=1e-3)
    assert (got.low, got.high) == (pytest.approx(d.low, abs=1e-3),
                                   pytest.approx(d.high, abs=1e-3))


@pytest.mark.parametrize("prior", [ONE, TWO, *PRIORS.values()])
def test_the_interval_holds_the_posterior_mean(prior: Prior) -> None:
    for mean in (-40.0, -8.0, -1.0, 0.0, 1.5, 6.0, 25.0):
        for se in (0.3, 1.0, 3.0, 8.0, 20.0):
            for n in (2, 16, 48):
                got = posterior(prior, Difference(mean, se, n))
                assert got.low < got.mean < got.high


@pytest.mark.parametrize("kind", sorted(PRIORS))
def test_a_move_measured_much_better_is_never_said_to_cost(kind: str) -> None:
    """The fitted priors: an alternative the worlds found better by 5 points or more
    is never "costs about …", however uncertain the measurement."""
    words = msg("discarding {card}", None, card="G11")
    for mean in (-5.0, -10.0, -40.0):
        for se in (0.5, 2.0, 5.0, 15.0, 40.0):
            got = posterior(PRIORS[kind], Difference(mean, se, 16))
            alt = Alternative(A.Discard(0, Card.parse("G11")), got.mean, 16, words, got.low,
                              got.high, mean)
            assert alt.verdict != "costs"


def test_a_prior_never_turns_a_better_measurement_into_a_cost() -> None:
    """Even a prior sure that every move costs (all its weight far above 0) leaves a
    move the worlds found better "about the same": the verdict follows the posterior
    interval only where the worlds' own mean points the same way."""
    sure = Prior(((1.0, 10.0, 1.0),))
    got = posterior(sure, Difference(-6.0, 5.0, 32))
    assert got.low > 0  # the posterior alone would call it a cost ...
    words = msg("discarding {card}", None, card="G11")
    alt = Alternative(A.Discard(0, Card.parse("G11")), got.mean, 32, words, got.low,
                      got.high, -6.0)
    assert alt.verdict == "same"  # ... the verdict does not
    assert "costs" not in str(alt.message())


def test_each_decision_a_hint_weighs_has_its_prior() -> None:
    assert prior_for(A.Discard(0, Card.parse("G11"))) is PRIORS["discard"]
    assert prior_for(A.Draw(0)) is prior_for(A.TakeDiscard(0)) is PRIORS["draw"]
    # a buy priced against a pass, and a pass against a buy, have a prior each
    assert prior_for(A.Buy(0)) is PRIORS["buy"] and prior_for(A.Pass(0)) is PRIORS["pass"]
    assert prior_for(A.LayDown(0, ())) is None


def test_a_prior_refuses_weights_that_do_not_sum_to_one() -> None:
    with pytest.raises(ValueError):
        Prior(((0.5, 0.0, 1.0),))
    with pytest.raises(ValueError):
        Prior(((1.0, 0.0, 0.0),))
