"""Actions as values with a one-line notation, checked for type and shape (`validate`)
before any rule, and parsed from any text without raising anything but the engine's own
refusals."""

from __future__ import annotations

import dataclasses
from typing import get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toonerville.engine.actions import (
    Action,
    Buy,
    Discard,
    Draw,
    LayDown,
    LayOff,
    Pass,
    SwapRook,
    TakeDiscard,
    excerpt,
    parse_action,
    validate,
)
from toonerville.engine.cards import NATURALS, ROOK, Card, Colour
from toonerville.engine.errors import (
    InvalidMeldError,
    MalformedActionError,
    NoSuchSeatError,
    NotationError,
    ToonervilleError,
)
from toonerville.engine.melds import Meld, MeldKind


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


ACTION_TYPES = get_args(Action)


def test_every_action_type_is_covered() -> None:
    assert len(ACTION_TYPES) == 8
    assert {type(a) for a, _ in EXAMPLES} == set(ACTION_TYPES)


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


# -- validate: types and shapes before any rule ---------------------------------------------
@pytest.mark.parametrize(("action", "text"), EXAMPLES, ids=[t for _, t in EXAMPLES])
def test_well_formed_actions_pass_validation(action: Action, text: str) -> None:
    validate(action, 5)
    validate(parse_action(text), 5)


@pytest.mark.parametrize("kind", ACTION_TYPES, ids=lambda k: k.__name__)
@pytest.mark.parametrize(("seat", "error", "quoted"), [
    (False, MalformedActionError, "not False"), (True, MalformedActionError, "not True"),
    ("0", MalformedActionError, "not '0'"), (1.0, MalformedActionError, "not 1.0"),
    (None, MalformedActionError, "not None"), (4, NoSuchSeatError, "no seat 4"),
    (-1, NoSuchSeatError, "no seat -1"),
])
def test_a_seat_must_be_a_whole_number_at_the_table(kind: type, seat: object, error: type,
                                                  quoted: str) -> None:
    example = next(a for a, _ in EXAMPLES if type(a) is kind)
    with pytest.raises(error) as info:
        validate(dataclasses.replace(example, seat=seat), 4)  # type: ignore[arg-type]
    assert quoted in str(info.value)


MELD = Meld.parse("R3 R4 R5 R6")


def forged(kind: MeldKind, cards: tuple[Card, ...], colour: Colour | None = None,
           low: int = 0) -> Meld:
    """A meld with parts its constructor refuses (`Meld` checks them), made by changing a
    valid one field by field: what `validate` must still refuse."""
    meld = Meld.parse("R3 R4 R5 R6")
    for name, value in (("kind", kind), ("cards", cards), ("colour", colour), ("low", low)):
        object.__setattr__(meld, name, value)
    return meld


@pytest.mark.parametrize(("action", "words"), [
    (LayDown(0, None), "melds must be a tuple of one or more melds"),  # type: ignore[arg-type]
    (LayDown(0, ()), "not ()"),
    (LayDown(0, [MELD]), "not [Meld.parse('R3 R4 R5 R6')]"),  # type: ignore[arg-type]
    (LayDown(0, ("R3 R4 R5 R6",)), "'R3 R4 R5 R6' in melds is not a meld"),  # type: ignore
    (LayDown(0, (forged(MeldKind.RUN, (ROOK,)),)), "in melds is not a meld"),
    (LayDown(0, (forged(MeldKind.RUN, (c("R13"), c("R14"), ROOK), Colour.RED, 13),)),
     "in melds is not a meld"),
    (LayOff(0, c("R7"), (0,)), "onto must name a meld as (seat, meld number)"),  # type: ignore
    (LayOff(0, c("R7"), [0, 0]), "not [0, 0]"),  # type: ignore[arg-type]
    (LayOff(0, c("R7"), (0, -1)), "not (0, -1)"),
    (LayOff(0, c("R7"), (0, False)), "not (0, False)"),
    (LayOff(0, "R7", (0, 0)), "card must be a Card such as Card.parse('R7'), not 'R7'"),  # type: ignore
    (LayOff(0, ROOK, (0, 0), "R7"), "as_card must be a Card"),  # type: ignore[arg-type]
    (LayOff(0, ROOK, (0, 0), ROOK), "as_card says which natural card a Rook stands for"),
    (LayOff(0, c("R7"), (0, 0), c("R8")), "as_card is only for a Rook: R7 stands for itself"),
    (Discard(0, None), "card must be a Card"),  # type: ignore[arg-type]
    (SwapRook(0, c("R8"), (1, 0), rook_as=c("R9")), "a Rook kept in hand stands for nothing"),
    (SwapRook(0, c("R8"), (1, 0), (0, 1), lay_down=(MELD,)), "not both"),
    (SwapRook(0, c("R8"), (1, 0), lay_down=(MELD,), rook_as=c("R9")),
     "rook_as goes with lay_off_onto"),
    (SwapRook(0, "R8", (1, 0), (0, 1)), "natural must be a Card"),  # type: ignore[arg-type]
    (SwapRook(0, c("R8"), None, (0, 1)), "source must name a meld"),  # type: ignore[arg-type]
    (SwapRook(0, c("R8"), (1, 0), (0,)), "lay_off_onto must name a meld"),  # type: ignore
    (SwapRook(0, c("R8"), (1, 0), (0, 1), ROOK), "rook_as says which natural card"),
    (SwapRook(0, c("R8"), (1, 0), lay_down=[MELD]), "lay_down must be a tuple"),  # type: ignore
    ("0: draw", "'0: draw' is not a move: a move is a Draw, TakeDiscard"),
    (None, "None is not a move"),
])
def test_malformed_actions_are_refused_with_a_short_sentence(action: object,
                                                             words: str) -> None:
    with pytest.raises(MalformedActionError) as info:
        validate(action, 4)
    assert words in str(info.value)
    assert len(str(info.value)) <= 140


