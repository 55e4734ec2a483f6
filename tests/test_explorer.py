"""The rules explorer: its statistics against hand computations, its deal statistic
against exact combinatorics and brute force, its game facts against the games' own
histories, and its runner (1 and 2 workers identical, cancel keeps finished games)."""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import threading
from collections import Counter
from math import comb

import pytest
from asynchelpers import run_to_end

from toonerville import explorer as X
from toonerville.engine.cards import COLOURS, ROOK, Card, shoe
from toonerville.engine.errors import RulesError
from toonerville.engine.rules import Rules
from toonerville.players.simulate import game_seed, play_game

SMALL = X.Arm(("heuristic", "random", "heuristic", "random"), turn_limit=12)


@pytest.fixture(scope="module")
def small_run() -> X.Simulation:
    return X.play_games(SMALL, 4, seed=3)


# -- statistics, by hand ----------------------------------------------------------------------
def test_wilson_matches_hand_computation() -> None:
    # p = 0.5, n = 10: centre 0.5, half = z/(1+z²/n)·sqrt(p(1-p)/n + z²/4n²) = 0.263406
    e = X.wilson(5, 10)
    assert (e.value, round(e.low, 4), round(e.high, 4), e.n) == (0.5, 0.2366, 0.7634, 10)
    # 0 of 10: [0, z²/n / (1 + z²/n)] = [0, 0.27753]
    e = X.wilson(0, 10)
    assert e.low == 0 and e.high == pytest.approx(0.384146 / 1.384146, abs=1e-5)
    assert X.wilson(10, 10).high == 1.0
    assert math.isnan(X.wilson(0, 0).value)
    with pytest.raises(ValueError):
        X.wilson(3, 2)


def test_mean_ci_uses_t_for_small_samples() -> None:
    # mean 2.5, sd 1.290994, se 0.645497, t(3) = 3.182: half width 2.053972
    e = X.mean_ci([1, 2, 3, 4])
    assert e.value == 2.5
    assert (e.low, e.high) == pytest.approx((0.446028, 4.553972), abs=1e-5)
    one = X.mean_ci([7])
    assert one.value == 7 and math.isnan(one.low)
    assert X.mean_ci([]).n == 0


def test_t_quantiles_beyond_the_table() -> None:
    assert X.t95(3) == 3.182
    for df, t in ((31, 2.0395), (40, 2.0211), (60, 2.0003), (120, 1.9799), (10**6, 1.96)):
        assert X.t95(df) == pytest.approx(t, abs=2e-4)


def test_paired_ci_is_the_mean_of_the_differences() -> None:
    # differences 1, 2, 2: mean 5/3, sd 0.57735, se 1/3, t(2) = 4.303
    e = X.paired_ci([1, 2, 3], [2, 4, 5])
    assert e.value == pytest.approx(5 / 3)
    assert (e.low, e.high) == pytest.approx((5 / 3 - 4.303 / 3, 5 / 3 + 4.303 / 3))
    assert e.kind == "difference" and e.excludes_zero
    assert str(e) == "+1.67 (+0.23 to +3.10)"
    share = X.paired_ci([0.5, 1], [1, 1], share=True)  # shares, not 0/1: t, clipped
    assert str(share) == "+25.0 pp (-100.0 to +100.0)"
    assert X.paired_ci([0, 1], [1, 1], share=True) == X.paired_share_ci([0, 1], [1, 1])
    with pytest.raises(ValueError):
        X.paired_ci([1], [1, 2])


def test_estimates_print_and_serialise() -> None:
    assert str(X.wilson(5, 10)) == "50.0% (23.7–76.3)"
    assert str(X.mean_ci([100, 110, 120])) == "110.0 (85.2–134.8)"
    assert str(X.mean_ci([])) == "–"
    assert str(X.mean_ci([0, 0, 3])) == "1.00 (-3.30 to 5.30)"  # sd √3, se 1, t(2) 4.303
    assert X.mean_ci([0, 0, 3]).format(1) == "1.0 (-3.3 to 5.3)"
    assert X.mean_ci([1]).to_dict() == {"value": 1.0, "low": None, "high": None, "n": 1}


