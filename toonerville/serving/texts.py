"""The sentences the served page shows before, or instead of, its widgets, in every language.

While a kernel starts, when the class is full, when a page did not finish loading or
lost its kernel, there is no kernel to ask for a translation: the page template
(`share/jupyter/voila/templates/toonerville/`) gets all of them at once, as
``{language: {key: sentence}}``, and picks the page's language (``?lang=`` in the URL,
else the browser's) in the browser. The English texts are marked with `N_` so they
reach the kit's catalogues (`python tools/i18n.py update`).
"""

from __future__ import annotations

import gettext
from functools import cache
from typing import Any

from ..engine.messages import DOMAIN, LANGUAGES, LOCALE_DIR, N_, direction

#: key → English sentence; {seconds}, {code} and {key} are filled in by the page
TEXTS: dict[str, str] = {
    "starting": N_("Getting this page ready for you…"),
    "waiting": N_("Still getting ready ({seconds} s). When a whole class opens a page at "
                  "once this can take a minute or two: keep this page open."),
    "drawing": N_("Almost there: drawing the page…"),
    "failed_title": N_("This page did not finish loading."),
    "failed_body": N_("The server was too busy to answer in time. Reload the page (press "
                      "F5, or the button below)."),
    "retrying": N_("The server was too busy to answer in time: trying again in {seconds} s…"),
    "reload": N_("Reload the page"),
    "lost_title": N_("This page has lost its game."),
    "lost_body": N_("The server stopped the part of this page that plays (its kernel), so "
                    "clicks here do nothing any more. Reload the page to start again."),
    "lost_table": N_("Your game is kept at the table: reload the page, then join table "
                     "{code} again with your rejoin key {key}."),
    "full_title": N_("The class is full"),
    "full_body": N_("The server is already running as many pages as it can hold. Try "
                    "again in a minute: this page tries again by itself in {seconds} s."),
    "yours_title": N_("Too many pages open in this browser"),
    "yours_body": N_("This browser already has as many pages of the kit open as one learner "
                     "may have. Close one of them: this page tries again by itself in "
                     "{seconds} s."),
}


@cache
def page_texts() -> dict[str, dict[str, Any]]:
    """Every page text in every language of the kit (English where a catalogue lacks one),
    with the language's writing direction under ``"dir"``."""
    out: dict[str, dict[str, Any]] = {}
    for code in LANGUAGES:
        translation = gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[code],
                                          fallback=True)
        texts: dict[str, Any] = {key: translation.gettext(text) for key, text in TEXTS.items()}
        texts["dir"] = direction(code)
        out[code] = texts
    return out


def page_config_hook(page_config: dict[str, Any], **_context: Any) -> dict[str, Any]:
    """Voila's ``page_config_hook``: the texts travel to the page in its page config."""
    return {**page_config, "toonervilleTexts": page_texts()}
