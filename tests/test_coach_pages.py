"""The coach on the pages (`widgets/coach_view.py`, `widgets/coach_review.py`): the hint
that weighs the choices in 07 and in the seat view, the review of a round, and the bot
levels where a bot sits. Driven without a browser; the pages' search budgets are budgets
of work (no wall-clock cap), so the figures the pages show can be compared with the
engine's own."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable
from functools import partial
from html import escape
from pathlib import Path

import pytest
from test_passplay_widget import covered, press, three_learners
from widgetfixtures import close_widgets, no_query  # noqa: F401

from toonerville.coach.hint import Hint, hint
from toonerville.coach.levels import BeginnerBot, compare_levels, describe_level
from toonerville.coach.review import review_round
from toonerville.coach.strong import StrongBot
from toonerville.engine import actions as A
from toonerville.engine.events import Phase
from toonerville.engine.game import Game
from toonerville.explorer.arms import level_difference
from toonerville.players.bots import BOT_LEVELS, HeuristicBot, make_bot
from toonerville.players.simulate import play_game
from toonerville.store import Seat as SeatHandle
from toonerville.store import open_store
from toonerville.widgets import coach_review, coach_view
from toonerville.widgets import recap as recap_module
from toonerville.widgets.base import MessageBox
from toonerville.widgets.classroom import SharedTable
from toonerville.widgets.coach_review import RoundReview
from toonerville.widgets.coach_view import HINT_PRICE, HINT_WORLDS, CoachHint
from toonerville.widgets.explorer import RulesExplorer
from toonerville.widgets.level_compare import LevelComparer
from toonerville.widgets.level_view import LevelGuide
from toonerville.widgets.passplay import PassAndPlay
from toonerville.widgets.play import PlayGame
from toonerville.widgets.play_panels import SETTINGS
from toonerville.widgets.recap import RoundRecap
from toonerville.widgets.seat import SeatView
from toonerville.widgets.tournament import TeacherDesk
from toonerville.widgets.url import seed_from_url


def _at_my_discard(seed: int, players: int = 4) -> Game:
    """A new game played by heuristic bots up to seat 0's first discard."""
    game = Game.new(players=players, seed=seed)
    bot, rng = HeuristicBot(), random.Random(seed)
    while not (game.current == 0 and game.phase is Phase.PLAY):
        who = game.deciders[0]
        game.apply(bot.choose(game.view(who), game.rules, partial(game.legal_actions, who),
                              rng))
    return game


# -- hints that weigh the choices ----------------------------------------------------------
def test_T13_the_hint_in_07_shows_the_strong_bots_discard_and_what_the_others_cost() -> None:
    app = PlayGame(seed=3, offer_buys=False)
    app.draw_button.click()
    app.hint_button.click()
    found = app.coach.found
    assert found is not None and isinstance(found.action, A.Discard)
    assert app.message.text.startswith("Hint: discard") and app.message.text.endswith("(T13)")
    assert list(app.hand.selected) == [found.action.card]  # the card is picked for you
    assert "Hint for Robin" in app.log_view.text
    # the costs are the engine's own estimates for this position, with their sample
    engine = hint(app.game, 0, worlds=HINT_WORLDS, time_budget=None, price=HINT_PRICE)
    assert found == engine and found.alternatives
    panel = app.coach.value
    assert "What the other choices cost" in panel
    assert panel.count('class="tr-coach-cost"') == len(engine.alternatives)
    for alternative in engine.alternatives:
        assert alternative.message().text in panel.replace("<bdi>", "").replace("</bdi>", "")
        # issue 28: each cost with its interval and the fresh worlds that priced it
        assert f"; {alternative.samples} rounds played out)" in alternative.message().text
    app.discard_button.click()  # a move: the hint is gone with its position
    assert app.coach.found is None and app.coach.value == ""


def test_on_the_static_site_the_hint_is_priced_on_the_sites_smaller_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In the browser (Pyodide, about three times slower) a hint chooses on the same
    worlds, so the move is Voila's, and prices it on `SITE_HINT_PRICE`: fewer worlds."""
    app = PlayGame(seed=3, offer_buys=False)
    app.draw_button.click()
    voila = coach_view.hint_for_game(app.game, 0)
    monkeypatch.setattr(coach_view, "IN_BROWSER", True)
    assert coach_view.page_price() == coach_view.SITE_HINT_PRICE != HINT_PRICE
    site = coach_view.hint_for_game(app.game, 0)
    assert site == hint(app.game, 0, worlds=HINT_WORLDS, time_budget=None,
                        price=coach_view.SITE_HINT_PRICE)
    assert site.action == voila.action and site.alternatives
    assert max(a.samples for a in site.alternatives) <= coach_view.SITE_HINT_PRICE[1]
    assert [a.samples for a in site.alternatives] != [a.samples for a in voila.alternatives]
    app.hint_button.click()  # the page itself asks on the site's budget
    assert app.coach.found == site


