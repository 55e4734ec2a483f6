"""One widget per teaching notebook (01–06), each a thin `VBox` over the engine.

- `DealDemo`          01: the shoe (T2), the deal one card at a time, stock and turn-up (T8, H3)
- `MeldChecker`       02: runs, sets and the Rook, with the engine's verdicts (T4–T6, H1, H8)
- `ContractExplorer`  03: a round's contract, what the solver lays down, and how often a
                      freshly dealt hand already meets it (T7, T15)
- `BuyDemo`           04: declining the discard, buying, priority, the penalty card (T9–T14)
- `RookDemo`          05: which card a Rook stands for, the swap, a Rook in a set (T6, T18, T19)
- `ScoringDemo`       06: going out (T16, T17), card points (T3), the score sheet, ties (T20, T21)

Every demonstration deal is seeded; the seed is shown and `?seed=N` in a Voila URL
reproduces it (`seed_from_url`; a seed that is not a number is said so on the page).
Every button is guarded: a refusal shows the engine's sentence, never a traceback.
Every lesson has a size toggle for projectors that scales the whole page, prose
included (`?size=large|projector` opens it so). Every lesson speaks the language in use
(`?lang=fa` in a Voila URL, or a `LanguagePicker` on the page) and follows a change of
it like every widget of the kit (`base.Part`), keeping what the learner has done. Every
rule id a lesson prints links to its rule; every text box caps what it holds.
"""

from __future__ import annotations

import functools
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any, TypeVar

import ipywidgets as widgets

from .. import actions as A
from ..cards import Card, format_cards, hand_points, parse_cards, shuffled_shoe
from ..deal import DealPlan
from ..errors import ToonervilleError
from ..game import Game
from ..laydown import check_lay_down
from ..melds import Meld, Verdict, check_meld, is_run, is_set
from ..messages import N_, Message, _, msg, plural, set_language
from ..render import hand_html, meld_html, message_html, rule_ids_html, sentence_html
from ..rules import ROUNDS, Contract, Rules, contract_for
from ..scenarios import buy_position, rook_position, seat_names
from ..scoring import place_label, places
from ..views import Event, Phase
from .base import CappedText, PageStyle, apply_texts
from .components import (
    EventLog,
    HandPicker,
    HandView,
    MessageBox,
    Part,
    PilesView,
    ScoreSheet,
    SizeToggle,
    TableView,
    VerdictView,
    initial_language,
    relabel,
    rtl_style,
    seed_from_url,
    size_from_url,
    size_style,
    state_html,
    url_notes,
)

log = logging.getLogger("toonerville.widgets")

# DealPlan, buy_position, rook_position and seat_names live in the engine (`deal`,
# `scenarios`); they stay importable from here for notebooks written before
__all__ = ["BuyDemo", "ContractExplorer", "DealDemo", "DealPlan", "MeldChecker", "RookDemo",
           "buy_position", "rook_position",
           "ScoringDemo", "contract_rate", "dealt_hand", "seat_names"]


P = TypeVar("P")


#: Lesson text follows the card size through the CSS variable that `SIZE_CSS` sets on
#: the lesson (13px normal, 17px large, 26px projector), so static text scales too.
_FONT = "calc(var(--jp-widgets-font-size, 13px) + 1px)"


def _text(html: str, size: str = "normal", muted: bool = False) -> str:
    """A paragraph of lesson prose; its rule ids link to the rulebook."""
    style = f"font-size:{_FONT};line-height:1.4;margin:4px 0"
    if muted:
        style += ";opacity:.85"
    return f'<div style="{style}">{rule_ids_html(html)}</div>'


def _heading(text: str, size: str = "normal") -> str:
    return (f'<div style="font-size:calc({_FONT} * 1.25);font-weight:bold;'
            f'margin:10px 0 2px">{rule_ids_html(escape(text))}</div>')


def _seed_note(seed: int, size: str) -> str:
    return _text(_("Seed <b>{seed}</b> · add <code>?seed={seed}</code> to this page's "
                   "address to get this deal again").format(seed=seed), size, muted=True)


def _cards(n: int) -> str:
    """"1 card", "12 cards" in the language in use."""
    return plural("{n} card", "{n} cards", n)


def _meld_words(meld: Meld) -> str:
    """"run of Red 5–8", "set of 7s" (for "Player 1's run of Red 5–8")."""
    if meld.is_run and meld.colour is not None:
        return _("run of {colour} {low}–{high}").format(colour=_(meld.colour.title),
                                                        low=meld.low, high=meld.high)
    return _("set of {n}s").format(n=meld.low)


Labels = dict[str, "str | Callable[[], Any]"]


#: How many characters a lesson's card box holds: far more than any hand or lay-down,
#: far less than what would make a page of pictures too big to send.
CARD_CHARS = 300


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
        button.on_click(self.messages.guard(lambda _b: action()))
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
        self.watch(control, self.messages.guard(lambda _change: action()))

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


def _apply(widget: widgets.Widget, labels: Labels) -> None:
    apply_texts(widget, labels)


def _close_tree(widget: widgets.Widget) -> None:
    for child in getattr(widget, "children", ()):
        _close_tree(child)
    widget.close()


def _row(*children: widgets.Widget) -> widgets.HBox:
    row = widgets.HBox(children, layout=widgets.Layout(flex_flow="row wrap",
                                                       align_items="center"))
    row.add_class("tv-row")
    return row


