"""The live board in the store: a class's questions and every learner's answer to them.

Owns `LiveBoardStore`, which every page of a live board uses (the teacher's, the
projector's, each learner's: one kernel each under Voila), and the values it hands them.
A board belongs to a class (its code); its teacher is whoever the class's `Roster`
(`classes.ClassStore`) says holds the teacher's key, and its learners those the roster
knows by their keys.

Built on the store's own rows, so it runs on SQLite and PostgreSQL alike and waits for a
database that does not answer for a moment (`retrying.RetryingBackend`):

- the board (its questions) is a versioned row of `tournaments`, code `<class>~board`,
  format `BOARD_FORMAT`, the teacher key's digest and the questions as JSON; every change
  (ask, reveal, finish) is a compare-and-set on its version, tried again on a race;
- the answers are the move log of a row of `tables`, code `<class>~answers`: each answer
  is appended as move n + 1 onto the history digest this client has read
  (`Backend.append`, compare-and-append in one transaction, as a table's moves), so two
  learners answering at once are both kept, in one order every page reads alike. A
  learner may answer again: the last answer before the deadline counts. A page polls by
  reading only the answers stored since it last looked.

A question holds its position as an ordinary save (`Game.to_json`, so a deal, a
scenario, a saved game or a review's decision all travel the same way), the seat to
act, what the position is (`Source`, shown in each page's language), when it was asked
and its deadline (wall-clock seconds, so pages served by different machines agree),
and, once the teacher reveals it, the coach's verdict (`coach.verdict.AnswerCost` of
each answer, as plain numbers). An answer after the deadline or after the reveal is
refused; answers are counted up to the earlier of the two.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..engine.messages import msg
from ..engine.names import name_key
from ..engine.saves import MAX_SIZE
from . import codes
from .backend import Backend, TableRow, TournamentRow, chained, first_digest
from .classes import ClassStore, normalise_class_code
from .errors import CorruptTableError, NoSuchTableError, StoreError, TeacherKeyError

BOARD_FORMAT = "toonerville-liveboard/1"
ANSWERS_FORMAT = "toonerville-liveboard-answers/1"
#: the shortest and longest time a question may be open for, in seconds
SHORTEST_S, LONGEST_S = 5, 600
#: the most questions a board holds
MOST_QUESTIONS = 50
#: how many times a write is tried again when another page wrote first
TRIES = 50


def board_code(klass: str) -> str:
    return f"{klass}~board"


def answers_code(klass: str) -> str:
    return f"{klass}~answers"


class Member(Protocol):
    """A learner of a class, as the roster knows them."""

    @property
    def name(self) -> str: ...


class Roster(Protocol):
    """Who is who in a class: the teacher's key, and each learner's key and name (the
    class store, `classes.ClassStore`, by default; a test may give its own)."""

    def is_teacher(self, code: str, teacher_key: str) -> bool: ...

    def learner(self, code: str, learner_key: str) -> Member | None: ...


@dataclass(frozen=True, slots=True)
class Source:
    """Where a question's position comes from: `kind` ("deal", "scenario", "save",
    "review") and its particulars (seed, round, scenario name, learner, turn …)."""

    kind: str
    details: tuple[tuple[str, Any], ...] = ()

    def get(self, key: str, default: Any = None) -> Any:
        return dict(self.details).get(key, default)


@dataclass(frozen=True, slots=True)
class Cost:
    """The coach's price of one answer (plain numbers, `coach.verdict.AnswerCost`):
    points more than the coach's move this round, its 95 % interval, the rounds played
    out; `best` for the coach's own move; `measured`, the worlds' own mean difference
    when the cost stated is a posterior (a board saved before it was kept has None)."""

    answer: str
    cost: float
    low: float
    high: float
    samples: int
    best: bool = False
    measured: float | None = None


@dataclass(frozen=True, slots=True)
class Question:
    number: int  # 1, 2, …
    source: Source
    save: str
    seat: int
    asked: float  # wall-clock seconds
    deadline: float
    revealed: float | None = None
    verdict: tuple[Cost, ...] = ()

    @property
    def closes(self) -> float:
        """When answers stop counting: the deadline, or the reveal if earlier."""
        return self.deadline if self.revealed is None else min(self.deadline, self.revealed)

    def open_at(self, now: float) -> bool:
        return now < self.closes


@dataclass(frozen=True, slots=True)
class Board:
    """A board as stored: its questions in order, and whether the teacher ended it."""

    code: str
    questions: tuple[Question, ...] = ()
    finished: bool = False
    version: int = 0

    @property
    def current(self) -> Question | None:
        return self.questions[-1] if self.questions else None


@dataclass(frozen=True, slots=True)
class Answer:
    """A learner's answer: the move's notation, who (the learner's name, for the
    teacher only) and when (wall-clock seconds)."""

    question: int
    who: str
    name: str
    answer: str
    at: float


@dataclass(frozen=True, slots=True)
class Spread:
    """The answers to one question that count: by answer, how many; and by learner."""

    counts: tuple[tuple[str, int], ...]  # most given first
    by_learner: tuple[tuple[str, str], ...]  # (name, answer), by name

    @property
    def total(self) -> int:
        return sum(n for _a, n in self.counts)


class LiveBoardStore:
    """The live boards of a store (see the module). One object per page (kernel);
    thread-safe. `wall_clock` gives the seconds deadlines are measured in (tests give
    their own)."""

    def __init__(self, backend: Backend, roster: Roster | None = None,
                 wall_clock: Callable[[], float] = time.time) -> None:
        self.backend = backend
        self.roster: Roster = roster if roster is not None else ClassStore(backend)
        self.wall_clock = wall_clock
        self._lock = threading.RLock()
        # class → (answers read, the history digest after them, the answers)
        self._read: dict[str, tuple[int, str, list[Answer]]] = {}

    # -- the teacher's --------------------------------------------------------------
    def _teacher(self, klass: str, teacher_key: str) -> str:
        klass = normalise_class_code(klass)
        if not self.roster.is_teacher(klass, teacher_key):
            raise TeacherKeyError(msg("only the teacher of class {code} may do this: the "
                                      "teacher's key does not match", None, code=klass))
        return klass

    def open_board(self, klass: str, teacher_key: str) -> Board:
        """The class's board, made if it has none yet (any number of times: one board)."""
        klass = self._teacher(klass, teacher_key)
        self.backend.create_table(TableRow(answers_code(klass), ANSWERS_FORMAT, "{}", "{}"))
        state = json.dumps({"questions": [], "finished": False})
        self.backend.create_tournament(TournamentRow(
            board_code(klass), BOARD_FORMAT, codes.digest(teacher_key), state, 0))
        return self.board(klass)

    def ask(self, klass: str, teacher_key: str, save: str, seat: int, source: Source,
            seconds: float) -> Question:
        """Put a new question to the class: the position `save` (a game as saved), seen
        from `seat`, open for `seconds`. The question before it closes."""
        klass = self._teacher(klass, teacher_key)
        if not SHORTEST_S <= seconds <= LONGEST_S:
            raise StoreError(msg("a question is open for {low} to {high} seconds, not "
                                 "{seconds:g}", None, low=SHORTEST_S, high=LONGEST_S,
                                 seconds=seconds))
        if len(save) > MAX_SIZE:
            raise StoreError(msg("this position is too long to send to the class", None))

        def change(board: Board) -> dict[str, Any]:
            if len(board.questions) >= MOST_QUESTIONS:
                raise StoreError(msg("a board holds at most {n} questions: end it and "
                                     "open another", None, n=MOST_QUESTIONS))
            now = self.wall_clock()
            questions = [_question_data(q) for q in board.questions]
            if board.questions and board.questions[-1].revealed is None:
                questions[-1]["revealed"] = now  # the question before closes now
            questions.append({"number": len(board.questions) + 1, "kind": source.kind,
                              "details": dict(source.details), "save": save,
                              "seat": seat, "asked": now, "deadline": now + seconds,
                              "revealed": None, "verdict": []})
            return {"questions": questions, "finished": False}

        return self._change(klass, change).questions[-1]

    def reveal(self, klass: str, teacher_key: str, number: int,
               verdict: Sequence[Cost]) -> Question:
        """Close question `number` and give it the coach's verdict."""
        klass = self._teacher(klass, teacher_key)

        def change(board: Board) -> dict[str, Any]:
            if not 1 <= number <= len(board.questions):
                raise StoreError(msg("there is no question {n} on this board", None,
                                     n=number))
            questions = [_question_data(q) for q in board.questions]
            data = questions[number - 1]
            if data["revealed"] is None:
                data["revealed"] = self.wall_clock()
            data["verdict"] = [_cost_entry(c) for c in verdict]
            return {"questions": questions, "finished": board.finished}

        return self._change(klass, change).questions[number - 1]

    def finish(self, klass: str, teacher_key: str) -> Board:
        """End the board: no question is open any more (the summary stays)."""
        klass = self._teacher(klass, teacher_key)

        def change(board: Board) -> dict[str, Any]:
            questions = [_question_data(q) for q in board.questions]
            if questions and questions[-1]["revealed"] is None:
                questions[-1]["revealed"] = self.wall_clock()
            return {"questions": questions, "finished": True}

        return self._change(klass, change)

    def _change(self, klass: str, change: Callable[[Board], dict[str, Any]]) -> Board:
        for _try in range(TRIES):
            board = self.board(klass)
            state = json.dumps(change(board))
            if self.backend.update_tournament(board_code(klass), state, board.version):
                return _board(klass, state, board.version + 1)
        raise StoreError(msg("the board kept changing under this page: try again", None))

    # -- everyone's ------------------------------------------------------------------
    def board(self, klass: str) -> Board:
        klass = normalise_class_code(klass)
        row = self.backend.tournament(board_code(klass))
        if row is None:
            raise NoSuchTableError(msg("class {code} has no live board yet: the teacher "
                                       "opens it", None, code=klass))
        if row.format != BOARD_FORMAT:
            raise _corrupt(klass, f"its format is {str(row.format)[:40]!r}")
        return _board(klass, row.state, row.version)

    def version(self, klass: str) -> int:
        """The board's version: it goes up with every question, reveal and end."""
        row = self.backend.tournament(board_code(normalise_class_code(klass)))
        return -1 if row is None else row.version

    def learner_name(self, klass: str, learner_key: str) -> str | None:
        member = self.roster.learner(normalise_class_code(klass), learner_key)
        return None if member is None else member.name

    def answer(self, klass: str, learner_key: str, number: int, answer: str) -> Answer:
        """Record `answer` (a move's notation) of the learner with `learner_key` to
        question `number`; refused once the question is closed. The last answer before
        it closes counts."""
        klass = normalise_class_code(klass)
        member = self.roster.learner(klass, learner_key)
        if member is None:
            raise TeacherKeyError(msg("this key is not a key of class {code}: join the "
                                      "class again", None, code=klass))
        board = self.board(klass)
        if not 1 <= number <= len(board.questions):
            raise StoreError(msg("there is no question {n} on this board", None, n=number))
        now = self.wall_clock()
        if number != len(board.questions) or board.finished \
                or not board.questions[-1].open_at(now):
            raise StoreError(msg("time is up for this question: your answer was not "
                                 "counted", None))
        given = Answer(number, codes.digest(learner_key)[:16], member.name, answer, now)
        text = json.dumps({"q": number, "who": given.who, "name": given.name,
                           "answer": answer, "at": now})
        with self._lock:
            for _try in range(TRIES):
                count, history, _seen = self._caught_up(klass)
                if self.backend.append(answers_code(klass), count + 1, text, history):
                    self._caught_up(klass)
                    return given
        raise StoreError(msg("the board kept changing under this page: try again", None))

    def answers(self, klass: str) -> tuple[Answer, ...]:
        """Every answer stored so far, in the order stored (read since last time)."""
        with self._lock:
            return tuple(self._caught_up(normalise_class_code(klass))[2])

    def spread(self, klass: str, number: int, board: Board | None = None) -> Spread:
        """The answers to question `number` that count: each learner's last before the
        question closed."""
        klass = normalise_class_code(klass)
        board = board or self.board(klass)
        question = board.questions[number - 1]
        last: dict[str, Answer] = {}
        for a in self.answers(klass):
            if a.question == number and a.at <= question.closes:
                last[a.who] = a
        counts = Counter(a.answer for a in last.values())
        order = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
        by_learner = sorted(((a.name, a.answer) for a in last.values()),
                            key=lambda p: name_key(p[0]))
        return Spread(tuple(order), tuple(by_learner))

    def my_answer(self, klass: str, learner_key: str, number: int) -> str | None:
        """The learner's answer to question `number` that counts so far (None: none)."""
        who = codes.digest(learner_key)[:16]
        found = None
        for a in self.answers(klass):
            if a.question == number and a.who == who:
                found = a.answer
        return found

    def _caught_up(self, klass: str) -> tuple[int, str, list[Answer]]:
        code = answers_code(klass)
        count, history, seen = self._read.get(klass) or (0, first_digest(code, "{}"), [])
        rows = self.backend.history_from(code, count + 1)
        if not rows and count == 0 and self.backend.table(code) is None:
            raise NoSuchTableError(msg("class {code} has no live board yet: the teacher "
                                       "opens it", None, code=klass))
        seen = list(seen)
        for number, text, digest in rows:
            if number != count + 1 or digest != chained(history, text):
                raise _corrupt(klass, f"answer {number} does not follow the ones before it")
            history = chained(history, text)
            count = number
            seen.append(_answer(klass, number, text))
        self._read[klass] = (count, history, seen)
        return count, history, seen

    def close(self) -> None:
        self.backend.close()


