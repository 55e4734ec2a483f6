"""Learners at one shared table from their own browsers: the `SharedTable` page of 09.

A thin view over `toonerville.store`: "Open a table" stores a new table (3–5 players,
bots in the seats no learner takes) and shows its short code; "Join" claims a seat with
the code (or watches, seeing no hand). A learner may type a name first: the seat then
shows it on every page at the table (`TableStore.name_seat`). The table is drawn by a
`seat.SeatView`, the one seat view of every table page. The page keeps its seat's
secret in the kernel and shows it as a rejoin key: the code and the key give the seat
back after a reload or a new kernel (its rejoin link keeps the page's language,
`table_link`); the opener's link for a new learner fills in the code and the key and
waits for the newcomer's name, who is then greeted by it. A page whose seat the opener
gave away (to a bot, or to a new learner) says so at once and watches from then on.
Every move goes (through the seat model) to the store, which checks it with
the engine and appends it only if the table has not moved on (`TableStore.append`); a
refusal — out of turn, a stale page ("the table moved on"), a seat that is not yours —
shows the store's or the engine's sentence and changes nothing.

Other learners' moves arrive by polling: a hidden `ipywidgets.Play` ticks in the browser
(every `poll_ms`), and each tick calls `poll()` in the kernel, which asks the page's seat
model (`seat_model.SharedSession`, which the seat view follows) to catch up with the
store and move the bots whose turn it is (any client may; the store keeps each bot move
once); the view redraws what changed, and the page shows the model's words for who is
away or whose page closed (`away_words`) and for its seat given away (`lost_words`).
The learner's moves, buy-offer setting and coming back go to the model too (`act`,
`set_buy_offers`, `come_back`): the page sends nothing to the store itself. Ticks come
from the page, so a closed tab stops polling and its kernel can be culled; there is no
thread (threads do not start under Pyodide).

Stable hooks for tests are CSS classes: `tr-classroom` (the page), `tr-name`,
`tr-open`, `tr-code`, `tr-seat`, `tr-key`, `tr-join`, `tr-table-code`, `tr-rejoin-key`,
`tr-message`, `tr-poll`, `tr-practice` (the review's "Try it again" panel: the list is
kept in the table's store for the seat's key, `practice_keep.SeatKeeper`, so a rejoin
brings it back), and the seat view's (`tr-status`, `tr-prompt`, `tr-hand`,
`tr-draw`, `tr-recap`, … see `seat`). The learner's buy-offer setting goes to the store
(`Seat.set_buy_offers`), which answers the buy windows it does not offer: a draw nobody
wants passes with no click.
"""

from __future__ import annotations

import atexit
import contextlib
import sqlite3
import urllib.parse
from html import escape
from pathlib import Path

import ipywidgets as widgets

from ..engine import actions as A
from ..engine.errors import ToonervilleError
from ..engine.game import Game
from ..engine.messages import DEFAULT, N_, Message, _, language, msg
from ..engine.names import bot_names
from ..pages.serverless import no_shared_tables
from ..store import ClassStore, Seat, TableStore, Watcher, open_store
from ..store.seat_practice import SeatPractice
from .base import SHOWN, MessageBox, displayed, size_style, translated, translated_button
from .class_choice import PageClass, follow_class, page_class, settings_words
from .level_view import give_seat_options
from .lobby import WATCH, TableLobby
from .practice import PracticePanel
from .practice_keep import SeatKeeper
from .seat import SeatView
from .seat_model import SharedSession
from .store_place import store_location
from .ticker import poll_ticker
from .url import query_params

#: how often the page asks the store for news, in milliseconds
POLL_MS = 500


def table_link(**params: str) -> str:
    """A link to this page with `params` (`?table=…&key=…`), in the language in use
    (`lang=`: a Persian learner who follows it comes back in Persian)."""
    if language() != DEFAULT:
        params = {**params, "lang": language()}
    return "?" + urllib.parse.urlencode(params)


def table_names(players: int, bots: dict[int, str]) -> tuple[str, ...]:
    """A new table's seat names: a bot by a bird's name ("Crow"), a learner's seat by its
    number until the learner names it ("Player 1", in the opener's language)."""
    birds = iter(bot_names(len(bots)))
    return tuple(next(birds) if seat in bots else _("Player {k}").format(k=seat)
                 for seat in range(players))


