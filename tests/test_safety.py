"""What a hardened kernel sends a page when a widget callback fails (issue 27): the
apology alone, never an exception's type name, message, frames or paths.

The "error" message is built by ipykernel's own `ZMQInteractiveShell._showtraceback`
(as in a served kernel), on a stand-in for the shell that records what would be sent."""

from __future__ import annotations

import builtins
import json
import logging
from types import SimpleNamespace
from typing import Any

import IPython
import pytest
from ipykernel.zmqshell import ZMQInteractiveShell

from toonerville.engine.messages import translate
from toonerville.widgets import safety
from toonerville.widgets.base import SOMETHING_WENT_WRONG

#: every exception type name Python has, and the ones a widget callback meets most
NAMES = [n for n, v in vars(builtins).items() if isinstance(v, type)
         and issubclass(v, BaseException)] + ["TraitError", "NotationError", "_Quiet"]


class Recorder:
    """What ipykernel's `_showtraceback` reads of its shell, keeping what it sends."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []
        session = SimpleNamespace(send=lambda _socket, kind, content, *_a, **_k:
                                  self.sent.append((kind, content)))
        self.displayhook = SimpleNamespace(msg=None, topic=None, session=session,
                                           pub_socket=None, parent_header={})


def page_sees(err: BaseException, monkeypatch: pytest.MonkeyPatch) -> str:
    """What the page is sent when a callback fails with `err` in a hardened kernel."""
    shell = Recorder()
    shell._showtraceback = lambda etype, evalue, stb: ZMQInteractiveShell._showtraceback(
        shell, etype, evalue, stb)
    monkeypatch.setattr(IPython, "get_ipython", lambda: shell)
    safety._quiet_tracebacks()  # what harden() does to the kernel's shell
    show = shell._showtraceback
    frames = ["Traceback (most recent call last):", '  File "/srv/secret/notes.py"',
              f"{type(err).__name__}: {err}"]
    show(type(err), err, frames)
    assert [kind for kind, _ in shell.sent] == ["error"]
    return json.dumps(shell.sent[0][1])


@pytest.mark.parametrize("err", [ZeroDivisionError("division by zero"),
                                 KeyError("/srv/secret/notes.txt"), ValueError("bad value")])
def test_a_failed_callback_sends_the_page_the_apology_and_no_exception_name(
    err: BaseException, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch,
) -> None:
    with caplog.at_level(logging.ERROR, logger="toonerville.served"):
        sent = page_sees(err, monkeypatch)
    content = json.loads(sent)
    sentence = translate(SOMETHING_WENT_WRONG)
    assert content == {"traceback": [sentence], "ename": sentence, "evalue": sentence}
    assert [name for name in NAMES if name in sent] == []
    assert "/srv/secret" not in sent and str(err) not in sent
    assert "/srv/secret/notes.py" in caplog.text  # the teacher finds it in the server's log
