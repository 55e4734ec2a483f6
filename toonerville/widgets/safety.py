"""What a served kernel lets a visitor see and send: nothing of the server, and no huge text.

A Voila visitor cannot run code, but their page talks to the kernel over the widget
channel, and whatever the kernel writes back to that channel reaches the visitor's
browser even when the page shows nothing. By default a failure in a widget callback, a
widget message with a value its trait refuses, or a library warning is written there
with a full traceback, and so with the server's paths and package layout.

`harden()` closes that in the kernel it runs in:

* a traceback (`InteractiveShell.showtraceback`: a failed callback, a failed cell) goes
  to the server's log; the page receives one short sentence instead, and no exception's
  name: the kernel's "error" message carries the sentence as its value and as its name
  (`quieted`);
* the kernel's `sys.stderr` (logging's last-resort handler, `warnings`, stray prints)
  is the kernel process's own stderr, which is the server's log, not the widget
  channel;
* a widget message from the page that the widget cannot take is logged and answered
  with the widget's current state (so the page shows what the kernel holds) instead of
  an exception;
* no single text in a widget update from the page is longer than `MAX_TEXT`
  characters (or the longer limit a box made for long texts was given, `allow_text`:
  07's load box takes a whole saved game): the kernel never builds pages out of a
  pasted book. A text box's own cap and its message to the learner stay with the
  widget that owns the box.

Served kernels get this without any notebook cell: the classroom kernel manager
(`toonerville.serving.kernels`) starts every Python kernel with
``from toonerville.widgets.safety import harden; harden()``; a notebook served some other
way may call the same line in its first code cell. Outside Voila `harden()` does nothing
unless `force=True`, so JupyterLab keeps showing tracebacks to the notebook's author.
"""

from __future__ import annotations

import logging
import os
import sys
import weakref
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from ..engine.messages import translate
from .base import SOMETHING_WENT_WRONG

#: the longest text (characters) any one value of a widget update from a page may hold
MAX_TEXT = 20_000

log = logging.getLogger("toonerville.served")
#: the widgets that take texts longer than `MAX_TEXT` from the page: widget → limit
_LIMITS: weakref.WeakKeyDictionary[widgets.Widget, int] = weakref.WeakKeyDictionary()

_hardened = False


def served() -> bool:
    """True in a kernel that Voila started for a visitor's page."""
    return os.environ.get("SERVER_SOFTWARE", "").startswith("voila/") or (
        "VOILA_KERNEL_ID" in os.environ or "VOILA_BASE_URL" in os.environ)


def harden(*, force: bool = False) -> bool:
    """Keep tracebacks, paths and huge texts off the widget channel of this kernel.

    Safe to call more than once; returns whether the kernel is hardened now."""
    global _hardened
    if _hardened:
        return True
    if not (force or served()):
        return False
    _route_stderr_to_server_log()
    _quiet_tracebacks()
    _guard_widget_messages()
    _hardened = True
    return True


def allow_text(widget: widgets.Widget, limit: int) -> None:
    """Let `widget` take texts of up to `limit` characters from the page, rather than
    `MAX_TEXT` (a box made for long texts, which caps them itself)."""
    _LIMITS[widget] = limit


def _route_stderr_to_server_log() -> None:
    server_log = sys.__stderr__
    if server_log is None:  # no stderr at all: drop what would have gone there
        server_log = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the kernel
    sys.stderr = server_log
    handler = logging.StreamHandler(server_log)
    handler.setFormatter(logging.Formatter("[toonerville kernel %(levelname)s] %(message)s"))
    log.addHandler(handler)
    log.propagate = False
    # the comm layer logs a failed widget message with its traceback
    for name in ("Comm", "comm", "ipykernel.comm"):
        comm_log = logging.getLogger(name)
        comm_log.addHandler(handler)
        comm_log.propagate = False


def _quiet_tracebacks() -> None:
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is None:
        return
    shell._showtraceback = quieted(shell._showtraceback)


Show = Callable[[type[BaseException], BaseException, list[str]], None]


def quieted(show: Show) -> Show:
    """`show` (a shell's `_showtraceback`) made to send the page only the apology: the
    traceback goes to the server's log. ipykernel publishes the exception's type name
    as the error's "ename" beside its value and frames, so the type handed on is one made
    for the sentence, named by it: no name of the real exception reaches the page."""

    def quiet(etype: type[BaseException], evalue: BaseException, stb: list[str]) -> None:
        log.error("traceback kept from the page:\n%s", "\n".join(stb))
        sentence = translate(SOMETHING_WENT_WRONG)
        shown = type(sentence, (_Quiet,), {"__module__": "", "__qualname__": sentence})
        show(shown, shown(sentence), [sentence])

    return quiet


class _Quiet(Exception):
    """The value shown in place of the real exception (its text only, no type, no path)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def _guard_widget_messages() -> None:
    handle = widgets.Widget._handle_msg

    def guarded(self: widgets.Widget, msg: dict[str, Any]) -> None:
        try:
            data = msg["content"]["data"]
            if isinstance(data, dict) and data.get("method") == "update":
                state = data.get("state")
                if isinstance(state, dict):
                    limit = _LIMITS.get(self, MAX_TEXT)
                    data["state"] = {k: _capped(v, limit) for k, v in state.items()}
            handle(self, msg)
        except Exception:
            log.exception("a widget message from the page was refused")
            _resync(self)

    widgets.Widget._handle_msg = guarded


def _capped(value: Any, limit: int = MAX_TEXT) -> Any:
    if isinstance(value, str) and len(value) > limit:
        log.warning("a text of %d characters from the page was cut to %d", len(value), limit)
        return value[:limit]
    return value


def _resync(widget: widgets.Widget) -> None:
    """Send the page the widget's state as the kernel holds it."""
    try:
        widget.send_state()
    except Exception:
        log.exception("could not send a widget's state back to the page")

