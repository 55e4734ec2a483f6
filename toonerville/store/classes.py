"""A class kept in the store: its teacher, its learners and the settings the teacher holds.

Owns `ClassStore` (issue 29). The teacher opens a class by name (`open_class`) and gets
its code — six characters from the table codes' alphabet, read aloud or put in a link
(`?class=CODE`) — and the teacher's key, which the teacher's browser keeps; the store
keeps only the key's digest. Learners join with their name (`join`) and get a key of
their own (again only its digest is stored); the teacher may also enrol names in
advance for printable cards (`enrol`: those keys are made from the teacher's key, so
the teacher's page can print them again).

Names are compared as people expect (`names.name_key`: case, width and spaces do not
count, "ＡＮＮ " is "Ann"). A name belongs to the first learner who joins under it: the
same name joins again only with that learner's key (a page that remembers its key gets
its place back; one without it is told the name is taken and to add an initial, or ask
the teacher), so nobody can take another's place by typing their name.

The teacher's settings (`ClassSettings`: hints, take back, bot level, away limit,
buy-offer default, language) apply to the class's tables and tournaments; any learner of
the class may read them. What the teacher hands out to a class — a table's or a
tournament's code, with each learner's key there — is read back by the learner's page
with its class key (`handouts`), so learners never type a key. Every refusal is the
store's own error in the learner's or teacher's words, and a refused call stores nothing.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime

from ..coach.levels import LEVELS
from ..engine.messages import LANGUAGES, msg
from ..engine.names import name_key
from ..players.table import BUY_OFFERS
from . import codes
from .backend import CLASS_FORMAT, Backend, ClassRow, HandoutRow, MemberRow
from .errors import (
    CorruptTableError,
    NameTakenError,
    NoSuchClassError,
    SeatError,
    StoreError,
    TeacherKeyError,
)
from .names import clean_name
from .seats import AWAY_AFTER, LIMITS

#: what a teacher may hand out to a class
HANDOUT_KINDS = ("table", "tournament")


@dataclass(frozen=True, slots=True)
class ClassOpened:
    """A class just opened: its join `code` and the teacher's key (keep it secret)."""

    code: str
    teacher_key: str


@dataclass(frozen=True, slots=True)
class Member:
    """A learner of a class, as the teacher (or the learner) sees them."""

    name: str
    joined: datetime


@dataclass(frozen=True, slots=True)
class Handout:
    """A table or tournament the teacher opened for the class: `kind` ("table" or
    "tournament"), its `code`, and this learner's `key` there ("" if none is needed)."""

    kind: str
    code: str
    key: str


@dataclass(frozen=True, slots=True)
class ClassSettings:
    """What the teacher decides for the class's tables and tournaments: the hint button
    (`hints`), take back (`take_back`), the bots' level (`bot_level`, one of
    `coach.levels.LEVELS`), how long a learner may keep a table waiting before a bot
    plays for them (`away_limit`, seconds), the buy-offer setting a learner starts with
    (`buy_offers`, one of `table.BUY_OFFERS`) and the pages' language (`language`)."""

    hints: bool = True
    take_back: bool = True
    bot_level: str = "heuristic"
    away_limit: float = AWAY_AFTER
    buy_offers: str = "helpful"
    language: str = "en"

    def __post_init__(self) -> None:
        for flag in (self.hints, self.take_back):
            if not isinstance(flag, bool):
                raise StoreError(msg("hints and take back are on or off, not {given}", None,
                                     given=str(flag)[:20]))
        if self.bot_level not in LEVELS:
            raise StoreError(msg("the bot level is one of {known}, not {given}", None,
                                 known=", ".join(LEVELS), given=str(self.bot_level)[:20]))
        low, high = LIMITS
        limit = self.away_limit
        if isinstance(limit, bool) or not isinstance(limit, int | float) \
                or not low <= limit <= high:
            raise StoreError(msg("a time limit is a number of seconds from {low:g} to "
                                 "{high:g}, not {value}", None, low=low, high=high,
                                 value=str(limit)[:20]))
        object.__setattr__(self, "away_limit", float(limit))
        if self.buy_offers not in BUY_OFFERS:
            raise StoreError(msg("the buy-offer setting is one of {known}, not {given}",
                                 None, known=", ".join(BUY_OFFERS),
                                 given=str(self.buy_offers)[:20]))
        if self.language not in LANGUAGES:
            raise StoreError(msg("the language is one of {known}, not {given}", None,
                                 known=", ".join(LANGUAGES), given=str(self.language)[:20]))

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> ClassSettings:
        """Settings as stored; a setting missing (stored by an older kit) is the default."""
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("settings are an object")
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


