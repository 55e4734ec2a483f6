"""Pass-and-play (`widgets.passplay.PassAndPlay`) without a browser: the cover between
learners shows no hand, a buy window asks each learner in turn behind the cover, bots
move by themselves, a whole round of three learners is played by clicks, and the name
boxes refuse what cannot be a name."""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import partial

import ipywidgets as widgets
import pytest

from toonerville.engine import actions as A
from toonerville.engine.events import Phase
from toonerville.players.bots import HeuristicBot
from toonerville.store.names import NAME_LIMIT
from toonerville.widgets.passplay import HUMAN, PassAndPlay


@pytest.fixture(autouse=True)
def _close_widgets() -> Iterator[None]:
    yield
    widgets.Widget.close_all()


def three_learners(seed: int = 11) -> PassAndPlay:
    page = PassAndPlay(seed=seed)
    page.players.value = 3
    for text, name in zip(page.name_texts, ["Ann", "Bo", "Cy"], strict=False):
        text.value = name
    page.start_button.click()
    assert page.game is not None, page.message.text
    return page


def covered(page: PassAndPlay) -> bool:
    return page.cover.layout.display != "none" and page.seat_view.layout.display == "none"


def assert_no_hand_in_page(page: PassAndPlay) -> None:
    """Nothing of any hand is in the page: the picker is empty and hidden, no move can
    be clicked, and no card of any hand appears in any text the page holds."""
    assert page.game is not None
    view = page.seat_view
    assert view.hand.cards == ()
    assert view.hand.layout.display == "none"
    assert all(b.disabled for b in (view.draw_button, view.take_button, view.buy_button,
                                    view.pass_button, view.discard_button))
    shown = page.cover_text.value + page.reveal_button.description + page.message.value
    for seat in range(page.game.players):
        for card in page.game.hand(seat):
            assert f">{card}<" not in shown and f" {card} " not in shown


def test_the_cover_names_the_next_learner_and_shows_no_hand() -> None:
    page = three_learners()
    game = page.game
    assert game is not None
    assert covered(page)
    first = page.next_learner()
    assert first is not None and page.waiting_for == first
    assert game.names[first] in page.cover_text.value
    assert page.reveal_button.description == f"I am {game.names[first]}"
    assert_no_hand_in_page(page)
    # a click on a move while covered is refused with a sentence and plays nothing
    page.seat_view.draw_button.click()
    assert page.message.kind == "error" and "covered" in page.message.text
    assert game.actions == ()
    page.reveal_button.click()
    assert not covered(page) and page.holder == first
    assert page.seat_view.hand.held == game.hand(first)
    assert "Your turn" in page.seat_view.prompt.value


def test_a_move_that_passes_the_decision_covers_the_hand_again() -> None:
    page = three_learners()
    game = page.game
    assert game is not None
    page.reveal_button.click()
    me = page.holder
    assert me is not None
    page.seat_view.draw_button.click()
    assert page.message.kind == "ok", page.message.text
    # the decision is now someone else's (the buy window) or still mine (no one may buy)
    if page.next_learner() != me:
        assert covered(page) and page.holder is None
        assert_no_hand_in_page(page)
    else:
        assert not covered(page) and page.seat_view.hand.held == game.hand(me)


def test_T10_a_buy_offer_goes_to_each_learner_in_turn_behind_the_cover() -> None:
    page = three_learners(seed=4)
    game = page.game
    assert game is not None
    page.reveal_button.click()
    drawer = page.holder
    page.seat_view.draw_button.click()  # declines the discard: the buy window opens
    assert game.phase == Phase.BUY
    expected = list(game.deciders)
    assert drawer not in expected and expected
    asked = []
    while game.phase == Phase.BUY:
        assert covered(page)
        assert_no_hand_in_page(page)
        assert "may buy" in page.cover_text.value
        asked.append(page.waiting_for)
        page.reveal_button.click()
        assert page.holder == asked[-1]
        assert page.seat_view.prompt.value.startswith("Your answer")
        assert not page.seat_view.buy_button.disabled
        assert page.seat_view.hand.held == game.hand(asked[-1])  # type: ignore[arg-type]
        page.seat_view.pass_button.click()
        assert page.message.kind == "ok", page.message.text
    assert asked == expected  # each learner once, in the order the engine asks them
    # the window closed: the device goes back to the one who drew, to play on
    assert game.phase == Phase.PLAY and page.waiting_for == drawer


