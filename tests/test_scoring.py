"""Round scores, totals, places with ties, tournaments (T20–T22)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toonerville.engine.cards import parse_cards
from toonerville.engine.errors import RulesError
from toonerville.engine.scoring import (
    MasterSheet,
    Standing,
    place_label,
    places,
    round_scores,
    standings,
    totals,
)
from toonerville.engine.seating import seat_tables


def names(n: int) -> list[str]:
    return [f"P{i:02d}" for i in range(n)]


# -- T20 round scores ----------------------------------------------------------------
def test_T20_player_who_went_out_scores_0() -> None:
    hands = [parse_cards("B1 Y9 R10 G14 RK"), parse_cards(""), parse_cards("R5 RK")]
    assert round_scores(hands, went_out=1) == (55, 0, 30)


def test_T20_went_out_scores_0_even_with_cards_listed() -> None:
    hands = [parse_cards("R5"), parse_cards("RK RK")]
    assert round_scores(hands, went_out=1) == (5, 0)


def test_T20_nobody_went_out_everyone_scores_their_hand() -> None:
    hands = [parse_cards("R5 R10"), parse_cards("RK"), parse_cards("")]
    assert round_scores(hands, went_out=None) == (15, 25, 0)


def test_totals_sum_columns() -> None:
    assert totals([(5, 0, 30), (0, 10, 25)]) == (5, 10, 55)
    assert totals([]) == ()


# -- T21 places ----------------------------------------------------------------------
def test_T21_lowest_total_wins_and_ties_share_the_place() -> None:
    assert places([10, 10, 20]) == (1, 1, 3)
    assert places([30, 10, 20]) == (3, 1, 2)
    assert places([5, 5, 5]) == (1, 1, 1)
    assert places([40, 10, 40, 0]) == (3, 2, 3, 1)


@given(st.lists(st.integers(0, 500), min_size=1, max_size=8))
def test_T21_places_property(scores: list[int]) -> None:
    ranks = places(scores)
    for score, rank in zip(scores, ranks, strict=True):
        assert rank == 1 + sum(1 for s in scores if s < score)
    assert min(ranks) == 1
    assert all((a < b) == (ra < rb) for a, ra in zip(scores, ranks, strict=True)
               for b, rb in zip(scores, ranks, strict=True))


def test_T21_standings_labels_shared_places() -> None:
    table = standings({"Cat": 20, "Ann": 10, "Bob": 10, "Dan": 35})
    assert [str(s) for s in table] == ["1= Ann 10", "1= Bob 10", "3 Cat 20", "4 Dan 35"]
    assert table[0] == Standing("Ann", 10, 1, True)
    assert table[2].shared is False
    assert place_label(1, True) == "1="
    assert place_label(3, False) == "3"


# -- T22 tournaments -----------------------------------------------------------------
@pytest.mark.parametrize(("players", "sizes"),
                         [(3, [3]), (5, [5]), (6, [3, 3]), (7, [4, 3]), (10, [5, 5]),
                          (11, [4, 4, 3]), (13, [5, 4, 4]), (16, [4, 4, 4, 4])])
def test_T22_seat_tables_split_into_tables_of_3_to_5(players: int, sizes: list[int]) -> None:
    tables = seat_tables(names(players), round_number=1, seed=42)
    assert sorted((len(t) for t in tables), reverse=True) == sizes
    seated = Counter(p for t in tables for p in t)
    assert seated == Counter(names(players))


@given(st.integers(3, 40), st.integers(1, 11), st.integers(0, 10**6))
def test_T22_everyone_seated_once_at_tables_of_3_to_5(players: int, round_number: int,
                                                      seed: int) -> None:
    tables = seat_tables(names(players), round_number, seed)
    assert all(3 <= len(t) <= 5 for t in tables)
    assert sorted(p for t in tables for p in t) == names(players)


def test_T22_seating_is_reproducible_per_seed() -> None:
    assert seat_tables(names(13), 4, seed=7) == seat_tables(names(13), 4, seed=7)
    assert seat_tables(names(13), 4, seed=7) != seat_tables(names(13), 4, seed=8)


def test_T22_players_change_tables_between_rounds() -> None:
    rounds = [seat_tables(names(13), r, seed=7) for r in range(1, 12)]
    assert len(set(rounds)) == 11


def test_T22_fewer_than_3_players_are_refused() -> None:
    for n in (0, 1, 2):
        with pytest.raises(RulesError) as info:
            seat_tables(names(n), 1, seed=0)
        assert info.value.rule == "T22"
        assert "at least 3 players" in str(info.value)


def test_T22_master_sheet_records_rounds_and_ranks_everyone() -> None:
    players = names(7)
    sheet = MasterSheet(tuple(players))
    for round_number in (1, 2):
        for table in seat_tables(players, round_number, seed=1):
            sheet.record(round_number, {p: 5 * int(p[1:]) for p in table})
    ranking = sheet.standings()
    assert [s.name for s in ranking] == players
    assert [s.total for s in ranking] == [10 * i for i in range(7)]
    assert [s.place for s in ranking] == list(range(1, 8))
    assert sheet.rows["P03"] == [15, 15]


def test_T22_master_sheet_shares_places() -> None:
    sheet = MasterSheet(("Ann", "Bob", "Cat"))
    sheet.record(1, {"Ann": 10, "Bob": 10, "Cat": 0})
    assert [str(s) for s in sheet.standings()] == ["1 Cat 0", "2= Ann 10", "2= Bob 10"]


def test_T22_master_sheet_refuses_duplicate_names() -> None:
    with pytest.raises(RulesError) as info:
        MasterSheet(("Ann", "Bob", "Ann"))
    assert info.value.rule == "T22"
    assert "different name" in str(info.value)


def test_T22_master_sheet_refuses_double_recording_and_changes_nothing() -> None:
    sheet = MasterSheet(("Ann", "Bob", "Cat"))
    sheet.record(1, {"Ann": 10})
    with pytest.raises(RulesError) as info:
        sheet.record(1, {"Bob": 5, "Ann": 20})
    assert info.value.rule == "T22"
    assert "Ann" in str(info.value) and "round 1" in str(info.value)
    assert sheet.rows == {"Ann": [10], "Bob": [], "Cat": []}


def test_T22_master_sheet_refuses_a_skipped_round() -> None:
    sheet = MasterSheet(("Ann", "Bob", "Cat"))
    with pytest.raises(RulesError):
        sheet.record(2, {"Ann": 10})
    assert sheet.rows["Ann"] == []


def test_T22_master_sheet_refuses_strangers() -> None:
    sheet = MasterSheet(("Ann", "Bob", "Cat"))
    with pytest.raises(RulesError, match="Zed is not in this tournament"):
        sheet.record(1, {"Ann": 5, "Zed": 10})
    assert sheet.rows["Ann"] == []
