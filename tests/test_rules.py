"""The rules configuration and the round table (T7, T17, H1–H10)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toonerville.engine.errors import RulesError
from toonerville.engine.rules import (
    ROUND_TABLE,
    ROUNDS,
    Contract,
    Restock,
    RookTurnUp,
    Rules,
    contract_for,
)

RULES_NAMESPACE: dict[str, object] = {}
exec("from toonerville.engine.rules import *", RULES_NAMESPACE)


# -- defaults ------------------------------------------------------------------------
def test_defaults_match_the_rulebook_field_by_field() -> None:
    r = Rules()
    # H1 any number of Rooks, every meld needs a natural card
    assert r.max_rooks_per_meld is None
    assert r.rooks_at_most_naturals is False
    # H2 first dealer drawn at random
    assert r.first_dealer is None
    # H3 a turned-up Rook is buried
    assert r.rook_turn_up is RookTurnUp.BURY
    # H4 round 11 deals 14
    assert r.round11_deal == 14
    # H5 no buy limit, down players may buy, one penalty card
    assert r.max_buys_per_round is None
    assert r.down_players_may_buy is True
    assert r.penalty_cards == 1
    # H6 shuffle the discard pile
    assert r.restock is Restock.SHUFFLE
    # H7 no extra melds
    assert r.extra_melds is False
    # H8 no contiguous runs, no two sets of one number
    assert r.contiguous_runs is False
    assert r.same_number_sets is False
    # H9 lay off the same turn, onto anyone's melds
    assert r.lay_off_same_turn is True
    assert r.lay_off_on_others is True
    # H10 anyone may swap, on their own turn, down or not
    assert r.rook_swap is True
    assert r.swap_only_when_down is False


def test_defaults_have_no_changes_and_a_bare_repr() -> None:
    assert Rules().changes() == {}
    assert repr(Rules()) == "Rules()"


def test_H1_rooks_allowed() -> None:
    assert Rules().rooks_allowed(0) == 0
    assert Rules().rooks_allowed(1) >= 13
    assert Rules(max_rooks_per_meld=1).rooks_allowed(3) == 1
    assert Rules(rooks_at_most_naturals=True).rooks_allowed(2) == 2
    assert Rules(max_rooks_per_meld=1, rooks_at_most_naturals=True).rooks_allowed(3) == 1
    assert Rules(max_rooks_per_meld=5, rooks_at_most_naturals=True).rooks_allowed(2) == 2


# -- impossible settings -------------------------------------------------------------
@pytest.mark.parametrize(
    ("changes", "rule", "words"),
    [
        ({"max_rooks_per_meld": -1}, "H1", "max_rooks_per_meld"),
        ({"max_rooks_per_meld": "two"}, "H1", "max_rooks_per_meld"),
        ({"first_dealer": 5}, "H2", "first_dealer"),
        ({"first_dealer": -1}, "H2", "first_dealer"),
        ({"round11_deal": 13}, "H4", "13"),
        ({"round11_deal": 15}, "H4", "15"),
        ({"max_buys_per_round": -2}, "H5", "max_buys_per_round"),
        ({"penalty_cards": -1}, "H5", "-1"),
        ({"penalty_cards": 4}, "H5", "4"),
    ],
)
def test_impossible_settings_are_refused_naming_the_rule(
        changes: dict[str, object], rule: str, words: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules(**changes)  # type: ignore[arg-type]
    assert info.value.rule == rule
    assert words in str(info.value)
    assert f"({rule})" in str(info.value)


def test_H4_deal_13_is_refused() -> None:
    with pytest.raises(RulesError, match="14 or 12"):
        Rules(round11_deal=13)


def test_H5_negative_penalty_is_refused() -> None:
    with pytest.raises(RulesError, match="penalty_cards"):
        Rules(penalty_cards=-1)


def test_H1_negative_limit_is_refused_by_replace_too() -> None:
    with pytest.raises(RulesError) as info:
        Rules().replace(max_rooks_per_meld=-1)
    assert info.value.rule == "H1"


@pytest.mark.parametrize(
    ("changes", "rule", "words"),
    [
        ({"rook_turn_up": "sideways"}, "H3", "rook_turn_up"),
        ({"restock": "burn"}, "H6", "restock"),
        ({"restock": 3}, "H6", "restock"),
    ],
)
def test_bad_enum_strings_are_refused_naming_the_rule(
        changes: dict[str, object], rule: str, words: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules(**changes)  # type: ignore[arg-type]
    text = str(info.value)
    assert words in text
    assert "must be one of" in text
    assert info.value.rule == rule


#: The rulebook id behind each on/off switch, read from RULES.md.
BOOL_SWITCHES = {
    "rooks_at_most_naturals": "H1", "down_players_may_buy": "H5", "extra_melds": "H7",
    "contiguous_runs": "H8", "same_number_sets": "H8", "lay_off_same_turn": "H9",
    "lay_off_on_others": "H9", "rook_swap": "H10", "swap_only_when_down": "H10",
}


@pytest.mark.parametrize("field", sorted(BOOL_SWITCHES))
@pytest.mark.parametrize("value", [1, 0, "yes", None])
def test_non_bool_switches_are_refused_naming_the_rule(field: str, value: object) -> None:
    with pytest.raises(RulesError) as info:
        Rules(**{field: value})  # type: ignore[arg-type]
    assert field in str(info.value)
    assert "True or False" in str(info.value)
    assert info.value.rule == BOOL_SWITCHES[field]


def test_every_bool_field_is_a_known_switch() -> None:
    bools = {k for k, v in Rules().to_dict().items() if isinstance(v, bool)}
    assert bools == set(BOOL_SWITCHES)


def test_enum_strings_are_accepted_and_converted() -> None:
    r = Rules(rook_turn_up="stays", restock="turn_over")  # type: ignore[arg-type]
    assert r.rook_turn_up is RookTurnUp.STAYS
    assert r.restock is Restock.TURN_OVER
    assert r == Rules(rook_turn_up=RookTurnUp.STAYS, restock=Restock.TURN_OVER)


def test_unknown_house_rule_is_refused_by_from_dict() -> None:
    with pytest.raises(RulesError, match="unknown house rule: jokers"):
        Rules.from_dict({"jokers": True})


# -- T7 the round table --------------------------------------------------------------
EXPECTED_TABLE = [
    (1, 12, 0, 2), (2, 12, 1, 1), (3, 12, 2, 0), (4, 12, 0, 3), (5, 12, 1, 2),
    (6, 12, 2, 1), (7, 12, 0, 4), (8, 12, 3, 0), (9, 15, 0, 5), (10, 16, 4, 0),
    (11, 14, 2, 2),
]


def test_T7_game_has_11_rounds() -> None:
    assert ROUNDS == 11
    assert len(ROUND_TABLE) == 11


@pytest.mark.parametrize(("round_number", "deal", "runs", "sets"), EXPECTED_TABLE)
def test_T7_round_table(round_number: int, deal: int, runs: int, sets: int) -> None:
    assert Rules().deal_size(round_number) == deal
    assert contract_for(round_number) == Contract(runs, sets)
    assert Rules().contract(round_number) == Contract(runs, sets)
    assert contract_for(round_number).melds == runs + sets
    assert contract_for(round_number).min_cards == 4 * runs + 3 * sets


def test_T7_contract_descriptions() -> None:
    assert str(contract_for(1)) == "2 sets"
    assert str(contract_for(2)) == "1 run + 1 set"
    assert str(contract_for(6)) == "2 runs + 1 set"
    assert str(contract_for(10)) == "4 runs"


def test_H4_round_11_deal_switch_to_12() -> None:
    r = Rules(round11_deal=12)
    assert r.deal_size(11) == 12
    assert all(r.deal_size(n) == Rules().deal_size(n) for n in range(1, 11))
    assert contract_for(11) == Contract(2, 2)


@pytest.mark.parametrize("round_number", [0, 12, -1, 100])
def test_T7_rounds_outside_1_to_11_are_refused(round_number: int) -> None:
    for call in (contract_for, Rules().deal_size, Rules().may_go_out_by_discard):
        with pytest.raises(RulesError) as info:
            call(round_number)
        assert info.value.rule == "T7"
        assert f"no round {round_number}" in str(info.value)


def test_T17_no_going_out_by_discard_in_round_11() -> None:
    r = Rules()
    assert not r.may_go_out_by_discard(11)
    assert all(r.may_go_out_by_discard(n) for n in range(1, 11))


# -- notation ------------------------------------------------------------------------
valid_rules = st.builds(
    Rules,
    max_rooks_per_meld=st.none() | st.integers(0, 6),
    rooks_at_most_naturals=st.booleans(),
    first_dealer=st.none() | st.integers(0, 4),
    rook_turn_up=st.sampled_from(RookTurnUp),
    round11_deal=st.sampled_from([12, 14]),
    max_buys_per_round=st.none() | st.integers(0, 10),
    down_players_may_buy=st.booleans(),
    penalty_cards=st.integers(0, 3),
    restock=st.sampled_from(Restock),
    extra_melds=st.booleans(),
    contiguous_runs=st.booleans(),
    same_number_sets=st.booleans(),
    lay_off_same_turn=st.booleans(),
    lay_off_on_others=st.booleans(),
    rook_swap=st.booleans(),
    swap_only_when_down=st.booleans(),
)


@given(valid_rules)
def test_rules_dict_round_trip(r: Rules) -> None:
    data = r.to_dict()
    assert Rules.from_dict(data) == r
    assert all(not hasattr(v, "value") for v in data.values())  # plain JSON values


@given(valid_rules)
def test_rules_repr_is_pasteable(r: Rules) -> None:
    assert eval(repr(r), dict(RULES_NAMESPACE)) == r


@given(valid_rules)
def test_changes_are_exactly_the_non_default_switches(r: Rules) -> None:
    changes = r.changes()
    assert Rules(**changes) == r
    default = Rules().to_dict()
    assert changes == {k: v for k, v in r.to_dict().items() if v != default[k]}


def test_changes_example() -> None:
    r = Rules(penalty_cards=2, rook_turn_up=RookTurnUp.STAYS, extra_melds=True)
    assert r.changes() == {"penalty_cards": 2, "rook_turn_up": "stays", "extra_melds": True}
    assert r.replace(penalty_cards=1).changes() == {"rook_turn_up": "stays",
                                                    "extra_melds": True}


def test_rules_are_frozen_values() -> None:
    r = Rules()
    with pytest.raises(AttributeError):
        r.extra_melds = True  # type: ignore[misc]
    assert hash(r) == hash(Rules())
    assert Rules(extra_melds=True) != r
