"""The live board: the teacher puts one position to the whole class, every learner
answers from their own page, the projector shows the spread and then the coach's
verdict. `LiveBoardTeacher` and `LiveBoardLearner`, the two parts of page 11.

The teacher's page (`tr-lb-teacher`): a class (opened here, or given by its code and
the teacher's key, `?class=…&teacher=…`), the position — a deal by seed and round, a
named scenario, a saved game, or a costly decision a review finds in a saved game —,
the time the class has, and Ask: with the defaults one click puts a question to the
class (choosing the kind and the time makes three). Its projector part shows the
question, the time left and the spread of the answers as bars (`liveboard_chart`),
counts only; Reveal closes the question and adds the coach's verdict to every bar (the
honest cost of each answer with its interval, in the hint's words: `coach.verdict`),
Next question readies the next position, Summary lists every question. Names are the
teacher's alone: *Show names* opens a list, hidden by default, that the projector
never shows otherwise.

A learner's page (`tr-lb-learner`): the class code (from the join link, `?class=…`) and
a name, Join — or nothing to type with the learner's own class link (`&me=KEY`, the key
page 09's class page keeps in its address); then the question appears from the seat to
act, drawn by the seat view of every table (`seat.SeatView`: draw or take, buy or pass,
a card to discard, a lay-down, by keys as by mouse). A move is not played: it is the
learner's answer, sent to the store (`store.liveboard`), and may be changed until the
time is up; after the reveal the page shows the spread and the coach's verdict too.

Both pages poll the store with the hidden timer of every table page (`ticker`, every
`POLL_MS`), reading only what changed: the board's version and the answers stored since.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Callable
from html import escape
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from ..coach.positions import (
    SCENARIO_NAMES,
    deal_position,
    review_position,
    saved_position,
    scenario_position,
)
from ..coach.review import Mistake, review_round
from ..coach.verdict import class_verdict
from ..engine import actions as A
from ..engine.errors import ToonervilleError
from ..engine.game import Game
from ..engine.messages import N_, _, msg
from ..engine.saves import MAX_SIZE
from ..pages.serverless import no_shared_tables
from ..store import open_store
from ..store.classes import normalise_class_code
from ..store.errors import CorruptTableError
from ..store.liveboard import (
    Board,
    Cost,
    LiveBoardStore,
    Question,
    Roster,
    Source,
)
from ..store.tablestate import public_events
from .base import SHOWN, MessageBox, Part, displayed, translated, translated_button
from .class_choice import CLASS_PARAM, ME_PARAM
from .classroom import table_link
from .liveboard_chart import (
    SpreadChart,
    bars_of,
    names_html,
    question_game,
    source_text,
    summary_html,
)
from .recap import RECAP_SECONDS
from .seat import SeatView
from .seat_model import SeatModel
from .store_place import store_location
from .textbox import capped_area
from .ticker import poll_ticker
from .url import query_params, size_from_url

#: how often a page asks the store for news, in milliseconds
POLL_MS = 400
#: the times a teacher may give a question, in seconds (the default first)
SECONDS = (30, 15, 45, 60, 90, 120, 180)
#: the coach's work for a verdict: worlds that choose its move, (least, most) fresh
#: worlds that price each answer against it (a hint's worlds, `coach_view.HINT_PRICE`,
#: without its cap on moves: a verdict is worked out once for the class, not at a click)
VERDICT_WORLDS, VERDICT_PRICE = 8, (16, 48)
KINDS = (("deal", N_("A deal (seed and round)")), ("scenario", N_("A named position")),
         ("save", N_("A saved game")), ("review", N_("A costly decision from a review")))


def _kind_options() -> list[tuple[str, str]]:
    return [(_(label), kind) for kind, label in KINDS]


def _seconds_options() -> list[tuple[str, int]]:
    return [(_("{n} s").format(n=s), s) for s in SECONDS]


def open_board_store(where: str | Path | None = None) -> LiveBoardStore:
    """The live boards of the class's store (`store_place.store_location`)."""
    return LiveBoardStore(open_store(store_location(where)).backend)


def _html(css: str) -> widgets.HTML:
    html = widgets.HTML()
    html.add_class(css)
    return html


def time_left(question: Question, now: float) -> int:
    return max(0, math.ceil(question.closes - now))