def test_bots_move_by_themselves_and_one_learner_is_never_covered_again() -> None:
    page = PassAndPlay(seed=2)
    game = page.start(["Ann", "", ""], [HUMAN, "heuristic", "beginner"])
    assert game.names[1:] == ("Crow", "Jay")
    page.reveal_button.click()
    for _turn in range(6):
        assert page.holder == 0 and not covered(page)
        assert page.next_learner() == 0  # the bots have moved: it is Ann's decision
        view = page.seat_view
        if not view.pass_button.disabled:
            view.pass_button.click()
            continue
        if not view.draw_button.disabled:
            view.draw_button.click()
            continue
        view.hand.select([len(view.hand.cards) - 1])
        view.discard_button.click()
        assert page.message.kind == "ok", page.message.text
    bot_moves = [a for a in game.actions if a.seat in (1, 2)]
    assert bot_moves, "the bots never moved"


def press(page: PassAndPlay, action: A.Action) -> bool:
    """Make `action` by the buttons a learner would click; False if it has no button
    (then nothing is clicked)."""
    view = page.seat_view
    simple = {A.Draw: view.draw_button, A.TakeDiscard: view.take_button,
              A.Buy: view.buy_button, A.Pass: view.pass_button,
              A.LayDown: view.lay_down_button}
    button = simple.get(type(action))
    if button is not None:
        button.click()
        return True
    if isinstance(action, A.LayOff | A.Discard):
        view.hand.select([view.hand.cards.index(action.card)])
        (view.lay_off_button if isinstance(action, A.LayOff) else view.discard_button).click()
        return True
    return False


def test_a_whole_round_of_three_learners_is_played_by_clicks() -> None:
    page = three_learners(seed=21)
    game = page.game
    assert game is not None
    bot = HeuristicBot()
    covers = 0
    for _click in range(3_000):
        if game.records:
            break
        if covered(page):
            covers += 1
            assert_no_hand_in_page(page)
            page.reveal_button.click()
            continue
        seat = page.holder
        assert seat is not None and seat in game.deciders
        assert page.seat_view.hand.held == game.hand(seat)
        before = len(game.actions)
        choice = bot.choose(game.view(seat), game.rules, partial(game.legal_actions, seat),
                            random.Random(before))
        if not press(page, choice):  # a move with no button of its own (the Rook swap)
            options = [a for a in game.legal_actions(seat)
                       if isinstance(a, A.Discard | A.Pass | A.Draw)]
            assert press(page, options[0])
        assert page.message.kind == "ok", page.message.text
        assert len(game.actions) > before
    else:
        pytest.fail("the round did not end in 3,000 clicks")
    assert game.records[0].round_number == 1
    assert covers > 3  # the device changed hands many times
    assert min(game.records[0].points) == 0  # the one who went out scores nothing (T20)


def test_names_are_capped_checked_and_kept_apart() -> None:
    page = PassAndPlay(seed=1)
    page.name_texts[0].value = "x" * 100_000
    assert len(page.name_texts[0].value) == NAME_LIMIT
    assert page.message.kind == "error" and f"at most {NAME_LIMIT}" in page.message.text
    page.name_texts[0].value = "Ann"
    page.name_texts[1].value = " Ann "
    page.start_button.click()
    assert page.game is None
    assert "two seats have the name Ann" in page.message.text
    page.name_texts[1].value = "Bo\x07"
    page.start_button.click()
    assert page.game is None and "control characters" in page.message.text
    page.name_texts[1].value = "  Bo   Bo "
    page.start_button.click()
    assert page.game is not None and page.game.names[:2] == ("Ann", "Bo Bo")


def test_a_table_of_bots_only_is_refused() -> None:
    page = PassAndPlay(seed=1)
    for choice in page.kind_choices[:3]:
        choice.value = "heuristic"
    page.start_button.click()
    assert page.game is None and "at least one seat a learner" in page.message.text


def test_bots_stopped_by_the_tables_safety_limit_are_said_and_no_hand_is_shown(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Pass-and-play asks its `Table` whether the bots stalled (the one safety limit),
    rather than guess from who decides: the page says the table's reason and shows
    nobody's hand as if the game went on."""
    import toonerville.players.table

    monkeypatch.setattr(toonerville.players.table, "SAFETY_MOVES", 2)
    page = PassAndPlay(seed=4)
    game = page.start(["Ann", "", ""], [HUMAN, "heuristic", "heuristic"])
    bot = HeuristicBot()
    for _click in range(400):
        if page.table.stalled is not None:
            break
        if covered(page):
            page.reveal_button.click()
            continue
        seat = page.holder
        assert seat is not None
        choice = bot.choose(game.view(seat), game.rules, partial(game.legal_actions, seat),
                            random.Random(len(game.actions)))
        if not press(page, choice):
            press(page, next(a for a in game.legal_actions(seat)
                             if isinstance(a, A.Discard | A.Pass | A.Draw)))
    else:
        pytest.fail("the bots never reached the safety limit")
    assert page.message.kind == "error"
    assert "2 moves in a row in round" in page.message.text
    assert page.holder is None and page.waiting_for is None
    assert page.seat_view.hand.cards == ()
