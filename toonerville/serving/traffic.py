"""What one page may send to its kernel: how big a message, how many and how many bytes a
second, so that one page cannot slow every other page of the server.

Every page talks to its kernel over one websocket (Voila's `VoilaKernelWebsocketHandler`),
and the server reads, parses and passes on each message in its one event loop: a page
that floods it delays every other page's clicks. `install(manager)` changes that handler,
once per server process:

* a message bigger than `MAX_MESSAGE_BYTES` (or the server's `websocket_max_message_size`
  setting, `voila.json`) is refused by tornado before it is read: the connection is closed
  (code 1009). A page never sends that much: the biggest is a saved game loaded from a file,
  at most `toonerville.widgets.session.MAX_SAVE_CHARS` (2 MB);
* each connection has a `Gate`: two token buckets, one of messages (`page_messages_burst`
  at once, `page_messages_per_second`), one of bytes (`page_bytes_burst`,
  `page_bytes_per_second`), from the kernel manager's settings. A message over the rate
  of messages is dropped (a click or two too many in a burst); a page over the rate of
  bytes is not a page but a flood, and its connection is closed (code 1008);
* a connection being opened tells the kernel manager that its page is still there
  (`page_connecting`: the server may take a while to reach a busy kernel before the page
  can say anything), and the first message a connection passes on that a page uses its
  kernel (`page_in_use`): a real page asks its kernel for its widgets as soon as it is
  connected, a websocket merely held open says nothing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Protocol

from .buckets import Bucket

#: the largest message a page may send (tornado's own default is 10 MiB)
MAX_MESSAGE_BYTES = 4 * 1024 * 1024

#: what `Gate.admit` says of a message
PASS, DROP, CLOSE = "pass", "drop", "close"


class TrafficLimits(Protocol):
    """The kernel manager's settings read here, and what it is told."""

    page_messages_burst: int
    page_messages_per_second: float
    page_bytes_burst: int
    page_bytes_per_second: float

    def page_connecting(self, kernel_id: str) -> None: ...

    def page_in_use(self, kernel_id: str) -> None: ...


@dataclass
class Gate:
    """The traffic of one connection so far (owned by its websocket handler)."""

    messages: Bucket
    bytes: Bucket
    spoke: bool = False
    dropped: int = 0
    closed: bool = False

    @classmethod
    def for_limits(cls, limits: Any, now: float) -> Gate:
        return cls(Bucket.full(limits.page_messages_burst, limits.page_messages_per_second, now),
                   Bucket.full(limits.page_bytes_burst, limits.page_bytes_per_second, now))

    def admit(self, size: int, now: float) -> str:
        """PASS, DROP or CLOSE for a message of `size` bytes at `now`; takes its tokens."""
        if self.closed:
            return DROP
        data = self.bytes.take(size, now)
        if data is None:
            self.closed = True
            return CLOSE
        messages = self.messages.take(1, now)
        if messages is None:
            self.dropped += 1
            return DROP
        self.bytes, self.messages = data, messages
        return PASS


def _size(message: str | bytes) -> int:
    return len(message.encode("utf-8")) if isinstance(message, str) else len(message)


def install(manager: TrafficLimits) -> None:
    """Bound the traffic of every page's websocket (the limits are `manager`'s)."""
    from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler as Handler

    if getattr(Handler, "_toonerville_traffic", False):
        return
    passed_on = Handler.on_message
    opened = Handler.open

    def max_message_size(self: Any) -> int:
        return int(self.settings.get("websocket_max_message_size", MAX_MESSAGE_BYTES))

    def on_message(self: Any, message: str | bytes) -> Any:
        limits = self.kernel_manager
        gate: Gate | None = getattr(self, "_toonerville_gate", None)
        now = time.monotonic()
        if gate is None:
            gate = self._toonerville_gate = Gate.for_limits(limits, now)
        verdict = gate.admit(_size(message), now)
        if verdict == CLOSE:
            self.log.warning("Closing a page's connection to kernel %s: more than %d bytes "
                             "at once or %.0f a second", self.kernel_id,
                             limits.page_bytes_burst, limits.page_bytes_per_second)
            self.close(1008, "too much traffic")
            return None
        if verdict == DROP:
            if gate.dropped == 1 and not gate.closed:
                self.log.warning("Dropping messages of a page of kernel %s: more than %d at "
                                 "once or %.0f a second", self.kernel_id,
                                 limits.page_messages_burst, limits.page_messages_per_second)
            return None
        if not gate.spoke:
            gate.spoke = True
            in_use = getattr(limits, "page_in_use", None)
            if in_use is not None:
                in_use(self.kernel_id)
        return passed_on(self, message)

    async def open(self: Any, *args: Any, **kwargs: Any) -> None:
        connecting = getattr(self.kernel_manager, "page_connecting", None)
        if connecting is not None:
            connecting(self.kernel_id)
        await opened(self, *args, **kwargs)

    Handler.open = open
    Handler.max_message_size = property(max_message_size)
    Handler.on_message = on_message
    Handler._toonerville_traffic = True