class AnswerSeat(SeatView):
    """The seat view of a live board's question: its moves are answers, and the coach's
    hint and take back are out of reach (the hint would give the answer away; the
    verdict comes after the time is up)."""

    def _show_buttons(self, watching: bool, finished: bool) -> None:
        super()._show_buttons(watching, finished)
        for helper in (self.hint_button, self.undo_button):
            helper.disabled = True
            helper.layout.display = "none"

    def hint(self) -> None:
        self.message.error(msg("no hint during a question: the coach's verdict comes when "
                               "the teacher reveals it", None))

    def take_back(self) -> bool:
        self.hint()
        return False


class _BoardPage(Part, widgets.VBox):  # type: ignore[misc]
    """What both pages share: the store, the message box, the polling timer."""

    store: LiveBoardStore

    def __init__(self, store: LiveBoardStore | None, where: str | Path | None,
                 size: str | None, poll_ms: int) -> None:
        super().__init__()
        size = size or size_from_url()  # the page's ?size= (projector) unless given
        self.size = size
        self.problem: Exception | None = None
        if store is None:
            try:
                store = open_board_store(where)
            except (sqlite3.Error, OSError, ImportError, ToonervilleError) as err:
                self.problem = err
        if store is not None:
            self.store = store
        self.message = MessageBox(size=size)
        self.message.add_class("tr-message")
        self.klass: str | None = None
        self._version = -2
        self._answers = -1
        self._shown: tuple[int, bool] | None = None  # (question, closed) a page shows
        self.ticker = poll_ticker(poll_ms, "tr-lb-poll",
                                  self.message.guard(lambda _c: self._tick()))

    def _tick(self) -> None:
        """One tick of the page's timer: a poll; a board that cannot be read stops the
        timer (its sentence stays on the page) rather than repeat it every tick."""
        try:
            self.poll()
        except CorruptTableError:
            self.ticker.playing = False
            raise

    def _show_fixed(self) -> None:
        """Draw what does not change with the board (a page's own words)."""

    def poll(self) -> bool:
        """One look at the store; True if something changed."""
        raise NotImplementedError

    def _redraw(self) -> None:
        """In another language or size: everything drawn again at once."""
        for part in ("chart", "seat_view"):
            if hasattr(self, part):
                getattr(self, part).size = self.size
        self._show_fixed()
        if getattr(self, "klass", None) is not None:
            self._version = -2
            self._shown = None
            self.poll()

    def _news(self) -> tuple[Board, bool] | None:
        """The board, and whether it or its answers changed since the last look."""
        if self.klass is None:
            return None
        board = self.store.board(self.klass)
        answers = len(self.store.answers(self.klass))
        changed = board.version != self._version or answers != self._answers
        self._version, self._answers = board.version, answers
        return board, changed


