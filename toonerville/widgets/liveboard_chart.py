"""What the live board's pages draw: the spread of the answers as a bar chart, the
coach's verdict beside each bar, a question's title, and the summary at the end.

Owns the pictures of `liveboard`: `SpreadChart` (a `base.Part`: one bar per answer with
its count, largest first, in HTML bars sized with the page, so a projector shows them at
its text size; after the reveal each bar carries the coach's sentence for that answer —
the hint's own words, `coach.verdict.cost_message` — and the coach's move is marked), and
pure functions of the store's values (`store.liveboard`) for the title of a question,
the teacher-only list of names, and the summary (per question: the spread, the coach's
move, the share of the class that found it). No picture the projector shows holds a
learner's name; `names_html` is the teacher's alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

import ipywidgets as widgets

from ..coach.verdict import AnswerCost, cost_message
from ..engine.actions import parse_action
from ..engine.errors import ToonervilleError
from ..engine.game import Game
from ..engine.messages import Message, _
from ..pages.render import TEXT_PX, sentence_html
from ..store.liveboard import Cost, Question, Source, Spread
from .base import Part

#: the bars' colours: an answer, the coach's move (with a mark, not colour alone)
BAR, BEST = "#1565c0", "#2e7d32"


def source_text(source: Source) -> str:
    """Where a question's position comes from, in the language in use."""
    if source.kind == "deal":
        return _("deal {seed}, round {round}, move {moves}").format(
            seed=source.get("seed"), round=source.get("round"), moves=source.get("moves", 0))
    if source.kind == "scenario":
        return _("the position “{name}”").format(name=escape(str(source.get("name"))))
    if source.kind == "review":
        return _("a costly decision from a review (round {round})").format(
            round=source.get("round"))
    return _("A saved game")


def question_game(question: Question) -> Game:
    return Game.from_json(question.save)


def answer_words(notation: str, game: Game, seat: int) -> str:
    """An answer in words ("discarding G11"), as the coach says it; its notation if the
    engine cannot read it."""
    from ..coach.strong import move_words

    try:
        action = parse_action(notation, game.rules)
    except ToonervilleError:
        return notation
    view = game.view(seat)
    words = str(move_words(action, view.offered or view.discard_top or ""))
    if type(action).__name__ in ("LayDown", "LayOff", "SwapRook"):
        words += f" ({notation.split(': ', 1)[-1]})"
    return words


def verdict_sentence(cost: Cost, game: Game, seat: int) -> Message | None:
    """The coach's sentence for one answer's cost (the hint's words)."""
    try:
        action = parse_action(cost.answer, game.rules)
    except ToonervilleError:
        return None
    view = game.view(seat)
    return cost_message(AnswerCost(action, cost.cost, cost.low, cost.high, cost.samples,
                                   cost.best, cost.measured),
                        view.offered or view.discard_top or "")


@dataclass(frozen=True, slots=True)
class Bar:
    answer: str  # notation
    words: str
    count: int
    best: bool = False
    verdict: str = ""  # HTML


def bars_of(spread: Spread, question: Question) -> tuple[Bar, ...]:
    """One bar per answer given (most given first); after the reveal, each with the
    coach's sentence, and the coach's move as a bar of its own if nobody gave it."""
    game = question_game(question)
    costs = {c.answer: c for c in question.verdict}
    best = next((c.answer for c in question.verdict if c.best), None)
    counts = dict(spread.counts)
    order = [a for a, _n in spread.counts]
    if best is not None and best not in counts:
        order.append(best)
    out = []
    for answer in order:
        cost = costs.get(answer)
        sentence = None if cost is None else verdict_sentence(cost, game, question.seat)
        out.append(Bar(answer, answer_words(answer, game, question.seat),
                       counts.get(answer, 0), answer == best,
                       "" if sentence is None else sentence_html(sentence)))
    return tuple(out)