# -- the deal statistic, exactly ----------------------------------------------------------------
exact_sets_hands = X.sets_hands  # counted by the explorer, checked below by brute force


def holds_sets(hand: tuple[Card, ...], sets: int) -> bool:
    """The same rule, directly on a hand (independent of the solver)."""
    held = Counter(c.number for c in hand if not c.is_rook)
    shortfalls = sorted(max(0, 3 - k) for k in held.values())
    return len(shortfalls) >= sets and sum(shortfalls[:sets]) <= hand.count(ROOK)


#: a reduced shoe: numbers 1-4 in red and yellow, two decks' worth, and two Rooks
TINY_VALUES = [Card(colour, n) for colour in COLOURS[:2] for n in range(1, 5)]
TINY_SHOE = [*TINY_VALUES * 2, ROOK, ROOK]


def brute_force_count(hand: int, round_number: int, rules: Rules | None = None) -> int:
    """Every hand of the tiny shoe, by its multiset of values (weighted by how many
    physical hands give it), judged by the solver."""
    values = [*TINY_VALUES, ROOK]
    total = 0
    for counts in itertools.product(range(3), repeat=len(values)):
        if sum(counts) != hand:
            continue
        cards = tuple(v for v, k in zip(values, counts, strict=True) for _ in range(k))
        if X.hand_meets(cards, round_number, rules or Rules()):
            total += math.prod(comb(2, k) for k in counts)
    return total


@pytest.mark.parametrize(("hand", "round_number", "sets"), [(7, 1, 2), (9, 4, 3), (6, 1, 2)])
def test_solver_brute_force_equals_combinatorics_on_a_tiny_shoe(
        hand: int, round_number: int, sets: int) -> None:
    # numbers 1-4 have 4 physical copies each (2 colours × 2 decks); 2 Rooks
    exact = exact_sets_hands([4, 4, 4, 4], 2, hand, sets)
    assert brute_force_count(hand, round_number) == exact
    assert 0 < exact < comb(len(TINY_SHOE), hand)


@pytest.mark.parametrize("rules", [Rules(max_rooks_per_meld=1), Rules(max_rooks_per_meld=0),
                                   Rules(rooks_at_most_naturals=True)])
def test_H1_limits_on_rooks_are_counted_exactly(rules: Rules) -> None:
    exact = exact_sets_hands([4, 4, 4, 4], 2, 7, 2, rules)
    assert brute_force_count(7, 1, rules) == exact
    assert exact < exact_sets_hands([4, 4, 4, 4], 2, 7, 2)  # fewer hands qualify
    assert X.exact_share(TINY_SHOE, 7, 1, rules) == exact / comb(len(TINY_SHOE), 7)


def test_exact_chances_only_where_they_are_counted() -> None:
    assert [r for r in range(1, 12) if X.exact_deal_share(4, r) is not None] == [1, 4, 7, 9]
    assert X.exact_deal_share(4, 1, Rules(same_number_sets=True)) is None  # H8: not counted


def test_deal_share_on_the_tiny_shoe_agrees_with_the_exact_chance() -> None:
    exact = exact_sets_hands([4, 4, 4, 4], 2, 7, 2) / comb(len(TINY_SHOE), 7)
    e = X.deal_share(TINY_SHOE, 7, 1, Rules(), hands=2000, seed=5)
    assert e.low <= exact <= e.high
    assert abs(e.value - exact) < 0.03


def test_deal_table_round_1_agrees_with_the_exact_chance_for_four_players() -> None:
    # 4 decks: each number 1-14 has 16 copies, and there are 4 Rooks; 12 cards dealt
    exact = exact_sets_hands([16] * 14, 4, 12, 2) / comb(228, 12)
    assert 0.15 < exact < 0.22
    table = X.deal_table(4, Rules(), hands=3000, seed=11, rounds=[1, 4])
    e = table.row(1)[3]
    assert isinstance(e, X.Estimate)
    assert e.low <= exact <= e.high
    exact3 = exact_sets_hands([16] * 14, 4, 12, 3) / comb(228, 12)
    e3 = table.row(4)[3]
    assert isinstance(e3, X.Estimate) and e3.low <= exact3 <= e3.high
    # the exact chance is printed beside the estimate
    assert table.cell(1, "exact") == X.Exact(exact) and table.cell(4, "exact") == X.Exact(exact3)
    assert str(table.cell(1, "exact")) == "15.4%"
    assert X.deal_table(4, hands=5, rounds=[2]).cell(2, "exact") is None  # runs: not counted
    rounds = X.round_table([], Rules())
    assert rounds.cell(1, "exact") == X.Exact(exact) and rounds.cell(2, "exact") is None


