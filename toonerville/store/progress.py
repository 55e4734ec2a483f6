"""What the learners of a class did, kept for their teacher alone: `ProgressStore`.

Owns a class's progress as values: each thing a learner does on a page of the class (a
page opened or closed, a Try-it done, a hint asked for, a round's review opened with the
points it found) is one `backend.ProgressRow`, added and never changed, in the store's
database (SQLite or PostgreSQL, the table `progress`, indexed by class). A page records
only for a learner of the class (`record`: the class's roster knows the learner's key);
the teacher reads it all back with the class's teacher key (`board`), in ONE query that
the database folds (a row per learner, kind, page and detail, with a count and the
latest time), however long the class has been going: cheap for 30 learners refreshed
every second or two.

The class itself — its code, its teacher's key, its learners and their keys — is the
roster's (`Roster`: `classes.ClassStore` is one); this module asks it only whether a key
is the teacher's, whose a learner's key is, and who is in the class.

`ClassProgress` is the board as a value: each learner's place (the page and table they
last opened, and whether that page is still open), the Try-its done in lessons 00–07,
the hints used, the reviews opened and the costs they found, and the tables and
tournaments of the class (those its pages are at, those its teacher handed out); `csv()`
writes it out.
"""

from __future__ import annotations

import csv
import io
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..engine.messages import _, msg
from .backend import Backend, ProgressRow
from .errors import SeatError, TeacherKeyError

log = logging.getLogger("toonerville.store")

PAGE_OPENED = "page_opened"
PAGE_CLOSED = "page_closed"
TRY_IT_DONE = "try_it_done"
HINT_USED = "hint_used"
REVIEW_OPENED = "review_opened"
KINDS = frozenset({PAGE_OPENED, PAGE_CLOSED, TRY_IT_DONE, HINT_USED, REVIEW_OPENED})

#: the lessons whose Try-its the dashboard follows, and how many items each Try it has
#: (the numbered list at the end of each notebook: 00 has one)
TRY_ITS: dict[str, int] = {"00": 1, "01": 3, "02": 4, "03": 3, "04": 3, "05": 3, "06": 3,
                           "07": 3}
LESSONS = tuple(TRY_ITS)
TOTAL_TRY_ITS = sum(TRY_ITS.values())
#: the longest page name and detail kept (anything longer is cut)
MAX_TEXT = 80


class Member(Protocol):
    @property
    def name(self) -> str: ...


class Roster(Protocol):
    """Who is in a class: `classes.ClassStore` is one."""

    def is_teacher(self, code: str, teacher_key: str) -> bool: ...

    def learner(self, code: str, learner_key: str) -> Member | None: ...

    def members(self, code: str, teacher_key: str) -> Sequence[Member]: ...


def try_it(lesson: str, item: int) -> str:
    """The detail of a Try-it done: "03:2" (lesson 03, item 2)."""
    return f"{lesson}:{item}"


def lesson_of(page: str) -> str | None:
    """The lesson a page teaches ("03-contracts" → "03"), or None."""
    head = page[:2]
    return head if head in TRY_ITS else None


@dataclass(frozen=True, slots=True)
class LearnerProgress:
    """One learner on the dashboard."""

    name: str
    page: str = ""  # the page last opened ("" none yet)
    place: str = ""  # the table or tournament of that page, if any
    open: bool = False  # is that page still open?
    seen: float = 0.0  # when the learner last did anything (wall-clock seconds; 0 never)
    done: frozenset[str] = frozenset()  # the Try-its done, as `try_it` details
    opened: frozenset[str] = frozenset()  # the lessons whose page they opened
    hints: int = 0
    costs: tuple[int, ...] = ()  # the points each review opened found, latest last

    @property
    def reviews(self) -> int:
        return len(self.costs)

    def done_in(self, lesson: str) -> int:
        """How many of the lesson's Try-its the learner has done."""
        return sum(1 for k in range(1, TRY_ITS[lesson] + 1) if try_it(lesson, k) in self.done)

    @property
    def fraction(self) -> float:
        """The share of lessons 00–07's Try-its done, 0 to 1."""
        return sum(self.done_in(lesson) for lesson in LESSONS) / TOTAL_TRY_ITS


