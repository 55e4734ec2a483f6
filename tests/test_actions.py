"""Actions as values with a one-line notation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toonerville.actions import (
    Action,
    Buy,
    Discard,
    Draw,
    LayDown,
    LayOff,
    Pass,
    SwapRook,
    TakeDiscard,
    parse_action,
)
from toonerville.cards import NATURALS, ROOK, Card
from toonerville.errors import InvalidMeldError, NotationError, ToonervilleError
from toonerville.melds import Meld


def c(text: str) -> Card:
    return Card.parse(text)


def melds(*texts: str) -> tuple[Meld, ...]:
    return tuple(Meld.parse(t) for t in texts)


EXAMPLES: list[tuple[Action, str]] = [
    (Draw(0), "0: draw"),
    (TakeDiscard(1), "1: take"),
    (Buy(4), "4: buy"),
    (Pass(3), "3: pass"),
    (Discard(2, c("R7")), "2: discard R7"),
    (Discard(2, ROOK), "2: discard RK"),
    (LayDown(1, melds("R3 R4 R5 R6", "Y7 R7 RK")), "1: down R3 R4 R5 R6 / Y7 R7 RK"),
    (LayDown(0, melds("R5 R6 R7 RK", "B1 B2 B3 B4")),
     "0: down R5 R6 R7 RK=R8 / B1 B2 B3 B4"),
    (LayOff(3, ROOK, (1, 0), c("R4")), "3: off RK=R4 on 1.0"),
    (LayOff(3, ROOK, (1, 2)), "3: off RK on 1.2"),
    (LayOff(0, c("G9"), (2, 11)), "0: off G9 on 2.11"),
    (SwapRook(2, c("R8"), (1, 0), (0, 1), c("R9")), "2: swap R8 from 1.0, off RK=R9 on 0.1"),
    (SwapRook(2, c("R8"), (1, 0), (0, 1)), "2: swap R8 from 1.0, off RK on 0.1"),
    (SwapRook(4, c("B11"), (3, 1), lay_down=melds("Y7 R7 RK", "G2 G3 G4 G5")),
     "4: swap B11 from 3.1, down Y7 R7 RK / G2 G3 G4 G5"),
]


@pytest.mark.parametrize(("action", "text"), EXAMPLES, ids=[t for _, t in EXAMPLES])
def test_notation_examples(action: Action, text: str) -> None:
    assert action.notation() == text
    assert parse_action(text) == action


@pytest.mark.parametrize(("action", "text"), EXAMPLES, ids=[t for _, t in EXAMPLES])
def test_parse_action_round_trips_notation(action: Action, text: str) -> None:
    assert parse_action(action.notation()) == action
    assert parse_action(action.notation()).notation() == action.notation()


def test_every_action_type_is_covered() -> None:
    assert {type(a) for a, _ in EXAMPLES} == {Draw, TakeDiscard, Buy, Pass, Discard, LayDown,
                                             LayOff, SwapRook}


seats = st.integers(0, 4)
naturals = st.sampled_from(NATURALS)
cards = st.sampled_from((*NATURALS, ROOK))
refs = st.tuples(st.integers(0, 4), st.integers(0, 20))
meld_texts = st.sampled_from(["R3 R4 R5 R6", "Y7 R7 RK", "R5 R6 R7 RK", "RK=G4 G5 G6 RK=G7",
                              "B7 B7 B7", "RK=Y1 Y2 Y3 Y4 Y5", "G9 B9 RK RK"])
meld_groups = st.lists(meld_texts, min_size=1, max_size=4).map(lambda ts: melds(*ts))


@st.composite
def lay_offs(draw: st.DrawFn) -> LayOff:
    seat, onto = draw(seats), draw(refs)
    if draw(st.booleans()):
        return LayOff(seat, ROOK, onto, draw(st.none() | naturals))
    return LayOff(seat, draw(naturals), onto)


@st.composite
def swaps(draw: st.DrawFn) -> SwapRook:
    seat, natural, source = draw(seats), draw(naturals), draw(refs)
    if draw(st.booleans()):
        return SwapRook(seat, natural, source, lay_down=draw(meld_groups))
    return SwapRook(seat, natural, source, draw(refs), draw(st.none() | naturals))


actions = st.one_of(
    st.builds(Draw, seats), st.builds(TakeDiscard, seats), st.builds(Buy, seats),
    st.builds(Pass, seats), st.builds(Discard, seats, cards),
    st.builds(LayDown, seats, meld_groups), lay_offs(), swaps(),
)


@given(actions)
def test_parse_action_inverts_notation(action: Action) -> None:
    assert parse_action(action.notation()) == action


def test_parse_action_forgives_case_and_spaces() -> None:
    assert parse_action("  2 :  DISCARD r7 ") == Discard(2, c("R7"))
    assert parse_action("3: off rk=r4 on 1.0") == LayOff(3, ROOK, (1, 0), c("R4"))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("discard R7", "write the seat, a colon and the move"),
        ("", "write the seat"),
        ("two: draw", "write the seat"),
        ("12: draw", "write the seat"),
        ("2 draw", "write the seat"),
        ("2: dance", "the moves are draw, take, buy, pass, down, off, swap and discard"),
        ("2: draw R7", "'draw' takes nothing after it"),
        ("2: pass now", "'pass' takes nothing after it"),
        ("2: discard", "name the card to discard"),
        ("3: off R9", "write 'off CARD on SEAT.MELD'"),
        ("3: off R9 on 1", "write 'off CARD on SEAT.MELD'"),
        ("3: off R9 onto 1.0", "write 'off CARD on SEAT.MELD'"),
        ("2: swap R8 from 1.0", "write 'swap CARD from SEAT.MELD"),
        ("2: swap R8 1.0, off RK on 0.1", "write 'swap CARD from SEAT.MELD"),
        ("2: swap R8 from 1.0, off RK", "after 'off' write 'RK=CARD on SEAT.MELD'"),
        ("2: swap R8 from 1.0, off R9 on 0.1", "it is the Rook that is laid off"),
    ],
)
def test_malformed_lines_raise_notation_error_with_a_sentence(text: str, words: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_action(text)
    message = str(info.value)
    assert words in message
    assert f"'{text}' is not an action" in message


@pytest.mark.parametrize(("text", "token"),
                         [("2: discard Q3", "Q3"), ("3: off R15 on 1.0", "R15"),
                          ("2: swap X8 from 1.0, off RK on 0.1", "X8"),
                          ("3: off RK=R99 on 1.0", "R99")])
def test_bad_cards_in_an_action_name_the_card(text: str, token: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_action(text)
    assert f"'{token}'" in str(info.value)


def test_invalid_meld_in_a_lay_down_is_refused_with_its_reason() -> None:
    with pytest.raises(InvalidMeldError) as info:
        parse_action("1: down R3 R4 R5 R6 / B13 B14 B1 B2")
    assert info.value.rule == "T4"
    assert "wraps past 14" in str(info.value)


@pytest.mark.parametrize("text", ["3: off RK= on 1.0", "2: swap R8 from 1.0, off RK= on 0.1",
                                  "2: discard ,", "3: off , on 1.0"])
def test_empty_card_in_an_action_raises_notation_error(text: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_action(text)
    assert "is not" in str(info.value)


@pytest.mark.parametrize("text", ["2: down", "2: down R3 R4 R5 R6 /",
                                  "2: swap R8 from 1.0, down / Y7 R7 RK"])
def test_lay_down_line_without_a_meld_raises_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        parse_action(text)


def test_lay_down_line_without_a_meld_is_refused() -> None:
    for text in ("2: down", "2: down R3 R4 R5 R6 /"):
        with pytest.raises(ToonervilleError):
            parse_action(text)


def test_discard_of_two_cards_is_refused() -> None:
    with pytest.raises(NotationError):
        parse_action("2: discard R7 R8")


def test_actions_are_frozen_values() -> None:
    d = Discard(2, c("R7"))
    with pytest.raises(AttributeError):
        d.seat = 3  # type: ignore[misc]
    assert d == Discard(2, c("R7")) and d != Discard(2, c("R8"))
