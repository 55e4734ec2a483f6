"""01's lesson, the deck and the deal: `DealDemo` (T2, T7, T8, H2, H3).

A thin `Lesson` (see `lesson`) over the engine; `lessons` re-exports it.
"""

from __future__ import annotations

from html import escape

import ipywidgets as widgets

from ..engine.cards import Card
from ..engine.deal import DealPlan
from ..engine.messages import N_, _, msg
from ..engine.rules import ROUNDS, Rules, contract_for
from ..pages.render import sentence_html
from ..players.scenarios import seat_names
from .base import SHOWN
from .board import PilesView
from .cards import HandView
from .lesson import Lesson, cards_phrase, lesson_row, seed_note_html, text_html


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
            lesson_row(self.players, self.seed, self.round, self.new_seed_button),
            self.about,
            lesson_row(self.step_button, self.all_button, self.again_button), self.messages,
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
        view.layout.display = SHOWN
        held = plan.hands(self.dealt)[seat]
        last = (self.dealt > 0 and plan.seat_of(self.dealt - 1) == seat
                and self.dealt < plan.total)
        dealer = " · " + _("dealer") if seat == plan.dealer else ""
        first = " · " + _("plays first") if seat == (plan.dealer + 1) % plan.players else ""
        name = seat_names(plan.players)[seat]
        view.show(held, f"{name}{dealer}{first} · {cards_phrase(len(held))}",
                  (len(held) - 1,) if last else ())

    def _draw_status(self) -> None:
        plan, size = self.plan, self.size
        names = seat_names(plan.players)
        self.about.value = (
            text_html(_("<b>The shoe</b>: {players} players, so {players} Rook decks of 57 cards "
                        "shuffled together: <b>{cards} cards</b> (T2). {dealer} deals (drawn "
                        "with the seed, H2): <b>{deal} cards</b> each in round {round} (T7), "
                        "one at a time, starting on the dealer's left.").format(
                          players=plan.players, cards=len(plan.shoe),
                          dealer=escape(names[plan.dealer]), deal=plan.deal_size,
                          round=plan.round_number), size)
            + seed_note_html(plan.seed, size))
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
        self.progress.value = text_html(status, size)
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
        self.after.value = "".join(text_html(sentence_html(m), size) for m in lines)
        self.piles.layout.display = SHOWN
        self.piles.show(plan.stock_size, plan.turn_up, 1)
