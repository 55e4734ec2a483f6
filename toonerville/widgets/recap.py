"""The end of a round as a moment to look at: `round_ends`, `recap_html`, `RoundRecap`.

Owns the screen a learner sees between two rounds, wherever they sit (07, pass-and-play,
shared tables, tournament tables): every player's melds on the table and the cards left
in each hand with their points, the round's scores (T20) and the running totals, and a
Continue button; at a shared table a short countdown closes it by itself, and the new
round goes on under it in reach of the learner (the table never waits for it).

Everything comes from the game's history, which every page holds (a `Game`'s own, or a
shared table's public history): the round-end event keeps the hands left and the melds on
the table as the round ended (they are scored in the open), the scores event keeps the
round's row. `round_ends(history)` turns them into `RoundEnd` values; `recap_html` is a
pure picture of one; `RoundRecap` is the widget, which shows the newest round end it has
not shown yet (`offer(history)`), and hides itself on Continue.

With `review_source` set by the owner (the game it holds and the learner's seat), a round
end also starts that round's review (`coach_review.RoundReview`, its Review button under
Continue), prepared in the background while the learner reads the recap.

Stable hooks for tests are CSS classes: `tr-recap`, `tr-recap-body`, `tr-continue`,
`tr-recap-countdown`, `tr-review` (`tr-review-open`, `tr-review-body`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from html import escape
from typing import Any

import ipywidgets as widgets

from ..engine.cards import Card, hand_points
from ..engine.events import Event, EventKind
from ..engine.melds import Meld
from ..engine.messages import N_, _, plural
from ..engine.rules import ROUNDS, Rules
from ..engine.scoring import places, winners
from ..pages.render import TEXT_PX, card_html, meld_html
from .base import SHOWN, Part
from .coach_review import IN_BROWSER, ReviewSource, RoundReview

#: how long a shared table's recap stays before it closes by itself, in seconds
RECAP_SECONDS = 20


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """One finished round as the table saw it end: the melds on the table and the cards
    left in each hand (by seat), the round's points and the totals after it."""

    round_number: int
    names: tuple[str, ...]
    went_out: int | None
    ended_by: str  # "out", "stock" (H6) or "turn_limit"
    table: tuple[tuple[Meld, ...], ...]
    left: tuple[tuple[Card, ...], ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]
    #: after the last round, who holds each seat as the game ends (the game-over
    #: sentence's names: a learner away at the end with the bot playing for them)
    final: tuple[str, ...] = ()

    @property
    def last(self) -> bool:
        """Was it the game's last round (T21 decides the game)?"""
        return self.round_number == ROUNDS


def round_ends(history: Sequence[Event]) -> tuple[RoundEnd, ...]:
    """Every round end in `history`, oldest first (a round end whose event keeps no hands,
    as in a game recorded before they were kept, shows its points only)."""
    ends: list[RoundEnd] = []
    totals: list[int] = []
    ended: Event | None = None
    for event in history:
        if event.kind is EventKind.ROUND_END:
            ended = event
        elif event.kind is EventKind.SCORES and ended is not None:
            row = tuple(int(p) for p in event.detail["row"].values)
            totals = [a + b for a, b in zip(totals or [0] * len(row), row, strict=True)]
            detail = ended.detail
            players = len(row)
            ends.append(RoundEnd(
                round_number=ended.round_number, names=ended.names or tuple(
                    str(k + 1) for k in range(players)),
                went_out=ended.seat, ended_by=str(detail.get("ended_by", "out")),
                table=tuple(detail.get("table", ((),) * players)),
                left=tuple(detail.get("left", ((),) * players)),
                points=row, totals=tuple(totals)))
            ended = None
        elif event.kind is EventKind.GAME_OVER and ends and event.names:
            ends[-1] = replace(ends[-1], final=event.names)
    return tuple(ends)


def _why(end: RoundEnd) -> str:
    if end.went_out is not None:
        return _("{name} went out").format(name=escape(end.names[end.went_out]))
    if end.ended_by == "stock":
        return _("nobody went out: the stock ran out")
    return _("nobody went out before the turn limit")


def recap_html(end: RoundEnd, size: str = "normal", me: int | None = None,
               rules: Rules | None = None) -> str:
    """The round end as one picture: a row per seat with its melds, the cards left in its
    hand, the round's points and the running total; `me` marks the learner's seat."""
    small = "small" if size in ("small", "normal") else "normal"
    px = TEXT_PX[size]
    head = _("Round {r} is over: {why} (T20)").format(r=end.round_number, why=_why(end))
    cell = "padding:4px 10px;vertical-align:top;border-bottom:1px solid rgba(127,127,127,.45)"
    rows = []
    ranks = places(end.totals)
    for seat, name in enumerate(end.names):
        shown = _("{name} (you)").format(name=name) if seat == me else name
        melds = "".join(meld_html(m, small) for m in end.table[seat]) \
            if seat < len(end.table) and end.table[seat] else \
            f'<span style="opacity:.8">{escape(_("no melds"))}</span>'
        left = end.left[seat] if seat < len(end.left) else ()
        if seat == end.went_out:
            cards = f'<b>{escape(_("went out"))}</b>'
        elif left:
            cards = "".join(card_html(c, small) for c in left) + (
                f'<div>{escape(plural("{n} point", "{n} points", hand_points(left)))}</div>')
        else:
            cards = f'<span style="opacity:.8">{escape(_("no cards"))}</span>'
        lead = " ★" if end.last and ranks[seat] == 1 else ""
        rows.append(
            f'<tr class="tr-recap-seat"><th scope="row" style="{cell};text-align:start">'
            f'<bdi>{escape(shown)}</bdi>{lead}</th><td style="{cell}">{melds}</td>'
            f'<td style="{cell}">{cards}</td>'
            f'<td style="{cell};text-align:end"><b>{end.points[seat]}</b></td>'
            f'<td style="{cell};text-align:end">{end.totals[seat]}</td></tr>')
    heads = "".join(f'<th scope="col" style="{cell};text-align:start">{escape(_(t))}</th>'
                    for t in (N_("Player"), N_("Melds on the table"), N_("Cards left"),
                              N_("Points this round"), N_("Total")))
    if end.last:
        best = [(end.final or end.names)[s] for s in winners(end.totals)]
        after = _("The game is over: the lowest total wins (T21): {who}.").format(
            who=escape(", ".join(best)))
    else:
        contract = (rules or Rules()).contract(end.round_number + 1)
        after = _("Next: round {r}, contract {contract} (T7).").format(
            r=end.round_number + 1, contract=escape(str(contract)))
    return (f'<div class="tr-recap-body" role="status" style="font-size:{px}px">'
            f'<h3 style="margin:4px 0">{head}</h3>'
            f'<table style="border-collapse:collapse"><thead><tr>{heads}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table><p>{after}</p></div>')