def test_the_hint_shows_a_thinking_state_before_the_work_starts() -> None:
    panel = CoachHint()
    seen = []

    def work() -> Hint:
        seen.append(panel.value)
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError):
        panel.ask(work)
    assert "tr-coach-thinking" in seen[0] and "Thinking" in seen[0]
    assert panel.value == ""  # a failed hint leaves nothing behind


def test_a_plain_move_says_nothing_else_was_worth_weighing() -> None:
    app = PlayGame(seed=5, offer_buys=False)  # round 1 opens with the contract in hand
    app.draw_button.click()
    app.hint_button.click()
    assert app.coach.found is not None and not app.coach.found.alternatives
    assert "No other move was worth weighing" in app.coach.value


def test_T13_the_seat_view_hint_weighs_the_choices_from_the_seats_own_views() -> None:
    game = _at_my_discard(seed=3)
    sent: list[A.Action] = []
    message = MessageBox()
    seat = SeatView(sent.append, message)  # type: ignore[arg-type]
    seat.show(game.view(0), legal=game.legal_actions(0), history=game.history,
              number=game.moves_made, finished=False, rules=game.rules)
    found = seat.hint()
    assert found is not None and found[0] in game.legal_actions(0)
    assert message.text.startswith("Hint: ") and message.kind == "info"
    shown = seat.coach.found
    assert shown is not None and shown.action == found[0]
    if shown.alternatives:
        assert seat.coach.value.count('class="tr-coach-cost"') == len(shown.alternatives)
    else:
        assert "No other move was worth weighing" in seat.coach.value
    again = seat.coach.hint_for_view(game.view(0), game.rules, game.legal_actions(0))
    assert again == shown  # same view, same notes: the same hint
    assert sent == []  # a hint plays nothing


# -- the review of a round -----------------------------------------------------------------
def _to_round_end(app: PlayGame, seed: int = 1) -> None:
    """The learner's seat played by the beginner bot until a round's recap opens."""
    bot, rng = make_bot("beginner"), random.Random(seed)
    while not app.recap.shown:
        game = app.game
        app.session.act(bot.choose(game.view(0), game.rules, partial(game.legal_actions, 0),
                                   rng))


def test_T20_the_recap_in_07_reviews_the_round_from_the_engines_positions() -> None:
    app = PlayGame(seed=3, offer_buys=False)
    _to_round_end(app)
    review = app.recap.review
    assert review.layout.display != "none" and review.round_number == 1
    assert review.wait(120)
    snapshot = review.game
    assert snapshot is not None and snapshot.actions[:len(app.game.actions)] \
        == app.game.actions[:snapshot.moves_made]
    mistakes = review.mistakes
    assert mistakes is not None and mistakes == review_round(snapshot, 0, 1)
    assert mistakes, "seed 3 with the beginner's slips: some decision costs points"
    assert review.body.layout.display == "none"  # closed until the learner opens it
    review.open_button.click()
    shown = review.body.value
    assert review.body.layout.display != "none"
    assert shown.count('class="tr-review-item"') == len(mistakes) <= 3
    items = shown.split('class="tr-review-item"')[1:]
    for mistake, item in zip(mistakes, items, strict=True):
        view = snapshot.position_at(mistake.moves).view(0)  # the board as it stood
        assert mistake.made == snapshot.actions[mistake.moves]
        assert [f'data-card="{c}"' in item for c in view.hand] == [True] * len(view.hand)
        text = item.replace("<bdi>", "").replace("</bdi>", "")
        assert f"You chose {mistake.made_words.text}; better: {mistake.better_words.text}" \
            in text
        # issue 28: the re-priced cost, with its interval (no longer floored at 1)
        assert f"about {round(mistake.cost)} points this round ({max(0, round(mistake.low))} " \
               f"to {round(mistake.high)} points; {mistake.samples} rounds played out)" in text
        assert f"Round 1, your turn {mistake.turn}" in text or "buy offer" in text
        assert f">{mistake.reason.rule}</a>" in item  # the reason's rule id, linked
    app.recap.continue_button.click()
    assert review.layout.display == "none"


