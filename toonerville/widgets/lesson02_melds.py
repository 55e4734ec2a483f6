"""02's lesson, runs and sets: `MeldChecker` with the engine's verdicts (T4–T6, H1, H8).

A thin `Lesson` (see `lesson`) over the engine; `lessons` re-exports it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets

from ..engine.cards import format_cards
from ..engine.errors import ToonervilleError
from ..engine.laydown import check_lay_down
from ..engine.melds import Verdict, check_meld, is_run, is_set
from ..engine.messages import N_, _, msg
from ..engine.rules import ROUNDS, Contract, Rules, contract_for
from ..pages.render import meld_html
from .cards import HandPicker, VerdictView
from .lesson import Lesson, lesson_row, text_html

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
        examples = self._label(widgets.HTML(), value=lambda: text_html(
            _("<b>Examples</b> (one per rule):")))
        self._assemble(self.intro, lesson_row(self.text, self.clear_button), self.text.notice,
                       self.mode,
                       self.verdict, self.messages, self.extra, self.picker, examples,
                       lesson_row(*self.examples))
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
        self.extra.value = (text_html(_("Checked as a lay-down of {contract} ({where}):").format(
                                          contract=contract, where=where), self.size)
                            + "".join(meld_html(m, self.size) for m in melds))

    def _draw(self) -> None:
        self.intro.value = text_html(_(
            "A <b>run</b> is 4 or more cards of one colour in a row (T4); a <b>set</b> is 3 "
            "or more cards of one number (T5); the Rook <b>RK</b> stands for any card "
            "(T6) — write <code>RK=R8</code> to say which."), self.size)
        if self.verdict.verdict is not None or self.extra.value:
            self.check()