def test_dealt_hand_statistic_of_games_equals_a_direct_count(small_run: X.Simulation) -> None:
    table = X.round_table(small_run.facts[0], Rules())
    for r, sets in ((1, 2), (4, 3), (7, 4), (9, 5)):  # the rounds of sets only
        hands = [tuple(Card.parse(t) for t in dealt.split())
                 for g in small_run.facts[0] for dealt in g.rounds[r - 1].dealt]
        direct = sum(holds_sets(h, sets) for h in hands)
        e = table.row(r)[2]
        assert isinstance(e, X.Estimate)
        assert (e.value * e.n, e.n) == (pytest.approx(direct), len(hands))
    assert {len(h.split()) for g in small_run.facts[0] for h in g.rounds[8].dealt} == {15}


# -- the game facts, against the games' own histories ----------------------------------------
def history_facts(seed: int, index: int) -> list[dict[str, object]]:
    """Per round, from the event history alone: turns, who went out, how it ended, the
    turn of each lay-down and each buy, restocks."""
    game = play_game(list(SMALL.bots), game_seed(seed, index), SMALL.rules, SMALL.turn_limit)
    rounds: list[dict[str, object]] = []
    last = ""
    for e in game.history:
        if e.kind == "deal":
            rounds.append({"turn": 1, "downs": {}, "buys": [], "restocks": 0, "out": None,
                           "end": "stock"})
        cur = rounds[-1]
        if e.kind == "lay_down":
            cur["downs"][e.seat] = cur["turn"]  # type: ignore[index]
        elif e.kind == "buy":
            cur["buys"].append((e.seat, cur["turn"]))  # type: ignore[attr-defined]
        elif e.kind == "restock":
            cur["restocks"] = int(cur["restocks"]) + 1  # type: ignore[call-overload]
        elif e.kind == "out":
            cur["out"], cur["end"] = e.seat, "out"
            if last == "discard":  # out by discarding: that discard ended no turn
                cur["turn"] = int(cur["turn"]) - 1  # type: ignore[call-overload]
        elif e.kind == "turn_limit":
            cur["end"] = "turn_limit"
        elif e.kind == "discard":
            cur["turn"] = int(cur["turn"]) + 1  # type: ignore[call-overload]
        last = e.kind
    for cur in rounds:  # the last turn of a round ends without moving on
        cur["turns"] = int(cur["turn"]) - (cur["end"] == "turn_limit")  # type: ignore
    return rounds


def test_facts_agree_with_the_event_history(small_run: X.Simulation) -> None:
    for g in small_run.facts[0][:2]:
        expected = history_facts(small_run.seed, g.index)
        assert len(expected) == len(g.rounds) == 11
        for r, h in zip(g.rounds, expected, strict=True):
            assert r.went_out == h["out"] and r.ended_by == h["end"]
            assert r.restocks == h["restocks"]
            assert r.turns == h["turns"]
            downs = h["downs"]
            assert isinstance(downs, dict)
            assert r.down_turn == tuple(downs.get(s) for s in range(4))
            assert sorted(r.buys()) == sorted(h["buys"])  # type: ignore[arg-type]
            assert r.first_down == (min(downs.values()) if downs else None)


def test_round_and_buying_tables_agree_with_direct_counts(small_run: X.Simulation) -> None:
    facts = small_run.facts[0]
    rounds = X.round_table(facts, Rules())
    buying = X.buying_table(facts)
    histories = [history_facts(small_run.seed, g.index) for g in facts]
    for r in range(1, 12):
        hs = [h[r - 1] for h in histories]
        out = rounds.cell(r, "someone goes out")
        assert isinstance(out, X.Estimate)
        assert out.value == sum(h["out"] is not None for h in hs) / len(hs)
        buys = buying.row(r)[2]
        assert isinstance(buys, X.Estimate)
        assert buys.value == pytest.approx(sum(len(h["buys"]) for h in hs) / len(hs))  # type: ignore
        turns = rounds.cell(r, "turns")
        assert isinstance(turns, X.Estimate)
        assert turns.value == pytest.approx(sum(h["turns"] for h in hs) / len(hs))  # type: ignore


