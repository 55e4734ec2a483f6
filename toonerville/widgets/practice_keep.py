"""Where a learner's practice positions are kept for a reload: the store, or the browser.

Owns the keepers of a page's practice list (`coach.practice`, the panel
`widgets.practice`), each with `load()` (the list's text as last kept, or None) and
`keep(text)`:

- `StoreKeeper`: on a served page (Voila), the class store (`store.practice`) under the
  key of the page's game (`resume.GameKeeper.key`, the address's `?game=KEY`): a reload,
  even in a new kernel, finds the list with the game.
- `SeatKeeper`: at a shared table (09), the table's store (`store.seat_practice`, on
  SQLite or PostgreSQL) under the seat's key: rejoining the seat (its code and key, the
  rejoin link) brings the list back, on any server of the same database.
- `BrowserKeeper`: on the static site (Pyodide), the browser's `localStorage`. The kernel
  runs in a web worker, which has no `localStorage`, so the page's script
  (`site/practice-store.js`, inlined by `tools/build_site.py`) hands the stored list to
  the kernel when it starts, in the environment variable `TOONERVILLE_PRACTICE` (as
  `site/url-query.js` hands it the query string), and copies every list the kernel
  writes into a hidden element (`marker`: `.tr-practice-store [data-practice]`) back
  into `localStorage` under `toonerville-practice`.

`keeper_for_page(game_keeper)` picks one for a page of one's own game (None in
JupyterLab: the list lives in the kernel); a shared table makes its `SeatKeeper` for the
seat it holds. A keeper that cannot keep says so through `keep`'s answer; the page goes
on.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from html import escape
from typing import Protocol

import ipywidgets as widgets

from ..engine.errors import ToonervilleError
from ..engine.messages import Message
from ..pages.serverless import in_the_browser_only
from ..store.errors import CorruptTableError
from ..store.practice import PracticeLists
from ..store.seat_practice import SeatPractice
from .resume import GameKeeper

log = logging.getLogger("toonerville.widgets")

#: the environment variable the static site's page script fills from localStorage
ENV = "TOONERVILLE_PRACTICE"
#: the localStorage key the page script keeps the list under (for tests and the script)
STORAGE_KEY = "toonerville-practice"


class PracticeKeeper(Protocol):
    """What the panel asks of a keeper."""

    marker: widgets.Widget | None

    def load(self) -> str | None: ...

    def keep(self, text: str) -> str | None: ...  # None: kept; else why not


class StoreKeeper:
    """The list in the class store, under the page's game key."""

    marker: widgets.Widget | None = None

    def __init__(self, lists: PracticeLists, key: str) -> None:
        self.lists = lists
        self.key = key

    def __repr__(self) -> str:
        return f"StoreKeeper({self.lists!r})"  # the key stays out of logs

    def load(self) -> str | None:
        try:
            return self.lists.find(self.key)
        except (ToonervilleError, sqlite3.Error) as err:
            log.warning("practice positions could not be read: %s", err)
            return None

    def keep(self, text: str) -> str | None:
        try:
            self.lists.keep(self.key, text)
        except (ToonervilleError, sqlite3.Error, OSError) as err:
            log.warning("practice positions could not be kept: %s", err)
            return str(err)[:160]
        return None


class SeatKeeper:
    """The list of the learner at a shared table's seat, in the table's store."""

    marker: widgets.Widget | None = None

    def __init__(self, lists: SeatPractice, code: str, secret: str) -> None:
        self.lists, self.code, self.secret = lists, code, secret
        #: why the list kept before could not be read (then it is never written over)
        self.unreadable: Message | None = None
        #: the list as read or last kept (read from the store once: the page asks whether
        #: there is one, then its panel loads it)
        self._known: tuple[str | None] | None = None

    def __repr__(self) -> str:
        return f"SeatKeeper({self.code!r})"  # the seat's key stays out of logs

    def load(self) -> str | None:
        if self._known is not None:
            return self._known[0]
        try:
            text = self.lists.find(self.code, self.secret)
        except CorruptTableError as err:
            log.warning("practice positions could not be read: %s", err)
            self.unreadable = err.message
            return None
        except ToonervilleError as err:  # not known: asked again next time
            log.warning("practice positions could not be read: %s", err)
            return None
        self._known = (text,)
        return text

    def keep(self, text: str) -> str | None:
        if self.unreadable is not None:  # what is there is left as it is
            return str(self.unreadable)[:160]
        try:
            self.lists.keep(self.code, self.secret, text)
        except ToonervilleError as err:
            log.warning("practice positions could not be kept: %s", err)
            return str(err)[:160]
        self._known = (text,)
        return None


class BrowserKeeper:
    """The list in the browser's localStorage, through the page's script."""

    def __init__(self, environ: dict[str, str] | None = None) -> None:
        self._environ = os.environ if environ is None else environ
        self.marker: widgets.Widget | None = widgets.HTML(
            layout=widgets.Layout(display="none"))
        self.marker.add_class("tr-practice-store")

    def load(self) -> str | None:
        return self._environ.get(ENV) or None

    def keep(self, text: str) -> str | None:
        assert self.marker is not None
        self.marker.value = f'<span data-practice="{escape(text, quote=True)}"></span>'
        return None


def keeper_for_page(game_keeper: GameKeeper | None) -> StoreKeeper | BrowserKeeper | None:
    """The page's keeper: the store beside its game's when the page keeps its game
    (Voila), the browser on the static site, else None."""
    if game_keeper is not None:
        try:
            return StoreKeeper(PracticeLists(game_keeper.games.path), game_keeper.key)
        except (sqlite3.Error, OSError) as err:
            log.warning("no store for practice positions: %s", err)
            return None
    if in_the_browser_only():
        return BrowserKeeper()
    return None
