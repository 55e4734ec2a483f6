"""The review of a round on a page: the learner's costliest decisions, on the board as it stood.

Owns `RoundReview` (CSS class `tr-review`), the part of a round's recap
(`recap.RoundRecap.review`) that the learner opens with its Review button. When a round
ends the recap calls `prepare(game, seat, round_number)`: the review starts at once in a
thread of the kernel (`coach.review.review_round`, at most three decisions) on a snapshot
of the game (`game.position_at(game.moves_made)`: the page plays on without touching it),
and the page says "preparing…" until it is ready. A shared table's recap uses `offer`
instead: the review is prepared when the learner opens it (a round ends for every
learner at once there, on the server that plays the bots), and so does every recap in a
browser without threads (Pyodide, the static site): there the review runs when opened,
"preparing…" already on the page. Each decision is drawn from the
engine's own position before the move (`Mistake.position(game)`, seen from the learner's
seat only): the hand as it was (the card played lifted), the top of the discard pile or
the card offered, the melds on the table, the move made, the better move, the cost in
points this round (re-priced on worlds that did not select it) with its 95 % interval
and the rounds played out behind it, and the reason with its rule id (`review_html`).
Its heading says which of the learner's turns of the round it was ("Round 1, your turn
4"), never the engine's move counter. After the
game's last round a menu reviews any round of the game, each prepared the same way.
Under a ready review, "Try it again" (`tr-practice-try`) hands its decisions to the
owner's `on_try` (07's practice panel, `widgets.practice`).

One owner of the state: the results (`reviews`, by round) are written under a lock by the
thread and drawn by `_redraw`; a review of an older game or round that finishes late is
kept in the cache but never drawn over a newer one. `wait()` lets a test (or a script)
wait for the thread.
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Callable
from html import escape
from typing import Any

import ipywidgets as widgets

from ..coach.review import LEAST_COST, Mistake, ReviewCancelled, review_round
from ..engine import actions as A
from ..engine.cards import Card
from ..engine.events import Phase
from ..engine.game import Game
from ..engine.messages import N_, _, msg
from ..engine.rules import ROUNDS
from ..pages.render import TEXT_PX, card_html, hand_html, meld_html, sentence_html
from .base import SHOWN, Part, displayed, translated_button
from .progress import review_opened

log = logging.getLogger("toonerville.widgets")

#: a browser without threads (Pyodide: the static site)
IN_BROWSER = sys.platform == "emscripten"
#: seconds a review's thread waits before it starts: a learner who clicks Continue at
#: once costs the kernel nothing (the bots' moves share its one core for Python)
START_DELAY = 1.0

#: what an owner hands the recap: the game the page holds and the learner's seat (None:
#: no review here, e.g. a watcher)
ReviewSource = Callable[[], "tuple[Game, int] | None"]

PREPARING = N_("Preparing the review of round {r}… (the strong bot replays your decisions)")
NOTHING = N_("In round {r} no decision of yours cost {points} points or more by the strong "
             "bot's estimate.")
READY = N_("The review of round {r} is ready: {n} of your decisions cost points.")
FAILED = N_("The review of round {r} could not be prepared.")


#: a reviewed decision: the move made, the better one, the re-priced cost with its interval
VERDICT = N_("You chose {made}; better: {better}. It cost you about {points} points this "
             "round ({low} to {high} points; {n} rounds played out).")
#: a reviewed decision's heading, in words: which of the learner's turns it was
TURN = N_("Round {r}, your turn {n}")
OFFER_BEFORE = N_("Round {r}, a buy offer before your first turn")
OFFER_AFTER = N_("Round {r}, a buy offer after your turn {n}")


def heading(mistake: Mistake) -> str:
    """A reviewed decision's heading ("Round 1, your turn 4"), translated."""
    r, n = mistake.round_number, mistake.turn
    if not mistake.offer:
        return _(TURN).format(r=r, n=n)
    return _(OFFER_AFTER if n else OFFER_BEFORE).format(r=r, n=n)


