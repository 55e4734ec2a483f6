"""Which melds make a round's contract (T15, H7, H8)."""

from __future__ import annotations

import pytest

from toonerville.engine.errors import InvalidMeldError, RulesError
from toonerville.engine.laydown import as_melds, check_lay_down, describe_melds, touching
from toonerville.engine.melds import Meld, Verdict
from toonerville.engine.rules import Contract, Rules, contract_for


def lay_down(*melds: str, round_number: int, rules: Rules | None = None) -> Verdict:
    return check_lay_down(as_melds(melds), contract_for(round_number), rules, round_number)


def refused(verdict: Verdict, rule: str, *words: str) -> None:
    assert not verdict
    assert verdict.rule == rule
    assert str(verdict).endswith(f"({rule})")
    for word in words:
        assert word in str(verdict), (word, str(verdict))


# -- H8 runs of one colour -----------------------------------------------------------
def test_H8_contiguous_runs_are_refused() -> None:
    v = lay_down("R3 R4 R5 R6", "R7 R8 R9 R10", round_number=3)
    refused(v, "H8", "R3 R4 R5 R6", "R7 R8 R9 R10", "touch end to end", "one run")


def test_H8_contiguous_runs_in_either_order_are_refused() -> None:
    refused(lay_down("R7 R8 R9 R10", "R3 R4 R5 R6", round_number=3), "H8")


def test_H8_overlapping_runs_are_accepted() -> None:
    v = lay_down("R3 R4 R5 R6", "R5 R6 R7 R8", round_number=3)
    assert v
    assert v.rule == "T15"
    assert "2 runs" in str(v)
    assert v.meld is None


def test_H8_identical_runs_are_accepted() -> None:
    assert lay_down("R3 R4 R5 R6", "R3 R4 R5 R6", round_number=3)


def test_H8_runs_with_a_gap_are_accepted() -> None:
    assert lay_down("R3 R4 R5 R6", "R8 R9 R10 R11", round_number=3)


def test_H8_touching_runs_of_different_colours_are_accepted() -> None:
    assert lay_down("R3 R4 R5 R6", "Y7 Y8 Y9 Y10", round_number=3)


def test_H8_contiguous_runs_with_rooks_at_the_joint_are_refused() -> None:
    refused(lay_down("R3 R4 R5 RK=R6", "RK=R7 R8 R9 R10", round_number=3), "H8")


def test_H8_contiguous_runs_allowed_by_the_switch() -> None:
    rules = Rules(contiguous_runs=True)
    assert lay_down("R3 R4 R5 R6", "R7 R8 R9 R10", round_number=3, rules=rules)


def test_H8_touching() -> None:
    a, b = Meld.parse("R3 R4 R5 R6"), Meld.parse("R7 R8 R9 R10")
    assert touching(a, b) and touching(b, a)
    assert not touching(a, Meld.parse("R8 R9 R10 R11"))
    assert not touching(a, Meld.parse("Y7 Y8 Y9 Y10"))
    assert not touching(Meld.parse("Y7 R7 G7"), Meld.parse("Y8 R8 G8"))


# -- H8 sets of one number -----------------------------------------------------------
def test_H8_two_sets_of_the_same_number_are_refused() -> None:
    refused(lay_down("Y7 R7 G7", "B7 R7 RK", round_number=1), "H8", "7s", "one set")


def test_H8_two_sets_of_the_same_number_allowed_by_the_switch() -> None:
    rules = Rules(same_number_sets=True)
    assert lay_down("Y7 R7 G7", "B7 R7 RK", round_number=1, rules=rules)


def test_H8_two_sets_of_different_numbers_are_accepted() -> None:
    assert lay_down("Y7 R7 G7", "B8 R8 RK", round_number=1)


# -- H7 beyond the contract ----------------------------------------------------------
def test_H7_extra_melds_are_refused_by_default() -> None:
    v = lay_down("Y7 R7 G7", "B8 R8 RK", "Y9 R9 G9", round_number=1)
    refused(v, "H7", "round 1's contract is 2 sets", "3 sets", "exactly")


