"""The one base every widget of the kit stands on: its size, its language, its text boxes.

**Size.** A `Part` has a `size` trait ("normal", "large" or "projector"; "small" for
thumbnails). Changing it puts the CSS class `tv-size-<size>` on the widget, which scales
the ipywidgets controls inside it (`SIZE_CSS`), and calls `_redraw()`, which draws the
widget's pictures again at that size (`render.TEXT_PX` gives the text size of each).
`PageStyle` is a hidden part whose `<style>` scales the rest of the page with it: the
notebook's prose (headings, paragraphs, lists), the printed outputs and every control.
The page's `?size=large|projector` gives the size a page opens at (`size_from_url`).

**Language.** A `Part` redraws itself when the language changes (`messages.set_language`),
by itself: nothing has to link it. Its fixed texts (a button's description, a dropdown's
labels, a tooltip, a placeholder) are registered once with `part.texts(widget,
description=N_("Deal all"), options=make_options)`; an English text is shown translated,
a function makes the value. `refresh()` is the one way a part shows itself in the
language in use: the registered texts, then `_redraw()`, then its direction (class
`tr-rtl` for Persian). It never changes what the learner chose: a dropdown keeps its
value (`relabel`), and a part already drawn in the new language is left alone.
`translated(control, description=N_("Seat"), …)` is the one way to give any control
translated texts that follow the language menu (by itself, or through an `owner` part);
`translated_button(label, css, tooltip, owner=part)` makes a button with it.

**Messages.** `MessageBox` shows one explaining sentence (its rule id a link to the
rulebook, see `render.message_html`); `guard(box, callback)` makes a callback safe for
a learner: a refusal shows its sentence, anything else a short apology.

**Text boxes.** `CappedText` is a text box that keeps at most `max_chars` characters
(2,000 unless told): a longer paste is cut there in the kernel, before any observer sees
it, and its `notice` (a message box to place under it) says so in the learner's words.

Subclasses override `_redraw()` (pictures and sentences from their state) and register
their fixed texts with `texts()`; they do not override `refresh()`.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import ipywidgets as widgets
import traitlets

from ..engine.errors import ToonervilleError
from ..engine.messages import N_, Message, _, add_listener, direction, language, msg
from ..pages.render import SIZES, TEXT_PX, message_html

log = logging.getLogger("toonerville.widgets")
log.addHandler(logging.NullHandler())

#: Size of the ipywidgets controls' text (buttons, labels, inputs) at each size, a little
#: smaller than the prose of `render.TEXT_PX`, as in JupyterLab.
CONTROL_PX: dict[str, int] = {size: px - 1 if size != "projector" else px - 2
                              for size, px in TEXT_PX.items()}
_INLINE_HEIGHT = {"small": 24, "normal": 28, "large": 36, "projector": 52}
_LABEL_WIDTH = {"small": 64, "normal": 80, "large": 120, "projector": 200}


#: a layout's `display` for "shown as it would be": not None, which Pyodide (the static site)
#: sends to the page as `undefined`, which the page's layout ignores, so a part hidden with
#: "none" and shown again with None stayed hidden there (the round's recap and its review,
#: a lesson's picture); "" takes the page's display rule away in both kernels.
SHOWN = ""


def displayed(shown: bool) -> str:
    """A layout's `display`: the part as it would be when `shown`, else hidden."""
    return SHOWN if shown else "none"


def check_size(size: str) -> str:
    """`size` if it is one of `render.SIZES`, else a ValueError that names them."""
    if size not in SIZES:
        raise ValueError(f"unknown card size {size!r}: choose one of {', '.join(SIZES)}")
    return size


def _size_rules(size: str) -> str:
    return (f".tv-size-{size} {{ --jp-widgets-font-size: {CONTROL_PX[size]}px; "
            f"--jp-widgets-inline-height: {_INLINE_HEIGHT[size]}px; "
            f"--jp-widgets-inline-label-width: {_LABEL_WIDTH[size]}px; }}")


#: A game page at projector size on a wide screen: a round on one screen (its own file,
#: `projector.css`, which says which classes of the seat view it relies on).
PROJECTOR_CSS = (Path(__file__).with_name("projector.css")).read_text(encoding="utf-8")

