"""What one process knows of a shared table, and what anyone may read of it.

Owns `TableState` (a table as a store object holds it: the replayed game inside its
`table.Table`, the header's set-up, the seat log, the claims seen so far, and when this
client saw the table reach its current move), `TableInfo` (what anyone with the code may
know of a table, no cards), `public_events` (a history without the cards drawn from the
stock), `end_events` (its game-over sentence naming who holds each seat at the end) and
`check_limits` (the opener's time limits). `tables.TableStore` fills and
reads these; nothing here touches the database.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..engine.events import Event, EventKind
from ..engine.game import Game
from ..engine.messages import _, msg
from ..players.table import STAND_IN, Table
from .errors import StoreError
from .seats import AWAY_AFTER, BUY_AFTER, LIMITS, SeatLog

#: a seat of a watcher's view: a watcher sits nowhere
WATCHER = -1
#: events whose cards only their own seat may see (a card from the stock)
_PRIVATE_CARDS = frozenset({EventKind.DRAW, EventKind.PENALTY})


def public_events(history: Sequence[Event], names: Sequence[str] | None = None
                  ) -> tuple[Event, ...]:
    """`history` as everyone at the table may read it: every sentence, but no card drawn
    from the stock (draws and penalty cards keep their cards to themselves); `names`,
    if given, are the names the sentences use."""
    return tuple(e._replace(cards=() if e.kind in _PRIVATE_CARDS else e.cards,
                            names=e.names if names is None else tuple(names))
                 for e in history)


@dataclass(frozen=True, slots=True)
class TableInfo:
    """What anyone with the code may know of a table (no cards)."""

    code: str
    names: tuple[str, ...]
    bots: Mapping[int, str]  # seat → bot kind
    claimed: frozenset[int]  # learners' seats already claimed
    moves: int
    finished: bool
    last_round: int | None
    tournament: str | None
    #: learners' seats a bot plays for now, until they come back
    away: frozenset[int] = frozenset()
    #: seconds a learner may be idle on their turn, and a buy offer stays open
    limits: tuple[float, float] = (0.0, 0.0)

    @property
    def free(self) -> tuple[int, ...]:
        """The seats a learner may still claim."""
        if self.tournament is not None:
            return ()
        return tuple(s for s in range(len(self.names))
                     if s not in self.bots and s not in self.claimed)


@dataclass
class TableState:
    """One table as this process knows it: the replayed game, its set-up, its seats."""

    code: str
    game: Game
    bots: dict[int, str]  # the header's bot seats
    last_round: int | None
    tournament: str | None
    host: str | None = None  # digest of the opener's or teacher's key
    limits: tuple[float, float] | None = None  # the header's limits
    claims: dict[str, str] = field(default_factory=dict)  # slot → digest, as seen so far
    log: SeatLog = field(default_factory=SeatLog)
    driver: Table | None = None
    #: (moves, when this client first saw the table at that many moves or seats)
    seen: tuple[int, float] = (-1, 0.0)
    #: the bot kind that plays for a learner who is away (the header's, or the driver's)
    stand_in: str = STAND_IN
    #: the digest of `game`'s history (`backend.chained`): a move is stored only onto it
    history: str = ""

    def claim_key(self, seat: int) -> tuple[str, str]:
        """Where the claim of a seat is kept: a tournament's learners claim their name in
        the tournament, everyone else the seat at the table."""
        if self.tournament is not None:
            return self.tournament, self.game.names[seat]
        return self.code, str(seat)

    @property
    def finished(self) -> bool:
        g = self.game
        return g.is_over or (self.last_round is not None and any(
            r.round_number >= self.last_round for r in g.records))

    @property
    def seat_bots(self) -> dict[int, str]:
        """The seats bots play, the header's and the log's."""
        log = self.log
        return {**{s: k for s, k in self.bots.items() if s not in log.learners}, **log.bots}

    @property
    def table(self) -> Table:
        assert self.driver is not None
        return self.driver


def check_limits(away_after: float | None, buy_after: float | None,
            now: tuple[float, float] | None) -> tuple[float, float]:
    """The limits as given (the ones `now` for those not given), each checked."""
    low, high = LIMITS
    given = (away_after, buy_after)
    out = []
    for k, value in enumerate(given):
        if value is None:
            value = now[k] if now is not None else (AWAY_AFTER, BUY_AFTER)[k]
        if isinstance(value, bool) or not isinstance(value, int | float) \
                or not low <= value <= high:
            raise StoreError(msg("a time limit is a number of seconds from {low:g} to "
                                 "{high:g}, not {value}", None, low=low, high=high,
                                 value=str(value)[:20]))
        out.append(float(value))
    return out[0], out[1]


def end_events(events: tuple[Event, ...], t: TableState, names: Sequence[str]
               ) -> tuple[Event, ...]:
    """`events` (a table's public history under `names`) with the game-over sentence
    naming who holds each seat at the end: a learner by their name; a learner away at
    the end, with the bot playing for them ("Cy (a bot played for Cy at the end)"); a
    seat given to a bot for good, as the bot in that seat."""
    if not events or events[-1].kind is not EventKind.GAME_OVER:
        return events
    log = t.log
    holders = tuple(
        _("{name} (a bot played for {name} at the end)").format(name=n) if s in log.away
        else _("a bot, in {name}'s seat").format(name=n) if s in log.bots
        else n for s, n in enumerate(names))
    return (*events[:-1], events[-1]._replace(names=holders))