def spread_html(bars: Sequence[Bar], total: int, size: str = "normal") -> str:
    """The chart: a table of answers, each with a bar as long as its count (of the
    largest), the count, and after the reveal the coach's sentence."""
    px = TEXT_PX[size]
    caption = _("{n} answers").format(n=total) if total != 1 else _("1 answer")
    if not bars:
        return (f'<div class="tr-lb-spread" role="status" style="font-size:{px}px">'
                f"<b>{escape(caption)}</b></div>")
    most = max(1, max(b.count for b in bars))
    rows = []
    for b in bars:
        width = 100 * b.count / most
        colour = BEST if b.best else BAR
        mark = f' <b class="tr-lb-best">✔ {escape(_("The coach’s move"))}</b>' \
            if b.best else ""
        verdict = f'<div class="tr-lb-cost">{b.verdict}</div>' if b.verdict else ""
        rows.append(
            f'<tr class="tr-lb-row" data-answer="{escape(b.answer)}" data-count="{b.count}">'
            f'<th scope="row" style="text-align:start;font-weight:normal;padding:4px 8px;'
            f'vertical-align:top">{escape(b.words)}{mark}{verdict}</th>'
            f'<td style="width:50%;padding:4px 8px;vertical-align:top">'
            f'<div style="background:{colour};height:{px * 1.2:.0f}px;width:{width:.1f}%;'
            f'min-width:{2 if b.count else 0}px;border-radius:3px"></div></td>'
            f'<td class="tr-lb-count" style="padding:4px 8px;font-weight:bold;'
            f'vertical-align:top">{b.count}</td></tr>')
    return (f'<table class="tr-lb-spread" role="table" style="font-size:{px}px;'
            f'border-collapse:collapse;width:100%"><caption style="text-align:start">'
            f"<b>{escape(caption)}</b></caption>{''.join(rows)}</table>")


class SpreadChart(Part, widgets.HTML):  # type: ignore[misc]
    """The spread of the answers as bars, with the verdict once revealed (see the
    module); `show(bars, total)` draws it."""

    def __init__(self, size: str = "normal", **kwargs: Any) -> None:
        self._bars: tuple[Bar, ...] = ()
        self._total = 0
        super().__init__(**kwargs)
        self.size = size
        self.add_class("tr-lb-chart")
        self._redraw()

    @property
    def bars(self) -> tuple[Bar, ...]:
        return self._bars

    def show(self, bars: Sequence[Bar], total: int) -> None:
        self._bars, self._total = tuple(bars), total
        self._redraw()

    def _redraw(self) -> None:
        if hasattr(self, "_bars"):
            self.value = spread_html(self._bars, self._total, self.size)


def names_html(spread: Spread, question: Question) -> str:
    """Who answered what: for the teacher's eyes only (never on the projector)."""
    if not spread.by_learner:
        return f"<i>{escape(_('nobody has answered yet'))}</i>"
    game = question_game(question)
    items = "".join(f"<li><b>{escape(name)}</b>: "
                    f"{escape(answer_words(answer, game, question.seat))}</li>"
                    for name, answer in spread.by_learner)
    return f'<ul class="tr-lb-name-list">{items}</ul>'


def summary_html(rows: Sequence[tuple[Question, Spread]], size: str = "normal") -> str:
    """The board's summary: per question, where it came from, the spread, the coach's
    move, and how many of the class found it."""
    px = TEXT_PX[size]
    head = (_("Question"), _("Position"), _("Answers"), _("The coach’s move"),
            _("Found it"))
    cells = "".join(f'<th style="text-align:start;padding:2px 8px">{escape(h)}</th>'
                    for h in head)
    body = []
    for question, spread in rows:
        game = question_game(question)
        given = " · ".join(f"{escape(answer_words(a, game, question.seat))}: {n}"
                           for a, n in spread.counts) or "—"
        best = next((c.answer for c in question.verdict if c.best), None)
        if best is None:
            coach, found = escape(_("not revealed")), "—"
        else:
            hit = dict(spread.counts).get(best, 0)
            coach = escape(answer_words(best, game, question.seat))
            found = _("{k} of {n}").format(k=hit, n=spread.total) + (
                f" ({round(100 * hit / spread.total)} %)" if spread.total else "")
        body.append(f'<tr class="tr-lb-summary-row"><td style="padding:2px 8px">'
                    f"{question.number}</td><td style=\"padding:2px 8px\">"
                    f"{source_text(question.source)}</td><td style=\"padding:2px 8px\">"
                    f"{given}</td><td style=\"padding:2px 8px\">{coach}</td>"
                    f'<td style="padding:2px 8px">{escape(found)}</td></tr>')
    return (f'<table class="tr-lb-summary-table" style="font-size:{px}px;'
            f'border-collapse:collapse"><tr>{cells}</tr>{"".join(body)}</table>')
