"""The sentences of the play app (notebook 07) that are not the seat's (those are
`seat_text`): the key legend (`keys.keys_html`, the seat view's too) and the saved game's
download link."""

from __future__ import annotations

from html import escape

from ..engine.messages import _


def download_html(data: str) -> str:
    """A link that downloads the saved game (`data`: its JSON, base64)."""
    return (f'<a download="toonerville-game.json" '
            f'href="data:application/json;base64,{data}">{escape(_("Download"))}</a>')
