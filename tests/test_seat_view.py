"""The one seat view (`widgets/seat.py`), the round's recap (`widgets/recap.py`) and the
sorted hand (`widgets/hand.py`), in each place a learner sits: the play app (07),
pass-and-play and a shared table (09; a tournament table is a shared table). Driven
without a browser."""

from __future__ import annotations

import random
from functools import partial
from pathlib import Path

import pytest
from test_passplay_widget import covered, press, three_learners
from widgetfixtures import close_widgets, no_query  # noqa: F401

from toonerville.engine import actions as A
from toonerville.engine.cards import hand_points, parse_cards, sort_cards
from toonerville.engine.events import Phase
from toonerville.engine.game import Game
from toonerville.engine.messages import Message
from toonerville.engine.scoring import round_scores
from toonerville.players.bots import HeuristicBot
from toonerville.players.simulate import play_game
from toonerville.store import Seat, open_store
from toonerville.widgets.base import MessageBox
from toonerville.widgets.classroom import SharedTable
from toonerville.widgets.hand import SeatHand, order_cards
from toonerville.widgets.play import PlayGame
from toonerville.widgets.recap import RECAP_SECONDS, RoundRecap, recap_html, round_ends
from toonerville.widgets.seat import SeatView


# -- the round's recap, from the history ---------------------------------------------------
def test_T20_each_round_end_keeps_the_hands_left_and_their_points() -> None:
    game = play_game(["heuristic"] * 4, seed=5)
    ends = round_ends(game.history)
    assert [e.round_number for e in ends] == list(range(1, 12))
    for end, record in zip(ends, game.records, strict=True):
        assert end.points == record.points
        assert round_scores(end.left, end.went_out) == end.points  # T20: in the open
        assert end.went_out == record.went_out
    assert ends[-1].totals == game.totals and ends[-1].last


def test_T20_the_recap_names_every_seat_with_melds_cards_left_points_and_totals() -> None:
    game = play_game(["heuristic"] * 3, seed=8)
    end = round_ends(game.history)[0]
    page = recap_html(end, me=0)
    for seat, name in enumerate(end.names):
        assert name in page and str(end.totals[seat]) in page
        if seat != end.went_out and end.left[seat]:
            assert f"{hand_points(end.left[seat])} points" in page
    assert "(you)" in page and "Next: round 2" in page and "(T20)" in page


def test_a_recap_shows_only_round_ends_it_has_not_shown() -> None:
    game = play_game(["heuristic"] * 3, seed=8)
    recap = RoundRecap()
    recap.start(game.history[:3])
    assert recap.offer(game.history) and recap.shown
    assert recap.end is not None and recap.end.round_number == 11
    recap.continue_button.click()
    assert not recap.shown and not recap.offer(game.history)


def test_a_shared_tables_recap_closes_itself_when_its_countdown_ends() -> None:
    closed: list[bool] = []
    recap = RoundRecap(countdown=3, on_close=lambda: closed.append(True))
    recap.start(())
    assert recap.offer(play_game(["heuristic"] * 3, seed=2).history)
    assert "3 seconds" in recap.clock.value and recap.ticker.playing
    recap.tick()
    recap.tick()
    assert recap.shown
    recap.tick()
    assert not recap.shown and closed == [True] and not recap.ticker.playing


# -- 07 -------------------------------------------------------------------------------------
def test_T20_07_shows_the_round_before_the_next_round_until_continue() -> None:
    app = PlayGame(seed=12, buy_offers="never")
    for _turn in range(200):
        if app.recap.shown:
            break
        app.draw_button.click()
        card = next(c for c in app.hand.cards if app.game.is_legal(A.Discard(0, c)))
        app.hand.pick([card])
        app.discard_button.click()
    else:
        pytest.fail("round 1 did not end")
    assert app.game.round_number == 2  # dealt in the engine; the page shows round 1's end
    assert app.hand.layout.display == "none" and app.draw_button.layout.display != "none"
    assert all(part.layout.display == "none" for part in app.round_parts)
    end = app.recap.end
    assert end is not None and end.points == app.game.records[0].points
    assert "Robin (you)" in app.recap.body.value
    app.recap.continue_button.click()
    assert not app.recap.shown and app.hand.layout.display != "none"


