"""06's lesson, going out and scoring: `ScoringDemo`, `places_text`, the scenes (T3, T16,
T17, T20, T21).

A thin `Lesson` (see `lesson`) over the engine; `lessons` re-exports it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

import ipywidgets as widgets

from ..engine.cards import Card, hand_points, parse_cards
from ..engine.errors import ToonervilleError
from ..engine.game import Game
from ..engine.messages import N_, _, msg
from ..engine.names import bot_names
from ..engine.rules import ROUNDS
from ..engine.scoring import place_labels
from ..pages.render import hand_html, message_html, state_html
from ..players.scenarios import seat_names
from .base import displayed
from .board import ScoreSheet
from .cards import HandView
from .lesson import GameLesson, heading_html, lesson_row, seed_note_html, text_html


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
        return text_html(_("No cards: 0 points."), size)
    terms = " + ".join(f"{c}&nbsp;<b>{c.points}</b>" for c in cards)
    total = _("{terms} = <b>{points} points</b>").format(terms=f'<bdi dir="ltr">{terms}</bdi>',
                                                         points=hand_points(cards))
    return text_html(f"{total} " + _("(T3: 1–9 are 5 points, 10–14 are 10, the Rook 25)"), size)


def places_text(totals: Sequence[int]) -> str:
    """Places by total, ties sharing (T21): `95 120 95 140` → `1= 3 1= 4`."""
    return " ".join(place_labels(totals))


class ScoringDemo(GameLesson):
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
            self.headings[1], lesson_row(self.scene, self.next_button, self.restart_button),
            self.step_text, self.messages, self.state, self.round_sheet,
            self.headings[2], lesson_row(self.seed, self.play_button, self.bar),
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
        self.step_text.value = text_html(_("Step {k}: {says}").format(
            k=self.step, says=escape(_(says))), self.size)

    def _draw_scene(self) -> None:
        scene = SCENES[self.scene.value]
        first = _(scene.steps[0][1]) if scene.steps else ""
        self.step_text.value = text_html(
            _("{title}. Press <b>Next step</b>. First: {first}").format(
                title=escape(_(scene.title)), first=escape(first)), self.size)
        self._draw_state()

    def _draw_state(self) -> None:
        if not hasattr(self, "game"):
            return
        game, size = self.game, self.size
        ended = len(game.scores) > self.rounds_before
        if ended:  # the next round is already dealt: show the hands as the round ended
            row, record = game.scores[self.rounds_before], game.records[-1]
            self.state.value = text_html(_("<b>Round {r}</b> is over (T20): the player who went "
                                           "out scores 0, the others the points of the cards "
                                           "left in hand.").format(r=record.round_number), size)
            self.state.value += "".join(
                hand_html(() if s == record.went_out else self.hands_before[s], size,
                          label=_("{name} · {points} points").format(name=game.names[s],
                                                                     points=row[s]))
                for s in range(game.players))
        else:
            self.state.value = state_html(game, size)
        self.round_sheet.layout.display = displayed(bool(game.scores))
        self.round_sheet.show_game(game)

    # -- 3 ------------------------------------------------------------------------------
    def play_bot_game(self) -> None:
        from ..players.simulate import play_game

        self.bar.value = 0

        def follow(game: Game) -> None:
            done = len(game.scores)
            if done != self.bar.value:
                self.bar.value = done

        # the bots sit under the names every table gives them ("Crow", "Jay", …)
        self.bot_game = play_game(["heuristic"] * 4, self.seed.value,
                                  after_action=follow).renamed(bot_names(4))
        self.bar.value = ROUNDS
        self._draw_bot_game()

    def _draw_bot_game(self) -> None:
        game = self.bot_game
        if game is None:
            return
        totals = game.totals
        winners = ", ".join(game.names[i] for i in game.winners)
        self.game_about.value = (
            text_html(_("Four heuristic bots played all 11 rounds with seed <b>{seed}</b>. "
                        "Totals {totals}: the lowest total wins — <b>{winners}</b> "
                        "(T21).").format(seed=game.seed,
                                         totals=f'<bdi dir="ltr">{" · ".join(map(str, totals))}'
                                                "</bdi>",
                                         winners=f"<bdi>{escape(winners)}</bdi>"), self.size)
            + seed_note_html(game.seed, self.size))
        stopped = [r.round_number for r in game.records if r.ended_by != "out"]
        if stopped:
            rounds = ", ".join(map(str, stopped))
            self.game_about.value += text_html(
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
        self.ties.value = text_html(
            _("Places: {places}").format(places=places) + " "
            + _("(T21: the lowest total wins; equal totals share the place, marked =)"),
            self.size)

    def _draw(self) -> None:
        size = self.size
        titles = (_("1. Counting a hand (T3)"), _("2. Going out (T16, T17)"),
                  _("3. A whole game's score sheet (T20, T21)"), _("4. Ties (T21)"))
        for h, t in zip(self.headings, titles, strict=True):
            h.value = heading_html(t, size)
        if hasattr(self, "step"):
            self.count()
            if self.step:
                self._draw_step()
                self._draw_state()
            else:
                self._draw_scene()
            self._draw_bot_game()
            self.rank()