def test_buy_outcomes_by_hand() -> None:
    # 4 players, dealer 3: seat 0 plays turns 1, 5, 9; seat 1 turns 2, 6; seat 2 turns
    # 3, 7; seat 3 turns 4, 8. A buy happens during another seat's turn.
    r = X.RoundFacts(1, 3, None, "turn_limit", 20, 0, (0, 0, 0, 0), (5, 6, 3, None),
                     ((3,), (1, 5), (5,), (2,)), (False,) * 4)
    assert [r.seat_of_turn(t) for t in (1, 2, 3, 4, 5)] == [0, 1, 2, 3, 0]
    assert (r.next_own_turn(1, 1), r.next_own_turn(3, 5), r.next_own_turn(0, 3)) == (2, 8, 5)
    assert r.buy_outcome(1, 1) == "later"  # next turn 2, down on turn 6
    assert r.buy_outcome(1, 5) == "next_turn"  # next turn 6, down on turn 6
    assert r.buy_outcome(0, 3) == "next_turn"  # next turn 5, down on turn 5
    assert r.buy_outcome(2, 5) == "already_down"  # down since turn 3
    assert r.buy_outcome(3, 2) == "never"
    assert r.first_down == 3
    row = X.buying_table([X.GameFacts(0, 0, ("random",) * 4, 3, (r,))]).row(1)
    # 5 buys; 4 by players not yet down: 2 at the next turn, 3 in the round
    assert row[2] == X.count_mean_ci([5]) and row[4] == 4 and row[7] == 1
    assert row[5] == X.wilson(2, 4) and row[6] == X.wilson(3, 4)


# -- seats, bots and comparisons, on facts made by hand --------------------------------------
def facts(index: int, dealer: int, points: tuple[int, ...],
          bots: tuple[str, ...] = ("heuristic", "random", "heuristic")) -> X.GameFacts:
    n = len(points)
    r = X.RoundFacts(1, dealer, points.index(0), "out", 9, 0, points, (None,) * n,
                     ((),) * n, (False,) * n)
    return X.GameFacts(index, index, bots, dealer, (r,))


def test_first_player_advantage_by_hand() -> None:
    # game 0: dealer 0, first player seat 1 has 0, others 10 and 40: 0 − 25 = −25
    # game 1: dealer 1, first player seat 2 has 0, others 5 and 20: 0 − 12.5 = −12.5
    games = [facts(0, 0, (10, 0, 40)), facts(1, 1, (5, 20, 0))]
    table = X.seat_round_table(games)
    e = table.row("first player − the others")[3]
    assert isinstance(e, X.Estimate)
    assert e.value == -18.75
    assert e.high - e.value == pytest.approx(12.706 * 8.838835 / math.sqrt(2))
    goes_out = table.row("1 (plays first)")[1]
    assert isinstance(goes_out, X.Estimate) and goes_out.value == 1.0
    dealer = table.row("3 (dealer)")[3]  # points 10 and 20
    assert isinstance(dealer, X.Estimate) and dealer.value == 15


def test_game_seats_and_bots_by_hand() -> None:
    games = [facts(0, 0, (10, 0, 40)), facts(1, 1, (5, 20, 0))]
    seats = X.seat_game_table(games)
    # position 1 is seat 1 in game 0 (0 points, wins) and seat 2 in game 1 (0, wins)
    assert seats.row("1 (plays first)")[2] == X.wilson(2, 2)
    lead = seats.row("1 − the others")[3]  # (0 − 25) and (0 − 12.5)
    assert isinstance(lead, X.Estimate) and lead.value == -18.75 and lead.n == 2
    bots = X.bot_table(games)
    # heuristic seats 0 and 2: mean totals 25 and 2.5; random seat 1: 0 and 20
    h, r = bots.row("heuristic"), bots.row("random")
    assert isinstance(h[3], X.Estimate) and h[3].value == 13.75
    assert isinstance(r[3], X.Estimate) and r[3].value == 10
    diff = bots.row("random − heuristic")[3]
    assert isinstance(diff, X.Estimate) and diff.value == pytest.approx((-25 + 17.5) / 2)
    assert h[2] == X.wilson(1, 4) and r[2] == X.wilson(1, 2)