def test_07_holds_the_hand_by_colour_or_by_number_and_keeps_the_selection() -> None:
    app = PlayGame(seed=3)
    assert app.hand.cards == sort_cards(app.game.hand(0))
    chosen = app.hand.cards[2]
    app.hand.pick([chosen])
    app.hand_order.value = "number"
    assert app.hand.cards == order_cards(app.game.hand(0), "number")
    numbers = [c.number for c in app.hand.cards if not c.is_rook]
    assert numbers == sorted(numbers)
    assert app.hand.selected == (chosen,)


def test_by_number_puts_sets_side_by_side_and_the_rook_last() -> None:
    cards = parse_cards("RK R7 B3 G7 Y3 R3")
    assert order_cards(cards, "number") == parse_cards("R3 Y3 B3 R7 G7 RK")
    hand = SeatHand(order="number")
    hand.show(cards)
    assert hand.cards == parse_cards("R3 Y3 B3 R7 G7 RK") and hand.held == cards


# -- a shared table --------------------------------------------------------------------------
@pytest.fixture
def table(tmp_path: Path) -> tuple[SharedTable, str]:
    p = SharedTable(open_store(tmp_path / "class.sqlite"))
    code = p.open_table(players=4, learners=1, seed=4)
    return p, code


def test_a_shared_table_names_its_bots_and_sorts_the_hand(table: tuple[SharedTable, str]
                                                          ) -> None:
    p, _code = table
    assert p.seat is not None
    assert p.seat.view.names[1:] == ("Crow", "Jay", "Magpie")
    assert "Crow" in p.seat_view.others.value and "Player 3" not in p.seat_view.others.value
    assert p.hand.cards == sort_cards(p.seat.view.hand)


def test_a_shared_table_gives_hints_and_says_why_a_move_cannot_be_taken_back(
        table: tuple[SharedTable, str]) -> None:
    p, _code = table
    view = p.seat_view
    found = view.hint()
    assert found is not None and p.message.kind == "info" and "Hint" in p.message.text
    assert found[0] in p.seat.legal_actions()  # type: ignore[union-attr]
    view.undo_button.click()
    assert p.message.kind == "error" and "cannot be taken back" in p.message.text
    view.suggest_button.click()
    assert p.message.kind == "info" and "(T15)" in p.message.text


def test_T10_a_shared_table_answers_offers_the_setting_does_not_show(
        table: tuple[SharedTable, str]) -> None:
    p, _code = table
    p.seat_view.buy_offers.value = "never"
    assert p.seat is not None
    for _turn in range(30):  # the learner plays; every offer is passed for them
        p.poll()
        view = p.seat.view
        assert not (view.phase is Phase.BUY and 0 in view.deciders)
        assert p.seat_view.buy_row.layout.display == "none"
        if view.current == 0 and view.phase is Phase.DRAW:
            p.draw_button.click()
        elif view.current == 0 and view.phase is Phase.PLAY:
            legal = [a for a in p.seat.legal_actions() if isinstance(a, A.Discard)]
            p.hand.pick([legal[0].card])
            p.discard_button.click()