def test_a_review_says_preparing_until_its_thread_is_done(
        monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    asked: list[tuple[int, int]] = []

    def slow(game: Game, seat: int, round_number: int,
             cancel: Callable[[], bool]) -> tuple[()]:
        asked.append((seat, round_number))
        release.wait(30)
        return ()

    monkeypatch.setattr(coach_review, "review_round", slow)
    game = play_game(["heuristic"] * 3, seed=8)
    review = RoundReview()
    review.prepare(game, 1, 11)  # after the game: any round can be picked
    review.open_button.click()
    assert "tr-review-preparing" in review.body.value and not review.ready
    release.set()
    assert review.wait(30) and "In round 11 no decision of yours cost" in review.body.value
    assert [value for _label, value in review.rounds.options] == list(range(1, 12))
    review.rounds.value = 4
    assert review.wait(30) and review.round_number == 4
    assert asked == [(1, 11), (1, 4)]
    review.rounds.value = 11  # ready already: no second review
    assert review.ready and asked == [(1, 11), (1, 4)]


def test_a_review_stops_when_its_page_is_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    started, stopped = threading.Event(), threading.Event()

    def endless(game: Game, seat: int, round_number: int,
                cancel: Callable[[], bool]) -> tuple[()]:
        started.set()
        while not cancel():
            started.wait(0.01)
        stopped.set()
        raise coach_review.ReviewCancelled("stopped")

    monkeypatch.setattr(coach_review, "review_round", endless)
    review = RoundReview()
    review.prepare(play_game(["heuristic"] * 3, seed=8), 0, 11)
    assert started.wait(30)
    review.close()
    assert stopped.wait(30) and not review.ready


# -- levels wherever a bot sits ----------------------------------------------------------------
LEVEL_SENTENCES = {level: describe_level(level).text for level in BOT_LEVELS}


def _described(html: str, chosen: str) -> None:
    """Every level is described on the page by its sentence, `chosen` marked."""
    for level, sentence in LEVEL_SENTENCES.items():
        assert f'data-level="{level}"' in html and escape(sentence) in html
    assert f'data-level="{chosen}" aria-current="true"' in html


def test_07_offers_the_levels_and_a_new_game_seats_the_chosen_level() -> None:
    app = PlayGame(seed=4)
    app.open_panel(SETTINGS)
    panel = app._settings
    assert panel is not None
    kinds = [value for _label, value in panel.bot_kind.options]
    assert kinds[:3] == ["beginner", "heuristic", "strong"]
    _described(panel.levels.value, "heuristic")
    panel.bot_kind.value = "beginner"
    _described(panel.levels.value, "beginner")
    app.new_game()
    bots = [app.session.table.bot_of(seat) for seat in range(1, app.game.players)]
    assert all(isinstance(bot, BeginnerBot) for bot in bots)
    assert "against 3 beginner bots" in app.message.text


def test_pass_and_play_seats_bots_of_the_levels_chosen() -> None:
    page = PassAndPlay()
    page.players.value = 3
    page.kind_choices[1].value = "strong"
    page.kind_choices[2].value = "beginner"
    _described(page.levels.value, "strong")
    assert 'data-level="beginner" aria-current="true"' in page.levels.value
    page.start(names=["Ann", "", ""])
    assert isinstance(page.table.bot_of(1), StrongBot)
    assert isinstance(page.table.bot_of(2), BeginnerBot)


def test_a_shared_tables_opener_chooses_the_bots_level(tmp_path: Path) -> None:
    page = SharedTable(open_store(tmp_path / "class.sqlite"))
    lobby = page.lobby
    assert [value for _label, value in lobby.bot_level.options] == list(BOT_LEVELS)
    lobby.bot_level.value = "strong"
    _described(lobby.levels.value, "strong")
    code = page.open_table(players=3, learners=2, seed=4)
    assert dict(page.store.info(code).bots) == {2: "strong"}
    # the stand-in for an away learner is of that level too, as the store keeps it
    again = open_store(tmp_path / "class.sqlite")
    state = again._caught_up(code)
    assert state.stand_in == "strong" and state.driver is not None
    state.driver.set_away(1)
    assert isinstance(state.driver.bot_of(1), StrongBot)


def test_a_seat_handed_to_a_bot_goes_to_a_bot_of_the_level_chosen(tmp_path: Path) -> None:
    page = SharedTable(open_store(tmp_path / "class.sqlite"))
    page.lobby.bot_level.value = "beginner"
    code = page.open_table(players=3, learners=2, seed=4)
    assert [value for _label, value in page.give_to.options] == [*BOT_LEVELS, ""]
    assert page.give_to.value == "beginner"  # the table's level, unless changed
    page.give_to.value = "strong"
    page.give_seat(seat=1)
    assert dict(page.store.info(code).bots) == {1: "strong", 2: "beginner"}


def test_the_tournament_teacher_chooses_the_bots_level(tmp_path: Path) -> None:
    page = TeacherDesk(open_store(tmp_path / "class.sqlite"))
    # the levels, each described, and nothing else (no random or never-buying bots)
    assert [value for _label, value in page.bot_kind.options] == list(BOT_LEVELS)
    page.bot_kind.value = "beginner"
    guide = next(w for w in page.setup.children if isinstance(w, LevelGuide))
    _described(guide.value, "beginner")
    page.start(["Ann", "Bo"], bots=2, seed=5)
    # a learner who cannot come back is played by a bot of the level the teacher chose
    assert [value for _label, value in page.give_to.options] == [*BOT_LEVELS, ""]
    assert page.give_to.value == "beginner"
    page.give_seat("Bo")
    desk = page._desk()
    table = desk.get(page.code or "").table_of("Bo")
    assert dict(desk.store.info(table.code).bots)[table.players.index("Bo")] == "beginner"


def test_the_explorer_compares_two_levels_on_paired_deals_with_intervals() -> None:
    explorer = RulesExplorer(seed=3, players=3)
    compare = explorer.levels
    assert compare in explorer.children
    _described(compare.guide.value, "beginner")
    assert 'data-level="heuristic" aria-current="true"' in compare.guide.value
    compare.games.value = 3
    compare.start()
    compare.wait(120)
    assert compare.pairs == list(compare_levels("beginner", "heuristic", 3, 3, 3))
    summary = level_difference(compare.pairs)
    assert compare.status.value == "3 of 3 paired games played"
    shown = compare.result.value
    assert f"beginner: {summary['a']} points per game (95 % interval)" in shown
    assert f"heuristic: {summary['b']} points per game" in shown
    assert f"B − A: {summary['b_minus_a']} points per game" in shown
    compare.level_b.value = "strong"  # slow: the games come down, and the page says why
    assert compare.games.value == 2 and "about a minute" in compare.note.value


# -- the browser test's position (?scenario=roundend) ------------------------------------------
def test_T13_the_roundend_scenario_ends_the_round_after_any_discard_of_yours(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUERY_STRING", "scenario=roundend&seed=46")
    app = PlayGame(seed=seed_from_url(7))  # as notebook 07 does
    game = app.game
    assert game.round_number == 1 and game.current == 0 and game.phase is Phase.PLAY
    assert game.moves_made > 0  # the round so far was played: there is something to review
    app.hint_button.click()
    assert app.coach.found is not None and app.coach.found.alternatives  # a hint with costs
    discards = [a for a in game.legal_actions(0) if isinstance(a, A.Discard)]
    assert len(discards) >= 3
    for discard in discards:  # whichever card the learner discards, the round ends
        page = PlayGame(game=game.position_at(game.moves_made), buy_offers="helpful")
        page.session.act(discard)
        assert page.recap.shown and page.recap.end is not None \
            and page.recap.end.round_number == 1
        page.recap.review.close()  # no review needed here


def test_a_shared_tables_recap_reviews_the_learners_own_seat(tmp_path: Path) -> None:
    page = SharedTable(open_store(tmp_path / "class.sqlite"))
    code = page.open_table(players=3, learners=1, seed=4)
    seat = page.seat
    assert isinstance(seat, SeatHandle)
    bot, rng = make_bot("beginner"), random.Random(2)
    for _step in range(600):  # the learner plays round 1 (as a beginner would)
        page.poll()
        if page.seat_view.recap.shown:
            break
        view = seat.view
        if 0 in view.deciders:
            assert page._play(bot.choose(view, page.seat_view.rules, seat.legal_actions,
                                         rng))
    else:
        pytest.fail("round 1 never ended")
    review = page.seat_view.recap.review
    assert review.layout.display != "none" and review.game is None  # not started yet:
    review.open_button.click()  # every learner's round ends at once, so on opening
    assert review.round_number == 1 and review.wait(120)
    snapshot = review.game
    assert snapshot is not None  # the table's own game, as the store keeps it
    game = Game.from_json(page.store.export(code))
    assert snapshot.actions == game.actions[:snapshot.moves_made]
    assert review.mistakes == review_round(snapshot, 0, 1)
    # reading the review holds the recap's countdown
    assert not page.seat_view.recap.ticker.playing and page.seat_view.recap.shown
    assert review.body.layout.display != "none" and "tr-review-" in review.body.value


def test_without_threads_a_review_is_prepared_when_opened(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Pyodide (the static site) has no threads: the recap offers the review, and
    opening it runs the review there and then, "preparing…" already on the page."""
    monkeypatch.setattr(coach_review, "IN_BROWSER", True)
    monkeypatch.setattr(recap_module, "IN_BROWSER", True)
    seen: list[str] = []
    recap = RoundRecap()

    def quick(game: Game, seat: int, round_number: int,
              cancel: Callable[[], bool]) -> tuple[()]:
        seen.append(recap.review.body.value)
        assert threading.current_thread() is threading.main_thread()
        return ()

    monkeypatch.setattr(coach_review, "review_round", quick)
    game = play_game(["heuristic"] * 3, seed=8)
    recap.review_source = lambda: (game, 0)
    assert not recap.review_at_once
    recap.offer(game.history)
    assert recap.review.game is None and seen == []  # nothing before it is opened
    recap.review.open_button.click()
    assert "tr-review-preparing" in seen[0] and recap.review.ready
    assert "In round 11 no decision of yours cost" in recap.review.body.value


def test_pass_and_play_keeps_each_learners_notes_apart() -> None:
    page = PassAndPlay(seed=11)
    page.start(names=["Ann", "Bo", "Cy"], kinds=["human"] * 3)
    game = page.game
    assert game is not None
    bot, rng = HeuristicBot(), random.Random(1)
    for _step in range(15):  # a few turns, each learner revealing the page and playing
        if page.holder is None:
            page.reveal()
        holder = page.holder
        assert holder is not None
        page._play(bot.choose(game.view(holder), game.rules,
                              partial(game.legal_actions, holder), rng))
    memories = page.seat_view.coach.memories
    assert len(memories) == 3 and all(m.seat == s for s, m in memories.items())


def test_without_threads_the_level_comparison_plays_on_the_pages_loop() -> None:
    async def run() -> LevelComparer:
        compare = LevelComparer(games=2, seed=5, players=3, mode="page")
        task = compare.start()
        assert task is not None and compare.running
        await task
        return compare

    compare = asyncio.run(run())
    assert compare.pairs == list(compare_levels("beginner", "heuristic", 2, 5, 3))
    assert compare.status.value == "2 of 2 paired games played" and not compare.running


def test_a_review_still_being_prepared_stops_when_the_recap_closes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Continue closes the recap: a review not ready yet stops (its thread would slow
    the bots' moves) — before it starts, if Continue comes within `START_DELAY` — and is
    prepared again if the learner asks for it later (the menu after the game)."""
    calls: list[str] = []

    def patient(game: Game, seat: int, round_number: int,
                cancel: Callable[[], bool]) -> tuple[()]:
        calls.append(f"started {round_number}")
        for _tick in range(50):
            if cancel():
                calls.append(f"stopped {round_number}")
                raise coach_review.ReviewCancelled("stopped")
            threading.Event().wait(0.01)
        return ()

    monkeypatch.setattr(coach_review, "review_round", patient)
    game = play_game(["heuristic"] * 3, seed=8)
    recap = RoundRecap()
    recap.review_source = lambda: (game, 0)
    recap.offer(game.history)
    review = recap.review
    recap.close_recap()  # at once: the review never started
    assert not review.wait(30) and calls == []
    monkeypatch.setattr(coach_review, "START_DELAY", 0.0)
    review.rounds.value = 3
    review.rounds.value = 11  # the last round again: prepared anew
    assert review.wait(30) and review.round_number == 11
    assert "started 11" in calls and "started 3" in calls
    review.close()


def test_pass_and_play_reviews_the_round_of_the_learner_holding_the_device() -> None:
    page = three_learners(seed=21)
    game = page.game
    assert game is not None
    bot = HeuristicBot()
    for _click in range(3_000):  # round 1, played by clicks
        if game.records:
            break
        if covered(page):
            page.reveal_button.click()
            continue
        seat = page.holder
        assert seat is not None
        choice = bot.choose(game.view(seat), game.rules, partial(game.legal_actions, seat),
                            random.Random(len(game.actions)))
        if not press(page, choice):
            options = [a for a in game.legal_actions(seat)
                       if isinstance(a, A.Discard | A.Pass | A.Draw)]
            assert press(page, options[0])
    while covered(page):
        page.reveal_button.click()
    review = page.seat_view.recap.review
    holder = page.holder
    assert holder is not None and page.seat_view.recap.shown and review.game is None
    review.open_button.click()  # prepared when opened, for the learner holding it
    assert review.wait(120) and review.game is not None
    assert review.mistakes == review_round(review.game, holder, 1)
