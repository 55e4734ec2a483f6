"""What every lesson (01–06) stands on: `Lesson` (a size toggle, a page style, a note
about the page's address, a message box, guarded buttons, the language in use) and
`GameLesson` (a lesson over one small `Game`), with the few helpers that draw lesson
prose (`text_html`, `heading_html`: their rule ids link to the rulebook).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from html import escape
from typing import Any, TypeVar

import ipywidgets as widgets

from ..engine import actions as A
from ..engine.errors import ToonervilleError
from ..engine.events import Event
from ..engine.game import Game
from ..engine.melds import Meld
from ..engine.messages import N_, Message, _, msg, plural, set_language
from ..pages.render import rule_ids_html
from ..players.scenarios import seat_names
from .base import CappedText, MessageBox, PageStyle, Part, relabel, size_style
from .language import initial_language, rtl_style
from .progress import acted
from .settings import SizeToggle
from .url import seed_from_url, size_from_url, url_notes

log = logging.getLogger("toonerville.widgets")


P = TypeVar("P")


#: Lesson text follows the card size through the CSS variable that `SIZE_CSS` sets on
#: the lesson (13px normal, 17px large, 26px projector), so static text scales too.
_FONT = "calc(var(--jp-widgets-font-size, 13px) + 1px)"


def text_html(html: str, size: str = "normal", muted: bool = False) -> str:
    """A paragraph of lesson prose; its rule ids link to the rulebook."""
    style = f"font-size:{_FONT};line-height:1.4;margin:4px 0"
    if muted:
        style += ";opacity:.85"
    return f'<div style="{style}">{rule_ids_html(html)}</div>'


def heading_html(text: str, size: str = "normal") -> str:
    """A lesson's small heading (plain text, escaped); its rule ids link to the rulebook."""
    return (f'<div style="font-size:calc({_FONT} * 1.25);font-weight:bold;'
            f'margin:10px 0 2px">{rule_ids_html(escape(text))}</div>')


def seed_note_html(seed: int, size: str) -> str:
    """The muted note under a dealt example: its seed, and how to get the deal again."""
    return text_html(_("Seed <b>{seed}</b> · add <code>?seed={seed}</code> to this page's "
                       "address to get this deal again").format(seed=seed), size, muted=True)


def cards_phrase(n: int) -> str:
    """"1 card", "12 cards" in the language in use."""
    return plural("{n} card", "{n} cards", n)


def meld_words(meld: Meld) -> str:
    """"run of Red 5–8", "set of 7s" (for "Player 1's run of Red 5–8")."""
    if meld.is_run and meld.colour is not None:
        return _("run of {colour} {low}–{high}").format(colour=_(meld.colour.title),
                                                        low=meld.low, high=meld.high)
    return _("set of {n}s").format(n=meld.low)




#: How many characters a lesson's card box holds: more than any lay-down (round 11's
#: whole hand with separators is about 70), far less than what would make a page of
#: pictures too big to send (100,000 pasted characters drew 59 MB of cards).
CARD_CHARS = 120


class Lesson(Part, widgets.VBox):  # type: ignore[misc]
    """What every lesson has: a size toggle at the top (the page's `?size=` first), a
    note when the page's address asked for something it cannot have (`?seed=abc`), a
    message box at the bottom, guarded buttons, and the language in use. Subclasses
    build their parts (their fixed texts through `_label`, `_button` and `_int_text`,
    so a change of language finds them), then call `_assemble`."""

    def __init__(self, size: str | None = None, **kwargs: Any) -> None:
        set_language(initial_language())  # the page's ?lang= if nothing chose before
        self.size_toggle = SizeToggle(size or size_from_url())  # else the page's ?size=
        self.page_style = PageStyle()
        self.messages = MessageBox()
        self.url_note = MessageBox()
        self.url_note.add_class("tv-url-note")
        self._parts: list[Any] = [self.messages, self.url_note, self.page_style]
        self._ready = False
        self._refreshing = False
        self._seed_default: int | None = None
        super().__init__(**kwargs)
        self.add_class("tv-lesson")
        widgets.dlink((self.size_toggle, "value"), (self, "size"))

    def __repr__(self) -> str:
        """Short, so a saved notebook's text fallback stays small and readable."""
        seed = getattr(self, "seed", None)
        shown = f"seed={seed.value}, " if isinstance(seed, widgets.IntText) else ""
        return f"{type(self).__name__}({shown}size={self.size!r})"

    def _url_seed(self, default: int) -> int:
        """The page's `?seed=`, or `default` (and a note saying why, drawn by
        `_assemble`, when the address gave something that is not a seed)."""
        self._seed_default = default
        return seed_from_url(default)

    def _assemble(self, *body: widgets.Widget) -> None:
        """The lesson's layout: the size toggle, `body`, and the message box at the end
        unless `body` places it nearer the controls."""
        tail = () if self.messages in body else (self.messages,)
        self.children = (size_style(), rtl_style(), self.page_style, self.size_toggle,
                         self.url_note, *body, *tail)
        self._ready = True
        self.size = self.size_toggle.value
        self._redraw()

    def _label(self, widget: widgets.Widget, **labels: str | Callable[[], Any]) -> Any:
        """Set `widget`'s texts now and at every change of language (`Part.texts`): an
        English text (marked with `N_`) is shown translated; a function makes the value
        (for the options of a dropdown). Returns `widget`."""
        return self.texts(widget, **labels)

    def _sized(self, part: P) -> P:
        """Register a sized component so the size toggle reaches it."""
        self._parts.append(part)
        return part

    def _button(self, description: str, action: Callable[[], object], tooltip: str = "",
                style: str = "") -> widgets.Button:
        """A guarded button; `description` and `tooltip` are English texts (`N_`)."""
        button = widgets.Button(button_style=style)
        self._label(button, description=description, tooltip=tooltip or description)
        button.on_click(self.messages.guard(lambda _b: acted(self, action)))
        return button

    def _int_text(self, description: str, value: int, width: str = "auto") -> widgets.IntText:
        return self._label(_int_text(description, value, width), description=description)

    def _text_box(self, value: str, width: str, max_chars: int = CARD_CHARS,
                  **labels: str | Callable[[], Any]) -> CappedText:
        """A text box that holds at most `max_chars` characters; place its `.notice`
        under it (it says so when a longer text is cut)."""
        box = CappedText(value=value, max_chars=max_chars, continuous_update=True,
                         layout=widgets.Layout(width=width))
        self._sized(box.notice)
        self._label(box, **labels)
        return box

    def _watch(self, control: widgets.Widget, action: Callable[[], object]) -> None:
        """Run `action` when the learner changes `control` (not when its labels change
        language)."""
        self.watch(control, self.messages.guard(lambda _change: acted(self, action)))

    def _redraw(self) -> None:
        if not getattr(self, "_ready", False):
            return
        for part in self._parts:
            part.size = self.size
        self._draw_url_note()
        self._draw()

    def _draw_url_note(self) -> None:
        notes = url_notes(self._seed_default)
        if notes:
            self.url_note.info(notes[0] if len(notes) == 1 else " ".join(map(str, notes)))
        else:
            self.url_note.clear()

    def _draw(self) -> None:
        """Redraw the lesson's own pictures at `self.size`."""


