"""Runs, sets, the Rook, laying off and the Rook swap (T4–T6, T18, T19, H1, H9)."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toonerville.engine.cards import NATURALS, ROOK, Card, Colour, format_cards, parse_cards
from toonerville.engine.errors import InvalidMeldError, LayOffError, NotationError, RookSwapError
from toonerville.engine.melds import (
    Meld,
    MeldKind,
    Verdict,
    check_meld,
    check_run,
    check_set,
    is_run,
    is_set,
)
from toonerville.engine.rules import Rules


def c(text: str) -> Card:
    return Card.parse(text)


def refused(verdict: Verdict, rule: str, *words: str) -> None:
    """A falsy verdict naming `rule`, whose sentence contains every word."""
    assert not verdict
    assert verdict.meld is None
    assert verdict.rule == rule
    text = str(verdict)
    assert text.endswith(f"({rule})")
    for word in words:
        assert word in text, (word, text)


# -- T4 runs -------------------------------------------------------------------------
def test_T4_run_worked_example() -> None:
    v = is_run("B11 B12 B13 B14")
    assert v
    assert v.rule == "T4"
    assert "a run" in str(v)
    m = v.meld
    assert m is not None
    assert m.kind is MeldKind.RUN and m.is_run
    assert m.colour is Colour.BLACK
    assert (m.low, m.high) == (11, 14)
    assert format_cards(m.cards) == "B11 B12 B13 B14"


def test_T4_wrapped_run_is_refused_with_sentence() -> None:
    refused(is_run("B13 B14 B1 B2"), "T4", "wraps past 14", "B13 B14 B1 B2")


def test_T4_run_cards_may_come_in_any_order() -> None:
    v = check_run("R8 R6 R5 R7")
    assert v
    assert v.meld == Meld.parse("R5 R6 R7 R8")
    assert format_cards(v.meld.cards) == "R5 R6 R7 R8"


def test_T4_run_may_be_longer_than_four() -> None:
    v = check_run(" ".join(f"G{n}" for n in range(1, 15)))
    assert v
    assert v.meld is not None and len(v.meld.cards) == 14


def test_T4_run_needs_four_cards() -> None:
    refused(check_run("R5 R6 R7"), "T4", "at least 4 cards", "has 3")
    refused(check_run(""), "T4", "at least 4 cards", "has 0")


def test_T4_run_is_one_colour() -> None:
    refused(check_run("R5 R6 Y7 R8"), "T4", "one colour", "Red", "Yellow")


def test_T4_run_has_each_number_once() -> None:
    refused(check_run("R5 R6 R6 R7"), "T4", "R6", "twice")


def test_T4_run_gap_without_rook() -> None:
    refused(check_run("R5 R6 R8 R9"), "T4", "R5", "R9", "1 numbers are missing", "no Rook")


def test_T4_run_gap_too_wide_for_the_rooks() -> None:
    refused(check_run("R1 R5 R6 RK"), "T4", "only one Rook")
    refused(check_run("R1 R7 R8 RK RK"), "T4", "only 2 Rooks")


def test_T4_wrap_with_a_rook_is_refused_as_a_wrap() -> None:
    refused(check_run("Y13 Y14 Y1 RK"), "T4", "wraps past 14")


# -- T5 sets -------------------------------------------------------------------------
def test_T5_set_with_duplicates() -> None:
    v = is_set("Y7 R7 R7")
    assert v
    assert v.rule == "T5"
    m = v.meld
    assert m is not None and m.kind is MeldKind.SET and not m.is_run
    assert m.number == 7
    assert format_cards(m.cards) == "Y7 R7 R7"


def test_T5_set_with_rook_worked_example() -> None:
    v = is_set("Y7 R7 RK")
    assert v
    assert v.meld is not None and v.meld.rooks == 1 and v.meld.naturals == 2


def test_T5_set_needs_three_cards() -> None:
    refused(check_set("Y7 R7"), "T5", "at least 3 cards", "has 2")


def test_T5_set_is_one_number() -> None:
    refused(check_set("Y7 R7 R8"), "T5", "one number", "7 and 8")


def test_T5_set_with_declared_rook_of_another_number_is_refused() -> None:
    refused(check_set("Y7 R7 RK=R8"), "T6", "Rook", "R8", "7s")


def test_T5_a_run_is_not_a_set_and_a_set_is_not_a_run() -> None:
    assert not check_set("R5 R6 R7 R8")
    assert not check_run("R7 Y7 G7 B7")


# -- T6 the Rook ---------------------------------------------------------------------
def test_T6_rook_below_a_run_topped_by_14_can_only_be_11() -> None:
    v = check_run("G12 G13 G14 RK")
    assert v
    m = v.meld
    assert m is not None
    assert str(m) == "RK=G11 G12 G13 G14"
    assert m.rook_positions() == (c("G11"),)
    assert "G15" not in str(v)


def test_T6_ambiguous_rook_defaults_to_the_top_and_mentions_the_bottom() -> None:
    v = check_run("R5 R6 R7 RK")
    assert v
    assert v.rule == "T6"
    assert v.meld is not None
    assert v.meld.rook_positions() == (c("R8"),)
    assert str(v.meld) == "R5 R6 R7 RK=R8"
    assert "R4" in str(v)
    assert "RK=R4" in str(v)


def test_T6_declared_rook_takes_the_declared_place() -> None:
    v = check_run("R5 R6 R7 RK=R4")
    assert v
    assert v.meld is not None
    assert v.meld.rook_positions() == (c("R4"),)
    assert str(v.meld) == "RK=R4 R5 R6 R7"
    assert (v.meld.low, v.meld.high) == (4, 7)


def test_T6_rook_fills_a_gap() -> None:
    v = check_run("R5 RK R7 R8")
    assert v and v.meld is not None
    assert v.meld.rook_positions() == (c("R6"),)


def test_T6_rook_declared_in_another_colour_is_refused() -> None:
    refused(check_run("R5 R6 R7 RK=B8"), "T6", "B8", "Red")


def test_T6_rook_declared_on_a_natural_is_refused() -> None:
    refused(check_run("R5 R6 R7 RK=R7"), "T4", "R7", "twice")


def test_T6_declaring_a_natural_is_bad_notation() -> None:
    with pytest.raises(NotationError, match="only the Rook"):
        check_run("R5 R6 R7 R8=R9")
    with pytest.raises(NotationError, match="RK=R8"):
        check_run("R5 R6 R7 RK=")
    with pytest.raises(NotationError, match="RK=RK"):
        check_run("R5 R6 R7 RK=RK")


# -- H1 Rooks per meld ---------------------------------------------------------------
def test_H1_only_rooks_is_not_a_meld() -> None:
    refused(check_meld("RK RK RK"), "H1", "natural card")
    refused(check_set("RK RK RK"), "H1", "natural card")
    refused(check_run("RK RK RK RK"), "H1", "natural card")
    with pytest.raises(InvalidMeldError) as info:
        Meld.parse("RK RK RK")
    assert info.value.rule == "H1"


def test_H1_any_number_of_rooks_by_default() -> None:
    assert check_set("Y7 RK RK RK")
    assert check_run("R5 RK RK RK RK")


def test_H1_max_rooks_per_meld_switch() -> None:
    rules = Rules(max_rooks_per_meld=1)
    assert check_set("Y7 R7 RK", rules)
    refused(check_set("Y7 RK RK", rules), "H1", "at most 1 Rooks", "has 2")
    refused(check_run("R5 R6 RK RK", rules), "H1", "at most 1")
    refused(check_set("Y7 R7 RK", Rules(max_rooks_per_meld=0)), "H1", "at most 0")


def test_H1_rooks_at_most_naturals_switch() -> None:
    rules = Rules(rooks_at_most_naturals=True)
    assert check_set("Y7 R7 RK RK", rules)
    refused(check_set("Y7 RK RK", rules), "H1", "more Rooks (2)", "natural cards (1)")
    assert check_run("R5 R6 RK RK", rules)
    refused(check_run("R5 RK RK RK", rules), "H1", "more Rooks")


# -- check_meld ----------------------------------------------------------------------
def test_check_meld_picks_set_or_run() -> None:
    assert check_meld("Y7 R7 RK").meld == Meld.parse("Y7 R7 RK")
    assert check_meld("Y7 R7 RK").meld.kind is MeldKind.SET  # type: ignore[union-attr]
    assert check_meld("R5 R6 R7 RK").meld.kind is MeldKind.RUN  # type: ignore[union-attr]
    assert check_meld("R5 RK=R6 RK=R7 RK=R8").meld.kind is MeldKind.RUN  # type: ignore[union-attr]


def test_meld_parse_refuses_with_the_verdict_reason() -> None:
    with pytest.raises(InvalidMeldError) as info:
        Meld.parse("B13 B14 B1 B2")
    assert info.value.rule == "T4"
    assert "wraps past 14" in str(info.value)


def test_meld_describe_and_points() -> None:
    assert Meld.parse("R5 R6 R7 RK").describe() == "a run of Red 5–8"
    assert Meld.parse("Y7 R7 RK").describe() == "a set of 7s"
    assert Meld.parse("Y7 R7 RK").points == 35
    assert repr(Meld.parse("R5 R6 R7 RK")) == "Meld.parse('R5 R6 R7 RK=R8')"
    assert eval(repr(Meld.parse("R5 R6 R7 RK")), {"Meld": Meld}) == Meld.parse("R5 R6 R7 RK=R8")


# -- H9 laying off -------------------------------------------------------------------
def test_H9_lay_off_onto_a_run_at_both_ends() -> None:
    m = Meld.parse("R5 R6 R7 R8")
    low = m.lay_off(c("R4"))
    assert str(low) == "R4 R5 R6 R7 R8" and low.low == 4
    high = m.lay_off(c("R9"))
    assert str(high) == "R5 R6 R7 R8 R9" and high.high == 9
    assert m == Meld.parse("R5 R6 R7 R8")  # unchanged


def test_H9_lay_off_onto_a_run_that_does_not_fit() -> None:
    m = Meld.parse("R5 R6 R7 R8")
    for card in ("R10", "R3", "Y9", "R6"):
        with pytest.raises(LayOffError) as info:
            m.lay_off(c(card))
        assert info.value.rule == "T4"
        assert "R4 or R9" in str(info.value)


def test_H9_lay_off_onto_a_set() -> None:
    m = Meld.parse("Y7 R7 RK")
    assert str(m.lay_off(c("G7"))) == "Y7 R7 RK G7"
    assert str(m.lay_off(c("R7"))) == "Y7 R7 RK R7"
    assert str(m.lay_off(ROOK)) == "Y7 R7 RK RK"
    with pytest.raises(LayOffError) as info:
        m.lay_off(c("G8"))
    assert info.value.rule == "T5"
    assert "G8" in str(info.value) and "one number" in str(info.value)


def test_H9_rook_onto_a_set_declared_as_another_number_is_refused() -> None:
    with pytest.raises(LayOffError) as info:
        Meld.parse("Y7 R7 G7").lay_off(ROOK, c("R8"))
    assert info.value.rule == "T6"


def test_H9_rook_onto_a_run_with_one_open_end_needs_no_declaration() -> None:
    m = Meld.parse("R11 R12 R13 R14").lay_off(ROOK)
    assert str(m) == "RK=R10 R11 R12 R13 R14"
    m = Meld.parse("B1 B2 B3 B4").lay_off(ROOK)
    assert str(m) == "B1 B2 B3 B4 RK=B5"


def test_H9_rook_declared_at_an_end() -> None:
    m = Meld.parse("R5 R6 R7 R8")
    assert str(m.lay_off(ROOK, c("R4"))) == "RK=R4 R5 R6 R7 R8"
    assert str(m.lay_off(ROOK, c("R9"))) == "R5 R6 R7 R8 RK=R9"
    with pytest.raises(LayOffError) as info:
        m.lay_off(ROOK, c("R11"))
    assert info.value.rule == "T4"


def test_H9_rook_needs_a_declaration_when_both_ends_are_open() -> None:
    with pytest.raises(LayOffError) as info:
        Meld.parse("R5 R6 R7 R8").lay_off(ROOK)
    assert info.value.rule == "H9"
    assert "R4 or R9" in str(info.value)
    assert "say which card" in str(info.value)


def test_H9_natural_card_cannot_be_declared_as_another() -> None:
    with pytest.raises(LayOffError) as info:
        Meld.parse("R5 R6 R7 R8").lay_off(c("R9"), c("R4"))
    assert info.value.rule == "T6"


def test_T4_full_run_1_to_14_refuses_lay_off() -> None:
    full = Meld.parse(" ".join(f"Y{n}" for n in range(1, 15)))
    for card in (ROOK, c("Y7"), c("R1")):
        with pytest.raises(LayOffError) as info:
            full.lay_off(card)
        assert info.value.rule == "T4"
        assert "1 to 14" in str(info.value)


def test_H1_lay_off_rook_respects_the_house_rule() -> None:
    rules = Rules(max_rooks_per_meld=1)
    with pytest.raises(LayOffError) as info:
        Meld.parse("Y7 R7 RK").lay_off(ROOK, rules=rules)
    assert info.value.rule == "H1"
    assert Meld.parse("Y7 R7 G7").lay_off(ROOK, rules=rules).rooks == 1
    with pytest.raises(LayOffError):
        Meld.parse("Y7 RK RK").lay_off(ROOK, rules=Rules(rooks_at_most_naturals=True))


def test_T18_natural_played_by_a_rook_points_to_the_swap() -> None:
    m = Meld.parse("R5 R6 R7 RK=R8")
    with pytest.raises(LayOffError) as info:
        m.lay_off(c("R8"))
    assert info.value.rule == "T18"
    assert "swap the Rook" in str(info.value)


# -- T18 / T19 the Rook swap ---------------------------------------------------------
def test_T18_swap_puts_the_natural_in_the_rooks_place() -> None:
    m = Meld.parse("R5 R6 R7 RK")
    swapped = m.swap_rook(c("R8"))
    assert str(swapped) == "R5 R6 R7 R8"
    assert swapped.rooks == 0
    assert (swapped.low, swapped.high) == (m.low, m.high)
    inner = Meld.parse("RK=R4 R5 RK=R6 R7").swap_rook(c("R6"))
    assert str(inner) == "RK=R4 R5 R6 R7"


def test_T18_swap_refuses_the_wrong_card_with_the_right_sentence() -> None:
    m = Meld.parse("R5 R6 R7 RK")
    for wrong in ("R4", "Y8", "R5"):
        with pytest.raises(RookSwapError) as info:
            m.swap_rook(c(wrong))
        assert info.value.rule == "T18"
        text = str(info.value)
        assert "stands for R8" in text
        assert f"not {wrong}" in text


def test_T18_swap_from_a_run_without_rook_is_refused() -> None:
    with pytest.raises(RookSwapError) as info:
        Meld.parse("R5 R6 R7 R8").swap_rook(c("R8"))
    assert info.value.rule == "T18"
    assert "no Rook" in str(info.value)


def test_T19_rook_in_a_set_can_never_be_swapped() -> None:
    m = Meld.parse("G9 B9 RK")
    for natural in ("G9", "R9", "Y9"):
        with pytest.raises(RookSwapError) as info:
            m.swap_rook(c(natural))
        assert info.value.rule == "T19"
        assert "set" in str(info.value) and "never" in str(info.value)


# -- meld notation round trip --------------------------------------------------------
@st.composite
def valid_runs(draw: st.DrawFn) -> str:
    colour = draw(st.sampled_from(list(Colour)))
    length = draw(st.integers(4, 14))
    low = draw(st.integers(1, 15 - length))
    rooks = draw(st.sets(st.integers(0, length - 1), max_size=length - 1))
    tokens = [f"RK={colour.value}{low + i}" if i in rooks else f"{colour.value}{low + i}"
              for i in range(length)]
    return " ".join(draw(st.permutations(tokens)))


@st.composite
def valid_sets(draw: st.DrawFn) -> str:
    number = draw(st.integers(1, 14))
    naturals = draw(st.lists(st.sampled_from([f"{col.value}{number}" for col in Colour]),
                             min_size=1, max_size=6))
    rooks = draw(st.integers(max(0, 3 - len(naturals)), 4))
    return " ".join(draw(st.permutations(naturals + ["RK"] * rooks)))


@given(st.one_of(valid_runs(), valid_sets()))
def test_meld_notation_round_trip(text: str) -> None:
    m = Meld.parse(text)
    assert Meld.parse(str(m)) == m
    assert str(Meld.parse(str(m))) == str(m)
    assert sorted(format_cards(m.cards).split()) == sorted(
        "RK" if t.startswith("RK") else t for t in text.split())


@given(valid_runs())
def test_declared_rooks_stand_where_declared(text: str) -> None:
    m = Meld.parse(text)
    declared = sorted(t[3:] for t in text.split() if t.startswith("RK="))
    assert sorted(str(x) for x in m.rook_positions()) == declared
    for i, card in enumerate(m.cards):
        if not card.is_rook:
            assert card == m.stands_for(i)


# -- brute-force properties ----------------------------------------------------------
def brute_force_run(cards: tuple[Card, ...]) -> bool:
    naturals = [x for x in cards if not x.is_rook]
    rooks = len(cards) - len(naturals)
    if len(cards) < 4 or not naturals or len({x.colour for x in naturals}) != 1:
        return False
    numbers = [x.number for x in naturals]
    for fill in itertools.product(range(1, 15), repeat=rooks):
        placed = sorted(numbers + list(fill))
        if len(set(placed)) == len(placed) and placed[-1] - placed[0] == len(placed) - 1:
            return True
    return False


def brute_force_set(cards: tuple[Card, ...]) -> bool:
    naturals = [x for x in cards if not x.is_rook]
    return len(cards) >= 3 and bool(naturals) and len({x.number for x in naturals}) == 1


@st.composite
def one_colour_groups(draw: st.DrawFn) -> tuple[Card, ...]:
    colour = draw(st.sampled_from(list(Colour)))
    size = draw(st.integers(4, 8))
    rooks = draw(st.integers(0, 2))
    # numbers drawn near each other so that runs come up often
    base = draw(st.integers(1, 14))
    numbers = draw(st.lists(st.integers(max(1, base - 4), min(14, base + 7)) | st.integers(1, 14),
                            min_size=size - rooks, max_size=size - rooks))
    cards = [Card(colour, n) for n in numbers] + [ROOK] * rooks
    return tuple(draw(st.permutations(cards)))


@settings(max_examples=300, deadline=None)
@given(one_colour_groups())
def test_check_run_agrees_with_brute_force(cards: tuple[Card, ...]) -> None:
    v = check_run(cards)
    assert bool(v) == brute_force_run(cards), (format_cards(cards), str(v))
    assert v.rule is not None and str(v)
    if v:
        m = v.meld
        assert m is not None and m.is_run
        assert sorted(map(str, m.cards)) == sorted(map(str, cards))
        assert m.low >= 1 and m.high <= 14 and m.high - m.low + 1 == len(cards)
        for i, card in enumerate(m.cards):
            if not card.is_rook:
                assert card == m.stands_for(i)
    else:
        assert v.meld is None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(NATURALS), min_size=2, max_size=8), st.integers(0, 2),
       st.randoms(use_true_random=False))
def test_check_run_agrees_with_brute_force_on_any_cards(
        naturals: list[Card], rooks: int, rng: random.Random) -> None:
    cards = naturals + [ROOK] * rooks
    rng.shuffle(cards)
    assert bool(check_run(cards)) == brute_force_run(tuple(cards)), format_cards(cards)


@st.composite
def set_like_groups(draw: st.DrawFn) -> tuple[Card, ...]:
    size = draw(st.integers(1, 8))
    rooks = draw(st.integers(0, min(2, size)))
    numbers = st.sampled_from([draw(st.integers(1, 14)), draw(st.integers(1, 14))])
    naturals = draw(st.lists(st.builds(Card, st.sampled_from(list(Colour)), numbers),
                             min_size=size - rooks, max_size=size - rooks))
    return tuple(draw(st.permutations(naturals + [ROOK] * rooks)))


@settings(max_examples=200, deadline=None)
@given(set_like_groups())
def test_check_set_agrees_with_brute_force(cards: tuple[Card, ...]) -> None:
    v = check_set(cards)
    assert bool(v) == brute_force_set(cards), (format_cards(cards), str(v))
    assert v.rule is not None and str(v)
    if v:
        assert v.meld is not None and v.meld.cards == cards


def test_verdict_accepts_cards_as_well_as_notation() -> None:
    assert check_run(parse_cards("R5 R6 R7 RK")).meld == check_run("R5 R6 R7 RK").meld
    assert is_set(parse_cards("Y7 R7 RK"))


@pytest.mark.parametrize(("cards", "words"), [
    ([5], "5 is not a card"), (["R1", None, "R3"], "None is not a card"),
    (None, "None is not a group of cards"), (12, "12 is not a group of cards"),
])
def test_a_meld_of_values_that_are_no_cards_is_refused_with_notation_error(
        cards: object, words: str) -> None:
    with pytest.raises(NotationError) as info:
        check_meld(cards)  # type: ignore[arg-type]
    assert words in str(info.value)