#: Scales the ipywidgets controls (buttons, labels, inputs) inside a sized part through
#: the CSS variables of ipywidgets' own stylesheet; then `PROJECTOR_CSS`.
SIZE_CSS = ("<style>\n" + "\n".join(_size_rules(s) for s in ("normal", "large", "projector"))
            + """
.tv-sized .widget-button, .tv-sized .widget-toggle-button { width: auto; min-width: 3em; }
.tv-sized .widget-label, .tv-sized .widget-html-content, .tv-sized .widget-readout,
.tv-sized input, .tv-sized select { font-size: var(--jp-widgets-font-size); }
.tv-sized .widget-html-content { line-height: 1.35; }
.tv-row { gap: 4px 6px; }
</style>""") + "<style>\n" + PROJECTOR_CSS + "</style>"


def size_style() -> widgets.HTML:
    """An invisible widget holding `SIZE_CSS`; put one in any layout of sized widgets."""
    return widgets.HTML(SIZE_CSS, layout=widgets.Layout(display="none"))


def page_css(size: str) -> str:
    """A `<style>` that sets the whole page's text at `size`: the notebook's prose (its
    headings follow, they are sized in em), printed outputs and every control. Empty at
    normal size: the page keeps its own."""
    check_size(size)
    if size in ("normal", "small"):
        return ""
    px, control = TEXT_PX[size], CONTROL_PX[size]
    return ("<style>\n"
            f"body {{ --jp-content-font-size1: {px}px; --jp-code-font-size: {control}px; "
            f"--jp-ui-font-size1: {control}px; --jp-widgets-font-size: {control}px; "
            f"--jp-widgets-inline-height: {_INLINE_HEIGHT[size]}px; "
            f"--jp-widgets-inline-label-width: {_LABEL_WIDTH[size]}px; }}\n"
            ".jp-RenderedMarkdown, .jp-RenderedHTMLCommon { line-height: 1.45; }\n"
            "</style>")


def relabel(control: widgets.Widget, options: Sequence[tuple[str, Any]]) -> None:
    """New labels for the same values of a Dropdown or ToggleButtons, keeping its value
    and telling no observer: a change of language is not a new choice."""
    options = list(options)
    old = control.value
    if [v for _label, v in options] != list(control._options_values):
        control.options = options  # not a relabelling: a new choice after all
        return
    if [label for label, _v in options] == list(control._options_labels):
        return
    saved = control._initializing_traits_
    control._initializing_traits_ = True  # ipywidgets then keeps the index it has
    try:
        control.options = options
    finally:
        control._initializing_traits_ = saved
    if control.index is not None:
        control._notify_trait("index", control.index, control.index)  # the label follows
    if control.value != old:  # pragma: no cover - only if ipywidgets changes its ways
        control.value = old


def apply_texts(widget: widgets.Widget, labels: dict[str, Any]) -> None:
    """Set `widget`'s texts in the language in use: `labels` maps a trait (description,
    tooltip, placeholder, value, options, tooltips) to an English text or a function."""
    for name, text in labels.items():
        value: Any = (text() if callable(text) else _(text) if isinstance(text, str)
                      else [_(t) for t in text])  # a list of English texts: tooltips
        if name == "options":
            relabel(widget, value)
        else:
            setattr(widget, name, value)


W = TypeVar("W", bound=widgets.Widget)


def translated(widget: W, owner: Part | None = None, **labels: str | Callable[[], Any]
               ) -> W:
    """The kit's one way to give a control translated texts: `labels` maps a trait
    (description, tooltip, placeholder, options, …) to an English text (`N_`) or a
    function of nothing (`apply_texts`), shown now in the language in use and again at
    every change of the language menu. With `owner` (a `Part`) the owner redraws them
    (`Part.texts`); without one the control follows the language by itself, as long as
    it lives. Returns `widget`."""
    if owner is not None:
        return owner.texts(widget, **labels)  # type: ignore[no-any-return]
    apply_texts(widget, labels)

    def follow(_code: str) -> None:
        if getattr(widget, "comm", None) is not None:  # a closed control is left
            apply_texts(widget, labels)

    widget.__dict__["_follow_language"] = follow  # the listener lives as the widget does
    add_listener(follow)
    return widget


