"""The widgets, driven without a browser: click buttons, set values, read what they show.

Outside a kernel `with output:` captures nothing, so every widget shows its state in
HTML values and labels, and these tests assert on those (TOOLCHAIN.md).
"""

from __future__ import annotations

from collections.abc import Iterator

import ipywidgets as widgets
import pytest
from widgetfixtures import close_widgets, no_query  # noqa: F401

from toonerville import Card, Rules, parse_cards
from toonerville.engine.deal import DealPlan
from toonerville.engine.game import Game
from toonerville.engine.messages import msg
from toonerville.engine.rules import Restock, RookTurnUp, contract_for
from toonerville.pages.render import SIZES
from toonerville.widgets import (
    CardButton,
    EventLog,
    HandPicker,
    HandView,
    HistoryStepper,
    HouseRulesPanel,
    MeldView,
    MessageBox,
    PilesView,
    ScoreSheet,
    SizeToggle,
    TableView,
    VerdictView,
    seed_from_url,
    url,
)
from toonerville.widgets.base import SOMETHING_WENT_WRONG
from toonerville.widgets.lessons import (
    BuyDemo,
    ContractExplorer,
    DealDemo,
    MeldChecker,
    RookDemo,
    ScoringDemo,
    dealt_hand,
    places_text,
)


def plain(html: str) -> str:
    """The text a reader sees in a piece of HTML (tags dropped, entities decoded)."""
    import html as html_module
    import re

    return html_module.unescape(re.sub(r"<[^>]+>", "", html))


def width_of(html: str) -> set[str]:
    """The card widths drawn in a piece of HTML."""
    import re

    return set(re.findall(r'<svg[^>]*viewBox="0 0 100 140" width="(\d+)"', html))


# -- seed_from_url ------------------------------------------------------------------------
def test_seed_from_url_reads_the_query_string(monkeypatch: pytest.MonkeyPatch) -> None:
    assert seed_from_url(7) == 7
    monkeypatch.setenv("QUERY_STRING", "seed=42&x=1")
    assert seed_from_url(7) == 42
    monkeypatch.setenv("QUERY_STRING", "seed=forty")
    assert seed_from_url(7) == 7
    monkeypatch.setenv("QUERY_STRING", "seed=-3")
    assert seed_from_url(7) == 7
    assert seed_from_url(None) is None  # a page that deals at random (09's pass-and-play)
    monkeypatch.setenv("QUERY_STRING", "seed=8")
    assert seed_from_url(None) == 8


