"""Plots as SVG text, standard library only (so they draw in Pyodide too).

Owns `Chart` (estimates with 95 % intervals over categories: dots and whiskers,
upright over rounds or lying down for a ranked list), `Histogram` (raw values in bins)
and `figure(title, panels)`, which lays the panels out side by side in one `<svg>`.
Every figure is accessible: `role="img"`, a `<title>` and a `<desc>` that says what is
shown, axis labels in words, and series told apart by marker shape and a text legend,
not by colour alone; every dot carries its value as a tooltip.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from ..engine.messages import _

#: (value, low, high); NaN where there is no estimate or no interval
Point = tuple[float, float, float]
#: Okabe-Ito colours (safe for colour-blind readers) and a marker shape for each series
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
MARKERS = ("circle", "square", "triangle", "diamond", "circle", "square")
FONT = 'font-family="sans-serif"'


@dataclass(frozen=True, slots=True)
class Series:
    """One line of estimates: a label, and one `Point` (or None) per category."""

    label: str
    points: tuple[Point | None, ...]


@dataclass(frozen=True, slots=True)
class Chart:
    """Estimates with intervals over categories. `value_label` names the value axis
    (with its unit); `horizontal` lays categories down the left side; `zero_line` draws
    0; `guide` draws a dashed reference value; `percent` shows values × 100 with %."""

    title: str
    categories: tuple[str, ...]
    series: tuple[Series, ...]
    value_label: str
    category_label: str = ""
    horizontal: bool = False
    zero_line: bool = False
    guide: float | None = None
    percent: bool = False


@dataclass(frozen=True, slots=True)
class Histogram:
    """How raw values are spread: one outlined histogram per series, in shared bins."""

    title: str
    series: tuple[tuple[str, tuple[float, ...]], ...]
    value_label: str
    bins: int = 15


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering low..high (steps of 1, 2 or 5 times a power of 10)."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return [0.0, 1.0]
    if high <= low:
        high = low + (abs(low) or 1.0)
    raw = (high - low) / max(1, count)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.floor(low / step)
    # each tick counted from the first (no sum of rounding errors), and +0.0 so that a
    # tick at zero is 0, never -0 (it would read "-0%")
    ticks = [round(first * step, 10) + 0.0]
    while ticks[-1] < high - 1e-9 * step:
        ticks.append(round((first + len(ticks)) * step, 10) + 0.0)
    return ticks


def _unsigned_zero(text: str) -> str:
    """"-0", "-0.0" → "0", "0.0": a value that rounds to zero has no sign."""
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


def _number(x: float, percent: bool = False) -> str:
    v = 100 * x if percent else x
    text = f"{v:.0f}" if abs(v) >= 10 or v == int(v) else f"{v:.1f}"
    return _unsigned_zero(text) + ("%" if percent else "")


def _marker(shape: str, x: float, y: float, colour: str, tip: str) -> str:
    r = 4.5
    title = f"<title>{escape(tip)}</title>"
    if shape == "square":
        return (f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r}" height="{2 * r}" '
                f'fill="{colour}">{title}</rect>')
    if shape == "triangle":
        pts = f"{x:.1f},{y - r - 1:.1f} {x - r - 1:.1f},{y + r:.1f} {x + r + 1:.1f},{y + r:.1f}"
        return f'<polygon points="{pts}" fill="{colour}">{title}</polygon>'
    if shape == "diamond":
        pts = f"{x:.1f},{y - r - 1:.1f} {x + r + 1:.1f},{y:.1f} {x:.1f},{y + r + 1:.1f} " \
              f"{x - r - 1:.1f},{y:.1f}"
        return f'<polygon points="{pts}" fill="{colour}">{title}</polygon>'
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{colour}">{title}</circle>'


def precise(x: float, percent: bool = False) -> str:
    """A value as a tooltip gives it: shares to 0.1 %, numbers to 0.1 (0.01 below 10)."""
    if percent:
        return _unsigned_zero(f"{100 * x:.1f}") + "%"
    return _unsigned_zero(f"{x:.2f}" if abs(x) < 10 else f"{x:.1f}")


def _tip(label: str, category: str, p: Point, percent: bool) -> str:
    value, low, high = p
    text = f"{label}, {category}: {precise(value, percent)}"
    if not (math.isnan(low) or math.isnan(high)):
        text += " " + _("(95% interval {low} to {high})").format(
            low=precise(low, percent), high=precise(high, percent))
    return text


def _legend(labels: Sequence[str], x: float, y: float) -> list[str]:
    out = []
    for k, label in enumerate(labels):
        out.append(_marker(MARKERS[k % len(MARKERS)], x + 5, y + 16 * k, COLOURS[k % 6],
                           label))
        out.append(f'<text x="{x + 14}" y="{y + 16 * k + 4}" font-size="11" {FONT}>'
                   f"{escape(label)}</text>")
    return out


def _chart(c: Chart, width: float) -> tuple[list[str], float]:
    """The SVG elements of one chart, and its height."""
    label_width = (min(260, 6.2 * max((len(s) for s in c.categories), default=1) + 10)
                   if c.horizontal else 0)
    left, right, top = 56 + label_width, 14, 26
    legend = len(c.series) > 1
    bottom = 44 + (16 * len(c.series) if legend else 0)
    plot_h = 22.0 * max(1, len(c.categories)) if c.horizontal else 190.0
    height = top + plot_h + bottom
    plot_w = width - left - right
    values = [x for s in c.series for p in s.points if p is not None for x in p
              if not math.isnan(x)]
    if c.zero_line:
        values.append(0.0)
    if c.guide is not None:
        values.append(c.guide)
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    if not c.zero_line and low >= 0:
        low = 0.0
    ticks = nice_ticks(low, high)
    lo, hi = ticks[0], ticks[-1]

    def scale(v: float) -> float:  # value → pixels along the value axis
        f = (v - lo) / (hi - lo) if hi > lo else 0.5
        return left + f * plot_w if c.horizontal else top + plot_h - f * plot_h

    n = max(1, len(c.categories))
    band = (plot_h if c.horizontal else plot_w) / n

    def place(i: int, k: float) -> float:  # category i, series k → pixels across
        offset = (k - (len(c.series) - 1) / 2) * min(10.0, band / (len(c.series) + 1))
        start = top if c.horizontal else left
        return start + band * (i + 0.5) + offset

    out = [f'<text x="{width / 2:.1f}" y="16" text-anchor="middle" font-size="13" '
           f'font-weight="bold" {FONT}>{escape(c.title)}</text>']
    # axes, grid and ticks
    for t in ticks:
        p = scale(t)
        if c.horizontal:
            out.append(f'<line x1="{p:.1f}" y1="{top}" x2="{p:.1f}" y2="{top + plot_h}" '
                       'stroke="#ddd"/>')
            out.append(f'<text x="{p:.1f}" y="{top + plot_h + 14}" text-anchor="middle" '
                       f'font-size="10" {FONT}>{_number(t, c.percent)}</text>')
        else:
            out.append(f'<line x1="{left}" y1="{p:.1f}" x2="{left + plot_w}" y2="{p:.1f}" '
                       'stroke="#ddd"/>')
            out.append(f'<text x="{left - 5}" y="{p + 3:.1f}" text-anchor="end" '
                       f'font-size="10" {FONT}>{_number(t, c.percent)}</text>')
    for ref, dash in ((0.0 if c.zero_line else None, ""), (c.guide, ' stroke-dasharray="5,4"')):
        if ref is None:
            continue
        p = scale(ref)
        line = (f'x1="{p:.1f}" y1="{top}" x2="{p:.1f}" y2="{top + plot_h}"' if c.horizontal
                else f'x1="{left}" y1="{p:.1f}" x2="{left + plot_w}" y2="{p:.1f}"')
        out.append(f'<line {line} stroke="#555"{dash}/>')
    out.append(f'<rect x="{left}" y="{top}" width="{plot_w:.1f}" height="{plot_h:.1f}" '
               'fill="none" stroke="#888"/>')
    for i, name in enumerate(c.categories):
        p = place(i, (len(c.series) - 1) / 2 if c.series else 0)
        if c.horizontal:
            out.append(f'<text x="{left - 6}" y="{p + 3:.1f}" text-anchor="end" '
                       f'font-size="10" {FONT}>{escape(name)}</text>')
        else:
            out.append(f'<text x="{p:.1f}" y="{top + plot_h + 14}" text-anchor="middle" '
                       f'font-size="10" {FONT}>{escape(name)}</text>')
    # axis labels
    mid_value = (left + plot_w / 2) if c.horizontal else (top + plot_h / 2)
    value_text = escape(c.value_label)
    if c.horizontal:
        out.append(f'<text x="{mid_value:.1f}" y="{top + plot_h + 30}" text-anchor="middle" '
                   f'font-size="11" {FONT}>{value_text}</text>')
        if c.category_label:
            out.append(f'<text x="8" y="{top - 8}" font-size="11" {FONT}>'
                       f"{escape(c.category_label)}</text>")
    else:
        out.append(f'<text transform="translate(14,{mid_value:.1f}) rotate(-90)" '
                   f'text-anchor="middle" font-size="11" {FONT}>{value_text}</text>')
        if c.category_label:
            out.append(f'<text x="{left + plot_w / 2:.1f}" y="{top + plot_h + 30}" '
                       f'text-anchor="middle" font-size="11" {FONT}>'
                       f"{escape(c.category_label)}</text>")
    # the estimates
    for k, s in enumerate(c.series):
        colour, shape = COLOURS[k % len(COLOURS)], MARKERS[k % len(MARKERS)]
        for i, point in enumerate(s.points):
            if point is None or math.isnan(point[0]) or i >= len(c.categories):
                continue
            across = place(i, k)
            if not (math.isnan(point[1]) or math.isnan(point[2])):
                a, b = scale(point[1]), scale(point[2])
                if c.horizontal:
                    out.append(f'<line x1="{a:.1f}" y1="{across:.1f}" x2="{b:.1f}" '
                               f'y2="{across:.1f}" stroke="{colour}" stroke-width="1.5"/>')
                else:
                    out.append(f'<line x1="{across:.1f}" y1="{a:.1f}" x2="{across:.1f}" '
                               f'y2="{b:.1f}" stroke="{colour}" stroke-width="1.5"/>')
            v = scale(point[0])
            x, y = (v, across) if c.horizontal else (across, v)
            out.append(_marker(shape, x, y, colour,
                               _tip(s.label, c.categories[i], point, c.percent)))
    if legend:
        out += _legend([s.label for s in c.series], left, top + plot_h + 40)
    return out, height


def _histogram(h: Histogram, width: float) -> tuple[list[str], float]:
    values = [v for _, vs in h.series for v in vs]
    if not values:
        return [], 0.0
    low, high = min(values), max(values)
    if high == low:
        high = low + 1
    edges = [low + (high - low) * k / h.bins for k in range(h.bins + 1)]
    counts = []
    for _label, vs in h.series:
        row = [0] * h.bins
        for v in vs:
            row[min(h.bins - 1, int((v - low) / (high - low) * h.bins))] += 1
        counts.append(row)
    categories = tuple(f"{_number(edges[k])}–{_number(edges[k + 1])}" for k in range(h.bins))
    left, top, plot_w, plot_h = 56.0, 26.0, width - 70.0, 190.0
    bottom = 44 + 16 * len(h.series)
    peak = max(max(r) for r in counts) or 1
    ticks = nice_ticks(0, peak)
    out = [f'<text x="{width / 2:.1f}" y="16" text-anchor="middle" font-size="13" '
           f'font-weight="bold" {FONT}>{escape(h.title)}</text>']
    for t in ticks:
        y = top + plot_h - t / ticks[-1] * plot_h
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" '
                   'stroke="#ddd"/>')
        out.append(f'<text x="{left - 5}" y="{y + 3:.1f}" text-anchor="end" font-size="10" '
                   f'{FONT}>{_number(t)}</text>')
    for t in nice_ticks(low, high):
        if low <= t <= high:
            x = left + (t - low) / (high - low) * plot_w
            out.append(f'<text x="{x:.1f}" y="{top + plot_h + 14}" text-anchor="middle" '
                       f'font-size="10" {FONT}>{_number(t)}</text>')
    bar = plot_w / h.bins
    for k, ((label, _values), row) in enumerate(zip(h.series, counts, strict=True)):
        colour = COLOURS[k % len(COLOURS)]
        dash = "" if k == 0 else f' stroke-dasharray="{2 + 2 * k},2"'
        path = [f"M{left:.1f},{top + plot_h:.1f}"]
        for i, count in enumerate(row):
            y = top + plot_h - count / ticks[-1] * plot_h
            path.append(f"L{left + i * bar:.1f},{y:.1f} L{left + (i + 1) * bar:.1f},{y:.1f}")
        path.append(f"L{left + plot_w:.1f},{top + plot_h:.1f}")
        tip = escape(f"{label}: " + ", ".join(f"{c} in {categories[i]}"
                                               for i, c in enumerate(row) if c))
        out.append(f'<path d="{" ".join(path)}" fill="{colour}" fill-opacity="0.15" '
                   f'stroke="{colour}" stroke-width="2"{dash}><title>{tip}</title></path>')
    out.append(f'<rect x="{left}" y="{top}" width="{plot_w:.1f}" height="{plot_h:.1f}" '
               'fill="none" stroke="#888"/>')
    out.append(f'<text x="{left + plot_w / 2:.1f}" y="{top + plot_h + 30}" '
               f'text-anchor="middle" font-size="11" {FONT}>{escape(h.value_label)}</text>')
    out.append(f'<text transform="translate(14,{top + plot_h / 2:.1f}) rotate(-90)" '
               f'text-anchor="middle" font-size="11" {FONT}>number of players</text>')
    for k, (label, _values) in enumerate(h.series):
        y = top + plot_h + 40 + 16 * k
        dash = "" if k == 0 else f' stroke-dasharray="{2 + 2 * k},2"'
        out.append(f'<line x1="{left}" y1="{y}" x2="{left + 18}" y2="{y}" '
                   f'stroke="{COLOURS[k % 6]}" stroke-width="2"{dash}/>')
        out.append(f'<text x="{left + 24}" y="{y + 4}" font-size="11" {FONT}>'
                   f"{escape(label)}</text>")
    return out, top + plot_h + bottom


def describe(panels: Sequence[Chart | Histogram]) -> str:
    """A sentence per panel for the figure's `<desc>` (what a screen reader hears)."""
    parts = []
    for p in panels:
        if isinstance(p, Chart):
            names = ", ".join(s.label for s in p.series)
            parts.append(_("{title}: {names} with 95% intervals, by {by} ({n} shown); "
                           "values in {unit}.").format(
                title=p.title, names=names, by=p.category_label or _("category"),
                n=len(p.categories), unit=p.value_label))
        else:
            parts.append(_("{title}: histograms of {names}; values in {unit}.").format(
                title=p.title, names=", ".join(n for n, _values in p.series),
                unit=p.value_label))
    return " ".join(parts)


def figure(title: str, panels: Sequence[Chart | Histogram], panel_width: float = 460,
           columns: int = 2) -> str:
    """One SVG holding the panels side by side (`columns` per row), titled `title`."""
    if not panels:
        return ""
    drawn = [(_chart(p, panel_width) if isinstance(p, Chart) else _histogram(p, panel_width))
             for p in panels]
    cols = max(1, min(columns, len(drawn)))
    heights = [max(h for _e, h in drawn[r:r + cols]) for r in range(0, len(drawn), cols)]
    width, height = cols * panel_width, sum(heights)
    body, y = [], 0.0
    for r, row_height in zip(range(0, len(drawn), cols), heights, strict=True):
        for k, (elements, _height) in enumerate(drawn[r:r + cols]):
            body.append(f'<g transform="translate({k * panel_width:.0f},{y:.0f})">'
                        + "".join(elements) + "</g>")
        y += row_height
    return (f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width:.0f}" '
            f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
            f'aria-label="{escape(title)}" style="max-width:100%;height:auto">'
            f"<title>{escape(title)}</title><desc>{escape(describe(panels))}</desc>"
            f'<rect width="100%" height="100%" fill="white"/>' + "".join(body) + "</svg>")
