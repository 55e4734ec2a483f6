"""Cards, notation, the shoe and card points (T1–T3)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toonerville.engine.cards import (
    COLOURS,
    DECK_SIZE,
    NATURALS,
    ROOK,
    Card,
    Colour,
    deck,
    format_cards,
    hand_points,
    parse_cards,
    shoe,
    shuffled_shoe,
    sort_cards,
)
from toonerville.engine.errors import NotationError, RulesError

ALL_CARDS = (*NATURALS, ROOK)
cards_st = st.sampled_from(ALL_CARDS)


# -- T1 the deck ---------------------------------------------------------------------
def test_T1_deck_has_57_cards() -> None:
    cards = deck()
    assert len(cards) == 57 == DECK_SIZE


def test_T1_deck_has_1_to_14_in_each_colour_and_one_rook() -> None:
    cards = deck()
    counts = Counter(cards)
    assert counts[ROOK] == 1
    for colour in Colour:
        numbers = sorted(c.number for c in cards if c.colour is colour)
        assert numbers == list(range(1, 15))
    assert all(k == 1 for k in counts.values())
    assert set(COLOURS) == {Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLACK}


def test_T1_card_numbers_outside_1_to_14_are_refused() -> None:
    for number in (0, 15, -1):
        with pytest.raises(NotationError, match="1 to 14"):
            Card(Colour.RED, number)
    with pytest.raises(NotationError, match="Rook"):
        Card(None, 3)


# -- T2 the shoe ---------------------------------------------------------------------
@pytest.mark.parametrize(("players", "size"), [(3, 171), (4, 228), (5, 285)])
def test_T2_shoe_has_one_deck_per_player(players: int, size: int) -> None:
    cards = shoe(players)
    assert len(cards) == size
    counts = Counter(cards)
    assert counts[ROOK] == players
    assert all(counts[c] == players for c in NATURALS)


@pytest.mark.parametrize("players", [0, 1, 2, 6, 10, -3])
def test_T2_shoe_refuses_other_player_counts(players: int) -> None:
    with pytest.raises(RulesError) as info:
        shoe(players)
    assert info.value.rule == "T2"
    text = str(info.value)
    assert "3 to 5 players" in text
    assert str(players) in text


def test_T2_shuffled_shoe_is_the_same_cards_and_reproducible_per_seed() -> None:
    a = shuffled_shoe(4, random.Random(7))
    b = shuffled_shoe(4, random.Random(7))
    c = shuffled_shoe(4, random.Random(8))
    assert a == b
    assert a != c
    assert Counter(a) == Counter(shoe(4))
    assert a != shoe(4)


def test_T2_shuffled_shoe_refuses_two_players() -> None:
    with pytest.raises(RulesError):
        shuffled_shoe(2, random.Random(0))


# -- T3 points -----------------------------------------------------------------------
def test_T3_card_points() -> None:
    for card in NATURALS:
        assert card.points == (5 if card.number <= 9 else 10)
    assert ROOK.points == 25
    assert Card.parse("R9").points == 5
    assert Card.parse("R10").points == 10


def test_T3_worked_example_hand_scores_55() -> None:
    assert hand_points("B1 Y9 R10 G14 RK") == 55
    assert hand_points(parse_cards("B1 Y9 R10 G14 RK")) == 55


def test_T3_empty_hand_scores_0() -> None:
    assert hand_points("") == 0
    assert hand_points([]) == 0


def test_T3_whole_deck_points() -> None:
    # 4 colours x (9 x 5 + 5 x 10) + 25
    assert hand_points(deck()) == 4 * 95 + 25


# -- notation ------------------------------------------------------------------------
@given(cards_st)
def test_card_notation_round_trip(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert eval(repr(card), {"Card": Card}) == card


@given(st.lists(cards_st, max_size=20))
def test_parse_cards_round_trips_format_cards(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == tuple(cards)


def test_notation_examples() -> None:
    assert str(Card(Colour.RED, 5)) == "R5"
    assert str(Card(Colour.YELLOW, 14)) == "Y14"
    assert str(Card(Colour.GREEN, 1)) == "G1"
    assert str(Card(Colour.BLACK, 10)) == "B10"
    assert str(ROOK) == "RK"
    assert ROOK.is_rook and not Card.parse("R5").is_rook


def test_lowercase_and_spaces_are_accepted() -> None:
    assert Card.parse("r7") == Card(Colour.RED, 7)
    assert Card.parse(" b14 ") == Card(Colour.BLACK, 14)
    assert Card.parse("rk") == ROOK
    assert Card.parse("Rk") == ROOK
    assert parse_cards("r5, y6  g7,RK") == (
        Card(Colour.RED, 5), Card(Colour.YELLOW, 6), Card(Colour.GREEN, 7), ROOK)


def test_parse_cards_accepts_cards_and_strings() -> None:
    r7 = Card(Colour.RED, 7)
    assert parse_cards([r7, "RK"]) == (r7, ROOK)
    assert parse_cards("") == ()


@pytest.mark.parametrize("token", ["R15", "Q3", "R", "RK7", "R0", "X", "7R", "RR7"])
def test_bad_notation_names_the_token(token: str) -> None:
    with pytest.raises(NotationError) as info:
        Card.parse(token)
    assert f"'{token}'" in str(info.value)
    assert "not a card" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_bad_notation_inside_a_group_names_the_bad_token() -> None:
    with pytest.raises(NotationError, match="'Q3'"):
        parse_cards("R5 Q3 R7")


def test_empty_card_is_refused() -> None:
    with pytest.raises(NotationError, match="empty"):
        Card.parse("")


def test_bad_notation_messages_explain() -> None:
    with pytest.raises(NotationError, match="1 to 14"):
        Card.parse("R15")
    with pytest.raises(NotationError, match="colour letter"):
        Card.parse("Q3")


def test_card_names() -> None:
    assert Card.parse("R7").name == "Red 7"
    assert Card.parse("Y14").name == "Yellow 14"
    assert Card.parse("G1").name == "Green 1"
    assert Card.parse("B10").name == "Black 10"
    assert ROOK.name == "Rook"


def test_sort_cards_colour_then_number_rook_last() -> None:
    cards = parse_cards("RK B2 R9 R1 Y3")
    assert format_cards(sort_cards(cards)) == "R1 R9 Y3 B2 RK"


def test_identical_cards_from_different_decks_are_equal() -> None:
    assert Card.parse("R7") == Card(Colour.RED, 7)
    assert hash(Card.parse("R7")) == hash(Card(Colour.RED, 7))


@pytest.mark.parametrize(("make", "words"), [
    (lambda: Card("R", 7), "'R' is not a colour"),  # type: ignore[arg-type]
    (lambda: Card(Colour.RED, True), "True is not a card number"),
    (lambda: Card(Colour.RED, "7"), "'7' is not a card number"),  # type: ignore[arg-type]
    (lambda: Card(Colour.RED, 10**5000), "<a very long number> is not a card number"),
    (lambda: Card.parse(7), "7 is not a card: write a card as text"),  # type: ignore[arg-type]
    (lambda: parse_cards([5]), "5 is not a card"),  # type: ignore[list-item]
    (lambda: parse_cards(None), "None is not a group of cards"),  # type: ignore[arg-type]
    (lambda: parse_cards(7), "7 is not a group of cards"),  # type: ignore[arg-type]
])
def test_T1_values_that_are_no_card_are_refused_with_notation_error(make, words: str) -> None:
    with pytest.raises(NotationError) as info:
        make()
    assert words in str(info.value) and info.value.rule == "T1"


@pytest.mark.parametrize("players", ["4", 4.0, None, True])
def test_T2_a_shoe_for_players_that_are_no_number_is_refused(players: object) -> None:
    with pytest.raises(RulesError, match="3 to 5 players"):
        shoe(players)  # type: ignore[arg-type]
