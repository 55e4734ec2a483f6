"""Which learners still have their page open: a heartbeat of each learner's page.

Owns `Presence`, the part of `tables.TableStore` that hears a learner's page. Every page
at a table polls the store (its hidden timer ticks in the browser, so a closed tab, a
lost kernel or a sleeping device stops it); as it polls, a learner's page says "I am
here" (`heartbeat`, with the seat's key) at most every `BEAT_EVERY` seconds. The store
keeps each seat's last-seen time (wall-clock seconds, so pages served by different
machines compare) as one row per seat, overwritten, in the backend's seat names under
the scope `<code>~seen`. `notice_gone` — which `play_bots`, called by every page as it
polls, runs at most every `LOOK_EVERY` seconds — marks away every learner whose page has
not been heard for the table's away limit (and at least `QUIET_AT_LEAST` seconds),
whoever's turn it is (the seat log's
`away S page`): every page then says "Cy is away", and a bot plays Cy's turns. When Cy's
page is heard again (a tab that only slept, a reload) Cy has the seat back at once; a
learner marked away for keeping the table waiting on their own turn stays away until
they come back, as before. A seat whose page never beat (a client of the store's API)
is never marked by this.

A page that closes says so as it goes (`page_closed`, which the page's kernel runs as it
shuts down: the tab's closing shuts its kernel down at once): its row then reads "closed"
with the time, so the other pages say at once that Cy's page is closed and when a bot will
play for Cy, instead of waiting for the quiet to count; the away limit still runs from that
time, and Cy's page heard again (a reload) clears it.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable

from .backend import Backend
from .tablestate import TableState as _Table

#: how often a learner's page writes that it is open, in seconds (below the shortest
#: away limit, `seats.LIMITS`)
BEAT_EVERY = 2.0
#: how often a client looks for learners whose page has gone quiet, in seconds
LOOK_EVERY = 2.0
#: the shortest quiet that counts as gone, whatever the away limit (a kernel busy for a
#: few seconds on a loaded machine has not closed its tab)
QUIET_AT_LEAST = 15.0
#: how a seat's row says its page closed (followed by the time)
CLOSED = "closed"


def seen_scope(code: str) -> str:
    return f"{code}~seen"


class Presence:
    """Heartbeats of learners' pages and the away marks they lead to (see the module's
    docstring). `wall_clock` gives the seconds written (tests give their own)."""

    backend: Backend
    _lock: threading.RLock
    wall_clock: Callable[[], float]
    _beats: dict[tuple[str, int], float]  # (code, seat) → when this client last beat
    _looked: dict[str, float]  # code → when this client last looked for quiet pages

    def _caught_up(self, code: str) -> _Table:
        raise NotImplementedError

    def _log(self, t: _Table, entry: str) -> None:
        raise NotImplementedError

    def _check_human_seat(self, t: _Table, seat: int) -> None:
        raise NotImplementedError

    def _authorise_learner(self, t: _Table, seat: int, secret: object) -> None:
        raise NotImplementedError

    def heartbeat(self, code: str, seat: int, *, secret: str | None) -> bool:
        """Seat `seat`'s page is open (it holds the seat's key): note when, at most every
        `BEAT_EVERY` seconds; a learner marked away because their page went quiet has the
        seat back. True if they came back now."""
        now = self.wall_clock()
        if now - self._beats.get((code, seat), -math.inf) < BEAT_EVERY:
            return False
        with self._lock:
            t = self._caught_up(code)
            self._check_human_seat(t, seat)
            self._authorise_learner(t, seat, secret)
            self.backend.name_seat(seen_scope(t.code), seat, f"{now:.1f}")
            self._beats[code, seat] = now
            if seat in t.log.gone:
                self._log(t, f"back {seat}")
                return True
            return False

    def page_closed(self, code: str, seat: int, *, secret: str | None) -> None:
        """Seat `seat`'s page is closing (its kernel shuts down): note when, so the other
        pages say so at once (`closed_pages`)."""
        now = self.wall_clock()
        with self._lock:
            t = self._caught_up(code)
            self._check_human_seat(t, seat)
            self._authorise_learner(t, seat, secret)
            self.backend.name_seat(seen_scope(t.code), seat, f"{CLOSED} {now:.1f}")
            self._beats.pop((code, seat), None)

    def last_seen(self, code: str) -> dict[int, float]:
        """When each learner's page was last heard (seat → wall-clock seconds; a page
        that closed, when it closed); a seat whose page never beat is not there."""
        return {seat: at for seat, (at, _closed) in self._seen(code).items()}

    def closed_pages(self, code: str) -> dict[int, float]:
        """The seats whose page said it closed and was not heard since: seat → when."""
        return {seat: at for seat, (at, closed) in self._seen(code).items() if closed}

    def _seen(self, code: str) -> dict[int, tuple[float, bool]]:
        seen: dict[int, tuple[float, bool]] = {}
        for seat, text in self.backend.seat_names(seen_scope(code)).items():
            closed = text.startswith(CLOSED + " ")
            try:
                seen[seat] = (float(text[len(CLOSED) + 1:] if closed else text), closed)
            except ValueError:
                continue  # not a row of this kit: ignored
        return seen

    def notice_gone(self, code: str, *, every: float = 0.0) -> frozenset[int]:
        """Mark away each learner whose page has not been heard for the table's away
        limit (not more often than `every` seconds per client); returns them."""
        now = self.wall_clock()
        if now - self._looked.get(code, -math.inf) < every:
            return frozenset()
        self._looked[code] = now
        with self._lock:
            t = self._caught_up(code)
            if t.finished:
                return frozenset()
            quiet = frozenset(
                seat for seat, at in self.last_seen(t.code).items()
                if now - at >= max(t.log.away_after, QUIET_AT_LEAST)
                and seat not in t.log.away
                and seat not in t.seat_bots and 0 <= seat < t.game.players)
            for seat in sorted(quiet):
                self._log(t, f"away {seat} page")
            return quiet