class LiveBoardTeacher(_BoardPage):
    """The teacher's page (see the module). `store=` a `LiveBoardStore` (tests),
    `where=` the store's path or URL; `klass`/`teacher_key` a class already open."""

    def __init__(self, store: LiveBoardStore | None = None, *, klass: str | None = None,
                 teacher_key: str | None = None, where: str | Path | None = None,
                 size: str | None = None, poll_ms: int = POLL_MS,
                 clock: Callable[[], float] | None = None) -> None:
        super().__init__(store, where, size, poll_ms)
        self.teacher_key: str | None = None
        self.mistakes: tuple[Mistake, ...] = ()
        self._review_game: Game | None = None
        self._clock = clock
        self._build()
        self.add_class("tr-lb-teacher")
        if self.problem is not None:
            self.message.error(no_shared_tables(self.problem))
            self.class_row.layout.display = "none"
            return
        params = query_params()
        klass = klass or params.get(CLASS_PARAM)
        teacher_key = teacher_key or params.get("teacher")
        if klass and teacher_key:
            self.message.guard(self.take_class)(klass, teacher_key)
        else:
            self.message.info(msg("open a class for the live board: your learners join "
                                  "it with the link this page shows", None))

    @property
    def roster(self) -> Roster:
        return self.store.roster

    def _now(self) -> float:
        return (self._clock or self.store.wall_clock)()

    # -- building ------------------------------------------------------------------
    def _build(self) -> None:
        guard = self.message.guard
        self.open_class_button = translated_button(
            N_("Open a class"), "tr-lb-open-class",
            N_("A new class for the live board: its code and your teacher's key"),
            owner=self)
        self.open_class_button.on_click(guard(lambda _b: self.open_class()))
        self.class_name = self.texts(widgets.Text(value=_("Class"),
                                                  layout=widgets.Layout(width="16em")),
                                     description=N_("Class"))
        self.class_name.add_class("tr-lb-class-name")
        self.class_info = _html("tr-lb-class-info")
        self.class_row = widgets.VBox([widgets.HBox([self.class_name,
                                                     self.open_class_button]),
                                       self.class_info])
        # the position
        self.kind = self.texts(widgets.Dropdown(options=_kind_options(), value="scenario",
                                                layout=widgets.Layout(width="auto")),
                               options=_kind_options, description=N_("Position"))
        self.kind.add_class("tr-lb-kind")
        self.watch(self.kind, guard(lambda _c: self._show_kind()))
        self.seed = self.texts(widgets.BoundedIntText(value=1, min=0, max=2**31 - 1,
                                                      layout=widgets.Layout(width="12em")),
                               description=N_("Seed"))
        self.seed.add_class("tr-lb-seed")
        self.round = self.texts(widgets.BoundedIntText(value=1, min=1, max=11,
                                                       layout=widgets.Layout(width="10em")),
                                description=N_("Round"))
        self.round.add_class("tr-lb-round")
        self.moves_in = self.texts(widgets.BoundedIntText(
            value=0, min=0, max=400, layout=widgets.Layout(width="14em")),
            description=N_("Moves into it"))
        self.moves_in.add_class("tr-lb-moves")
        self.deal_row = widgets.HBox([self.seed, self.round, self.moves_in])
        self.scenario = self.texts(widgets.Dropdown(options=list(SCENARIO_NAMES),
                                                    value="roundend",
                                                    layout=widgets.Layout(width="auto")),
                                   description=N_("Scenario"))
        self.scenario.add_class("tr-lb-scenario")
        #: a whole saved game, up to the longest one a save may be (pasted, or a file)
        self.save_text = self.texts(capped_area(MAX_SIZE, self.message, css="tr-lb-save",
                                                height="6em"),
                                    placeholder=N_("Paste a saved game here (the text of "
                                                   "its .json file)"))
        self.upload = self.texts(widgets.FileUpload(accept=".json", multiple=False),
                                 description=N_("Load a file"))
        self.upload.add_class("tr-lb-upload")
        self.upload.observe(guard(self._uploaded), "value")
        self.review_seat = self.texts(widgets.BoundedIntText(
            value=0, min=0, max=4, layout=widgets.Layout(width="10em")),
            description=N_("Seat"))
        self.review_round = self.texts(widgets.BoundedIntText(
            value=1, min=1, max=11, layout=widgets.Layout(width="10em")),
            description=N_("Round"))
        self.find_button = translated_button(
            N_("Find costly decisions"), "tr-lb-find",
            N_("The coach reviews this seat's round of the saved game"), owner=self)
        self.find_button.on_click(guard(lambda _b: self.find_mistakes()))
        self.mistake = self.texts(widgets.Dropdown(options=[],
                                                   layout=widgets.Layout(width="auto")),
                                  description=N_("Decision"))
        self.mistake.add_class("tr-lb-mistake")
        self.review_row = widgets.HBox([self.review_seat, self.review_round,
                                        self.find_button, self.mistake],
                                       layout=widgets.Layout(flex_flow="row wrap"))
        self.save_row = widgets.VBox([self.upload, self.save_text])
        self.seconds = self.texts(widgets.Dropdown(options=_seconds_options(), value=30,
                                                   layout=widgets.Layout(width="auto")),
                                  options=_seconds_options, description=N_("Time"))
        self.seconds.add_class("tr-lb-seconds")
        self.ask_button = translated_button(
            N_("Ask the class"), "tr-lb-ask",
            N_("Show this position on every learner's page, from the seat to act"),
            owner=self, button_style="primary")
        self.ask_button.on_click(guard(lambda _b: self.ask()))
        self.picker = widgets.VBox([
            self.kind, self.deal_row, self.scenario, self.save_row, self.review_row,
            widgets.HBox([self.seconds, self.ask_button])])
        self.picker.add_class("tr-lb-picker")
        # the projector's part: counts, never names
        self.question_title = _html("tr-lb-question")
        self.clock_text = _html("tr-lb-clock")
        self.chart = SpreadChart(self.size)
        self.reveal_button = translated_button(
            N_("Reveal the verdict"), "tr-lb-reveal",
            N_("Close the question and show what each answer costs, by the coach"),
            owner=self)
        self.reveal_button.on_click(guard(lambda _b: self.reveal()))
        self.next_button = translated_button(
            N_("Next question"), "tr-lb-next", N_("Ready the next position to ask"),
            owner=self)
        self.next_button.on_click(guard(lambda _b: self.next_question()))
        self.summary_button = translated_button(
            N_("Summary"), "tr-lb-summary",
            N_("Every question so far: the spread, the coach's move, who found it"),
            owner=self)
        self.summary_button.on_click(guard(lambda _b: self.show_summary()))
        self.projector = widgets.VBox([
            self.question_title, self.clock_text, self.chart,
            widgets.HBox([self.reveal_button, self.next_button, self.summary_button])],
            layout=widgets.Layout(display="none"))
        self.projector.add_class("tr-lb-projector")
        self.summary = _html("tr-lb-summary-view")
        # the teacher's alone
        self.names_toggle = self.texts(widgets.ToggleButton(value=False),
                                       description=N_("Show names (teacher only)"))
        self.names_toggle.add_class("tr-lb-names-toggle")
        self.watch(self.names_toggle, guard(lambda _c: self._show_names()))
        self.names = _html("tr-lb-names")
        self.names.layout.display = "none"
        self.board_part = widgets.VBox([self.picker, self.projector, self.summary,
                                        self.names_toggle, self.names],
                                       layout=widgets.Layout(display="none"))
        self.children = [self.ticker, self.class_row, self.message, self.board_part]
        self._show_kind()

    def _show_kind(self) -> None:
        kind = self.kind.value
        self.deal_row.layout.display = displayed(kind == "deal")
        self.scenario.layout.display = displayed(kind == "scenario")
        self.save_row.layout.display = displayed(kind in ("save", "review"))
        self.review_row.layout.display = displayed(kind == "review")

    def _uploaded(self, change: dict[str, Any]) -> None:
        """A saved game given as a file: its text goes in the box."""
        files = change["new"]
        if files:
            content = files[0]["content"]
            data = content.tobytes() if hasattr(content, "tobytes") else bytes(content)
            self.save_text.value = data[:MAX_SIZE].decode(errors="replace")

    # -- the class -----------------------------------------------------------------
    def open_class(self, name: str | None = None) -> str:
        """Open a class called `name` (the name box's by default): its code and the
        teacher's key, and its board."""
        opener = getattr(self.roster, "open_class", None)
        if opener is None:
            raise ToonervilleError(msg("open a class first", None))
        opened = opener(str(self.class_name.value if name is None else name))
        self.take_class(opened.code, opened.teacher_key)
        return str(opened.code)

    def take_class(self, klass: str, teacher_key: str) -> None:
        board = self.store.open_board(klass, teacher_key)
        self.klass, self.teacher_key = board.code, teacher_key
        self._show_fixed()
        self.class_row.children = [self.class_info]
        self.board_part.layout.display = SHOWN
        self.message.ok(msg("class {code} is open: ask the first question", None,
                            code=board.code))
        self.poll()
        self.ticker.playing = True
        self.ask_button.focus()

    def _show_fixed(self) -> None:
        """The class's code, its join link and the teacher's own link."""
        if self.klass is None or self.teacher_key is None:
            return
        code = self.klass
        join = table_link(**{CLASS_PARAM: code})
        mine = table_link(**{CLASS_PARAM: code, "teacher": self.teacher_key})
        self.class_info.value = _(
            "Class <b>{code}</b> · learners join with "
            '<a class="tr-lb-join-link" href="{join}" target="_blank">this link</a> '
            "(or the code {code}) · "
            '<a class="tr-lb-teacher-link" href="{mine}" target="_blank">your teacher’s '
            "link</a> (keep it to yourself: it gives you this board back)").format(
            code=escape(code), join=escape(join), mine=escape(mine))

    # -- questions -----------------------------------------------------------------
    def position(self) -> tuple[Game, int, Source]:
        """The position the picker shows, the seat to act, and where it comes from."""
        kind = self.kind.value
        if kind == "deal":
            seed, rnd, moves = int(self.seed.value), int(self.round.value), \
                int(self.moves_in.value)
            game, seat = deal_position(seed, rnd, moves)
            return game, seat, Source("deal", (("moves", moves), ("round", rnd),
                                               ("seed", seed)))
        if kind == "scenario":
            game, seat = scenario_position(str(self.scenario.value))
            return game, seat, Source("scenario", (("name", self.scenario.value),))
        if kind == "save":
            game, seat = saved_position(self.save_text.value)
            return game, seat, Source("save")
        if self._review_game is None or self.mistake.value is None:
            raise ToonervilleError(msg("paste a saved game, then click Find costly "
                                       "decisions and choose one", None))
        chosen = self.mistakes[int(self.mistake.value)]
        game, seat = review_position(self._review_game, chosen)
        return game, seat, Source("review", (("round", chosen.round_number),
                                             ("turn", chosen.turn)))

    def find_mistakes(self) -> tuple[Mistake, ...]:
        """The coach's review of the chosen seat's round of the pasted game."""
        game, _seat = saved_position(self.save_text.value) if self.save_text.value \
            else (None, 0)
        if game is None:
            raise ToonervilleError(msg("paste a saved game, then click Find costly "
                                       "decisions and choose one", None))
        seat, rnd = int(self.review_seat.value), int(self.review_round.value)
        if seat >= game.players:
            raise ToonervilleError(msg("this game has seats 0 to {last}", None,
                                       last=game.players - 1))
        self.message.info(msg("the coach is reviewing the round…", None))
        self.mistakes = review_round(game, seat, rnd)
        self._review_game = game
        self.mistake.options = [(f"{m.turn}: {m.made_words} → {m.better_words}", i)
                                for i, m in enumerate(self.mistakes)]
        self.mistake.value = 0 if self.mistakes else None
        if not self.mistakes:
            self.message.info(msg("the coach found no costly decision in this round", None))
        else:
            self.message.ok(msg("the coach found {n} costly decisions: choose one, then "
                                "ask", None, n=len(self.mistakes)))
        return self.mistakes

    def ask(self, seconds: int | None = None) -> Question:
        """Put the picker's position to the class for `seconds` (the picker's time)."""
        if self.klass is None or self.teacher_key is None:
            raise ToonervilleError(msg("open a class first", None))
        game, seat, source = self.position()
        question = self.store.ask(self.klass, self.teacher_key, game.to_json(indent=None),
                                  seat, source, int(seconds or self.seconds.value))
        self.summary.value = ""
        self.message.ok(msg("question {n} is on every learner's page", None,
                            n=question.number))
        self.poll()
        self.reveal_button.focus()
        return question

    def reveal(self) -> Question:
        """Close the current question and add the coach's verdict on each answer."""
        board = self._board()
        question = board.current
        if question is None:
            raise ToonervilleError(msg("ask a question first", None))
        spread = self.store.spread(board.code, question.number, board)
        game = question_game(question)
        answers = [A.parse_action(a, game.rules) for a, _n in spread.counts]
        self.message.info(msg("the coach is playing the round out for each answer…", None))
        costs = class_verdict(game, question.seat, answers, worlds=VERDICT_WORLDS,
                              price=VERDICT_PRICE)
        verdict = [Cost(c.action.notation(), c.cost, c.low, c.high, c.samples, c.best,
                        c.measured) for c in costs]
        assert self.teacher_key is not None
        done = self.store.reveal(board.code, self.teacher_key, question.number, verdict)
        self.message.ok(msg("the verdict is on every page", None))
        self.poll()
        self.next_button.focus()
        return done

    def next_question(self) -> None:
        """Ready the next position: the next scenario, or the deal's next seed."""
        kind = self.kind.value
        if kind == "scenario":
            names = list(SCENARIO_NAMES)
            self.scenario.value = names[(names.index(self.scenario.value) + 1) % len(names)]
        elif kind == "deal":
            self.seed.value = int(self.seed.value) + 1
        self.picker.layout.display = SHOWN
        self.ask_button.focus()

    def show_summary(self) -> str:
        """The summary of every question so far (and the board stays open)."""
        board = self._board()
        rows = [(q, self.store.spread(board.code, q.number, board)) for q in board.questions]
        shown = summary_html(rows, self.size)
        self.summary.value = shown
        return shown

    def _board(self) -> Board:
        if self.klass is None:
            raise ToonervilleError(msg("open a class first", None))
        return self.store.board(self.klass)

    def _show_names(self) -> None:
        self.names.layout.display = displayed(bool(self.names_toggle.value))

    # -- polling -------------------------------------------------------------------
    def poll(self) -> bool:
        news = self._news()
        if news is None:
            return False
        board, changed = news
        question = board.current
        if question is not None:
            left = time_left(question, self._now())
            self.clock_text.value = _("{n} s left").format(n=left) if left else \
                _("Time is up")
        if not changed:
            return False
        self.projector.layout.display = displayed(question is not None)
        if question is None:
            return True
        spread = self.store.spread(board.code, question.number, board)
        game = question_game(question)
        self.question_title.value = _("<b>Question {n}</b>: {source} · {name} to act").format(
            n=question.number, source=source_text(question.source),
            name=escape(game.names[question.seat]))
        self.chart.show(bars_of(spread, question), spread.total)
        self.names.value = names_html(spread, question)
        revealed = question.revealed is not None
        self.reveal_button.disabled = bool(question.verdict)
        self.reveal_button.button_style = "" if revealed else "primary"
        self.next_button.button_style = "primary" if revealed else ""
        return True


