"""The one model of "my seat at a table" (`widgets.seat_model.SeatModel`): the play
app's session, a shared table's seat and a pass-and-play seat expose the same traits —
hand, who acts, whether I may, the buy offer and who declined it, who is away, the bots'
seats, the last round's recap, and whether a take-back is possible (or why not)."""

from __future__ import annotations

from pathlib import Path

import pytest
from widgetfixtures import close_widgets, no_query  # noqa: F401 - no widget outlives its test

from toonerville.engine import actions as A
from toonerville.engine.events import Phase
from toonerville.engine.game import Game
from toonerville.engine.rules import Rules
from toonerville.players.table import Table
from toonerville.store import open_store
from toonerville.widgets.passplay import HUMAN, PassAndPlay
from toonerville.widgets.seat_model import SeatModel, SharedSession, TableSession
from toonerville.widgets.session import PlaySession


def test_the_play_session_is_a_seat_model_with_every_trait() -> None:
    s = PlaySession(seed=3, bots=3, buy_offers="always")
    assert isinstance(s, SeatModel)
    game = s.game
    assert s.seat == 0 and s.names == game.names
    assert s.bot_seats == {1: "heuristic", 2: "heuristic", 3: "heuristic"}
    assert sorted(s.hand, key=lambda c: c.sort_key) == sorted(game.hand(0),
                                                              key=lambda c: c.sort_key)
    assert s.to_act == game.deciders and s.may_act == (0 in game.deciders)
    assert s.can_take_back[0] is False and "no move of yours" in str(s.can_take_back[1])
    assert s.recap == {} and s.away == ()
    for _ in range(200):  # until a buy offer reaches you
        if s.offer:
            break
        s.act(s.game.legal_actions(0)[0] if s.game.phase is not Phase.BUY
              else A.Pass(0))
    assert s.offer and s.declined, "no offer came"
    assert s.declined[0] == game.names[s.offer[2]]  # who drew instead comes first
    while not s.may_act or s.game.phase is Phase.BUY:
        s.act(A.Pass(0)) if s.game.phase is Phase.BUY else s.play_bots()
    s.act(s.game.legal_actions(0)[0])
    assert s.can_take_back == (True, "")
    s.autoplay()
    assert s.recap["round"] == 11 and s.recap["totals"] == s.game.totals


def test_a_shared_seat_is_the_same_model_and_says_why_it_takes_nothing_back(
        tmp_path: Path) -> None:
    store = open_store(tmp_path / "t.sqlite")
    clock = [0.0]
    store.clock = lambda: clock[0]
    code = store.open_table(players=3, seed=5, bots={1: "heuristic", 2: "random"},
                            names=["Ann", "Crow", "Jay"])
    me = SharedSession(store, store.claim(code))
    assert isinstance(me, SeatModel)
    assert me.names == ("Ann", "Crow", "Jay") and me.bot_seats == {1: "heuristic",
                                                                   2: "random"}
    assert me.may_act and me.to_act == (0,) and len(me.hand) >= 11
    assert me.can_take_back[0] is False and "shared table" in str(me.can_take_back[1])
    before = me.revision
    assert me.act(A.Draw(0)) and me.revision > before
    assert not me.act(A.Draw(0))  # refused: the message says why
    assert me.message[2] == "error"
    clock[0] += 1000
    me.poll()
    assert me.away == (0,)
    assert me.come_back() and me.away == ()


def test_a_pass_and_play_seat_is_the_same_model_with_an_honest_take_back() -> None:
    game = Game.new(players=3, seed=8, names=["Ann", "Bo", "Crow"])
    table = Table(game, {2: "heuristic"}, buy_offers={0: "always", 1: "always"})
    table.run()
    seat = game.deciders[0]
    me = TableSession(table, seat)
    assert isinstance(me, SeatModel) and me.may_act and me.bot_seats == {2: "heuristic"}
    assert me.can_take_back[0] is False
    other = 1 - seat
    assert not me.act(A.Draw(other))  # not the seat shown
    assert me.message[2] == "error"
    assert me.act(A.TakeDiscard(seat))  # nobody acts after a take: it can be taken back
    assert me.can_take_back == (True, "")
    assert me.take_back() and me.to_act == (seat,) and game.phase is Phase.DRAW


def test_pass_and_play_keeps_the_seat_model_of_the_learner_holding_the_device() -> None:
    page = PassAndPlay(seed=4)
    page.start(["Ann", "Bo", "Cy"], [HUMAN, HUMAN, "heuristic"])
    page.reveal()
    assert page.holder is not None and page.session.seat == page.holder
    assert page.session.names == ("Ann", "Bo", "Cy") and page.session.may_act


