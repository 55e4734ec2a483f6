"""The sentences of the play app (notebook 07) that are not the seat's (those are
`seat_text`): the key legend and the saved game's download link."""

from __future__ import annotations

from html import escape

from ..messages import N_, _

#: the key legend under the app (each line: keys, what they do)
KEYS = (
    (N_("Tab / Shift+Tab"), N_("next / previous control, in the order of a turn")),
    (N_("Enter or Space"), N_("press the button, or select the card, that has the focus")),
    (N_("A basic turn"), N_("Enter (draw), Space (select the card drawn), Enter (discard)")),
)


def keys_html() -> str:
    """The key legend, in the language in use."""
    rows = "".join(f"<li><kbd>{escape(_(keys))}</kbd>: {escape(_(what))}</li>"
                   for keys, what in KEYS)
    return (f'<div class="tr-keys-box"><b>{escape(_("Keys"))}</b>'
            f'<ul class="tr-keys-list">{rows}</ul></div>')


def download_html(data: str) -> str:
    """A link that downloads the saved game (`data`: its JSON, base64)."""
    return (f'<a download="toonerville-game.json" '
            f'href="data:application/json;base64,{data}">{escape(_("Download"))}</a>')
