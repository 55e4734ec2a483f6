"""Learners at one shared table from their own browsers: the `SharedTable` page of 09.

A thin view over `toonerville.store`: "Open a table" stores a new table (3–5 players,
bots in the seats no learner takes) and shows its short code; "Join" claims a seat with
the code (or watches, seeing no hand). The page keeps its seat's secret in the kernel
and shows it as a rejoin key: the code and the key give the seat back after a reload or
a new kernel. Every move goes to the store, which checks it with the engine and appends
it only if the table has not moved on (`TableStore.append`); a refusal — out of turn,
a stale page ("the table moved on"), a seat that is not yours — shows the store's or the
engine's sentence and changes nothing.

Other learners' moves arrive by polling: a hidden `ipywidgets.Play` ticks in the browser
(every `poll_ms`), and each tick calls `poll()` in the kernel, which catches up with the
store, moves the bots whose turn it is (any client may; the store keeps each bot move
once) and redraws what changed. Ticks come from the page, so a closed tab stops polling
and its kernel can be culled; there is no thread (threads do not start under Pyodide).

Stable hooks for tests are CSS classes: `tr-open`, `tr-code`, `tr-seat`, `tr-key`,
`tr-join`, `tr-table-code`, `tr-rejoin-key`, `tr-status`, `tr-prompt`, `tr-hand`,
`tr-draw`, `tr-take`, `tr-buy`, `tr-pass`, `tr-lay-down`, `tr-lay-off`, `tr-discard`,
`tr-message`, `tr-log`, `tr-score-sheet`, `tr-poll`.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from .. import actions as A
from ..errors import ToonervilleError
from ..messages import N_, Message, _, msg
from ..store import Seat, TableStore, Watcher, open_store
from ..store.errors import TableMovedOnError
from ..views import Phase, PlayerView
from .components import (
    EventLog,
    HandPicker,
    MessageBox,
    PilesView,
    ScoreSheet,
    TableView,
    size_style,
)

#: where the tables are kept when neither `where` nor $TOONERVILLE_STORE says
DEFAULT_STORE = Path.home() / ".toonerville" / "tables.sqlite"
#: how often the page asks the store for news, in milliseconds
POLL_MS = 500
WATCH = "watch"
FIRST_FREE = -2


def store_location(where: str | Path | None = None) -> str:
    """The store to use: `where`, else $TOONERVILLE_STORE (a path or a PostgreSQL URL),
    else `DEFAULT_STORE` (its folder is made on first use)."""
    if where is not None:
        return str(where)
    env = os.environ.get("TOONERVILLE_STORE")
    if env:
        return env
    DEFAULT_STORE.parent.mkdir(parents=True, exist_ok=True)
    return str(DEFAULT_STORE)


class SharedTable(widgets.VBox):  # type: ignore[misc]
    """Open or join a shared table and play one seat of it (or watch).

    `SharedTable()` uses the store of `store_location()`; `store=` gives a `TableStore`
    (tests), `where=` a path or URL. `poll_ms` is the polling interval. The handle of
    the page's seat is `.seat` (a `Seat`, a `Watcher`, or None before joining)."""

    def __init__(self, store: TableStore | None = None, *, where: str | Path | None = None,
                 size: str = "normal", poll_ms: int = POLL_MS) -> None:
        problem: Exception | None = None
        if store is None:
            try:
                store = open_store(store_location(where))
            except (sqlite3.Error, OSError, ImportError, ToonervilleError) as err:
                problem = err  # no database here (the static site has none)
        if store is not None:
            self.store = store
        self.seat: Seat | Watcher | None = None
        self._size = size
        self._shown_number = -1
        self._build(poll_ms)
        super().__init__(children=[size_style(), self.lobby, self.message, self.board])
        self.add_class("tr-classroom")
        if problem is not None:
            self.lobby.layout.display = "none"
            self.message.error(msg("shared tables need the served app and its database (make "
                                   "app); this page has none: {why}", None,
                                   why=str(problem)[:120]))
            return
        self.message.info(msg("open a table for your class, or join one with its code",
                              None))

    def __repr__(self) -> str:
        return f"SharedTable({self.seat!r})"

    # -- building the page -----------------------------------------------------------
    def _button(self, label: str, css: str, tooltip: str) -> widgets.Button:
        button = widgets.Button(description=_(label), tooltip=_(tooltip),
                                layout=widgets.Layout(width="auto"))
        button.add_class(css)
        return button

    def _build(self, poll_ms: int) -> None:
        self.message = MessageBox(size=self._size)
        self.message.add_class("tr-message")
        guard = self.message.guard
        # the lobby: open a table, or join one
        self.players = widgets.Dropdown(options=[3, 4, 5], value=4, description=_("Players"),
                                        layout=widgets.Layout(width="auto"))
        self.players.add_class("tr-players")
        self.learners = widgets.Dropdown(options=[1, 2, 3, 4, 5], value=2,
                                         description=_("Learners"),
                                         layout=widgets.Layout(width="auto"))
        self.learners.add_class("tr-learners")
        self.open_button = self._button(N_("Open a table"), "tr-open", N_(
            "Open a new table: you take seat 0, bots play the seats no learner takes"))
        self.code_text = widgets.Text(placeholder="KXR4PT", description=_("Table code"),
                                      layout=widgets.Layout(width="16em"))
        self.code_text.add_class("tr-code")
        self.seat_choice = widgets.Dropdown(options=self._seat_options(5),
                                            value=FIRST_FREE, description=_("Seat"),
                                            layout=widgets.Layout(width="auto"))
        self.seat_choice.add_class("tr-seat")
        self.key_text = widgets.Text(placeholder=_("only to rejoin your seat"),
                                     description=_("Rejoin key"),
                                     layout=widgets.Layout(width="22em"))
        self.key_text.add_class("tr-key")
        self.join_button = self._button(N_("Join"), "tr-join", N_(
            "Join the table with this code: a free seat, your seat again with your "
            "rejoin key, or watch"))
        self.open_button.on_click(guard(lambda _b: self.open_table()))
        self.join_button.on_click(guard(lambda _b: self.join()))
        self.lobby = widgets.VBox([
            widgets.HBox([self.players, self.learners, self.open_button]),
            widgets.HBox([self.code_text, self.seat_choice, self.key_text,
                          self.join_button])])
        self.lobby.add_class("tr-lobby")
        # the table
        self.table_code = widgets.HTML()
        self.table_code.add_class("tr-table-code")
        self.rejoin_key = widgets.HTML()
        self.rejoin_key.add_class("tr-rejoin-key")
        self.status = widgets.HTML()
        self.status.add_class("tr-status")
        self.piles = PilesView(size=self._size)
        self.piles.add_class("tr-piles")
        self.table = TableView(size="small" if self._size == "normal" else "normal")
        self.table.add_class("tr-table")
        self.prompt = widgets.HTML()
        self.prompt.add_class("tr-prompt")
        self.hand = HandPicker(size=self._size)
        self.hand.add_class("tr-hand")
        self.draw_button = self._button(N_("Draw from stock"), "tr-draw",
                                        N_("Start your turn: draw the top card of the "
                                           "stock (T9)"))
        self.take_button = self._button(N_("Take the discard"), "tr-take",
                                        N_("Start your turn: take the top discard (T9)"))
        self.buy_button = self._button(N_("Buy"), "tr-buy",
                                       N_("Buy the declined discard (T10, T11)"))
        self.pass_button = self._button(N_("Pass"), "tr-pass", N_("Do not buy it (T10)"))
        self.lay_down_button = self._button(N_("Lay down"), "tr-lay-down", N_(
            "Lay down this round's contract as the engine finds it in your hand (T15)"))
        self.lay_off_button = self._button(N_("Lay off selected card"), "tr-lay-off",
                                           N_("Add the selected card to a meld it fits "
                                              "(H9)"))
        self.discard_button = self._button(N_("Discard selected card"), "tr-discard",
                                           N_("End your turn: discard the one selected "
                                              "card (T13)"))
        for button, make in ((self.draw_button, A.Draw), (self.take_button, A.TakeDiscard),
                             (self.buy_button, A.Buy), (self.pass_button, A.Pass)):
            button.on_click(guard(lambda _b, m=make: self._simple(m)))
        self.lay_down_button.on_click(guard(lambda _b: self._lay_down()))
        self.lay_off_button.on_click(guard(lambda _b: self._lay_off()))
        self.discard_button.on_click(guard(lambda _b: self._discard()))
        self.moves = widgets.HBox([self.buy_button, self.pass_button, self.draw_button,
                                   self.take_button, self.lay_down_button,
                                   self.lay_off_button, self.discard_button],
                                  layout=widgets.Layout(flex_flow="row wrap"))
        self.log_view = EventLog(size=self._size, limit=10)
        self.log_view.add_class("tr-log")
        self.score_sheet = ScoreSheet(size=self._size)
        self.score_sheet.add_class("tr-score-sheet")
        self.ticker = widgets.Play(interval=max(100, int(poll_ms)), min=0, max=1_000_000,
                                   step=1, repeat=True, playing=False, show_repeat=False,
                                   layout=widgets.Layout(display="none"))
        self.ticker.add_class("tr-poll")
        self.ticker.observe(guard(lambda _c: self._tick()), "value")
        self.board = widgets.VBox([
            self.ticker, widgets.HBox([self.table_code, self.rejoin_key]), self.status,
            widgets.HBox([self.piles, self.table]), self.prompt, self.moves, self.hand,
            widgets.HBox([self.log_view, self.score_sheet])],
            layout=widgets.Layout(display="none"))
        self.board.add_class("tr-board")

    @staticmethod
    def _seat_options(players: int) -> list[tuple[str, int]]:
        return [(_("first free seat"), FIRST_FREE),
                *((_("seat {k}").format(k=k), k) for k in range(players)),
                (_("watch"), -1)]

    # -- opening and joining ---------------------------------------------------------
    def open_table(self, players: int | None = None, learners: int | None = None,
                   seed: int | None = None) -> str:
        """Open a table of `players` with `learners` seats for learners (0, 1, …; the
        rest are heuristic bots), take seat 0 here and return the table's code."""
        players = int(self.players.value if players is None else players)
        learners = int(self.learners.value if learners is None else learners)
        if not 1 <= learners <= players:
            raise ToonervilleError(msg("a table of {n} has room for 1 to {n} learners, not "
                                       "{k}", None, n=players, k=learners))
        bots = {seat: "heuristic" for seat in range(learners, players)}
        code = self.store.open_table(players=players, bots=bots, seed=seed)
        self._take(self.store.claim(code, 0), msg(
            "table {code} is open: give your class the code {code}. You are seat 0", None,
            code=code))
        return code

    def join(self, code: str | None = None, seat: int | str | None = None,
             key: str | None = None) -> None:
        """Join table `code`: `seat` a number, None for the first free seat, or "watch";
        `key` a rejoin key to get one's seat back (the widgets' values by default)."""
        code = self.code_text.value if code is None else code
        if seat is None and code is self.code_text.value:
            chosen = self.seat_choice.value
            seat = WATCH if chosen == -1 else (None if chosen == FIRST_FREE else chosen)
        key = (self.key_text.value.strip() or None) if key is None else key
        if seat == WATCH:
            self._take(self.store.watch(code), msg(
                "you are watching table {code}: you see the table, never a hand", None,
                code=code))
            return
        before = self.store.info(code).claimed
        handle = self.store.claim(code, None if seat is None else int(seat), secret=key)
        if key is None:
            news = msg("you have seat {seat} at table {code}", None, seat=handle.seat,
                       code=handle.code)
        elif handle.seat in before:
            news = msg("you are back at seat {seat} of table {code}, where the game was",
                       None, seat=handle.seat, code=handle.code)
        else:  # a key that held no seat here: it now holds the free seat just taken
            news = msg("that rejoin key held no seat at table {code}, so you have taken "
                       "the free seat {seat} with it", None, seat=handle.seat,
                       code=handle.code)
        self._take(handle, news)

    def _take(self, handle: Seat | Watcher, news: Message) -> None:
        self.seat = handle
        self._shown_number = -1
        self.code_text.value = handle.code
        self.table_code.value = _("Table code: <b>{code}</b>").format(code=handle.code)
        if isinstance(handle, Seat):
            self.rejoin_key.value = _(
                " · your rejoin key: <code>{key}</code> (note it: with the code it gives "
                "your seat back after a reload)").format(key=handle.secret)
        else:
            self.rejoin_key.value = ""
        self.board.layout.display = None
        self.poll()
        self.message.info(news)
        self.ticker.playing = True

    # -- polling ---------------------------------------------------------------------
    def _tick(self) -> None:
        """One tick of the page's timer: a poll; a table that cannot be read (a damaged
        row, a lost database) is said once and the page stops asking."""
        try:
            self.poll()
        except ToonervilleError:
            self.ticker.playing = False
            raise

    def poll(self) -> bool:
        """Catch up with the store, move the bots whose turn it is, redraw if anything
        changed; True if it did. The page's ticker calls this; tests call it directly."""
        handle = self.seat
        if handle is None:
            return False
        if not handle.finished:
            self.store.play_bots(handle.code)
        handle.refresh()
        if handle.number == self._shown_number:
            return False
        self._redraw()
        if handle.finished:
            self.ticker.playing = False
        return True

    # -- the moves -------------------------------------------------------------------
    def _play(self, action: A.Action) -> bool:
        """Send a move; a refusal (the engine's, the store's) shows its sentence and the
        page is redrawn from the store, so nothing the learner sees is out of date."""
        handle = self.seat
        if not isinstance(handle, Seat):
            self.message.error(msg("you are watching: join a seat to play", None))
            return False
        try:
            handle.play(action)
        except TableMovedOnError as err:
            self.poll()
            self.message.error(err.message)
            return False
        except ToonervilleError as err:
            self.message.error(err.message)
            return False
        self.message.ok(msg("your move is on the table: {move}", None,
                            move=action.notation().split(": ", 1)[-1]))
        self.poll()
        return True

    def _me(self) -> Seat:
        handle = self.seat
        if not isinstance(handle, Seat):
            raise ToonervilleError(msg("you are watching: join a seat to play", None))
        return handle

    def _simple(self, make: Any) -> None:
        self._play(make(self._me().seat))

    def _one_card(self, what: str) -> Any:
        chosen = self.hand.selected
        if len(chosen) != 1:
            self.message.error(msg("select exactly one card in your hand to {what}, then "
                                   "click again ({n} selected now)", None, what=_(what),
                                   n=len(chosen)))
            return None
        return chosen[0]

    def _discard(self) -> None:
        me = self._me()
        card = self._one_card(N_("discard"))
        if card is not None:
            self._play(A.Discard(me.seat, card))

    def _lay_down(self) -> None:
        me = self._me()
        found = [a for a in me.legal_actions() if isinstance(a, A.LayDown)]
        if not found:
            self.message.error(msg("there is no lay-down of this round's contract in your "
                                   "hand now", "T15"))
            return
        self._play(found[0])

    def _lay_off(self) -> None:
        me = self._me()
        card = self._one_card(N_("lay off"))
        if card is None:
            return
        found = [a for a in me.legal_actions()
                 if isinstance(a, A.LayOff) and a.card == card]
        if not found:
            self.message.error(msg("{card} fits no meld on the table now", "H9", card=card))
            return
        self._play(found[0])

    # -- drawing ---------------------------------------------------------------------
    def _redraw(self) -> None:
        handle = self.seat
        assert handle is not None
        view = handle.view
        self._shown_number = handle.number
        watching = not isinstance(handle, Seat)
        me = None if watching else view.seat
        names = [_("{name} (you)").format(name=n) if seat == me else n
                 for seat, n in enumerate(view.names)]
        self.status.value = _(
            "Round {r} of 11 · contract: {contract} · move {k} · {who}").format(
            r=view.round_number, contract=str(view.contract), k=handle.number,
            who=_("watching") if watching else _("you are {name}, seat {seat}").format(
                name=view.names[view.seat], seat=view.seat))
        self.piles.update(view)
        self.table.update(view)
        self.score_sheet.update(names, view.scores,
                                None if handle.finished else view.round_number)
        self.log_view.show(self.store.public_history(handle.code))
        self.prompt.value = self._prompt(view, watching, handle.finished)
        legal = handle.legal_actions() if isinstance(handle, Seat) and not handle.finished \
            else []
        kinds = {type(a) for a in legal}
        for button, kind in ((self.draw_button, A.Draw), (self.take_button, A.TakeDiscard),
                             (self.buy_button, A.Buy), (self.pass_button, A.Pass),
                             (self.lay_down_button, A.LayDown),
                             (self.lay_off_button, A.LayOff),
                             (self.discard_button, A.Discard)):
            button.disabled = kind not in kinds
            button.button_style = "primary" if kind in kinds else ""
        self.moves.layout.display = "none" if watching else None
        self.hand.layout.display = "none" if watching else None
        if not watching and tuple(self.hand.cards) != view.hand:
            self.hand.set_cards(view.hand)

    @staticmethod
    def _prompt(view: PlayerView, watching: bool, finished: bool) -> str:
        if finished:
            return _("The game at this table is over.")
        waiting = [view.names[s] for s in view.deciders]
        if not watching and view.seat in view.deciders:
            if view.phase == Phase.BUY:
                return _("Your answer: buy the declined discard, or pass?")
            return _("Your turn: draw or take the discard, then discard one card.") \
                if view.phase == Phase.DRAW else _("Your turn: lay down, lay off, or "
                                                  "discard one card.")
        return _("Waiting for {names}…").format(names=", ".join(waiting))