def test_seed_from_url_waits_for_voila_only_when_preheated(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    import voila.utils

    monkeypatch.setattr(voila.utils, "wait_for_request", lambda: calls.append("waited"))
    monkeypatch.setattr(url, "_request_waited", False)  # the address is read in `url`
    seed_from_url(1)
    assert calls == []
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.setenv("QUERY_STRING", "seed=5")
    assert seed_from_url(1) == 5
    assert seed_from_url(1) == 5  # a second call must not wait for a second request
    assert calls == ["waited"]


# -- messages and guards ------------------------------------------------------------------
def test_guard_shows_a_refusal_sentence_and_never_raises() -> None:
    box = MessageBox()
    box.guard(lambda: Rules(penalty_cards=9))()
    assert box.kind == "error"
    assert box.text == "penalty_cards must be 0, 1, 2 or 3, not 9 (H5)"
    assert "penalty_cards must be 0, 1, 2 or 3, not 9" in plain(box.value)


def test_guard_hides_a_bug_behind_a_short_message() -> None:
    box = MessageBox()
    box.guard(lambda: 1 // 0)()
    assert box.text == SOMETHING_WENT_WRONG
    assert "Traceback" not in plain(box.value) and "ZeroDivision" not in plain(box.value)


def test_message_box_kinds_and_clear() -> None:
    box = MessageBox()
    box.ok(msg("a run: {meld}", "T4", meld="R5 R6 R7 R8"))
    assert box.text == "a run: R5 R6 R7 R8 (T4)" and "tv-ok" in box.value
    box.clear()
    assert box.text == "" and box.value == ""


# -- sizes --------------------------------------------------------------------------------
def test_size_toggle_changes_the_card_size() -> None:
    toggle = SizeToggle()
    hand = HandView("R5 R6 RK")
    picker = HandPicker("B1 B2")
    toggle.link(hand, picker)
    assert width_of(hand.value) == {str(SIZES["normal"])}
    toggle.value = "projector"
    assert width_of(hand.value) == {str(SIZES["projector"])}
    assert width_of(picker.row.children[0].picture.value) == {str(SIZES["projector"])}
    assert "tv-size-projector" in hand._dom_classes
    toggle.value = "large"
    assert "tv-size-projector" not in hand._dom_classes
    assert width_of(hand.value) == {str(SIZES["large"])}


def test_an_unknown_size_is_refused() -> None:
    with pytest.raises(Exception, match="unknown card size"):
        HandView("R5", size="enormous")


# -- cards and hands ----------------------------------------------------------------------
def test_card_button_is_named_by_its_card() -> None:
    button = CardButton("Y14")
    assert button.button.description == "Y14"
    assert "Yellow 14" in button.button.tooltip
    assert 'aria-label="Yellow 14"' in button.picture.value
    button.button.value = True
    assert button.value is True
    assert 'aria-label="Yellow 14, selected"' in button.picture.value


def test_hand_picker_selection_is_observable_and_keeps_duplicates_apart() -> None:
    picker = HandPicker("R7 R7 Y7 RK", label="Your hand")
    seen: list[tuple[Card, ...]] = []
    picker.observe(lambda change: seen.append(change["new"]), "selected")
    picker.row.children[1].value = True
    picker.row.children[3].value = True
    assert picker.selected == parse_cards("R7 RK")
    assert picker.selected_indices == (1, 3)
    assert seen[-1] == parse_cards("R7 RK")
    assert "selected: R7 RK" in plain(picker.label.value)
    picker.clear_selection()
    assert picker.selected == ()


def test_hand_picker_max_selected_drops_the_oldest() -> None:
    picker = HandPicker("B1 B2 B3", max_selected=1)
    picker.row.children[0].value = True
    picker.row.children[2].value = True
    assert picker.selected == parse_cards("B3")


def test_hand_picker_shows_another_hand() -> None:
    picker = HandPicker("R5 R6 R7")
    picker.select([0])
    picker.set_cards("G1 G2", selected=[1])
    assert picker.cards == parse_cards("G1 G2")
    assert picker.selected == parse_cards("G2")
    assert [b.button.description for b in picker.row.children] == ["G1", "G2"]


# -- pictures -----------------------------------------------------------------------------
def test_meld_and_verdict_views() -> None:
    from toonerville import is_run

    meld = MeldView("G12 G13 G14 RK")
    assert meld.meld is not None and "a run of Green 11–14" in plain(meld.value)
    verdict = VerdictView(is_run("B13 B14 B1 B2"))
    assert "wraps past 14" in plain(verdict.value) and "not valid" in plain(verdict.value)


def test_table_view_from_a_view_and_from_a_mapping() -> None:
    table = TableView({"Ann": ["R5 R6 R7 RK"], "Bob": []})
    assert "Ann" in plain(table.value) and "no melds yet" in plain(table.value)
    game = Game.from_position(["R1 R2", "B1", "Y1"], "G5 G6", "Y9",
                              table={0: ["G9 B9 RK"]}, names=["Ann", "Bob", "Cy"])
    table.update(game.view(1))
    assert list(table.table) == ["Ann", "Bob", "Cy"]
    assert "a set of 9s" in plain(table.value)


def test_piles_and_score_sheet() -> None:
    game = Game.new(3, seed=1)
    piles = PilesView(game.view(0))
    assert piles.piles[0] == game.view(0).stock_size
    assert f"{game.view(0).stock_size} cards" in plain(piles.value)
    sheet = ScoreSheet(["A", "B", "C"], [(0, 25, 40), (30, 0, 5)])
    assert "Σ45" in plain(sheet.value) and "Score sheet" in plain(sheet.value)
    sheet.show_game(game)
    assert sheet.rows == ()


def test_event_log_shows_the_newest_last() -> None:
    game = Game.new(3, seed=1)
    log = EventLog(game.history, limit=1)
    assert log.text.endswith("(T8)")
    assert log.value.count("<li>") == 1


# -- history ------------------------------------------------------------------------------
def test_history_stepper_steps_through_events() -> None:
    game = Game.new(3, seed=4)
    stepper = HistoryStepper(game.history)
    assert stepper.step_count == len(game.history)
    assert "deals 12 cards" in stepper.text
    assert stepper.back_button.disabled
    stepper.forward_button.click()
    assert stepper.index == 1 and "turned up" in stepper.text
    stepper.last_button.click()
    assert stepper.forward_button.disabled
    stepper.first_button.click()
    assert stepper.index == 0


def test_history_stepper_for_a_game_replays_the_position() -> None:
    game = Game.new(3, seed=4)
    game.take_discard()
    top = game.hand(game.current)[-1]
    game.discard(game.hand(game.current)[0])
    stepper = HistoryStepper.for_game(game)
    assert stepper.step_count == 3  # the deal, the take, the discard
    stepper.forward()
    assert "takes" in stepper.text and str(top) in stepper.text
    assert f"Player 0 · {len(game.hand(0))} cards" in plain(stepper.picture.value)
    stepper.last()
    assert "discards" in stepper.text
    stepper.first()
    assert "deals" in stepper.text and stepper.messages.text == ""


# -- house rules --------------------------------------------------------------------------
def test_house_rules_panel_makes_the_rules() -> None:
    panel = HouseRulesPanel()
    assert panel.rules == Rules()
    assert set(panel.controls) == {f for f in Rules.__dataclass_fields__}
    panel.controls["penalty_cards"].value = 2
    panel.controls["extra_melds"].value = True
    panel.controls["rook_turn_up"].value = RookTurnUp.STAYS
    panel.controls["restock"].value = Restock.TURN_OVER
    panel.controls["round11_deal"].value = 12
    panel.controls["max_rooks_per_meld"].value = "1"
    assert panel.rules == Rules(penalty_cards=2, extra_melds=True,
                                rook_turn_up=RookTurnUp.STAYS, restock=Restock.TURN_OVER,
                                round11_deal=12, max_rooks_per_meld=1)
    assert "penalty_cards = 2" in plain(panel.summary.value)
    panel.controls["max_rooks_per_meld"].value = ""
    assert panel.rules.max_rooks_per_meld is None
    panel.reset_button.click()
    assert panel.rules == Rules() and panel.controls["penalty_cards"].value == 1


def test_house_rules_panel_refuses_an_impossible_value_with_the_sentence() -> None:
    panel = HouseRulesPanel(Rules(penalty_cards=2))
    panel.controls["penalty_cards"].value = 7
    assert not panel.valid
    assert panel.messages.text == "penalty_cards must be 0, 1, 2 or 3, not 7 (H5)"
    assert panel.rules == Rules(penalty_cards=2)  # the last playable rules stay
    panel.controls["first_dealer"].value = "9"
    assert "first_dealer must be a seat from 0 to 4" in panel.messages.text
    panel.controls["first_dealer"].value = ""
    panel.controls["penalty_cards"].value = 3
    assert panel.valid and panel.messages.text == ""
    assert panel.rules == Rules(penalty_cards=3)


# == lessons ==============================================================================
def test_deal_demo_step_deals_one_card_to_the_dealers_left() -> None:
    demo = DealDemo(players=4, seed=7)
    plan = demo.plan
    assert "228 cards" in plain(demo.about.value) and "(T2)" in plain(demo.about.value)
    assert sum(map(len, demo.hands_dealt)) == 0
    demo.step_button.click()
    first = (plan.dealer + 1) % 4
    assert [len(h) for h in demo.hands_dealt] == [1 if s == first else 0 for s in range(4)]
    assert demo.hands_dealt[first] == (plan.shoe[0],)
    assert "Cards dealt: 1 of 48" in plain(demo.progress.value)
    demo.step_button.click()
    assert len(demo.hands_dealt[(first + 1) % 4]) == 1


@pytest.mark.parametrize("players", [3, 4, 5])
def test_deal_demo_deals_exactly_as_the_game_does(players: int) -> None:
    demo = DealDemo(players=players, seed=23)
    demo.all_button.click()
    game = Game.new(players, seed=23)
    assert demo.hands_dealt == tuple(game.hand(s) for s in range(players))
    assert demo.plan.turn_up == game.view(0).discard_top
    assert demo.plan.stock_size == game.view(0).stock_size
    assert f"{game.view(0).discard_top} is turned up" in plain(demo.after.value)
    assert demo.step_button.disabled


def test_deal_demo_shows_a_buried_rook_H3() -> None:
    demo = DealDemo(players=3, seed=9)
    demo.all_button.click()
    assert demo.plan.buried
    assert "buried in the stock" in plain(demo.after.value) and "(H3)" in plain(demo.after.value)
    game = Game.new(3, seed=9)
    assert any(e.kind == "bury" for e in game.history)


def test_deal_demo_controls_restart_the_deal() -> None:
    demo = DealDemo(players=4, seed=7)
    demo.all_button.click()
    demo.round.value = 10
    assert demo.dealt == 0 and demo.plan.deal_size == 16
    demo.players.value = 5
    assert "285 cards" in plain(demo.about.value)
    before = demo.plan.shoe
    demo.new_seed_button.click()
    assert demo.seed.value == 8 and demo.plan.shoe != before
    assert "Seed 8" in plain(demo.about.value)


def test_deal_plan_round_1_matches_game_new_with_a_fixed_dealer() -> None:
    rules = Rules(first_dealer=2)
    plan = DealPlan.make(4, 5, 1, rules)
    game = Game.new(4, seed=5, rules=rules)
    assert plan.dealer == game.dealer == 2
    assert plan.hands() == tuple(game.hand(s) for s in range(4))


def test_meld_checker_explains_each_example() -> None:
    checker = MeldChecker()
    expected = {
        "B11 B12 B13 B14": "a run: B11 B12 B13 B14 (T4)",
        "B13 B14 B1 B2": "wraps past 14",
        "Y7 R7 R7": "a set: Y7 R7 R7 (T5)",
        "G12 G13 G14 RK": "RK=G11",
        "R5 R6 R7 RK=R4": "a run: RK=R4 R5 R6 R7",
        "RK RK RK": "every meld needs at least one natural card",
        "R3 R4 R5 R6 / R7 R8 R9 R10": "touch end to end",
        "R3 R4 R5 R6 / R5 R6 R7 R8": "a lay-down of 2 runs",
    }
    for button in checker.examples:
        button.click()
        assert checker.text.value in expected
        assert expected[checker.text.value] in checker.verdict.text
        shown = expected[checker.text.value].split(" (")[0]
        assert shown.lower() in plain(checker.verdict.value).lower()
        assert plain(checker.verdict.value).removeprefix("not valid").removeprefix(
            "valid")[:1].isupper()  # the sentence starts with a capital
    checker.examples[1].click()
    assert "not valid" in plain(checker.verdict.value)


def test_meld_checker_typing_and_modes() -> None:
    checker = MeldChecker()
    checker.text.value = "R5 R6 R7 R8"
    assert checker.verdict.text == "a run: R5 R6 R7 R8 (T4)"
    assert "valid" in plain(checker.verdict.value)
    checker.mode.value = "set"
    assert checker.verdict.text.startswith("not a set")
    checker.mode.value = "either"
    checker.text.value = "Y7 R7 RK"
    assert checker.verdict.text == "a set: Y7 R7 RK (T5)"


def test_meld_checker_a_bad_token_shows_the_notation_sentence() -> None:
    checker = MeldChecker()
    checker.text.value = "R5 R15 R7"
    assert checker.verdict.verdict is None
    assert checker.messages.text == "'R15' is not a card: numbers go from 1 to 14 (T1)"
    assert "Traceback" not in plain(checker.messages.value)


def test_meld_checker_picking_cards_fills_the_text() -> None:
    checker = MeldChecker()
    cards = checker.picker.cards
    wanted = [i for i, c in enumerate(cards) if str(c) in {"B11", "B12", "B13", "B14"}]
    for i in wanted:
        checker.picker.row.children[i].value = True
    assert checker.text.value == "B11 B12 B13 B14"
    assert checker.verdict.text == "a run: B11 B12 B13 B14 (T4)"
    checker.text.value = "R5 R6"  # typing makes the picked cards stale
    assert checker.picker.selected == ()


def test_contract_explorer_shows_contract_hand_and_solver() -> None:
    explorer = ContractExplorer(round_number=3, seed=11)
    assert "2 runs" in plain(explorer.about.value) and "(T7)" in plain(explorer.about.value)
    assert explorer.cards == dealt_hand(4, 11, 3)
    assert len(explorer.cards) == 12
    assert ("would lay down" in plain(explorer.solution.value)
            or "still missing" in plain(explorer.solution.value)
            or "Not yet" in plain(explorer.solution.value))
    explorer.round.value = 10
    assert len(explorer.cards) == 16 and "4 runs" in plain(explorer.about.value)
    explorer.next_button.click()
    assert explorer.seed.value == 12 and explorer.cards == dealt_hand(4, 12, 10)


def test_contract_explorer_finds_a_hand_that_meets_the_contract() -> None:
    from toonerville.engine.solver import find_contract

    seed = next(s for s in range(500) if find_contract(dealt_hand(4, s, 1), 1) is not None)
    explorer = ContractExplorer(round_number=1, seed=seed)
    assert "already meets the contract" in plain(explorer.solution.value)
    assert "a set of" in plain(explorer.solution.value)


def test_T15_the_dealt_hand_is_sorted_as_a_player_sorts_it() -> None:
    hand = ContractExplorer(round_number=3, seed=11).cards
    assert list(hand) == sorted(hand, key=lambda c: c.sort_key)


def test_T15_deal_until_finds_round_3s_rare_hand_in_one_press() -> None:
    from toonerville.engine.solver import find_contract

    explorer = ContractExplorer(round_number=3, seed=11)
    explorer.until_button.click()
    assert find_contract(explorer.cards, 3) is not None
    assert "already meets the contract" in plain(explorer.solution.value)
    said = plain(explorer.until_result.value)
    tries = explorer.seed.value - 11
    assert f"It took {tries} deals" in said and f"(seed {explorer.seed.value})" in said
    assert all(find_contract(dealt_hand(4, s, 3), 3) is None
               for s in range(12, explorer.seed.value))  # the first one found
    explorer.next_button.click()
    assert explorer.until_result.value == ""  # the count was for that hand only


def test_contract_explorer_simulation_fills_the_progress_bar() -> None:
    explorer = ContractExplorer(round_number=1, seed=3, deals=120)
    explorer.simulate_button.click()
    assert explorer.bar.value == explorer.bar.max == 120
    assert "In 120 seeded deals of round 1" in plain(explorer.result.value)
    assert "%" in plain(explorer.result.value)
    assert explorer.messages.text == ""


def test_contract_explorer_gives_the_explorers_interval_and_the_exact_chance() -> None:
    from toonerville.explorer.deals import fresh_deal

    explorer = ContractExplorer(round_number=1, seed=11, deals=150)
    explorer.simulate_button.click()
    shown = plain(explorer.result.value)
    count = fresh_deal(1, 4, hands=150, seed=11)  # 08 counts the same deals
    assert f"met the contract {count.met} times" in shown
    assert f"(95% interval {100 * count.estimate.low:.1f}–{100 * count.estimate.high:.1f}%)" \
        in shown
    assert count.exact is not None and f"Counted exactly, without dealing: {count.exact}" \
        in shown  # round 1 is sets only: its chance is counted


def test_buy_demo_rulebook_example_gives_card_and_penalty_to_player_4() -> None:
    demo = BuyDemo(players=5, seed=4)
    before = [len(demo.game.hand(s)) for s in range(5)]
    demo.example_button.click()
    after = [len(demo.game.hand(s)) for s in range(5)]
    assert after == [before[0], before[1] + 1, before[2], before[3] + 2, before[4]]
    assert demo.game.hand(3)[-2] == Card.parse("G3")
    assert "just now: bought G3, penalty card" in plain(demo.seat_rows[3].children[0].value)
    assert "Player 4 buys G3 (T10)" in demo.event_log.text
    assert "Player 4 also takes a penalty card from the stock (T11)" in demo.event_log.text
    assert demo.event_log.text.splitlines()[-1] == "Player 2 draws from the stock (T12)"
    assert demo.messages.kind == "ok"


def test_buy_demo_buttons_by_seat_and_engine_refusals() -> None:
    demo = BuyDemo(players=4, seed=8)
    buy_p3 = demo.seat_rows[2].children[1]
    buy_p3.click()  # nothing is offered yet
    assert "nothing is offered to buy now" in demo.messages.text
    demo.turn_row.children[2].click()  # Player 2 declines
    assert demo.game.phase.value == "buy"
    demo.seat_rows[3].children[1].click()  # Player 4 asks
    demo.seat_rows[0].children[2].click()  # Player 1 passes
    assert demo.game.phase.value == "buy"  # Player 3 still to answer, and comes first
    buy_p3.click()
    assert "Player 3 buys G3 (T10)" in demo.event_log.text
    assert "bought G3" in plain(demo.seat_rows[2].children[0].value)
    assert "bought" not in plain(demo.seat_rows[3].children[0].value)


def test_buy_demo_T14_refusal_sentence() -> None:
    demo = BuyDemo(players=3, seed=1)
    demo.t14_button.click()
    assert demo.messages.text == ("you took G3 from the discard pile this turn, so you may "
                                  "not discard that card (another G3 would be fine) (T14)")
    assert str(demo.discard_choice.value) == "G3"  # the card the refusal is about
    card = next(c for c in demo.game.hand(1) if str(c) != "G3")
    demo.discard_choice.value = card
    demo.discard_button.click()
    assert demo.event_log.text.splitlines()[-1] == f"Player 2 discards {card} (T13)"
    assert demo.game.current == 2


def test_rook_demo_stands_for_swap_and_set() -> None:
    demo = RookDemo()
    assert "RK=G11" in demo.verdict.text
    demo.examples[1].click()
    assert "could instead stand for R4" in demo.verdict.text
    demo.preset_button.click()
    text = demo.event_log.text
    assert "Player 2 puts R8 in place of the Rook in R5 R6 R7 R8 (T18)" in text
    assert "lays off RK=Y7 onto Y3 Y4 Y5 Y6 RK=Y7" in text
    demo.set_button.click()
    assert demo.messages.text.startswith("a Rook in a set can never be swapped out")
    assert demo.messages.text.endswith("(T19)")


def test_rook_demo_free_swap_and_wrong_card() -> None:
    demo = RookDemo()
    demo.wrong_button.click()
    assert "stands for R8, so only that card can take its place, not G4 (T18)" in \
        demo.messages.text
    demo.natural.value = Card.parse("R8")
    demo.source.value = (0, 0)
    label = next(lbl for lbl, value in demo.target.options if value[1] == Card.parse("R9"))
    demo.target.value = dict(demo.target.options)[label]
    demo.swap_button.click()
    assert "R5 R6 R7 R8 RK=R9" in demo.event_log.text
    assert demo.game.view(1).table[0][0].rooks == 1


def test_scoring_demo_counts_the_T3_worked_example() -> None:
    demo = ScoringDemo(seed=2, play_now=False)
    assert "= 55 points" in plain(demo.points.value)
    demo.cards.value = "RK RK"
    assert "= 50 points" in plain(demo.points.value)
    demo.cards.value = "R99"
    assert "'R99' is not a card: numbers go from 1 to 14 (T1)" in plain(demo.points.value)
    demo.totals.value = "ten"
    assert "whole numbers" in plain(demo.ties.value)


def test_scoring_demo_going_out_scene() -> None:
    demo = ScoringDemo(seed=2, play_now=False)
    for _ in range(2):
        demo.next_button.click()
    assert demo.messages.text.endswith("(T14)")
    for _ in range(3):
        demo.next_button.click()
    assert "Round 1 is over" in plain(demo.state.value)
    assert demo.game.scores[0][0] == 0
    assert demo.game.scores[0][2] == 55  # B1 Y9 R10 G14 RK, the T3 example
    assert "Σ55" in plain(demo.round_sheet.value)


def test_scoring_demo_round_11_refuses_going_out_by_discard_T17() -> None:
    demo = ScoringDemo(seed=2, play_now=False)
    demo.scene.value = 1
    demo.next_button.click()
    demo.next_button.click()
    assert demo.messages.text == ("in round 11 the whole hand goes down at once, and R9 "
                                  "would be left in your hand (T17)")
    demo.next_button.click()
    assert demo.game.is_over
    assert demo.game.totals[1] == demo.game.totals[2]  # a tie for second place (T21)
    assert "2=" in plain(demo.round_sheet.value)


def test_scoring_demo_bot_game_score_sheet() -> None:
    demo = ScoringDemo(seed=2)
    assert demo.bot_game is not None and demo.bot_game.is_over
    assert len(demo.bot_game.scores) == 11
    assert demo.bar.value == 11
    assert "Σ" in plain(demo.sheet.value) and str(contract_for(11)) in plain(demo.sheet.value)
    assert "seed 2" in plain(demo.game_about.value)


def test_places_with_ties_T21() -> None:
    assert places_text([95, 120, 95, 140]) == "1= 3 1= 4"
    demo = ScoringDemo(seed=2, play_now=False)
    demo.totals.value = "50 50 50"
    assert plain(demo.ties.value).count("→ 1=") == 3


@pytest.mark.parametrize("lesson", [
    lambda: _dealt(DealDemo(seed=3)), lambda: MeldChecker("R5 R6 R7 R8"),
    lambda: ContractExplorer(seed=3), lambda: BuyDemo(seed=3), lambda: RookDemo(),
    lambda: ScoringDemo(seed=3, play_now=False)])
def test_every_lesson_honours_the_size_toggle(lesson) -> None:  # type: ignore[no-untyped-def]
    demo = lesson()
    demo.size_toggle.value = "projector"
    assert demo.size == "projector"
    html = "".join(w.value for w in _walk(demo) if isinstance(w, widgets.HTML))
    assert width_of(html) <= {str(SIZES["projector"])}
    assert width_of(html), "no card drawn at projector size"


def _dealt(demo: DealDemo) -> DealDemo:
    demo.all_button.click()
    return demo


def _walk(widget: widgets.Widget) -> Iterator[widgets.Widget]:
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _walk(child)


@pytest.mark.parametrize("seed", [None, 5])
def test_lessons_take_their_seed_from_the_url(monkeypatch: pytest.MonkeyPatch,
                                              seed: int | None) -> None:
    monkeypatch.setenv("QUERY_STRING", "seed=31")
    demo = DealDemo(seed=seed)
    assert demo.seed.value == (31 if seed is None else seed)


def test_size_from_the_page_address_opens_lessons_and_the_app_at_that_size(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from toonerville.widgets.play import PlayGame
    from toonerville.widgets.url import size_from_url

    monkeypatch.setenv("QUERY_STRING", "size=projector&seed=3")
    assert size_from_url() == "projector"
    assert MeldChecker().size == "projector"
    assert PlayGame(seed=3)._size == "projector"
    assert MeldChecker(size="large").size == "large"  # a caller's choice wins
    monkeypatch.setenv("QUERY_STRING", "size=huge")
    assert size_from_url() == "normal" and MeldChecker().size == "normal"
