"""Shared tables: a game's move log in a database, checked by the engine.

Owns `TableStore`, the one place that turns stored rows into games and games' moves into
rows, and the handles a page holds: `Seat` (a claimed seat: its own hand, its moves) and
`Watcher` (the table without any hand). The truth of a table is its header (the game
before any move, as an ordinary save, and its set-up), its moves 1, 2, … and its seat
log (`seats.SeatLog`: who is away, seats given to a bot or a new learner); each store
object keeps the replayed `Game` of every table it has seen, inside a `table.Table` that
says who answers for each seat, and catches up from the database, so polling costs two
indexed queries.

A move is checked by the engine against the current state and stored only if the table
has not moved on since (`Backend.append`, compare-and-append on the move number in one
transaction); the loser of a race gets `TableMovedOnError` and the new state. A move for
a learner's seat needs the key that claimed it (keys are made by the kit, never typed
up by a learner); a seat a bot plays (a bot's, or an away learner's) moves only by its
bot's own move — every client computes the same one (`table.bot_rng`), so any client may
store it and the store keeps exactly one — or by the opener's or teacher's key.

No table waits for ever: `play_bots` (which every page at the table calls as it polls)
also passes a buy offer left open past the table's buy limit, and marks a learner idle
on their own turn past the away limit as away, after which a bot plays for them until
they come back (they rejoin with their key, or move). The limits are the opener's or
the teacher's (`seats.AWAY_AFTER`, `seats.BUY_AFTER` by default); each client measures
them on its own clock from the moment it saw the table reach its current move. A stored
row the engine cannot accept is refused on read with `CorruptTableError` naming the
table and the move; nothing is deleted.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from .. import actions as A
from ..bots import make_bot
from ..errors import ToonervilleError
from ..events import Event, EventKind, Phase
from ..game import Game
from ..messages import Message, msg
from ..rules import Rules
from ..table import BUY_OFFERS, SAFETY_MOVES, Table
from ..views import PlayerView
from . import codes
from .backend import TABLE_FORMAT, Backend, TableRow
from .errors import (
    BadNameError,
    CorruptTableError,
    NoSuchTableError,
    SeatError,
    StoreError,
    TableMovedOnError,
    TableOverError,
    cause,
)
from .names import clean_name, same_name
from .seats import AWAY_AFTER, BUY_AFTER, LIMITS, SeatLog, add

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
class _Table:
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


class TableStore:
    """Shared tables in one database (see `open_store`). Thread-safe; each client page
    (each kernel) has its own store object. `clock` (seconds, monotonic) measures how
    long a learner keeps the table waiting; tests give their own."""

    def __init__(self, backend: Backend, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.backend = backend
        self.clock = clock
        self._tables: dict[str, _Table] = {}
        self._lock = threading.RLock()

    def __repr__(self) -> str:
        return f"TableStore({self.backend!r})"

    def close(self) -> None:
        self.backend.close()

    # -- opening and joining ---------------------------------------------------------
    def open_table(self, players: int = 4, *, names: Sequence[str] | None = None,
                   rules: Rules | None = None, seed: int | None = None,
                   bots: Mapping[int, str] | None = None, start: Game | None = None,
                   last_round: int | None = None, tournament: str | None = None,
                   code: str | None = None, host: str | None = None,
                   away_after: float | None = None, buy_after: float | None = None
                   ) -> str:
        """Open a table and return its code. `bots` maps seats to bot kinds; the other
        seats wait for learners to claim them. `start` is a game to begin from instead of
        `Game.new(players, seed, rules, names)` (it must have no moves yet); `last_round`
        ends the table after that round (a tournament table plays one round). `host` is
        the digest of the key that may hand seats over (`open_hosted` makes one);
        `away_after` and `buy_after` are the table's limits in seconds."""
        game = start if start is not None else Game.new(players=players, seed=seed,
                                                         rules=rules, names=names)
        if game.actions:
            raise StoreError(msg("a table starts before the first move; this game already "
                                 "has {k} moves", None, k=len(game.actions)))
        seats = {}
        for seat, kind in (bots or {}).items():
            if isinstance(seat, bool) or not isinstance(seat, int) \
                    or not 0 <= seat < game.players:
                raise SeatError(msg("there is no seat {seat}: seats go from 0 to {last}", None,
                                    seat=seat, last=game.players - 1))
            seats[seat] = make_bot(kind).name
        header: dict[str, Any] = {"bots": {str(s): k for s, k in sorted(seats.items())},
                                  "last_round": last_round, "tournament": tournament}
        if host is not None:
            header["host"] = host
        if away_after is not None or buy_after is not None:
            header["limits"] = list(_limits(away_after, buy_after, None))
        setup = json.dumps(header)
        row = partial(TableRow, format=TABLE_FORMAT, start=game.to_json(indent=None),
                      setup=setup)
        if code is not None:
            if not self.backend.create_table(row(code=code)):
                existing = self.backend.table(code)
                if existing is None or (existing.start, existing.setup) != (
                        row(code=code).start, setup):
                    raise StoreError(msg("the table code {code} is already in use", None,
                                         code=code))
            return code
        for _ in range(20):
            fresh = codes.new_code()
            if self.backend.create_table(row(code=fresh)):
                return fresh
        raise StoreError(msg("no free code could be found; try again", None))

    def open_hosted(self, players: int = 4, **options: Any) -> tuple[str, str]:
        """`open_table`, and the opener's key: keep it in the opener's page, it gives a
        seat to a bot or to a new learner (`give_seat`) and sets the limits."""
        key = codes.new_secret()
        return self.open_table(players, host=codes.digest(key), **options), key

    def info(self, code: str) -> TableInfo:
        with self._lock:
            t = self._caught_up(code)
            claims = self.backend.claims(t.code) if t.tournament is None else {}
            claimed = {int(s) for s in claims if s.isdigit()} | set(t.log.learners)
            return TableInfo(t.code, self._names(t), t.seat_bots, frozenset(claimed),
                             len(t.game.actions), t.finished, t.last_round, t.tournament,
                             t.log.away, (t.log.away_after, t.log.buy_after))

    def claim(self, code: str, seat: int | None = None, *, secret: str | None = None,
              name: str | None = None) -> Seat:
        """Claim a free seat (the first free one if `seat` is None) and get its handle;
        keep `handle.secret` (the seat's key, made here) in the page. With the key of a
        seat already claimed — after a reload, on another device — this is the same seat
        again, game as it was, and a learner who was away has their seat back at once.
        A key this table never issued is refused. `name` is the learner's own name (see
        `name_seat`)."""
        if name is not None:
            name = clean_name(name)  # a bad name is refused before any seat is taken
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise SeatError(msg("there is no seat {seat} at table {code}: a seat is a whole "
                                "number", None, seat=str(seat)[:20], code=str(code)[:20]))
        handle = self._claim(code, seat, secret)
        if name is not None:
            self.name_seat(handle.code, handle.seat, name, secret=handle.secret)
            handle.refresh()
        return handle

    def _claim(self, code: str, seat: int | None, secret: str | None) -> Seat:
        with self._lock:
            t = self._caught_up(code)
            if t.tournament is not None:
                raise SeatError(msg("table {code} belongs to tournament {t}: join the "
                                    "tournament with your name to play at it", None,
                                    code=t.code, t=t.tournament))
            claims = self.backend.claims(t.code)
            if secret is not None:
                held = self._held_by(t, secret, claims)
                if seat is not None and seat != held:
                    raise SeatError(msg("this page already holds seat {held} at table "
                                        "{code}; one page plays one seat", None,
                                        held=held, code=t.code))
                if held in t.log.away:
                    self._log(t, f"back {held}")
                return self._seat(t, held, secret)
            bots = t.seat_bots
            if seat is not None:
                self._check_claimable(t, seat, claims)
                candidates = [seat]
            else:
                candidates = [s for s in range(t.game.players) if s not in bots
                              and str(s) not in claims and s not in t.log.learners]
            for s in candidates:
                secret = codes.new_secret()
                if self.backend.claim(t.code, str(s), codes.digest(secret)):
                    return self._seat(t, s, secret)
            if seat is not None:  # claimed by someone else a moment ago
                self._check_claimable(t, seat, self.backend.claims(t.code))
            raise SeatError(msg("table {code} has no free seat: every seat is taken or "
                                "played by a bot; you can still watch", None, code=t.code))

    def _held_by(self, t: _Table, secret: object, claims: Mapping[str, str]) -> int:
        """The seat `secret` holds at `t` now, or why it holds none, in words."""
        if isinstance(secret, str):
            given = codes.digest(secret)
            for s in range(t.game.players):
                if t.log.key_of(s, claims.get(str(s))) == given:
                    return s
            if given in t.log.stale:
                self._check_stale(t, t.log.stale[given], secret)
        raise SeatError(msg("this is not a key of table {code}: keys are made when a seat "
                            "is taken, so check that it is copied whole, or join without "
                            "a key to take a free seat", None, code=t.code))

    def _check_human_seat(self, t: _Table, seat: int) -> None:
        """A seat of the table that a learner may hold: one that exists, not a bot's."""
        if isinstance(seat, bool) or not isinstance(seat, int) \
                or not 0 <= seat < t.game.players:
            raise SeatError(msg("there is no seat {seat} at table {code}: seats go from 0 "
                                "to {last}", None, seat=seat, code=t.code,
                                last=t.game.players - 1))
        if seat in t.seat_bots:
            raise SeatError(msg("seat {seat} at table {code} is played by a bot", None,
                                seat=seat, code=t.code))

    def _check_claimable(self, t: _Table, seat: int, claims: Mapping[str, str]) -> None:
        self._check_human_seat(t, seat)
        if str(seat) in claims or seat in t.log.learners:
            raise SeatError(msg("seat {seat} ({name}) at table {code} is taken: only the "
                                "page that claimed it may play it", None, seat=seat,
                                name=self._names(t)[seat], code=t.code))

    def _seat(self, t: _Table, seat: int, secret: str) -> Seat:
        handle = Seat(self, t.code, seat, secret)
        handle.refresh()
        return handle

    def name_seat(self, code: str, seat: int, name: str, *, secret: str | None) -> str:
        """Give a claimed seat the name its learner chose (instead of "Player 1"), with
        that seat's key; every page at the table then shows it. Two seats of a table
        never share a name (`names.same_name`: "ann" is "Ann"). Returns the name as
        stored (`names.clean_name`)."""
        name = clean_name(name)
        with self._lock:
            t = self._caught_up(code)
            if t.tournament is not None:
                raise SeatError(msg("the names at a tournament's tables are the names the "
                                    "teacher entered", None))
            self._check_human_seat(t, seat)
            self._authorise_learner(t, seat, secret)
            taken = [n for s, n in enumerate(self._names(t)) if s != seat]
            if any(same_name(name, other) for other in taken):
                raise BadNameError(msg("another seat at this table is already called "
                                       "{name}: choose another name, or add an initial",
                                       None, name=name))
            self.backend.name_seat(t.code, seat, name)
            return name

    def names(self, code: str) -> tuple[str, ...]:
        """The seats' names as every page shows them: the learners' own names where
        they gave one, else the names the table was opened with."""
        with self._lock:
            return self._names(self._caught_up(code))

    def _names(self, t: _Table) -> tuple[str, ...]:
        if t.tournament is not None:
            return t.game.names
        chosen = self.backend.seat_names(t.code)
        return tuple(chosen.get(s, n) for s, n in enumerate(t.game.names))

    def watch(self, code: str) -> Watcher:
        """A handle that follows the table without seeing any hand."""
        with self._lock:
            t = self._caught_up(code)
            handle = Watcher(self, t.code)
            handle.refresh()
            return handle

    # -- handing seats over, away and back --------------------------------------------
    def give_seat(self, code: str, seat: int, bot: str | None, *, key: str) -> str | None:
        """The opener (or the tournament's teacher, `key`) gives `seat` to a bot of kind
        `bot`, or to a new learner (`bot` None): then the new learner's key is returned,
        to hand over as a link; the seat's old key no longer holds it."""
        with self._lock:
            t = self._caught_up(code)
            self._check_host(t, key)
            if isinstance(seat, bool) or not isinstance(seat, int) \
                    or not 0 <= seat < t.game.players:
                raise SeatError(msg("there is no seat {seat}: seats go from 0 to {last}",
                                    None, seat=seat, last=t.game.players - 1))
            if bot is not None:
                self._log(t, f"bot {seat} {make_bot(bot).name}")
                return None
            new = codes.new_secret()
            self._log(t, f"learner {seat} {codes.digest(new)}")
            return new

    def set_limits(self, code: str, *, key: str, away_after: float | None = None,
                   buy_after: float | None = None) -> tuple[float, float]:
        """The opener or teacher sets how long a learner may keep the table waiting: on
        their own turn (`away_after` seconds) and with a buy offer (`buy_after`)."""
        with self._lock:
            t = self._caught_up(code)
            self._check_host(t, key)
            limits = _limits(away_after, buy_after, (t.log.away_after, t.log.buy_after))
            self._log(t, f"limits {limits[0]:g} {limits[1]:g}")
            return limits

    def set_buy_offers(self, code: str, seat: int, setting: str, *, secret: str | None
                       ) -> None:
        """A learner's buy-offer setting (`table.BUY_OFFERS`), which answers buy windows
        for them: "helpful" passes on a card that would not help, "never" on any."""
        if setting not in BUY_OFFERS:
            raise SeatError(msg("the buy-offer setting is one of {known}, not {given}",
                                None, known=", ".join(BUY_OFFERS), given=str(setting)[:20]))
        with self._lock:
            t = self._caught_up(code)
            self._check_human_seat(t, seat)
            self._authorise_learner(t, seat, secret)
            if t.log.offers.get(seat, "helpful") != setting:
                self._log(t, f"offers {seat} {setting}")

    def come_back(self, code: str, seat: int, *, secret: str | None) -> bool:
        """A learner who was away takes their seat back (their key); False if they
        were not away."""
        with self._lock:
            t = self._caught_up(code)
            self._check_human_seat(t, seat)
            self._authorise_learner(t, seat, secret)
            if seat not in t.log.away:
                return False
            self._log(t, f"back {seat}")
            return True

    def _check_host(self, t: _Table, key: object) -> None:
        if t.host is None or not codes.matches(key, t.host):
            raise SeatError(msg("only the page that opened table {code} (or the "
                                "tournament's teacher) may hand its seats over", None,
                                code=t.code))

    def _log(self, t: _Table, entry: str) -> None:
        """Add an entry to the table's seat log (again after a race) and read it."""
        for _ in range(50):
            if add(self.backend, t.code, t.log, entry):
                break
            self._read_log(t)
        self._read_log(t)

    # -- the log ---------------------------------------------------------------------
    def moves_since(self, code: str, number: int = 0) -> tuple[tuple[int, str], ...]:
        """The checked moves numbered above `number`, as (number, notation): what a page
        polls for."""
        with self._lock:
            t = self._caught_up(code)
            return tuple((k, a.notation()) for k, a in
                         enumerate(t.game.actions[number:], start=number + 1))

    def append(self, code: str, move: A.Action | str, *, expected: int,
               secret: str | None = None) -> int:
        """Store `move` as the next move if the table still has exactly `expected` moves
        and the engine accepts it; returns the table's new number of moves. A learner's
        move needs their key; a seat a bot plays takes only its bot's move (or one sent
        with the opener's or teacher's key)."""
        with self._lock:
            t = self._caught_up(code)
            game = t.game
            action = A.parse_action(move, game.rules) if isinstance(move, str) else move
            if expected != len(game.actions):
                raise self._moved_on(t, expected)
            if t.finished:
                raise TableOverError(msg("the game at table {code} is over: no more moves",
                                         None, code=t.code))
            seat = action.seat
            if not isinstance(seat, bool) and isinstance(seat, int) \
                    and 0 <= seat < game.players:
                self._authorise(t, action, secret)
            return self._store(t, action, expected)

    def _store(self, t: _Table, action: A.Action, expected: int) -> int:
        """Check `action` with the engine and store it as move `expected + 1`."""
        game = t.game
        if expected != len(game.actions):
            raise self._moved_on(t, expected)
        refusal = game.refusal(action)
        if refusal is not None:
            raise refusal
        number = len(game.actions) + 1
        if not self.backend.append(t.code, number, action.notation()):
            self._catch_up(t)
            raise self._moved_on(t, expected)
        game.apply(action)
        self._restart_clock(t, before=number - 1)
        return number

    def _restart_clock(self, t: _Table, before: int) -> None:
        """The table moved on from `before` moves: the wait of whoever must act now
        starts, unless the moves were answers in a buy window still open (its
        remaining learners have been waiting since it opened)."""
        game = t.game
        if game.phase is Phase.BUY and before >= 0 and all(
                isinstance(a, A.Pass) for a in game.actions[before:]):
            t.seen = (len(game.actions), t.seen[1])
        else:
            t.seen = (len(game.actions), self.clock())

    def _moved_on(self, t: _Table, expected: int) -> TableMovedOnError:
        now = len(t.game.actions)
        return TableMovedOnError(msg("the table moved on: someone played first (your page "
                                     "showed move {seen}, the table is at move {now}); "
                                     "here is the new state", None, seen=expected, now=now),
                                 now)

    def _authorise(self, t: _Table, action: A.Action, secret: str | None) -> None:
        """May this move be stored for its seat? (See `append`.)"""
        seat = action.seat
        if t.host is not None and codes.matches(secret, t.host):
            return
        if seat in t.seat_bots or seat in t.log.away:
            if seat not in t.seat_bots and self._key_matches(t, seat, secret):
                self._log(t, f"back {seat}")  # an away learner moves: they are back
                return
            if action == t.table.next_move():
                return  # the bot's own move: any page at the table may store it
            self._check_stale(t, seat, secret)
            raise SeatError(msg("seat {seat} ({name}) is played by a bot now: only its bot "
                                "moves for it, or the table's opener or teacher", None,
                                seat=seat, name=self._names(t)[seat]))
        self._authorise_learner(t, seat, secret)

    def _key_matches(self, t: _Table, seat: int, secret: object) -> bool:
        scope, slot = t.claim_key(seat)
        stored = t.claims.get(slot)
        if stored is None:
            t.claims.update(self.backend.claims(scope))
            stored = t.claims.get(slot)
        return codes.matches(secret, t.log.key_of(seat, stored))

    def _authorise_learner(self, t: _Table, seat: int, secret: object) -> None:
        if self._key_matches(t, seat, secret):
            return
        name = self._names(t)[seat]
        if t.log.key_of(seat, t.claims.get(t.claim_key(seat)[1])) is None:
            raise SeatError(msg("seat {seat} ({name}) at table {code} has not been claimed "
                                "yet: nobody may move for it", None, seat=seat, name=name,
                                code=t.code))
        self._check_stale(t, seat, secret)
        raise SeatError(msg("seat {seat} belongs to {name}: only the page that claimed "
                            "it may move for it", None, seat=seat, name=name))

    @staticmethod
    def _check_stale(t: _Table, seat: int, secret: object) -> None:
        if isinstance(secret, str) and t.log.stale.get(codes.digest(secret)) == seat:
            raise SeatError(msg("this key was for seat {seat} at table {code}, which has "
                                "since been given to someone else (a bot or another "
                                "learner): ask the table's opener for a seat", None,
                                seat=seat, code=t.code))

    # -- bots, and learners who keep the table waiting ---------------------------------
    def bot_move(self, code: str) -> A.Action | None:
        """The move the table makes next without a learner (a bot's, a pass a learner's
        setting or the buy limit makes, a stand-in's for a learner who is away), or None
        if a learner must act within the limits."""
        with self._lock:
            return self._next_move(self._caught_up(code))

    def _next_move(self, t: _Table) -> A.Action | None:
        if t.finished:
            return None
        table, game = t.table, t.game
        action = table.next_move()
        if action is not None:
            return action
        waiting = table.learner_to_act()
        if not waiting:
            return None
        waited = self.clock() - t.seen[1]
        if game.phase is Phase.BUY:
            return A.Pass(waiting[0]) if waited >= t.log.buy_after else None
        if waited < t.log.away_after:
            return None
        self._log(t, f"away {waiting[0]}")  # gone: a bot plays for them until they return
        return t.table.next_move()

    def play_bots(self, code: str, limit: int | None = None) -> int:
        """Make the moves no learner makes (`bot_move`) while there are any (at most
        `limit`, and never more than `table.SAFETY_MOVES` in one call); returns how many
        this client stored. Several clients may do this at once: each move is stored once."""
        made = 0
        most = SAFETY_MOVES if limit is None else min(limit, SAFETY_MOVES)
        while made < most:
            with self._lock:
                t = self._caught_up(code)
                action = self._next_move(t)
                if action is None:
                    return made
                try:
                    self._store(t, action, len(t.game.actions))
                except TableMovedOnError:
                    continue
                made += 1
        return made

    def away(self, code: str) -> frozenset[int]:
        """The learners' seats a bot plays for now, until they come back."""
        with self._lock:
            return self._caught_up(code).log.away

    def public_history(self, code: str) -> tuple[Event, ...]:
        """The table's history as anyone at it may read it: every sentence, but no card
        drawn from the stock (draws and penalty cards keep their cards to themselves)."""
        with self._lock:
            t = self._caught_up(code)
            return public_events(t.game.history, self._names(t))

    # -- whole tables ----------------------------------------------------------------
    def export(self, code: str) -> str:
        """The table as an ordinary save (`Game.from_json` loads it). It holds the seed,
        so it reveals every hand: for finished games and teachers."""
        with self._lock:
            t = self._caught_up(code)
            save = json.loads(t.game.to_json())
            save["names"] = list(self._names(t))  # with the names the learners chose
            return json.dumps(save, indent=2)

    def finished(self, code: str) -> bool:
        with self._lock:
            return self._caught_up(code).finished

    def round_points(self, code: str, round_number: int) -> tuple[int, ...] | None:
        """Each seat's points for `round_number` at this table, once that round is over."""
        with self._lock:
            for record in self._caught_up(code).game.records:
                if record.round_number == round_number:
                    return record.points
            return None

    def _view(self, code: str, seat: int | None
              ) -> tuple[int, PlayerView, bool, frozenset[int], dict[int, str]]:
        """(moves so far, what `seat` may see — no hand for None —, finished, the seats
        away, the seats bots play) at once."""
        with self._lock:
            t = self._caught_up(code)
            game = t.game
            if seat is None:
                view = game.view(game.current)._replace(seat=WATCHER, hand=(),
                               taken_this_turn=None, may_lay_off=False)
            else:
                view = game.view(seat)
            return (len(game.actions), view._replace(names=self._names(t)), t.finished,
                    t.log.away, t.seat_bots)

    def _legal(self, code: str, seat: int, number: int) -> list[A.Action]:
        with self._lock:
            game = self._caught_up(code).game
            return game.legal_actions(seat) if len(game.actions) == number else []

    # -- replaying -------------------------------------------------------------------
    def _caught_up(self, code: str) -> _Table:
        code = codes.normalise_code(code)
        t = self._tables.get(code)
        if t is None:
            t = self._tables[code] = self._load(code)
        self._catch_up(t)
        self._read_log(t)
        return t

    def _read_log(self, t: _Table) -> None:
        """Read the table's seat log; when it changed, seat the table's driver anew."""
        log = SeatLog.read(self.backend, t.code, t.game.players,
                           partial(self._first_claims, t),
                           t.limits or (AWAY_AFTER, BUY_AFTER))
        if t.driver is not None and log == t.log:
            return
        t.log = log
        t.driver = Table(t.game, t.seat_bots, away=log.away, buy_offers=log.offers)
        t.seen = (len(t.game.actions), self.clock())  # the seats changed: a new wait

    def _first_claims(self, t: _Table) -> dict[str, str]:
        """Each seat's first claim, seat number as text → digest."""
        if t.tournament is None:
            return self.backend.claims(t.code)
        claims = self.backend.claims(t.tournament)
        return {str(s): claims[n] for s, n in enumerate(t.game.names) if n in claims}

    def _load(self, code: str) -> _Table:
        row = self.backend.table(code)
        if row is None:
            raise NoSuchTableError(msg("there is no table {code} here: check the code", None,
                                       code=code))
        if row.format != TABLE_FORMAT:
            raise CorruptTableError(msg(
                "table {code} cannot be read ({why}); it is left as it is", None, code=code,
                why=msg("it was written in another format, {found}, not {wanted}", None,
                        found=repr(str(row.format)[:40]), wanted=repr(TABLE_FORMAT))),
                code, None, None)
        try:
            game = Game.from_json(row.start)
            setup: dict[str, Any] = json.loads(row.setup)
            bots = {int(s): make_bot(k).name for s, k in setup["bots"].items()}
            last_round, tournament = setup["last_round"], setup["tournament"]
            host = setup.get("host")
            limits = setup.get("limits")
            if game.actions or not all(0 <= s < game.players for s in bots):
                raise ValueError("moves or seats out of place")
            if host is not None and not isinstance(host, str):
                raise ValueError("the opener's key is not a digest")
            if limits is not None:
                if not isinstance(limits, list) or len(limits) != 2:
                    raise ValueError("the limits are not two numbers")
                limits = _limits(limits[0], limits[1], None)
        except (ToonervilleError, ValueError, TypeError, KeyError, AttributeError) as err:
            raise CorruptTableError(msg(
                "table {code} cannot be read ({why}); it is left as it is", None, code=code,
                why=msg("its header is damaged: {why}", None,
                        why=cause(err))), code, None, None) from None
        return _Table(code, game, bots, last_round, tournament, host, limits)

    def _catch_up(self, t: _Table) -> None:
        game = t.game
        before = len(game.actions)
        for number, move in self.backend.moves_since(t.code, len(game.actions)):
            k = len(game.actions) + 1
            why: Message | None = None
            if number != k:
                why = msg("move {k} is missing (the next stored move is number {number})",
                          None, k=k, number=number)
                number = k
            elif not isinstance(move, str):
                why = msg("{move} is not a line of move notation", None,
                          move=repr(move)[:80])
            elif t.finished:
                why = msg("it was stored after the game at this table was over")
            else:
                try:
                    game.apply(move)
                except ToonervilleError as err:
                    why = msg("'{move}' is refused when replayed: {why}", None,
                              move=move[:80], why=err.message)
            if why is not None:
                raise CorruptTableError(msg(
                    "table {code}, move {k}: {why}. The moves before it are kept; nothing "
                    "was changed", None, code=t.code, k=number, why=why), t.code, number,
                    Game.from_json(game.to_json()))
        if t.seen[0] < 0:
            t.seen = (len(game.actions), self.clock())
        elif len(game.actions) != before:
            self._restart_clock(t, before)