def test_paired_comparison_by_hand() -> None:
    a = (facts(0, 0, (10, 0, 40)), facts(1, 1, (5, 20, 0)), facts(2, 0, (0, 30, 30)))
    b = (facts(0, 0, (20, 0, 40)), facts(1, 1, (5, 50, 0)))  # game 2 unfinished in B
    run = X.Simulation((X.Arm(), X.Arm(rules=Rules(penalty_cards=2))), 3, 0, (a, b), True)
    assert [x.index for x, _ in run.pairs()] == [0, 1]
    table = X.compare_table(run)
    row = table.row("points per player per game")
    assert row[1] == X.count_mean_ci([50 / 3, 25 / 3])
    assert row[3] == X.paired_ci([50 / 3, 25 / 3], [20, 55 / 3])
    assert isinstance(row[3], X.Estimate) and row[3].n == 2
    assert "2 games per configuration, played under both on the same seeds" in table.note


# -- configurations --------------------------------------------------------------------------
def test_parse_changes_reads_values_by_the_switch_type() -> None:
    got = X.parse_changes(["penalty_cards=2,extra_melds=yes", "max_buys_per_round=none",
                           "restock=turn_over", "players=5", "round11-deal=12"])
    assert got == {"penalty_cards": 2, "extra_melds": True, "max_buys_per_round": None,
                   "restock": "turn_over", "players": 5, "round11_deal": 12}
    arm = X.arm_with(X.Arm(("heuristic", "random") * 2), got)
    assert arm.bots == ("heuristic", "random", "heuristic", "random", "heuristic")
    assert arm.rules.changes() == {"penalty_cards": 2, "extra_melds": True,
                                   "restock": "turn_over", "round11_deal": 12}


@pytest.mark.parametrize(("item", "words"), [
    ("foo=1", "unknown house rule 'foo'"),
    ("penalty_cards", "name=value"),
    ("penalty_cards=two", "whole number"),
    ("extra_melds=maybe", "true or false"),
    ("players=x", "3, 4 or 5"),
])
def test_parse_changes_refuses_with_a_sentence(item: str, words: str) -> None:
    with pytest.raises(RulesError, match=words):
        X.parse_changes([item])


def test_impossible_rules_are_refused_by_the_rules() -> None:
    with pytest.raises(RulesError) as err:
        X.arm_with(X.Arm(), X.parse_changes(["penalty_cards=9"]))
    assert err.value.rule == "H5"
    with pytest.raises(RulesError, match="3 to 5 players"):
        X.arm_with(X.Arm(), {"players": 6})
    with pytest.raises(RulesError, match="unknown bot"):
        X.Arm(("heuristic", "clever", "random"))


# -- the runner ------------------------------------------------------------------------------
def test_one_and_two_workers_give_identical_facts() -> None:
    # full games; each worker process has its own string-hash seed, so this also catches
    # a bot whose choices depend on set order
    arm = X.Arm(("heuristic",) * 4)
    one = X.play_games(arm, 6, seed=9, workers=1)
    two = X.play_games(arm, 6, seed=9, workers=2, chunk=2)
    assert one.complete and two.complete
    assert one.facts == two.facts
    assert [g.index for g in two.facts[0]] == list(range(6))


def test_progress_moves_to_the_total(small_run: X.Simulation) -> None:
    seen: list[tuple[int, int]] = []
    X.play_games(X.Arm(("random",) * 3, turn_limit=5), 3, seed=1,
          progress=lambda d, t: seen.append((d, t)))
    assert seen == [(1, 3), (2, 3), (3, 3)]


class StopAfter:
    """A cancel flag that is set once `n` games have been reported."""

    def __init__(self, n: int) -> None:
        self.n, self.event = n, threading.Event()

    def progress(self, done: int, total: int) -> None:
        if done >= self.n:
            self.event.set()

    def is_set(self) -> bool:
        return self.event.is_set()