class RoundRecap(Part, widgets.VBox):  # type: ignore[misc]
    """The recap of the newest round end not yet shown, with Continue; hidden otherwise.

    `offer(history)` shows the newest round end of `history` that this recap has not
    shown (True if it shows one now); `shown` says whether it is open; Continue (or
    `close_recap()`) hides it and calls `on_close`. With `countdown` (seconds), a ticker in the
    page closes it by itself when the time is up. Round ends before `start(history)` are
    never shown (a learner who joins late sees no old recap)."""

    def __init__(self, size: str = "normal", *, countdown: int | None = None,
                 on_close: Callable[[], object] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.size = size
        self.on_close = on_close
        self.countdown = countdown
        self.me: int | None = None
        self.rules: Rules | None = None
        self._seen = 0
        self._end: RoundEnd | None = None
        self._left = 0
        self.body = widgets.HTML()
        self.continue_button = self.texts(
            widgets.Button(layout=widgets.Layout(width="auto"), button_style="primary"),
            description=N_("Continue"), tooltip=N_("Close the round's recap and play on"))
        self.continue_button.add_class("tr-continue")
        self.continue_button.on_click(lambda _b: self.close_recap())
        self.clock = widgets.HTML()
        self.clock.add_class("tr-recap-countdown")
        self.ticker = widgets.Play(interval=1000, min=0, max=10_000, step=1, repeat=True,
                                   playing=False, show_repeat=False,
                                   layout=widgets.Layout(display="none"))
        self.ticker.observe(lambda _c: self.tick(), "value")
        #: the round's review (`coach_review`), prepared when a round ends if the owner
        #: gives `review_source` (the game it holds and the learner's seat)
        self.review = RoundReview(size)
        self.review.on_open = self.hold
        self.review_source: ReviewSource | None = None
        #: prepare the review when the round ends (07); False: when it is opened (a
        #: shared table, where every learner's round ends at once)
        self.review_at_once = not IN_BROWSER  # no threads in Pyodide: when opened
        self.children = [self.body, widgets.HBox([self.continue_button, self.clock]),
                         self.review, self.ticker]
        self.add_class("tr-recap")
        self.layout.display = "none"
        self.layout.border = "2px solid #2e7d32"
        self.layout.padding = "4px 12px"

    @property
    def shown(self) -> bool:
        return self._end is not None

    @property
    def end(self) -> RoundEnd | None:
        """The round end shown now, or None."""
        return self._end

    def start(self, history: Sequence[Event]) -> None:
        """Show no round end that `history` holds already."""
        self._seen = len(round_ends(history))

    def offer(self, history: Sequence[Event]) -> bool:
        """Show the newest round end of `history` not shown yet; True if one shows now."""
        ends = round_ends(history)
        if len(ends) <= self._seen:
            if len(ends) < self._seen:  # a new game (or a take-back past a round end)
                self._seen = len(ends)
            return False
        self._seen = len(ends)
        self._end = ends[-1]
        self._left = self.countdown or 0
        if self.countdown:
            self.ticker.playing = True
        self._redraw()
        if self.review_source is not None and not self.review_at_once:
            self.review.offer(self.review_source, self._end.round_number)
        elif self.review_source is not None:
            source = self.review_source()
            if source is not None:
                self.review.prepare(*source, self._end.round_number)
        self.layout.display = SHOWN
        return True

    def hold(self) -> None:
        """Stop the countdown: the recap stays until Continue (the learner is reading
        the round's review)."""
        self._left = 0
        self.ticker.playing = False
        self.clock.value = ""

    def tick(self) -> None:
        """One second of the countdown; at zero the recap closes by itself."""
        if self._end is None or not self.countdown or not self.ticker.playing:
            self.ticker.playing = False
            return
        self._left -= 1
        if self._left <= 0:
            self.close_recap()
        else:
            self._redraw()

    def close_recap(self) -> None:
        """Hide the recap (Continue) and tell the page."""
        if self._end is None:
            return
        self._end = None
        self.review.hide()
        self.ticker.playing = False
        self.layout.display = "none"
        self.body.value = ""
        self.clock.value = ""
        if self.on_close is not None:
            self.on_close()

    def _redraw(self) -> None:
        if not hasattr(self, "body"):
            return
        end = self._end
        if end is None:
            return
        self.body.value = recap_html(end, self.size, self.me, self.rules)
        self.review.size = self.size
        counting = self.countdown and self.ticker.playing
        self.clock.value = escape(plural(
            "the round's recap closes in {n} second",
            "the round's recap closes in {n} seconds", self._left)) if counting else ""