class LiveBoardLearner(_BoardPage):
    """A learner's page (see the module). `store=` a `LiveBoardStore` (tests),
    `where=` the store's path or URL; `klass`/`key` a learner already in the class."""

    def __init__(self, store: LiveBoardStore | None = None, *, klass: str | None = None,
                 key: str | None = None, where: str | Path | None = None,
                 size: str | None = None, poll_ms: int = POLL_MS,
                 clock: Callable[[], float] | None = None) -> None:
        super().__init__(store, where, size, poll_ms)
        self.key: str | None = None
        self.name: str | None = None
        self._clock = clock
        self._game: Game | None = None
        self._question: Question | None = None
        self._build()
        self.add_class("tr-lb-learner")
        if self.problem is not None:
            self.message.error(no_shared_tables(self.problem))
            self.join_row.layout.display = "none"
            return
        params = query_params()
        # the class's own learner link (`?class=…&me=…`, page 09's) finds the learner too
        klass = klass or params.get(CLASS_PARAM)
        key = key or params.get(ME_PARAM) or params.get("key")
        if klass and key:
            self.message.guard(self.rejoin)(klass, key)
        elif klass:
            self.class_text.value = klass
            self.message.info(msg("type your name, then click Join", None))
        else:
            self.message.info(msg("type your class's code (your teacher shows it) and your "
                                  "name, then click Join", None))

    def _now(self) -> float:
        return (self._clock or self.store.wall_clock)()

    def _build(self) -> None:
        guard = self.message.guard
        self.class_text = translated(widgets.Text(layout=widgets.Layout(width="14em")),
                                     owner=self, description=N_("Class"),
                                     placeholder=N_("the class code"))
        self.class_text.add_class("tr-lb-class")
        self.name_text = translated(widgets.Text(layout=widgets.Layout(width="16em")),
                                    owner=self, description=N_("Your name"))
        self.name_text.add_class("tr-lb-name")
        self.join_button = translated_button(N_("Join"), "tr-lb-join",
                                             N_("Join the class's live board"), owner=self,
                                             button_style="primary")
        self.join_button.on_click(guard(lambda _b: self.join()))
        self.join_row = widgets.HBox([self.class_text, self.name_text, self.join_button],
                                     layout=widgets.Layout(flex_flow="row wrap"))
        self.status = _html("tr-lb-status")
        self.seat_view = AnswerSeat(self._answer, self.message, size=self.size)
        #: the question's seat, which the seat view follows (as every table page's does);
        #: the model says how long a recap stays (a countdown given to the view was dropped
        #: when it began to follow the model)
        self.question_seat = SeatModel(recap_seconds=RECAP_SECONDS)
        self.seat_view.follow(self.question_seat)
        self.seat_view.layout.display = "none"
        self.mine = _html("tr-lb-mine")
        self.chart = SpreadChart(self.size)
        self.chart.layout.display = "none"
        self.children = [self.ticker, self.join_row, self.message, self.status,
                         self.mine, self.seat_view, self.chart]

    # -- joining -------------------------------------------------------------------
    def join(self, klass: str | None = None, name: str | None = None) -> None:
        """Join class `klass` as `name` (the boxes' values by default)."""
        klass = str(self.class_text.value if klass is None else klass).strip()
        name = str(self.name_text.value if name is None else name)
        joiner = getattr(self.store.roster, "join", None)
        if joiner is None:
            raise ToonervilleError(msg("open a class first", None))
        key = joiner(klass, name)
        self.rejoin(klass, key)

    def rejoin(self, klass: str, key: str) -> None:
        name = self.store.learner_name(klass, key)
        if name is None:
            raise ToonervilleError(msg("this key is not a key of class {code}: join the "
                                       "class again", None, code=klass))
        self.klass, self.key, self.name = normalise_class_code(klass), key, name
        self.join_row.layout.display = "none"
        link = table_link(**{CLASS_PARAM: self.klass, ME_PARAM: key})
        self.message.ok(msg("welcome, {name}: wait for your teacher's question", None,
                            name=name))
        self.status.value = _("Class {code} · {name} · "
                              '<a href="{link}" target="_blank">your link back</a>').format(
            code=escape(self.klass), name=escape(name), link=escape(link))
        self._status_head = self.status.value
        self.poll()
        self.ticker.playing = True

    # -- answering -----------------------------------------------------------------
    def _answer(self, action: A.Action) -> bool:
        question = self._question
        if question is None or self.klass is None or self.key is None:
            raise ToonervilleError(msg("there is no question open now", None))
        self.store.answer(self.klass, self.key, question.number, action.notation())
        self._show_mine(question)
        self.message.ok(msg("your answer is in: you may change it until the time is up",
                            None))
        return False  # not played: the position stays for a change of mind

    def answer(self, notation: str) -> None:
        """Answer with a move's notation (tests; the seat view's buttons do the same)."""
        assert self._game is not None
        self._answer(A.parse_action(notation, self._game.rules))

    def _show_mine(self, question: Question) -> None:
        assert self.klass is not None and self.key is not None and self._game is not None
        mine = self.store.my_answer(self.klass, self.key, question.number)
        from .liveboard_chart import answer_words

        self.mine.value = "" if mine is None else _("Your answer: <b>{answer}</b>").format(
            answer=escape(answer_words(mine, self._game, question.seat)))

    # -- polling -------------------------------------------------------------------
    def poll(self) -> bool:
        news = self._news()
        if news is None:
            return False
        board, changed = news
        question = board.current
        now = self._now()
        open_now = question is not None and question.open_at(now) and not board.finished
        if question is not None:
            left = time_left(question, now)
            head = getattr(self, "_status_head", "")
            clock = _("Question {n} · {s} s left").format(n=question.number, s=left) \
                if open_now else _("Question {n} · time is up").format(n=question.number)
            self.status.value = f"{head}<br><b class=\"tr-lb-time\">{clock}</b>"
        key = None if question is None else (question.number, question.revealed is not None
                                             or not open_now)
        if key == self._shown and not (changed and question is not None
                                       and question.verdict):
            return False
        self._shown = key
        if question is None:
            return True
        self._show_question(question, open_now)
        return True

    def _show_question(self, question: Question, open_now: bool) -> None:
        fresh = self._question is None or self._question.number != question.number
        self._question = question
        if fresh:
            self._game = question_game(question)
            self.seat_view.begin(public_events(self._game.history))
        game = self._game
        assert game is not None
        seat = question.seat
        self.seat_view.layout.display = SHOWN
        self.question_seat.show_seat(
            game.view(seat), public_events(game.history), bots={}, away=(),
            take_back=(False, ""), legal=game.legal_actions(seat) if open_now else [],
            number=game.moves_made, finished=False, rules=game.rules)
        self._show_mine(question)
        if fresh and open_now:
            self.message.info(msg("a new question: what would you do in {name}'s place?",
                                  None, name=game.names[seat]))
            self.seat_view.focus_next()
        if question.verdict:
            assert self.klass is not None
            spread = self.store.spread(self.klass, question.number)
            self.chart.show(bars_of(spread, question), spread.total)
            self.chart.layout.display = SHOWN
        else:
            self.chart.layout.display = "none"

    def __repr__(self) -> str:
        return f"LiveBoardLearner({self.klass!r}, {self.name!r})"