@pytest.mark.parametrize("workers", [1, 2])
def test_cancel_keeps_the_finished_games(workers: int) -> None:
    arm = X.Arm(("heuristic",) * 3, turn_limit=8)
    stop = StopAfter(2)
    part = X.play_games(arm, 20, seed=4, workers=workers, progress=stop.progress, cancel=stop,
                 chunk=1)
    assert part.cancelled and not part.complete
    assert 2 <= part.games_played < 20
    full = {g.index: g for g in X.play_games(arm, max(g.index for g in part.facts[0]) + 1,
                                      seed=4).facts[0]}
    assert all(full[g.index] == g for g in part.facts[0])


def test_two_arms_are_paired_on_the_same_seeds() -> None:
    a = X.Arm(("heuristic",) * 3, turn_limit=6)
    b = X.arm_with(a, {"penalty_cards": 0})
    run = X.play_games([a, b], 2, seed=2)
    assert [(x.seed, y.seed) for x, y in run.pairs()] == [
        (game_seed(2, 0), game_seed(2, 0)), (game_seed(2, 1), game_seed(2, 1))]
    # the first deal depends on the seed only, not on the house rules
    assert [x.rounds[0].dealt for x, _ in run.pairs()] == [
        y.rounds[0].dealt for _, y in run.pairs()]
    titles = [t.title for t in X.tables_for(run, "compare")]
    assert titles == ["A against B (paired games)", "A against B, round by round"]


def test_never_buying_bot_never_buys() -> None:
    run = X.play_games(X.Arm(("nobuy", "heuristic", "nobuy", "heuristic"), turn_limit=20), 2, 5)
    for g in run.facts[0]:
        assert all(not r.buy_turns[s] for r in g.rounds for s in (0, 2))
        assert g.bots == ("nobuy", "heuristic", "nobuy", "heuristic")


# -- tables and export ------------------------------------------------------------------------
def test_every_question_has_tables(small_run: X.Simulation) -> None:
    for question in ("rounds", "buying", "seats", "bots", "scores"):
        tables = X.tables_for(small_run, question)
        assert tables and all(t.rows for t in tables)
        for t in tables:
            assert t.title in str(t) and t.title in t._repr_html_()
    assert [r[0] for r in X.round_table(small_run.facts[0], Rules()).rows] == list(
        range(1, 12))
    with pytest.raises(RulesError, match="configuration B"):
        X.tables_for(small_run, "compare")
    with pytest.raises(RulesError, match="unknown question"):
        X.tables_for(small_run, "weather")


def test_csv_has_one_row_per_game_round_and_seat(small_run: X.Simulation) -> None:
    buffer = io.StringIO()
    assert X.write_csv(small_run, buffer) == 4 * 11 * 4
    rows = list(csv.DictReader(io.StringIO(buffer.getvalue())))
    assert len(rows) == 176 and tuple(rows[0]) == X.CSV_COLUMNS
    g = small_run.facts[0][0]
    mine = [r for r in rows if r["game"] == str(g.index)]
    assert sum(int(r["points"]) for r in mine) == sum(g.totals)
    assert {r["game_seed"] for r in mine} == {str(g.seed)}


def test_json_is_strict_json(small_run: X.Simulation) -> None:
    data = X.run_json(small_run, X.tables_for(small_run, "all"))
    text = json.dumps(data, allow_nan=False)
    back = json.loads(text)
    assert back["arms"][0]["bots"] == list(SMALL.bots)
    assert len(back["records"]["A"]) == 4
    assert back["tables"][0]["title"] == "How hard is each round?"
    again = X.run_from_json(back)
    assert again.facts == small_run.facts and again.arms == small_run.arms


def test_the_shoe_used_for_deals_is_the_game_shoe() -> None:
    assert len(shoe(4)) == 228 and shoe(4).count(ROOK) == 4


# -- the notebook widget (plain pytest: no kernel needed) -------------------------------------
@pytest.fixture
def explorer_widget():  # type: ignore[no-untyped-def]
    widgets = pytest.importorskip("ipywidgets")
    from toonerville.widgets.explorer import RulesExplorer

    yield RulesExplorer
    widgets.Widget.close_all()


