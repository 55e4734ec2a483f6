"""The explorer's statistics: every interval at 95 %, standard library only.

Owns `Estimate` (a value, its interval, how many observations, how to print it) and the
intervals, each chosen for the kind of number it describes:

- `wilson`: a share (successes out of n); never outside 0–100 %.
- `count_mean_ci`: the mean of something that cannot be negative (a count of buys or
  turns, points left in a hand). On the log scale, mean · exp(± t · se / mean), so the
  interval stays above 0 and is skewed the way such means are; when the observations
  show no spread at all (one game, or every game the same, such as no buys at all) it
  falls back to the exact Poisson interval of the total (Garwood), which for a total of
  0 still gives an upper bound above 0. `most` caps it (e.g. rounds out of 11).
- `mean_ci`: mean ± t · sd / √n, for a quantity that may be negative (a difference).
- `paired_ci`: B − A from pairs (one seed played under two configurations): the mean of
  the per-pair differences; for 0/1 outcomes (did someone go out?) Newcombe's hybrid
  score interval for paired proportions (his method 10), which stays within ±100 points.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.messages import N_, translate

Z95 = statistics.NormalDist().inv_cdf(0.975)  # 1.959964...
#: two-sided 95 % quantiles of Student's t for 1..30 degrees of freedom
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201,
        2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074,
        2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
_NAN = float("nan")
#: kinds of Estimate printed as percentages
SHARE_KINDS = ("percent", "share_difference")


def t95(df: int) -> float:
    """The 97.5 % quantile of Student's t with `df` degrees of freedom (a table to 30,
    then the Cornish-Fisher expansion, good to 4 decimals)."""
    if df < 1:
        raise ValueError("a t quantile needs at least 1 degree of freedom")
    if df <= len(_T95):
        return _T95[df - 1]
    z = Z95
    return (z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3))


@dataclass(frozen=True, slots=True)
class Estimate:
    """A value with its 95 % confidence interval [low, high] from `n` observations.
    `kind` says how to show it: "number", "percent" (a share), "difference" (B − A) or
    "share_difference" (B − A of two shares, in percentage points)."""

    value: float
    low: float
    high: float
    n: int
    kind: str = "number"

    def __str__(self) -> str:
        return self.format()

    @property
    def magnitude(self) -> float:
        """The largest absolute number printed (to choose decimals for a table)."""
        xs = [abs(x) for x in (self.value, self.low, self.high) if not math.isnan(x)]
        return max(xs, default=0.0)

    def format(self, decimals: int | None = None) -> str:
        """The value and its interval; `decimals` for a number or a difference (a
        table passes one for all its cells), 1 for shares always."""
        if self.n == 0 or math.isnan(self.value):
            return "–"
        share = self.kind in SHARE_KINDS
        d = 1 if share else decimals if decimals is not None else (
            1 if self.magnitude >= 20 else 2)
        scale = 100 if share else 1
        # a value that rounds to 0 prints as 0, never as "-0.0"
        v, lo, hi = (0.0 if round(scale * x, d) == 0 else scale * x
                     for x in (self.value, self.low, self.high))
        if math.isnan(lo):  # a single observation: no interval
            return f"{v:.{d}f}" + ("%" if self.kind == "percent" else "")
        if self.kind == "percent":
            return f"{v:.{d}f}% ({lo:.{d}f}–{hi:.{d}f})"
        if self.kind == "share_difference":
            return f"{v:+.{d}f} pp ({_to(f'{lo:+.{d}f}', f'{hi:+.{d}f}')})"
        if self.kind == "difference":
            return f"{v:+.{d}f} ({_to(f'{lo:+.{d}f}', f'{hi:+.{d}f}')})"
        if lo < 0:
            return f"{v:.{d}f} ({_to(f'{lo:.{d}f}', f'{hi:.{d}f}')})"
        return f"{v:.{d}f} ({lo:.{d}f}–{hi:.{d}f})"

    @property
    def excludes_zero(self) -> bool:
        """Is the whole interval on one side of 0 (a difference that is 'real')?"""
        return self.low > 0 or self.high < 0

    def to_dict(self) -> dict[str, Any]:
        def plain(x: float) -> float | None:
            return None if math.isnan(x) else x
        return {"value": plain(self.value), "low": plain(self.low), "high": plain(self.high),
                "n": self.n}


def wilson(successes: int, n: int) -> Estimate:
    """A share `successes / n` with its 95 % Wilson score interval."""
    if not 0 <= successes <= n:
        raise ValueError(f"{successes} successes out of {n} is not a proportion")
    if n == 0:
        return Estimate(_NAN, 0.0, 1.0, 0, "percent")
    p, z2 = successes / n, Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return Estimate(p, max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)), n,
                    "percent")


def mean_ci(values: Iterable[float], kind: str = "number") -> Estimate:
    """The mean with a 95 % interval, mean ± t·sd/√n (t from n - 1 degrees of freedom):
    for quantities that may be negative. Use `count_mean_ci` for counts."""
    xs = [float(v) for v in values]
    n = len(xs)
    if n == 0:
        return Estimate(_NAN, _NAN, _NAN, 0, kind)
    mean = statistics.fmean(xs)
    if n == 1:
        return Estimate(mean, _NAN, _NAN, 1, kind)
    half = t95(n - 1) * statistics.stdev(xs) / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n, kind)


def _poisson_cdf(k: int, mu: float) -> float:
    """P(X <= k) for X Poisson with mean mu (summed in log space)."""
    if mu <= 0:
        return 1.0
    log_mu = math.log(mu)
    return min(1.0, sum(math.exp(j * log_mu - mu - math.lgamma(j + 1)) for j in range(k + 1)))


def _solve(f: Any, lo: float, hi: float) -> float:
    """The x in [lo, hi] where the decreasing function f crosses 0 (bisection)."""
    for _ in range(200):
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-12 * max(1.0, hi):
            break
    return (lo + hi) / 2


def poisson_ci(total: int) -> tuple[float, float]:
    """The exact (Garwood) 95 % interval for the mean of a Poisson count observed as
    `total`: the means under which so few, or so many, would be seen 2.5 % of the time."""
    if total < 0:
        raise ValueError("a count cannot be negative")
    top = total + 10 * math.sqrt(total + 1) + 10
    high = _solve(lambda mu: _poisson_cdf(total, mu) - 0.025, float(total), top)
    if total == 0:
        return 0.0, high
    low = _solve(lambda mu: _poisson_cdf(total - 1, mu) - 0.975, 0.0, float(total))
    return low, high


def count_mean_ci(values: Iterable[float], most: float | None = None) -> Estimate:
    """The mean of values that cannot be negative, with an interval that stays at 0 or
    above: log-scale t interval, or the exact Poisson interval of the total when the
    values show no spread. `most`: the largest value possible (caps the interval)."""
    xs = [float(v) for v in values]
    n = len(xs)
    if n == 0:
        return Estimate(_NAN, _NAN, _NAN, 0)
    if min(xs) < 0:
        raise ValueError("count_mean_ci is for values that cannot be negative")
    mean = statistics.fmean(xs)
    sd = statistics.stdev(xs) if n > 1 else 0.0
    if sd > 0 and mean > 0:
        factor = math.exp(t95(n - 1) * sd / math.sqrt(n) / mean)
        low, high = mean / factor, mean * factor
    elif all(x.is_integer() for x in xs):
        low, high = (b / n for b in poisson_ci(round(sum(xs))))
    else:  # one value, or all equal, and not counts: no interval can be drawn
        return Estimate(mean, _NAN, _NAN, n)
    if most is not None:
        high = min(high, float(most))
    return Estimate(mean, low, high, n)


def paired_share_ci(a: Sequence[float], b: Sequence[float]) -> Estimate:
    """B − A of two paired 0/1 outcomes: Newcombe's hybrid score interval (method 10),
    from the Wilson intervals of both shares and the correlation of the pairs."""
    if len(a) != len(b):
        raise ValueError("paired values come in pairs: A and B need the same length")
    n = len(a)
    if n == 0:
        return Estimate(_NAN, _NAN, _NAN, 0, "share_difference")
    both = sum(1 for x, y in zip(a, b, strict=True) if x and y)
    only_a = sum(1 for x, y in zip(a, b, strict=True) if x and not y)
    only_b = sum(1 for x, y in zip(a, b, strict=True) if y and not x)
    neither = n - both - only_a - only_b
    ea, eb = wilson(both + only_a, n), wilson(both + only_b, n)
    margins = ((both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither))
    phi = (both * neither - only_a * only_b) / math.sqrt(margins) if margins else 0.0
    pa, pb = ea.value, eb.value
    down = math.sqrt(max(0.0, (pb - eb.low) ** 2 - 2 * phi * (pb - eb.low) * (ea.high - pa)
                         + (ea.high - pa) ** 2))
    up = math.sqrt(max(0.0, (eb.high - pb) ** 2 - 2 * phi * (eb.high - pb) * (pa - ea.low)
                       + (pa - ea.low) ** 2))
    d = pb - pa
    return Estimate(d, max(-1.0, d - down), min(1.0, d + up), n, "share_difference")


def paired_ci(a: Sequence[float], b: Sequence[float], share: bool = False) -> Estimate:
    """B − A from pairs (the same game seed under A and B): the mean of the per-pair
    differences with its 95 % interval. `share`: the values are shares; when they are
    all 0 or 1, Newcombe's paired interval is used (`paired_share_ci`)."""
    if len(a) != len(b):
        raise ValueError("paired values come in pairs: A and B need the same length")
    if share and all(v in (0, 1) for v in (*a, *b)):
        return paired_share_ci(a, b)
    e = mean_ci((y - x for x, y in zip(a, b, strict=True)),
                "share_difference" if share else "difference")
    if share and not math.isnan(e.low):  # two shares differ by at most 100 points
        return Estimate(e.value, max(-1.0, e.low), min(1.0, e.high), e.n, e.kind)
    return e


def share_mean_ci(values: Iterable[float]) -> Estimate:
    """The mean of per-game shares (each between 0 and 1), its interval kept in 0–100 %."""
    e = mean_ci(values, "percent")
    if math.isnan(e.low):
        return e
    return Estimate(e.value, max(0.0, e.low), min(1.0, e.high), e.n, e.kind)


def _to(low: str, high: str) -> str:
    """An interval from `low` to `high` written with words (a dash would read as a minus
    sign before a negative number), in the language in use."""
    return translate(N_("{low} to {high}")).format(low=low, high=high)
