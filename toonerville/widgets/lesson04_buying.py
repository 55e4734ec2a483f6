"""04's lesson, a turn and buying: `BuyDemo` (T9–T14).

A thin `Lesson` (see `lesson`) over the engine; `lessons` re-exports it.
"""

from __future__ import annotations

import functools
from html import escape

import ipywidgets as widgets

from ..engine import actions as A
from ..engine.cards import Card
from ..engine.events import Phase
from ..engine.game import Game
from ..engine.messages import N_, _, msg
from ..engine.rules import Rules
from ..players.scenarios import buy_position, seat_names
from .base import displayed
from .board import EventLog, PilesView
from .cards import HandView
from .lesson import (
    GameLesson,
    cards_phrase,
    choose_option,
    close_tree,
    heading_html,
    lesson_row,
    seed_note_html,
    text_html,
)


class BuyDemo(GameLesson):
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
        self.turn_row = lesson_row()
        self.seat_rows: list[widgets.HBox] = []
        self.seat_hands: list[HandView] = []
        self.seat_boxes = widgets.VBox()
        self.discard_choice = widgets.Dropdown(layout=widgets.Layout(width="auto"))
        self.discard_button = self._button(N_("Discard"), self.discard_selected)
        self.discard_row = lesson_row(widgets.HTML(), self.discard_choice, self.discard_button)
        self.piles = self._sized(PilesView())
        self.event_log = self._sized(EventLog(limit=14))
        self._watch(self.players, self.reset)
        self._watch(self.seed, self.reset)
        happened = self._label(widgets.HTML(), value=lambda: heading_html(_("What happened")))
        log_box = widgets.VBox((happened, self.event_log),
                               layout=widgets.Layout(flex="1 1 24em", min_width="16em"))
        self._assemble(
            lesson_row(self.players, self.seed, self.example_button, self.t14_button,
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
            row = lesson_row(name, buy, pass_)
            hand = HandView(size=self.size)
            rows.append(row)
            hands.append(hand)
            box = widgets.VBox((row, hand))
            box.add_class(f"tv-seat-{seat + 1}")
            boxes.append(box)
        for old in self.seat_hands:
            self._parts.remove(old)
        for widget in (*self.seat_boxes.children, *self.turn_row.children):
            close_tree(widget)  # the seats of the last deal are gone for good
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
        """Take the top discard (G3) and try to discard it at once: refused (T14). The
        discard list then shows G3, the card the refusal is about, not the first card of
        the hand."""
        self.reset()
        self.play(A.TakeDiscard(self.game.current))
        taken = Card.parse("G3")
        self.refuse(A.Discard(self.game.current, taken))
        if any(value == taken for _label, value in self.discard_choice.options):
            self.discard_choice.value = taken

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
        self.about.value = text_html(what, size) + seed_note_html(self.seed.value, size)
        self.turn_row.children[0].value = text_html(f"<b>{escape(current)}</b>:", size)
        decides = set(game.deciders) if view.phase is Phase.BUY else set()
        for seat, (row, hand) in enumerate(zip(self.seat_rows, self.seat_hands,
                                               strict=True)):
            held = game.hand(seat)
            got = self.news.get(seat, [])
            role = " · " + _("to play") if seat == game.current else ""
            just_now = _("just now: {news}").format(
                news=", ".join(str(said) for _kind, said in got))
            row.children[0].value = text_html(
                f"<b>{escape(names[seat])}</b>{role} · {cards_phrase(len(held))}"
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
            self.event_log.value = text_html(_("Nothing yet: {name} must decide.").format(
                name=escape(current)), size, muted=True)
        holding = game.hand(game.current)
        self.discard_row.children[0].value = text_html(_("{name} discards:").format(
            name=escape(current)), size)
        choose_option(self.discard_choice, [(str(c), c) for c in dict.fromkeys(
            sorted(holding, key=lambda c: c.sort_key))], self.discard_choice.value)
        self.discard_row.layout.display = displayed(view.phase is Phase.PLAY)
