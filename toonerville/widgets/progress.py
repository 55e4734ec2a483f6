"""A page of a class records what its learner does, for the teacher's dashboard.

Owns the page's side of `store.progress`: a page belongs to a class when its address
says so (`?class=CODE&me=KEY`, the learner's key from joining the class, which the
class's pages carry to every page they link to: `class-links.js`); such a
page notes that it opened (`page_opened`, from the language picker every page has), the
Try-its the learner does on a lesson (`acted`, around each lesson action; on 07,
`follow_play` watches the game; `tryits` says which are done), each hint asked for
(`hint_used`) and each review opened with the points it found (`review_opened`), and
that it closed (as its kernel stops). A page of no class records nothing and pays
nothing.

Recording never holds up or breaks the learner's page: the notes go to a queue that one
thread of the page's kernel writes to the store (`Recorder`); a store that is slow,
missing or refusing only costs a line in the log, and the page goes on. Under Pyodide
(the static site: no store, no threads) nothing is recorded.
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .url import query_params

if TYPE_CHECKING:  # the store is imported only by a page of a class (sqlite3 and all)
    from ..store.backend import Backend
    from ..store.progress import ProgressStore, Roster

log = logging.getLogger("toonerville.widgets")

#: the page address's parameters of a class: its code and the learner's key in it
CLASS_PARAM, LEARNER_PARAM = "class", "me"
#: the address's parameters naming the table or tournament a page is at
PLACE_PARAMS = ("table", "tournament")
#: how long a closing page waits for its last notes to be written (seconds)
CLOSING_WAIT_S = 2.0


def class_roster(backend: Backend) -> Roster:
    """The classes kept in `backend` (`store.classes.ClassStore`)."""
    from ..store.classes import ClassStore

    return ClassStore(backend)


def _open_progress() -> ProgressStore:
    """The progress store of the kit's store (`store_place.store_location`), with the
    classes of that store as its roster."""
    from ..store import open_store
    from ..store.progress import ProgressStore
    from .store_place import store_location

    backend = open_store(store_location()).backend
    return ProgressStore(backend, class_roster(backend))


#: how a page opens its progress store (tests give their own)
open_progress: Callable[[], ProgressStore] = _open_progress


class Recorder:
    """Writes one page's notes to the store, in a thread of its own, best-effort (see
    the module's docstring). `code` is the class, `key` the learner's key in it."""

    def __init__(self, code: str, key: str, page: str, place: str = "",
                 opener: Callable[[], ProgressStore] | None = None) -> None:
        self.code, self.key, self.page, self.place = code, key, page, place
        self._opener = opener or open_progress
        self._store: ProgressStore | None = None
        self._queue: queue.Queue[tuple[str, str]] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        #: the Try-its already noted by this page (each is written once)
        self.done: set[str] = set()
        #: the reviews already noted by this page
        self.reviews: set[object] = set()
        #: notes written, and notes that could not be (logged)
        self.written = self.failed = 0

    def note(self, kind: str, detail: str = "") -> None:
        """Queue a note (never blocks, never raises)."""
        self._queue.put((kind, detail))
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="progress",
                                                daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            kind, detail = self._queue.get()
            try:
                self._write(kind, detail)
            finally:
                self._queue.task_done()

    def _write(self, kind: str, detail: str) -> None:
        try:
            if self._store is None:
                self._store = self._opener()
            self._store.record(self.code, self.key, kind, page=self.page, detail=detail)
            self.written += 1
        except Exception as err:  # a bonus for the teacher: never the learner's problem
            self.failed += 1
            log.warning("progress of class %s not recorded (%s): %s", self.code, kind, err)

    def flush(self, timeout: float = CLOSING_WAIT_S) -> bool:
        """Wait (at most `timeout` seconds) until every note queued is written or given
        up; True if none is left."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    def closing(self) -> None:
        """The page's kernel stops: note that the page closed, and wait a moment for the
        notes still queued."""
        from ..store.progress import PAGE_CLOSED

        self.note(PAGE_CLOSED)
        self.flush()


_recorder: Recorder | None = None
_asked = False


def page_name() -> str:
    """The page's notebook ("03-contracts"), from the address Voila was asked for."""
    path = os.environ.get("SCRIPT_NAME", "")
    name = path.rstrip("/").rsplit("/", 1)[-1]
    return name[:-len(".ipynb")] if name.endswith(".ipynb") else name


def recorder() -> Recorder | None:
    """This page's recorder, made the first time it is asked for (and the page's
    opening noted), or None for a page of no class."""
    global _recorder, _asked
    if _asked:
        return _recorder
    _asked = True
    if sys.platform == "emscripten":
        return None
    params = query_params()
    code, key = params.get(CLASS_PARAM, "").strip().upper(), params.get(LEARNER_PARAM, "")
    if not code or not key:
        return None
    place = next((params[p].strip().upper() for p in PLACE_PARAMS if params.get(p)), "")
    from ..store.progress import PAGE_OPENED

    _recorder = Recorder(code, key.strip(), page_name(), place)
    _recorder.note(PAGE_OPENED, place)
    atexit.register(_recorder.closing)
    return _recorder


def forget() -> None:
    """Forget this kernel's recorder (tests: the next `recorder()` reads the address
    again)."""
    global _recorder, _asked
    if _recorder is not None:
        atexit.unregister(_recorder.closing)
    _recorder, _asked = None, False


def page_opened() -> None:
    """The page opened: note it if it belongs to a class (every page's language picker
    calls this; only the first call of a kernel counts)."""
    recorder()


def acted(lesson: object, action: Callable[[], Any]) -> None:
    """Run a lesson's `action` (a button's, a control's), then note each Try-it it
    completed, once."""
    action()
    rec = recorder()
    if rec is None:
        return
    from .tryits import done_after

    try:
        fresh = done_after(lesson, action)
    except Exception:  # the rule of a Try-it met a state it did not expect: no note
        log.warning("could not tell which Try-its are done", exc_info=True)
        return
    _note_done(rec, fresh)


def _note_done(rec: Recorder, items: set[str]) -> None:
    """Note each Try-it of `items` this page has not noted yet."""
    from ..store.progress import TRY_IT_DONE

    for item in sorted(items - rec.done):
        rec.done.add(item)
        rec.note(TRY_IT_DONE, item)


def follow_play(session: Any) -> None:
    """Note 07's Try-its as the game page's session (`session.PlaySession`) plays: at
    each new game and each move (`tryits.done_in_play`). Nothing for a page of no class."""
    rec = recorder()
    if rec is None:
        return
    from .tryits import done_in_play

    def changed(_change: Any) -> None:
        try:
            fresh = done_in_play(session)
        except Exception:  # the rule met a state it did not expect: no note
            log.warning("could not tell which Try-its of 07 are done", exc_info=True)
            return
        _note_done(rec, fresh)

    session.observe(changed, ["game", "moves"])


def hint_used() -> None:
    """The learner asked the coach for a hint."""
    rec = recorder()
    if rec is not None:
        from ..store.progress import HINT_USED

        rec.note(HINT_USED)


def review_opened(review: object, cost: float) -> None:
    """The learner has opened the review `review` (anything that names it: a round of a
    game), which found decisions costing `cost` points in all; noted once per review."""
    rec = recorder()
    if rec is not None and review not in rec.reviews:
        from ..store.progress import REVIEW_OPENED

        rec.reviews.add(review)
        rec.note(REVIEW_OPENED, str(max(0, round(cost))))
