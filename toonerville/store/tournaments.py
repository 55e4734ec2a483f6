"""A tournament run on shared tables (T22, H11), kept in the store.

Owns `TournamentDesk`: opening a tournament (its state is a `tournament.Tournament`
stored as JSON with a version, so it survives a server restart), learners joining by
name, the teacher's actions — start, next round, handing a seat to a bot or to a new
learner — which need the teacher's key, and the live master sheet.

Joining is safe (issue 18): at opening, the kit makes one key per learner (derived from
the teacher's key and the name, so the teacher's page can list them again with
`learner_keys`, and the store keeps only their digests under the scope `<code>~keys`).
The tournament and all its keys are written in one transaction (issue 27): a server
killed while a tournament opens leaves it whole or not at all. A tournament without
keys (opened by a kit before them) never takes a key a learner typed up: a learner
who joined it before keeps their seat with the key the kit gave them then, and once
the teacher's page lists the keys (`learner_keys`, which stores any that are missing)
everyone joins with theirs.
A learner joins under their name only with their own key — the teacher hands it over,
which is the teacher's approval — so nobody can take another's name, and one key holds
one name. With the key, the learner gets their seat back from any page or device. Names
are matched as people write them (`names.find_name`: "bo" is "Bo"). Each round opens one shared
table per group, coded `<tournament>-R<round>T<table>`; a learner's seat at that table
is authorised by their tournament secret. Opening a round is idempotent (the codes, deals
and dealers are all derived from the tournament's seed), and the state is replaced only
if nobody replaced it first, so two pages pressing "next round" at once make one round.
The sheet is always computed from the tables themselves: nothing is recorded twice.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import random
from collections.abc import Sequence

from ..engine.errors import RulesError
from ..engine.messages import msg
from ..engine.names import name_key
from ..engine.rules import Rules
from ..engine.tournament import SheetRow, Tournament, master_sheet, sheet_csv, table_game
from . import codes
from .backend import TOURNAMENT_FORMAT, TournamentRow
from .errors import (
    CorruptTableError,
    NoSuchTableError,
    SeatError,
    StoreError,
    TeacherKeyError,
    cause,
)
from .names import find_name
from .tables import Seat, TableStore
from .tablestate import check_limits


def learner_key(teacher_key: str, code: str, name: str, newcomer: int = 0) -> str:
    """The key of learner `name` in tournament `code`, made from the teacher's key: the
    first learner's (`newcomer` 0), or that of the n-th learner the teacher gave the
    name's seat to, who holds it from then on."""
    text = f"{code}:{name}" if newcomer == 0 else f"{code}:{name}:{newcomer}"
    mac = hmac.new(teacher_key.encode("utf-8"), text.encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:18]).decode("ascii")


#: the most learners who may hold one name in a tournament, one after another
MAX_NEWCOMERS = 50


def _keys_scope(code: str) -> str:
    return f"{code}~keys"


def _handed_scope(code: str) -> str:
    """Where a name handed on to a newcomer keeps its newcomer's key digest."""
    return f"{code}~handed"


def _limits_scope(code: str) -> str:
    return f"{code}~limits"


