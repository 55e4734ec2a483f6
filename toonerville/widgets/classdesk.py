"""A class on page 09 (issue 29): the teacher's class desk and a learner's way in.

`ClassDesk` is the teacher's page over `store.ClassStore`: a class name and *Open the
class* (one click after the name); the page then shows ONE join link — this page's
address with `?class=CODE&lang=…` — big for the projector and as a QR code (`segno`,
inline SVG), the teacher's key on request (*Show my teacher's key*: with the class code
it gives the desk back on another computer, *Reopen*), the class's six settings with
*Save*, who has joined (looked at every `poll_ms`), printable cards for learners who
cannot type a name (a card holds the name, the learner's own link with their key and
its QR code; the page's print style prints the cards alone), and *Open tables for the
class*: every learner who has joined gets a seat at a shared table (at most four
learners a table, bots of the class's level fill it to three or more), with the class's
away limit and buy-offer setting, and their page shows the link to it. *A tournament
for the class* sets up a tournament (page 10's desk, `tournament.TeacherDesk.for_class`)
of the class's learners on this page; its Start hands each learner their key, and
their class page joins it by itself.

`ClassJoin` is the learner's page, opened by the join link: it asks only for a name; a
card's link (`&me=KEY`), and the page after joining (the page's script writes `me=KEY`
into the address: `resume.js`), need no typing at all. It then says "Class NAME — your
teacher's settings: …" and lists what the teacher opened for them as links that take
their seat with no typing (the table page applies the class's settings: hints off hides
the Hint button, `class_choice`).

The teacher's browser keeps the class and the teacher's key (the page's script,
`resume.js`, in the browser's local storage): a reload of the desk, or the page opened
again on that computer, reopens the class by itself; on another computer *Show my
teacher's key* gives the key to reopen it with (it stays off the projector otherwise).

`class_page()` gives the one a page's address asks for: `ClassJoin` with `?class=`, else
`ClassDesk`. Stable CSS hooks for tests: `tc-desk`, `tc-name`, `tc-open`, `tc-link`,
`tc-qr`, `tc-key`, `tc-show-key`, `tc-reopen-code`, `tc-reopen-key`, `tc-reopen`, `tc-hints`,
`tc-take-back`, `tc-bot-level`, `tc-away`, `tc-buy-offers`, `tc-language`, `tc-save`,
`tc-members`, `tc-card-names`, `tc-cards-button`, `tc-cards`, `tc-tables`,
`tc-tournament`, `tc-message`,
`tc-poll`; the learner's: `tc-join-page`, `tc-join-name`, `tc-join`, `tc-settings`,
`tc-handouts`, `tr-class-key`.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Sequence
from html import escape
from pathlib import Path

import ipywidgets as widgets

from ..engine.errors import ToonervilleError
from ..engine.messages import DEFAULT, LANGUAGES, N_, _, language, msg
from ..pages.serverless import no_shared_tables
from ..store import ClassSettings, ClassStore, Handout, TableStore
from ..store.seats import LIMITS
from .base import MessageBox, displayed, size_style, translated, translated_button
from .class_choice import CLASS_PARAM, ME_PARAM, page_link, settings_words
from .classroom import table_names
from .level_view import level_options
from .session_words import buy_offer_options
from .ticker import poll_ticker
from .tournament import TeacherDesk
from .tournament_parts import open_or_problem, text_box
from .tournament_seat import TournamentSeat
from .url import query_params

#: how often the desk and a learner's page look at the class, in milliseconds
CLASS_POLL_MS = 2000
#: the class dashboard's page, beside this one
DASHBOARD_PAGE = "12-dashboard.ipynb"
DASHBOARD_WORDS = N_("The class dashboard (page 12): where each learner is and what they "
                     "have done")
#: the most learners seated at one table the desk opens (bots fill a table up to 3)
LEARNERS_PER_TABLE = 4
#: the most names the cards box takes
MAX_CARDS = 60

#: the page's print style: printing the desk prints the cards alone, six to a page
PRINT_CSS = """<style>
.tc-cards { display: flex; flex-wrap: wrap; gap: 4mm; }
.tc-card { border: 1px dashed #555; padding: 4mm; width: 85mm; box-sizing: border-box;
  break-inside: avoid; page-break-inside: avoid; }
