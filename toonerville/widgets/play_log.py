"""What happened, as every table page shows it (the seat view's log): `PlayLog` and
`log_lines`.

Owns the log of a seat (`seat.SeatView`): the table's sentences with the page's own
notes (take-backs, hints) in their places, the last `LOG_LINES` of them numbered, the
newest in bold, the notes in italics, and every line since the learner's own last move
kept in view.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

import ipywidgets as widgets

from ..engine.events import Event
from ..engine.messages import Message
from ..pages.render import TEXT_PX

LOG_LINES = 10


def log_lines(events: Sequence[Event], notes: Sequence[tuple[int, Message]], first: int
              ) -> list[tuple[str, bool]]:
    """The game's sentences from event `first` on, with the app's notes (take-backs,
    hints) in their places: (text, is a note)."""
    lines: list[tuple[str, bool]] = []
    placed = sorted(range(len(notes)), key=lambda k: notes[k][0])
    k = 0
    for index in range(first, len(events) + 1):
        while k < len(placed) and notes[placed[k]][0] <= index:
            if notes[placed[k]][0] >= first:
                lines.append((str(notes[placed[k]][1]), True))
            k += 1
        if index < len(events):
            lines.append((str(events[index].text), False))
    return lines


class PlayLog(widgets.HTML):  # type: ignore[misc]
    """What happened: the last `limit` lines, numbered, the newest last and in bold;
    the app's notes in italics. `.text` is every line since the first shown."""

    def __init__(self, limit: int = LOG_LINES) -> None:
        super().__init__()
        self.limit = limit
        self.lines: list[tuple[str, bool]] = []

    @property
    def text(self) -> str:
        return "\n".join(text for text, _note in self.lines)

    def show(self, events: Sequence[Event], notes: Sequence[tuple[int, Message]],
             first: int, size: str, keep: str | None = None) -> None:
        """The lines from event `first` on; at least `limit` of them, and every line from
        the last one equal to `keep` (your own last move) on."""
        self.lines = lines = log_lines(events, notes, first)
        start = max(0, len(lines) - self.limit)
        if keep is not None:
            mine = [n for n, (line, _note) in enumerate(lines) if line == keep]
            start = min(start, mine[-1]) if mine else start
        items = []
        for n, (text, note) in enumerate(lines[start:], start + 1):
            body = f"<b>{escape(text)}</b>" if n == len(lines) else escape(text)
            items.append(f'<li class="tr-note">{body}</li>' if note else f"<li>{body}</li>")
        self.value = "" if not items else (
            f'<ol class="tr-events" start="{first + start + 1}" style="margin:4px 0;'
            f'padding-inline-start:2.2em;font-size:{TEXT_PX[size]}px;line-height:1.4">'
            f'{"".join(items)}</ol>')
