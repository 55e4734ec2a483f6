"""Who may hold and move a seat of a shared table: the store's seat keys (issue 18).

Owns `SeatKeeper`, the part of `tables.TableStore` that claims seats and checks keys:
a seat's key is made by the kit when the seat is claimed (never typed up by a learner:
a key this table never issued is refused, and a key whose seat was since given to
someone else says so); with its key a seat is the same seat again on any page or
device, and a learner who was away has it back at once. A learner's seat moves only
with its key; a seat a bot plays (a bot's, or an away learner's) takes only its bot's
own move, or the opener's or the teacher's; the opener (`open_hosted`) or the teacher
gives a seat to a bot or a new learner, sets the time limits, and each learner sets
their buy-offer setting. Every change of who sits where is an entry of the seat log
(`seats`). Two seats of a table never share a name (`names.same_name`).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, cast

from ..engine import actions as A
from ..engine.messages import msg
from ..engine.names import same_name
from ..players.bots import make_bot
from ..players.table import BUY_OFFERS
from . import codes
from .backend import Backend
from .errors import BadNameError, SeatError
from .handles import Seat
from .names import clean_name
from .seats import add
from .tablestate import TableState as _Table
from .tablestate import check_limits

if TYPE_CHECKING:
    from .tables import TableStore


class SeatKeeper:
    """Seat claims, keys and hand-overs of a `TableStore` (see the module's docstring)."""

    backend: Backend
    _lock: threading.RLock

    def _caught_up(self, code: str) -> _Table:
        raise NotImplementedError

    def _names(self, t: _Table) -> tuple[str, ...]:
        raise NotImplementedError

    def _read_log(self, t: _Table) -> None:
        raise NotImplementedError

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
        handle = Seat(cast("TableStore", self), t.code, seat, secret)
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

    # -- handing seats over, away and back --------------------------------------------
    def give_seat(self, code: str, seat: int, bot: str | None, *, key: str,
                  newcomer: str | None = None) -> str | None:
        """The opener (or the tournament's teacher, `key`) gives `seat` to a bot of kind
        `bot`, or to a new learner (`bot` None): then the new learner's key is returned
        (`newcomer` if given: a tournament's, which holds the name in later rounds too),
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
            new = codes.new_secret() if newcomer is None else newcomer
            self._log(t, f"learner {seat} {codes.digest(new)}")
            return new

    def set_limits(self, code: str, *, key: str, away_after: float | None = None,
                   buy_after: float | None = None) -> tuple[float, float]:
        """The opener or teacher sets how long a learner may keep the table waiting: on
        their own turn (`away_after` seconds) and with a buy offer (`buy_after`)."""
        with self._lock:
            t = self._caught_up(code)
            self._check_host(t, key)
            limits = check_limits(away_after, buy_after, (t.log.away_after, t.log.buy_after))
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
        """Add an entry to the table's seat log (again after a race, unless the entry
        that won the race said the same: two pages marking one learner away add one
        entry) and read it."""
        for _ in range(50):
            if add(self.backend, t.code, t.log, entry):
                break
            self._read_log(t)
            if _holds(t, entry):
                break
        self._read_log(t)

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


def _holds(t: _Table, entry: str) -> bool:
    """Does the log already say what `entry` says (an away or a back)?"""
    words = entry.split()
    if len(words) < 2 or words[0] not in ("away", "back") or not words[1].isdigit():
        return False
    return (int(words[1]) in t.log.away) == (words[0] == "away")
