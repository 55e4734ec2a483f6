"""The kernels of a served class: a cap, a cap per visitor, hardened kernels, and culling
that gives back what no page uses while sparing a page that is still loading.

`ClassKernelManager` is Voila's kernel manager (``VoilaConfiguration.multi_kernel_manager_class``
in `voila.json`), a jupyter_server `AsyncMappingKernelManager` with these changes:

* at most `max_kernels` kernels live at once (those still starting included), and at most
  `max_kernels_per_visitor` of them are one visitor's (a browser, by its cookie, else its
  address: `visitors`). The next one gets `ClassFullError`, an HTTP 503 that the page
  template turns into "the class is full" or "too many pages open in this browser", with
  a retry a minute later (`share/jupyter/voila/templates/toonerville/503.html`), instead of
  a server that starts kernels until it runs out of memory;
* the class cap is reached only by learners who are there: before refusing anyone, the
  manager gives back a kernel whose page was sent but never connected and has not been
  heard of for `absent_after` seconds (a plain HTTP request, a tab closed while loading),
  the asking visitor's own first (their earlier reloads);
* every Python kernel runs `toonerville.widgets.safety.harden()` before the notebook, and
  writes its stderr to the server's log rather than to the page, so no traceback or server
  path reaches a page over the widget channel or a stream;
* a kernel whose visitor hung up before the page was sent is shut down at once; one whose
  page was sent but never connected is culled `load_grace` seconds after the page was sent
  or last asked for its kernel (a loading page asks every 5 s: the template's check that
  its kernel is still there), so a page that never connects gives its kernel back within
  a minute while a slow page of a class-sized rush keeps it; a connected page's kernel is
  culled as jupyter_server culls (``cull_idle_timeout``, ``cull_connected`` false).

The manager is the one owner of this state: `_pages` maps a kernel id to its `Page`, an
immutable record replaced on every change.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado.web import HTTPError
from traitlets import Float, Int

from . import visitors
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

    def absent_for(self, now: float) -> float | None:
        """Seconds since a sent, never-connected page was last heard of; None for a page
        that is connected or still being sent."""
        if self.connected or self.served is None:
            return None
        return now - max(self.served, self.heard or self.served)


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

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)  # type: ignore[no-untyped-call]
        self._starting: Counter[str] = Counter()
        self._pages: dict[str, Page] = {}
        self._pool = KernelPool(self.pool_size, self._start_for_pool, self._shut_quietly,
                                self.get_kernel, self.__contains__, self.log,
                                self.pool_fill_delay)
        visitors.install(self)
        if self.pool_size > 0:  # the pages at the server's root (make app's notebooks/)
            from tornado.ioloop import IOLoop

            IOLoop.current().add_callback(self._pool.want, ("python3", ""))

    @property
    def pool(self) -> KernelPool:
        """The kernels waiting for pages."""
        return self._pool

    async def _start_for_pool(self, key: Key) -> str:
        # a page's kernel, whose page is not known yet: Voila's variables mark it as served
        # from its first line (so `harden()` runs at its start, as in every page's kernel);
        # the page's own values are put in when it is handed out
        env = {**os.environ, "VOILA_PREHEAT": "False", "VOILA_BASE_URL": "/",
               "SERVER_SOFTWARE": "voila/pool"}
        return await self.start_kernel(kernel_name=key[0], path=key[1], env=env)

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
            pooled = await self._pool.take(key, kwargs.get("env"))
            if pooled is not None:
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
        per_visitor = self.max_kernels_per_visitor
        mine_full = (per_visitor > 0 and visitor != SERVER
                     and self.kernels_of(visitor) >= per_visitor)
        if mine_full and not await self._give_back(visitor, 0.0):
            self.log.warning("Visitor %s already holds %d kernels, refusing another",
                             visitor, self.kernels_of(visitor))
            raise ClassFullError(per_visitor, "yours")
        class_full = new and self.max_kernels > 0 and self.live_kernels() >= self.max_kernels
        if class_full and not (await self._give_back(visitor, 0.0)
                               or await self._give_back(None, self.absent_after)):
            self.log.warning("Class full: %d kernels running or starting, refusing another",
                             self.live_kernels())
            raise ClassFullError(self.max_kernels)

    async def _give_back(self, visitor: str | None, absent: float) -> bool:
        """Shut down the longest-absent kernel (of `visitor`, or anyone's for None) whose
        page was sent, never connected and was not heard of for `absent` s; whether one was."""
        now = time.monotonic()
        candidates = sorted(
            (-gone, kernel_id) for kernel_id, page in self._pages.items()
            if (visitor is None or page.visitor == visitor)
            and (gone := page.absent_for(now)) is not None and gone >= absent)
        if not candidates:
            return False
        kernel_id = candidates[0][1]
        self.log.info("Giving back kernel %s: its page was sent %.0f s ago and never "
                      "connected", kernel_id, -candidates[0][0])
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

    def notify_connect(self, kernel_id: str) -> None:
        self._update(kernel_id, connected=True)
        super().notify_connect(kernel_id)  # type: ignore[no-untyped-call]

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        page = self._pages.get(kernel_id)
        if page is None:
            return  # still starting (jupyter_server's culler would trip on it)
        absent = page.absent_for(time.monotonic())
        if not page.connected:
            if absent is None or absent < self.load_grace:
                return  # still being sent, or loading in a browser: not abandoned
            self.log.info("Culling kernel %s: its page was sent %.0f s ago and never "
                          "connected", kernel_id, absent)
            self._pages.pop(kernel_id, None)
            await self.shutdown_kernel(kernel_id, now=True)  # type: ignore[no-untyped-call]
            return
        await super().cull_kernel_if_idle(kernel_id)  # type: ignore[no-untyped-call]

    def remove_kernel(self, kernel_id: str) -> Any:
        self._pages.pop(kernel_id, None)
        self._pool.forget(kernel_id)
        return super().remove_kernel(kernel_id)
