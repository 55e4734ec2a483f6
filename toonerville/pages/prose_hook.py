"""Voila's prelaunch hook: the page in the language its URL asks for.

Voila calls `prelaunch_hook(req_handler, notebook, cwd)` before it starts a kernel for a
visitor and renders the notebook it gets back. This one reads `?lang=xx` from the request
and puts every markdown cell through `toonerville.pages.prose.translate_notebook`, so the
headings, paragraphs, lists and navigation bar arrive in that language (with the links
keeping `?lang=`), while the widgets read the same parameter in the kernel. Without
`?lang=`, or with a language the kit does not have, the page is English (its rule links
still lead to the rulebook page).

Set it in a Voila config file (`config/voila.py`, see there). Pure standard library: the
request handler and the notebook are only used through `get_argument` and item access.
"""

from __future__ import annotations

from typing import Any

from toonerville.engine.messages import normalise
from toonerville.pages.prose import METADATA_KEY, translate_notebook


def requested_language(req_handler: Any) -> str:
    """The language a request asks for with `?lang=` (English when it asks for none)."""
    try:
        value = req_handler.get_argument("lang", None)
    except Exception:  # noqa: BLE001 - a request we cannot read is an English page
        value = None
    return normalise(value)


def prelaunch_hook(req_handler: Any, notebook: Any, cwd: str | None = None) -> Any:
    """Translate `notebook`'s markdown cells, in place, into the requested language and
    return it (Voila renders what the hook returns)."""
    lang = requested_language(req_handler)
    translated = translate_notebook(dict(notebook), lang)
    for cell, new in zip(notebook["cells"], translated["cells"], strict=True):
        if cell.get("cell_type") == "markdown":
            cell["source"] = new["source"]
    notebook["metadata"][METADATA_KEY] = lang
    return notebook
