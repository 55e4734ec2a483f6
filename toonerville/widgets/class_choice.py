"""The class teacher's choices on a learner's page, and the links that carry a class.

Owns how a page follows a class (issue 29): `page_class(classes)` reads `?class=CODE`
from the page's address and gives the class's name and settings (`store.ClassSettings`),
`settings_words` says them as the learner reads them ("Class 5B — your teacher's
settings: hints off, take back off, …"), `follow_class` applies them to a seat view
(`seat.SeatView.follow_teacher`: hints and take back), and `page_link` makes a link to
this same page with other parameters (`?class=…&lang=…`), absolute on a served page (a
QR code needs the whole address), relative elsewhere.
"""

from __future__ import annotations

import os
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass

from ..coach.levels import LEVEL_NAMES
from ..engine.errors import ToonervilleError
from ..engine.messages import DEFAULT, LANGUAGES, N_, _, language
from ..store import ClassSettings, ClassStore
from .session_words import BUY_OFFERS
from .url import query_params

#: the address parameters of a class: its code, and the learner's key in it
CLASS_PARAM = "class"
ME_PARAM = "me"

#: the sentence a learner reads of their teacher's choices
SETTINGS_SENTENCE = N_("Class {name} — your teacher's settings: {settings}")


@dataclass(frozen=True, slots=True)
class PageClass:
    """The class a page's address names, as anyone with its code may read it."""

    code: str
    name: str
    settings: ClassSettings


def page_class(classes: ClassStore | None) -> PageClass | None:
    """The class of `?class=CODE` in this page's address, or None (no such parameter,
    no store, or a code that is not a class here: the page then is an ordinary page)."""
    code = query_params().get(CLASS_PARAM, "").strip()
    if not code or classes is None:
        return None
    try:
        return PageClass(code.upper(), classes.class_name(code), classes.settings(code))
    except ToonervilleError:
        return None


def settings_words(name: str, settings: ClassSettings) -> str:
    """The teacher's settings as the learner reads them, in the language in use."""
    buy = dict(BUY_OFFERS)[settings.buy_offers]
    parts = [_("hints on") if settings.hints else _("hints off"),
             _("take back on") if settings.take_back else _("take back off"),
             _("bots: {level}").format(level=_(LEVEL_NAMES[settings.bot_level])),
             _("a bot plays for a learner away {seconds:g} s").format(
                 seconds=settings.away_limit),
             _("buy offers: {setting}").format(setting=_(buy)),
             _("language: {language}").format(language=LANGUAGES[settings.language])]
    return _(SETTINGS_SENTENCE).format(name=name, settings=", ".join(parts))


def follow_class(view: object, settings: ClassSettings) -> None:
    """Apply the teacher's hints and take-back choices to a seat view."""
    follow = getattr(view, "follow_teacher", None)
    if follow is not None:
        follow(settings.hints, settings.take_back)


def page_link(params: Mapping[str, str], lang: str | None = None) -> str:
    """A link to this page with `params` and the language `lang` (else the one in use,
    if not English) as `lang=`: the whole address on a served page (Voila gives the host
    and path), else `?…` alone."""
    query = dict(params)
    if lang is None and language() != DEFAULT:
        lang = language()
    if lang is not None:
        query["lang"] = lang
    text = "?" + urllib.parse.urlencode(query)
    script = os.environ.get("SCRIPT_NAME", "")
    host = os.environ.get("SERVER_NAME", "")
    if not script or not host:
        return text
    port = os.environ.get("SERVER_PORT", "")
    scheme = "https" if port == "443" else "http"
    shown_port = "" if port in ("", "80", "443") else f":{port}"
    return f"{scheme}://{host}{shown_port}{urllib.parse.quote(script)}{text}"