@dataclass(frozen=True, slots=True)
class ClassProgress:
    """A class's dashboard as a value: its learners (by name) and the tables and
    tournaments their pages are at."""

    code: str
    learners: tuple[LearnerProgress, ...]
    places: tuple[str, ...] = ()
    read_at: float = field(default=0.0, compare=False)

    def csv(self) -> str:
        """The dashboard as CSV: a row per learner (page, table, open, each lesson's
        Try-its done, hints, reviews, the costs the reviews found); the headings and the
        yes/no in the language in use (the teacher's page's)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow([_("learner"), _("page"), _("table"), _("page open"),
                         *(_("lesson {lesson} ({n} Try-its)").format(
                             lesson=lesson, n=TRY_ITS[lesson]) for lesson in LESSONS),
                         _("Try-its done"), _("hints"), _("reviews"), _("review costs")])
        yes, no = _("yes"), _("no")
        for p in self.learners:
            writer.writerow([p.name, p.page, p.place, yes if p.open else no,
                             *(p.done_in(lesson) for lesson in LESSONS),
                             sum(p.done_in(lesson) for lesson in LESSONS), p.hints,
                             p.reviews, " ".join(map(str, p.costs))])
        return out.getvalue()


def folded(code: str, names: Iterable[str], rows: Sequence[Sequence[object]],
           read_at: float = 0.0) -> ClassProgress:
    """The board of class `code` from the database's folded rows (`Backend.progress`):
    every learner in `names` appears, with nothing done if they have no row; a learner
    with rows who is no longer in the class is left out. A row of another program (a
    column of the wrong kind) is skipped."""
    members = list(dict.fromkeys(names))
    acc: dict[str, dict[str, object]] = {n: {} for n in members}
    opened: dict[str, tuple[float, str, str]] = {}  # learner → (at, page, place)
    closed: dict[tuple[str, str], float] = {}  # (learner, page) → last closed at
    places: dict[str, float] = {}
    done: dict[str, set[str]] = {n: set() for n in members}
    seen_lessons: dict[str, set[str]] = {n: set() for n in members}
    hints: dict[str, int] = dict.fromkeys(members, 0)
    costs: dict[str, list[tuple[float, int]]] = {n: [] for n in members}
    seen: dict[str, float] = dict.fromkeys(members, 0.0)
    for row in rows:
        try:
            learner, kind, page, detail, count, at = row
        except ValueError:
            continue
        if not (isinstance(learner, str) and isinstance(kind, str) and isinstance(page, str)
                and isinstance(detail, str) and type(count) is int
                and isinstance(at, float | int)):
            log.warning("a progress row of class %s is not the kit's: skipped", code)
            continue
        if learner not in acc:
            continue
        at = float(at)
        seen[learner] = max(seen[learner], at)
        if kind == PAGE_OPENED:
            if learner not in opened or at > opened[learner][0]:
                opened[learner] = (at, page, detail)
            lesson = lesson_of(page)
            if lesson is not None:
                seen_lessons[learner].add(lesson)
            if detail:
                places[detail] = max(places.get(detail, 0.0), at)
        elif kind == PAGE_CLOSED:
            closed[learner, page] = max(closed.get((learner, page), 0.0), at)
        elif kind == TRY_IT_DONE:
            done[learner].add(detail)
        elif kind == HINT_USED:
            hints[learner] += count
        elif kind == REVIEW_OPENED and detail.isdigit():
            costs[learner].extend([(at, int(detail))] * count)
    learners = []
    for name in sorted(members, key=str.casefold):
        at, page, place = opened.get(name, (0.0, "", ""))
        learners.append(LearnerProgress(
            name=name, page=page, place=place,
            open=bool(page) and closed.get((name, page), -1.0) < at, seen=seen[name],
            done=frozenset(done[name]), opened=frozenset(seen_lessons[name]),
            hints=hints[name], costs=tuple(c for _at, c in sorted(costs[name]))))
    return ClassProgress(code, tuple(learners),
                         tuple(sorted(places, key=lambda p: -places[p])), read_at)


def _cut(text: str) -> str:
    return text.strip()[:MAX_TEXT]


class ProgressStore:
    """The progress of classes in one database (see the module's docstring); `roster`
    knows the classes, `wall_clock` gives the time written (tests give their own)."""

    def __init__(self, backend: Backend, roster: Roster,
                 wall_clock: Callable[[], float] = time.time) -> None:
        self.backend = backend
        self.roster = roster
        self.wall_clock = wall_clock
        self._names: dict[tuple[str, str], str] = {}  # (class, learner key) → name

    def learner_name(self, code: str, learner_key: str) -> str:
        """The name of the learner whose key this is in class `code`, or `SeatError`."""
        known = self._names.get((code, learner_key))
        if known is not None:
            return known
        member = self.roster.learner(code, learner_key)
        if member is None:
            raise SeatError(msg("this page's key is not the key of a learner of class "
                                "{code}: ask your teacher for the class's link", None,
                                code=code))
        self._names[code, learner_key] = member.name
        return member.name

    def record(self, code: str, learner_key: str, kind: str, *, page: str,
               detail: str = "") -> ProgressRow:
        """Add what the learner with `learner_key` did in class `code` (one of `KINDS`)
        on `page`; returns the row added. A key that is not a learner's of the class is
        refused (`SeatError`) and nothing is added."""
        if kind not in KINDS:
            raise ValueError(f"not a kind of progress: {kind!r}")
        row = ProgressRow(code, self.learner_name(code, learner_key), _cut(page), kind,
                          _cut(detail), self.wall_clock())
        self.backend.add_progress(row)
        return row

    def board(self, code: str, teacher_key: str) -> ClassProgress:
        """Class `code`'s dashboard, for its teacher only (`TeacherKeyError` otherwise):
        its members from the roster, their progress in one query, the tables and
        tournaments handed out to it."""
        if not self.roster.is_teacher(code, teacher_key):
            raise TeacherKeyError(msg("this is not the teacher's key of class {code}: only "
                                      "the class's teacher sees its progress", None,
                                      code=code))
        names = [m.name for m in self.roster.members(code, teacher_key)]
        board = folded(code, names, self.backend.progress(code), self.wall_clock())
        handed = [h.item for h in self.backend.handouts(code)]  # what the teacher opened
        places = tuple(dict.fromkeys((*board.places, *sorted(set(handed)))))
        return ClassProgress(board.code, board.learners, places, board.read_at)
