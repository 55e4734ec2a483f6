"""A text box that holds at most so many characters, and says so: `capped_text`,
`capped_area`.

Owns the one rule of every text box on the table pages (a name, a table code, a rejoin
key) and of 07's load box: a visitor may paste anything, but the kernel keeps at most
`limit` characters of it, and the page's message box says what happened, so no callback
ever works on a huge text. A short box cuts a longer paste at `limit`; the load box
(`capped_area`), whose text is whole or useless, keeps none of a longer one. The load
box's limit is above the served kernels' general cap (`safety.MAX_TEXT`), which it lifts
for itself (`safety.allow_text`).
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from ..engine.messages import _, msg
from .base import MessageBox
from .safety import allow_text


def capped_text(limit: int, message: MessageBox, *, css: str, description: str = "",
                placeholder: str = "", width: str = "16em") -> widgets.Text:
    """A `Text` whose value never holds more than `limit` characters: anything longer
    is cut to `limit` and `message` explains it."""
    box = widgets.Text(description=description, placeholder=placeholder,
                       layout=widgets.Layout(width=width))
    box.add_class(css)

    def cap(change: Any) -> None:
        text = change["new"]
        if isinstance(text, str) and len(text) > limit:
            box.value = text[:limit]
            message.error(msg("this box takes at most {limit} characters; the {n} you "
                              "typed or pasted were cut to the first {limit}", None,
                              limit=limit, n=len(text)))

    box.observe(cap, "value")
    box.tooltip = _("at most {limit} characters").format(limit=limit)
    return box


def capped_area(limit: int, message: MessageBox, *, css: str, height: str = "8em"
                ) -> widgets.Textarea:
    """A `Textarea` for a whole text of up to `limit` characters (a saved game): a
    longer paste is not kept at all (a cut text would only be refused later as cut
    short) and `message` says why. A served kernel takes up to `limit + 1` characters
    into this box, so it can tell a paste that fits from one that does not."""
    box = widgets.Textarea(layout=widgets.Layout(width="100%", height=height))
    box.add_class(css)
    allow_text(box, limit + 1)

    def cap(change: Any) -> None:
        text = change["new"]
        if isinstance(text, str) and len(text) > limit:
            box.value = ""
            message.error(msg("this box takes at most {limit} characters (a whole saved game "
                              "of five players has about 130,000); the text pasted is "
                              "longer, so it was not kept", None, limit=limit))

    box.observe(cap, "value")
    return box
