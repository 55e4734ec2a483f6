"""`hints.discard_helps`: does a declined discard help a hand (the play app's buy offers)?"""

from __future__ import annotations

from toonerville.engine.cards import Card
from toonerville.engine.game import Game
from toonerville.engine.hints import discard_helps
from toonerville.engine.views import PlayerView


def _view(hand: str, round_number: int = 1, table: dict[int, list[str]] | None = None
          ) -> PlayerView:
    """Seat 0's view with this hand, in `round_number` (the other seats hold filler);
    a seat with melds in `table` is down."""
    game = Game.from_position(hands=[hand, "G1 G2 G3", "B1 B2 B3"], stock="Y2 Y3 Y4",
                              discard_pile="B9", dealer=2, round_number=round_number,
                              table=table or {},
                              scores=[(0, 0, 0)] * (round_number - 1))
    return game.view(0)


def _helps(view: PlayerView, card: str) -> str | None:
    found = discard_helps(view, Card.parse(card), Game.new(players=3, seed=1).rules)
    return None if found is None else str(found)


def test_T5_a_third_card_of_a_number_makes_a_set() -> None:
    view = _view("R7 Y7 B3 G10 Y12")
    assert _helps(view, "G7") == "G7 makes a set of 3 with your cards (T5)"
    assert _helps(view, "G3") is None  # one 3 held: a pair, no meld yet
    assert _helps(view, "R8") is None  # round 1 wants sets only: runs do not count


def test_T4_a_card_that_makes_a_run_of_four_helps_where_the_contract_has_runs() -> None:
    view = _view("R4 R5 R6 Y1 G9 B12 B2", round_number=3)  # 2 runs
    assert _helps(view, "R7") == "R7 makes a run of 4 with your cards (T4)"
    assert _helps(view, "R3") == "R3 makes a run of 4 with your cards (T4)"
    assert _helps(view, "R9") is None and _helps(view, "Y5") is None


def test_T7_the_card_that_completes_the_contract_says_so() -> None:
    view = _view("R7 Y7 B3 Y3 G3 R1")
    assert _helps(view, "G7") == "G7 completes your contract (T7)"


def test_T6_a_rook_always_helps() -> None:
    assert _helps(_view("R1 Y5 B9"), "RK") == "RK is wild: it fits any meld (T6)"


def test_H9_once_down_only_a_card_that_lays_off_helps() -> None:
    view = _view("R1 Y5", table={0: ["Y7 G7 B7", "R3 R3 R3"]})
    assert _helps(view, "R7") == "R7 lays off onto a meld on the table (H9)"
    assert _helps(view, "Y5") is None
