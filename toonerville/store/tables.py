"""Shared tables: a game's move log in a database, checked by the engine.

Owns `TableStore`, the one place that turns stored rows into games and games' moves into
rows. The truth of a table is its header (the game before any move, as an ordinary save,
and its set-up), its moves 1, 2, … and its seat log (`seats.SeatLog`: who is away, seats
given to a bot or a new learner); each store object keeps the replayed `Game` of every
table it has seen (`tablestate.TableState`), inside a `table.Table` that says who answers
for each seat, and catches up from the database, so polling costs two indexed queries.
Claims, keys and hand-overs are `seatkeys.SeatKeeper`'s part of the store; a page holds
a `handles.Seat` or `handles.Watcher` (both importable from here too).

A move is checked by the engine against the current state and stored only if the table
has not moved on since (`Backend.append`, compare-and-append on the history's digest in
one transaction, issue 27: not on its length, so a copy ahead of the database — moves
deleted, a backup restored — never stores a move onto another history); the loser of a
race gets `TableMovedOnError` and the new state. Catching up checks the digest of the
last move this store has against the database's, and reads a table whose history
changed again from its header. A move for
a learner's seat needs the key that claimed it (keys are made by the kit, never typed
up by a learner); a seat a bot plays (a bot's, or an away learner's) moves only by its
bot's own move — every client computes the same one (`table.bot_rng`), so any client may
store it and the store keeps exactly one — or by the opener's or teacher's key. The store
chooses no move itself: `play_bots` lets the table's `table.Table` make each one (its one
seed rule, safety limit and failing-bot rule) and keeps it, or takes it back if another
client stored a move first.

No table waits for ever: `play_bots` (which every page at the table calls as it polls)
also passes a buy offer left open past the table's buy limit, and marks a learner idle
on their own turn past the away limit as away, after which a bot plays for them until
they come back (they rejoin with their key, or move); a learner whose page has not been
heard for the away limit, whoever's turn it is, likewise (`presence`: each learner's page
beats as it polls). The limits are the opener's or
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
from functools import partial
from typing import Any

from ..engine import actions as A
from ..engine.errors import ToonervilleError
from ..engine.events import Event, Phase
from ..engine.game import Game
from ..engine.messages import Message, msg
from ..engine.rules import Rules
from ..engine.views import PlayerView
from ..players.bots import make_bot
from ..players.table import SAFETY_MOVES, STAND_IN, BotMistake, Table
from . import codes
from .backend import TABLE_FORMAT, Backend, TableRow, chained, first_digest
from .errors import (
    CorruptTableError,
    NoSuchTableError,
    SeatError,
    StoreError,
    TableMovedOnError,
    TableOverError,
    cause,
)
from .handles import Seat, Watcher
from .presence import LOOK_EVERY, Presence
from .seatkeys import SeatKeeper
from .seats import AWAY_AFTER, BUY_AFTER, SeatLog
from .tablestate import WATCHER, TableInfo, check_limits, end_events, public_events
from .tablestate import TableState as _Table

__all__ = ["WATCHER", "Seat", "TableInfo", "TableStore", "Watcher", "public_events"]


class TableStore(SeatKeeper, Presence):
    """Shared tables in one database (see `open_store`). Thread-safe; each client page
    (each kernel) has its own store object. `clock` (seconds, monotonic) measures how
    long a learner keeps the table waiting; `wall_clock` (seconds) when a learner's page
    was last heard (`presence`); tests give their own."""

    def __init__(self, backend: Backend, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.backend = backend
        self.clock = clock
        self.wall_clock: Callable[[], float] = time.time
        self._beats: dict[tuple[str, int], float] = {}
        self._looked: dict[str, float] = {}
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
                   away_after: float | None = None, buy_after: float | None = None,
                   stand_in: str | None = None) -> str:
        """Open a table and return its code. `bots` maps seats to bot kinds; the other
        seats wait for learners to claim them. `start` is a game to begin from instead of
        `Game.new(players, seed, rules, names)` (it must have no moves yet); `last_round`
        ends the table after that round (a tournament table plays one round). `host` is
        the digest of the key that may hand seats over (`open_hosted` makes one);
        `away_after` and `buy_after` are the table's limits in seconds; `stand_in` the bot
        kind that plays for a learner who is away (default: the heuristic bot)."""
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
            header["limits"] = list(check_limits(away_after, buy_after, None))
        if stand_in is not None:
            header["stand_in"] = make_bot(stand_in).name  # an unknown kind is refused
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
               secret: str | None = None, history: str | None = None) -> int:
        """Store `move` as the next move if the table still has exactly `expected` moves
        (and, given `history`, the history with that digest: a handle's `history`) and the
        engine accepts it; returns the table's new number of moves. A learner's move
        needs their key; a seat a bot plays takes only its bot's move (or one sent with
        the opener's or teacher's key)."""
        with self._lock:
            t = self._caught_up(code)
            game = t.game
            action = A.parse_action(move, game.rules) if isinstance(move, str) else move
            if expected != len(game.actions):
                raise self._moved_on(t, expected)
            if history is not None and history != t.history:
                raise self._moved_on(t, expected, replaced=True)
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
        notation = action.notation()
        if not self.backend.append(t.code, number, notation, t.history):
            replaced = self._catch_up(t)
            raise self._moved_on(t, expected, replaced=replaced)
        game.apply(action)
        t.history = chained(t.history, notation)
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

    def _moved_on(self, t: _Table, expected: int, replaced: bool = False
                  ) -> TableMovedOnError:
        now = len(t.game.actions)
        if replaced:
            return TableMovedOnError(msg(
                "the table moved on: its moves were changed behind your page (moves taken "
                "back, or a backup restored); your page showed move {seen}, the table is "
                "at move {now}; here is the table as it is now", None, seen=expected,
                now=now), now)
        return TableMovedOnError(msg("the table moved on: someone played first (your page "
                                     "showed move {seen}, the table is at move {now}); "
                                     "here is the new state", None, seen=expected, now=now),
                                 now)

    # -- bots, and learners who keep the table waiting ---------------------------------
    def bot_move(self, code: str) -> A.Action | None:
        """The move the table makes next without a learner (a bot's — a failing bot's
        replacement —, a pass a learner's setting or the buy limit makes, a stand-in's
        for a learner who is away), or None if a learner must act within the limits."""
        with self._lock:
            t = self._caught_up(code)
            if t.finished:
                return None
            action = t.table.next_move()
            if action is None:
                action = self._buy_limit_pass(t)
            if action is None and self._mark_idle_away(t):
                action = t.table.next_move()
            return action

    def _buy_limit_pass(self, t: _Table) -> A.Action | None:
        """The pass of a learner who left a buy offer open past the table's buy limit."""
        waiting = t.table.learner_to_act()
        if not waiting or t.game.phase is not Phase.BUY:
            return None
        return A.Pass(waiting[0]) if self.clock() - t.seen[1] >= t.log.buy_after else None

    def _mark_idle_away(self, t: _Table) -> bool:
        """Mark away a learner idle on their own turn past the away limit (a bot plays
        for them until they return); True if one was."""
        waiting = t.table.learner_to_act()
        if not waiting or t.game.phase is Phase.BUY \
                or self.clock() - t.seen[1] < t.log.away_after:
            return False
        self._log(t, f"away {waiting[0]}")
        return True

    def play_bots(self, code: str, limit: int | None = None) -> int:
        """Let the table make the moves no learner makes (`table.Table.step`: the bots',
        with the one seed rule, the one safety limit and the one failing-bot rule; the
        passes learners' settings make), and those the limits make (a buy offer left
        open, a learner idle on their turn marked away), while there are any (at most
        `limit`); stores each; returns how many this client stored. Several clients may
        do this at once: each move is stored once, and a client that was beaten to a
        move takes its own back and catches up."""
        made = 0
        most = SAFETY_MOVES if limit is None else min(limit, SAFETY_MOVES)
        self.notice_gone(code, every=LOOK_EVERY)  # a page gone quiet: a bot plays for it
        while made < most:
            with self._lock:
                t = self._caught_up(code)
                if t.finished:
                    return made
                before = len(t.game.actions)
                action = t.table.step()
                if action is not None:
                    made += self._keep(t, action, before)
                    continue
                late = self._buy_limit_pass(t)
                if late is not None:
                    try:
                        self._store(t, late, before)
                    except TableMovedOnError:
                        continue
                    made += 1
                elif not self._mark_idle_away(t):
                    return made
        return made

    def _keep(self, t: _Table, action: A.Action, before: int) -> bool:
        """Store `action`, which the table has just made after `before` moves; False if
        another client stored a move there first: then the table takes it back and
        catches up with the stored one."""
        notation = action.notation()
        try:  # onto the history the table made it on (its chain digest), not just a count
            kept = self.backend.append(t.code, before + 1, notation, t.history)
        except BaseException:
            t.game.undo()
            raise
        if kept:
            t.history = chained(t.history, notation)
            self._restart_clock(t, before=before)
            return True
        t.game.undo()
        self._catch_up(t)
        return False

    def mistakes(self, code: str) -> tuple[BotMistake, ...]:
        """The bots' mistakes at this table that this client's table replaced
        (`table.BotMistake`: a bug in a bot, never a learner's fault)."""
        with self._lock:
            return tuple(self._caught_up(code).table.mistakes)

    def away(self, code: str) -> frozenset[int]:
        """The learners' seats a bot plays for now, until they come back."""
        with self._lock:
            return self._caught_up(code).log.away

    def public_history(self, code: str) -> tuple[Event, ...]:
        """The table's history as anyone at it may read it: every sentence, but no card
        drawn from the stock (draws and penalty cards keep their cards to themselves)."""
        with self._lock:
            t = self._caught_up(code)
            names = self._names(t)
            return end_events(public_events(t.game.history, names), t, names)

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

    def seat_snapshot(self, code: str, seat: int | None
                      ) -> tuple[int, str, PlayerView, bool, frozenset[int], dict[int, str]]:
        """(moves so far, their history's digest, what `seat` may see — no hand for
        None —, finished, the seats away, the seats bots play) at once."""
        with self._lock:
            t = self._caught_up(code)
            game = t.game
            if seat is None:
                view = game.view(game.current)._replace(seat=WATCHER, hand=(),
                               taken_this_turn=None, may_lay_off=False)
            else:
                view = game.view(seat)
            return (len(game.actions), t.history, view._replace(names=self._names(t)),
                    t.finished, t.log.away, t.seat_bots)

    def legal_if_current(self, code: str, seat: int, number: int,
                         history: str | None = None) -> list[A.Action] | None:
        """`seat`'s legal moves, if the table is still at the page's `number` moves (and
        `history`); None if it moved on (the page's view is out of date)."""
        with self._lock:
            t = self._caught_up(code)
            if len(t.game.actions) != number or history not in (None, t.history):
                return None
            return t.game.legal_actions(seat)

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
                           t.limits or (AWAY_AFTER, BUY_AFTER),
                           since=t.log if t.driver is not None else None)
        if t.driver is not None and log is t.log:
            return
        seated = t.driver is None or log.entries != t.log.entries
        t.log = log
        was = t.driver
        t.driver = Table(t.game, t.seat_bots, away=log.away, buy_offers=log.offers,
                         stand_in=t.stand_in)
        if was is not None:  # the same table, seated anew: its bots' mistakes stay
            t.driver.mistakes.extend(was.mistakes)
        if seated:  # the seats changed: a new wait (a setting changed: the same wait)
            t.seen = (len(t.game.actions), self.clock())

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
            stand_in = make_bot(setup.get("stand_in", STAND_IN)).name
            if game.actions or not all(0 <= s < game.players for s in bots):
                raise ValueError("moves or seats out of place")
            if host is not None and not isinstance(host, str):
                raise ValueError("the opener's key is not a digest")
            if limits is not None:
                if not isinstance(limits, list) or len(limits) != 2:
                    raise ValueError("the limits are not two numbers")
                limits = check_limits(limits[0], limits[1], None)
        except (ToonervilleError, ValueError, TypeError, KeyError, AttributeError) as err:
            raise CorruptTableError(msg(
                "table {code} cannot be read ({why}); it is left as it is", None, code=code,
                why=msg("its header is damaged: {why}", None,
                        why=cause(err))), code, None, None) from None
        return _Table(code, game, bots, last_round, tournament, host, limits,
                      stand_in=stand_in, history=first_digest(code, row.start))

    def _catch_up(self, t: _Table) -> bool:
        """Apply the moves stored since this store last looked, each checked by the
        engine and by its history digest. True if the table's history was not the one
        this store had (moves deleted, a backup restored, commits lost): then the table
        was read again from its header (`_reread`)."""
        rows = self.backend.history_from(t.code, len(t.game.actions))
        replaced = False
        if t.game.actions:
            if rows and self._same_last(t, rows[0]):
                rows = rows[1:]
            else:
                self._reread(t)
                replaced = True
                rows = self.backend.history_from(t.code, 1)
        game = t.game
        before = len(game.actions)
        fills: list[tuple[int, str]] = []
        for number, move, digest in rows:
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
            elif digest is not None and digest != chained(t.history, move):
                why = msg("its history digest does not follow from its text and the moves "
                          "before it (a move was changed behind the store's back)", None)
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
            t.history = chained(t.history, move)
            if digest is None:  # written before moves had digests: it gets its own
                fills.append((number, t.history))
        if fills:
            self.backend.fill_digests(t.code, fills)
        if t.seen[0] < 0:
            t.seen = (len(game.actions), self.clock())
        elif len(game.actions) != before:
            self._restart_clock(t, before)
        return replaced

    def _same_last(self, t: _Table, row: tuple[int, str, str | None]) -> bool:
        """Is `row` the last move this store has, with the same history before it?"""
        number, move, digest = row
        if number != len(t.game.actions):
            return False
        if digest is None:  # written by a kit before digests: its text, and then its digest
            if move != t.game.actions[-1].notation():
                return False
            self.backend.fill_digests(t.code, [(number, t.history)])
            return True
        return digest == t.history

    def _reread(self, t: _Table) -> None:
        """The table's history changed in the database: start again from its header
        (the seats are read again and the waiting clock restarts)."""
        fresh = self._load(t.code)
        t.game, t.history = fresh.game, fresh.history
        t.driver = None
        t.seen = (-1, 0.0)