def test_T10_an_offer_at_a_shared_table_names_the_card_and_who_declined_it(
        table: tuple[SharedTable, str]) -> None:
    p, _code = table
    p.seat_view.buy_offers.value = "always"
    assert p.seat is not None
    for _step in range(60):
        p.poll()
        view = p.seat.view
        if view.phase is Phase.BUY and 0 in view.deciders:
            break
        if view.current == 0 and view.phase is Phase.DRAW:
            p.draw_button.click()
        elif view.current == 0 and view.phase is Phase.PLAY:
            legal = [a for a in p.seat.legal_actions() if isinstance(a, A.Discard)]
            p.hand.pick([legal[0].card])
            p.discard_button.click()
    else:
        pytest.fail("no offer came")
    shown = p.seat_view.offer_text.value
    assert f"<b>{view.offered}</b>" in shown and view.names[view.current] in shown
    assert p.buy_button.description == f"Buy {view.offered}"
    assert p.seat_view.buy_row.layout.display == "flex"


def _to_round_end(p: SharedTable) -> None:
    """The learner of page `p` plays as the heuristic bot would, until a round ends."""
    assert isinstance(p.seat, Seat)
    bot = HeuristicBot()
    for _step in range(3_000):
        p.poll()
        view = p.seat.view
        if p.seat_view.recap.shown:
            return
        if view.seat in view.deciders:
            choice = bot.choose(view, p.seat_view.rules, p.seat.legal_actions,
                                random.Random(p.seat.number))
            p.seat.play(choice)
    pytest.fail("round 1 did not end")


def test_T20_a_shared_tables_recap_counts_down_over_the_next_round_it_never_hides(
        tmp_path: Path) -> None:
    """The table never waits for a recap (issue 26 §1): it closes by itself after
    `RECAP_SECONDS`, and meanwhile the new round's table, the buy offer and the draw
    stay in reach, so no offer waits for the buy limit and nobody reading is away."""
    p = SharedTable(open_store(tmp_path / "class.sqlite"))
    p.open_table(players=3, learners=1, seed=4)
    p.seat_view.buy_offers.value = "always"
    _to_round_end(p)
    recap = p.seat_view.recap
    assert recap.countdown == RECAP_SECONDS and recap.ticker.playing
    assert f"{RECAP_SECONDS} seconds" in recap.clock.value
    assert isinstance(p.seat, Seat)
    for _step in range(200):  # the new round goes on under the recap
        p.poll()
        view = p.seat.view
        if view.seat in view.deciders and view.phase is not Phase.PLAY:
            break
    else:
        pytest.fail("the learner never had to decide in round 2")
    assert recap.shown and view.round_number == 2
    row = p.seat_view.buy_row if view.phase is Phase.BUY else p.seat_view.start_row
    assert row.layout.display != "none" and p.hand.layout.display != "none"
    for _second in range(RECAP_SECONDS):
        recap.tick()
    assert not recap.shown and row.layout.display != "none"


# -- pass-and-play ---------------------------------------------------------------------------
def _learner_turn(page: object) -> None:
    while covered(page):  # type: ignore[arg-type]
        page.reveal_button.click()  # type: ignore[attr-defined]


def test_pass_and_play_takes_back_a_learners_move_while_nobody_has_acted_since() -> None:
    page = three_learners(seed=11)
    game = page.game
    assert game is not None
    _learner_turn(page)
    seat = page.holder
    view = page.seat_view
    view.undo_button.click()  # nothing of theirs yet
    assert page.message.kind == "error" and "your own last move" in page.message.text
    assert game.phase is Phase.DRAW
    page.seat_view.take_button.click()  # a take keeps the turn: nobody acts since
    assert game.current == seat and game.phase is Phase.PLAY
    moves = len(game.actions)
    view.undo_button.click()
    assert page.message.kind == "info" and len(game.actions) == moves - 1
    assert game.phase is Phase.DRAW and view.hand.held == game.hand(seat)


