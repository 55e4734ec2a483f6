"""What a priced difference says about a move's true cost: the posterior under a prior.

Owns `Prior` (how the true costs of the moves the strong bot weighs against its own are
spread, by kind of decision: `PRIORS`, `prior_for`, `KINDS`; and of the moves a review
re-prices against the strong bot's: `REVIEW_PRIOR`) and `posterior(prior, difference)` →
`Posterior`: the cost to state and its 95 % interval (empirical Bayes). A few dozen
played-out worlds measure a cost with a standard error of several points, while most
true costs are a couple of points: the raw mean of the worlds is then mostly noise, and
a move that looks costly is more often a small cost that had bad luck than a large one.
The posterior weighs the two: the measured mean, with the standard error of its
`strong.Difference` (widened as its Student's t interval is, so that a flat prior gives
back that interval), against the prior, a mixture of normal distributions. With a huge
standard error the posterior is the prior; with a tiny one it is the measurement. The
posterior is also what the measurement says whatever chose it: a review that shows the
decisions whose measured costs came out high does not inflate their posterior costs.

The priors' constants were fitted, by maximum marginal likelihood, on calibration
decisions from other games than the ones the coach's calibration is measured on
(`benchmarks/fit_cost_prior.py` refits them from `benchmarks/bench_coach_calibration.py
--start 5000`'s output, kept in `benchmarks/calibration/`; see `PRIORS`).
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Protocol

from ..engine import actions as A

_Z95 = statistics.NormalDist().inv_cdf(0.975)


@dataclass(frozen=True, slots=True)
class Prior:
    """A mixture of normal distributions of true costs (points this round): each
    component a (weight, mean, standard deviation); the weights sum to 1."""

    components: tuple[tuple[float, float, float], ...]

    def __post_init__(self) -> None:
        if not self.components or any(w <= 0 or sd <= 0 for w, _m, sd in self.components):
            raise ValueError("a prior needs components of positive weight and spread")
        if abs(sum(w for w, _m, _sd in self.components) - 1) > 1e-6:
            raise ValueError("a prior's weights must sum to 1")


class Measured(Protocol):
    """A measured difference (`strong.Difference`): its mean, the half-width of its 95 %
    interval, and the worlds behind it."""

    @property
    def mean(self) -> float: ...

    @property
    def n(self) -> int: ...

    @property
    def half_width(self) -> float: ...


@dataclass(frozen=True, slots=True)
class Posterior:
    """A cost's posterior: its mean (the cost to state) and 95 % interval."""

    mean: float
    low: float
    high: float


#: the priors by kind of decision: which card to discard, take the top discard or draw,
#: and, apart, a buy priced against a pass ("pass") and a pass priced against a buy
#: ("buy"), keyed by the kind of the move the others are priced against. The two sides of
#: a buy are not alike: the coach recommends a buy only when its worlds make buying
#: clearly better, so passing there costs about 15 points (median of the fit's 10, few),
#: while a buy the coach advises against is often about as good (median −2 of 85). One
#: prior for both stated the costs of passing 7 points low on average (13 in the
#: calibration, standard error 1); apart, the calibration's mean |stated − reference| is
#: 2.62 instead of 2.91 (4-fold by game on the fit's data: 3.41 instead of 3.48). Each a
#: two-component mixture (none narrower than 3 points: the narrowest that kept 88 % of
#: the intervals covering the reference in the fit's 4-fold check by game), fitted on
#: 2026-12-06 by `python
#: benchmarks/fit_cost_prior.py benchmarks/calibration/hints-5000.jsonl --components 2
#: --floor 3`: 386 alternatives of 274 hint decisions of games 454-466 and 500-513
#: (`bench_coach_calibration.py --start 5000` and `--start 5500`, `--hints-only
#: --reference 300`), none of them the games of the calibration's measurement
#: (decisions 0-159: games 0-14)
PRIORS: dict[str, Prior] = {
    "buy": Prior(((0.073, 14.51, 3.00), (0.927, 16.94, 13.27))),
    "discard": Prior(((0.978, 0.61, 3.00), (0.022, 25.63, 5.17))),
    "draw": Prior(((0.732, 0.86, 3.00), (0.268, 1.19, 11.09))),
    "pass": Prior(((0.323, 1.54, 3.00), (0.677, -6.82, 11.92))),
}

#: the prior of a review's costs: the move a learner made against the strong bot's, at
#: the decisions a review re-prices (`review.shortlist`, before it chooses any to show),
#: fitted as `PRIORS` on 2026-12-05 by `python benchmarks/fit_cost_prior.py
#: benchmarks/calibration/shortlists-5000.jsonl --reviews --components 2 --floor 3`:
#: 189 shortlisted decisions of reviews 1000-1199 (beginner games 91-109;
#: `bench_coach_calibration.py --start 5000 … 5800 --shortlists 40 --reference 300`),
#: none of them the games of the calibration's measurement (reviews 0-30: games 0-2)
REVIEW_PRIOR = Prior(((0.672, 2.44, 3.00), (0.328, 14.72, 14.00)))

#: the kind of decision of each move a hint weighs
KINDS = {A.Discard: "discard", A.TakeDiscard: "draw", A.Draw: "draw", A.Buy: "buy",
         A.Pass: "pass"}


def prior_for(action: A.Action) -> Prior | None:
    """The prior of the decision `action` is a move of (None: a kind no prior was
    fitted for, whose figures stand as measured)."""
    kind = KINDS.get(type(action))
    return PRIORS.get(kind) if kind is not None else None


def posterior(prior: Prior, d: Measured) -> Posterior:
    """The posterior of the true cost given the measured difference `d` (see the
    module): its mean and the 2.5 % and 97.5 % points of its distribution."""
    s = d.half_width / _Z95 if d.n > 1 else math.inf
    if s == 0:  # an exact measurement (no spread at all): nothing to weigh
        return Posterior(d.mean, d.mean, d.mean)
    parts = _parts(prior, d.mean, s)
    mean = sum(w * m for w, m, _sd in parts)
    return Posterior(mean, _quantile(parts, 0.025), _quantile(parts, 0.975))


def _parts(prior: Prior, x: float, s: float) -> list[tuple[float, float, float]]:
    """The posterior mixture's components (weight, mean, sd), given a measurement `x`
    with standard error `s` (infinite: no measurement)."""
    if math.isinf(s):
        return list(prior.components)
    out = []
    for w, m, sd in prior.components:
        var = sd * sd + s * s
        # the component's weight times how likely it makes the measurement (in logs)
        log_w = math.log(w) - 0.5 * math.log(var) - (x - m) ** 2 / (2 * var)
        out.append((log_w, (m * s * s + x * sd * sd) / var, sd * s / math.sqrt(var)))
    top = max(lw for lw, _m, _sd in out)
    total = sum(math.exp(lw - top) for lw, _m, _sd in out)
    return [(math.exp(lw - top) / total, m, sd) for lw, m, sd in out]


def _quantile(parts: list[tuple[float, float, float]], p: float) -> float:
    """The point of the mixture `parts` below which lies the share `p` (bisection)."""
    def cdf(x: float) -> float:
        return sum(w * statistics.NormalDist(m, sd).cdf(x) for w, m, sd in parts)

    lo = min(m - 10 * sd for _w, m, sd in parts)
    hi = max(m + 10 * sd for _w, m, sd in parts)
    for _ in range(60):
        mid = (lo + hi) / 2
        if cdf(mid) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2