def test_H7_extra_run_is_refused_by_default() -> None:
    refused(lay_down("Y7 R7 G7", "B8 R8 RK", "R1 R2 R3 R4", round_number=1), "H7",
            "2 sets", "1 run + 2 sets")


def test_H7_extra_melds_allowed_by_the_switch() -> None:
    rules = Rules(extra_melds=True)
    assert lay_down("Y7 R7 G7", "B8 R8 RK", "Y9 R9 G9", round_number=1, rules=rules)
    assert lay_down("Y7 R7 G7", "B8 R8 RK", "R1 R2 R3 R4", round_number=1, rules=rules)


def test_H7_longer_melds_are_fine() -> None:
    assert lay_down("Y7 R7 G7 B7 RK", "R1 R2 R3 R4 R5 R6 R7", round_number=2)


# -- T15 the contract ----------------------------------------------------------------
def test_T15_too_few_melds_are_refused() -> None:
    v = lay_down("R3 R4 R5 R6", round_number=3)
    refused(v, "T15", "round 3's contract is 2 runs", "only 1 run")


def test_T15_wrong_kind_of_melds_are_refused() -> None:
    refused(lay_down("Y7 R7 G7", "B8 R8 RK", round_number=3), "T15", "2 runs", "2 sets")
    refused(lay_down("R3 R4 R5 R6", "R5 R6 R7 R8", round_number=2), "T15", "1 run + 1 set")


def test_T15_nothing_is_not_a_lay_down() -> None:
    refused(check_lay_down((), contract_for(1)), "T15", "the contract is 2 sets", "no melds")


def test_T15_exact_contract_for_every_round() -> None:
    runs = ["R1 R2 R3 R4", "Y1 Y2 Y3 Y4", "G1 G2 G3 G4", "B1 B2 B3 B4"]
    sets = ["R5 Y5 G5", "R6 Y6 G6", "R7 Y7 G7", "R8 Y8 G8", "R9 Y9 G9"]
    for round_number in range(1, 12):
        contract = contract_for(round_number)
        melds = runs[:contract.runs] + sets[:contract.sets]
        v = lay_down(*melds, round_number=round_number)
        assert v, (round_number, str(v))
        assert str(contract) in str(v)


def test_describe_melds() -> None:
    melds = as_melds(["R1 R2 R3 R4", "R5 Y5 G5", "R6 Y6 G6"])
    assert describe_melds(melds) == "1 run + 2 sets"
    assert describe_melds(()) == "no melds"


def test_as_melds_refuses_an_invalid_meld_with_its_reason() -> None:
    with pytest.raises(InvalidMeldError) as info:
        as_melds(["R1 R2 R3 R4", "B13 B14 B1 B2"])
    assert info.value.rule == "T4"


def test_as_melds_keeps_meld_objects() -> None:
    m = Meld.parse("R1 R2 R3 R4")
    assert as_melds([m, "R5 Y5 G5"])[0] is m


def test_lay_down_without_round_number_says_the_contract() -> None:
    v = check_lay_down(as_melds(["R1 R2 R3 R4"]), Contract(2, 0))
    refused(v, "T15", "the contract is 2 runs")


@pytest.mark.parametrize(("args", "error"), [
    ((["R1 R2 R3 R4"], "2 runs"), RulesError),  # a contract that is no Contract
    ((["R1 R2 R3 R4"], Contract(1, 0), 3), RulesError),  # rules that are no Rules
    ((["R1 R2 R3 R4"], Contract(1, 0), None, "x"), RulesError),  # no round
    ((["R1 R2 R3 R4"], Contract(1, 0), None, True), RulesError),
    ((5, Contract(1, 0)), InvalidMeldError),  # melds that are no group of melds
])
def test_T15_check_lay_down_refuses_values_of_the_wrong_kind(args: tuple[object, ...],
                                                             error: type) -> None:
    with pytest.raises(error) as refused:
        check_lay_down(*args)  # type: ignore[arg-type]
    assert str(refused.value)
