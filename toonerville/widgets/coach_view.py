"""The coach's hint on a page: the strong bot's move, why, and what the other moves cost.

Owns `CoachHint`, the panel under a seat's moves (CSS class `tr-coach-hint`), and the
coach's notes of each seat it sits by (a `coach.memory.Memory` per seat, fed every view
of that seat the page shows, `observe_view(view)`: never another seat's cards). `ask(work)` shows
"Thinking…" at once — the widget message leaves the kernel before the work starts, so
the learner sees it while the strong bot plays the round out — then runs `work()` (a
`coach.hint.Hint`) and draws each alternative the bot weighed as its figures allow
(`hint_html`, `Alternative.message`): its cost in points with a 95 % interval, "about
the same", or "may be better", priced on fresh worlds, and the rounds played out behind
it. A new view clears it.

The two ways to the hint: `hint_for_game` (a page that holds the `Game`, as 07 does:
`coach.hint`) and `CoachHint.hint_for_view` (a seat that holds only its views, as
`SeatView` does: the strong bot with the panel's notes). Both spend a budget of work,
`HINT_WORLDS` played-out worlds and a pricing budget (`page_price`), never a wall-clock
cap: the same position gets the same hint however loaded the machine is. The budget is
sized so that a hint answers within about a second in Voila on this machine
(`HINT_PRICE`; `benchmarks/bench_coach_pages.py`, `bench_coach_calibration.py --rehint`
measure it) and within 2 s on the static site, whose Python (Pyodide, no compiled
engine) plays out about three times slower (`SITE_HINT_PRICE`;
`benchmarks/bench_pyodide_strong.mjs`): the same choosing worlds, so the same move,
priced on fewer worlds there.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from html import escape
from typing import Any

import ipywidgets as widgets

from ..coach.hint import Hint, hint, hint_of
from ..coach.memory import Memory
from ..coach.strong import ADVICE, StrongBot
from ..engine import actions as A
from ..engine.game import Game
from ..engine.messages import N_, _
from ..engine.rules import Rules
from ..engine.views import PlayerView
from ..pages.render import TEXT_PX, sentence_html
from .base import Part
from .coach_review import IN_BROWSER
from .progress import hint_used

#: a hint's budget of work (no clock), sized for a hint within about 1 s in Voila on this
#: machine: worlds that choose the move, and (least, most) fresh worlds that price the
#: alternatives against it, playing out at most 8,000 moves in all once the first 16 are
#: done (`coach.strong.price`). With 20,000 moves round 11's draws took up to 1.15 s in
#: the kernel; with 8,000 the calibration's 154 hints take at most 0.67 s, and their error
#: is the same (`benchmarks/bench_coach_calibration.py --rehint 16,48,8000`: 2.91 points
#: against 2.94; 2.62 since a buy's and a pass's priors were fitted apart, `coach.shrink`)
HINT_WORLDS = 8
HINT_PRICE = (16, 48, 8_000)
#: the static site's pricing budget: 8 to 32 worlds, at most 4,000 moves once the first
#: 8 are done (round 11's hints took up to 3.9 s in Pyodide with `HINT_PRICE`; its
#: calibration error, `--rehint 8,32,4000`, 2.81 points)
SITE_HINT_PRICE = (8, 32, 4_000)

THINKING = N_("Thinking… the strong bot is playing the round out with the cards you "
              "cannot see dealt at random")
COSTS_HEAD = N_("What the other choices cost, by the strong bot's estimate:")
PLAIN = N_("No other move was worth weighing here: the strong bot plays this one at once.")


def page_price() -> tuple[int, int, int]:
    """The pricing budget of a hint where this page runs: the static site's in the
    browser (Pyodide), else Voila's."""
    return SITE_HINT_PRICE if IN_BROWSER else HINT_PRICE


def hint_for_game(game: Game, seat: int) -> Hint:
    """The coach's hint for `seat` in `game` as it stands (`coach.hint`, the page's budget)."""
    return hint(game, seat, worlds=HINT_WORLDS, time_budget=None, price=page_price())


def hint_html(found: Hint | None, thinking: bool = False, size: str = "normal") -> str:
    """The panel's picture: the thinking state, or the hint's alternatives with their
    costs (cheapest first), or that nothing else was worth weighing; "" for no hint."""
    style = f'style="font-size:{TEXT_PX[size]}px;margin:4px 0"'
    if thinking:
        return (f'<div class="tr-coach-thinking" role="status" aria-busy="true" {style}>'
                f"<i>{escape(_(THINKING))}</i></div>")
    if found is None:
        return ""
    if not found.alternatives:
        return f'<div class="tr-coach-plain" {style}>{escape(_(PLAIN))}</div>'
    items = "".join(f'<li class="tr-coach-cost">{sentence_html(a.message())}</li>'
                    for a in sorted(found.alternatives, key=lambda a: a.cost))
    return (f'<div class="tr-coach-costs" role="status" {style}>{escape(_(COSTS_HEAD))}'
            f'<ul style="margin:2px 0">{items}</ul></div>')


class CoachHint(Part, widgets.HTML):  # type: ignore[misc]
    """The coach's panel by one seat (see the module)."""

    def __init__(self, size: str = "normal", **kwargs: Any) -> None:
        self._found: Hint | None = None
        self._thinking = False
        self._view: PlayerView | None = None
        #: the notes of each seat shown here, fed only that seat's views (pass-and-play
        #: shows several seats in turn: each keeps its own notes, none sees another's)
        self.memories: dict[int, Memory] = {}
        super().__init__(**kwargs)
        self.size = size
        self.add_class("tr-coach-hint")

    @property
    def found(self) -> Hint | None:
        """The hint shown now, or None."""
        return self._found

    def observe_view(self, view: PlayerView) -> None:
        """Note a view the learner is shown (their own seat's); a hint from an earlier
        view is cleared."""
        if view != self._view:
            self.memories.setdefault(view.seat, Memory()).observe(view)
            if self._found is not None or self._thinking:
                self._found, self._thinking = None, False
                self._redraw()
        self._view = view

    def clear(self) -> None:
        self._found, self._thinking = None, False
        self._redraw()

    def ask(self, work: Callable[[], Hint]) -> Hint:
        """Show the thinking state, run `work`, show its hint (nothing on a refusal,
        which goes on to the page's message box)."""
        self._found, self._thinking = None, True
        self._redraw()  # sent now, before the work starts
        try:
            found = work()
        except BaseException:
            self.clear()
            raise
        self._found, self._thinking = found, False
        self._redraw()
        hint_used()  # for the class's dashboard, when the page belongs to a class
        return found

    def hint_for_view(self, view: PlayerView, rules: Rules,
                      legal: Sequence[A.Action]) -> Hint:
        """The strong bot's hint in `view` (the seat's own), from the panel's notes of
        the views shown before it; seeded by the position, so the same view gets the
        same hint."""
        bot = StrongBot(worlds=HINT_WORLDS, time_budget=None, price=page_price(),
                        clear=ADVICE, kept=0, aligned=False, closer=0)  # as calibrated
        bot.memory = copy.deepcopy(self.memories.get(view.seat, Memory()))
        moves = list(legal)
        rng = random.Random(f"coach:{view.round_number}:{view.phase.name}:{view.seat}:"
                            f"{view.stock_size}:{view.discard_size}:"
                            + " ".join(map(str, view.hand)))
        return hint_of(bot.decide(view, rules, lambda: moves, rng), view)

    def _redraw(self) -> None:
        if hasattr(self, "_thinking"):
            self.value = hint_html(self._found, self._thinking, self.size)