def test_a_meld_reference_to_a_missing_seat_is_no_such_seat() -> None:
    for action in (LayOff(0, ROOK, (4, 0)), SwapRook(0, c("R8"), (7, 0), (0, 1)),
                   SwapRook(0, c("R8"), (1, 0), (-1, 0))):
        with pytest.raises(NoSuchSeatError):
            validate(action, 4)


def test_a_refusal_quotes_only_an_excerpt_of_a_huge_value() -> None:
    for seat in ("x" * 10**6, list(range(10**5)), 10**5000):
        with pytest.raises(MalformedActionError if not isinstance(seat, int)
                           else NoSuchSeatError) as info:
            validate(Buy(seat), 4)  # type: ignore[arg-type]
        assert len(str(info.value)) < 100


def test_excerpt_quotes_short_and_cuts_long() -> None:
    assert excerpt("R7") == "'R7'" and excerpt(None) == "None" and excerpt((0,)) == "(0,)"
    assert len(excerpt("R" * 1000)) == 40 and excerpt("R" * 1000).endswith("…'")
    assert "digits" in excerpt(-(10**5000))
    assert len(excerpt({i: [i] * 100 for i in range(100)})) <= 40


# -- parse_action: any text, only the engine's refusals ------------------------------------
def test_a_megabyte_move_line_is_refused_by_its_length() -> None:
    with pytest.raises(NotationError) as info:
        parse_action("0: down " + "R3 R4 R5 R6 / " * 80_000)
    assert "has 1120008 characters; no move needs more than 4000" in str(info.value)


@pytest.mark.parametrize(("text", "words"), [
    ("0: discard " + "R" * 3000, "is too long to be a card or a word of a move"),
    ("0: draw\n1: draw", "write one move per line"),
    ("3: off R9 on 1." + "9" * 3000, "is not an action"),
])
def test_odd_lines_are_refused_with_a_short_sentence(text: str, words: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_action(text)
    assert words in str(info.value) and len(str(info.value)) < 200


@pytest.mark.parametrize("value", [None, 7, b"0: draw", ["0: draw"]])
def test_parse_action_refuses_what_is_not_text(value: object) -> None:
    with pytest.raises(NotationError, match="a move is a line of text"):
        parse_action(value)  # type: ignore[arg-type]


@st.composite
def damaged_lines(draw: st.DrawFn) -> str:
    """A real move line with a few characters replaced, inserted or removed."""
    line = list(draw(actions).notation())
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(line)))
        edit = draw(st.sampled_from(["insert", "replace", "delete"]))
        char = draw(st.sampled_from(list("0123456789 :,./=RKYGBrk-_\n\u0663xé")) | st.characters())
        if edit == "insert":
            line.insert(at, char)
        elif line and at < len(line):
            line[at] = char if edit == "replace" else ""
    return "".join(line)


@given(damaged_lines() | st.text(max_size=60))
def test_parse_action_raises_only_the_engines_refusals(text: str) -> None:
    try:
        action = parse_action(text)
    except (NotationError, InvalidMeldError) as err:
        assert len(str(err)) < 300
    else:
        # whatever parses is a well-formed move; the notation's seats are one digit, so
        # at a table of 10 seats every seat it can name exists (at 5, "7: draw" would be
        # refused as NoSuchSeatError, rightly: parsing does not know the table)
        validate(action, 10)
        assert parse_action(action.notation()) == action