class TournamentDesk:
    """Tournaments in a `TableStore`."""

    def __init__(self, store: TableStore) -> None:
        self.store = store

    # -- the teacher -----------------------------------------------------------------
    def open(self, names: Sequence[str], *, bots: int = 0, bot_kind: str = "heuristic",
             rules: Rules | None = None, seed: int | None = None, rounds: int = 11,
             turn_limit: int | None = 200) -> tuple[str, str]:
        """A new tournament of the learners `names` (plus `bots` bots, and enough bots to
        make 3); returns (its code, the teacher's key). Keep the key in the teacher's
        page: starting and moving to the next round need it."""
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        seen: dict[str, str] = {}
        for name in names:
            other = seen.setdefault(name_key(name) if isinstance(name, str) else "", name)
            if other is not name and isinstance(name, str):
                raise SeatError(msg("{a} and {b} are the same name written twice: give "
                                    "each learner a name of their own", "T22", a=other,
                                    b=name))
        key = codes.new_secret()
        backend = self.store.backend
        for _ in range(20):
            code = codes.new_code()
            t = Tournament.new(code, names, bots=bots, bot_kind=bot_kind, rules=rules,
                               seed=seed, rounds=rounds, turn_limit=turn_limit)
            keys = [(_keys_scope(code), name, codes.digest(learner_key(key, code, name)))
                    for name in t.learners]
            if backend.create_tournament(TournamentRow(
                    code, TOURNAMENT_FORMAT, codes.digest(key), t.to_json(), 0), keys):
                return code, key  # the tournament and every key, in one transaction
        raise StoreError(msg("no free code could be found; try again", None))

    def start(self, code: str, key: str) -> Tournament:
        """Seat round 1 (teacher)."""
        t, version = self._teacher(code, key)
        if t.round_number:
            return t
        return self._begin_round(t, version, key)

    def next_round(self, code: str, key: str, after: int | None = None) -> Tournament:
        """Seat the next round once every table of this one has finished (teacher).
        `after` is the round the teacher's page showed when Next round was pressed: if
        the tournament has moved past it already (another page of the teacher's, or a
        second click, came first), the tournament as it now stands is returned and
        nothing changes, rather than a refusal that the new round is still being played."""
        t, version = self._teacher(code, key)
        if after is not None and t.round_number > after:
            return t
        if not t.round_number:
            raise StoreError(msg("tournament {code} has not started yet", "T22", code=code))
        if not self._finished(t):  # as of the state read with the key: see _begin_round
            waiting = [x.number for x in t.tables[-1] if not self.store.finished(x.code)]
            raise StoreError(msg("round {r} is still being played at table(s) {tables}",
                                 "T22", r=t.round_number, tables=waiting))
        if t.round_number >= t.rounds:
            raise StoreError(msg("the tournament is over: all {k} rounds are played",
                                 "T22", k=t.rounds))
        return self._begin_round(t, version, key)

    def teacher(self, code: str, key: str) -> Tournament:
        """The tournament, for the teacher's page only: the key is checked and nothing
        changes (a reloaded teacher's page gets its tournament back with this)."""
        return self._teacher(code, key)[0]

    def learner_keys(self, code: str, key: str) -> dict[str, str]:
        """Each learner's key (teacher): hand each learner theirs, as a link or a note.
        A key whose digest the store lacks (a tournament opened before keys, or by a
        kit that could be stopped half-way) is stored now."""
        t, _version = self._teacher(code, key)
        backend = self.store.backend
        issued = backend.claims(_keys_scope(t.code))
        keys = {name: self._holder_key(key, t.code, name, issued.get(name))[1]
                for name in t.learners}
        for name in t.learners:
            if name not in issued:
                backend.claim(_keys_scope(t.code), name, codes.digest(keys[name]))
        return keys

    @staticmethod
    def _holder_key(key: str, code: str, name: str, issued: str | None) -> tuple[int, str]:
        """Which learner holds `name` now (0 the first, n the n-th newcomer), by the key
        digest the store has (`issued`), and their key; the first's if none matches."""
        for newcomer in range(MAX_NEWCOMERS + 1):
            made = learner_key(key, code, name, newcomer)
            if issued is None or codes.matches(made, issued):
                return newcomer, made
        return 0, learner_key(key, code, name)

    def give_seat(self, code: str, key: str, name: str, bot: str | None) -> str | None:
        """At the current round's table of `name`, give their seat to a bot of kind
        `bot`, or to a new learner (`bot` None: their key for this table is returned)
        (teacher)."""
        t, _version = self._teacher(code, key)
        found = find_name(name, (*t.learners, *t.bots))
        if found is None:
            raise SeatError(msg("{name} is not a learner of tournament {code}", "T22",
                                name=name, code=t.code))
        table = t.table_of(found)
        if bot is not None or found not in t.learners:
            return self.store.give_seat(table.code, table.players.index(found), bot, key=key)
        return self._hand_on(t, key, found, table.code, table.players.index(found))

    def _hand_on(self, t: Tournament, key: str, name: str, table: str, seat: int) -> str:
        """A new learner takes `name`'s place for the rest of the tournament. Their key is
        made from the teacher's (so the teacher's page lists it again) and becomes the
        name's key in the store (`<code>~keys`, compare-and-set: two teacher pages doing
        this at once hand the name on once); this round's table is told now, and every
        later round's table when it opens (`_newcomers_sit`). The name's first claim stays
        as it was, so each table knows the old key for a replaced one and says so."""
        backend = self.store.backend
        scope = _keys_scope(t.code)
        issued = backend.claims(scope).get(name)
        newcomer, _old = self._holder_key(key, t.code, name, issued)
        if newcomer >= MAX_NEWCOMERS:
            raise SeatError(msg("{name}'s seat has been given to {k} learners already: "
                                "open a new tournament", "T22", name=name, k=MAX_NEWCOMERS))
        new = learner_key(key, t.code, name, newcomer + 1)
        handed = backend.claims(_handed_scope(t.code)).get(name)
        if not (backend.reclaim(scope, name, issued, codes.digest(new))
                and backend.reclaim(_handed_scope(t.code), name, handed, codes.digest(new))):
            raise SeatError(msg("{name}'s seat was just given to someone else from another "
                                "page: look at the key list again", "T22", name=name))
        self.store.give_seat(table, seat, None, key=key, newcomer=new)
        return new

    def _newcomers_sit(self, t: Tournament, key: str) -> None:
        """At the tables of the round just opened, the learners the teacher brought in
        for a name hold its seat (their key, not the first learner's)."""
        issued = self.store.backend.claims(_keys_scope(t.code))
        for name in t.learners:
            newcomer, made = self._holder_key(key, t.code, name, issued.get(name))
            if newcomer:
                table = t.table_of(name)
                self.store.give_seat(table.code, table.players.index(name), None, key=key,
                                     newcomer=made)

    def _holds(self, t: Tournament, name: str, secret: object) -> bool:
        """Does `secret` hold `name` now: the key the store has for the name (the first
        learner's, or the newcomer's the teacher gave the seat to), once the name has
        joined; or, in a tournament opened before keys, the key of the name's first join
        (or of a newcomer at this round's table)?"""
        backend = self.store.backend
        handed = backend.claims(_handed_scope(t.code)).get(name)
        if handed is not None:  # a newcomer holds the name: their key alone
            return codes.matches(secret, handed)
        joined = backend.claims(t.code).get(name)
        holder = backend.claims(_keys_scope(t.code)).get(name)
        if holder is not None and joined is not None:
            # the name's key, or (a tournament opened before keys) the key it joined with
            return codes.matches(secret, holder) or codes.matches(secret, joined)
        return codes.matches(secret, joined) or self._replacement(t, name, secret)

    def set_limits(self, code: str, key: str, *, away_after: float | None = None,
                   buy_after: float | None = None) -> tuple[float, float]:
        """How long a learner may keep their table waiting, on their turn and with a buy
        offer (teacher): for every table of this round and of the rounds to come."""
        t, _version = self._teacher(code, key)
        now = self._limits(t.code)
        limits = check_limits(away_after, buy_after, now)
        backend = self.store.backend
        for _ in range(50):
            slot = f"{len(backend.claims(_limits_scope(t.code))) + 1:06d}"
            if backend.claim(_limits_scope(t.code), slot, f"{limits[0]:g} {limits[1]:g}"):
                break
        for table in (t.tables[-1] if t.tables else ()):
            self.store.set_limits(table.code, key=key, away_after=limits[0],
                                  buy_after=limits[1])
        return limits

    def _limits(self, code: str) -> tuple[float, float] | None:
        """The teacher's latest limits, or None (the tables' defaults)."""
        rows = self.store.backend.claims(_limits_scope(code))
        for slot in sorted(rows, reverse=True):
            try:
                away, buy = (float(x) for x in rows[slot].split())
                return check_limits(away, buy, None)
            except (ValueError, StoreError):
                continue
        return None

    def _teacher(self, code: str, key: str) -> tuple[Tournament, int]:
        row = self._row(code)
        if not codes.matches(key, row.teacher):
            raise TeacherKeyError(msg("only the teacher's page may do this: the teacher's "
                                      "key of tournament {code} is needed", "T22",
                                      code=row.code))
        return self._parse(row), row.version

    def _begin_round(self, t: Tournament, version: int, key: str) -> Tournament:
        r = t.round_number + 1
        teacher = self._row(t.code).teacher
        limits = self._limits(t.code)
        away_after, buy_after = limits if limits is not None else (None, None)
        sheet = self.sheet_rows(t)
        totals = {row.standing.name: row.standing.total for row in sheet}
        earlier = {row.standing.name: row.points for row in sheet}
        seated = t.with_round([codes.round_table_code(t.code, r, i) for i in
                               range(1, len(t.seating(r, totals)) + 1)], totals)
        for table in seated.tables[-1]:
            scores = [[earlier[p][k] or 0 for p in table.players] for k in range(r - 1)]
            game = table_game(table.players, r, table.dealer, t.rules,
                              seed=random.Random(f"{t.seed}:{r}:{table.number}")
                              .randrange(2**31), scores=scores, turn_limit=t.turn_limit)
            self.store.open_table(
                start=game, bots={s: t.bots[p] for s, p in enumerate(table.players)
                                  if p in t.bots},
                last_round=r, tournament=t.code, code=table.code, host=teacher,
                away_after=away_after, buy_after=buy_after)
        if self.store.backend.update_tournament(t.code, seated.to_json(), version):
            self._newcomers_sit(seated, key)
            return seated
        return self.get(t.code)  # someone else began this round first: theirs stands

    # -- everyone --------------------------------------------------------------------
    def get(self, code: str) -> Tournament:
        return self._parse(self._row(code))

    def joined(self, code: str) -> frozenset[str]:
        """The learners who have joined tournament `code` (from any page)."""
        t = self.get(code)
        return frozenset(self.store.backend.claims(t.code)) & frozenset(t.learners)

    def learner_name(self, code: str, name: str) -> str:
        """The learner's name as the teacher wrote it, for a name as a learner typed it
        ("bo" for "Bo"); refused if it is nobody's."""
        t = self.get(code)
        found = find_name(name, t.learners)
        if found is None:
            raise SeatError(msg("{name} is not a learner of tournament {code}", "T22",
                                name=str(name)[:40], code=t.code))
        return found

    def join(self, code: str, name: str, secret: str | None = None) -> str:
        """Join as `name` (one of the learners, however its case, width or spaces are
        typed) with the key the teacher gave that learner; returns the key to keep in
        the page. The same key on another page or device is the same learner again."""
        t = self.get(code)
        name = self.learner_name(t.code, name)
        backend = self.store.backend
        issued = backend.claims(_keys_scope(t.code))
        if name not in issued:  # opened before learners had keys: only a kit-made key
            return self._join_unkeyed(t, name, secret)
        if secret is None or secret == "":
            raise SeatError(msg("to join tournament {code} as {name}, use the key (or the "
                                "link) your teacher gave you", "T22", code=t.code,
                                name=name))
        if not codes.matches(secret, issued.get(name)):
            if self._holds(t, name, secret):
                return secret  # the key it joined with before keys, or a newcomer's
            owner = next((n for n, d in issued.items() if codes.matches(secret, d)), None)
            if owner is not None:
                raise SeatError(msg("this key is {owner}'s, not {name}'s: each learner "
                                    "joins with their own key", "T22", owner=owner,
                                    name=name))
            raise SeatError(msg("this is not a key of tournament {code}: check that it "
                                "is copied whole, or ask your teacher for yours", "T22",
                                code=t.code))
        assert isinstance(secret, str)
        backend.claim(t.code, name, codes.digest(secret))  # the first join records it
        return secret

    def _replacement(self, t: Tournament, name: str, secret: object) -> bool:
        """Is `secret` the key of a new learner the teacher gave `name`'s seat to, at
        `name`'s table of the current round?"""
        if not t.tables or not isinstance(secret, str):
            return False
        table = t.table_of(name)
        state = self.store._caught_up(table.code)
        return state.log.learners.get(table.players.index(name)) == codes.digest(secret)

    def _join_unkeyed(self, t: Tournament, name: str, secret: str | None) -> str:
        """`name` has no key in the store (a tournament opened before keys): a learner
        who joined before keeps their seat with the key the kit gave them; nobody else
        joins until the teacher's page lists the keys (`learner_keys`), and a key typed
        up is never taken."""
        if isinstance(secret, str) and codes.matches(
                secret, self.store.backend.claims(t.code).get(name)):
            return secret
        raise SeatError(msg("tournament {code} has no key for {name} yet: ask your teacher "
                            "for your key (or link); their page makes it", "T22",
                            code=t.code, name=name))

    def seat(self, code: str, name: str, secret: str, round_number: int | None = None
             ) -> Seat:
        """`name`'s seat at their table of the round (default: the current round)."""
        t = self.get(code)
        name = self.learner_name(t.code, name)
        if not self._holds(t, name, secret):
            raise SeatError(msg("this page has not joined tournament {code} as {name}",
                                "T22", code=t.code, name=name))
        table = t.table_of(name, round_number)
        handle = Seat(self.store, table.code, table.players.index(name), secret)
        handle.refresh()
        if handle.is_away:
            handle.come_back()
        return handle

    def round_finished(self, code: str) -> bool:
        return self._finished(self.get(code))

    def _finished(self, t: Tournament) -> bool:
        return bool(t.tables) and all(self.store.finished(x.code) for x in t.tables[-1])

    def over(self, code: str) -> bool:
        t = self.get(code)
        return t.round_number == t.rounds and self.round_finished(code)

    def next_seating(self, code: str) -> tuple[tuple[str, ...], ...] | None:
        """Once every table of the round has finished: who will sit where next."""
        t = self.get(code)
        if not self.round_finished(code) or t.round_number >= t.rounds:
            return None
        totals = {row.standing.name: row.standing.total for row in self.sheet_rows(t)}
        return t.seating(t.round_number + 1, totals)

    def play_bots(self, code: str, limit: int | None = None) -> int:
        """Make the bots' moves at every table of the current round."""
        t = self.get(code)
        return sum(self.store.play_bots(x.code, limit) for x in
                   (t.tables[-1] if t.tables else ()))

    def sheet(self, code: str) -> tuple[SheetRow, ...]:
        """The live master sheet (T22): ranks with shared places, tables, points."""
        return self.sheet_rows(self.get(code))

    def sheet_rows(self, t: Tournament) -> tuple[SheetRow, ...]:
        points = {x.code: self.store.round_points(x.code, x.round_number)
                  for round_tables in t.tables for x in round_tables}
        return master_sheet(t, points)

    def csv(self, code: str) -> str:
        return sheet_csv(self.sheet(code))

    # -- rows ------------------------------------------------------------------------
    def _row(self, code: str) -> TournamentRow:
        code = codes.normalise_code(code)
        row = self.store.backend.tournament(code)
        if row is None:
            raise NoSuchTableError(msg("there is no tournament {code} here: check the code",
                                       "T22", code=code))
        return row

    def _parse(self, row: TournamentRow) -> Tournament:
        try:
            if row.format != TOURNAMENT_FORMAT:
                raise ValueError(f"format {row.format!r}")
            return Tournament.from_json(row.state)
        except (RulesError, ValueError, TypeError, KeyError) as err:
            raise CorruptTableError(msg("tournament {code} cannot be read ({why}); it is left "
                                        "as it is", "T22", code=row.code, why=cause(err)),
                                    row.code, None, None) from None