class Watcher:
    """Follows a table without a seat: the table, the piles, the hand sizes, no hand.
    `view` is what it may see as of `number` moves; `refresh` fetches what came since."""

    seat: int | None = None  # a watcher sees no hand

    def __init__(self, store: TableStore, code: str) -> None:
        self.store = store
        self.code = code
        self.number = 0
        self.finished = False
        #: learners' seats a bot plays for now (until they come back), the bots' seats
        self.away: frozenset[int] = frozenset()
        self.bots: dict[int, str] = {}
        self._view: PlayerView | None = None

    def __repr__(self) -> str:
        return f"<Watcher at table {self.code}, move {self.number}>"

    def refresh(self) -> bool:
        """Fetch what the table did since; True if anything changed."""
        number, self._view, self.finished, self.away, self.bots = self.store._view(
            self.code, self.seat)
        changed, self.number = number != self.number, number
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

    def set_buy_offers(self, setting: str) -> None:
        """Which buy offers to see (`table.BUY_OFFERS`); the others pass by themselves."""
        self.store.set_buy_offers(self.code, self.seat, setting, secret=self.secret)

    def legal_actions(self) -> list[A.Action]:
        return self.store._legal(self.code, self.seat, self.number)

    def play(self, move: A.Action | str) -> int:
        """Send a move for the state this page shows. If someone moved first, the page is
        brought up to date and `TableMovedOnError` says so."""
        try:
            self.store.append(self.code, move, expected=self.number, secret=self.secret)
        finally:
            self.refresh()
        return self.number


def _limits(away_after: float | None, buy_after: float | None,
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