def test_widget_runs_and_shows_plot_tables_and_csv(explorer_widget) -> None:  # type: ignore
    w = explorer_widget(games=2, seed=1, turn_limit=6, background=False)
    w.run_button.click()
    assert w.result is not None and w.result.games_played == 2
    assert w.plot.value.startswith("<svg") and w.plot.layout.display == "block"
    assert "<title>How hard is each round? (2 games, 95% intervals)" in w.plot.value
    assert "How hard is each round?" in w.tables.value
    assert 'download="toonerville-records.csv"' in w.download.value
    assert w.status.value.startswith("Done: 2 games")
    assert (w.progress.value, w.progress.max) == (2, 2)
    assert not w.run_button.disabled and w.cancel_button.disabled


def test_widget_preset_makes_a_paired_comparison(explorer_widget) -> None:  # type: ignore
    w = explorer_widget(games=1, seed=2, turn_limit=5, background=False)
    w.preset.value = "H4: round 11 deals 12, not 14"
    assert w.question.value == "compare"
    assert w.rules_b.rules.changes() == {"round11_deal": 12}
    a, b = w.arms()
    assert b.rules.round11_deal == 12 and a.rules == Rules()
    w.start()
    assert [t.title for t in w.shown_tables] == ["A against B (paired games)",
                                                 "A against B, round by round"]
    w.preset.value = "5 players instead of 4"
    assert w.arms()[1].players == 5


def test_widget_refuses_a_comparison_of_identical_rules(explorer_widget) -> None:  # type: ignore
    w = explorer_widget(games=1, question="compare", background=False)
    w.run_button.click()
    assert "B is the same as A" in w.messages.text
    assert w.result is None


def test_widget_cancel_keeps_finished_games(explorer_widget) -> None:  # type: ignore
    w = explorer_widget(games=60, seed=3, turn_limit=5, players=3)
    w.start()
    deadline = 0
    while w.progress.value < 2 and deadline < 600:
        threading.Event().wait(0.05)
        deadline += 1
    w.cancel_button.click()
    assert w.wait(60)
    assert w.result is not None and w.result.cancelled
    assert 2 <= w.result.games_played < 60
    assert w.status.value.startswith("Cancelled")
    assert w.plot.value.startswith("<svg")


def test_widget_in_a_browser_page_plays_on_the_event_loop(explorer_widget, monkeypatch
                                                           ) -> None:  # type: ignore
    import asyncio

    monkeypatch.setattr(X, "IN_BROWSER", True)  # as under Pyodide: no threads, no processes
    w = explorer_widget(games=3, seed=2, turn_limit=6, players=3)
    assert w.mode == "page" and w.workers.value == 1 and w.workers.disabled
    assert w.scheduler.layout.display == "none"

    async def run_then_cancel() -> None:
        task = w.start()
        assert task is not None and w.running and w.run_button.disabled
        await task
        first = w.result
        assert first is not None and first.complete and first.where == "this page"
        w.games.value = 30
        again = w.start()
        while w.progress.value < 1:
            await asyncio.sleep(0)
        w.cancel_button.click()
        await again

    run_to_end(run_then_cancel())
    assert w.result is not None and w.result.cancelled and 1 <= w.result.games_played < 30
    assert w.result.facts[0] == X.play_games(w.arms(), w.result.games_played, 2).facts[0]
    assert w.status.value.startswith("Cancelled") and w.plot.value.startswith("<svg")


def test_widget_sweep_question_ranks_the_grid(explorer_widget) -> None:  # type: ignore
    w = explorer_widget(games=2, seed=4, turn_limit=5, players=3, question="sweep",
                        background=False, sweep="penalty_cards=0,2 round11_deal=12,14")
    assert len(w.arms()) == 4
    w.rank_by.value = "spread"
    w.run_button.click()
    (table,) = w.shown_tables
    assert table.title == "A sweep of 4 configurations, closest scores first"
    assert "A sweep of 4 configurations" in w.plot.value and "<title>" in w.plot.value
    w.sweep.value = "penalty_cards=0,9"
    w.run_button.click()
    assert "penalty_cards must be 0, 1, 2 or 3" in w.messages.text
