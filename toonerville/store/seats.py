"""Who sits in each seat of a shared table after it opened: the seat log and the settings.

Owns `SeatLog`, what the store knows of a table's seats beyond its header: which
learners are away (a bot plays for them until they come back), seats the opener or the
teacher gave to a bot or to a new learner (whose new key makes the old one stale), the
learners' buy-offer settings and the table's time limits.

What happened to a seat is an entry of the log, numbered 1, 2, … and kept in the
backend's claims; an entry is added only under the next free number (the same
compare-and-append as the moves, through `Backend.claim`), so two clients marking the
same learner away at once add one entry, and every client reads the same seats. The
log only ever grows, and has no limit; the latest entry about a seat wins:

    away S            S has gone: a stand-in bot plays for S
    away S page       S's page went quiet (`presence`): the same, until it is heard
    back S            S came back: S plays again
    bot S KIND        the seat is a bot's from now on
    learner S DIGEST  the seat is a new learner's, whose key has this digest

The log is kept in chunks of `CHUNK` entries: entry n is in the scope
`<code>~seats` for n ≤ CHUNK (`<code>~seats~k` for the k-th chunk after that). A client
reads the whole log once, then only the chunk the next entry goes to, so a poll reads at
most `CHUNK` entries however long the log is (`SeatLog.read` with `since`).

A setting is a value, not an entry per change: a learner's buy-offer setting
(`table.BUY_OFFERS`) is one row per seat, replaced when it changes, and the table's
limits (seconds a learner may be idle on their turn, and a buy offer stays open) one
row, in the backend's seat names under the scope `<code>~settings` (`SETTINGS_ROW` for
the limits). A learner who clicks their setting a thousand times changes one row.
Tables stored before kept their settings as log entries (`offers S SETTING`, `limits
AWAY BUY`): those are still read, under the values.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from ..players.bots import make_bot
from ..players.table import BUY_OFFERS
from .backend import Backend

#: seconds a learner may be idle on their own turn before a bot plays for them
AWAY_AFTER = 60.0
#: seconds a buy offer stays open for a learner before it passes by itself
BUY_AFTER = 20.0
#: the shortest and the longest limit an opener may set, in seconds
LIMITS = (5.0, 3600.0)
#: entries per chunk of a table's log: the most a poll reads
CHUNK = 100
#: the settings row of the table's limits (the other rows are seats, 0 and up)
SETTINGS_ROW = -1


def scope(code: str, chunk: int = 0) -> str:
    """Where chunk `chunk` of table `code`'s log is kept (the first: `<code>~seats`)."""
    return f"{code}~seats" if chunk == 0 else f"{code}~seats~{chunk}"


def settings_scope(code: str) -> str:
    return f"{code}~settings"


@dataclass(frozen=True)
class SeatLog:
    """A table's seats as its log and settings say (see the module's docstring)."""

    entries: int = 0  # the number of the log's last entry read
    bots: dict[int, str] = field(default_factory=dict)  # seats given to a bot: kind
    learners: dict[int, str] = field(default_factory=dict)  # seats given to a new learner
    stale: dict[str, int] = field(default_factory=dict)  # digests of replaced keys: seat
    away: frozenset[int] = frozenset()
    offers: dict[int, str] = field(default_factory=dict)
    away_after: float = AWAY_AFTER
    buy_after: float = BUY_AFTER
    gone: frozenset[int] = frozenset()  # away because their page went quiet
    #: the settings entries of a log written before settings were values, and the
    #: header's limits: what `offers` and the limits are where no value says otherwise
    logged_offers: dict[int, str] = field(default_factory=dict, compare=False, repr=False)
    logged_limits: tuple[float, float] = field(default=(AWAY_AFTER, BUY_AFTER),
                                               compare=False, repr=False)

    @classmethod
    def read(cls, backend: Backend, code: str, players: int,
             claims: Callable[[], dict[str, str]],
             limits: tuple[float, float] = (AWAY_AFTER, BUY_AFTER),
             since: SeatLog | None = None) -> SeatLog:
        """The log and settings of table `code` (`claims()`: the seats' first claims,
        seat number as text → digest, asked only if a seat changed hands; `limits`: the
        header's). `since`, the log as this client last read it, is carried on with the
        entries added since (it is returned itself when nothing changed)."""
        base = since if since is not None else cls(logged_limits=limits)
        reader: _Reader | None = None  # made only when there are entries to read
        number = base.entries
        while True:
            chunk = number // CHUNK  # the chunk entry `number + 1` goes to
            rows = backend.claims(scope(code, chunk))
            fresh = sorted((int(slot), entry) for slot, entry in rows.items()
                           if slot.isdigit() and int(slot) > number)
            if fresh:
                reader = reader or _Reader(base, players, claims)
                for slot, entry in fresh:
                    reader.take(entry)
                    number = slot
            if not fresh or number // CHUNK == chunk:
                break
        values = backend.seat_names(settings_scope(code))
        if reader is not None:
            return reader.log(number, values)
        offers, (away_after, buy_after) = _settings(base.logged_offers, base.logged_limits,
                                                    values, players)
        if offers == base.offers and (away_after, buy_after) == (base.away_after,
                                                                  base.buy_after):
            return base
        return replace(base, offers=offers, away_after=away_after, buy_after=buy_after)

    def key_of(self, seat: int, claimed: str | None) -> str | None:
        """The digest of the key that holds `seat` now (`claimed`: its first claim)."""
        if seat in self.bots:
            return None
        return self.learners.get(seat, claimed)

    def says(self, entry: str) -> bool:
        """Would adding `entry` change nothing (a seat given to the bot already in it,
        an away learner marked away again in the same way, …)?"""
        reader = _Reader(self, sys.maxsize, dict)  # the store writes only its own seats
        return reader.take(entry) and reader.log(self.entries, None) == self


