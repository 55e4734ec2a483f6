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
as CSV and prints on one page (the page's print style shows the sheet alone).

`TournamentSeat` is a learner's page: a `classroom.SharedTable` whose lobby is the
tournament's code and the learner's name (and, to come back, their key). It shows the
learner's table of the current round and follows them to their next table when the
seating changes; while the other tables finish it says so (and moves their bots too).

Both pages poll with a hidden `ipywidgets.Play` (no thread: Pyodide has none). Stable CSS
hooks for tests: `tt-learners`, `tt-bots`, `tt-rounds`, `tt-start`, `tt-code`, `tt-key`,
`tt-reopen-code`, `tt-reopen-key`, `tt-reopen`, `tt-status`, `tt-tables`, `tt-next`,
`tt-next-round`, `tt-auto`, `tt-sheet`, `tt-csv`, `tt-message`, `tt-poll`; on the
learner's page `tt-join-code`, `tt-name`, `tt-join-key`, `tt-join`, `tt-where` (and the
`tr-…` hooks of `SharedTable`).
"""

from __future__ import annotations

import sqlite3
import urllib.parse
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from ..bots import BOT_KINDS
from ..errors import ToonervilleError
from ..messages import N_, Message, _, msg
from ..render import SIZES
from ..rules import Rules
from ..serverless import no_tournament
from ..store import Seat, TableStore, TournamentDesk, Watcher, open_store
from ..store.seats import AWAY_AFTER, LIMITS
from ..tournament import SheetRow, Tournament, sheet_csv
from .base import translated_button
from .classroom import SharedTable, store_location
from .components import TEXT_PX, HouseRulesPanel, MessageBox, size_style
from .words import bot_kind_options

#: how often the teacher's page looks at the tables, in milliseconds
TEACHER_POLL_MS = 1000
#: bot moves per table and tick, so one tick never keeps the page waiting long
BOT_MOVES_PER_TICK = 60
#: the longest list of names a teacher may paste, and the longest name
MAX_NAMES_TEXT = 2000
MAX_NAME = 40
#: the most players a tournament of one class seats (twelve tables of five)
MAX_PLAYERS = 60
#: the longest code or key accepted in a text box (a key is 24 characters)
MAX_KEY_TEXT = 200

#: The house rules' heading readable (WCAG AA contrast); on paper the master sheet
#: stands alone: everything that does not hold it is hidden, and it fits one landscape
#: page.
PRINT_CSS = """<style>
.tt-teacher .jupyter-widget-Collapse-header,
.tt-teacher .jupyter-widget-Collapse-header > span {
  color: var(--jp-ui-font-color0, #111) !important; opacity: 1 !important; }
@media print {
  @page { size: A4 landscape; margin: 8mm; }
  body *:not(:has(.tt-sheet)):not(.tt-sheet):not(.tt-sheet *) { display: none !important; }
  .tt-sheet, .tt-sheet * { visibility: visible !important; }
  .tt-sheet table { font-size: 7.5pt !important; width: 100%; }
  .tt-sheet td, .tt-sheet th { padding: 1px 3px !important; }
  .tt-no-print { display: none !important; }
}
</style>"""


def split_names(text: str) -> list[str]:
    """The learners' names as typed: one per line or separated by commas, blank ones and
    surrounding spaces dropped (`"Ann, Bob\\nCat"` → `["Ann", "Bob", "Cat"]`)."""
    return [n.strip() for line in text.splitlines() for n in line.split(",") if n.strip()]


def check_names(names: Sequence[str]) -> None:
    """Refuse a list of learners a tournament cannot seat, saying why (T22)."""
    long = [n for n in names if len(n) > MAX_NAME]
    if long:
        raise ToonervilleError(msg("a name may have at most {k} characters: '{name}…' is "
                                   "longer", "T22", k=MAX_NAME, name=long[0][:MAX_NAME]))
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ToonervilleError(msg("every learner needs a different name: {names} is "
                                   "written twice", "T22", names=", ".join(twice)))


def master_sheet_html(t: Tournament, rows: Sequence[SheetRow], size: str = "normal") -> str:
    """The master sheet as an HTML table: place, name, total, then the table and points
    of every round started (an empty cell: still playing)."""
    px = TEXT_PX[size if size in SIZES else "normal"]
    cell = "padding:2px 8px;border-bottom:1px solid rgba(127,127,127,.45)"
    head = [f'<th scope="col" style="{cell}">{escape(_(h))}</th>'
            for h in (N_("Place"), N_("Name"), N_("Total"))]
    head += [f'<th scope="col" style="{cell};text-align:end">'
             f'{escape(_("Round {r}").format(r=r))}</th>'
             for r in range(1, t.round_number + 1)]
    body = []
    for row in rows:
        s = row.standing
        place = f"{s.place}=" if s.shared else str(s.place)
        who = escape(s.name) + (f' <small style="opacity:.8">({escape(_("bot"))})</small>'
                                if s.name in t.bots else "")
        cells = [f'<td style="{cell}">{place}</td>', f'<th scope="row" style="{cell};'
                 f'text-align:start;font-weight:normal"><bdi>{who}</bdi></th>',
                 f'<td style="{cell};font-weight:bold">{s.total}</td>']
        for table, pts in zip(row.tables, row.points, strict=True):
            shown = "…" if pts is None else str(pts)
            cells.append(f'<td style="{cell};text-align:end" title="'
                         f'{escape(_("table {n}").format(n=table))}">{shown} '
                         f'<small style="opacity:.8">T{table}</small></td>')
        body.append(f"<tr>{''.join(cells)}</tr>")
    caption = escape(_("Master score sheet · tournament {code}").format(code=t.code))
    note = escape(_("Lowest total first; equal totals share a place (1=). T2: the table "
                    "played at; …: still playing."))
    return (f'<table style="border-collapse:collapse;font-size:{px}px">'
            f'<caption style="text-align:start;padding:4px 0;font-weight:bold;'
            f'white-space:nowrap">{caption}</caption>'
            f"<thead><tr>{''.join(head)}</tr></thead><tbody>{''.join(body)}</tbody></table>"
            f'<div style="font-size:{px - 2}px;opacity:.85;padding-top:4px">{note}</div>')


def csv_link(code: str, text: str) -> str:
    """A link that downloads `text` as `tournament-<code>.csv` (no server round trip)."""
    href = "data:text/csv;charset=utf-8," + urllib.parse.quote(text)
    return (f'<a class="tt-csv-link" href="{href}" download="tournament-{escape(code)}.csv">'
            f'{escape(_("Download the master sheet (CSV)"))}</a>')


def _open(store: TableStore | None, where: str | Path | None
          ) -> tuple[TableStore | None, Exception | None]:
    if store is not None:
        return store, None
    try:
        return open_store(store_location(where)), None
    except (sqlite3.Error, OSError, ImportError, ToonervilleError) as err:
        return None, err  # no database here (the static site has none)


def _no_store(box: MessageBox, problem: Exception) -> None:
    box.error(no_tournament(problem))


def _capped(text: Any, limit: int, what: str) -> str:
    if not isinstance(text, str):
        return ""
    if len(text) > limit:
        raise ToonervilleError(msg("the {what} box takes at most {k} characters; this is "
                                   "{n}", None, what=_(what), k=limit, n=len(text)))
    return text.strip()


def _button(label: str, css: str, tooltip: str) -> widgets.Button:
    return translated_button(label, css, tooltip)


def _text(css: str, description: str, placeholder: str, width: str) -> widgets.Text:
    box = widgets.Text(description=_(description), placeholder=placeholder,
                       layout=widgets.Layout(width=width),
                       style={"description_width": "initial"})
    box.add_class(css)
    return box


def _ticker(poll_ms: int, on_tick: Any) -> widgets.Play:
    ticker = widgets.Play(interval=max(100, int(poll_ms)), min=0, max=1_000_000, step=1,
                          repeat=True, playing=False, show_repeat=False,
                          layout=widgets.Layout(display="none"))
    ticker.add_class("tt-poll")
    ticker.observe(on_tick, "value")
    return ticker


class TeacherDesk(widgets.VBox):  # type: ignore[misc]
    """The teacher's page of a tournament: set it up, start it, follow every table, the
    master sheet. `store=` gives a `TableStore` (tests), `where=` a path or URL; the
    tournament in progress is `.code` (None before the start), the desk `.desk`."""

    def __init__(self, store: TableStore | None = None, *, where: str | Path | None = None,
                 size: str = "normal", poll_ms: int = TEACHER_POLL_MS) -> None:
        opened, problem = _open(store, where)
        self.desk = TournamentDesk(opened) if opened is not None else None
        self.code: str | None = None
        self._key: str | None = None
        self._size = size
        self._shown: tuple[Any, ...] = ()
        self.csv = ""
        self._build(poll_ms)
        super().__init__(children=[size_style(), widgets.HTML(PRINT_CSS), self.ticker,
                                   self.setup, self.message, self.running])
        self.add_class("tt-teacher")
        if problem is not None:
            self.setup.layout.display = "none"
            _no_store(self.message, problem)
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
        self.learners = widgets.Textarea(
            description=_("Learners"), placeholder=_("one name per line, or Ann, Bob, Cat"),
            layout=widgets.Layout(width="32em", height="8em"),
            style={"description_width": "initial"})
        self.learners.add_class("tt-learners")
        self.learners.observe(guard(self._names_typed), "value")
        self.bots = widgets.BoundedIntText(value=0, min=0, max=MAX_PLAYERS,
                                           description=_("Bots"),
                                           layout=widgets.Layout(width="10em"))
        self.bots.add_class("tt-bots")
        self.bot_kind = widgets.Dropdown(options=bot_kind_options(), value=BOT_KINDS[0],
                                         description=_("Bots play"),
                                         layout=widgets.Layout(width="auto"))
        self.bot_kind.add_class("tt-bot-kind")
        self.rounds = widgets.BoundedIntText(value=11, min=1, max=11,
                                             description=_("Rounds"),
                                             layout=widgets.Layout(width="10em"))
        self.rounds.add_class("tt-rounds")
        self.away_after = widgets.BoundedIntText(
            value=int(AWAY_AFTER), min=int(LIMITS[0]), max=int(LIMITS[1]),
            description=_("Away after (seconds)"), style={"description_width": "initial"},
            layout=widgets.Layout(width="auto"))
        self.away_after.add_class("tt-away-after")
        self.house_rules = HouseRulesPanel(size=self._size)
        rules_box = widgets.Accordion(children=[self.house_rules])
        rules_box.set_title(0, _("House rules (H11 is the seating between rounds)"))
        rules_box.selected_index = None
        self.start_button = _button(N_("Start the tournament"), "tt-start", N_(
            "Seat round 1: everyone at tables of 3 to 5, bots in the seats no learner "
            "fills"))
        self.start_button.on_click(guard(lambda _b: self.start()))
        self.reopen_code = _text("tt-reopen-code", N_("Tournament code"), "KXR4PT", "16em")
        self.reopen_key = _text("tt-reopen-key", N_("Teacher's key"), "", "24em")
        self.reopen_button = _button(N_("Open my tournament"), "tt-reopen", N_(
            "Back to a tournament you started, after a reload or a restart: its code and "
            "your teacher's key"))
        self.reopen_button.on_click(guard(lambda _b: self.reopen()))
        self.setup = widgets.VBox([
            self.learners, widgets.HBox([self.bots, self.bot_kind, self.rounds,
                                         self.away_after]),
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
        self.next_button = _button(N_("Seat the next round"), "tt-next-round", N_(
            "Every table has finished: seat the next round by H11"))
        self.next_button.on_click(guard(lambda _b: self.next_round()))
        self.auto = widgets.Checkbox(value=True, indent=False,
                                     description=_("Next round by itself"))
        self.auto.add_class("tt-auto")
        self.sheet_view = widgets.HTML()
        self.sheet_view.add_class("tt-sheet")
        self.csv_view = widgets.HTML()
        self.csv_view.add_class("tt-csv")
        self.print_view = widgets.HTML(
            '<button type="button" class="tt-print" onclick="window.print()">'
            f'{escape(_("Print the master sheet"))}</button>')
        self.give_name = widgets.Dropdown(options=[], description=_("Learners"),
                                          layout=widgets.Layout(width="auto"))
        self.give_to = widgets.Dropdown(options=[(_("to a bot"), "heuristic"),
                                                 (_("to a new learner"), "")],
                                        layout=widgets.Layout(width="auto"))
        self.give_button = _button(N_("Give the seat"), "tt-give", N_(
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
        self.ticker = _ticker(poll_ms, guard(lambda _c: self._tick()))

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
            names = split_names(_capped(self.learners.value, MAX_NAMES_TEXT,
                                        N_("learners")))
        names = [n.strip() for n in names]
        check_names(names)
        bots = int(self.bots.value if bots is None else bots)
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
        code = _capped(self.reopen_code.value if code is None else code, MAX_KEY_TEXT,
                       N_("code"))
        key = _capped(self.reopen_key.value if key is None else key, MAX_KEY_TEXT,
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
        self.running.layout.display = None
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
        moves = tuple(desk.store.info(x.code).moves for x in t.tables[-1])
        shown = (t.round_number, moves, tuple(finished), self.auto.value)
        if shown == self._shown:
            return False
        self._shown = shown
        self._redraw(t, finished, moves, over)
        if over:
            self.ticker.playing = False
        return True

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


class TournamentSeat(SharedTable):
    """A learner's page in a tournament: join with the tournament's code and one's name,
    play at one's table of the round, follow to the next table when the seating changes.
    The learner's key (shown on the page) with the code gives the seat back after a
    reload. `.tournament` is the code joined (None before)."""

    def __init__(self, store: TableStore | None = None, *, where: str | Path | None = None,
                 size: str = "normal", poll_ms: int = 500) -> None:
        super().__init__(store, where=where, size=size, poll_ms=poll_ms)
        self.tournament: str | None = None
        self.name: str | None = None
        self.secret: str | None = None
        self._round = 0
        self._following = False
        self._build_join()
        # SharedTable's own lobby (open a table, join by table code) is not shown here
        self.children = [size_style(), self.join_box, self.where, self.message, self.board]
        self.add_class("tt-learner")
        if not hasattr(self, "store"):  # no database: SharedTable has said so
            self.join_box.layout.display = "none"
            return
        self.message.info(msg("type your tournament's code and your name, then click Join",
                              "T22"))

    def __repr__(self) -> str:
        return f"TournamentSeat({self.tournament!r}, {self.name!r}, {self.seat!r})"

    def _build_join(self) -> None:
        guard = self.message.guard
        self.t_code = _text("tt-join-code", N_("Tournament code"), "KXR4PT", "16em")
        self.t_name = _text("tt-name", N_("Your name"), "", "16em")
        self.t_key = _text("tt-join-key", N_("Your key"), _("the key from your teacher"),
                           "22em")
        self.t_join = _button(N_("Join the tournament"), "tt-join", N_(
            "Take your seat at your table of this round (with your key: your seat again)"))
        self.t_join.on_click(guard(lambda _b: self.join_tournament()))
        self.join_box = widgets.HBox([self.t_code, self.t_name, self.t_key, self.t_join],
                                     layout=widgets.Layout(flex_flow="row wrap"))
        self.join_box.add_class("tt-join-box")
        self.where = widgets.HTML()
        self.where.add_class("tt-where")

    def join_tournament(self, code: str | None = None, name: str | None = None,
                        key: str | None = None) -> None:
        """Join tournament `code` as `name` (with `key`: the same learner again)."""
        code = _capped(self.t_code.value if code is None else code, MAX_KEY_TEXT,
                       N_("code"))
        name = _capped(self.t_name.value if name is None else name, MAX_NAME * 2,
                       N_("name"))
        key = _capped(self.t_key.value if key is None else key, MAX_KEY_TEXT, N_("key"))
        desk = TournamentDesk(self.store)
        t = desk.get(code)
        name = desk.learner_name(t.code, name)  # "bo" is "Bo"
        self.secret = desk.join(t.code, name, key or None)
        self.tournament, self.name = t.code, name
        self.t_code.value, self.t_key.value = t.code, self.secret
        self.join_box.layout.display = "none"
        self.ticker.playing = True
        if not self._follow():
            self.message.info(msg("you are in tournament {code} as {name}: your table "
                                  "appears when the teacher starts", "T22", code=t.code,
                                  name=name))

    def _follow(self) -> bool:
        """Sit at this round's table if the seating changed; True if the page moved."""
        if self.tournament is None or self.name is None or self.secret is None \
                or self._following:
            return False
        desk = TournamentDesk(self.store)
        t = desk.get(self.tournament)
        if t.round_number == 0 or t.round_number == self._round:
            return False
        table = t.table_of(self.name)
        handle = desk.seat(t.code, self.name, self.secret)
        self._round = t.round_number
        others = [p for p in table.players if p != self.name]
        self._following = True
        try:
            self._take(handle, msg("round {r}: you sit at table {n} with {names}", "T22",
                                   r=t.round_number, n=table.number,
                                   names=", ".join(others)))
        finally:
            self._following = False
        self.where.value = _(
            "Tournament <b>{code}</b> · round {r} of {k} · table {n} · your key: "
            "<code>{key}</code> (with the code and your name it gives your seat back after "
            "a reload)").format(code=t.code, r=t.round_number, k=t.rounds, n=table.number,
                                key=escape(self.secret))
        self.rejoin_key.value = ""
        return True

    def _take(self, handle: Seat | Watcher, news: Message) -> None:
        super()._take(handle, news)
        self.rejoin_key.value = ""  # the tournament's key is shown above, once

    def poll(self) -> bool:
        """Follow the seating, then the table as `SharedTable.poll` does; once this
        table has finished, move the bots of the round's other tables too and say who is
        still playing."""
        moved = self._follow()
        if self.seat is None or self.tournament is None:
            return moved
        changed = super().poll() or moved
        if self.seat.finished and not self._following:
            desk = TournamentDesk(self.store)
            desk.play_bots(self.tournament, BOT_MOVES_PER_TICK)
            t = desk.get(self.tournament)
            waiting = [x.number for x in t.tables[-1] if not self.store.finished(x.code)]
            if t.round_number >= t.rounds and not waiting:
                self.prompt.value = escape(_("The tournament is over. Well played!"))
                self.ticker.playing = False
                return changed
            self.prompt.value = escape(_(
                "Round {r} is over at your table. Waiting for table(s) {tables}; then your "
                "next table appears here.").format(
                r=t.round_number, tables=", ".join(map(str, waiting)) or "-")
                if waiting else _("Every table has finished: the next round's seating "
                                  "comes from the teacher's page."))
            self.ticker.playing = True  # keep following: the next round comes by itself
        return changed
