"""The hidden timer of every page that follows a table from the store: `poll_ticker`.

A table page (09's `classroom.SharedTable`, 10's teacher's desk and learner's seat) has no
thread (Pyodide starts none): a hidden `ipywidgets.Play` ticks in the browser every
`poll_ms` and each tick calls the page's poll in the kernel. Ticks come from the page, so
a closed tab stops them. This module owns that timer and its one quirk: the browser's
timer starts on a change of `playing`, so a page that sets `playing` before the timer is
drawn (a rejoin link joins while the page is built) says it again once the timer's first
view is drawn.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

#: the shortest interval a page may poll at, in milliseconds
MIN_POLL_MS = 100


def poll_ticker(poll_ms: int, css: str, on_tick: Callable[[Any], None]) -> widgets.Play:
    """A hidden `Play` that calls `on_tick(change)` every `poll_ms` while `playing`; its
    CSS class `css` is the tests' hook."""
    ticker = widgets.Play(interval=max(MIN_POLL_MS, int(poll_ms)), min=0, max=1_000_000,
                          step=1, repeat=True, playing=False, show_repeat=False,
                          layout=widgets.Layout(display="none"))
    ticker.add_class(css)
    ticker.observe(on_tick, "value")
    ticker._view_count = 0  # ipywidgets counts the drawn views once this is a number

    def restart_when_drawn(change: dict[str, object]) -> None:
        if not change["old"] and change["new"] and ticker.playing:
            ticker.playing = False
            ticker.playing = True

    ticker.observe(restart_when_drawn, "_view_count")
    return ticker
