"""The handles a page holds on a shared table: `Watcher` (the table, no hand) and `Seat`
(a claimed seat: its own hand, its key, its moves). Each asks its `tables.TableStore`
and keeps the last answer; `refresh` fetches what came since.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine import actions as A
from ..engine.views import PlayerView

if TYPE_CHECKING:
    from .tables import TableStore


class Watcher:
    """Follows a table without a seat: the table, the piles, the hand sizes, no hand.
    `view` is what it may see as of `number` moves; `refresh` fetches what came since."""

    seat: int | None = None  # a watcher sees no hand

    def __init__(self, store: TableStore, code: str) -> None:
        self.store = store
        self.code = code
        self.number = 0
        #: the digest of the history `view` shows (None before the first `refresh`): a
        #: move is stored only onto it
        self.history: str | None = None
        self.finished = False
        #: learners' seats a bot plays for now (until they come back), the bots' seats
        self.away: frozenset[int] = frozenset()
        self.bots: dict[int, str] = {}
        self._view: PlayerView | None = None

    def __repr__(self) -> str:
        return f"<Watcher at table {self.code}, move {self.number}>"

    def refresh(self) -> bool:
        """Fetch what the table did since; True if anything changed."""
        number, history, self._view, self.finished, self.away, self.bots = \
            self.store.seat_snapshot(self.code, self.seat)
        changed = (number, history) != (self.number, self.history)
        self.number, self.history = number, history
        return changed

    @property
    def view(self) -> PlayerView:
        if self._view is None:
            self.refresh()
        assert self._view is not None
        return self._view


class Seat(Watcher):
    """A learner's seat at a shared table, as their page holds it: `secret` proves the
    seat is theirs (keep it in the page to rejoin), `play` sends a move for the state its
    `view` shows. It follows the table as a watcher does, and sees its own hand."""

    seat: int

    def __init__(self, store: TableStore, code: str, seat: int, secret: str) -> None:
        super().__init__(store, code)
        self.seat = seat
        self.secret = secret

    def __repr__(self) -> str:
        return f"<Seat {self.seat} at table {self.code}, move {self.number}>"

    @property
    def is_away(self) -> bool:
        """Does a bot play for this seat now (the learner was away)?"""
        return self.seat in self.away

    def come_back(self) -> bool:
        """Take the seat back from the bot that played for it while you were away."""
        try:
            return self.store.come_back(self.code, self.seat, secret=self.secret)
        finally:
            self.refresh()

    def heartbeat(self) -> bool:
        """This page is open (`TableStore.heartbeat`); True if that gave the seat back
        after the page had gone quiet."""
        if not self.store.heartbeat(self.code, self.seat, secret=self.secret):
            return False
        self.refresh()
        return True

    def page_closed(self) -> None:
        """This page is closing (`TableStore.page_closed`): the others are told at once."""
        self.store.page_closed(self.code, self.seat, secret=self.secret)

    def set_buy_offers(self, setting: str) -> None:
        """Which buy offers to see (`table.BUY_OFFERS`); the others pass by themselves."""
        self.store.set_buy_offers(self.code, self.seat, setting, secret=self.secret)

    def legal_actions(self) -> list[A.Action]:
        """The seat's moves in the state its `view` shows. If the table moved on since
        the last `refresh` (another page, or a bot, moved in between), the handle catches
        up first, so its `view` and these moves always describe the same state."""
        for _attempt in range(5):
            legal = self.store.legal_if_current(self.code, self.seat, self.number, self.history)
            if legal is not None:
                return legal
            self.refresh()
        return []  # the table moves faster than it is read: the next refresh shows it

    def play(self, move: A.Action | str) -> int:
        """Send a move for the state this page shows (its number of moves and their
        history). If someone moved first, or the table's moves were changed behind the
        page, the page is brought up to date and `TableMovedOnError` says so."""
        try:
            self.store.append(self.code, move, expected=self.number, secret=self.secret,
                              history=self.history)
        finally:
            self.refresh()
        return self.number
