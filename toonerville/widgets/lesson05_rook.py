"""05's lesson, the Rook: `RookDemo` (T6, T18, T19).

A thin `Lesson` (see `lesson`) over the engine; `lessons` re-exports it.
"""

from __future__ import annotations

import functools
from html import escape

import ipywidgets as widgets

from ..engine import actions as A
from ..engine.cards import Card
from ..engine.errors import ToonervilleError
from ..engine.melds import check_meld
from ..engine.messages import N_, _, msg
from ..engine.rules import Rules, contract_for
from ..players.scenarios import rook_position
from .board import EventLog, TableView
from .cards import HandView, VerdictView
from .lesson import (
    GameLesson,
    cards_phrase,
    choose_option,
    heading_html,
    lesson_row,
    meld_words,
    text_html,
)

ROOK_EXAMPLES: tuple[tuple[str, str], ...] = (
    ("G12 G13 G14 RK", N_("only one place: G11")),
    ("R5 R6 R7 RK", N_("R8 or R4? the top unless declared")),
    ("R5 R6 R7 RK=R4", N_("declared as R4")),
    ("R5 RK R7 R8", N_("fills the gap: R6")),
    ("G9 B9 RK", N_("in a set: stands for a 9")),
)


class RookDemo(GameLesson):
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
            self.part1, self.text, self.text.notice, self.verdict, lesson_row(*self.examples),
            self.part2, self.position_about, self.table, self.hand,
            lesson_row(self.preset_button, self.set_button, self.wrong_button, self.reset_button),
            lesson_row(self.natural, self.source, self.target, self.swap_button), self.messages,
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
                                                    meld=meld_words(meld))
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
        self.part1.value = (heading_html(_("1. Which card does the Rook stand for?"), size)
                            + text_html(_("In a run the Rook stands for one definite card, fixed "
                                          "when it is placed (T6). Try the examples, or type your "
                                          "own: <code>RK=R4</code> declares the Rook as R4."),
                                        size))
        self.part2.value = (heading_html(_("2. The Rook swap"), size)
                            + text_html(_("A Rook in a <b>run</b> on the table may be taken by "
                                          "putting the natural card it stands for in its place; "
                                          "the Rook must then be played at once, in a meld (T18). "
                                          "A Rook in a <b>set</b> never leaves (T19)."), size))
        if not hasattr(self, "game"):
            return
        game = self.game
        view = game.view(1)
        first, second = game.names[0], game.names[1]
        self.position_about.value = text_html(_(
            "Round 2 ({contract}). {p1} and {p2} are down. It is <b>{p2}</b>'s turn; {p2} "
            "has taken the top discard and holds <b>R8</b>.").format(
                contract=escape(str(contract_for(2))), p1=escape(first), p2=escape(second)),
            size)
        self.table.update(view)
        self.hand.show(game.hand(1), _("{name}'s hand · {cards}").format(
            name=second, cards=cards_phrase(len(game.hand(1)))))
        self.event_log.show(self.events)
        choose_option(self.natural, [(str(c), c) for c in dict.fromkeys(game.hand(1))],
                       Card.parse("R8"))
        choose_option(self.source, [(_("{name}'s {meld}: {notation}").format(
                                   name=game.names[o], meld=meld_words(m), notation=m),
                                     (o, i))
                                    for o, ms in enumerate(view.table)
                                    for i, m in enumerate(ms) if m.rooks], (0, 0))
        choose_option(self.target, self._targets(), ((1, 0), Card.parse("Y7")))