def test_T20_pass_and_play_shows_the_round_end_to_the_next_learner() -> None:
    page = three_learners(seed=21)
    game = page.game
    assert game is not None
    bot = HeuristicBot()
    for _click in range(3_000):
        if game.records:
            break
        if covered(page):
            page.reveal_button.click()
            continue
        seat = page.holder
        assert seat is not None
        choice = bot.choose(game.view(seat), game.rules, partial(game.legal_actions, seat),
                            random.Random(len(game.actions)))
        if not press(page, choice):
            options = [a for a in game.legal_actions(seat)
                       if isinstance(a, A.Discard | A.Pass | A.Draw)]
            assert press(page, options[0])
    _learner_turn(page)
    recap = page.seat_view.recap
    assert recap.shown and recap.end is not None and recap.end.round_number == 1
    assert page.seat_view.hand.layout.display == "none"
    for name in game.names:
        assert name in recap.body.value
    recap.continue_button.click()
    assert page.seat_view.hand.layout.display != "none"


def test_a_game_from_a_position_shows_no_recap_of_rounds_before_it() -> None:
    played = play_game(["heuristic"] * 3, seed=4)
    app = PlayGame(game=played.position_at(300))
    assert app.game.records and not app.recap.shown


# -- the seat view on its own -----------------------------------------------------------------
def _seat_of(game: Game) -> SeatView:
    """A seat view of seat 0 whose moves go straight to `game` (as an owner's would)."""
    box = MessageBox()

    def send(action: A.Action) -> bool:
        refusal = game.refusal(action)
        if refusal is not None:
            box.error(refusal.message)
            return False
        game.apply(action)
        while game.phase is Phase.BUY and 0 not in game.deciders:  # the others pass
            game.apply(A.Pass(game.deciders[0]))
        show()
        return True

    view = SeatView(send, box)

    def show() -> None:
        view.show(game.view(0), legal=game.legal_actions(0), history=game.history,
                  number=len(game.actions), finished=game.is_over, rules=game.rules)

    show()
    return view


def test_T18_the_seat_view_swaps_the_selected_card_for_a_rook() -> None:
    game = Game.from_position(
        hands=["B7 Y5 G2", "G1 G2 G3 G4", "B1 B2 B3 B4"], stock="Y2 Y3 Y4 R9",
        discard_pile="B12", dealer=2,
        table={0: ["Y7 G7 B7", "R3 R3 R3"], 1: ["B5 B6 RK B8"]})
    view = _seat_of(game)
    view.draw_button.click()
    assert not view.swap_button.disabled
    view.hand.pick(parse_cards("Y5"))
    view.swap_button.click()  # Y5 stands in for no Rook: said, nothing played
    assert view.message.kind == "error" and "(T18)" in view.message.text
    view.hand.pick(parse_cards("B7"))
    view.swap_button.click()
    assert "B7" in str(game.view(0).table[1][0]) and "B7" not in map(str, game.hand(0))


def test_a_discard_leaves_no_card_selected_not_even_its_twin() -> None:
    game = Game.from_position(
        hands=["B7 B7 Y5 G2", "G1 G2 G3 G4", "B1 B2 B3 B4"], stock="Y2 Y3 Y4 R9",
        discard_pile="B12", dealer=2)
    view = _seat_of(game)
    view.draw_button.click()
    view.hand.pick(parse_cards("B7"))
    view.discard_button.click()
    assert parse_cards("B7")[0] in game.hand(0) and view.hand.selected == ()


def test_T10_the_seat_view_takes_the_buy_offer_setting_to_its_owner() -> None:
    """The page does not answer buy windows itself: each choice of the setting goes to
    the owner (a shared table hands it to the store, which answers them)."""
    sent: list[str] = []
    view = SeatView(lambda _a: False, MessageBox(), send_offers=sent.append)
    assert view.buy_offers.layout.display != "none"
    view.buy_offers.value = "never"
    view.send_offers()
    assert sent == ["never", "never"]
    assert SeatView(lambda _a: False, MessageBox()).buy_offers.layout.display == "none"