def translated_button(label: str, css: str, tooltip: str, *, owner: Part | None = None,
           **kwargs: Any) -> widgets.Button:
    """A translated button (`translated`): `label` and `tooltip` are English texts (`N_`)
    shown in the language in use, now and in every later language (redrawn by `owner`,
    a `Part`, when given); `css` is its hook for tests and styles."""
    made = widgets.Button(**{"layout": widgets.Layout(width="auto"), **kwargs})
    made.add_class(css)
    return translated(made, owner, description=label, tooltip=tooltip)


def show_direction(widget: widgets.Widget) -> None:
    """Right to left (class `tr-rtl`, see `language.RTL_CSS`) in a right-to-left
    language, else left to right."""
    if direction() == "rtl":
        widget.add_class("tr-rtl")
    else:
        widget.remove_class("tr-rtl")


class Part(traitlets.HasTraits):
    """Mixin for an ipywidgets class: its size and its language (see the module's
    docstring). Subclasses override `_redraw()` and register texts with `texts()`."""

    size = traitlets.Unicode("normal")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._drawn_in = language()
        self.add_class("tv-sized")  # type: ignore[attr-defined]
        self.add_class(f"tv-size-{self.size}")  # type: ignore[attr-defined]
        show_direction(self)  # drawn in the language in use, right to left or not
        add_listener(self._language_event)

    @traitlets.validate("size")
    def _valid_size(self, proposal: Any) -> str:
        return check_size(proposal["value"])

    @traitlets.observe("size")
    def _size_changed(self, change: Any) -> None:
        self.remove_class(f"tv-size-{change['old']}")  # type: ignore[attr-defined]
        self.add_class(f"tv-size-{change['new']}")  # type: ignore[attr-defined]
        self._redraw()

    def texts(self, widget: Any, **labels: str | Callable[[], Any]) -> Any:
        """Show `widget`'s fixed texts now and at every change of language (see
        `apply_texts`); returns `widget`. `widget` may be the part itself."""
        registered: list[tuple[Any, dict[str, Any]]] = self.__dict__.setdefault(
            "_texts", [])
        registered.append((widget, dict(labels)))
        apply_texts(widget, labels)
        return widget

    def refresh(self) -> None:
        """Show the part in the language in use: its registered texts, its pictures
        (`_redraw`) and its direction. What the learner chose stays."""
        registered = [(w, labels) for w, labels in self.__dict__.get("_texts", ())
                      if w is self or getattr(w, "comm", None) is not None]
        self.__dict__["_texts"] = registered
        self._refreshing = True  # relabelling is not the learner's choice: see `watch`
        try:
            for widget, labels in registered:
                apply_texts(widget, labels)
            self._language_changed()
            self._redraw()
        finally:
            self._refreshing = False
        show_direction(self)
        self._drawn_in = language()

    def watch(self, control: widgets.Widget, action: Callable[[Any], object]) -> None:
        """Call `action(change)` when the learner changes `control`'s value, not when a
        change of language relabels it."""
        def changed(change: Any) -> None:
            if not getattr(self, "_refreshing", False):
                action(change)

        control.observe(changed, "value")

    def _language_changed(self) -> None:
        """Redo state that holds words of the old language (called by `refresh` before
        `_redraw`); subclasses may override."""

    def _language_event(self, code: str) -> None:
        if getattr(self, "comm", None) is None or getattr(self, "_drawn_in", code) == code:
            return  # closed, or drawn in this language already
        try:
            self.refresh()
        except Exception:  # noqa: BLE001 - one part that cannot redraw keeps its old texts
            log.error("could not show %r in %s", self, code, exc_info=True)

    def _redraw(self) -> None:
        """Draw again at the current size and in the language in use; subclasses
        override."""