# -- rows ------------------------------------------------------------------------------
def _corrupt(klass: str, why: str) -> CorruptTableError:
    return CorruptTableError(msg("the live board of class {code} cannot be read ({why}); "
                                 "it is left as it is", None, code=klass, why=why),
                             board_code(klass), None, None)


def _question_data(q: Question) -> dict[str, Any]:
    return {"number": q.number, "kind": q.source.kind, "details": dict(q.source.details),
            "save": q.save, "seat": q.seat, "asked": q.asked, "deadline": q.deadline,
            "revealed": q.revealed,
            "verdict": [_cost_entry(c) for c in q.verdict]}


def _cost_entry(c: Cost) -> list[Any]:
    return [c.answer, c.cost, c.low, c.high, c.samples, c.best, c.measured]


def _cost(entry: Sequence[Any]) -> Cost:
    """A verdict's entry as stored: six numbers, or seven with the measured mean."""
    if len(entry) not in (6, 7):
        raise ValueError(f"a verdict entry has {len(entry)} fields, not 6 or 7")
    a, c, lo, hi, n, b, *rest = entry
    measured = rest[0] if rest else None
    return Cost(str(a), float(c), float(lo), float(hi), int(n), bool(b),
                None if measured is None else float(measured))


def _board(klass: str, state: str, version: int) -> Board:
    try:
        data = json.loads(state)
        questions = tuple(
            Question(int(q["number"]), Source(str(q["kind"]),
                                              tuple(sorted(dict(q["details"]).items()))),
                     str(q["save"]), int(q["seat"]), float(q["asked"]),
                     float(q["deadline"]),
                     None if q["revealed"] is None else float(q["revealed"]),
                     tuple(_cost(entry) for entry in q["verdict"]))
            for q in data["questions"])
        return Board(klass, questions, bool(data["finished"]), version)
    except (ValueError, TypeError, KeyError) as err:
        raise _corrupt(klass, str(err)[:120]) from None


def _answer(klass: str, number: int, text: str) -> Answer:
    try:
        data = json.loads(text)
        return Answer(int(data["q"]), str(data["who"]), str(data["name"]),
                      str(data["answer"]), float(data["at"]))
    except (ValueError, TypeError, KeyError):
        raise _corrupt(klass, f"answer {number} is damaged") from None


__all__ = ["ANSWERS_FORMAT", "BOARD_FORMAT", "Answer", "Board", "Cost", "LiveBoardStore",
           "Member", "Question", "Roster", "Source", "Spread"]
