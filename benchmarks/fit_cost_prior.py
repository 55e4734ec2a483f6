"""Fit the hint's priors on true costs (`coach.shrink.PRIORS`) from calibration decisions.

Reads the JSON lines of `bench_coach_calibration.py` (run on other games than the ones
the calibration is measured on: `--start 5000`), and fits, for each kind of decision
(which card to discard, take or draw, and apart a pass priced against a buy
and a buy against a pass: `coach.shrink.KINDS`), a mixture of normal distributions
of the alternatives' true costs by maximum marginal likelihood (EM): each measured cost
is its true cost plus a normal error of its known standard error, the true costs are
drawn from the mixture. By default the measurements are the 500-world references (the
true cost within a point or two); `--on raw` fits on the hint's own pricing worlds.

Then, on the same file, by game (`--folds`: fitted on the other folds' games, checked
on each fold's), how the posterior of the hints' raw figures would do against the
reference: mean |stated − reference|, coverage of the 95 % intervals, better-by-5
alternatives shown as a cost. Prints the `PRIORS` to paste into `coach/shrink.py`.
`--reviews` fits `REVIEW_PRIOR` the same way, on one kind: the decisions of reviews'
shortlists (`bench_coach_calibration.py --shortlists`), the move made against the
better move.

    python benchmarks/fit_cost_prior.py calibration-5000.jsonl
    python benchmarks/fit_cost_prior.py calibration-5000.jsonl --components 1 --on raw
    python benchmarks/fit_cost_prior.py shortlists-5000.jsonl --reviews
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from pathlib import Path
from typing import Any

from toonerville.coach.shrink import KINDS as SHRINK_KINDS
from toonerville.coach.shrink import Prior, posterior
from toonerville.coach.strong import Difference

_Z95 = statistics.NormalDist().inv_cdf(0.975)

#: the kind of decision by the name of the type of the hint's move (`shrink.KINDS`)
KINDS = {move.__name__: kind for move, kind in SHRINK_KINDS.items()}


def rows(paths: list[Path], reviews: bool = False) -> list[dict[str, Any]]:
    """Every alternative with raw figures and a reference, with its kind and game (or,
    with `reviews`, every decision of the reviews' shortlists, of kind "review")."""
    out, seen = [], set()
    for path in paths:
        for line in path.read_text().splitlines():
            x = json.loads(line) if line else {}
            kind = "shortlist" if reviews else "hint"
            key = x.get("j") if reviews else x.get("i")
            if x.get("kind") != kind or key in seen:
                continue
            seen.add(key)
            for a in x["decisions" if reviews else "alternatives"]:
                if a.get("raw_n") and a["raw_n"] > 1 and a["reference"] == a["reference"]:
                    out.append({**a, "seed": x["seed"],
                                "kind": "review" if reviews else KINDS[x["decision"]]})
    return out


def measured(a: dict[str, Any], on: str) -> tuple[float, float]:
    """The measurement a fit uses and its standard error (as the posterior widens it)."""
    if on == "raw":
        return a["raw_mean"], (a["raw_high"] - a["raw_mean"]) / _Z95
    return a["reference"], a["reference_se"]


def fit(data: list[tuple[float, float]], k: int, floor: float = 1.0, steps: int = 1000
        ) -> tuple[tuple[tuple[float, float, float], ...], float]:
    """A `k`-component normal mixture of true costs, by EM, from measurements with
    known standard errors; and its log-likelihood. No component is narrower than
    `floor` points (costs are measured to a point or so: a narrower spike would be the
    fit's artefact, and its posterior intervals too narrow)."""
    xs = sorted(x for x, _s in data)
    mean, sd = statistics.fmean(xs), statistics.pstdev(xs)
    if k == 1:
        comps = [(1.0, mean, max(sd, floor))]
    else:  # most costs small (narrow, near the median), some large (wide)
        comps = [(0.6, statistics.median(xs), floor)] + [
            (0.4 / (k - 1), mean, max(sd, floor) * (j + 1)) for j in range(k - 1)]
    loglik = -math.inf
    for _ in range(steps):
        resp, loglik = [], 0.0
        for x, s in data:
            ws = [w * _pdf(x, m, math.sqrt(t * t + s * s)) for w, m, t in comps]
            total = sum(ws) or 1e-300
            loglik += math.log(total)
            resp.append([w / total for w in ws])
        new = []
        for j, (_w, m, t) in enumerate(comps):
            rj = sum(r[j] for r in resp)
            if rj < 1e-9:
                new.append((1e-9, m, t))
                continue
            e = [(m * s * s + x * t * t) / (t * t + s * s) for x, s in data]
            v = [t * t * s * s / (t * t + s * s) for _x, s in data]
            mu = sum(r[j] * ei for r, ei in zip(resp, e, strict=True)) / rj
            var = sum(r[j] * ((ei - mu) ** 2 + vi)
                      for r, ei, vi in zip(resp, e, v, strict=True)) / rj
            new.append((rj / len(data), mu, max(math.sqrt(var), floor)))
        comps = new
    total = sum(w for w, _m, _t in comps)
    return tuple((w / total, m, t) for w, m, t in comps), loglik


def _pdf(x: float, m: float, s: float) -> float:
    return math.exp(-(x - m) ** 2 / (2 * s * s)) / (s * math.sqrt(2 * math.pi))


def check(test: list[dict[str, Any]], priors: dict[str, Prior]) -> dict[str, float]:
    """The posterior's figures of `test`'s raw figures, against their references."""
    err, cover, wrong, raw_err, raw_cover = [], [], 0, [], []
    for a in test:
        d = Difference(a["raw_mean"], a["raw_se"], a["raw_n"])
        p = posterior(priors[a["kind"]], d)
        ref = a["reference"]
        err.append(abs(p.mean - ref))
        cover.append(p.low <= ref <= p.high)
        wrong += p.low > 0 and round(p.mean) >= 1 and a["raw_mean"] > 0 and ref <= -5
        raw_err.append(abs(a["raw_mean"] - ref))
        raw_cover.append(a["raw_low"] <= ref <= a["raw_high"])
    return {"n": len(test), "mae": statistics.fmean(err), "cover": statistics.fmean(cover),
            "wrong": wrong, "raw_mae": statistics.fmean(raw_err),
            "raw_cover": statistics.fmean(raw_cover)}


def fit_all(data: list[dict[str, Any]], k: int, on: str, floor: float
            ) -> dict[str, Prior]:
    out = {}
    for kind in sorted({a["kind"] for a in data}):
        comps, _ll = fit([measured(a, on) for a in data if a["kind"] == kind], k, floor)
        out[kind] = Prior(comps)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("files", type=Path, nargs="+")
    p.add_argument("--components", type=int, default=2)
    p.add_argument("--floor", type=float, default=1.0,
                   help="the narrowest component's standard deviation, in points")
    p.add_argument("--on", choices=("reference", "raw"), default="reference")
    p.add_argument("--folds", type=int, default=4, help="folds of games for the check")
    p.add_argument("--reviews", action="store_true",
                   help="fit the review's prior on the files' shortlists (--shortlists)")
    args = p.parse_args()
    data = rows(args.files, args.reviews)
    games = sorted({a["seed"] for a in data})
    print(f"{len(data)} alternatives of {len(games)} games (seeds {games[0]}..{games[-1]})")
    for kind in sorted({a["kind"] for a in data}):
        some = [a for a in data if a["kind"] == kind]
        comps, ll = fit([measured(a, args.on) for a in some], args.components, args.floor)
        refs = sorted(a["reference"] for a in some)
        print(f"  {kind}: {len(some)} alternatives, reference median "
              f"{statistics.median(refs):.1f}; fitted {_show(comps)} (log-likelihood "
              f"{ll:.1f})")
    checked: list[dict[str, float]] = []
    for fold in range(args.folds):  # fitted on the other folds' games, checked on these
        train = [a for a in data if a["seed"] % args.folds != fold]
        test = [a for a in data if a["seed"] % args.folds == fold
                and a["kind"] in {b["kind"] for b in train}]
        if test:
            checked.append(check(test, fit_all(train, args.components, args.on, args.floor)))
    n = sum(c["n"] for c in checked)

    def pooled(key: str) -> float:
        return sum(c[key] * c["n"] for c in checked) / n

    print(f"  {args.folds}-fold by game ({n} alternatives): mean |stated − reference| "
          f"{pooled('mae'):.2f} (raw {pooled('raw_mae'):.2f}), coverage "
          f"{pooled('cover'):.1%} (raw {pooled('raw_cover'):.1%}), better-by-5 shown as "
          f"a cost {sum(c['wrong'] for c in checked):.0f}")
    priors = fit_all(data, args.components, args.on, args.floor)
    if args.reviews:
        print(f"REVIEW_PRIOR = Prior({_show(priors['review'].components)})")
        return
    print("PRIORS: dict[str, Prior] = {")
    for kind, prior in priors.items():
        print(f'    "{kind}": Prior({_show(prior.components)}),')
    print("}")


def _show(comps: tuple[tuple[float, float, float], ...]) -> str:
    inner = ", ".join(f"({w:.3f}, {m:.2f}, {t:.2f})" for w, m, t in comps)
    return f"({inner}{',' if len(comps) == 1 else ''})"


if __name__ == "__main__":
    main()
