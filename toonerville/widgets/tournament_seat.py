"""A learner's page in a tournament (page 10): `TournamentSeat`.

A `classroom.SharedTable` whose lobby is the tournament's code and the learner's name
(and, to come back, their key). It shows the learner's table of the current round and
follows them to their next table when the seating changes; while the other tables finish
it says so (and moves their bots too). A round's review and its "Try it again" are the
shared table's; the practice list follows the learner from table to table (kept under the
tournament's code and the learner's key). Stable CSS hooks for tests: `tt-join-code`,
`tt-name`, `tt-join-key`, `tt-join`, `tt-where` (and the `tr-…` hooks of `SharedTable`).
"""

from __future__ import annotations

from html import escape
from pathlib import Path

import ipywidgets as widgets

from ..engine.messages import N_, Message, _, msg
from ..store import Seat, TableStore, TournamentDesk, Watcher
from ..store.seat_practice import SeatPractice
from .base import size_style, translated_button
from .classroom import SharedTable
from .practice_keep import SeatKeeper
from .tournament_parts import BOT_MOVES_PER_TICK, MAX_KEY_TEXT, MAX_NAME, capped, text_box


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
        # the practice panel after the page's message box, as at a shared table
        self.children = [size_style(), self.join_box, self.where, self.message, self.board,
                         self.practice_box]
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
        self.t_code = text_box("tt-join-code", N_("Tournament code"), "KXR4PT", "16em")
        self.t_name = text_box("tt-name", N_("Your name"), "", "16em")
        self.t_key = text_box("tt-join-key", N_("Your key"), _("the key from your teacher"),
                           "22em")
        self.t_join = translated_button(N_("Join the tournament"), "tt-join", N_(
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
        code = capped(self.t_code.value if code is None else code, MAX_KEY_TEXT,
                       N_("code"))
        name = capped(self.t_name.value if name is None else name, MAX_NAME * 2,
                       N_("name"))
        key = capped(self.t_key.value if key is None else key, MAX_KEY_TEXT, N_("key"))
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
        self.seat_view.score_sheet.rounds = t.rounds  # the table says the tournament's
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

    def _practice_keeper_for(self, handle: Seat | Watcher) -> SeatKeeper | None:
        """The learner's practice list follows them from table to table: it is kept
        under the tournament's code and the learner's key, not a table's."""
        if not isinstance(handle, Seat) or self.tournament is None or self.secret is None:
            return super()._practice_keeper_for(handle)
        return SeatKeeper(SeatPractice(self.store.backend), f"tournament:{self.tournament}",
                          self.secret)

    def _take(self, handle: Seat | Watcher, news: Message, kind: str = "info") -> None:
        super()._take(handle, news, kind)
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
