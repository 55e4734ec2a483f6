"""A text box that holds at most so many characters, and says so: `capped_text`.

Owns the one rule of every text box on the table pages (a name, a table code, a rejoin
key): a visitor may paste anything, but the kernel keeps at most `limit` characters of
it; a longer paste is cut there and the page's message box says what happened, so no
callback ever works on a huge text.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from ..messages import _, msg
from .base import MessageBox


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