class _Reader:
    """A log being read: `take` each entry in order, then `log`."""

    def __init__(self, base: SeatLog, players: int, claims: Callable[[], dict[str, str]]
                 ) -> None:
        self.base = base
        self.players = players
        self.claims = claims
        self.first: dict[str, str] | None = None
        self.bots = dict(base.bots)
        self.learners = dict(base.learners)
        self.stale = dict(base.stale)
        self.away = set(base.away)
        self.gone = set(base.gone)
        self.offers = dict(base.logged_offers)
        self.limits = base.logged_limits

    def take(self, entry: str) -> bool:
        """Read one entry; False if it is not one of this kit's (ignored: the log only
        grows, another program may have written it)."""
        words = entry.split()
        if len(words) == 3 and words[0] == "limits":
            try:
                self.limits = (_limit(words[1]), _limit(words[2]))
            except ValueError:
                return False
            return True
        if len(words) < 2 or not words[1].isdigit() or not 0 <= int(words[1]) < self.players:
            return False
        kind, seat = words[0], int(words[1])
        value = words[2] if len(words) > 2 else ""
        if kind == "away":
            self.away.add(seat)
            (self.gone.add if value == "page" else self.gone.discard)(seat)
        elif kind == "back":
            self.away.discard(seat)
            self.gone.discard(seat)
        elif kind in ("bot", "learner") and value and (kind == "learner" or _is_bot(value)):
            self._hand_over(seat)
            self.away.discard(seat)
            self.gone.discard(seat)
            if kind == "bot":
                self.bots[seat] = value
            else:
                self.bots.pop(seat, None)
                self.learners[seat] = value
        elif kind == "offers" and value in BUY_OFFERS:
            self.offers[seat] = value
        else:
            return False
        return True

    def _hand_over(self, seat: int) -> None:
        """The key that held `seat` until now is stale."""
        old = self.learners.pop(seat, None)
        if old is None:
            if self.first is None:
                self.first = self.claims()
            old = self.first.get(str(seat))
        if old is not None:
            self.stale[old] = seat

    def log(self, entries: int, values: Mapping[int, str] | None) -> SeatLog:
        """The log as read, under the settings' `values` (None: the base's)."""
        base = self.base
        if values is None:
            offers, limits = dict(base.offers), (base.away_after, base.buy_after)
        else:
            offers, limits = _settings(self.offers, self.limits, values, self.players)
        return SeatLog(entries, self.bots, self.learners, self.stale, frozenset(self.away),
                       offers, *limits, gone=frozenset(self.gone),
                       logged_offers=self.offers, logged_limits=self.limits)


def _settings(offers: Mapping[int, str], limits: tuple[float, float],
              values: Mapping[int, str], players: int
              ) -> tuple[dict[int, str], tuple[float, float]]:
    """The buy-offer settings and the limits: the stored values (`values`, seat → text,
    `SETTINGS_ROW` for the limits) over `offers` and `limits` (a log's entries, the
    header's)."""
    out = dict(offers)
    for seat, text in values.items():
        if seat == SETTINGS_ROW:
            try:
                away, buy = text.split()
                limits = (_limit(away), _limit(buy))
            except ValueError:
                continue  # not a row of this kit: ignored
        elif text in BUY_OFFERS and 0 <= seat < players:
            out[seat] = text
    return out, limits


def _is_bot(kind: str) -> bool:
    try:
        make_bot(kind)
    except Exception:  # noqa: BLE001 - an unknown kind is not an entry of this kit
        return False
    return True


def _limit(text: str) -> float:
    value = float(text)
    if not LIMITS[0] <= value <= LIMITS[1]:
        raise ValueError(text)
    return value


def add(backend: Backend, code: str, log: SeatLog, entry: str) -> bool:
    """Record `entry` (read the log again after): a setting (`offers S SETTING`, `limits
    AWAY BUY`) replaces the seat's or the table's value; an entry that changes nothing
    is not written; any other is the log's next entry. False if another client added an
    entry first (read the log again and decide again)."""
    words = entry.split()
    if len(words) == 3 and words[0] == "offers" and words[1].isdigit():
        backend.name_seat(settings_scope(code), int(words[1]), words[2])
        return True
    if len(words) == 3 and words[0] == "limits":
        backend.name_seat(settings_scope(code), SETTINGS_ROW, f"{words[1]} {words[2]}")
        return True
    if log.says(entry):
        return True
    number = log.entries + 1
    return backend.claim(scope(code, log.entries // CHUNK), f"{number:06d}", entry)

