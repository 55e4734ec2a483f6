"""Kernels started before the learners arrive, handed out as their pages open.

A class arrives at once: without a pool every page starts its own kernel when it is
opened (a Python process, ipykernel, ipywidgets and the kit imported), one after the other
on the server's few cores, so the tenth page of a rush waits for nine kernel starts. The
pool keeps `size` kernels started and warmed (the kit and ipywidgets already imported) and
gives one to each page that opens; Voila then runs the page's notebook in it as usual, so
the page's own language (the prose, translated by the prelaunch hook before the kernel is
asked for) and parameters are the page's, not the pool's: when a kernel is handed out, the
page's request (its `QUERY_STRING`, Voila's request variables) is put into the kernel's
environment before the notebook's first cell runs. Voila's own pre-heating cannot do that:
it runs the notebook before the request exists, and cannot be combined with a prelaunch
hook.

`KernelPool` owns the ready kernels and their refilling; the class's kernel manager
(`kernels.ClassKernelManager`) owns the caps and asks the pool first. Pool kernels count
against the class cap like any other (they are real kernels holding real memory), are
never culled while they wait, and are refilled one at a time in the background, only while
the class has room.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

#: what a pool kernel runs once started, so that a page's first cell finds them imported
WARM_UP = "import ipywidgets, toonerville, toonerville.widgets"
#: seconds a pool kernel may take to answer its warm-up or hand-out code
ANSWER_TIMEOUT = 60.0

#: a pool kernel's kind: its kernel spec's name and the folder it runs in
Key = tuple[str, str]


async def run_code(manager: Any, code: str, timeout: float = ANSWER_TIMEOUT) -> bool:
    """Run `code` silently in the kernel of `manager` (a jupyter_client kernel manager)
    and wait for its reply; whether it ran without error."""
    client = manager.client()
    client.start_channels()
    try:
        await asyncio.wait_for(client.wait_for_ready(timeout=timeout), timeout)
        msg_id = client.execute(code, silent=True, store_history=False, allow_stdin=False)
        while True:
            reply = await asyncio.wait_for(client.get_shell_msg(timeout=timeout), timeout)
            if reply.get("parent_header", {}).get("msg_id") == msg_id:
                return bool(reply.get("content", {}).get("status") == "ok")
    finally:
        client.stop_channels()


def environment_code(env: Mapping[str, str], base: Mapping[str, str]) -> str | None:
    """The code that gives a pool kernel the environment `env` a page's kernel would have
    been started with (only what differs from `base`, the server's own), or None."""
    changes = {key: value for key, value in env.items() if base.get(key) != value}
    if not changes:
        return None
    return f"import os as _os; _os.environ.update({json.dumps(changes)}); del _os"


class KernelPool:
    """Ready kernels by `Key`, at most `size` of them, refilled in the background.

    `start(key)` starts one kernel for the pool (through the class's manager, so the caps
    hold) and returns its id, raising when the class has no room; `stop(kernel_id)` shuts
    one down; `manager(kernel_id)` gives its jupyter_client manager; `alive(kernel_id)`
    says whether it still runs."""

    def __init__(self, size: int, start: Callable[[Key], Awaitable[str]],
                 stop: Callable[[str], Awaitable[None]], manager: Callable[[str], Any],
                 alive: Callable[[str], bool],
                 log: logging.Logger | logging.LoggerAdapter[Any], fill_delay: float = 1.0
                 ) -> None:
        self.size = max(0, size)
        self._start = start
        self._stop = stop
        self._manager = manager
        self._alive = alive
        self._log = log
        self._fill_delay = fill_delay
        self._ready: dict[Key, list[str]] = {}
        self._filling = False
        self._wanted: set[Key] = set()

    def ready(self, key: Key | None = None) -> int:
        """Kernels waiting in the pool (for `key`, or all)."""
        if key is not None:
            return len(self._ready.get(key, ()))
        return sum(len(ids) for ids in self._ready.values())

    def forget(self, kernel_id: str) -> None:
        """`kernel_id` is gone (shut down, culled, died): it is no longer in the pool."""
        for ids in self._ready.values():
            if kernel_id in ids:
                ids.remove(kernel_id)

    def want(self, key: Key) -> None:
        """Keep kernels of `key` ready: fill the pool for it now (in the background)."""
        if self.size <= 0:
            return
        self._wanted.add(key)
        self.refill(delay=0.0)

    async def take(self, key: Key, env: Mapping[str, str] | None) -> str | None:
        """A ready kernel of `key` with the page's environment `env` put into it, or None
        when there is none; the pool is refilled behind it."""
        self._wanted.add(key)
        ids = self._ready.get(key, [])
        while ids:
            kernel_id = ids.pop(0)
            if not self._alive(kernel_id):
                continue
            code = environment_code(env or {}, os.environ)
            try:
                if code is not None and not await run_code(self._manager(kernel_id), code):
                    raise RuntimeError("the kernel refused the page's environment")
            except Exception as error:  # a pool kernel that cannot take a page: not used
                self._log.warning("Pool kernel %s could not be handed out (%s)", kernel_id,
                                  error)
                await self._stop(kernel_id)
                continue
            self.refill()
            return kernel_id
        self.refill()
        return None

    def refill(self, delay: float | None = None) -> None:
        """Start filling the pool in the background unless it is already being filled."""
        if self.size <= 0 or self._filling or not self._wanted:
            return
        self._filling = True
        wait = self._fill_delay if delay is None else delay
        asyncio.ensure_future(self._fill(wait))

    async def _fill(self, delay: float) -> None:
        try:
            await asyncio.sleep(delay)
            while self.ready() < self.size:
                key = min(self._wanted, key=self.ready)
                try:
                    kernel_id = await self._start(key)
                except Exception as error:  # the class is full, or a start failed
                    self._log.info("Kernel pool not refilled: %s", error)
                    return
                if not await self._warm(kernel_id):
                    await self._stop(kernel_id)
                    return
                self._ready.setdefault(key, []).append(kernel_id)
                self._log.info("Kernel pool: %d ready", self.ready())
        finally:
            self._filling = False

    async def _warm(self, kernel_id: str) -> bool:
        try:
            return await run_code(self._manager(kernel_id), WARM_UP)
        except Exception as error:
            self._log.warning("Pool kernel %s did not warm up (%s)", kernel_id, error)
            return False
