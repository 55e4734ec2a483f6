"""The language of the page: `LanguagePicker`, and what follows a change of language.

Owns the kit's language menu (each language by its own name; choosing one speaks it in
every widget of the page and, on a served page, reloads it with `?lang=` so the prose
follows), the right-to-left style of a Persian page (`RTL_CSS`, `rtl_style`), and
`apply_language`, which redraws a widget that is not a `base.Part` in the language in use.
"""

from __future__ import annotations

import logging
import os
import weakref
from html import escape
from typing import Any

import ipywidgets as widgets
import traitlets

from ..engine.messages import DEFAULT, LANGUAGES, _, add_listener, direction, language, set_language
from .base import Part, show_direction
from .progress import page_opened
from .url import lang_from_url

log = logging.getLogger("toonerville.widgets")

# -- languages ----------------------------------------------------------------------------
#: A right-to-left page: the lesson flows from the right, while card rows, card notation
#: typed in a text box and numbers stay left to right (the pictures isolate them too).
RTL_CSS = """<style>
.tr-rtl { direction: rtl; }
.tr-rtl .tv-hand-picker-row { direction: ltr; justify-content: flex-end; }
.tr-rtl .tv-card-picker-card, .tr-rtl .widget-inline-hbox input[type="number"],
.tr-rtl .widget-readout, .tr-rtl .widget-progress { direction: ltr; }
.tr-rtl .widget-text input { unicode-bidi: plaintext; text-align: start; }
.tr-rtl .widget-inline-hbox .widget-label { text-align: left; }
</style>"""


def rtl_style() -> widgets.HTML:
    """An invisible widget holding `RTL_CSS`; `LanguagePicker` and the lessons carry one,
    and any layout that uses `apply_language` needs one on the page."""
    return widgets.HTML(RTL_CSS, layout=widgets.Layout(display="none"))


def apply_language(widget: widgets.Widget, redraw: bool = True) -> None:
    """Show `widget` in the language in use. A `Part` follows the language by itself:
    this draws it only if it is not drawn in that language yet. Any other widget gets
    its direction (class `tr-rtl`) and its `refresh()` (else `_redraw()`). A closed
    widget is left."""
    if getattr(widget, "comm", None) is None:
        return
    if isinstance(widget, Part):
        if redraw and widget._drawn_in != language():
            widget.refresh()
        else:
            show_direction(widget)
        return
    show_direction(widget)
    draw = getattr(widget, "refresh", None) or getattr(widget, "_redraw", None)
    if redraw and draw is not None:
        draw()


_url_language_read = False


def initial_language() -> str:
    """The language a new picker or lesson starts in: the page's `?lang=` for the first
    of a kernel, then whatever the learner chose since."""
    global _url_language_read
    if _url_language_read:
        return language()
    _url_language_read = True
    return lang_from_url(language())


class LanguagePicker(widgets.HBox):  # type: ignore[misc]
    """The kit's languages, each by its own name. Choosing one speaks it everywhere (it
    calls `messages.set_language`): every picker follows, every lesson redraws itself,
    and each picker redraws the other widgets linked to it (`picker.link(app)`), right to
    left for Persian. Put one at the top of a notebook: `LanguagePicker()`.

    `LanguagePicker()` starts in the language of the page's URL (`?lang=fa`) the first
    time in a kernel, afterwards in the one in use; `LanguagePicker("de")` chooses.

    On a served page (Voila, or the static site: the kernel knows the page's query
    string) choosing a language also reloads the page with `?lang=xx`, the other query
    parameters kept, so the lesson prose — translated when the page is rendered —
    switches with the widgets. In JupyterLab only the widgets switch (the translated
    notebooks are files of their own there: `python tools/i18n.py notebooks`)."""

    value = traitlets.Unicode(DEFAULT)

    def __init__(self, value: str | None = None, **kwargs: Any) -> None:
        self._ready = False
        self.dropdown = widgets.Dropdown(
            options=[(name, code) for code, name in LANGUAGES.items()],
            style={"description_width": "initial"}, layout=widgets.Layout(width="auto"))
        self.dropdown.add_class("tv-language-dropdown")
        self._linked: list[weakref.ref[widgets.Widget]] = []
        self.reload = widgets.HTML(layout=widgets.Layout(display="none"))
        self.reload.add_class("tv-language-reload")
        super().__init__(children=(rtl_style(), self.dropdown, self.reload), **kwargs)
        self.add_class("tv-language-picker")
        chosen = set_language(initial_language() if value is None else value)
        self.value = self.dropdown.value = chosen
        page_opened()  # every page has a picker: a page of a class notes where it is
        widgets.link((self.dropdown, "value"), (self, "value"))
        add_listener(self._language_changed)
        self._label()
        self._ready = True

    @staticmethod
    def served() -> bool:
        """Whether this kernel serves a page with a URL (Voila or the static site)."""
        return "QUERY_STRING" in os.environ

    @staticmethod
    def reload_html(code: str) -> str:
        """What makes the page in the browser load itself again in `code`: the page's own
        URL with `lang` set, every other parameter and the #anchor kept. (An HTML widget
        runs no <script>; the handler of an image that cannot load does run. In that
        handler a bare `URL` is `document.URL`, a string: hence `window.URL`.)"""
        if code not in LANGUAGES:
            raise ValueError(f"unknown language {code!r}")
        script = ("var u=new window.URL(window.location.href);"
                  f"u.searchParams.set('lang','{code}');"
                  "if(u.href!==window.location.href){window.location.assign(u.href);}")
        return f'<img src="data:," alt="" hidden onerror="{escape(script)}">'

    def _ask_reload(self, code: str) -> None:
        if not self._ready or not self.served():
            return
        if code != lang_from_url():  # every picker asks: one may not be on the page
            self.reload.value = self.reload_html(code)

    def __repr__(self) -> str:
        return f"LanguagePicker({self.value!r})"

    def link(self, *targets: widgets.Widget, redraw: bool = True) -> None:
        """Redraw `targets` whenever the language changes, and now in the one in use
        (`redraw=False`: only their direction now, for widgets just drawn in it)."""
        for target in targets:
            self._linked.append(weakref.ref(target))
            apply_language(target, redraw)

    @traitlets.observe("value")
    def _value_changed(self, change: Any) -> None:
        set_language(change["new"])
        self._ask_reload(change["new"])

    def _language_changed(self, code: str) -> None:
        if self.comm is None:  # closed
            return
        if self.value != code:
            self.value = code
        self._label()
        alive = []
        for ref in self._linked:
            target = ref()
            if target is None:
                continue
            alive.append(ref)
            try:
                apply_language(target)
            except Exception:  # noqa: BLE001 - one broken widget must not stop the rest
                log.error("could not redraw %r in %s", target, code, exc_info=True)
        self._linked = alive

    def _label(self) -> None:
        self.dropdown.description = "🌐 " + _("Language")
        self.dropdown.tooltip = _("The language of the lessons and the game")
        if direction() == "rtl":
            self.add_class("tr-rtl")
        else:
            self.remove_class("tr-rtl")