def mistake_html(game: Game, mistake: Mistake, size: str = "normal") -> str:
    """One decision of the review on the board as it stood (see the module)."""
    pos = mistake.position(game)
    view = pos.view(mistake.seat)
    small = "small" if size in ("small", "normal") else "normal"
    made = mistake.made
    lifted = [view.hand.index(made.card)] if isinstance(made, A.Discard | A.LayOff) \
        and made.card in view.hand else []
    pile_card: Card | None
    if view.phase is Phase.BUY and view.offered is not None:
        pile_label, pile_card = _("Offered to buy"), view.offered
    else:
        pile_label, pile_card = _("Top of the discard pile"), view.discard_top
    pile = card_html(pile_card, small) if pile_card is not None else escape(_("empty"))
    head = heading(mistake)
    melds = "".join(meld_html(m, small) for seat_melds in view.table for m in seat_melds)
    table = (f'<div class="tr-review-table"><div style="font-weight:bold">'
             f'{escape(_("Melds on the table"))}</div>{melds}</div>') if melds else ""
    verdict = msg(VERDICT, None, made=mistake.made_words, better=mistake.better_words,
                  points=round(mistake.cost), low=max(0, round(mistake.low)),
                  high=round(mistake.high), n=mistake.samples)
    return (f'<div class="tr-review-item" style="margin:6px 0;padding:4px 8px;'
            f'border-left:4px solid #b26a00">'
            f'<div style="font-weight:bold">{escape(head)}</div>'
            f'<div style="display:flex;flex-wrap:wrap;gap:12px;align-items:flex-end">'
            f'{hand_html(view.hand, small, lifted, label=_("Your hand then"))}'
            f'<div class="tr-review-pile"><div style="font-weight:bold">'
            f'{escape(pile_label)}</div>{pile}</div>{table}</div>'
            f'<div class="tr-review-verdict">{sentence_html(verdict)}</div>'
            f'<div class="tr-review-reason">{sentence_html(mistake.reason)}</div></div>')


def review_html(game: Game, round_number: int, mistakes: tuple[Mistake, ...] | None,
                failed: bool = False, size: str = "normal") -> str:
    """A round's review: "preparing…" (None), why nothing is shown, or each decision."""
    style = f'style="font-size:{TEXT_PX[size]}px"'
    if failed:
        text = _(FAILED).format(r=round_number)
        return f'<div class="tr-review-failed" {style}>{escape(text)}</div>'
    if mistakes is None:
        text = _(PREPARING).format(r=round_number)
        return (f'<div class="tr-review-preparing" role="status" aria-busy="true" {style}>'
                f"<i>{escape(text)}</i></div>")
    if not mistakes:
        text = _(NOTHING).format(r=round_number, points=round(LEAST_COST))
        return f'<div class="tr-review-nothing" role="status" {style}>{escape(text)}</div>'
    head = _(READY).format(r=round_number, n=len(mistakes))
    return (f'<div class="tr-review-ready" role="status" {style}><p>{escape(head)}</p>'
            + "".join(mistake_html(game, m, size) for m in mistakes) + "</div>")


