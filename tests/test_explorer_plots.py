"""The explorer's SVG plots: well-formed, accessible (a title, a description, axis
labels in words, series told apart by shape and a text legend) and true to the tables."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

from toonerville import explorer as X
from toonerville.explorer import plots

NS = {"s": "http://www.w3.org/2000/svg"}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iterfind(".//s:text", NS)]


def test_a_chart_is_accessible_svg() -> None:
    chart = plots.Chart("Someone goes out", ("1", "2", "3"),
                        (plots.Series("A", ((0.5, 0.4, 0.6), (0.7, 0.6, 0.8), None)),
                         plots.Series("B", ((0.2, 0.1, 0.3), (0.3, math.nan, math.nan),
                                            (0.9, 0.8, 1.0)))),
                        "share of rounds", "round", percent=True)
    root = parse(plots.figure("Going out, A and B", [chart]))
    assert root.get("role") == "img" and root.get("aria-label") == "Going out, A and B"
    assert root.find("s:title", NS).text == "Going out, A and B"  # type: ignore[union-attr]
    desc = root.find("s:desc", NS).text or ""  # type: ignore[union-attr]
    assert "Someone goes out: A, B with 95% intervals, by round" in desc
    words = texts(root)
    assert {"share of rounds", "round", "A", "B", "Someone goes out"} <= set(words)
    # series differ by shape, not only colour: A circles, B squares (legend included)
    assert len(root.findall(".//s:circle", NS)) == 2 + 1
    assert len(root.findall(".//s:rect[s:title]", NS)) == 3 + 1
    tips = [t.text for t in root.iterfind(".//s:circle/s:title", NS)]
    assert "A, 1: 50.0% (95% interval 40.0% to 60.0%)" in tips
    assert "B, 2: 30.0%" in [t.text for t in root.iterfind(".//s:rect/s:title", NS)]


def test_ticks_cover_the_values() -> None:
    for low, high in ((0, 102), (-3.2, 7.9), (0.001, 0.004), (5, 5)):
        ticks = plots.nice_ticks(low, high)
        assert ticks[0] <= low and ticks[-1] >= high and len(ticks) <= 12


def test_a_histogram_counts_every_value() -> None:
    h = plots.Histogram("Totals", (("heuristic", (1.0, 2.0, 2.0, 9.0)), ("random", (5.0,))),
                        "points", bins=4)
    root = parse(plots.figure("t", [h]))
    tips = [t.text or "" for t in root.iterfind(".//s:path/s:title", NS)]
    assert tips[0].startswith("heuristic: 3 in 1–3") and tips[1] == "random: 1 in 5–7"
    assert "number of players" in texts(root)


@pytest.fixture(scope="module")
def two_arms() -> X.Simulation:
    a = X.Arm(("heuristic", "random", "heuristic"), turn_limit=8)
    return X.play_games([a, X.arm_with(a, {"penalty_cards": 2})], 2, seed=5)


@pytest.mark.parametrize("question", ["rounds", "buying", "seats", "bots", "scores",
                                      "compare", "sweep"])
def test_every_question_has_a_plot(two_arms: X.Simulation, question: str) -> None:
    root = parse(X.figure_svg(question, two_arms))
    assert root.find("s:title", NS) is not None and texts(root)


def test_the_rounds_plot_shows_the_tables_values(two_arms: X.Simulation) -> None:
    root = parse(X.figure_svg("rounds", two_arms))
    table = X.round_table(two_arms.facts[0], two_arms.arms[0].rules)
    tips = [t.text or "" for t in root.iterfind(".//s:title", NS)]
    for r in (1, 5, 11):
        points = table.cell(r, "points left/player")
        assert isinstance(points, X.Estimate)
        assert any(t.startswith(f"points, {r}: {plots.precise(points.value)}") for t in tips)
    exact = table.cell(1, "exact")
    assert isinstance(exact, X.Exact)  # a 3-player shoe
    assert any(t.startswith(f"exact chance (counted), 1: {exact}") for t in tips)
    assert X.figure_svg("rounds", X.Simulation(two_arms.arms, 0, 0, ((), ()))) == ""


def test_the_deals_plot_marks_the_exact_chances() -> None:
    svg = X.deals_svg(X.deal_table(4, hands=20, seed=1, rounds=[1, 2]))
    tips = [t.text or "" for t in parse(svg).iterfind(".//s:title", NS)]
    assert any(t.startswith("exact chance (counted), 1: 15.4%") for t in tips)
    assert not any(t.startswith("exact chance (counted), 2") for t in tips)


def test_no_tick_reads_minus_zero() -> None:
    for low, high in ((-0.3, 0.02), (-1e-17, 0.2), (-0.012, 0.006), (-3.0, 0.5)):
        ticks = plots.nice_ticks(low, high)
        assert 0.0 in ticks and all(math.copysign(1, t) > 0 for t in ticks if t == 0)
        shown = [plots._number(t, percent=True) for t in ticks]
        assert "-0%" not in shown and "-0.0%" not in shown and "0%" in shown
    assert plots.precise(-0.0001, percent=True) == "0.0%" and plots.precise(-0.001) == "0.00"
    chart = plots.Chart("Edge", ("A",), (plots.Series("B - A", ((-0.12, -0.3, 0.02),)),),
                        "difference", "arm", percent=True)
    assert ">-0%<" not in plots.figure("Edge", [chart])


def test_a_figures_description_is_in_the_language_in_use() -> None:
    from toonerville.engine.messages import set_language

    chart = plots.Chart("Runde", ("1",), (plots.Series("A", ((0.5, 0.4, 0.6),)),),
                        "Anteil", "Runde", percent=True)
    set_language("de")
    try:
        svg = plots.figure("Titel", [chart])
    finally:
        set_language("en")
    assert "mit 95-%-Intervallen, nach Runde" in svg and "(95-%-Intervall 40.0% bis 60.0%)" in svg