# -- what 07 brought to every table --------------------------------------------------------
def test_T14_the_seat_view_says_the_card_taken_may_not_be_discarded() -> None:
    game = Game.from_position(hands=["R1 R5 Y9", "G1 G2 G3", "B1 B2 B3"], stock="Y2 Y3 Y4",
                              discard_pile="B9", dealer=2)
    view = _seat_of(game)
    assert "draw from the stock, or take the discard B9 (T9)" in \
        view.prompt.value.replace("<b>", "").replace("</b>", "")
    view.take_button.click()
    assert "You took <b>B9</b> from the discard pile" in view.prompt.value
    assert "(T14)" in view.prompt.value


def test_a_hint_at_a_shared_table_is_noted_in_its_log(table: tuple[SharedTable, str]) -> None:
    p, _code = table
    assert p.seat_view.hint() is not None
    assert "Hint for " in p.log_view.text


def test_an_owner_that_says_why_not_keeps_every_button_live() -> None:
    """Without `why_not` a move that does not apply is disabled; with it (07) the button
    stays live and a click says why, in the engine's words."""
    game = Game.from_position(hands=["R1 R5 Y9", "G1 G2 G3", "B1 B2 B3"], stock="Y2 Y3 Y4",
                              discard_pile="B9", dealer=2)
    assert _seat_of(game).discard_button.disabled  # before drawing
    box = MessageBox()

    def why_not(_kind: type[A.Action]) -> Message | None:
        refusal = game.play_refusal(0)
        return None if refusal is None else refusal.message

    view = SeatView(lambda _a: False, box, why_not=why_not)
    view.show(game.view(0), legal=game.legal_actions(0), history=game.history, number=0,
              finished=False, rules=game.rules)
    assert not view.discard_button.disabled and view.draw_button.button_style == "primary"
    view.discard_button.click()
    assert box.kind == "error" and "draw first" in box.text and box.text.endswith("(T9)")


def test_suggest_before_drawing_shows_the_solvers_lay_down_for_the_hand() -> None:
    game = Game.from_position(hands=["R7 Y7 G7 B3 Y3 G3 R1", "G1 G2 G3 G5", "B1 B2 B3 B5"],
                              stock="B7 Y4 Y5 Y6 Y8", discard_pile="B9", dealer=2)
    view = _seat_of(game)
    view.suggest_button.click()
    assert "The solver suggests" in view.message.text and "once you have drawn" in \
        view.message.text
    assert len(view.hand.selected) == 6 and "a set of 7s" in view.suggested.value


# -- the view follows one seat model -------------------------------------------------------
def test_the_seat_view_follows_its_model_and_reads_nothing_else() -> None:
    """A seat view given a model (`follow`) draws the model's seat and redraws on each of
    its changes: a move made through the model, not the view, reaches the page; a new
    model replaces the old one, whose changes no longer reach it."""
    from toonerville.players.table import Table
    from toonerville.widgets.seat_model import SeatModel, TableSession

    game = Game.new(players=3, seed=8, names=["Ann", "Bo", "Crow"])
    table = Table(game, {1: "heuristic", 2: "heuristic"}, buy_offers={0: "always"})
    table.run()
    model = TableSession(table, 0)
    view = SeatView(lambda _a: False, MessageBox())
    view.follow(model)
    assert view.hand.held == game.hand(0) and view.model is model
    move = next(a for a in model.legal if isinstance(a, A.Draw | A.Pass))
    button = view.draw_button if isinstance(move, A.Draw) else view.pass_button
    assert not button.disabled  # Ann decides: the model's moves are the view's
    before = view.status.value
    assert model.act(move)  # through the model, not the view
    assert view.hand.held == game.hand(0) and view.status.value != before
    other = SeatModel(recap_seconds=RECAP_SECONDS)
    view.follow(other)
    assert view.recap.countdown == RECAP_SECONDS  # the model says whether a table waits
    shown = view.status.value
    model.show(1)  # the old model changes: the view no longer listens to it
    assert view.status.value == shown and view.hand.held != game.hand(1)
