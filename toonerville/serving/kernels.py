"""The kernels of a served class: a cap, a cap per visitor, hardened kernels, and culling
that gives back what no page uses while sparing a page that is still loading.

`ClassKernelManager` is Voila's kernel manager (``VoilaConfiguration.multi_kernel_manager_class``
in `voila.json`), a jupyter_server `AsyncMappingKernelManager` with these changes:

* at most `max_kernels` kernels live at once (those still starting included), and at most
  `max_kernels_per_visitor` of them are one visitor's (a browser, by the name the server
  signed into its cookie, else its address: `visitors`), `max_kernels_per_teacher` the
  teacher's. The next one gets `ClassFullError`, an HTTP 503 that the page
  template turns into "the class is full" or "too many pages open in this browser", with
  a retry a minute later (`share/jupyter/voila/templates/toonerville/503.html`), instead of
  a server that starts kernels until it runs out of memory;
* a page uses its kernel once its websocket has sent a message (`traffic` tells
  `page_in_use`); a websocket held open without a word is no page in use;
* the class cap is reached only by learners who are there: before refusing anyone, the
  manager gives back a kernel whose page was sent but is not in use and has not been
  heard of for `absent_after` seconds (a plain HTTP request, a tab closed while loading,
  a script holding a silent websocket), the asking visitor's own first (their earlier
  reloads), else one whose page was sent `pressed_after` seconds ago and is still not in
  use, though it asks for its kernel (a script polling the REST API, or a page stuck
  loading in a rush), but that one only to a visitor refused at least `retry_after`
  seconds before: a learner who came back (the full page tries again by itself), not a
  script asking under a new name every second;
* every Python kernel runs `toonerville.widgets.safety.harden()` before the notebook, and
  writes its stderr to the server's log rather than to the page, so no traceback or server
  path reaches a page over the widget channel or a stream;
* a kernel whose visitor hung up before the page was sent is shut down at once; one whose
  page was sent but is not in use is culled `load_grace` seconds after the page was sent
  or last asked for its kernel (a loading page asks every 5 s: the template's check that
  its kernel is still there), and `connect_within` seconds after it was sent even if it
  asks (the page itself reloads after 180 s without a connection), so a page that never
  connects gives its kernel back within a minute, one that only polls within
  `connect_within`, while a slow page of a class-sized rush keeps it; a page in use has
  its kernel culled as jupyter_server culls (``cull_idle_timeout``, ``cull_connected``
  false);
* each page's websocket is bounded in message size and rate (`traffic`).

The manager is the one owner of this state: `_pages` maps a kernel id to its `Page`, an
immutable record replaced on every change.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado.web import HTTPError
from traitlets import Float, Int, Unicode

from . import traffic, visitors
from .pool import KernelPool, Key
from .texts import page_texts

HARDEN = "from toonerville.widgets.safety import harden; harden()"

#: what every served Python kernel is started with: `harden()` before the notebook, and the
#: kernel's own stderr file (where `harden()` writes the tracebacks it keeps from the page)
#: left to the server's log. ipykernel otherwise captures that file descriptor and sends
#: whatever is written to it to the page as a stderr stream, tracebacks included.
KERNEL_ARGUMENTS = (f"--IPKernelApp.exec_lines={HARDEN}",
                    "--IPKernelApp.capture_fd_output=False")


#: the visitor of a kernel started for no page request (a preheated kernel)
SERVER = "server"
#: seconds a refusal for a full class is remembered (the full page tries again each minute)
REFUSALS_KEPT_S = 600.0


class ClassFullError(HTTPError):
    """No kernel for this visitor: the class already has `limit` live kernels (`kind`
    "full"), or this visitor has `limit` of their own (`kind` "yours").

    An HTTP 503; `texts` carries the page's sentences in every language for the 503
    template, which shows the texts `<kind>_title` and `<kind>_body`."""

    def __init__(self, limit: int, kind: str = "full") -> None:
        if kind == "full":
            super().__init__(503, "the class is full: %d kernels are running", limit)
        else:
            super().__init__(503, "too many pages open in this browser: %d kernels", limit)
        self.limit = limit
        self.kind = kind
        self.texts = page_texts()


@dataclass(frozen=True)
class Page:
    """What the manager knows of the page a kernel was started for (times: monotonic s)."""

    visitor: str
    started: float
    served: float | None = None  # when the whole page had been sent
    heard: float | None = None  # when the page last asked for its kernel
    connected: bool = False  # a page (a websocket) has connected to the kernel
    in_use: bool = False  # a page has sent its kernel a message over its websocket

    def absent_for(self, now: float) -> float | None:
        """Seconds since a sent page not in use was last heard of; None for a page that is
        in use or still being sent."""
        if self.in_use or self.served is None:
            return None
        return now - max(self.served, self.heard or self.served)

    def waiting_for(self, now: float) -> float | None:
        """Seconds since a page not in use was sent, heard of or not; None for a page that
        is in use or still being sent."""
        if self.in_use or self.served is None:
            return None
        return now - self.served


class ClassKernelManager(AsyncMappingKernelManager):
    """A kernel manager for a class: capped (per class and per visitor), hardened kernels;
    culling that gives back unused kernels and spares loading pages."""

    max_kernels = Int(
        40, config=True,
        help="The most kernels alive at once (0: no cap). One per open page: choose it "
             "from the class size and the machine's memory (benchmarks/README.md).")
    max_kernels_per_visitor = Int(
        4, config=True,
        help="The most kernels one visitor (a browser, else an address) holds at once "
             "(0: no cap). Asking for another gives back the visitor's own page that "
             "never connected, else says there are too many pages open.")
    load_grace = Float(
        45.0, config=True,
        help="Seconds a kernel whose page was sent but never connected is kept after the "
             "page was sent or last asked for it (a loading page asks every 5 s); then it "
             "is culled at the next cull_interval.")
    absent_after = Float(
        15.0, config=True,
        help="Seconds after which a sent page that never connected and has not asked for "
             "its kernel is absent: its kernel is given to a visitor who would otherwise "
             "be refused.")

    pool_size = Int(
        0, config=True,
        help="Kernels started before the pages that will use them and handed out as pages "
             "open (`make app POOL=...`); they count against max_kernels (0: no pool).")
    pool_fill_delay = Float(
        1.0, config=True,
        help="Seconds after a pool kernel is handed out before the pool starts another "
             "(so that refilling does not slow the page being opened).")
    pressed_after = Float(
        60.0, config=True,
        help="Seconds after which a sent page not in use gives its kernel to a visitor who "
             "would otherwise be refused, even if it asks for its kernel.")
    retry_after = Float(
        5.0, config=True,
        help="Seconds a visitor refused for a full class waits before a page sent "
             "pressed_after ago but not in use may be taken back for them.")
    connect_within = Float(
        200.0, config=True,
        help="Seconds after it was sent within which a page must use its kernel (the page "
             "itself reloads after 180 s); then its kernel is culled even if the page asks "
             "for it.")
    max_kernels_per_teacher = Int(
        12, config=True,
        help="The most kernels the teacher (a browser that opened a page with "
             "?teacher=<teacher_key>) holds at once (0: only the class cap).")
    teacher_key = Unicode(
        "", config=True,
        help="The teacher's key: ?teacher=<key> on any page makes that browser the "
             "teacher's. Empty: TOONERVILLE_TEACHER_KEY, else a key made at start-up and "
             "written to the log.")
    new_visitors_burst = Int(
        20, config=True,
        help="New visitors (browsers the server names) one address may bring at once (0: "
             "no limit); a page of a browser not let in yet counts as its address's.")
    new_visitors_per_minute = Float(
        20.0, config=True,
        help="New visitors one address may bring per minute after the burst.")
    page_messages_burst = Int(
        2000, config=True,
        help="Messages a page may send its kernel at once: a page whose kernel is slow "
             "to answer (a busy server) asks for each of its widgets apart, some 400 "
             "for page 10.")
    page_messages_per_second = Float(
        100.0, config=True,
        help="Messages a page may send its kernel per second after the burst (more are "
             "dropped).")
    page_bytes_burst = Int(
        traffic.MAX_MESSAGE_BYTES, config=True,
        help="Bytes a page may send its kernel at once (a saved game loaded from a file).")
    page_bytes_per_second = Float(
        256 * 1024, config=True,
        help="Bytes a page may send its kernel per second after the burst (more closes "
             "its connection).")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)  # type: ignore[no-untyped-call]
        self._starting: Counter[str] = Counter()
        self._pages: dict[str, Page] = {}
        self._pool = KernelPool(self.pool_size, self._start_for_pool, self._shut_quietly,
                                self.get_kernel, self.__contains__, self.log,
                                self.pool_fill_delay)
        self._refused: dict[str, float] = {}  # visitor -> first refused for a full class
        self._teacher_key = (self.teacher_key or os.environ.get("TOONERVILLE_TEACHER_KEY", "")
                             or secrets.token_urlsafe(18))
        if not (self.teacher_key or os.environ.get("TOONERVILLE_TEACHER_KEY")):
            self.log.warning("The teacher's key of this server: add ?teacher=%s to the "
                             "address of any page to open it as the teacher",
                             self._teacher_key)
        visitors.install(self)
        traffic.install(self)
        if self.pool_size > 0:  # the pages at the server's root (make app's notebooks/)
            from tornado.ioloop import IOLoop

            IOLoop.current().add_callback(self._pool.want, ("python3", ""))

    async def _start_for_pool(self, key: Key) -> str:
        # a page's kernel, whose page is not known yet: Voila's variables mark it as served
        # from its first line (so `harden()` runs at its start, as in every page's kernel);
        # the page's own values are put in when it is handed out
        env = {**os.environ, "VOILA_PREHEAT": "False", "VOILA_BASE_URL": "/",
               "SERVER_SOFTWARE": "voila/pool"}
        return await self.start_kernel(kernel_name=key[0], path=key[1], env=env)

    def teacher_key_value(self) -> str:
        """The key that makes a browser the teacher's (`visitors`)."""
        return self._teacher_key

    def live_kernels(self) -> int:
        """Kernels running or starting now."""
        return len(self.list_kernel_ids()) + self._starting.total()

    def kernels_of(self, visitor: str) -> int:
        """Kernels of `visitor` running or starting now."""
        return (sum(1 for p in self._pages.values() if p.visitor == visitor)
                + self._starting[visitor])

    # jupyter_server's own start_kernel is async too, whatever jupyter_client's type says
    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:  # type: ignore[override]
        request = visitors.current()
        visitor = request.visitor if request is not None else SERVER
        if request is not None and self._pool.size > 0:
            await self._make_room(visitor, new=False)
            key = (str(kwargs.get("kernel_name") or "python3"), str(kwargs.get("path") or ""))
            self._starting[visitor] += 1  # held while it is handed out: the caps count it
            try:
                pooled = await self._pool.take(key, kwargs.get("env"))
            finally:
                self._starting[visitor] -= 1
                if self._starting[visitor] <= 0:
                    del self._starting[visitor]
            if pooled is not None:
                self._refused.pop(visitor, None)
                self._pages[pooled] = Page(visitor, time.monotonic())
                request.kernel_id = pooled
                if request.done:  # the visitor left while it was handed out
                    self.page_abandoned(pooled)
                return pooled
        await self._make_room(visitor)
        if kwargs.get("kernel_name", "python3").startswith("python"):
            extra = list(kwargs.get("extra_arguments") or [])
            kwargs["extra_arguments"] = [*extra, *KERNEL_ARGUMENTS]
        self._starting[visitor] += 1
        try:
            kernel_id: str = await super().start_kernel(*args, **kwargs)
        finally:
            self._starting[visitor] -= 1
            if self._starting[visitor] <= 0:
                del self._starting[visitor]
        self._pages[kernel_id] = Page(visitor, time.monotonic())
        if request is not None:
            request.kernel_id = kernel_id
            if request.done:  # the visitor left while the kernel started
                self.page_abandoned(kernel_id)
        return kernel_id

    async def _make_room(self, visitor: str, new: bool = True) -> None:
        """Check the caps before a kernel starts for `visitor` (or, with `new` false, is
        handed to them from the pool: the class's cap is then not concerned); give back
        absent pages' kernels (theirs first) rather than refuse; raise `ClassFullError`
        if still full."""
        per_visitor = (self.max_kernels_per_teacher if visitors.is_teacher(visitor)
                       else self.max_kernels_per_visitor)
        mine_full = (per_visitor > 0 and visitor != SERVER
                     and self.kernels_of(visitor) >= per_visitor)
        if mine_full and not await self._give_back(visitor, 0.0):
            self.log.warning("Visitor %s already holds %d kernels, refusing another",
                             visitor, self.kernels_of(visitor))
            raise ClassFullError(per_visitor, "yours")
        class_full = new and self.max_kernels > 0 and self.live_kernels() >= self.max_kernels
        if class_full and visitor == SERVER:  # the pool fills only while the class has room
            raise ClassFullError(self.max_kernels)
        if class_full and not (await self._give_back(visitor, 0.0)
                               or await self._give_back(None, self.absent_after)
                               or (self._came_back(visitor)
                                   and await self._give_back(None, self.pressed_after,
                                                             heard=False))):
            self.log.warning("Class full: %d kernels running or starting, refusing another",
                             self.live_kernels())
            self._refused.setdefault(visitor, time.monotonic())
            raise ClassFullError(self.max_kernels)
        if new:  # (a pool's hand-out is checked before it is known to succeed)
            self._refused.pop(visitor, None)

    def _came_back(self, visitor: str) -> bool:
        """Was `visitor` refused for a full class `retry_after` s ago or more (and not so
        long ago that it has surely left)? Forgets refusals of visitors long gone."""
        now = time.monotonic()
        stale = now - REFUSALS_KEPT_S
        if len(self._refused) > 1000 or (self._refused
                                         and next(iter(self._refused.values())) < stale):
            self._refused = {v: at for v, at in self._refused.items() if at >= stale}
        first = self._refused.get(visitor)
        return first is not None and now - first >= self.retry_after

    async def _give_back(self, visitor: str | None, absent: float, heard: bool = True
                         ) -> bool:
        """Shut down the longest-absent kernel (of `visitor`, or anyone's for None) whose
        page was sent, is not in use and was not heard of for `absent` s (with `heard`
        false: was sent `absent` s ago, heard of or not); whether one was."""
        now = time.monotonic()
        candidates = sorted(
            (-gone, kernel_id) for kernel_id, page in self._pages.items()
            if (visitor is None or page.visitor == visitor)
            and (gone := page.absent_for(now) if heard else page.waiting_for(now)) is not None
            and gone >= absent)
        if not candidates:
            return False
        kernel_id = candidates[0][1]
        self.log.info("Giving back kernel %s: its page was sent but has not used it for "
                      "%.0f s", kernel_id, -candidates[0][0])
        self._pages.pop(kernel_id, None)
        await self.shutdown_kernel(kernel_id, now=True)  # type: ignore[no-untyped-call]
        return True

    def _update(self, kernel_id: str, **changes: Any) -> None:
        page = self._pages.get(kernel_id)
        if page is not None:
            self._pages[kernel_id] = replace(page, **changes)

    def page_served(self, kernel_id: str) -> None:
        """The whole page of `kernel_id` has been sent to its visitor."""
        self._update(kernel_id, served=time.monotonic())

    def page_abandoned(self, kernel_id: str) -> None:
        """The visitor of `kernel_id` left before the page was sent: shut it down now."""
        page = self._pages.get(kernel_id)
        if page is None or page.connected:
            return
        self.log.info("Shutting down kernel %s: its visitor left before the page was sent",
                      kernel_id)
        self._pages.pop(kernel_id, None)
        asyncio.ensure_future(self._shut_quietly(kernel_id))

    async def _shut_quietly(self, kernel_id: str) -> None:
        try:
            await self.shutdown_kernel(kernel_id, now=True)  # type: ignore[no-untyped-call]
        except Exception:  # already gone (a beacon, the culler): nothing to give back
            self.log.debug("kernel %s was already gone", kernel_id)

    def kernel_model(self, kernel_id: str) -> Any:
        """jupyter_server's model of a kernel; a page asking for it is a page still there."""
        model = super().kernel_model(kernel_id)  # type: ignore[no-untyped-call]
        self._update(kernel_id, heard=time.monotonic())
        return model

    def page_connecting(self, kernel_id: str) -> None:
        """A page of `kernel_id` is opening its websocket (`traffic`): it is there."""
        self._update(kernel_id, heard=time.monotonic())

    def page_in_use(self, kernel_id: str) -> None:
        """A page of `kernel_id` has sent it a message over its websocket (`traffic`)."""
        self._update(kernel_id, in_use=True)

    def notify_connect(self, kernel_id: str) -> None:
        self._update(kernel_id, connected=True, heard=time.monotonic())
        super().notify_connect(kernel_id)  # type: ignore[no-untyped-call]

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        page = self._pages.get(kernel_id)
        if page is None:
            return  # still starting (jupyter_server's culler would trip on it)
        now = time.monotonic()
        absent, waiting = page.absent_for(now), page.waiting_for(now)
        if not page.in_use:
            if absent is None or waiting is None or (absent < self.load_grace
                                                     and waiting < self.connect_within):
                return  # still being sent, or loading in a browser: not abandoned
            self.log.info("Culling kernel %s: its page was sent %.0f s ago and has not "
                          "used it", kernel_id, waiting)
            self._pages.pop(kernel_id, None)
            await self.shutdown_kernel(kernel_id, now=True)  # type: ignore[no-untyped-call]
            return
        await super().cull_kernel_if_idle(kernel_id)  # type: ignore[no-untyped-call]

    def remove_kernel(self, kernel_id: str) -> Any:
        self._pages.pop(kernel_id, None)
        self._pool.forget(kernel_id)
        return super().remove_kernel(kernel_id)