class RoundReview(Part, widgets.VBox):  # type: ignore[misc]
    """A round's review in the recap (see the module); hidden until a round ends."""

    def __init__(self, size: str = "normal", **kwargs: Any) -> None:
        self._lock = threading.Lock()
        self._game: Game | None = None
        self._seat = 0
        self._round = 0
        self._opened = False
        self._closed = False
        #: reviews being prepared that the recap no longer shows: they stop
        self._stopped: set[tuple[int, int, int, int]] = set()
        self._wake: dict[tuple[int, int, int, int], threading.Event] = {}
        self._pending: tuple[ReviewSource, int] | None = None
        #: called when the learner opens the review (the recap then stays open)
        self.on_open: Callable[[], object] | None = None
        self._threads: dict[tuple[int, int, int, int], threading.Thread] = {}
        #: finished reviews, by (game seed, moves at the snapshot, seat, round); None: failed
        self.reviews: dict[tuple[int, int, int, int], tuple[Mistake, ...] | None] = {}
        super().__init__(**kwargs)
        self.size = size
        self.open_button = translated_button(
            N_("Review"), "tr-review-open",
            N_("Your costliest decisions of the round, as the strong bot sees them"),
            owner=self)
        self.open_button.on_click(lambda _b: self.toggle())
        #: "Try it again": the owner's `on_try(game, mistakes)` gets the decisions shown
        #: (`widgets.practice`); the button shows only where an owner takes them
        self.on_try: Callable[[Game, tuple[Mistake, ...]], object] | None = None
        self.try_button = translated_button(
            N_("Try it again"), "tr-practice-try",
            N_("Play these decisions again without seeing the answer, then see what "
               "your choice costs"), owner=self)
        self.try_button.on_click(lambda _b: self.try_again())
        self.try_button.layout.display = "none"
        self.rounds = self.texts(widgets.Dropdown(options=[], layout=widgets.Layout(
            width="auto", display="none")), description=N_("Round"))
        self.rounds.add_class("tr-review-round")
        self.rounds.observe(lambda change: self._pick(change["new"]), "value")
        self.body = widgets.HTML()
        self.body.add_class("tr-review-body")
        self.body.layout.display = "none"
        self.children = [widgets.HBox([self.open_button, self.rounds]), self.body,
                         self.try_button]
        self.add_class("tr-review")
        self.layout.display = "none"

    # -- the state -------------------------------------------------------------------------
    def _key(self, round_number: int) -> tuple[int, int, int, int]:
        game = self._game
        assert game is not None
        return (game.seed, game.moves_made, self._seat, round_number)

    @property
    def round_number(self) -> int:
        """The round the review shows (0: none)."""
        return self._round

    @property
    def ready(self) -> bool:
        """Is the review of the round shown ready?"""
        return self._game is not None and self._key(self._round) in self.reviews

    @property
    def mistakes(self) -> tuple[Mistake, ...] | None:
        """The decisions of the round shown (None: preparing, or it failed)."""
        if self._game is None:
            return None
        return self.reviews.get(self._key(self._round))

    @property
    def game(self) -> Game | None:
        """The snapshot the review is of."""
        return self._game

    def prepare(self, game: Game, seat: int, round_number: int) -> None:
        """A round of `game` has ended: review it for `seat` in the background (after
        the game's last round, any round can be picked)."""
        self._pending = None
        self._game = game.position_at(game.moves_made)  # a snapshot: the page plays on
        self._seat = seat
        self._opened = False
        last = round_number == ROUNDS and game.is_over
        self.rounds.unobserve_all("value")
        self.rounds.options = [(str(r), r) for r in range(1, round_number + 1)] if last else []
        self.rounds.value = round_number if last else None
        self.rounds.observe(lambda change: self._pick(change["new"]), "value")
        self.rounds.layout.display = displayed(last)
        self.layout.display = SHOWN
        self._start(round_number)

    def offer(self, source: ReviewSource, round_number: int) -> None:
        """A round has ended: show the Review button, and prepare the review only when
        the learner opens it (`source()` then gives the game and the seat). A shared
        table does so: at a round's end every learner's page would otherwise review at
        once, on the server that also plays the bots."""
        self._pending = (source, round_number)
        self._game = None
        self._opened = False
        self.rounds.layout.display = "none"
        self.layout.display = SHOWN
        self._redraw()

    def _start(self, round_number: int) -> None:
        self._round = round_number
        key = self._key(round_number)
        self._redraw()
        with self._lock:
            self._stop_others(key)  # one review is prepared at a time: the one shown
            if key in self.reviews or (key in self._threads and key not in self._stopped):
                return
            self._stopped.discard(key)
        game, seat = self._game, self._seat
        assert game is not None
        if IN_BROWSER:  # no threads in Pyodide: "preparing…" is on the page, then the work
            self._work(game, seat, round_number, key)
            return
        thread = threading.Thread(target=self._work, args=(game, seat, round_number, key,
                                                           START_DELAY),
                                  name=f"review-round-{round_number}", daemon=True)
        self._threads[key] = thread
        self._wake[key] = threading.Event()
        thread.start()

    def _stop_others(self, key: tuple[int, int, int, int] | None) -> None:
        """Stop every review still being prepared but `key`'s (under the lock)."""
        for k in self._threads:
            if k != key and k not in self.reviews:
                self._stopped.add(k)
                if k in self._wake:
                    self._wake[k].set()

    def _work(self, game: Game, seat: int, round_number: int,
              key: tuple[int, int, int, int], delay: float = 0.0) -> None:
        def cancel() -> bool:  # a newer game, or the page is gone: stop
            return self._closed or key in self._stopped \
                or (self._game is not None and self._game.seed != key[0])

        wake = self._wake.get(key)
        if delay and wake is not None:
            wake.wait(delay)  # woken at once if it stops meanwhile
        try:
            if cancel():  # stopped while it waited
                raise ReviewCancelled(f"the review of round {round_number} was stopped")
            found: tuple[Mistake, ...] | None = review_round(game, seat, round_number,
                                                             cancel=cancel)
        except ReviewCancelled:
            with self._lock:
                if self._threads.get(key) is threading.current_thread():
                    del self._threads[key]
            return
        except Exception:  # a review is a bonus: it never breaks the page
            log.exception("the review of round %s failed", round_number)
            found = None
        with self._lock:
            self.reviews[key] = found
        if self._game is not None and key == self._key(self._round):
            self._redraw()

    def _pick(self, round_number: object) -> None:
        if isinstance(round_number, int) and self._game is not None:
            self._start(round_number)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the review shown to be ready (True if it is)."""
        if self._game is None:
            return False
        thread = self._threads.get(self._key(self._round))
        if thread is not None:
            thread.join(timeout)
        return self.ready

    def toggle(self) -> None:
        """Open the review (the Review button), or close it."""
        pending, self._pending = self._pending, None
        if pending is not None:
            found = pending[0]()
            if found is not None:
                self.prepare(*found, pending[1])
        self._opened = not self._opened
        self._redraw()
        if self._opened and self._game is not None:
            wake = self._wake.get(self._key(self._round))
            if wake is not None:
                wake.set()  # the learner is waiting for it: no start delay
        if self._opened and self.on_open is not None:
            self.on_open()

    def close(self) -> None:
        """The page is gone: a review still being prepared stops."""
        self._closed = True
        for wake in list(self._wake.values()):
            wake.set()
        super().close()

    def hide(self) -> None:
        """The recap closes: the review goes with it. A finished review stays cached; one
        still being prepared stops (its thread would slow the bots' moves in this kernel),
        and starts again if asked for (the menu after the game)."""
        with self._lock:
            self._stop_others(None)
        self._opened = False
        self.layout.display = "none"
        self.body.layout.display = "none"

    def _redraw(self) -> None:
        if not hasattr(self, "body"):
            return
        game = self._game
        if game is None:
            self.body.value = ""
            self.try_button.layout.display = "none"
            return
        key = self._key(self._round)
        with self._lock:
            done = key in self.reviews
            found = self.reviews.get(key)
        if done and self._opened:  # for the class's dashboard, when the page has a class
            review_opened(key, sum(m.cost for m in found or ()))
        self.body.value = review_html(game, self._round, found if done else None,
                                      failed=done and found is None, size=self.size)
        self.body.layout.display = displayed(self._opened)
        self.try_button.layout.display = displayed(
            self._opened and bool(found) and self.on_try is not None)

    def try_again(self) -> None:
        """"Try it again": the decisions shown, to the owner's `on_try`."""
        found = self.mistakes
        if found and self._game is not None and self.on_try is not None:
            self.on_try(self._game, found)