class PageStyle(Part, widgets.HTML):  # type: ignore[misc]
    """A hidden part whose `<style>` sets the text of the whole page at its size
    (`page_css`): put one in an app and give it the app's size. Only the last one drawn
    counts, so a page has one per app and they share a size."""

    def __init__(self, size: str = "normal", **kwargs: Any) -> None:
        super().__init__(layout=widgets.Layout(display="none"), **kwargs)
        self.add_class("tv-page-style")
        self.size = size
        self._redraw()

    def _redraw(self) -> None:
        self.value = page_css(self.size)


#: How much a text box holds unless told otherwise.
MAX_CHARS = 2000


SOMETHING_WENT_WRONG = N_("Something went wrong on our side, not yours. Try again, or start "
                           "the demonstration afresh.")

F = TypeVar("F", bound=Callable[..., Any])


class MessageBox(Part, widgets.HTML):  # type: ignore[misc]
    """One explaining sentence in a box (`render.message_html`): `.info(m)`, `.ok(m)`,
    `.error(m)`, `.clear()`. `.text` is the plain sentence shown, "" when empty. A rule
    id in it links to the rulebook."""

    def __init__(self, size: str = "normal", **kwargs: Any) -> None:
        self._message: Message | str | None = None
        self._kind = "info"
        super().__init__(**kwargs)
        self.add_class("tv-message-box")
        self.size = size

    @property
    def text(self) -> str:
        return "" if self._message is None else str(self._message)

    @property
    def kind(self) -> str | None:
        return None if self._message is None else self._kind

    def show(self, message: Message | str, kind: str = "info") -> None:
        self._message, self._kind = message, kind
        self._redraw()

    def info(self, message: Message | str) -> None:
        self.show(message, "info")

    def ok(self, message: Message | str) -> None:
        self.show(message, "ok")

    def error(self, message: Message | str) -> None:
        self.show(message, "error")

    def clear(self) -> None:
        self._message = None
        self._redraw()

    def show_exception(self, err: BaseException) -> None:
        """A refusal shows its own sentence; anything else a short apology (logged)."""
        if isinstance(err, ToonervilleError):
            self.error(err.message)
        else:
            log.error("a widget callback failed", exc_info=err)
            self.error(msg(SOMETHING_WENT_WRONG))

    def guard(self, callback: F) -> F:
        """`callback`, made safe for a learner: it never raises (see `show_exception`)."""
        return guard(self, callback)

    def _redraw(self) -> None:
        if getattr(self, "_message", None) is None:
            self.value = ""
        else:
            self.value = message_html(self._message, self._kind,  # type: ignore[arg-type]
                                      self.size)


def guard(box: MessageBox, callback: F) -> F:
    """Wrap a widget callback so it never raises to the learner: a `ToonervilleError`
    shows its sentence in `box`, any other exception a short message (and is logged)."""

    @functools.wraps(callback)
    def safe(*args: Any, **kwargs: Any) -> Any:
        try:
            return callback(*args, **kwargs)
        except Exception as err:  # noqa: BLE001 - shown to the learner, never raised
            box.show_exception(err)
            return None

    return safe  # type: ignore[return-value]


class CappedText(widgets.Text):  # type: ignore[misc]
    """A text box that keeps at most `max_chars` characters. A longer value is cut to
    that length before any observer sees it, and `notice` (place it under the box) says
    what happened; the next value that fits clears it. `was_cut` is True meanwhile."""

    was_cut = traitlets.Bool(False)

    def __init__(self, value: str = "", max_chars: int = MAX_CHARS, **kwargs: Any) -> None:
        if max_chars < 1:
            raise ValueError(f"a text box must hold at least 1 character, not {max_chars}")
        self.max_chars = max_chars
        self.notice = MessageBox()
        super().__init__(value=value, **kwargs)
        self.add_class("tv-capped-text")

    @traitlets.validate("value")
    def _cap(self, proposal: Any) -> str:
        text = str(proposal["value"])
        cut = len(text) > self.max_chars
        if cut:
            self.notice.show(msg("That is too long: this box holds at most {limit} "
                                 "characters, so only the first {limit} were kept "
                                 "({n} were given).", limit=self.max_chars, n=len(text)),
                             "error")
            text = text[:self.max_chars]
        elif self.was_cut:
            self.notice.clear()
        self.was_cut = cut
        return text