class SharedTable(widgets.VBox):  # type: ignore[misc]
    """Open or join a shared table and play one seat of it (or watch).

    `SharedTable()` uses the store of `store_location()`; `store=` gives a `TableStore`
    (tests), `where=` a path or URL. `poll_ms` is the polling interval. The handle of
    the page's seat is `.seat` (a `Seat`, a `Watcher`, or None before joining); the
    table itself is drawn by `.seat_view` (a `SeatView`, whose parts are also
    attributes here: `.hand`, `.draw_button`, `.log_view`, …)."""

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
        #: the opener's key of the table this page opened (`TableStore.give_seat`)
        self.host_key: str | None = None
        #: the key of the opener's link for a new learner this page was opened with
        self._new_key: str | None = None
        #: the class of the page's address (`?class=`), whose settings the page follows
        self.page_class: PageClass | None = None
        self._size = size
        #: the one model of this page's seat (or watcher's place), which the seat view
        #: follows: it polls the store, and says who is away and whether the seat is lost
        self.model: SharedSession | None = None
        #: what this page's kernel tells the table as it shuts down (its seat's page closed)
        self._on_exit: object = None
        self._build(poll_ms)
        self.class_note = widgets.HTML()
        self.class_note.add_class("tr-class-note")
        # the practice panel comes after the page's message box, outside the board: the
        # key script says "not now" in the first message box around the seat view
        super().__init__(children=[size_style(), self.class_note, self.lobby, self.message,
                                   self.board, self.practice_box])
        self.add_class("tr-classroom")
        if problem is not None:
            self.lobby.layout.display = "none"
            self.message.error(no_shared_tables(problem))
            return
        self._follow_class()
        self.message.info(msg("open a table for your class, or join one with its code",
                              None))
        self._join_from_url()

    def _join_from_url(self) -> None:
        """A rejoin link (`?table=KXR4PT&key=…`) gives the seat back with no typing; the
        opener's link for a new learner (`…&new=1`) fills in the code and the key and
        waits for the learner's name and Join."""
        params = query_params()
        if "table" in params and "key" in params:
            if params.get("new"):
                self.code_text.value, self.key_text.value = params["table"], params["key"]
                self._new_key = self.key_text.value.strip()
                self.message.info(msg("a seat at table {code} is kept for you: type your "
                                      "name, then click Join", None,
                                      code=self.code_text.value))
                return
            try:
                self.join(params["table"], key=params["key"], name="")
            except ToonervilleError as err:
                self.message.error(err.message)

    def __repr__(self) -> str:
        return f"SharedTable({self.seat!r})"

    def _follow_class(self) -> None:
        """A page opened for a class (`?class=CODE`) follows its teacher's settings
        (`class_choice`): hints and take back, the bots' level and the away limit of a
        table opened here, and says them as the teacher's choice."""
        found = page_class(ClassStore(self.store.backend))
        self.page_class = found
        if found is None:
            return
        chosen = found.settings
        follow_class(self.seat_view, chosen)
        self.lobby.bot_level.value = chosen.bot_level
        self.away_after.value = int(chosen.away_limit)
        self.seat_view.buy_offers.value = chosen.buy_offers
        self.class_note.value = f"<b>{escape(settings_words(found.name, chosen))}</b>"

    # -- building the page -----------------------------------------------------------
    def _build(self, poll_ms: int) -> None:
        self.message = MessageBox(size=self._size)
        self.message.add_class("tr-message")
        guard = self.message.guard
        # the lobby: your name; open a table, or join one (`lobby.TableLobby`)
        self.lobby = TableLobby(self.message)
        lobby = self.lobby
        self.name_text, self.players, self.learners = (lobby.name_text, lobby.players,
                                                       lobby.learners)
        self.away_after, self.open_button = lobby.away_after, lobby.open_button
        self.code_text, self.seat_choice = lobby.code_text, lobby.seat_choice
        self.key_text, self.join_button = lobby.key_text, lobby.join_button
        self.open_button.on_click(guard(lambda _b: self.open_table()))
        self.join_button.on_click(guard(lambda _b: self.join()))
        # the table
        self.table_code = widgets.HTML()
        self.table_code.add_class("tr-table-code")
        self.rejoin_key = widgets.HTML()
        self.rejoin_key.add_class("tr-rejoin-key")
        self.away_note = widgets.HTML()
        self.away_note.add_class("tr-away")
        self.back_button = translated_button(N_("Take my seat back"), "tr-back", N_(
            "A bot has played for you while you were away: play your seat again"))
        self.back_button.layout.display = "none"
        self.back_button.on_click(guard(lambda _b: self.come_back()))
        # the opener's: give a seat to a bot or to a new learner (a learner who has gone)
        self.give_seat_choice = translated(
            widgets.Dropdown(options=[], layout=widgets.Layout(width="auto")),
            description=N_("Seat"))
        self.give_to = translated(
            widgets.Dropdown(options=give_seat_options(), value="heuristic",
                             layout=widgets.Layout(width="auto")),
            options=give_seat_options)
        self.give_button = translated_button(N_("Give the seat"), "tr-give", N_(
            "For a learner who cannot come back: a bot plays the seat, or a new learner "
            "takes it with the link shown"))
        self.give_button.on_click(guard(lambda _b: self.give_seat()))
        self.give_row = widgets.HBox([self.give_seat_choice, self.give_to,
                                      self.give_button],
                                     layout=widgets.Layout(display="none"))
        self.give_row.add_class("tr-give-row")
        self.seat_view = SeatView(self._play, self.message, size=self._size,
                                  send_offers=self._send_offers)
        view = self.seat_view
        view.recap.review_source = self._review_source  # the round's review, your seat,
        view.recap.review_at_once = False  # prepared when opened (see `coach_review`)
        # "Try it again": the review's costly decisions, played again (`practice`), the
        # list kept in the table's store for the seat's key (`practice_keep.SeatKeeper`)
        self._practice_keeper: SeatKeeper | None = None
        self._practice: PracticePanel | None = None
        self.practice_note = MessageBox(size=self._size)  # a list that cannot be read
        self.practice_note.add_class("tr-practice-note")
        self.practice_box = widgets.VBox([self.practice_note])
        self.practice_box.add_class("tr-practice-box")
        view.recap.review.on_try = guard(lambda game, found: self.practice.add(game, found))
        self.status, self.piles, self.table, self.prompt = (
            view.status, view.piles, view.table, view.prompt)
        self.hand, self.moves, self.log_view, self.score_sheet = (
            view.hand, view.moves, view.log_view, view.score_sheet)
        self.draw_button, self.take_button = view.draw_button, view.take_button
        self.buy_button, self.pass_button = view.buy_button, view.pass_button
        self.lay_down_button, self.lay_off_button = (view.lay_down_button,
                                                     view.lay_off_button)
        self.discard_button = view.discard_button
        self.ticker = poll_ticker(poll_ms, "tr-poll", guard(lambda _c: self._tick()))
        self.board = widgets.VBox([
            self.ticker, widgets.HBox([self.table_code, self.rejoin_key]),
            widgets.HBox([self.away_note, self.back_button]), self.give_row,
            self.seat_view],
            layout=widgets.Layout(display="none"))
        self.board.add_class("tr-board")

    # -- practice ------------------------------------------------------------------------
    def _practice_for(self, handle: Seat | Watcher) -> None:
        """The practice list of the seat this page now holds (none for a watcher): shown
        at once when the seat's key has one kept (a rejoin after a reload)."""
        self._practice = None
        self.practice_note.clear()
        self.practice_box.children = (self.practice_note,)
        keeper = self._practice_keeper_for(handle)
        self._practice_keeper = keeper
        if keeper is not None and keeper.load():
            self._practice_panel()
        if keeper is not None and keeper.unreadable is not None:  # said, never written over
            self.practice_note.error(keeper.unreadable)

    def _practice_keeper_for(self, handle: Seat | Watcher) -> SeatKeeper | None:
        """Where the list of the learner holding `handle` is kept: under the table's
        code and the seat's key (None for a watcher)."""
        if not isinstance(handle, Seat):
            return None
        return SeatKeeper(SeatPractice(self.store.backend), handle.code, handle.secret)

    def _practice_panel(self) -> PracticePanel:
        if self._practice is None:
            self._practice = PracticePanel(self._practice_keeper, size=self._size)
            self.practice_box.children = (self.practice_note, self._practice)
        return self._practice

    @property
    def practice(self) -> PracticePanel:
        """The "Try it again" panel (`practice.PracticePanel`) of the seat this page
        holds, made when first asked for."""
        return self._practice_panel()

    def _chosen_name(self, name: str | None) -> str | None:
        return self.lobby.chosen_name(name)

    # -- opening and joining ---------------------------------------------------------
    def open_table(self, players: int | None = None, learners: int | None = None,
                   seed: int | None = None, name: str | None = None,
                   level: str | None = None) -> str:
        """Open a table of `players` with `learners` seats for learners (0, 1, …; the
        rest are bots of `level`, else the lobby's, which also plays for a learner who is
        away), take seat 0 here (named `name`, else
        the name box's name, if any) and return the table's code."""
        players = int(self.players.value if players is None else players)
        learners = int(self.learners.value if learners is None else learners)
        if not 1 <= learners <= players:
            raise ToonervilleError(msg("a table of {n} has room for 1 to {n} learners, not "
                                       "{k}", None, n=players, k=learners))
        chosen = self._chosen_name(name)  # a bad name is refused before a table opens
        level = str(self.lobby.bot_level.value if level is None else level)
        bots = {seat: level for seat in range(learners, players)}
        code, self.host_key = self.store.open_hosted(
            players, bots=bots, seed=seed, away_after=float(self.away_after.value),
            names=table_names(players, bots), stand_in=level)
        self.give_seat_choice.options = [(_("seat {k}").format(k=k), k)
                                         for k in range(1, players)]
        self.give_to.value = level  # a seat handed over goes to the table's level
        self.give_row.layout.display = SHOWN
        self._take(self.store.claim(code, 0, name=chosen), msg(
            "table {code} is open: give your class the code {code}. You are seat 0", None,
            code=code))
        return code

    def join(self, code: str | None = None, seat: int | str | None = None,
             key: str | None = None, name: str | None = None) -> None:
        """Join table `code`: `seat` a number, None for the first free seat, or "watch";
        `key` a rejoin key to get one's seat back; `name` the name to show at the seat
        (the widgets' values by default; an empty name box keeps the seat's name)."""
        code = self.code_text.value if code is None else code
        if seat is None and code is self.code_text.value:
            seat = self.lobby.chosen_seat()
        key = (self.key_text.value.strip() or None) if key is None else key
        if seat == WATCH:
            self._take(self.store.watch(code), msg(
                "you are watching table {code}: you see the table, never a hand", None,
                code=code))
            return
        chosen = self._chosen_name(name)
        before = self.store.info(code).claimed
        fresh = key is not None and key == self._new_key  # the opener's link: a newcomer
        handle = self.store.claim(code, None if seat is None else int(seat), secret=key,
                                  name=chosen)
        if fresh and chosen is None:  # named after the seat, not the bot that held it
            self.store.name_seat(handle.code, handle.seat,
                                 _("Player {k}").format(k=handle.seat), secret=handle.secret)
            handle.refresh()
        if fresh or key is None or handle.seat not in before:
            news = msg("you have seat {seat} at table {code}", None, seat=handle.seat,
                       code=handle.code) if chosen is None else msg(
                "welcome, {name}: you have seat {seat} at table {code}", None,
                name=chosen, seat=handle.seat, code=handle.code)
            self._new_key = None
        else:
            news = msg("you are back at seat {seat} of table {code}, where the game was",
                       None, seat=handle.seat, code=handle.code)
        self._take(handle, news)

    def _review_source(self) -> tuple[Game, int] | None:
        """The game for the review of a round, and your seat (a watcher has no review).
        The whole game stays in this kernel: the review shows your own seat's views."""
        handle = self.seat
        if not isinstance(handle, Seat):
            return None
        return Game.from_json(self.store.export(handle.code)), handle.seat

    def _take(self, handle: Seat | Watcher, news: Message, kind: str = "info") -> None:
        self.seat = handle
        self._say_closing(handle)
        self._practice_for(handle)
        self._hold(SharedSession(self.store, handle))  # catches up with the table once
        self.code_text.value = handle.code
        self.table_code.value = _("Table code: <b>{code}</b>").format(code=handle.code)
        if isinstance(handle, Seat):
            link = table_link(table=handle.code, key=handle.secret)
            self.rejoin_key.value = _(
                " · your rejoin key: <code>{key}</code> (note it: with the code it gives "
                "your seat back after a reload)").format(key=escape(handle.secret)) + \
                " · " + _('<a href="{link}" target="_blank">your rejoin link</a> (keep it: '
                          'it gives this seat back on any device)').format(link=escape(link))
        else:
            self.rejoin_key.value = ""
        self.board.layout.display = SHOWN
        self.seat_view.send_offers()  # the page's setting answers this seat's buy offers
        self.poll()
        self.message.show(news, kind)
        self.ticker.playing = True

    def _hold(self, model: SharedSession) -> None:
        """Make `model` the page's seat: the seat view follows it, and the page shows
        what it says (`message`), who is away (`revision`) and when its seat is given
        away (`lost`); the model the page held before is let go."""
        old = self.model
        if old is not None:
            old.unobserve(self._said, "message")
            old.unobserve(self._seat_changed, "revision")
            old.unobserve(self._lost, "lost")
        self.model = model
        self.seat_view.follow(model)
        model.observe(self._said, "message")
        model.observe(self._seat_changed, "revision")
        model.observe(self._lost, "lost")
        self._show_away(model)

    def _said(self, _change: object) -> None:
        """What the seat model says (a move on the table, a refusal, a seat taken
        back) goes to the page's message box."""
        if self.model is None:
            return
        _serial, message, kind = self.model.message
        if message:
            self.message.show(message, kind)

    def _seat_changed(self, _change: object) -> None:
        if self.model is not None:
            self._show_away(self.model)

    def _lost(self, change: dict[str, object]) -> None:
        if change["new"] and self.model is not None:
            self._given_away(self.model)

    def _say_closing(self, handle: Seat | Watcher) -> None:
        """When this page's kernel shuts down (the tab closed, the page reloaded), its
        seat's page says so to the table at once: the other pages tell everyone when a
        bot will play for this learner, rather than wait for the quiet to count."""
        if self._on_exit is not None:
            atexit.unregister(self._on_exit)  # type: ignore[arg-type]
            self._on_exit = None
        if isinstance(handle, Seat):
            def closing(seat: Seat = handle) -> None:
                with contextlib.suppress(Exception):  # a kernel on its way out says nothing
                    seat.page_closed()
            atexit.register(closing)
            self._on_exit = closing

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
        changed; True if it did (the seat model's `SharedSession.poll`). The page's
        ticker calls this; tests call it directly."""
        model = self.model
        if model is None:
            return False
        changed = model.poll()  # the model's changes redraw the page (`_hold`)
        if self.model is model and model.handle.finished:
            self.ticker.playing = False
        return changed

    def _given_away(self, model: SharedSession) -> bool:
        """The opener gave this page's seat to a bot or to another learner: say so at
        once, in the model's words (`lost_words`), and watch the table from now on (no
        hand, no "(you)")."""
        words = model.lost_words()
        if words is None:
            return False
        self._take(self.store.watch(model.code), words, kind="error")
        return True

    def _show_away(self, model: SharedSession) -> None:
        """Say who is away, whose page closed and when a bot plays for them, and offer an
        away learner their seat (the model's words: `away_words`, `away_here`)."""
        self.away_note.value = " · ".join(escape(note) for note in model.away_words())
        self.back_button.layout.display = displayed(model.away_here)

    def give_seat(self, seat: int | None = None, to: str | None = None) -> str | None:
        """The opener gives `seat` to a bot (`to` a bot kind) or to a new learner (`to`
        ""): then the new learner's key is shown (with a rejoin link) and returned."""
        handle = self.seat
        if handle is None or self.host_key is None:
            raise ToonervilleError(msg("only the page that opened table {code} (or the "
                                       "tournament's teacher) may hand its seats over",
                                       None, code=handle.code if handle else "-"))
        seat = int(self.give_seat_choice.value if seat is None else seat)
        to = self.give_to.value if to is None else to
        key = self.store.give_seat(handle.code, seat, to or None, key=self.host_key)
        self.poll()
        if key is None:
            self.message.ok(msg("seat {seat} at table {code} is played by a bot now", None,
                                seat=seat, code=handle.code))
            return None
        link = table_link(table=handle.code, key=key, new="1")
        self.message.ok(msg("seat {seat} at table {code} is for a new learner: they join "
                            "with the code {code} and the key {key}, or open this page's "
                            "address followed by {link}", None, seat=seat, code=handle.code,
                            key=key, link=link))
        return key

    # -- what the learner does: the seat model's (`SharedSession`) -------------------
    def _send_offers(self, setting: str) -> None:
        """The learner's buy-offer setting goes to the table through the seat model
        (`SharedSession.set_buy_offers`); before a seat there is none to send."""
        if self.model is not None:
            self.model.set_buy_offers(setting)

    def come_back(self) -> bool:
        """Take this page's seat back from the bot that played it while you were away
        (`SharedSession.come_back`, which says so)."""
        return self.model is not None and self.model.come_back()

    def _play(self, action: A.Action) -> bool:
        """A move of the seat view goes to the seat model (`SharedSession.act`), which
        sends it and says what came of it."""
        if self.model is None:
            self.message.error(msg("you are watching: join a seat to play", None))
            return False
        return self.model.act(action)


__all__ = ["POLL_MS", "SharedTable", "table_link", "table_names"]
