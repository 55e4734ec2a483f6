"""Shared tables: a game's move log in a database, checked by the engine.

Owns `TableStore`, the one place that turns stored rows into games and games' moves into
rows, and the handles a page holds: `Seat` (a claimed seat: its own hand, its moves) and
`Watcher` (the table without any hand). The truth of a table is its header (the game
before any move, as an ordinary save) and its moves 1, 2, …; each store object keeps the
replayed `Game` of every table it has seen and catches up from the database, so polling
costs one indexed query.

A move is checked by the engine against the current state and stored only if the table
has not moved on since (`Backend.append`, compare-and-append on the move number in one
transaction); the loser of a race gets `TableMovedOnError` and the new state. A move for
a learner's seat needs the secret that claimed it; a bot's seat can be moved by any client
(the bot is seeded by the table and the move number, so every client computes the same
move and the store keeps exactly one). A stored row the engine cannot accept is refused
on read with `CorruptTableError` naming the table and the move; nothing is deleted.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from .. import actions as A
from ..bots import Bot, make_bot
from ..errors import ToonervilleError
from ..events import Event, EventKind
from ..game import Game
from ..messages import Message, msg
from ..rules import Rules
from ..views import PlayerView
from . import codes
from .backend import TABLE_FORMAT, Backend, TableRow
from .errors import (
    CorruptTableError,
    NoSuchTableError,
    SeatError,
    StoreError,
    TableMovedOnError,
    TableOverError,
    cause,
)
from .names import clean_name

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

    @property
    def free(self) -> tuple[int, ...]:
        """The seats a learner may still claim."""
        if self.tournament is not None:
            return ()
        return tuple(s for s in range(len(self.names))
                     if s not in self.bots and s not in self.claimed)


@dataclass
class _Table:
    """One table as this process knows it: the replayed game and its set-up."""

    code: str
    game: Game
    bots: dict[int, str]
    last_round: int | None
    tournament: str | None
    claims: dict[str, str] = field(default_factory=dict)  # slot → digest, as seen so far
    players: dict[int, Bot] = field(default_factory=dict)  # the bots, made once

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


class TableStore:
    """Shared tables in one database (see `open_store`). Thread-safe; each client page
    (each kernel) has its own store object."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
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
                   code: str | None = None) -> str:
        """Open a table and return its code. `bots` maps seats to bot kinds; the other
        seats wait for learners to claim them. `start` is a game to begin from instead of
        `Game.new(players, seed, rules, names)` (it must have no moves yet); `last_round`
        ends the table after that round (a tournament table plays one round)."""
        game = start if start is not None else Game.new(players=players, seed=seed,
                                                         rules=rules, names=names)
        if game.actions:
            raise StoreError(msg("a table starts before the first move; this game already "
                                 "has {k} moves", None, k=len(game.actions)))
        seats = {}
        for seat, kind in (bots or {}).items():
            if not isinstance(seat, int) or not 0 <= seat < game.players:
                raise SeatError(msg("there is no seat {seat}: seats go from 0 to {last}", None,
                                    seat=seat, last=game.players - 1))
            seats[seat] = make_bot(kind).name
        setup = json.dumps({"bots": {str(s): k for s, k in sorted(seats.items())},
                            "last_round": last_round, "tournament": tournament})
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

    def info(self, code: str) -> TableInfo:
        with self._lock:
            t = self._caught_up(code)
            claims = self.backend.claims(t.code) if t.tournament is None else {}
            return TableInfo(t.code, self._names(t), dict(t.bots),
                             frozenset(int(s) for s in claims if s.isdigit()),
                             len(t.game.actions), t.finished, t.last_round, t.tournament)

    def claim(self, code: str, seat: int | None = None, *, secret: str | None = None,
              name: str | None = None) -> Seat:
        """Claim a free seat (the first free one if `seat` is None) and get its handle;
        keep `handle.secret` in the page. With the secret of a seat already claimed —
        after a reload, or a new kernel — this is the same seat again, game as it was.
        `name` is the name the learner gives themselves (see `name_seat`)."""
        if name is not None:
            name = clean_name(name)  # a bad name is refused before any seat is taken
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
                for slot, stored in claims.items():
                    if not codes.matches(secret, stored):
                        continue
                    if seat is None or str(seat) == slot:
                        return self._seat(t, int(slot), secret)
                    raise SeatError(msg("this page already holds seat {held} at table "
                                        "{code}; one page plays one seat", None,
                                        held=int(slot), code=t.code))
            if seat is not None:
                self._check_claimable(t, seat, claims)
                candidates = [seat]
            else:
                candidates = [s for s in range(t.game.players)
                              if s not in t.bots and str(s) not in claims]
            secret = secret if secret is not None else codes.new_secret()
            if not isinstance(secret, str) or len(secret) < 8:
                raise SeatError(msg("a seat's secret must be a text of 8 characters or "
                                    "more", None))
            for s in candidates:
                if self.backend.claim(t.code, str(s), codes.digest(secret)):
                    return self._seat(t, s, secret)
            if seat is not None:  # claimed by someone else a moment ago
                self._check_claimable(t, seat, self.backend.claims(t.code))
            raise SeatError(msg("table {code} has no free seat: every seat is taken or "
                                "played by a bot; you can still watch", None, code=t.code))

    @staticmethod
    def _check_human_seat(t: _Table, seat: int) -> None:
        """A seat of the table that a learner may hold: one that exists, not a bot's."""
        if not isinstance(seat, int) or not 0 <= seat < t.game.players:
            raise SeatError(msg("there is no seat {seat} at table {code}: seats go from 0 "
                                "to {last}", None, seat=seat, code=t.code,
                                last=t.game.players - 1))
        if seat in t.bots:
            raise SeatError(msg("seat {seat} at table {code} is played by a bot", None,
                                seat=seat, code=t.code))

    def _check_claimable(self, t: _Table, seat: int, claims: Mapping[str, str]) -> None:
        self._check_human_seat(t, seat)
        if str(seat) in claims:
            raise SeatError(msg("seat {seat} ({name}) at table {code} is taken: only the "
                                "page that claimed it may play it", None, seat=seat,
                                name=t.game.names[seat], code=t.code))

    def _seat(self, t: _Table, seat: int, secret: str) -> Seat:
        handle = Seat(self, t.code, seat, secret)
        handle.refresh()
        return handle

    def name_seat(self, code: str, seat: int, name: str, *, secret: str | None) -> str:
        """Give a claimed seat the name its learner chose (instead of "Player 1"), with
        that seat's secret; every page at the table then shows it. Returns the name as
        stored (`names.clean_name`)."""
        name = clean_name(name)
        with self._lock:
            t = self._caught_up(code)
            if t.tournament is not None:
                raise SeatError(msg("the names at a tournament's tables are the names the "
                                    "teacher entered", None))
            self._check_human_seat(t, seat)
            self._authorise(t, seat, secret)
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
        and the engine accepts it; returns the table's new number of moves."""
        with self._lock:
            t = self._caught_up(code)
            game = t.game
            action = A.parse_action(move, game.rules) if isinstance(move, str) else move
            if expected != len(game.actions):
                raise self._moved_on(t, expected)
            if t.finished:
                raise TableOverError(msg("the game at table {code} is over: no more moves",
                                         None, code=t.code))
            if isinstance(action.seat, int) and 0 <= action.seat < game.players:
                self._authorise(t, action.seat, secret)
            refusal = game.refusal(action)
            if refusal is not None:
                raise refusal
            number = len(game.actions) + 1
            if not self.backend.append(t.code, number, action.notation()):
                self._catch_up(t)
                raise self._moved_on(t, expected)
            game.apply(action)
            return number

    def _moved_on(self, t: _Table, expected: int) -> TableMovedOnError:
        now = len(t.game.actions)
        return TableMovedOnError(msg("the table moved on: someone played first (your page "
                                     "showed move {seen}, the table is at move {now}); "
                                     "here is the new state", None, seen=expected, now=now),
                                 now)

    def _authorise(self, t: _Table, seat: int, secret: str | None) -> None:
        if seat in t.bots:
            return
        scope, slot = t.claim_key(seat)
        stored = t.claims.get(slot)
        if stored is None:
            t.claims.update(self.backend.claims(scope))
            stored = t.claims.get(slot)
        name = t.game.names[seat]
        if stored is None:
            raise SeatError(msg("seat {seat} ({name}) at table {code} has not been claimed "
                                "yet: nobody may move for it", None, seat=seat, name=name,
                                code=t.code))
        if not codes.matches(secret, stored):
            raise SeatError(msg("seat {seat} belongs to {name}: only the page that claimed "
                                "it may move for it", None, seat=seat, name=name))

    # -- bots ------------------------------------------------------------------------
    def bot_move(self, code: str) -> A.Action | None:
        """The move a bot at this table would make now, or None if no bot decides."""
        with self._lock:
            return self._bot_move(self._caught_up(code))

    def _bot_move(self, t: _Table) -> A.Action | None:
        game = t.game
        if t.finished:
            return None
        for seat in game.deciders:
            kind = t.bots.get(seat)
            if kind is None:
                continue
            bot = t.players.get(seat)
            if bot is None:
                bot = t.players[seat] = make_bot(kind)
            rng = random.Random(f"{t.code}:{len(game.actions)}:{seat}")
            return bot.choose(game.view(seat), game.rules,
                              partial(game.legal_actions, seat), rng)
        return None

    def play_bots(self, code: str, limit: int | None = None) -> int:
        """Make the bots' moves while a bot decides (at most `limit`); returns how many
        this client stored. Several clients may do this at once: each move is stored once."""
        made = 0
        while limit is None or made < limit:
            with self._lock:
                t = self._caught_up(code)
                action = self._bot_move(t)
                if action is None:
                    return made
                try:
                    self.append(code, action, expected=len(t.game.actions))
                except TableMovedOnError:
                    continue
                made += 1
        return made

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

    def _view(self, code: str, seat: int | None) -> tuple[int, PlayerView, bool]:
        """(moves so far, what `seat` may see — no hand for None —, finished) at once."""
        with self._lock:
            t = self._caught_up(code)
            game = t.game
            if seat is None:
                view = game.view(game.current)._replace(seat=WATCHER, hand=(),
                               taken_this_turn=None, may_lay_off=False)
            else:
                view = game.view(seat)
            return len(game.actions), view._replace(names=self._names(t)), t.finished

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
        return t

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
            if game.actions or not all(0 <= s < game.players for s in bots):
                raise ValueError("moves or seats out of place")
        except (ToonervilleError, ValueError, TypeError, KeyError, AttributeError) as err:
            raise CorruptTableError(msg(
                "table {code} cannot be read ({why}); it is left as it is", None, code=code,
                why=msg("its header is damaged: {why}", None,
                        why=cause(err))), code, None, None) from None
        return _Table(code, game, bots, last_round, tournament)

    def _catch_up(self, t: _Table) -> None:
        game = t.game
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


class Watcher:
    """Follows a table without a seat: the table, the piles, the hand sizes, no hand.
    `view` is what it may see as of `number` moves; `refresh` fetches what came since."""

    seat: int | None = None  # a watcher sees no hand

    def __init__(self, store: TableStore, code: str) -> None:
        self.store = store
        self.code = code
        self.number = 0
        self.finished = False
        self._view: PlayerView | None = None

    def __repr__(self) -> str:
        return f"<Watcher at table {self.code}, move {self.number}>"

    def refresh(self) -> bool:
        """Fetch what the table did since; True if anything changed."""
        number, self._view, self.finished = self.store._view(self.code, self.seat)
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
