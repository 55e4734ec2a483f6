"""The kernels of a served class: a cap, hardened kernels, and culling that spares a loading page.

`ClassKernelManager` is Voila's kernel manager (``VoilaConfiguration.multi_kernel_manager_class``
in `voila.json`), a jupyter_server `AsyncMappingKernelManager` with three changes:

* at most `max_kernels` kernels live at once (those still starting included): the next
  visitor gets `ClassFullError`, an HTTP 503 that the page template turns into "the class
  is full, try again in a minute" (`share/jupyter/voila/templates/toonerville/503.html`)
  instead of a server that starts kernels until it runs out of memory;
* every Python kernel runs `toonerville.widgets.safety.harden()` before the notebook, and
  writes its stderr to the server's log rather than to the page, so no traceback or server
  path reaches a page over the widget channel or a stream;
* culling (``cull_idle_timeout``, ``cull_connected`` false) releases a kernel whose page
  went away, but never one whose page has not connected yet and is younger than
  `load_grace` seconds: under a class-sized rush a page may take a minute to load its
  front end after its notebook ran, and culling it then would leave a dead page.
"""

from __future__ import annotations

import time
from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado.web import HTTPError
from traitlets import Float, Int

from .texts import page_texts

HARDEN = "from toonerville.widgets.safety import harden; harden()"

#: what every served Python kernel is started with: `harden()` before the notebook, and the
#: kernel's own stderr file (where `harden()` writes the tracebacks it keeps from the page)
#: left to the server's log. ipykernel otherwise captures that file descriptor and sends
#: whatever is written to it to the page as a stderr stream, tracebacks included.
KERNEL_ARGUMENTS = (f"--IPKernelApp.exec_lines={HARDEN}",
                    "--IPKernelApp.capture_fd_output=False")


class ClassFullError(HTTPError):
    """No kernel for this visitor: the class already has `limit` live kernels.

    An HTTP 503; `texts` carries the page's sentences in every language for the 503
    template."""

    def __init__(self, limit: int) -> None:
        super().__init__(503, "the class is full: %d kernels are running", limit)
        self.limit = limit
        self.texts = page_texts()


class ClassKernelManager(AsyncMappingKernelManager):
    """A kernel manager for a class: capped, hardened kernels; culling that spares loading pages."""

    max_kernels = Int(
        40, config=True,
        help="The most kernels alive at once (0: no cap). One per open page: choose it "
             "from the class size and the machine's memory (benchmarks/README.md).")
    load_grace = Float(
        900.0, config=True,
        help="Seconds a kernel whose page never connected is kept from culling (its "
             "page may still be loading).")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)  # type: ignore[no-untyped-call]
        self._starting = 0
        self._started_at: dict[str, float] = {}
        self._ever_connected: set[str] = set()

    def live_kernels(self) -> int:
        """Kernels running or starting now."""
        return len(self.list_kernel_ids()) + self._starting

    # jupyter_server's own start_kernel is async too, whatever jupyter_client's type says
    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:  # type: ignore[override]
        if self.max_kernels > 0 and self.live_kernels() >= self.max_kernels:
            self.log.warning("Class full: %d kernels running or starting, refusing another",
                             self.live_kernels())
            raise ClassFullError(self.max_kernels)
        if kwargs.get("kernel_name", "python3").startswith("python"):
            extra = list(kwargs.get("extra_arguments") or [])
            kwargs["extra_arguments"] = [*extra, *KERNEL_ARGUMENTS]
        self._starting += 1
        try:
            kernel_id: str = await super().start_kernel(*args, **kwargs)
        finally:
            self._starting -= 1
        self._started_at[kernel_id] = time.monotonic()
        return kernel_id

    def notify_connect(self, kernel_id: str) -> None:
        self._ever_connected.add(kernel_id)
        super().notify_connect(kernel_id)  # type: ignore[no-untyped-call]

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        started = self._started_at.get(kernel_id)
        if started is None:
            return  # still starting (jupyter_server's culler would trip on it)
        if (kernel_id not in self._ever_connected
                and time.monotonic() - started < self.load_grace):
            return  # its page has not connected yet: still loading, not abandoned
        await super().cull_kernel_if_idle(kernel_id)  # type: ignore[no-untyped-call]

    def remove_kernel(self, kernel_id: str) -> Any:
        self._started_at.pop(kernel_id, None)
        self._ever_connected.discard(kernel_id)
        return super().remove_kernel(kernel_id)
