"""Tournaments without a database (T22, H11): the seating schedule and its bound, STAY
and STANDING, dealers, the one-round table game, the tournament value, the master sheet."""

from __future__ import annotations

import math
import random
from collections import Counter
from itertools import combinations

import pytest

from toonerville import Game, Phase, Rules, RulesError, Seating
from toonerville.engine.cards import shoe
from toonerville.engine.rules import RookTurnUp
from toonerville.engine.seating import meetings, seat_tables, spread_schedule
from toonerville.engine.tournament import (
    Tournament,
    dealer_for,
    master_sheet,
    seat_round,
    sheet_cell,
    sheet_csv,
    table_game,
    table_sizes,
)
from toonerville.players.bots import HeuristicBot


def names(n: int) -> list[str]:
    return [f"P{i:02d}" for i in range(n)]


def bound(n: int, schedule: tuple[tuple[tuple[str, ...], ...], ...]) -> int:
    """The guarantee: no pair meets more than ceil(mean) + 1 times."""
    mean = sum(meetings(schedule).values()) / math.comb(n, 2)
    return math.ceil(mean) + 1


# -- seating -------------------------------------------------------------------------------
@pytest.mark.parametrize("n", range(12, 31))
def test_H11_spread_schedule_meets_its_bound_over_11_rounds(n: int) -> None:
    for seed in (0, 1):
        schedule = spread_schedule(names(n), 11, seed)
        assert len(schedule) == 11
        for seating in schedule:
            assert Counter(p for t in seating for p in t) == Counter(names(n))
            sizes = [len(t) for t in seating]
            assert all(3 <= s <= 5 for s in sizes) and max(sizes) - min(sizes) <= 1
            assert len(seating) == -(-n // 5)
        most = max(meetings(schedule).values())
        assert most <= bound(n, schedule), (n, seed, most)


def test_H11_the_bound_is_not_free_random_tables_break_it() -> None:
    """Shuffling players at random each round breaks the same bound for most sizes, so
    the schedule's test says something."""
    broken = 0
    for n in range(12, 31):
        rng = random.Random(n)
        schedule = []
        for _ in range(11):
            order = names(n)
            rng.shuffle(order)
            sizes, start, seating = table_sizes(n), 0, []
            for size in sizes:
                seating.append(tuple(order[start:start + size]))
                start += size
            schedule.append(tuple(seating))
        broken += max(meetings(tuple(schedule)).values()) > bound(n, tuple(schedule))
    assert broken >= 10


def test_H11_spread_is_seeded() -> None:
    assert spread_schedule(names(14), 11, 5) == spread_schedule(names(14), 11, 5)
    assert spread_schedule(names(14), 11, 5) != spread_schedule(names(14), 11, 6)
    assert seat_round(names(14), 4, 5) == spread_schedule(names(14), 11, 5)[3]
    assert seat_tables(names(14), 4, 5) == seat_round(names(14), 4, 5, Seating.SPREAD)


def test_H11_stay_keeps_the_first_tables_all_game() -> None:
    first = seat_round(names(17), 1, 3, Seating.STAY)
    assert all(seat_round(names(17), r, 3, Seating.STAY) == first for r in range(2, 12))
    assert seat_round(names(17), 2, 3, Seating.SPREAD) != first


def test_H11_standing_seats_the_leaders_together() -> None:
    players = names(13)
    totals = {p: 10 * i for i, p in enumerate(players)}  # P00 leads, P12 last
    tables = seat_round(players, 5, 1, Seating.STANDING, totals)
    assert [len(t) for t in tables] == [5, 4, 4]
    assert set(tables[0]) == set(players[:5])
    assert set(tables[1]) == set(players[5:9]) and set(tables[2]) == set(players[9:])
    tied = seat_round(players, 5, 1, Seating.STANDING, dict.fromkeys(players, 0))
    assert Counter(p for t in tied for p in t) == Counter(players)
    assert seat_round(players, 1, 1, Seating.STANDING, totals) == seat_round(players, 1, 1)


def test_T22_tables_of_3_to_5_as_even_as_possible() -> None:
    assert table_sizes(3) == (3,) and table_sizes(6) == (3, 3) and table_sizes(11) == (4, 4, 3)
    assert table_sizes(30) == (5,) * 6 and table_sizes(26) == (5, 5, 4, 4, 4, 4)
    with pytest.raises(RulesError, match="at least 3 players"):
        table_sizes(2)


def test_H11_dealers_are_drawn_at_random_per_table_and_round() -> None:
    drawn = {dealer_for(7, r, t, 4) for r in range(1, 12) for t in range(1, 5)}
    assert drawn == {0, 1, 2, 3}
    assert dealer_for(7, 3, 2, 5) == dealer_for(7, 3, 2, 5)


# -- the table game --------------------------------------------------------------------------
@pytest.mark.parametrize("round_number", [1, 4, 9, 11])
def test_T22_a_table_plays_the_rounds_contract(round_number: int) -> None:
    players = ("Ann", "Bob", "Cat", "Dan")
    rules = Rules()
    earlier = [[5, 10, 0, 15]] * (round_number - 1)
    game = table_game(players, round_number, 2, rules, seed=9, scores=earlier)
    assert game.round_number == round_number and game.dealer == 2 and game.current == 3
    assert game.names == players and game.phase is Phase.DRAW
    assert all(len(game.hand(s)) == rules.deal_size(round_number) for s in range(4))
    view = game.view(0)
    assert view.contract == rules.contract(round_number) and view.discard_size == 1
    assert game.scores == tuple(tuple(r) for r in earlier)
    assert Counter(game.round_cards) == Counter(shoe(4))
    assert view.stock_size + view.discard_size + sum(view.hand_sizes) == len(shoe(4))
    assert Game.from_json(game.to_json()).hand(1) == game.hand(1)


def test_H3_a_turned_up_rook_is_buried_at_a_tournament_table() -> None:
    stays = Rules(rook_turn_up=RookTurnUp.STAYS)
    seed = next(s for s in range(2000)
                if table_game(("A", "B", "C"), 2, 0, stays, s).view(0).discard_top.is_rook)
    buried = table_game(("A", "B", "C"), 2, 0, Rules(), seed)
    assert not buried.view(0).discard_top.is_rook
    assert buried.hand(1) == table_game(("A", "B", "C"), 2, 0, stays, seed).hand(1)


def test_T22_a_table_is_finished_when_its_round_has_a_record() -> None:
    game = table_game(("A", "B", "C"), 3, 1, Rules(), seed=4, turn_limit=200)
    bot, rng = HeuristicBot(), random.Random(0)
    while not game.records:
        seat = game.deciders[0]
        game.apply(bot.choose(game.view(seat), game.rules,
                              lambda seat=seat: game.legal_actions(seat), rng))
    assert game.records[0].round_number == 3 and len(game.scores) == 3
    assert game.records[0].dealer == 1


# -- the tournament value and the sheet ------------------------------------------------------
def test_T22_bots_fill_a_tournament_to_three() -> None:
    t = Tournament.new("ABCDEF", ["Ann", "Crow"])
    assert t.names == ("Ann", "Crow", "Jay") and t.learners == ("Ann", "Crow")
    assert dict(t.bots) == {"Jay": "heuristic"}
    assert Tournament.new("ABCDEF", names(5), bots=2).names[-2:] == ("Crow", "Jay")
    with pytest.raises(RulesError, match="different name"):
        Tournament.new("ABCDEF", ["Ann", "Ann", "Bob"])
    with pytest.raises(RulesError, match="1 to 11 rounds"):
        Tournament.new("ABCDEF", names(4), rounds=12)


def test_T22_a_tournament_round_trips_through_json() -> None:
    t = Tournament.new("ABCDEF", names(9), bots=1, rules=Rules(seating=Seating.STAY), seed=3,
                       rounds=4)
    t = t.with_round(["ABCDEF-R1T1", "ABCDEF-R1T2"])
    again = Tournament.from_json(t.to_json())
    assert again == t
    assert again.table_of("P03").code in ("ABCDEF-R1T1", "ABCDEF-R1T2")
    assert again.tables[0][0].players == t.seating(1)[0]


def test_T22_master_sheet_shares_places_and_shows_tables() -> None:
    t = Tournament.new("ABCDEF", ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"], rounds=2)
    t = t.with_round(["T1", "T2"])
    one, two = t.tables[0]
    points = {one.code: [0, 10, 20], two.code: None}
    rows = master_sheet(t, points)
    by_name = {r.standing.name: r for r in rows}
    # table 2 is still playing: its players have 0 so far, level with table 1's winner
    assert [str(r.standing) for r in rows[-2:]] == [f"5 {one.players[1]} 10",
                                                     f"6 {one.players[2]} 20"]
    assert all(str(r.standing).startswith("1= ") for r in rows[:4])
    assert by_name[one.players[2]].points == (20,) and by_name[two.players[0]].points == (None,)
    assert by_name[two.players[1]].tables == (2,) and by_name[one.players[1]].tables == (1,)
    text = sheet_csv(rows).splitlines()
    assert text[0] == "place,name,total,round 1 table,round 1 points"
    assert f"5,{one.players[1]},10,1,10" in text
    assert f"1=,{two.players[0]},0,2," in text


def test_T22_every_pair_meets_spread_across_a_whole_tournament() -> None:
    """A 13-player tournament over 11 rounds: every pair meets, none too often."""
    t = Tournament.new("ABCDEF", names(13), seed=2)
    schedule = tuple(t.seating(r) for r in range(1, 12))
    met = meetings(schedule)
    assert len(met) == math.comb(13, 2)
    assert max(met.values()) <= bound(13, schedule)
    assert all(frozenset(p) in met for p in combinations(names(13), 2))


def test_T22_master_sheet_csv_cells_are_never_formulas() -> None:
    """A name a spreadsheet would run as a formula is written as text (issue 18)."""
    import csv
    import io

    hostile = ["=HYPERLINK(\"http://x\",\"y\")", "+1+1", "-2+3", "@SUM(A1)", "Ann = Bob",
               "Dan"]
    t = Tournament.new("ABCDEF", hostile, rounds=1).with_round(["T1", "T2"])
    rows = master_sheet(t, {})
    cells = list(csv.reader(io.StringIO(sheet_csv(rows))))
    names = [line[1] for line in cells[1:]]
    assert sorted(names) == sorted("'" + n if n[0] in "=+-@\t\r" else n for n in hostile)
    assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r"))
                   for line in cells for cell in line)
    # (a tournament strips its names; the cell guards a tab or CR start all the same)
    assert [sheet_cell(v) for v in ("\tTab", "\rCR", "A\t", 12, "1=")] == [
        "'\tTab", "'\rCR", "A\t", 12, "1="]


def test_T22_a_tournament_name_is_as_long_as_a_players_name_at_most() -> None:
    """A name is checked when the tournament is made, not when its first table would
    start a game with it (issue 18: every input costs at most its size, once)."""
    from toonerville.engine.state import MAX_NAME

    with pytest.raises(RulesError, match="is too long: at most 100 characters"):
        Tournament.new("ABCDEF", ["x" * (MAX_NAME + 1), "Bob", "Cat"])
    assert Tournament.new("ABCDEF", ["x" * MAX_NAME, "Bob", "Cat"]).names[0] == "x" * MAX_NAME