def _choose(dropdown: widgets.Dropdown, options: list[tuple[str, Any]],
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


# == 01 the deal ===========================================================================
class DealDemo(Lesson):
    """01: choose 3–5 players, a seed and a round; deal one card at a time or all at
    once; then see the stock and the turn-up (with a Rook buried, H3)."""

    def __init__(self, players: int = 4, seed: int | None = None, round_number: int = 1,
                 size: str | None = None, rules: Rules | None = None) -> None:
        super().__init__(size)
        self.rules = rules or Rules()
        seed = self._url_seed(7) if seed is None else seed
        self.players = self._label(
            widgets.Dropdown(options=[3, 4, 5], value=players,
                             layout=widgets.Layout(width="auto")), description=N_("Players"))
        self.seed = self._int_text(N_("Seed"), seed, "11em")

        def rounds() -> list[tuple[str, int]]:
            return [(f"{r} ({contract_for(r)})", r) for r in range(1, ROUNDS + 1)]

        self.round = self._label(
            widgets.Dropdown(options=rounds(), value=round_number,
                             layout=widgets.Layout(width="auto")),
            description=N_("Round"), options=rounds)
        self.step_button = self._button(N_("Deal one card"), self.step, style="primary")
        self.all_button = self._button(N_("Deal all"), self.deal_all)
        self.again_button = self._button(N_("Gather and start again"), self.restart)
        self.new_seed_button = self._button(N_("New shuffle"), self.new_shuffle,
                                            N_("Another seed: seed + 1"))
        self.about = widgets.HTML()
        self.progress = widgets.HTML()
        self.hands = [self._sized(HandView()) for _seat in range(5)]
        for seat, view in enumerate(self.hands):
            view.add_class(f"tv-deal-seat-{seat + 1}")
        self.piles = self._sized(PilesView())
        self.after = widgets.HTML()
        for control in (self.players, self.seed, self.round):
            self._watch(control, self.restart)
        self.plan = DealPlan.make(players, seed, round_number, self.rules)
        self.dealt = 0
        self._assemble(
            _row(self.players, self.seed, self.round, self.new_seed_button),
            self.about,
            _row(self.step_button, self.all_button, self.again_button), self.messages,
            self.progress, *self.hands, self.after, self.piles)
        self.restart()

    # -- actions ------------------------------------------------------------------------
    def restart(self) -> None:
        self.plan = DealPlan.make(self.players.value, self.seed.value, self.round.value,
                                  self.rules)
        self.dealt = 0
        self.messages.clear()
        self._draw()

    def new_shuffle(self) -> None:
        self.seed.value = (self.seed.value + 1) % 2**31  # its observer restarts

    def step(self) -> None:
        """Deal the next card to the next player."""
        if self.dealt >= self.plan.total:
            self.messages.info(msg("the deal is over: every player has {k} cards", "T7",
                                   k=self.plan.deal_size))
            return
        self.dealt += 1
        self._draw_hand(self.plan.seat_of(self.dealt - 1))
        self._draw_status()

    def deal_all(self) -> None:
        self.dealt = self.plan.total
        self._draw()

    @property
    def hands_dealt(self) -> tuple[tuple[Card, ...], ...]:
        """What each seat holds now."""
        return self.plan.hands(self.dealt)

    # -- pictures -----------------------------------------------------------------------
    def _draw(self) -> None:
        if not hasattr(self, "plan"):
            return
        for seat in range(5):
            self._draw_hand(seat)
        self._draw_status()

    def _draw_hand(self, seat: int) -> None:
        view = self.hands[seat]
        plan = self.plan
        if seat >= plan.players:
            view.layout.display = "none"
            return
        view.layout.display = None
        held = plan.hands(self.dealt)[seat]
        last = (self.dealt > 0 and plan.seat_of(self.dealt - 1) == seat
                and self.dealt < plan.total)
        dealer = " · " + _("dealer") if seat == plan.dealer else ""
        first = " · " + _("plays first") if seat == (plan.dealer + 1) % plan.players else ""
        name = seat_names(plan.players)[seat]
        view.show(held, f"{name}{dealer}{first} · {_cards(len(held))}",
                  (len(held) - 1,) if last else ())

    def _draw_status(self) -> None:
        plan, size = self.plan, self.size
        names = seat_names(plan.players)
        self.about.value = (
            _text(_("<b>The shoe</b>: {players} players, so {players} Rook decks of 57 cards "
                    "shuffled together: <b>{cards} cards</b> (T2). {dealer} deals (drawn "
                    "with the seed, H2): <b>{deal} cards</b> each in round {round} (T7), "
                    "one at a time, starting on the dealer's left.").format(
                      players=plan.players, cards=len(plan.shoe),
                      dealer=escape(names[plan.dealer]), deal=plan.deal_size,
                      round=plan.round_number), size)
            + _seed_note(plan.seed, size))
        done = self.dealt >= plan.total
        if done:
            status = _("All {dealt} cards are dealt. The other {stock} cards are the "
                       "stock.").format(dealt=plan.total, stock=len(plan.shoe) - plan.total)
        else:
            nxt = names[plan.seat_of(self.dealt)]
            status = _("Cards dealt: <b>{dealt}</b> of {total} · next card goes to "
                       "<b>{name}</b> · {left} left in the shoe").format(
                dealt=self.dealt, total=plan.total, name=escape(nxt),
                left=len(plan.shoe) - self.dealt)
        self.progress.value = _text(status, size)
        self.step_button.disabled = self.all_button.disabled = done
        # the next thing to press is the one that stands out: dealing, then starting again
        self.step_button.button_style = "" if done else "primary"
        self.again_button.button_style = "primary" if done else ""
        if not done:
            self.after.value = ""
            self.piles.layout.display = "none"
            return
        lines = []
        for rook in plan.buried:
            lines.append(msg("a Rook ({card}) was turned up: it is buried in the stock and "
                             "the next card turned up", "H3", card=rook))
        lines.append(msg("{card} is turned up to start the discard pile", "T8",
                         card=plan.turn_up))
        lines.append(msg("{name} plays first", "H2",
                         name=names[(plan.dealer + 1) % plan.players]))
        self.after.value = "".join(_text(sentence_html(m), size) for m in lines)
        self.piles.layout.display = None
        self.piles.show(plan.stock_size, plan.turn_up, 1)


# == 02 runs and sets ======================================================================
#: (label, cards, tooltip); the label and tooltip are English, shown translated.
MELD_EXAMPLES: tuple[tuple[str, str, str], ...] = (
    (N_("A run (T4)"), "B11 B12 B13 B14", N_("4 or more cards of one colour in a row")),
    (N_("Wrapped run (T4)"), "B13 B14 B1 B2", N_("14 is the top and 1 the bottom")),
    (N_("Set with duplicates (T5)"), "Y7 R7 R7", N_("any colours, the same card twice")),
    (N_("Rook in a run (T6)"), "G12 G13 G14 RK", N_("the Rook can only be G11")),
    (N_("Rook declared (T6)"), "R5 R6 R7 RK=R4", N_("the player says it is R4, not R8")),
    (N_("Only Rooks (H1)"), "RK RK RK", N_("every meld needs a natural card")),
    (N_("Touching runs (H8)"), "R3 R4 R5 R6 / R7 R8 R9 R10", N_("two runs, or one?")),
    (N_("Overlapping runs (H8)"), "R3 R4 R5 R6 / R5 R6 R7 R8", N_("the shoe has duplicates")),
)
#: The cards to pick from in the meld checker: enough for every example above.
PICKER_CARDS = "B11 B12 B13 B14 B1 B2 R4 R5 R6 R7 R8 R7 Y7 G7 RK RK"
CHECKS: dict[str, Callable[..., Verdict]] = {"either": check_meld, "run": is_run,
                                             "set": is_set}


class MeldChecker(Lesson):
    """02: type cards (`R5 R6 RK=R8`) or pick them, and see whether they make a run or a
    set, and why. Melds separated by `/` are checked as one lay-down (H8)."""

    def __init__(self, text: str = "", size: str | None = None,
                 rules: Rules | None = None) -> None:
        super().__init__(size)
        self.rules = rules or Rules()
        self.text = self._text_box(text, "min(100%, 36em)", description=N_("Cards"),
                                   placeholder=N_("e.g. R5 R6 R7 R8, or Y7 R7 RK"))
        self.text.add_class("tv-meld-text")

        def modes() -> list[tuple[str, str]]:
            return [(_("run or set"), "either"), (_("run?"), "run"), (_("set?"), "set")]

        self.mode = self._label(
            widgets.ToggleButtons(options=modes(), value="either", style={
                "button_width": "auto", "description_width": "initial"}),
            description=N_("Check"), options=modes)
        self.verdict = self._sized(VerdictView())
        self.extra = widgets.HTML()
        self.picker = self._sized(HandPicker(PICKER_CARDS, label=N_("Pick cards")))
        self.examples = [self._button(label, functools.partial(self.show_example, text), tip)
                         for label, text, tip in MELD_EXAMPLES]
        self.clear_button = self._button(N_("Clear"), lambda: self.set_text(""))
        self._from_picker = False
        self._watch(self.text, self.check)
        self._watch(self.mode, self.check)
        self.picker.observe(self.messages.guard(self._picked), "selected")
        self.intro = widgets.HTML()
        examples = self._label(widgets.HTML(), value=lambda: _text(
            _("<b>Examples</b> (one per rule):")))
        self._assemble(self.intro, _row(self.text, self.clear_button), self.text.notice,
                       self.mode,
                       self.verdict, self.messages, self.extra, self.picker, examples,
                       _row(*self.examples))
        self.check()

    def set_text(self, text: str) -> None:
        self.text.value = text
        self.check()

    def show_example(self, text: str) -> None:
        self.mode.value = "either"
        self.picker.clear_selection()
        self.set_text(text)

    def _picked(self, change: Any) -> None:
        self._from_picker = True
        try:
            self.text.value = format_cards(self.picker.selected)
        finally:
            self._from_picker = False
        self.check()

    def check(self) -> None:
        """Check the text as it is now; show the verdict and its sentence."""
        if not self._from_picker and self.picker.selected and \
                self.text.value != format_cards(self.picker.selected):
            self.picker.clear_selection()  # the learner typed: the picked cards are stale
        text = self.text.value.strip()
        self.messages.clear()
        self.extra.value = ""
        if not text:
            self.verdict.verdict = None
            self.messages.info(msg("Type some cards, or pick them below, to see whether "
                                   "they make a run or a set."))
            return
        try:
            if "/" in text:
                self._check_lay_down([part for part in text.split("/") if part.strip()])
            else:
                self.verdict.verdict = CHECKS[self.mode.value](text, self.rules)
        except ToonervilleError as err:  # a card that is not a card: say which
            self.verdict.verdict = None
            self.messages.error(err.message)

    def _check_lay_down(self, parts: Sequence[str]) -> None:
        verdicts = [check_meld(p, self.rules) for p in parts]
        bad = next((v for v in verdicts if not v), None)
        if bad is not None:
            self.verdict.verdict = bad
            return
        melds = [v.meld_or_raise() for v in verdicts]
        runs = sum(1 for m in melds if m.is_run)
        contract = Contract(runs, len(melds) - runs)
        self.verdict.verdict = check_lay_down(melds, contract, self.rules)
        rounds = [r for r in range(1, ROUNDS + 1) if contract_for(r) == contract]
        where = (_("the contract of round {rounds}").format(rounds=", ".join(map(str, rounds)))
                 if rounds else _("no round's contract"))
        self.extra.value = (_text(_("Checked as a lay-down of {contract} ({where}):").format(
                                      contract=contract, where=where), self.size)
                            + "".join(meld_html(m, self.size) for m in melds))

    def _draw(self) -> None:
        self.intro.value = _text(_(
            "A <b>run</b> is 4 or more cards of one colour in a row (T4); a <b>set</b> is 3 "
            "or more cards of one number (T5); the Rook <b>RK</b> stands for any card "
            "(T6) — write <code>RK=R8</code> to say which."), self.size)
        if self.verdict.verdict is not None or self.extra.value:
            self.check()


# == 03 contracts ==========================================================================
def dealt_hand(players: int, seed: int, round_number: int,
               rules: Rules | None = None) -> tuple[Card, ...]:
    """The hand a player gets in a fresh seeded deal of this round: one card in every
    `players` from a shuffled shoe (as the deal goes round the table)."""
    rules = rules or Rules()
    size = rules.deal_size(round_number)
    cards = shuffled_shoe(players, random.Random(seed))
    return cards[:players * size:players]


def deal_seed(seed: int, index: int) -> int:
    """The seed of deal `index` of a simulation seeded `seed`."""
    return random.Random(f"contracts:{seed}:{index}").randrange(2**31)


def contract_rate(round_number: int, deals: int = 300, players: int = 4, seed: int = 0,
                  rules: Rules | None = None,
                  progress: Callable[[int], None] | None = None) -> int:
    """How many of `deals` freshly dealt hands already meet the round's contract
    (`solver.find_contract`). `progress(k)` is called after every deal."""
    from ..solver import find_contract

    met = 0
    for k in range(deals):
        hand = dealt_hand(players, deal_seed(seed, k), round_number, rules)
        if find_contract(hand, round_number, rules) is not None:
            met += 1
        if progress is not None:
            progress(k + 1)
    return met


class ContractExplorer(Lesson):
    """03: a round's contract, a seeded dealt hand, what the solver would lay down (or
    what is still missing), and a quick simulation of how often a fresh hand meets it."""

    def __init__(self, round_number: int = 1, seed: int | None = None, players: int = 4,
                 deals: int = 300, size: str | None = None, rules: Rules | None = None) -> None:
        super().__init__(size)
        self.rules = rules or Rules()
        seed = self._url_seed(11) if seed is None else seed
        def rounds() -> list[tuple[str, int]]:
            return [(f"{r}: {contract_for(r)}", r) for r in range(1, ROUNDS + 1)]

        self.round = self._label(
            widgets.Dropdown(options=rounds(), value=round_number,
                             layout=widgets.Layout(width="auto")),
            description=N_("Round"), options=rounds)
        self.players = self._label(
            widgets.Dropdown(options=[3, 4, 5], value=players,
                             layout=widgets.Layout(width="auto")), description=N_("Players"))
        self.seed = self._int_text(N_("Seed"), seed, "11em")
        self.next_button = self._button(N_("Deal another hand"), self.next_hand,
                                        style="primary")
        self.about = widgets.HTML()
        self.hand = self._sized(HandView())
        self.solution = widgets.HTML()
        self.deals = self._label(
            widgets.BoundedIntText(value=deals, min=1, max=5000,
                                   layout=widgets.Layout(width="13em")),
            description=N_("Deals"))
        self.simulate_button = self._button(N_("How often?"), self.simulate,
                                            N_("Deal many fresh hands and count"))
        self.bar = widgets.IntProgress(value=0, min=0, max=deals,
                                       layout=widgets.Layout(width="min(100%, 30em)"))
        self.result = widgets.HTML()
        for control in (self.round, self.players, self.seed):
            self._watch(control, self.show_hand)
        how_often = self._label(widgets.HTML(), value=lambda: _heading(
            _("How often does a fresh hand already meet it?")))
        self._assemble(
            _row(self.round, self.players, self.seed, self.next_button),
            self.about, self.hand, self.solution, how_often,
            _row(self.deals, self.simulate_button, self.bar), self.result)
        self.show_hand()

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.hand.cards

    def next_hand(self) -> None:
        self.seed.value = (self.seed.value + 1) % 2**31  # its observer deals

    def show_hand(self) -> None:
        from ..solver import best_lay_down, shortfall

        self.messages.clear()
        r, size = self.round.value, self.size
        hand = dealt_hand(self.players.value, self.seed.value, r, self.rules)
        contract = contract_for(r)
        self.about.value = (_text(_("<b>Round {r}</b>: each player is dealt {deal} cards; "
                                    "the contract is <b>{contract}</b> (T7), at least "
                                    "{min} cards.").format(
                                        r=r, deal=self.rules.deal_size(r),
                                        contract=escape(str(contract)),
                                        min=contract.min_cards), size)
                            + _seed_note(self.seed.value, size))
        self.hand.show(hand, _("Your hand, as dealt"))
        best = best_lay_down(hand, r, self.rules)
        if best is None:
            why = shortfall(hand, r, self.rules)
            self.solution.value = _text(
                _("Not yet: {why}. Keep drawing, taking and buying.").format(
                    why=escape(str(why))), size)
            return
        melds = "".join(meld_html(m, size) for m in best.melds)
        left = (hand_html(best.left, size, label=_("Left in hand")) if best.left
                else _text(_("Nothing left: this hand could go out at once!"), size))
        self.solution.value = (_text(_("This hand already meets the contract! The solver "
                                       "would lay down:"), size) + melds + left)

    def simulate(self) -> None:
        n, r = self.deals.value, self.round.value
        self.bar.max, self.bar.value = n, 0
        self.result.value = ""
        step = max(1, n // 50)

        def progress(k: int) -> None:
            if k % step == 0 or k == n:
                self.bar.value = k

        met = contract_rate(r, n, self.players.value, self.seed.value, self.rules,
                            progress)
        self._rate = (n, r, self.players.value, met)
        self._draw_rate()

    def _draw_rate(self) -> None:
        if getattr(self, "_rate", None) is None:
            return
        n, r, players, met = self._rate
        self.result.value = _text(
            _("In <b>{n}</b> seeded deals of round {r} ({contract}, {players} players), the "
              "hand dealt already met the contract <b>{met}</b> times: "
              "<b>{percent}%</b>.").format(n=n, r=r, contract=escape(str(contract_for(r))),
                                           players=players, met=met,
                                           percent=f"{100 * met / n:.1f}"), self.size)

    def _draw(self) -> None:
        if hasattr(self, "solution") and self.hand.cards:
            self.show_hand()
        if hasattr(self, "result"):
            self._draw_rate()


# == 04 a turn and buying ==================================================================
class _GameLesson(Lesson):
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


class BuyDemo(_GameLesson):
    """04: the top discard is declined, other players ask to buy it, the nearest on the
    left gets it plus a penalty card, then the player draws from the stock (T9–T12);
    discarding the card just taken is refused (T14)."""

    def __init__(self, players: int = 5, seed: int | None = None, size: str | None = None,
                 rules: Rules | None = None) -> None:
        super().__init__(size)
        self.rules = rules or Rules()
        seed = self._url_seed(4) if seed is None else seed
        self.players = self._label(
            widgets.Dropdown(options=[3, 4, 5], value=players,
                             layout=widgets.Layout(width="auto")), description=N_("Players"))
        self.seed = self._int_text(N_("Seed"), seed, "11em")
        self.example_button = self._button(N_("Rulebook example (T10)"),
                                           self.rulebook_example,
                                           N_("5 players: 5, 1 and 4 ask to buy"), "primary")
        self.t14_button = self._button(N_("Discard the card just taken? (T14)"),
                                       self.t14_demo)
        self.reset_button = self._button(N_("Start again"), self.reset)
        self.about = widgets.HTML()
        self.turn_row = _row()
        self.seat_rows: list[widgets.HBox] = []
        self.seat_hands: list[HandView] = []
        self.seat_boxes = widgets.VBox()
        self.discard_choice = widgets.Dropdown(layout=widgets.Layout(width="auto"))
        self.discard_button = self._button(N_("Discard"), self.discard_selected)
        self.discard_row = _row(widgets.HTML(), self.discard_choice, self.discard_button)
        self.piles = self._sized(PilesView())
        self.event_log = self._sized(EventLog(limit=14))
        self._watch(self.players, self.reset)
        self._watch(self.seed, self.reset)
        happened = self._label(widgets.HTML(), value=lambda: _heading(_("What happened")))
        log_box = widgets.VBox((happened, self.event_log),
                               layout=widgets.Layout(flex="1 1 24em", min_width="16em"))
        self._assemble(
            _row(self.players, self.seed, self.example_button, self.t14_button,
                 self.reset_button),
            self.about, self.turn_row, self.discard_row, self.messages,
            widgets.HBox((self.piles, log_box), layout=widgets.Layout(
                flex_flow="row wrap", align_items="flex-start")),
            self.seat_boxes)
        self.reset()

    def reset(self) -> None:
        n = self.players.value
        position = buy_position(n, self.seed.value)
        self._reset_game(Game.from_position(**position, rules=self.rules,
                                            seed=self.seed.value, names=seat_names(n)))
        self._build_seats()
        self.messages.clear()
        self._draw()

    def _build_seats(self) -> None:
        rows, hands, boxes = [], [], []
        for seat in range(self.game.players):
            name = widgets.HTML()
            buy = self._button(N_("Ask to buy"), functools.partial(self.play, A.Buy(seat)))
            pass_ = self._button(N_("Pass"), functools.partial(self.play, A.Pass(seat)))
            row = _row(name, buy, pass_)
            hand = HandView(size=self.size)
            rows.append(row)
            hands.append(hand)
            box = widgets.VBox((row, hand))
            box.add_class(f"tv-seat-{seat + 1}")
            boxes.append(box)
        for old in self.seat_hands:
            self._parts.remove(old)
        for widget in (*self.seat_boxes.children, *self.turn_row.children):
            _close_tree(widget)  # the seats of the last deal are gone for good
        self.seat_rows, self.seat_hands = rows, hands
        self._parts.extend(hands)
        self.seat_boxes.children = tuple(boxes)
        take = self._button(N_("Take the discard"), lambda: self.play(A.TakeDiscard(
            self.game.current)), N_("T9: take the top card of the discard pile"))
        draw = self._button(N_("Decline it: draw from the stock"), lambda: self.play(A.Draw(
            self.game.current)), N_("T10: the others may buy it first"))
        self.turn_row.children = (widgets.HTML(), take, draw)

    def rulebook_example(self) -> None:
        """RULES.md: five players; Player 2 declines G3; Players 5, 1 and 4 ask to buy:
        Player 4 gets it and a penalty card; then Player 2 draws from the stock."""
        if self.players.value != 5:
            self.players.value = 5  # its observer resets
        else:
            self.reset()
        for move in ("1: draw", "4: buy", "0: buy", "3: buy", "2: pass"):
            if not self.play(move):
                return
        self.messages.ok(msg("Player 4 gets G3: of the players who asked (5, 1 and 4), "
                             "Player 4 is the nearest to Player 2's left, as Player 3 "
                             "passed. Player 4 takes G3 and a penalty card; then Player 2 "
                             "draws from the stock", "T10"))

    def t14_demo(self) -> None:
        self.reset()
        self.play(A.TakeDiscard(self.game.current))
        self.refuse(A.Discard(self.game.current, Card.parse("G3")))

    def discard_selected(self) -> None:
        card = self.discard_choice.value
        if card is None:
            self.messages.info(msg("choose the card to discard"))
            return
        self.play(A.Discard(self.game.current, card))

    def _draw(self) -> None:
        if not hasattr(self, "game"):
            return
        game, size = self.game, self.size
        view = game.view(game.current)
        names = game.names
        current = names[game.current]
        top = view.offered or view.discard_top
        if view.phase is Phase.DRAW:
            what = _("It is <b>{name}</b>'s turn: take the top discard <b>{card}</b>, or "
                     "decline it and draw from the stock (T9).").format(
                name=escape(current), card=top)
        elif view.phase is Phase.BUY:
            waiting = ", ".join(names[s] for s in game.deciders)
            what = _("{name} declined <b>{card}</b>. The others may ask to buy it (T10); "
                     "still to answer: {waiting}.").format(
                name=escape(current), card=top, waiting=escape(waiting))
        else:
            what = _("{name} has drawn and now discards one card (T13).").format(
                name=escape(current))
        self.about.value = _text(what, size) + _seed_note(self.seed.value, size)
        self.turn_row.children[0].value = _text(f"<b>{escape(current)}</b>:", size)
        decides = set(game.deciders) if view.phase is Phase.BUY else set()
        for seat, (row, hand) in enumerate(zip(self.seat_rows, self.seat_hands,
                                               strict=True)):
            held = game.hand(seat)
            got = self.news.get(seat, [])
            role = " · " + _("to play") if seat == game.current else ""
            just_now = _("just now: {news}").format(
                news=", ".join(str(said) for _kind, said in got))
            row.children[0].value = _text(
                f"<b>{escape(names[seat])}</b>{role} · {_cards(len(held))}"
                + (f" · {escape(just_now)}" if got else ""), size)
            for b in row.children[1:]:
                b.button_style = "info" if seat in decides else ""
            new = len([kind for kind, _said in got if kind != "swap"])
            order = sorted(range(len(held)), key=lambda i: (held[i].sort_key, i))
            hand.show([held[i] for i in order], None,
                      [k for k, i in enumerate(order) if i >= len(held) - new])
        self.piles.update(view)
        self.event_log.show(self.events)
        if not self.events:
            self.event_log.value = _text(_("Nothing yet: {name} must decide.").format(
                name=escape(current)), size, muted=True)
        holding = game.hand(game.current)
        self.discard_row.children[0].value = _text(_("{name} discards:").format(
            name=escape(current)), size)
        _choose(self.discard_choice, [(str(c), c) for c in dict.fromkeys(
            sorted(holding, key=lambda c: c.sort_key))], self.discard_choice.value)
        self.discard_row.layout.display = None if view.phase is Phase.PLAY else "none"


# == 05 the Rook ===========================================================================
ROOK_EXAMPLES: tuple[tuple[str, str], ...] = (
    ("G12 G13 G14 RK", N_("only one place: G11")),
    ("R5 R6 R7 RK", N_("R8 or R4? the top unless declared")),
    ("R5 R6 R7 RK=R4", N_("declared as R4")),
    ("R5 RK R7 R8", N_("fills the gap: R6")),
    ("G9 B9 RK", N_("in a set: stands for a 9")),
)


class RookDemo(_GameLesson):
    """05: which card a Rook in a run stands for (T6); the Rook swap as one move, and
    where the Rook goes (T18); why a Rook in a set stays (T19)."""

    def __init__(self, size: str | None = None, rules: Rules | None = None) -> None:
        super().__init__(size)
        self.rules = rules or Rules()
        self.text = self._text_box(ROOK_EXAMPLES[0][0], "min(100%, 30em)",
                                   description=N_("Meld"))
        self.verdict = self._sized(VerdictView())
        self.examples = [self._button(t, functools.partial(setattr, self.text, "value", t), tip)
                         for t, tip in ROOK_EXAMPLES]
        self._watch(self.text, self.check)
        self.natural = self._label(
            widgets.Dropdown(layout=widgets.Layout(width="auto")), description=N_("Put in"))
        self.source = self._label(
            widgets.Dropdown(style={"description_width": "initial"},
                             layout=widgets.Layout(width="auto")),
            description=N_("for the Rook in"))
        self.target = self._label(
            widgets.Dropdown(style={"description_width": "initial"},
                             layout=widgets.Layout(width="auto")),
            description=N_("then lay the Rook off onto"))
        self.swap_button = self._button(N_("Swap"), self.swap_chosen, style="primary")
        self.preset_button = self._button(N_("Swap R8, Rook onto Y3–Y6 as Y7"),
                                          self.swap_example)
        self.set_button = self._button(N_("Swap G9 for the Rook in the set? (T19)"),
                                       self.set_demo)
        self.wrong_button = self._button(N_("Put G4 for the Rook in the run?"),
                                         self.wrong_card_demo)
        self.reset_button = self._button(N_("Start again"), self.reset)
        self.position_about = widgets.HTML()
        self.table = self._sized(TableView())
        self.hand = self._sized(HandView())
        self.event_log = self._sized(EventLog(limit=6))
        self.part1 = widgets.HTML()
        self.part2 = widgets.HTML()
        self._assemble(
            self.part1, self.text, self.text.notice, self.verdict, _row(*self.examples),
            self.part2, self.position_about, self.table, self.hand,
            _row(self.preset_button, self.set_button, self.wrong_button, self.reset_button),
            _row(self.natural, self.source, self.target, self.swap_button), self.messages,
            self.event_log)
        self.check()
        self.reset()

    # -- part 1 -------------------------------------------------------------------------
    def check(self) -> None:
        text = self.text.value.strip()
        if not text:
            self.verdict.verdict = None
            return
        try:
            self.verdict.verdict = check_meld(text, self.rules)
        except ToonervilleError as err:
            self.verdict.verdict = None
            self.messages.error(err.message)

    # -- part 2 -------------------------------------------------------------------------
    def reset(self) -> None:
        self._reset_game(rook_position(self.rules))
        self.messages.clear()
        self._draw()

    def swap_example(self) -> None:
        self.reset()
        self.play(A.SwapRook(1, Card.parse("R8"), (0, 0), lay_off_onto=(1, 0),
                             rook_as=Card.parse("Y7")))

    def set_demo(self) -> None:
        self.refuse(A.SwapRook(1, Card.parse("G9"), (0, 1), lay_off_onto=(1, 0),
                               rook_as=Card.parse("Y7")))

    def wrong_card_demo(self) -> None:
        self.refuse(A.SwapRook(1, Card.parse("G4"), (0, 0), lay_off_onto=(1, 0),
                               rook_as=Card.parse("Y7")))

    def swap_chosen(self) -> None:
        if self.natural.value is None or self.source.value is None or \
                self.target.value is None:
            self.messages.info(msg("choose a card, a meld with a Rook, and where the Rook "
                                   "goes"))
            return
        onto, rook_as = self.target.value
        self.play(A.SwapRook(1, self.natural.value, self.source.value, lay_off_onto=onto,
                             rook_as=rook_as))

    def _targets(self) -> list[tuple[str, tuple[tuple[int, int], Card | None]]]:
        out: list[tuple[str, tuple[tuple[int, int], Card | None]]] = []
        for owner, melds in enumerate(self.game.view(1).table):
            for index, meld in enumerate(melds):
                where = _("{name}'s {meld}").format(name=self.game.names[owner],
                                                    meld=_meld_words(meld))
                if not meld.is_run:
                    out.append((where, ((owner, index), None)))
                    continue
                assert meld.colour is not None
                for n in (meld.low - 1, meld.high + 1):
                    if 1 <= n <= 14:
                        card = Card(meld.colour, n)
                        out.append((_("{meld}, as {card}").format(meld=where, card=card),
                                    ((owner, index), card)))
        return out

    def _draw(self) -> None:
        size = self.size
        self.part1.value = (_heading(_("1. Which card does the Rook stand for?"), size)
                            + _text(_("In a run the Rook stands for one definite card, fixed "
                                      "when it is placed (T6). Try the examples, or type your "
                                      "own: <code>RK=R4</code> declares the Rook as R4."),
                                    size))
        self.part2.value = (_heading(_("2. The Rook swap"), size)
                            + _text(_("A Rook in a <b>run</b> on the table may be taken by "
                                      "putting the natural card it stands for in its place; "
                                      "the Rook must then be played at once, in a meld (T18). "
                                      "A Rook in a <b>set</b> never leaves (T19)."), size))
        if not hasattr(self, "game"):
            return
        game = self.game
        view = game.view(1)
        first, second = game.names[0], game.names[1]
        self.position_about.value = _text(_(
            "Round 2 ({contract}). {p1} and {p2} are down. It is <b>{p2}</b>'s turn; {p2} "
            "has taken the top discard and holds <b>R8</b>.").format(
                contract=escape(str(contract_for(2))), p1=escape(first), p2=escape(second)),
            size)
        self.table.update(view)
        self.hand.show(game.hand(1), _("{name}'s hand · {cards}").format(
            name=second, cards=_cards(len(game.hand(1)))))
        self.event_log.show(self.events)
        _choose(self.natural, [(str(c), c) for c in dict.fromkeys(game.hand(1))],
                 Card.parse("R8"))
        _choose(self.source, [(_("{name}'s {meld}: {notation}").format(
                                   name=game.names[o], meld=_meld_words(m), notation=m),
                               (o, i))
                              for o, ms in enumerate(view.table)
                              for i, m in enumerate(ms) if m.rooks], (0, 0))
        _choose(self.target, self._targets(), ((1, 0), Card.parse("Y7")))


# == 06 going out and scoring ==============================================================
@dataclass(frozen=True, slots=True)
class Scene:
    """A scripted scenario: a position and its steps, each a move (or a move the engine
    refuses, `refused=True`) with a sentence that says what it shows."""

    title: str
    make: Callable[[], Game]
    steps: tuple[tuple[str, str, bool], ...]  # (move notation, explanation, refused)


def going_out_position() -> Game:
    """Round 1: Player 1 is down (two sets) and holds R7 and B2; the top discard is Y7."""
    return Game.from_position(
        hands=["R7 B2", "G5 G6 Y9 R10 B13 RK", "B1 Y9 R10 G14 RK"],
        stock="Y3 G11 B8 R2 Y12 G1", discard_pile="Y7 B4",
        table={0: ["G7 B7 Y7", "R12 Y12 B12"]}, round_number=1, dealer=2, current=0,
        names=seat_names(3), seed=6)


#: Ten earlier rounds for the round-11 scene; after it, Players 2 and 3 tie (T21).
ROUND11_EARLIER = ((0, 40, 55), (35, 0, 20), (60, 25, 0), (0, 50, 45), (20, 0, 35),
                   (45, 30, 0), (0, 65, 40), (30, 0, 25), (55, 45, 0), (0, 20, 70))


def round11_position() -> Game:
    """Round 11 (2 runs + 2 sets, no going out by discarding): Player 1 holds exactly
    the contract but for one card, and the top discard is R9."""
    return Game.from_position(
        hands=["R5 R6 R7 R8 G10 G11 G12 G13 Y4 B4 G4 B9 Y9 RK",
               "B1 Y9 R10 G14 RK Y2 G2 B3 R11 G6 Y13 B8 R1 G3",
               "Y5 Y6 B10 R12 G8 B5 R3 Y11 G9 B13 R14 Y1 B6 G7"],
        stock="Y3 G1 B8 R2 Y12 B11", discard_pile="R9 Y14",
        round_number=11, dealer=2, current=0, names=seat_names(3), seed=11,
        scores=ROUND11_EARLIER)


#: The titles and explanations are English, shown translated (marked with `N_`).
SCENES: tuple[Scene, ...] = (
    Scene(N_("Going out by discarding (round 1)"), going_out_position, (
        ("0: take", N_("Player 1 takes Y7 from the discard pile (T9)."), False),
        ("0: discard Y7", N_("Discard the card just taken? Refused (T14)."), True),
        ("0: off R7 on 0.0", N_("Player 1 is down, so may lay off R7 onto the set of 7s "
                                "(H9)."), False),
        ("0: off Y7 on 0.0", N_("…and Y7 too."), False),
        ("0: discard B2", N_("Discarding the last card, Player 1 goes out (T16). The "
                             "others score the cards left in their hands (T20)."), False),
    )),
    Scene(N_("Round 11: no going out by discarding (T17)"), round11_position, (
        ("0: take", N_("Player 1 takes R9: now the whole hand makes the contract."), False),
        ("0: down R5 R6 R7 R8 / G10 G11 G12 G13 / Y4 B4 G4 / B9 Y9 RK",
         N_("Lay down the contract and keep R9 to discard? Refused (T17)."), True),
        ("0: down R5 R6 R7 R8 R9 / G10 G11 G12 G13 / Y4 B4 G4 / B9 Y9 RK",
         N_("The whole hand goes down at once: Player 1 goes out, and the game is over. "
            "Lowest total wins; equal totals share the place (T21)."), False),
    )),
)


def points_html(cards: Sequence[Card], size: str) -> str:
    """`B1 Y9 R10 G14 RK` → "B1 5 + Y9 5 + R10 10 + G14 10 + RK 25 = 55 points"."""
    if not cards:
        return _text(_("No cards: 0 points."), size)
    terms = " + ".join(f"{c}&nbsp;<b>{c.points}</b>" for c in cards)
    total = _("{terms} = <b>{points} points</b>").format(terms=f'<bdi dir="ltr">{terms}</bdi>',
                                                         points=hand_points(cards))
    return _text(f"{total} " + _("(T3: 1–9 are 5 points, 10–14 are 10, the Rook 25)"), size)


def places_text(totals: Sequence[int]) -> str:
    """Places by total, ties sharing (T21): `95 120 95 140` → `1= 3 1= 4`."""
    ranks = places(totals)
    return " ".join(place_label(p, list(ranks).count(p) > 1) for p in ranks)


class ScoringDemo(_GameLesson):
    """06: card points (T3); going out, and round 11 where nobody goes out by discarding
    (T16, T17); a whole seeded bot game's score sheet; ties (T20, T21)."""

    def __init__(self, seed: int | None = None, size: str | None = None,
                 hand: str = "B1 Y9 R10 G14 RK", play_now: bool = True) -> None:
        super().__init__(size)
        seed = self._url_seed(2) if seed is None else seed
        # 1. points
        self.cards = self._text_box(hand, "min(100%, 30em)", description=N_("Hand left"))
        self.hand = self._sized(HandView())
        self.points = widgets.HTML()
        self._watch(self.cards, self.count)
        # 2. going out
        def scenes() -> list[tuple[str, int]]:
            return [(_(s.title), i) for i, s in enumerate(SCENES)]

        self.scene = self._label(
            widgets.Dropdown(options=scenes(), value=0, layout=widgets.Layout(width="auto")),
            description=N_("Scene"), options=scenes)
        self.next_button = self._button(N_("Next step"), self.next_step, style="primary")
        self.restart_button = self._button(N_("Start again"), self.restart_scene)
        self.step_text = widgets.HTML()
        self.state = widgets.HTML()
        self.round_sheet = self._sized(ScoreSheet())
        self._watch(self.scene, self.restart_scene)
        # 3. a whole game
        self.seed = self._int_text(N_("Seed"), seed, "11em")
        self.play_button = self._button(N_("Play a bot game"), self.play_bot_game,
                                        N_("Four heuristic bots play all 11 rounds"))
        self.bar = widgets.IntProgress(value=0, min=0, max=ROUNDS,
                                       layout=widgets.Layout(width="min(100%, 20em)"))
        self.game_about = widgets.HTML()
        self.sheet = self._sized(ScoreSheet())
        # 4. ties
        self.totals = self._text_box("95 120 95 140", "min(100%, 24em)",
                                     description=N_("Totals"))
        self.ties = widgets.HTML()
        self._watch(self.totals, self.rank)
        self.headings = [widgets.HTML() for _part in range(4)]
        self.bot_game: Game | None = None
        self._assemble(
            self.headings[0], self.cards, self.cards.notice, self.hand, self.points,
            self.headings[1], _row(self.scene, self.next_button, self.restart_button),
            self.step_text, self.messages, self.state, self.round_sheet,
            self.headings[2], _row(self.seed, self.play_button, self.bar),
            self.game_about, self.sheet,
            self.headings[3], self.totals, self.totals.notice, self.ties)
        self.count()
        self.restart_scene()
        self.rank()
        if play_now:
            self.play_bot_game()

    # -- 1 ------------------------------------------------------------------------------
    def count(self) -> None:
        try:
            cards = parse_cards(self.cards.value)
        except ToonervilleError as err:
            self.points.value = message_html(err.message, "error", self.size)
            return
        self.hand.show(cards, _("Cards left in hand"))
        self.points.value = points_html(cards, self.size)

    # -- 2 ------------------------------------------------------------------------------
    def restart_scene(self) -> None:
        scene = SCENES[self.scene.value]
        self._reset_game(scene.make())
        self.step = 0
        self.rounds_before = len(self.game.scores)
        self.hands_before: tuple[tuple[Card, ...], ...] = ()
        self.messages.clear()
        self._draw_scene()

    def next_step(self) -> None:
        scene = SCENES[self.scene.value]
        if self.step >= len(scene.steps):
            self.messages.info(msg("That is the whole scene: choose another, or start "
                                   "again."))
            return
        move, _says, refused = scene.steps[self.step]
        self.step += 1
        if refused:
            self.refuse(move)
            self._draw_step()
            self._draw_state()
            return
        self.hands_before = tuple(self.game.hand(s) for s in range(self.game.players))
        if self.play(move):
            self._draw_step()

    def _draw_step(self) -> None:
        says = SCENES[self.scene.value].steps[self.step - 1][1]
        self.step_text.value = _text(_("Step {k}: {says}").format(
            k=self.step, says=escape(_(says))), self.size)

    def _draw_scene(self) -> None:
        scene = SCENES[self.scene.value]
        first = _(scene.steps[0][1]) if scene.steps else ""
        self.step_text.value = _text(_("{title}. Press <b>Next step</b>. First: {first}").format(
            title=escape(_(scene.title)), first=escape(first)), self.size)
        self._draw_state()

    def _draw_state(self) -> None:
        if not hasattr(self, "game"):
            return
        game, size = self.game, self.size
        ended = len(game.scores) > self.rounds_before
        if ended:  # the next round is already dealt: show the hands as the round ended
            row, record = game.scores[self.rounds_before], game.records[-1]
            self.state.value = _text(_("<b>Round {r}</b> is over (T20): the player who went "
                                       "out scores 0, the others the points of the cards "
                                       "left in hand.").format(r=record.round_number), size)
            self.state.value += "".join(
                hand_html(() if s == record.went_out else self.hands_before[s], size,
                          label=_("{name} · {points} points").format(name=game.names[s],
                                                                     points=row[s]))
                for s in range(game.players))
        else:
            self.state.value = state_html(game, size)
        self.round_sheet.layout.display = None if game.scores else "none"
        self.round_sheet.show_game(game)

    # -- 3 ------------------------------------------------------------------------------
    def play_bot_game(self) -> None:
        from ..simulate import play_game

        self.bar.value = 0

        def follow(game: Game) -> None:
            done = len(game.scores)
            if done != self.bar.value:
                self.bar.value = done

        self.bot_game = play_game(["heuristic"] * 4, self.seed.value, after_action=follow)
        self.bar.value = ROUNDS
        self._draw_bot_game()

    def _draw_bot_game(self) -> None:
        game = self.bot_game
        if game is None:
            return
        totals = game.totals
        winners = ", ".join(game.names[i] for i in game.winners)
        self.game_about.value = (
            _text(_("Four heuristic bots played all 11 rounds with seed <b>{seed}</b>. "
                    "Totals {totals}: the lowest total wins — <b>{winners}</b> "
                    "(T21).").format(seed=game.seed,
                                     totals=f'<bdi dir="ltr">{" · ".join(map(str, totals))}'
                                            "</bdi>",
                                     winners=escape(winners)), self.size)
            + _seed_note(game.seed, self.size))
        stopped = [r.round_number for r in game.records if r.ended_by != "out"]
        if stopped:
            rounds = ", ".join(map(str, stopped))
            self.game_about.value += _text(
                _("Nobody went out in round {rounds}: the round stopped (at the bots' turn "
                  "limit, or with an empty stock, H6) and everyone scored the cards they "
                  "held.").format(rounds=rounds)
                + (" " + _("Round 11 is hard: the whole hand must go down at once (T17).")
                   if ROUNDS in stopped else ""), self.size, muted=True)
        self.sheet.show_game(game)

    # -- 4 ------------------------------------------------------------------------------
    def rank(self) -> None:
        try:
            totals = [int(t) for t in self.totals.value.replace(",", " ").split()]
        except ValueError:
            self.ties.value = message_html(msg("write the totals as whole numbers, like "
                                               "95 120 95 140"), "error", self.size)
            return
        if not totals:
            self.ties.value = ""
            return
        places = " · ".join(f'<bdi dir="ltr">{t} → <b>{p}</b></bdi>' for t, p in
                            zip(totals, places_text(totals).split(), strict=True))
        self.ties.value = _text(
            _("Places: {places}").format(places=places) + " "
            + _("(T21: the lowest total wins; equal totals share the place, marked =)"),
            self.size)

    def _draw(self) -> None:
        size = self.size
        titles = (_("1. Counting a hand (T3)"), _("2. Going out (T16, T17)"),
                  _("3. A whole game's score sheet (T20, T21)"), _("4. Ties (T21)"))
        for h, t in zip(self.headings, titles, strict=True):
            h.value = _heading(t, size)
        if hasattr(self, "step"):
            self.count()
            if self.step:
                self._draw_step()
                self._draw_state()
            else:
                self._draw_scene()
            self._draw_bot_game()
            self.rank()

