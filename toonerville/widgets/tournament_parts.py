"""What both pages of a tournament (page 10) use: the limits of their boxes, the check of
a list of learners, the master sheet as HTML and CSV link, the print style, and the
opening of the store (a page with no database says so instead).

Pure helpers over `toonerville.engine.tournament` and the store: no page state lives here;
`tournament.TeacherDesk` and `tournament_seat.TournamentSeat` hold it.
"""

from __future__ import annotations

import sqlite3
import urllib.parse
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from ..engine.errors import ToonervilleError
from ..engine.messages import N_, _, msg
from ..engine.names import name_key
from ..engine.tournament import SheetRow, Tournament
from ..pages.render import SIZES, TEXT_PX
from ..pages.serverless import no_tournament
from ..store import TableStore, open_store
from .base import MessageBox, translated
from .store_place import store_location

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
    """Refuse a list of learners a tournament cannot seat, saying why (T22): a name too
    long, or two names a learner could not tell apart when joining (`names.same_name`)."""
    long = [n for n in names if len(n) > MAX_NAME]
    if long:
        raise ToonervilleError(msg("a name may have at most {k} characters: '{name}…' is "
                                   "longer", "T22", k=MAX_NAME, name=long[0][:MAX_NAME]))
    keys = [name_key(n) for n in names]  # "Ann" and "ann " are one name, as joining finds
    twice = sorted({n for n, key in zip(names, keys, strict=True) if keys.count(key) > 1})
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


def open_or_problem(store: TableStore | None, where: str | Path | None
          ) -> tuple[TableStore | None, Exception | None]:
    if store is not None:
        return store, None
    try:
        return open_store(store_location(where)), None
    except (sqlite3.Error, OSError, ImportError, ToonervilleError) as err:
        return None, err  # no database here (the static site has none)


def no_store(box: MessageBox, problem: Exception) -> None:
    box.error(no_tournament(problem))


def capped(text: Any, limit: int, what: str) -> str:
    if not isinstance(text, str):
        return ""
    if len(text) > limit:
        raise ToonervilleError(msg("the {what} box takes at most {k} characters; this is "
                                   "{n}", None, what=_(what), k=limit, n=len(text)))
    return text.strip()


def text_box(css: str, description: str, placeholder: str, width: str) -> widgets.Text:
    """A text box of the tournament's pages; `description` is English (`N_`), shown in
    the language in use and in every later one (`base.translated`)."""
    box = translated(widgets.Text(placeholder=placeholder,
                                  layout=widgets.Layout(width=width),
                                  style={"description_width": "initial"}),
                     description=description)
    box.add_class(css)
    return box