.tc-card h3 { margin: 0 0 2mm 0; font-size: 16pt; }
.tc-card .tc-card-link { font-family: monospace; font-size: 8pt; word-break: break-all; }
.tc-join-link { font-size: 2.2em; font-weight: bold; word-break: break-all; }
.tc-join-code { font-size: 3em; letter-spacing: 0.15em; font-family: monospace; }
@media print {
  @page { size: A4 portrait; margin: 10mm; }
  body *:not(:has(.tc-cards)):not(.tc-cards):not(.tc-cards *) { display: none !important; }
  .tc-cards, .tc-cards * { visibility: visible !important; }
}
</style>"""


def qr_svg(link: str, scale: int = 6) -> str:
    """`link` as a QR code, an inline SVG (segno), with the link as its title."""
    import segno  # only here: the static site (no store, no class) does not ship it

    return str(segno.make(link, error="m").svg_inline(scale=scale, border=2,
                                                        title=link))


def language_options() -> list[tuple[str, str]]:
    return [(name, code) for code, name in LANGUAGES.items()]


class ClassDesk(widgets.VBox):  # type: ignore[misc]
    """The teacher's class desk (see the module). `store=` gives a `TableStore` (tests),
    `where=` a path or URL; the class is `.code` (None before it is opened), its teacher's
    key `.teacher_key`, the desk `.classes` (a `ClassStore`)."""

    def __init__(self, store: TableStore | None = None, *, where: str | Path | None = None,
                 size: str = "normal", poll_ms: int = CLASS_POLL_MS) -> None:
        opened, problem = open_or_problem(store, where)
        self.store = opened
        self.classes = ClassStore(opened.backend) if opened is not None else None
        self.code: str | None = None
        self.teacher_key: str | None = None
        self.join_url = ""
        self.tables: list[str] = []
        self._size = size
        self._shown_members: tuple[str, ...] | None = None
        self._build(poll_ms)
        super().__init__(children=[size_style(), widgets.HTML(PRINT_CSS), self.ticker,
                                   self.setup, self.message, self.running])
        self.add_class("tc-desk")
        if problem is not None:
            self.setup.layout.display = "none"
            self.message.error(no_shared_tables(problem))
            return
        self.message.info(msg("name your class, then click Open the class", None))

    def __repr__(self) -> str:
        return f"ClassDesk(code={self.code!r})"

    # -- building the page -----------------------------------------------------------
    def _build(self, poll_ms: int) -> None:
        self.message = MessageBox(size=self._size)
        self.message.add_class("tc-message")
        guard = self.message.guard
        self.name_text = text_box("tc-name", N_("Class name"), "5B", "20em")
        self.open_button = translated_button(N_("Open the class"), "tc-open", N_(
            "Open a class: the page shows its join link and QR code for the projector"))
        self.open_button.on_click(guard(lambda _b: self.open_class()))
        self.reopen_code = text_box("tc-reopen-code", N_("Class code"), "KXR4PT", "14em")
        self.reopen_key = text_box("tc-reopen-key", N_("Teacher's key"), "", "24em")
        self.reopen_button = translated_button(N_("Reopen"), "tc-reopen", N_(
            "Your class's desk again, after a reload: its code and your teacher's key"))
        self.reopen_button.on_click(guard(lambda _b: self.reopen()))
        self.setup = widgets.VBox([
            widgets.HBox([self.name_text, self.open_button]),
            widgets.HBox([self.reopen_code, self.reopen_key, self.reopen_button])])
        # the class, once open
        self.join_box = widgets.HTML()
        self.join_box.add_class("tc-link")
        self.qr = widgets.HTML()
        self.qr.add_class("tc-qr")
        self.key_box = widgets.HTML(layout=widgets.Layout(display="none"))
        self.key_box.add_class("tc-key")
        # the key stays off the projector until the teacher asks for it
        self.show_key = translated(widgets.ToggleButton(
            value=False, layout=widgets.Layout(width="auto")),
            description=N_("Show my teacher's key"), tooltip=N_(
                "With the class code it gives this desk back on another computer"))
        self.show_key.add_class("tc-show-key")
        self.show_key.observe(
            lambda change: setattr(self.key_box.layout, "display", displayed(change["new"])),
            "value")
        #: the teacher's browser keeps the key (the page's script, `resume.js`)
        self.keeper = widgets.HTML()
        self.hints = translated(widgets.Checkbox(value=True, indent=False),
                                description=N_("Hints"))
        self.hints.add_class("tc-hints")
        self.take_back = translated(widgets.Checkbox(value=True, indent=False),
                                    description=N_("Take back"))
        self.take_back.add_class("tc-take-back")
        self.bot_level = translated(widgets.Dropdown(
            options=level_options(), value="heuristic", layout=widgets.Layout(width="auto")),
            description=N_("Bots play"), options=level_options)
        self.bot_level.add_class("tc-bot-level")
        low, high = LIMITS
        defaults = ClassSettings()
        self.away = translated(widgets.BoundedIntText(
            value=int(defaults.away_limit), min=int(low), max=int(high),
            layout=widgets.Layout(width="16em"), style={"description_width": "initial"}),
            description=N_("Seconds away before a bot plays"))
        self.away.add_class("tc-away")
        self.buy_offers = translated(widgets.Dropdown(
            options=buy_offer_options(), value=defaults.buy_offers,
            layout=widgets.Layout(width="auto"), style={"description_width": "initial"}),
            description=N_("Offer me a declined discard"), options=buy_offer_options)
        self.buy_offers.add_class("tc-buy-offers")
        self.language = translated(widgets.Dropdown(
            options=language_options(), value=defaults.language,
            layout=widgets.Layout(width="auto")), description=N_("Language"))
        self.language.add_class("tc-language")
        self.save_button = translated_button(N_("Save settings"), "tc-save", N_(
            "The class's tables and learners' pages follow these settings"))
        self.save_button.on_click(guard(lambda _b: self.save_settings()))
        settings_box = widgets.VBox([
            widgets.HBox([self.hints, self.take_back, self.bot_level]),
            widgets.HBox([self.away, self.buy_offers, self.language]), self.save_button])
        settings_box.add_class("tc-settings-form")
        self.members = widgets.HTML()
        self.members.add_class("tc-members")
        self.tables_button = translated_button(N_("Open tables for the class"), "tc-tables",
                                               N_("Seat every learner who has joined at a "
                                                  "shared table; their pages show the link"))
        self.tables_button.on_click(guard(lambda _b: self.open_tables()))
        self.tournament_button = translated_button(
            N_("A tournament for the class"), "tc-tournament",
            N_("Set up a tournament of the class's learners here; at its start each "
               "learner's page joins it"))
        self.tournament_button.on_click(guard(lambda _b: self.tournament_desk()))
        #: the tournament's desk, once asked for (`tournament_desk`)
        self.tournament: TeacherDesk | None = None
        self.tournament_box = widgets.VBox()
        self.card_names = translated(widgets.Textarea(
            layout=widgets.Layout(width="32em", height="6em"),
            style={"description_width": "initial"}),
            description=N_("Names for cards"),
            placeholder=N_("one name per line, or Ann, Bob, Cat"))
        self.card_names.add_class("tc-card-names")
        self.cards_button = translated_button(N_("Make cards"), "tc-cards-button", N_(
            "A card for each name, with the learner's own link and QR code: print the page"))
        self.cards_button.on_click(guard(lambda _b: self.make_cards()))
        self.cards = widgets.HTML()
        self.cards.add_class("tc-cards-box")
        self.ticker = poll_ticker(poll_ms, "tc-poll", guard(lambda _c: self.poll()))
        self.running = widgets.VBox([
            widgets.HBox([self.join_box, self.qr]),
            widgets.HBox([self.show_key, self.key_box, self.keeper]), settings_box,
            self.members, widgets.HBox([self.tables_button, self.tournament_button]),
            self.tournament_box,
            widgets.HBox([self.card_names, self.cards_button]), self.cards],
            layout=widgets.Layout(display="none"))

    # -- the teacher's actions -------------------------------------------------------
    def _desk(self) -> ClassStore:
        if self.classes is None:
            raise ToonervilleError(msg("name your class, then click Open the class", None))
        return self.classes

    def _open(self) -> tuple[ClassStore, str, str]:
        if self.code is None or self.teacher_key is None:
            raise ToonervilleError(msg("name your class, then click Open the class", None))
        return self._desk(), self.code, self.teacher_key

    def open_class(self, name: str | None = None) -> str:
        """Open a class called `name` (else the name box's) and show its join link."""
        opened = self._desk().open_class(self.name_text.value if name is None else name)
        self._show(opened.code, opened.teacher_key)
        return opened.code

    def reopen(self, code: str | None = None, key: str | None = None) -> None:
        """The desk of a class opened before, by its code and the teacher's key."""
        code = self.reopen_code.value if code is None else code
        key = (self.reopen_key.value if key is None else key).strip()
        desk = self._desk()
        desk.members(code, key)  # the store's refusal for a wrong code or key
        self._show(code.strip().upper(), key)

    def _show(self, code: str, key: str) -> None:
        desk = self._desk()
        self.code, self.teacher_key = code, key
        settings = desk.settings(code)
        name = desk.class_name(code)
        self.join_url = page_link({CLASS_PARAM: code}, lang=settings.language)
        self._show_join_link(name)
        self.key_box.value = escape(_(
            "Your teacher's key (keep it to yourself; with the code {code} it gives this "
            "desk back after a reload): {key}").format(code=code, key=key))
        self.keeper.value = (f"<span class='tr-class-teacher' data-class='{escape(code)}' "
                             f"data-key='{escape(key)}' hidden></span>")
        self._settings_shown(settings)
        self.setup.layout.display = "none"
        self.running.layout.display = displayed(True)
        self.message.ok(msg("class {name} is open: show the link or the QR code to your "
                            "class", None, name=name))
        self._show_members()
        self.ticker.playing = True

    def _settings_shown(self, settings: ClassSettings) -> None:
        self.hints.value, self.take_back.value = settings.hints, settings.take_back
        self.bot_level.value, self.away.value = settings.bot_level, int(settings.away_limit)
        self.buy_offers.value, self.language.value = settings.buy_offers, settings.language

    def chosen_settings(self) -> ClassSettings:
        """The settings the form shows."""
        return ClassSettings(hints=bool(self.hints.value),
                             take_back=bool(self.take_back.value),
                             bot_level=str(self.bot_level.value),
                             away_limit=float(self.away.value),
                             buy_offers=str(self.buy_offers.value),
                             language=str(self.language.value))

    def save_settings(self, settings: ClassSettings | None = None) -> ClassSettings:
        """Save the form's settings (or `settings`) for the class."""
        desk, code, key = self._open()
        chosen = self.chosen_settings() if settings is None else settings
        desk.set_settings(code, key, chosen)
        self._settings_shown(chosen)
        self.join_url = page_link({CLASS_PARAM: code}, lang=chosen.language)
        self._show_join_link(desk.class_name(code))
        self.message.ok(settings_words(desk.class_name(code), chosen))
        return chosen

    def _show_join_link(self, name: str) -> None:
        assert self.code is not None
        title = _("Join class {name}: open this link or scan the code").format(name=name)
        self.join_box.value = (
            f"<div class='tc-join-title'>{escape(title)}</div>"
            f"<div class='tc-join-code'>{escape(self.code)}</div>"
            f"<a class='tc-join-link' href='{escape(self.join_url)}' target='_blank'>"
            f"{escape(self.join_url)}</a>"
            f"<div class='tc-dashboard-link'><a href='{escape(self.dashboard_url)}' "
            f"target='_blank'>{escape(_(DASHBOARD_WORDS))}</a></div>")
        self.qr.value = qr_svg(self.join_url, scale=8)

    @property
    def dashboard_url(self) -> str:
        """Page 12 for this class: the link holds the class's code, never the teacher's
        key, which this browser keeps (the page script fills it in on page 12)."""
        assert self.code is not None
        query = {CLASS_PARAM: self.code}
        if language() != DEFAULT:
            query["lang"] = language()
        return DASHBOARD_PAGE + "?" + urllib.parse.urlencode(query)

    def poll(self) -> None:
        """Look at who has joined (the ticker calls this)."""
        if self.code is not None:
            self._show_members()

    def _show_members(self) -> None:
        desk, code, key = self._open()
        names = tuple(m.name for m in desk.members(code, key))
        if names == self._shown_members:
            return
        self._shown_members = names
        if not names:
            self.members.value = escape(_("Nobody has joined yet."))
            return
        self.members.value = (escape(_("{n} learners have joined:").format(n=len(names)))
                              + " " + ", ".join(f"<b>{escape(n)}</b>" for n in names))

    def make_cards(self, names: Sequence[str] | None = None) -> tuple[tuple[str, str], ...]:
        """A printable card for each name (the box's, else `names`): the name, the
        learner's own link (with their key) and its QR code."""
        desk, code, key = self._open()
        if names is None:
            text = str(self.card_names.value)
            names = [n for n in text.replace(",", "\n").splitlines() if n.strip()]
        if len(names) > MAX_CARDS:
            names = list(names)[:MAX_CARDS]
        cards = desk.enrol(code, key, names)
        settings = desk.settings(code)
        html = []
        for name, learner_key in cards:
            link = page_link({CLASS_PARAM: code, ME_PARAM: learner_key},
                             lang=settings.language)
            html.append(f"<div class='tc-card'><h3>{escape(name)}</h3>{qr_svg(link, 4)}"
                        f"<div class='tc-card-link'>{escape(link)}</div></div>")
        self.cards.value = f"<div class='tc-cards'>{''.join(html)}</div>"
        self._show_members()
        return cards

    def tournament_desk(self) -> TeacherDesk:
        """A tournament's desk (page 10's) for this class, on this page: its learners are
        the class's, its bots the class's level; Start hands each learner their key."""
        desk, code, key = self._open()
        if self.tournament is None or self.tournament.code is not None:
            self.tournament = TeacherDesk(self.store, size=self._size)
            self.tournament_box.children = [self.tournament]
        self.tournament.for_class(desk, code, key)
        return self.tournament

    def open_tables(self) -> tuple[str, ...]:
        """Seat every learner who has joined at a shared table (at most
        `LEARNERS_PER_TABLE` a table, bots of the class's level filling it to three or
        more), with the class's limits and buy-offer setting, and hand each learner
        their seat's key. Returns the tables' codes."""
        desk, code, key = self._open()
        assert self.store is not None
        names = [m.name for m in desk.members(code, key)]
        if not names:
            raise ToonervilleError(msg("Nobody has joined yet.", None))
        settings = desk.settings(code)
        count = -(-len(names) // LEARNERS_PER_TABLE)
        groups = [names[k::count] for k in range(count)]
        opened = []
        for group in groups:
            players = max(3, len(group))
            bots = {seat: settings.bot_level for seat in range(len(group), players)}
            seat_names = list(table_names(players, bots))
            seat_names[:len(group)] = group
            table, _host = self.store.open_hosted(
                players, bots=bots, names=tuple(seat_names), stand_in=settings.bot_level,
                away_after=settings.away_limit)
            keys = {}
            for seat, name in enumerate(group):
                handle = self.store.claim(table, seat, name=name)
                self.store.set_buy_offers(table, seat, settings.buy_offers,
                                          secret=handle.secret)
                keys[name] = handle.secret
            desk.hand_out(code, key, "table", table, keys)
            opened.append(table)
        self.tables.extend(opened)
        self.message.ok(msg("{n} tables are open: each learner's page shows the link to "
                            "their table", None, n=len(opened)))
        return tuple(opened)


class ClassJoin(widgets.VBox):  # type: ignore[misc]
    """A learner's page of a class (see the module): `code` and `key` default to the
    address's `?class=` and `&me=`. The learner's key is `.key` once joined."""

    def __init__(self, store: TableStore | None = None, *, where: str | Path | None = None,
                 code: str | None = None, key: str | None = None, size: str = "normal",
                 poll_ms: int = CLASS_POLL_MS) -> None:
        opened, problem = open_or_problem(store, where)
        self.classes = ClassStore(opened.backend) if opened is not None else None
        params = query_params()
        self.code = (params.get(CLASS_PARAM, "") if code is None else code).strip().upper()
        self.key: str | None = None
        self._size = size
        self._shown: tuple[Handout, ...] | None = None
        self.message = MessageBox(size=size)
        self.message.add_class("tc-message")
        guard = self.message.guard
        self.name_text = text_box("tc-join-name", N_("Your name"), "", "18em")
        self.join_button = translated_button(N_("Join"), "tc-join", N_(
            "Join your class under your name"))
        self.join_button.on_click(guard(lambda _b: self.join()))
        self.ask = widgets.HBox([self.name_text, self.join_button])
        self.settings_text = widgets.HTML()
        self.settings_text.add_class("tc-settings")
        self.handouts = widgets.HTML()
        self.handouts.add_class("tc-handouts")
        self.key_keeper = widgets.HTML()
        #: the tournaments this page has joined for the learner: code → its seat page
        self.tournaments: dict[str, TournamentSeat] = {}
        self.tournament_box = widgets.VBox()
        self.store = opened
        self.ticker = poll_ticker(poll_ms, "tc-join-poll", guard(lambda _c: self.poll()))
        super().__init__(children=[size_style(), self.ticker, self.message, self.ask,
                                   self.settings_text, self.handouts, self.key_keeper,
                                   self.tournament_box])
        self.add_class("tc-join-page")
        if problem is not None or self.classes is None:
            self.ask.layout.display = "none"
            self.message.error(msg("there is no class {code} here: check the code, or ask "
                                   "your teacher for the link", None, code=self.code))
            return
        remembered = (params.get(ME_PARAM, "") if key is None else key).strip()
        try:
            name = self.classes.class_name(self.code)
        except ToonervilleError as err:
            self.ask.layout.display = "none"
            self.message.error(err.message)
            return
        if remembered and self.classes.learner(self.code, remembered) is not None:
            self._joined(remembered)
            return
        self.message.info(msg("Class {name}: type your name, then click Join", None,
                              name=name))

    def __repr__(self) -> str:
        return f"ClassJoin(code={self.code!r}, joined={self.key is not None})"

    def join(self, name: str | None = None) -> str:
        """Join the class as `name` (else the name box's); returns the learner's key."""
        assert self.classes is not None
        key = self.classes.join(self.code, self.name_text.value if name is None else name,
                                key=self.key)
        self._joined(key)
        return key

    def _joined(self, key: str) -> None:
        assert self.classes is not None
        self.key = key
        me = self.classes.learner(self.code, key)
        assert me is not None
        self.ask.layout.display = "none"
        # the page's script keeps the key in the address (`me=`): a reload needs no name
        self.key_keeper.value = (f"<span class='tr-class-key' data-param='{ME_PARAM}' "
                                 f"data-key='{escape(key)}' hidden></span>")
        self.message.ok(msg("Welcome, {name}!", None, name=me.name))
        self.poll()
        self.ticker.playing = True

    def poll(self) -> None:
        """The teacher's settings and what the teacher opened for this learner."""
        if self.classes is None or self.key is None:
            return
        settings = self.classes.settings(self.code)
        self.settings_text.value = (
            f"<b>{escape(settings_words(self.classes.class_name(self.code), settings))}"
            "</b>")
        found = self.classes.handouts(self.code, self.key)
        if found == self._shown:
            return
        links = []
        for item in found:
            if item.kind == "tournament":
                self._join_tournament(item)
                continue
            params = {CLASS_PARAM: self.code, ME_PARAM: self.key, "table": item.code}
            if item.key:
                params["key"] = item.key
            link = page_link(params, lang=settings.language)
            label = _("Your table {code}: open it").format(code=item.code)
            links.append(f"<a class='tc-handout' href='{escape(link)}'>{escape(label)}</a>")
        self.handouts.value = "<br>".join(links)
        self._shown = found


    def _join_tournament(self, item: Handout) -> None:
        """Join a tournament the teacher opened for the class, on this page, with the
        key the teacher's desk handed over: nothing to type."""
        if item.code in self.tournaments or not item.key or self.store is None:
            return
        assert self.classes is not None and self.key is not None
        me = self.classes.learner(self.code, self.key)
        assert me is not None
        seat = TournamentSeat(self.store, size=self._size)
        seat.join_tournament(item.code, me.name, item.key)
        self.tournaments[item.code] = seat
        self.tournament_box.children = tuple(self.tournaments.values())


def class_page(store: TableStore | None = None, *, where: str | Path | None = None,
               size: str = "normal") -> widgets.Widget:
    """The learner's page (`ClassJoin`) when the address names a class (`?class=`), else
    the teacher's desk (`ClassDesk`)."""
    if query_params().get(CLASS_PARAM):
        return ClassJoin(store, where=where, size=size)
    return ClassDesk(store, where=where, size=size)


__all__ = ["ClassDesk", "ClassJoin", "class_page", "qr_svg"]