def test_a_save_the_kit_fails_on_names_no_exception_and_changes_nothing() -> None:
    s = PlaySession(seed=3, bots=2)
    s.new_game()
    before = s.game.actions

    def broken(_text: object) -> Game:
        raise KeyError("players")  # a fault of the kit's own, not a refusal in words

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Game, "from_json", staticmethod(broken))
        assert s.load('{"format": "toonerville-rook-game"}') is False
    _serial, shown, kind = s.message
    text = shown.text if hasattr(shown, "text") else str(shown)
    assert kind == "error" and "could not read it" in text
    assert "KeyError" not in text and "players" not in text
    assert s.game.actions == before


def test_bots_that_cannot_finish_a_game_stop_and_the_page_says_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A round no bot ends (a save without a turn limit): "Let the bots finish" stops at
    the table's one safety limit, says why, and a second click makes no more moves."""
    import toonerville.players.table

    monkeypatch.setattr(toonerville.players.table, "SAFETY_MOVES", 40)
    s = PlaySession(seed=3, bots=2)
    s.new_game()
    assert s.game.turn_limit is None
    s.autoplay()
    made = len(s.game.actions)
    _serial, shown, kind = s.message
    assert kind == "error" and "could not finish" in str(shown)
    assert "40 moves in a row in round 1" in str(shown) and not s.game.is_over
    s.autoplay()
    assert len(s.game.actions) == made  # bounded: no more moves, and said again
    assert "could not finish" in str(s.message[1])


def test_a_game_played_on_keeps_the_rules_chosen_for_the_next_new_game() -> None:
    """The seat model says the table's rules (`game_rules`, what the view draws with);
    07's session keeps its own `rules`, the next new game's, whatever game it plays."""
    house = Rules(penalty_cards=2)
    s = PlaySession(seed=3, bots=2)
    s.start(Game.new(players=3, seed=4, rules=house))
    assert s.game_rules == house and s.rules == Rules()
    s.new_game()
    assert s.game.rules == Rules()


def test_a_shared_seat_says_who_is_away_and_that_its_seat_was_given_away(
        tmp_path: Path) -> None:
    """Issue 26 §2: the away notes and the hand-over sentence are the seat model's
    (`away_words`, `away_here`, `lost_words`), so 09's and 10's pages say them alike."""
    store = open_store(tmp_path / "t.sqlite")
    clock = [0.0]
    store.clock = lambda: clock[0]
    code, host = store.open_hosted(3, seed=5, bots={2: "heuristic"},
                                   names=["Ann", "Bo", "Crow"])
    ann = SharedSession(store, store.claim(code, 0))
    bo = SharedSession(store, store.claim(code, 1))
    assert ann.away_words() == () and not ann.away_here and ann.lost_words() is None
    clock[0] += 1000  # Ann's page is quiet past the limit: a bot plays for her
    bo.poll()
    assert bo.away == (0,) and not bo.away_here
    assert bo.away_words() == ("Ann is away: a bot plays for Ann",)
    ann.poll()
    assert ann.away_here and ann.away_words() == (
        "You were away: a bot plays for you until you take your seat back",)
    store.give_seat(code, 0, "heuristic", key=host)
    ann.poll()
    assert ann.lost == "bot"
    words = ann.lost_words()
    assert words is not None and "gave your seat 0 to a bot" in str(words)


def test_take_back_is_each_models_own_rule_through_one_entry_point(
        tmp_path: Path) -> None:
    """Issue 26 §2: the seat view's Take back calls the followed model's `take_back()`:
    a shared seat says why no move of it can be; pass-and-play's says what it took back
    (a watcher's place takes nothing back)."""
    from toonerville.widgets.classroom import SharedTable
    store = open_store(tmp_path / "t.sqlite")
    page = SharedTable(store)
    page.open_table(players=3, learners=1, seed=5)
    page.seat_view.undo_button.click()
    assert page.message.kind == "error" and "at a shared table" in page.message.text
    game = Game.new(players=3, seed=8, names=["Ann", "Bo", "Crow"])
    table = Table(game, {2: "heuristic"}, buy_offers={0: "always", 1: "always"})
    table.run()
    seat = game.deciders[0]
    me = TableSession(table, seat)
    assert me.act(A.TakeDiscard(seat))
    assert me.take_back() and me.message[2] == "info"
    assert str(me.message[1]).startswith(f"{game.names[seat]} took back")
    me.show(seat, watching=True)
    assert not me.take_back() and me.message[2] == "error"
