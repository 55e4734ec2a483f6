"""Who sits in each seat of a shared table after it opened: the seat log.

Owns `SeatLog`, what the store knows of a table's seats beyond its header: which
learners are away (a bot plays for them until they come back), seats the opener or the
teacher gave to a bot or to a new learner (whose new key makes the old one stale), the
learners' buy-offer settings and the table's time limits. The log is a list of short
entries numbered 1, 2, … kept in the backend's claims under the scope `<code>~seats`;
an entry is added only under the next free number (the same compare-and-append as the
moves, through `Backend.claim`), so two clients marking the same learner away at once
add one entry, and every client reads the same seats. The log only ever grows; the
latest entry about a seat wins:

    away S            S has gone: a stand-in bot plays for S
    away S page       S's page went quiet (`presence`): the same, until it is heard
    back S            S came back: S plays again
    bot S KIND        the seat is a bot's from now on
    learner S DIGEST  the seat is a new learner's, whose key has this digest
    offers S SETTING  S's buy-offer setting (`table.BUY_OFFERS`)
    limits AWAY BUY   seconds a learner may be idle on their turn, and a buy offer open
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..bots import make_bot
from ..table import BUY_OFFERS
from .backend import Backend

#: seconds a learner may be idle on their own turn before a bot plays for them
AWAY_AFTER = 60.0
#: seconds a buy offer stays open for a learner before it passes by itself
BUY_AFTER = 20.0
#: the shortest and the longest limit an opener may set, in seconds
LIMITS = (5.0, 3600.0)
#: the most entries a table's log may hold (a game has a few hundred turns)
MAX_ENTRIES = 5_000


def scope(code: str) -> str:
    return f"{code}~seats"


@dataclass(frozen=True)
class SeatLog:
    """A table's seats as its log says (see the module's docstring)."""

    entries: int = 0
    bots: dict[int, str] = field(default_factory=dict)  # seats given to a bot: kind
    learners: dict[int, str] = field(default_factory=dict)  # seats given to a new learner
    stale: dict[str, int] = field(default_factory=dict)  # digests of replaced keys: seat
    away: frozenset[int] = frozenset()
    offers: dict[int, str] = field(default_factory=dict)
    away_after: float = AWAY_AFTER
    buy_after: float = BUY_AFTER
    gone: frozenset[int] = frozenset()  # away because their page went quiet

    @classmethod
    def read(cls, backend: Backend, code: str, players: int,
             claims: Callable[[], dict[str, str]],
             limits: tuple[float, float] = (AWAY_AFTER, BUY_AFTER)) -> SeatLog:
        """The log of table `code` (`claims()`: the seats' first claims, seat number as
        text → digest, asked only if a seat changed hands; `limits`: the header's)."""
        rows = backend.claims(scope(code))
        if not rows:
            return cls(away_after=limits[0], buy_after=limits[1])
        first: dict[str, str] | None = None
        bots: dict[int, str] = {}
        learners: dict[int, str] = {}
        stale: dict[str, int] = {}
        away: set[int] = set()
        gone: set[int] = set()
        offers: dict[int, str] = {}
        entries = 0
        for slot in sorted(rows):
            entries += 1
            words = rows[slot].split()
            if len(words) == 3 and words[0] == "limits":
                try:
                    limits = (_limit(words[1]), _limit(words[2]))
                except ValueError:
                    continue
                continue
            if len(words) < 2 or not words[1].isdigit() or not 0 <= int(words[1]) < players:
                continue  # not an entry of this kit: ignored, as the log only grows
            kind, seat = words[0], int(words[1])
            value = words[2] if len(words) > 2 else ""
            if kind == "away":
                away.add(seat)
                (gone.add if value == "page" else gone.discard)(seat)
            elif kind == "back":
                away.discard(seat)
                gone.discard(seat)
            elif kind in ("bot", "learner") and value and (kind == "learner"
                                                            or _is_bot(value)):
                if first is None:
                    first = claims()
                away.discard(seat)
                gone.discard(seat)
                _retire(seat, learners, first, stale)
                if kind == "bot":
                    bots[seat] = value
                else:
                    bots.pop(seat, None)
                    learners[seat] = value
            elif kind == "offers" and value in BUY_OFFERS:
                offers[seat] = value
        return cls(entries, bots, learners, stale, frozenset(away), offers, *limits,
                   gone=frozenset(gone))

    def key_of(self, seat: int, claimed: str | None) -> str | None:
        """The digest of the key that holds `seat` now (`claimed`: its first claim)."""
        if seat in self.bots:
            return None
        return self.learners.get(seat, claimed)


def _retire(seat: int, learners: dict[int, str], claims: dict[str, str],
            stale: dict[str, int]) -> None:
    """The key that held `seat` until now is stale."""
    old = learners.pop(seat, None)
    if old is None:
        old = claims.get(str(seat))
    if old is not None:
        stale[old] = seat


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
    """Add `entry` as the log's next entry; False if another client added one first
    (read the log again and decide again)."""
    if log.entries >= MAX_ENTRIES:
        return False
    return backend.claim(scope(code), f"{log.entries + 1:06d}", entry)