def normalise_class_code(text: object) -> str:
    """A class code as typed or read from a link (`" kxr4pt "`) in its stored form, or
    `NoSuchClassError` saying what a class code looks like."""
    code = text.strip().upper().replace(" ", "") if isinstance(text, str) else ""
    if len(code) != codes.CODE_LENGTH or any(c not in codes.ALPHABET for c in code):
        shown = text if isinstance(text, str) else repr(text)
        raise NoSuchClassError(msg(
            "'{code}' is not a class code: a class code is {k} letters and digits, like "
            "KXR4PT (there is no 0, O, 1 or I in a code)", None, code=shown[:40],
            k=codes.CODE_LENGTH))
    return code


def card_key(teacher_key: str, code: str, name: str) -> str:
    """The key on the printed card of learner `name` in class `code`: made from the
    teacher's key, so the teacher's page can print the same card again."""
    text = f"class:{code}:{name_key(name)}"
    mac = hmac.new(teacher_key.encode("utf-8"), text.encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:18]).decode("ascii")


class ClassStore:
    """Classes in one database (`backend`: the one of a `TableStore`, `store.backend`).
    `wall_clock` (seconds since 1970) dates the joins; tests give their own."""

    def __init__(self, backend: Backend, wall_clock: Callable[[], float] = time.time
                 ) -> None:
        self.backend = backend
        self.wall_clock = wall_clock

    def __repr__(self) -> str:
        return f"ClassStore({self.backend!r})"

    # -- the teacher -----------------------------------------------------------------
    def open_class(self, name: str) -> ClassOpened:
        """A new class called `name`, with the default settings."""
        name = clean_name(name)
        key = codes.new_secret()
        for _ in range(100):
            code = codes.new_code()
            row = ClassRow(code, CLASS_FORMAT, name, codes.digest(key),
                           ClassSettings().to_json(), 0)
            if self.backend.create_class(row):
                return ClassOpened(code, key)
        raise StoreError(msg("no free class code was found; try again", None))

    def is_teacher(self, code: str, teacher_key: str) -> bool:
        """Is `teacher_key` the key of class `code`'s teacher? (False for a class that is
        not in the store.)"""
        try:
            row = self._row(code)
        except NoSuchClassError:
            return False
        return codes.matches(teacher_key, row.teacher)

    def class_name(self, code: str) -> str:
        """The name the teacher gave class `code` (anyone with the code may read it)."""
        return self._row(code).name

    def members(self, code: str, teacher_key: str) -> tuple[Member, ...]:
        """The learners of the class, first joined first (the teacher's key)."""
        row = self._teacher(code, teacher_key)
        return tuple(_member(m) for m in self.backend.members(row.code))

    def settings(self, code: str) -> ClassSettings:
        """The class's settings (anyone with the code may read them: learners are shown
        them as their teacher's choice)."""
        row = self._row(code)
        return _settings(row)

    def set_settings(self, code: str, teacher_key: str, settings: ClassSettings) -> None:
        """The teacher replaces the class's settings."""
        row = self._teacher(code, teacher_key)
        if not isinstance(settings, ClassSettings):
            raise StoreError(msg("the class settings could not be saved: save them again",
                                 None))
        for _ in range(50):
            if self.backend.update_class(row.code, settings.to_json(), row.version):
                return
            row = self._teacher(code, teacher_key)
        raise StoreError(msg("the class settings could not be saved: save them again",
                             None))

    def enrol(self, code: str, teacher_key: str, names: Sequence[str]
              ) -> tuple[tuple[str, str], ...]:
        """The teacher enrols `names` for printed cards: returns (name, key) for each name
        whose card key holds its place — enrolled now or before by this teacher; a name a
        learner already joined under with a key of their own has no card (it is left
        out). Names are checked before any is enrolled."""
        row = self._teacher(code, teacher_key)
        wanted = [clean_name(n) for n in names]
        cards: list[tuple[str, str]] = []
        for name in wanted:
            key = card_key(teacher_key, row.code, name)
            self._add(row.code, name, key)
            holder = self._holder(row.code, name)
            if holder is not None and codes.matches(key, holder.secret):
                cards.append((holder.name, key))
        return tuple(cards)

    def hand_out(self, code: str, teacher_key: str, kind: str, item: str,
                 keys: Mapping[str, str] | None = None) -> None:
        """The teacher hands table or tournament `item` (`kind`: "table" or
        "tournament") to the class: with `keys` (learner's name → their key there) each
        of those learners gets their own key; without, every learner gets the code."""
        row = self._teacher(code, teacher_key)
        if kind not in HANDOUT_KINDS:
            raise StoreError(msg("a class is handed a table or a tournament, not {given}",
                                 None, given=str(kind)[:20]))
        if keys is None:
            rows = [HandoutRow(row.code, "", str(item), kind, "")]
        else:
            slots = {m.slot for m in self.backend.members(row.code)}
            missing = [n for n in keys if name_key(n) not in slots]
            if missing:
                raise SeatError(msg("{name} is not a learner of this class", None,
                                    name=missing[0]))
            rows = [HandoutRow(row.code, name_key(n), str(item), kind, str(k))
                    for n, k in keys.items()]
        self.backend.hand_out(rows)

    # -- the learner -----------------------------------------------------------------
    def join(self, code: str, name: str, *, key: str | None = None) -> str:
        """A learner joins class `code` as `name` and gets their key (the page keeps it).
        With `key` — the learner's own, remembered by their page — the same name joins
        again and the same key is returned; a name another learner holds is refused
        (`NameTakenError`)."""
        row = self._row(code)
        name = clean_name(name)
        if key is not None:
            mine = self._by_key(row.code, key)
            if mine is not None:
                if mine.slot != name_key(name):
                    raise SeatError(msg("this page has already joined class {cls} as "
                                        "{name}", None, cls=row.name, name=mine.name))
                return key
        key = codes.new_secret()
        if self._add(row.code, name, key):
            return key
        holder = self._holder(row.code, name)
        raise NameTakenError(msg("someone called {name} has already joined class {cls}: "
                                 "if that is you, open the link you joined with; if not, "
                                 "add an initial to your name", None,
                                 name=holder.name if holder else name, cls=row.name))

    def learner(self, code: str, learner_key: str) -> Member | None:
        """The learner of class `code` whose key this is, or None (a wrong key, or a
        class that is not in the store)."""
        try:
            row = self._row(code)
        except NoSuchClassError:
            return None
        found = self._by_key(row.code, learner_key)
        return None if found is None else _member(found)

    def handouts(self, code: str, learner_key: str) -> tuple[Handout, ...]:
        """What the teacher handed this learner (by their class key), oldest code first;
        nothing for a key that is not a learner's of the class."""
        row = self._row(code)
        mine = self._by_key(row.code, learner_key)
        if mine is None:
            return ()
        return tuple(Handout(h.kind, h.item, h.secret)
                     for h in self.backend.handouts(row.code) if h.slot in ("", mine.slot))

    # -- the rows ----------------------------------------------------------------------
    def _row(self, code: object) -> ClassRow:
        clean = normalise_class_code(code)
        row = self.backend.class_row(clean)
        if row is None:
            raise NoSuchClassError(msg("there is no class {code} here: check the code, or "
                                       "ask your teacher for the link", None, code=clean))
        if row.format != CLASS_FORMAT:
            raise CorruptTableError(msg("class {code} was stored by another version of the "
                                        "kit and cannot be read", None, code=clean),
                                    clean, None, None)
        return row

    def _teacher(self, code: str, teacher_key: str) -> ClassRow:
        row = self._row(code)
        if not codes.matches(teacher_key, row.teacher):
            raise TeacherKeyError(msg("this is not the teacher's key of class {cls}: only "
                                      "the page that opened it may do this", None,
                                      cls=row.name))
        return row

    def _add(self, code: str, name: str, key: str) -> bool:
        joined = int(self.wall_clock())
        return self.backend.add_member(MemberRow(code, name_key(name), name,
                                                 codes.digest(key), joined))

    def _holder(self, code: str, name: str) -> MemberRow | None:
        slot = name_key(name)
        return next((m for m in self.backend.members(code) if m.slot == slot), None)

    def _by_key(self, code: str, key: object) -> MemberRow | None:
        if not isinstance(key, str):
            return None
        return next((m for m in self.backend.members(code) if codes.matches(key, m.secret)),
                    None)


def _member(row: MemberRow) -> Member:
    return Member(row.name, datetime.fromtimestamp(row.joined, UTC))


def _settings(row: ClassRow) -> ClassSettings:
    try:
        return ClassSettings.from_json(row.settings)
    except (ValueError, TypeError, StoreError) as err:
        raise CorruptTableError(msg("class {code} was stored by another version of the "
                                    "kit and cannot be read", None, code=row.code),
                                row.code, None, None) from err