def close_tree(widget: widgets.Widget) -> None:
    """Close a widget and everything inside it (a lesson's parts replaced for good)."""
    for child in getattr(widget, "children", ()):
        close_tree(child)
    widget.close()


def lesson_row(*children: widgets.Widget) -> widgets.HBox:
    """Controls side by side, wrapping onto the next line on a narrow page."""
    row = widgets.HBox(children, layout=widgets.Layout(flex_flow="row wrap",
                                                       align_items="center"))
    row.add_class("tv-row")
    return row


def choose_option(dropdown: widgets.Dropdown, options: list[tuple[str, Any]],
                  preferred: Any) -> None:
    """New options for a dropdown, keeping a value chosen: `preferred` if it is still
    there, else the first option (an empty dropdown looks broken)."""
    values = [v for _label, v in options]
    if list(dropdown.options) != options:
        relabel(dropdown, options)  # new labels only (a new language): the value stays
    if preferred in values:
        dropdown.value = preferred
    elif dropdown.value not in values and values:
        dropdown.value = values[0]


def _int_text(description: str, value: int, width: str = "auto") -> widgets.IntText:
    return widgets.IntText(value=value, description=description,
                           style={"description_width": "initial"},
                           layout=widgets.Layout(width=width))


class GameLesson(Lesson):
    """A lesson over one small `Game`: every move goes through `play`, which shows the
    engine's refusal sentence instead of raising, and remembers what each seat got."""

    game: Game

    def _reset_game(self, game: Game) -> None:
        self.game = game
        self.start = len(game.history)
        self.news: dict[int, list[tuple[str, Message]]] = {}

    def _language_changed(self) -> None:
        """The players' names are in the game's sentences: replay the game under the
        names of the new language, so every sentence of its history speaks it."""
        game = getattr(self, "game", None)
        if game is None:
            return
        names = seat_names(game.players)
        if game.names == names or not all(n.split()[-1].isdigit() for n in game.names):
            return  # not the lessons' "Player 1" names: leave them
        self.game = game.renamed(names)

    def play(self, action: A.Action | str) -> bool:
        """Apply a move; on a refusal show the sentence and return False."""
        try:
            events = self.game.apply(action)
        except ToonervilleError as err:
            self.messages.error(err.message)
            self._draw()
            return False
        self.messages.clear()
        self.news = {}
        for e in events:
            if e.seat is None or not e.cards:
                continue
            said = {"take": N_("took {cards} from the discard pile"),
                    "buy": N_("bought {cards}"), "penalty": N_("penalty card {cards}"),
                    "draw": N_("drew {cards}"),
                    "swap": N_("put in {cards}, took the Rook")}.get(e.kind)
            if said:
                self.news.setdefault(e.seat, []).append((e.kind, msg(said, cards=e.cards)))
        self._draw()
        return True

    def refuse(self, action: A.Action | str) -> Message | None:
        """Show why the engine would refuse `action` (the game is unchanged)."""
        err = self.game.refusal(action)
        if err is None:
            self.messages.info(msg("the engine would allow that move"))
            return None
        self.messages.error(err.message)
        return err.message

    @property
    def events(self) -> tuple[Event, ...]:
        """What happened since the lesson's position was set up."""
        return self.game.history[self.start:]
