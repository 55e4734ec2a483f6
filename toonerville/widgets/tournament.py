"""A tournament a teacher runs (T22, H11): the teacher's desk and a learner's seat, page 10.

`TeacherDesk` is the teacher's page over `store.TournamentDesk`: the learners' names (bots
fill the rest), the number of rounds, the house rules (`HouseRulesPanel`), *Start*. It
shows the tournament's code for the class and the teacher's key once (the code and the
key give the page back after a reload or a restart: the tournament lives in the store).
Each round the kit seats everyone at tables of 3–5 by H11 (`Rules.seating`), each table a
shared table in the store; the page moves the bots at every table, lists the tables and
shows the next round's seating when all of them have finished (and seats it by itself,
unless the teacher unticks *Next round by itself*). The live master sheet ranks everyone
(equal totals share a place) with each player's table and points per round; it downloads
as CSV and prints on one page (the page's print style shows the sheet alone). *For my
class* (`for_class`: a class of 09's class desk, its code and teacher's key, which the
teacher's browser fills in) lists the class's learners at its bot level and away limit,
and the start hands each learner their key: their class page joins by itself.

`TournamentSeat`, a learner's page, lives in `tournament_seat` and the pieces both pages
use (names check, master sheet, limits) in `tournament_parts`.

Both pages poll with a hidden `ipywidgets.Play` (`ticker.poll_ticker`; no thread:
Pyodide has none). Stable CSS
hooks for tests: `tt-learners`, `tt-bots`, `tt-rounds`, `tt-start`, `tt-code`, `tt-key`,
`tt-reopen-code`, `tt-reopen-key`, `tt-reopen`, `tt-class-code`, `tt-class-key`,
`tt-for-class`, `tt-status`, `tt-tables`, `tt-next`,
`tt-next-round`, `tt-auto`, `tt-sheet`, `tt-csv`, `tt-message`, `tt-poll` (the learner's
page's are in `tournament_seat`).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from ..engine.errors import ToonervilleError
from ..engine.messages import N_, _, msg
from ..engine.names import name_key
from ..engine.rules import Rules
from ..engine.tournament import Tournament, sheet_csv
from ..pages.serverless import no_tournament
from ..store import ClassStore, TableStore, TournamentDesk
from ..store.seats import AWAY_AFTER, LIMITS
from .base import SHOWN, MessageBox, size_style, translated, translated_button
from .level_view import LevelGuide, give_seat_options, level_options
from .settings import HouseRulesPanel
from .ticker import poll_ticker
from .tournament_parts import (
    BOT_MOVES_PER_TICK,
    MAX_KEY_TEXT,
    MAX_NAMES_TEXT,
    MAX_PLAYERS,
    PRINT_CSS,
    capped,
    check_names,
    csv_link,
    master_sheet_html,
    no_store,
    open_or_problem,
    split_names,
    text_box,
)

#: how often the teacher's page looks at the tables, in milliseconds
TEACHER_POLL_MS = 1000



class TeacherDesk(widgets.VBox):  # type: ignore[misc]
    """The teacher's page of a tournament: set it up, start it, follow every table, the
    master sheet. `store=` gives a `TableStore` (tests), `where=` a path or URL; the
    tournament in progress is `.code` (None before the start), the desk `.desk`."""

    def __init__(self, store: TableStore | None = None, *, where: str | Path | None = None,
                 size: str = "normal", poll_ms: int = TEACHER_POLL_MS) -> None:
        opened, problem = open_or_problem(store, where)
        self.desk = TournamentDesk(opened) if opened is not None else None
        self.code: str | None = None
        self._key: str | None = None
        self._size = size
        self._shown: tuple[Any, ...] = ()
        #: the (round, learner) stand-ins the teacher has been told of
        self._told: set[tuple[int, str]] = set()
        self.csv = ""
        #: the class this tournament is for (`for_class`): its learners get their keys
        self._class: tuple[ClassStore, str, str] | None = None
        self._build(poll_ms)
        super().__init__(children=[size_style(), widgets.HTML(PRINT_CSS), self.ticker,
                                   self.setup, self.message, self.running])
        self.add_class("tt-teacher")
        if problem is not None:
            self.setup.layout.display = "none"
            no_store(self.message, problem)
            return
        self.message.info(msg("write your learners' names, choose the house rules, then "
                              "click Start", "T22"))

    def __repr__(self) -> str:
        return f"TeacherDesk(code={self.code!r})"

    # -- building the page -----------------------------------------------------------
    def _build(self, poll_ms: int) -> None:
        self.message = MessageBox(size=self._size)
        self.message.add_class("tt-message")
        guard = self.message.guard
        self.learners = translated(widgets.Textarea(
            layout=widgets.Layout(width="32em", height="8em"),
            style={"description_width": "initial"}),
            description=N_("Learners"), placeholder=N_("one name per line, or Ann, Bob, Cat"))
        self.learners.add_class("tt-learners")
        self.learners.observe(guard(self._names_typed), "value")
        self.bots = translated(widgets.BoundedIntText(
            value=0, min=0, max=MAX_PLAYERS, layout=widgets.Layout(width="10em")),
            description=N_("Bots"))
        self.bots.add_class("tt-bots")
        self.bot_kind = translated(widgets.Dropdown(
            options=level_options(), value="heuristic", layout=widgets.Layout(width="auto")),
            description=N_("Bots play"), options=level_options)
        self.bot_kind.add_class("tt-bot-kind")
        self.rounds = translated(widgets.BoundedIntText(
            value=11, min=1, max=11, layout=widgets.Layout(width="10em")),
            description=N_("Rounds"))
        self.rounds.add_class("tt-rounds")
        self.away_after = translated(widgets.BoundedIntText(
            value=int(AWAY_AFTER), min=int(LIMITS[0]), max=int(LIMITS[1]),
            style={"description_width": "initial"}, layout=widgets.Layout(width="auto")),
            description=N_("Away after (seconds)"))
        self.away_after.add_class("tt-away-after")
        self.house_rules = HouseRulesPanel(size=self._size)
        rules_box = widgets.Accordion(children=[self.house_rules])
        rules_box.set_title(0, _("House rules (H11 is the seating between rounds)"))
        rules_box.selected_index = None
        self.start_button = translated_button(N_("Start the tournament"), "tt-start", N_(
            "Seat round 1: everyone at tables of 3 to 5, bots in the seats no learner "
            "fills"))
        self.start_button.on_click(guard(lambda _b: self.start()))
        self.reopen_code = text_box("tt-reopen-code", N_("Tournament code"), "KXR4PT", "16em")
        self.reopen_key = text_box("tt-reopen-key", N_("Teacher's key"), "", "24em")
        self.reopen_button = translated_button(N_("Open my tournament"), "tt-reopen", N_(
            "Back to a tournament you started, after a reload or a restart: its code and "
            "your teacher's key"))
        self.reopen_button.on_click(guard(lambda _b: self.reopen()))
        # for a class (09's class desk): its code and the teacher's key, which the
        # teacher's browser fills in (resume.js) where it keeps them
        self.class_code = text_box("tt-class-code", N_("Class code"), "KXR4PT", "14em")
        self.class_key = translated(widgets.Password(
            layout=widgets.Layout(width="20em"), style={"description_width": "initial"}),
            description=N_("Teacher's key"))
        self.class_key.add_class("tt-class-key")
        self.class_button = translated_button(N_("For my class"), "tt-for-class", N_(
            "The learners of your class, at its bot level and away limit; at the start "
            "each learner's class page joins the tournament"))
        self.class_button.on_click(guard(lambda _b: self.for_class()))
        self.setup = widgets.VBox([
            widgets.HBox([self.class_code, self.class_key, self.class_button]),
            self.learners, widgets.HBox([self.bots, self.bot_kind, self.rounds,
                                         self.away_after]),
            LevelGuide(self._size).follow(self.bot_kind),
            rules_box, self.start_button,
            widgets.HTML(f"<b>{escape(_('Or, to get your page back:'))}</b>"),
            widgets.HBox([self.reopen_code, self.reopen_key, self.reopen_button])])
        self.setup.add_class("tt-setup")
        # the tournament in progress
        self.code_view = widgets.HTML()
        self.code_view.add_class("tt-code")
        self.key_view = widgets.HTML()
        self.key_view.add_class("tt-key")
        self.status = widgets.HTML()
        self.status.add_class("tt-status")
        self.tables_view = widgets.HTML()
        self.tables_view.add_class("tt-tables")
        self.next_view = widgets.HTML()
        self.next_view.add_class("tt-next")
        self.next_button = translated_button(N_("Seat the next round"), "tt-next-round", N_(
            "Every table has finished: seat the next round by H11"))
        self.next_button.on_click(guard(lambda _b: self.next_round()))
        self.auto = translated(widgets.Checkbox(value=True, indent=False),
                               description=N_("Next round by itself"))
        self.auto.add_class("tt-auto")
        self.sheet_view = widgets.HTML()
        self.sheet_view.add_class("tt-sheet")
        self.csv_view = widgets.HTML()
        self.csv_view.add_class("tt-csv")
        self.print_view = widgets.HTML(
            '<button type="button" class="tt-print" onclick="window.print()">'
            f'{escape(_("Print the master sheet"))}</button>')
        self.give_name = translated(widgets.Dropdown(
            options=[], layout=widgets.Layout(width="auto")), description=N_("Learners"))
        self.give_to = translated(widgets.Dropdown(
            options=give_seat_options(), value="heuristic",
            layout=widgets.Layout(width="auto")), options=give_seat_options)
        self.give_button = translated_button(N_("Give the seat"), "tt-give", N_(
            "For a learner who cannot come back: a bot plays the seat, or a new learner "
            "takes it with the link shown"))
        self.give_button.on_click(guard(lambda _b: self.give_seat()))
        self.running = widgets.VBox([
            self.code_view, self.key_view, self.status, self.tables_view, self.next_view,
            widgets.HBox([self.next_button, self.auto]),
            widgets.HBox([self.give_name, self.give_to, self.give_button]), self.sheet_view,
            widgets.HBox([self.csv_view, self.print_view])],
            layout=widgets.Layout(display="none"))
        self.running.add_class("tt-running")
        self.ticker = poll_ticker(poll_ms, "tt-poll", guard(lambda _c: self._tick()))

    def _names_typed(self, change: Any) -> None:
        text = change["new"]
        if isinstance(text, str) and len(text) > MAX_NAMES_TEXT:
            self.learners.value = text[:MAX_NAMES_TEXT]
            self.message.error(msg("the list of learners takes at most {k} characters; the "
                                   "rest was cut off", "T22", k=MAX_NAMES_TEXT))

    # -- the teacher's actions -------------------------------------------------------
    def _desk(self) -> TournamentDesk:
        if self.desk is None:
            raise ToonervilleError(no_tournament(None))
        return self.desk

    def for_class(self, classes: ClassStore | None = None, code: str | None = None,
                  teacher_key: str | None = None) -> None:
        """Open the tournament for class `code` (its teacher's key; by default the "For
        my class" boxes'): the learners are the class's, the bots play at the class's
        level with its away limit, and at the start each learner's key reaches their
        class page, which joins them with no typing (`ClassStore.hand_out`)."""
        if classes is None:
            classes = ClassStore(self._desk().store.backend)
        code = str(self.class_code.value if code is None else code).strip()
        teacher_key = str(self.class_key.value if teacher_key is None else teacher_key
                          ).strip()
        members = classes.members(code, teacher_key)  # refused without the key
        settings = classes.settings(code)
        self._class = (classes, code, teacher_key)
        self.class_code.value, self.class_key.value = code.upper(), teacher_key
        self.learners.value = "\n".join(m.name for m in members)
        self.bot_kind.value = settings.bot_level
        self.away_after.value = int(settings.away_limit)
        self.message.ok(msg("the learners of class {name} are listed: choose the rules, "
                            "then click Start the tournament", "T22",
                            name=classes.class_name(code)))

    def start(self, names: Sequence[str] | None = None, *, bots: int | None = None,
              rounds: int | None = None, rules: Rules | None = None,
              seed: int | None = None) -> str:
        """Open the tournament (the widgets' values by default), seat round 1 and return
        its code. The teacher's key is shown once on the page."""
        desk = self._desk()
        if self.code is not None:
            raise ToonervilleError(msg("this page already runs tournament {code}", "T22",
                                       code=self.code))
        if names is None:
            names = split_names(capped(self.learners.value, MAX_NAMES_TEXT,
                                        N_("learners")))
        names = [n.strip() for n in names]
        bots = int(self.bots.value if bots is None else bots)
        if not any(names) and bots == 0:  # a bots-only tournament is asked for by its bots
            raise ToonervilleError(msg("write the learners' names first, one per line: a "
                                       "tournament needs at least one learner (bots fill "
                                       "the tables)", "T22"))
        check_names(names)
        if len(names) + bots > MAX_PLAYERS:
            raise ToonervilleError(msg("a tournament here seats at most {k} players, not "
                                       "{n}", "T22", k=MAX_PLAYERS, n=len(names) + bots))
        if rules is None:
            if not self.house_rules.valid:
                raise ToonervilleError(msg("fix the house rules first: {why}", None,
                                           why=self.house_rules.messages.text))
            rules = self.house_rules.rules
        code, key = desk.open(names, bots=bots, bot_kind=self.bot_kind.value, rules=rules,
                              seed=seed,
                              rounds=int(self.rounds.value if rounds is None else rounds))
        desk.set_limits(code, key, away_after=float(self.away_after.value))
        desk.start(code, key)
        if self._class is not None:
            classes, class_code, class_key = self._class
            members = {name_key(m.name) for m in classes.members(class_code, class_key)}
            keys = {n: k for n, k in desk.learner_keys(code, key).items()
                    if name_key(n) in members}  # a name the teacher added is handed by hand
            classes.hand_out(class_code, class_key, "tournament", code, keys)
        self.give_to.value = self.bot_kind.value  # a seat handed over: the set-up's level
        self._run(code, key)
        self.key_view.value = _(
            "Your teacher's key, shown only now: <code>{key}</code>. Note it with the code: "
            "they give you this page back after a reload or a restart.").format(
            key=escape(key)) + " " + self.learner_keys_html()
        self.message.ok(msg("tournament {code} has started: learners join it with this code "
                            "and their name", "T22", code=code))
        return code

    def reopen(self, code: str | None = None, key: str | None = None) -> None:
        """Get the page of a running tournament back with its code and the teacher's key."""
        desk = self._desk()
        code = capped(self.reopen_code.value if code is None else code, MAX_KEY_TEXT,
                       N_("code"))
        key = capped(self.reopen_key.value if key is None else key, MAX_KEY_TEXT,
                      N_("key"))
        t = desk.teacher(code, key)  # refused, changing nothing, without the right key
        self._run(t.code, key)
        self.key_view.value = self.learner_keys_html()
        self.message.ok(msg("back at tournament {code}, round {r}", "T22", code=t.code,
                            r=t.round_number))

    def give_seat(self, name: str | None = None, to: str | None = None) -> str | None:
        """Give `name`'s seat at this round's table to a bot (`to` a bot kind) or to a
        new learner (`to` ""): then that learner's key is shown and returned."""
        desk = self._desk()
        if self.code is None or self._key is None:
            raise ToonervilleError(msg("start a game first", None))
        name = str(self.give_name.value if name is None else name)
        to = self.give_to.value if to is None else to
        key = desk.give_seat(self.code, self._key, name, to or None)
        if key is None:
            table = desk.get(self.code).table_of(name)
            self.message.ok(msg("seat {seat} at table {code} is played by a bot now", None,
                                seat=table.players.index(name), code=table.code))
            return None
        self.message.ok(msg("{name}'s seat is for a new learner: they join tournament "
                            "{code} as {name} with the key {key}", "T22", name=name,
                            code=self.code, key=key))
        return key

    def learner_keys_html(self) -> str:
        """Each learner's own key, for the teacher to hand over: with it (and only with
        it) a learner joins under their name."""
        if self.code is None or self._key is None:
            return ""
        keys = self._desk().learner_keys(self.code, self._key)
        if not keys:
            return ""
        items = "".join(f"<li>{escape(name)}: <code>{escape(k)}</code></li>"
                        for name, k in keys.items())
        return escape(_("Each learner's own key: give each learner theirs; with it they "
                        "join under their name, from any device")) + f"<ul>{items}</ul>"

    def _run(self, code: str, key: str) -> None:
        self.code, self._key = code, key
        self.give_name.options = list(self._desk().get(code).learners)
        self.setup.layout.display = "none"
        self.running.layout.display = SHOWN
        self.code_view.value = _("Tournament code: <b>{code}</b> · learners open this page, "
                                 "type the code and their name").format(code=code)
        self._shown = ()
        self.poll()
        self.ticker.playing = True

    def next_round(self) -> Tournament:
        """Seat the next round now (every table must have finished)."""
        desk = self._desk()
        if self.code is None or self._key is None:
            raise ToonervilleError(msg("start a tournament first", "T22"))
        t = self._advance(desk, self._shown[0] if self._shown else None)
        self.poll()
        return t

    def _advance(self, desk: TournamentDesk, after: int | None) -> Tournament:
        """Seat the round after `after` (the round this page shows): when another of the
        teacher's pages has just done it, this page gets that round, not a refusal."""
        assert self.code is not None and self._key is not None
        t = desk.next_round(self.code, self._key, after)
        self.message.ok(msg("round {r} is seated: everyone's page shows their new table",
                            "T22", r=t.round_number))
        return t

    # -- following the tables --------------------------------------------------------
    def _tick(self) -> None:
        try:
            self.poll()
        except ToonervilleError:
            self.ticker.playing = False
            raise

    def poll(self) -> bool:
        """Move the bots at every table, seat the next round when all have finished (if
        *Next round by itself* is ticked) and redraw what changed; True if anything did."""
        desk = self.desk
        if desk is None or self.code is None:
            return False
        desk.play_bots(self.code, BOT_MOVES_PER_TICK)
        t = desk.get(self.code)
        finished = [desk.store.finished(x.code) for x in t.tables[-1]]
        over = all(finished) and t.round_number >= t.rounds
        if all(finished) and not over and self.auto.value:
            t = self._advance(desk, t.round_number)
            finished = [False] * len(t.tables[-1])
        infos = [desk.store.info(x.code) for x in t.tables[-1]]
        moves = tuple(info.moves for info in infos)
        away = tuple(info.away for info in infos)
        shown = (t.round_number, moves, tuple(finished), self.auto.value, away)
        if shown == self._shown:
            return False
        self._shown = shown
        self._tell_stand_ins(t, away)
        self._redraw(t, finished, moves, over)
        if over:
            self.ticker.playing = False
        return True

    def _tell_stand_ins(self, t: Tournament, away: Sequence[frozenset[int]]) -> None:
        """Tell the teacher, once each, when a bot starts playing for a learner who never
        came (their page never joined) or who left: the teacher may give the seat to a
        new learner, or wait."""
        joined = self._desk().joined(t.code)
        for x, seats in zip(t.tables[-1], away, strict=True):
            for seat in sorted(seats):
                name = x.players[seat]
                if name not in t.learners or (t.round_number, name) in self._told:
                    continue
                self._told.add((t.round_number, name))
                self.message.info(msg(
                    "a bot plays for {name} at table {n}: {name} has not joined the "
                    "tournament. Give the seat to a new learner below, or wait for {name}",
                    "T22", name=name, n=x.number) if name not in joined else msg(
                    "a bot plays for {name} at table {n}: {name}'s page has gone quiet. "
                    "{name} gets the seat back by coming back", "T22", name=name,
                    n=x.number))

    def _redraw(self, t: Tournament, finished: Sequence[bool], moves: Sequence[int],
                over: bool) -> None:
        desk = self._desk()
        rows = desk.sheet_rows(t)
        items = []
        for x, end, count in zip(t.tables[-1], finished, moves, strict=True):
            names = ", ".join(escape(p) + (" ★" if s == x.dealer else "")
                              for s, p in enumerate(x.players))
            state = _("finished") if end else _("playing, move {k}").format(k=count)
            items.append(f"<li>{escape(_('Table {n}').format(n=x.number))} "
                         f"(<code>{escape(x.code)}</code>): {names} · {escape(state)}</li>")
        self.tables_view.value = (
            f"<b>{escape(_('Tables of round {r} (★ deals)').format(r=t.round_number))}</b>"
            f"<ul>{''.join(items)}</ul>")
        upcoming = desk.next_seating(t.code)
        if upcoming is None:
            self.next_view.value = ""
        else:
            tables = "".join(f"<li>{escape(_('Table {n}').format(n=k))}: "
                             f"{escape(', '.join(group))}</li>"
                             for k, group in enumerate(upcoming, start=1))
            title = _("Seating of round {r}").format(r=t.round_number + 1)
            self.next_view.value = f"<b>{escape(title)}</b><ul>{tables}</ul>"
        self.next_button.disabled = upcoming is None
        self.sheet_view.value = master_sheet_html(t, rows, self._size)
        self.csv = sheet_csv(rows)
        self.csv_view.value = csv_link(t.code, self.csv)
        # the status goes last: a page that sees "Round 2" finds the sheet and its CSV of
        # round 2 already there
        if over:
            self.status.value = escape(_("The tournament is over: all {k} rounds are played."
                                         ).format(k=t.rounds))
        else:
            self.status.value = escape(_(
                "Round {r} of {k} · {done} of {n} tables have finished").format(
                r=t.round_number, k=t.rounds, done=sum(finished), n=len(finished)))


__all__ = ["TEACHER_POLL_MS", "TeacherDesk"]
