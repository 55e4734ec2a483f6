"""The strong bot: it reads only its own view, it is deterministic per seed, it weighs
real choices only, its worlds keep everything the seat can see, and it plays legal
moves (the engine refuses anything else)."""

from __future__ import annotations

import random
from collections import Counter
from functools import partial

import pytest

from toonerville.coach import strong
from toonerville.coach.hint import memory_for
from toonerville.coach.memory import Memory, sample_world
from toonerville.coach.strong import Decision, StrongBot, Weighed, difference
from toonerville.engine import actions as A
from toonerville.engine.cards import Card, parse_cards, shoe
from toonerville.engine.events import Phase
from toonerville.engine.game import Game
from toonerville.players.bots import HeuristicBot, usefulness

MINE = "R5 Y5 G7 B7 R9 Y2 G3 B11 R13 Y14 G1 B4"
PILE = "G5 R12 Y3"  # top first: G5 goes with R5 Y5 (T5), so taking it is a real choice
G5 = Card.parse("G5")  # and once taken, it may not be discarded this turn (T14)


def _game(shuffle_seed: int, seed: int = 11) -> Game:
    """Seat 0 holds MINE and sees PILE's top; the other hands and the stock are dealt
    from the remaining cards in an order that depends on `shuffle_seed` only."""
    rest = Counter(shoe(3))
    rest.subtract(parse_cards(MINE))
    rest.subtract(parse_cards(PILE))
    cards = sorted(rest.elements(), key=lambda c: c.sort_key)
    random.Random(shuffle_seed).shuffle(cards)
    hands = [parse_cards(MINE), cards[:12], cards[12:24]]
    return Game.from_position(hands, cards[24:], PILE, dealer=2, current=0, seed=seed)


def _decide(game: Game, seat: int, seed: int = 1, worlds: int = 3,
            clear: tuple[float, float] = strong.ADVICE, kept: int = 0) -> Decision:
    bot = StrongBot(worlds=worlds, time_budget=None, clear=clear, kept=kept)
    return bot.decide(game.view(seat), game.rules, partial(game.legal_actions, seat),
                      random.Random(seed))


@pytest.mark.parametrize("kept", [0, 3])
def test_strong_bot_reads_only_its_own_view(kept: int) -> None:
    one, two = _game(1), _game(2)
    assert one.hand(1) != two.hand(1) and one.all_cards() != two.all_cards() or \
        one.round_cards != two.round_cards
    assert one.view(0) == two.view(0)  # the seat sees the same in both
    a, b = _decide(one, 0, kept=kept), _decide(two, 0, kept=kept)
    assert a.weighed, "taking G5 or drawing is a real choice: it is weighed"
    assert a == b


def test_strong_bot_reads_only_its_own_view_when_it_discards() -> None:
    one, two = _game(1), _game(2)
    for game in (one, two):
        game.take_discard(0)  # G5: the same hand in both games, the stock unknown
    assert one.view(0) == two.view(0) and one.view(0).phase is Phase.PLAY
    a, b = _decide(one, 0, seed=2), _decide(two, 0, seed=2)
    assert len(a.weighed) >= 2 and all(isinstance(w.action, A.Discard) for w in a.weighed)
    assert a == b
    assert G5 not in [w.action.card for w in a.weighed if isinstance(w.action, A.Discard)]


def test_strong_bot_is_deterministic_per_seed() -> None:
    game = _game(1)
    assert _decide(game, 0, seed=5) == _decide(game, 0, seed=5)
    bot = StrongBot(worlds=3, time_budget=None)
    chosen = bot.choose(game.view(0), game.rules, partial(game.legal_actions, 0),
                        random.Random(5))
    assert chosen == _decide(game, 0, seed=5).action


def test_strong_bot_weighs_both_draws_with_the_sample_behind_them() -> None:
    decision = _decide(_game(3), 0, worlds=4)
    assert {type(w.action) for w in decision.weighed} == {A.TakeDiscard, A.Draw}
    assert all(w.samples == 4 and w.points >= 0 for w in decision.weighed)
    assert decision.reason.rule == "T9"


def test_plain_decisions_are_answered_without_a_search() -> None:
    game = Game.from_position([MINE, "R1 R2 R3", "Y1 Y2 Y3"], "B1 B2 B3 B4 B5", "",
                              dealer=2, current=0)
    decision = _decide(game, 0)
    assert decision.action == A.Draw(0) and decision.weighed == ()  # T9: nothing to take
    lone = Game.from_position([MINE, "R1 R2 R3", "Y1 Y2 Y3"], "B1 B2 B3 B4 B5", "Y10",
                              dealer=2, current=0)
    assert _decide(lone, 0).weighed == ()  # Y10 goes with none of the cards


@pytest.mark.parametrize("kept", [0, 3])
def test_a_world_keeps_everything_the_seat_sees(kept: int) -> None:
    from toonerville.players.simulate import play_game

    game = play_game(["heuristic"] * 4, seed=8, turn_limit=60)
    checked = 0
    for k in range(40, 400, 23):
        pos = game.position_at(k)
        seat = pos.deciders[0]
        view = pos.view(seat)
        world, lead = sample_world(view, pos.rules, memory_for(game, seat, k),
                                   random.Random(k), kept=kept)
        seen = world.position_at(lead).view(seat)
        for field in ("hand", "hand_sizes", "table", "down", "discard_top", "discard_size",
                      "stock_size", "phase", "current", "offered", "round_number",
                      "scores"):
            assert getattr(seen, field) == getattr(view, field), (k, field)
        placed = Counter(c for where in world.all_cards().values() for c in
                         (world.round_cards[i] for i in where))
        assert placed == Counter(shoe(4))  # every card once: nothing made up or lost
        checked += 1
    assert checked > 10


def test_kept_hands_are_dealt_as_players_keep_them() -> None:
    """With `kept`, the others' hands hold cards that help them more toward the contract
    than hands dealt uniformly from the same unseen cards, and keep the cards seen bought
    and their sizes (that every card is dealt once: `a_world_keeps_everything`)."""
    from toonerville.players.simulate import play_game

    game = play_game(["heuristic"] * 3, seed=5, turn_limit=60)
    k, seat = 494, 1  # round 3: seat 0 bought G11, nobody is down, 26 cards discarded
    pos = game.position_at(k)
    view, memory = pos.view(seat), memory_for(game, seat, k)
    assert memory.bought == {0: [Card.parse("G11")]} and not any(view.down)

    def help_held(hand: tuple[Card, ...]) -> float:
        return sum(usefulness(c, hand, view.contract) for c in hand)

    helped = {0: 0.0, 3: 0.0}
    for kept in (0, 3):
        for seed in range(100):
            world, lead = sample_world(view, pos.rules, memory, random.Random(seed),
                                       kept=kept)
            now = world.position_at(lead)
            assert now.view(seat).hand_sizes == view.hand_sizes
            assert now.hand(seat) == view.hand
            assert Card.parse("G11") in now.hand(0)  # seen bought: never let go of
            helped[kept] += help_held(now.hand(0)) + help_held(now.hand(2))
    assert helped[3] > helped[0] * 1.2, helped
    with pytest.raises(ValueError, match="kept"):
        StrongBot(kept=-1)


def test_memory_notes_a_bought_card() -> None:
    game = Game.from_position(["R1 R2 R3 Y4", "G5 G6 G7 B8", "B9 B10 B11 Y12"],
                              "R4 R5 R6 R7 R8 R9", "G8", dealer=2, current=0)
    memory = Memory()
    game.draw(0)  # declines G8: the buy window opens for seats 1 and 2
    memory.observe(game.view(2))
    game.buy(1)  # the nearest to seat 0's left: the window settles at once (T10)
    memory.observe(game.view(2))
    assert memory.bought == {1: [Card.parse("G8")]}


def test_strong_bot_plays_a_round_of_legal_moves() -> None:
    game = Game.new(players=3, seed=4, turn_limit=25)
    bots = [StrongBot(worlds=1, time_budget=None), StrongBot(worlds=1, time_budget=None),
            StrongBot(worlds=1, time_budget=None)]
    rng = random.Random(0)
    while game.round_number == 1:
        seat = game.deciders[0]
        game.apply(bots[seat].choose(game.view(seat), game.rules,
                                     partial(game.legal_actions, seat), rng))
    assert game.records[0].round_number == 1 and game.phase is Phase.DRAW


# -- issue 28: the strong bot takes the move its evidence says is best ----------------------
def test_the_strong_bot_takes_a_move_clearly_better_than_the_heuristics(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game(3)
    usual = HeuristicBot().choose(game.view(0), game.rules, partial(game.legal_actions, 0),
                                  random.Random(1))
    other = A.Draw(0) if isinstance(usual, A.TakeDiscard) else A.TakeDiscard(0)

    def fixed(gains: tuple[int, ...]):  # type: ignore[no-untyped-def]
        def weigh(view, rules, options, *args, **kwargs):  # type: ignore[no-untyped-def]
            base = (9, 4, 7, 12, 6, 8, 10, 5)
            return (Weighed(other, 0, 8, 0, tuple(b - g for b, g in zip(base, gains, strict=True))),
                    Weighed(usual, 0, 8, 0, base))
        return weigh

    # the other move gains 0.75 points, world by world, with a standard error of 0.16:
    # beyond 2 standard errors, so it is taken (the old rule wanted a gain of 1 point)
    monkeypatch.setattr(strong, "weigh", fixed((1, 1, 1, 0, 1, 1, 1, 0)))
    assert _decide(game, 0).action == other
    # a gain of 0.75 points on average with a standard error of 1.6: not clear, the
    # heuristic bot's move stays
    monkeypatch.setattr(strong, "weigh", fixed((5, -4, 6, -5, 4, -3, 5, -2)))
    assert _decide(game, 0).action == usual
    # the rule is the bot's `clear` (standard errors, points): the strong level plays by
    # stop 24's rule (1.5 SE and a point), which keeps the heuristic's move for the first
    # gain of 0.75 points; the coach recommends by the stricter-in-errors ADVICE above
    monkeypatch.setattr(strong, "weigh", fixed((1, 1, 1, 0, 1, 1, 1, 0)))
    assert StrongBot().clear == strong.PLAYING == (1.5, 1.0)
    assert _decide(game, 0, clear=strong.PLAYING).action == usual
    assert _decide(game, 0, clear=(0.0, 0.0)).action == other
    with pytest.raises(ValueError, match="clear"):
        StrongBot(clear=(-1.0, 0.0))


def test_a_paired_difference_has_the_standard_error_of_its_world_by_world_gains() -> None:
    a = Weighed(A.Draw(0), 0, 4, 0, (10, 12, 9, 13))
    b = Weighed(A.TakeDiscard(0), 0, 4, 0, (8, 9, 8, 11))
    d = difference(a, b)
    assert d.mean == 2.0 and d.n == 4
    assert d.se == pytest.approx(0.8165 / 2, abs=1e-3)  # gains 2 3 1 2: sd 0.8165
    assert d.low < 2.0 < d.high and d.high - d.low == pytest.approx(2 * d.half_width)


def test_a_difference_the_same_in_every_world_is_not_certain() -> None:
    # 16 worlds where both moves end the round alike, though a round's points vary from
    # world to world by 12: a rarer world may still tell them apart (issue 28: such
    # "0 to 0" intervals missed a 500-world reference of 6.6 points)
    points = tuple(range(0, 48, 3))
    a = Weighed(A.Draw(0), 22.5, 16, 12.0, points)
    b = Weighed(A.TakeDiscard(0), 22.5, 16, 12.0, points)
    d = difference(a, b)
    assert d.mean == 0 and d.se > 0 and d.low < -1 and d.high > 1


def test_pricing_is_a_budget_of_work_that_more_worlds_extend() -> None:
    from toonerville.coach.strong import price

    game = _game(3)
    view = game.view(0)
    memory = Memory()
    memory.observe(view)
    bots = [HeuristicBot() for _ in range(3)]
    options = [A.TakeDiscard(0), A.Draw(0)]
    few = price(view, game.rules, options, memory, "k", bots, 4, 12, 4, target_se=0.0,
                moves=1)
    assert [w.samples for w in few] == [4, 4]  # the moves were spent after the first 4
    more = price(view, game.rules, options, memory, "k", bots, 4, 12, 4, target_se=0.0)
    assert [w.samples for w in more] == [12, 12]
    assert [w.outcomes[:4] for w in more] == [w.outcomes for w in few]
    assert [w.action for w in more] == options  # the first is the one priced against


def test_a_difference_of_0_in_every_world_alike_is_uncertain_by_the_points_at_stake() -> None:
    # both moves ended every one of 16 worlds with 0 points (the seat went out), but the
    # seat holds 30 points: a rarer world where it does not go out may tell them apart
    # (issue 28: a "0 to 0" interval missed a 500-world reference of 6.6 points)
    a = Weighed(A.Draw(0), 0.0, 16, 0.0, (0,) * 16, stake=30)
    b = Weighed(A.TakeDiscard(0), 0.0, 16, 0.0, (0,) * 16, stake=30)
    d = difference(a, b)
    assert d.mean == 0 and d.low < -3 and d.high > 3


# -- worlds lined up for a take or a buy, and close calls weighed on more worlds ----------
def _settle(game: Game) -> None:
    while game.phase is Phase.BUY:  # every seat asked passes
        game.apply(A.Pass(game.deciders[0]))


def _gained(game: Game, seat: int, *moves: A.Action) -> Card:
    """The one card `seat` gains from `moves` (each followed by every seat asked to buy
    passing)."""
    before = Counter(game.hand(seat))
    for move in moves:
        game.apply(move)
        _settle(game)
    (card,) = (Counter(game.hand(seat)) - before).elements()
    return card


def test_aligned_worlds_line_up_the_draws_after_a_take_or_a_buy() -> None:
    """`sample_world(shift=…)`: the same world as seen from the seat, and the stock
    reordered so that after a take (one card fewer from the stock) or a buy (one more:
    the penalty card) the next card drawn is the very card drawn after a draw or a pass.
    As dealt (no shift), it is another: the whole stock's luck moves by a card."""
    from toonerville.engine.legal import discard_move
    from toonerville.players.simulate import play_game

    game = play_game(["heuristic"] * 4, seed=8, turn_limit=60)
    seen = {A.TakeDiscard: 0, A.Buy: 0}
    unlined = 0
    for k in range(30, 900, 7):
        pos = game.position_at(k)
        seat = pos.deciders[0]
        view = pos.view(seat)
        if view.down[seat] or view.stock_size < 8 or view.discard_top is None:
            continue
        memory = memory_for(game, seat, k)
        if view.phase is Phase.DRAW and not view.discard_top.is_rook:
            move, other = A.TakeDiscard(seat), A.Draw(seat)
        elif view.phase is Phase.BUY and A.Buy(seat) in pos.legal_actions(seat):
            move, other = A.Buy(seat), A.Pass(seat)
        else:
            continue
        shift = strong.STOCK_SHIFT[type(move)]
        drawn: dict[tuple[int, str], Card] = {}
        for world_shift in (0, shift):
            world, lead = sample_world(view, pos.rules, memory, random.Random(k),
                                       shift=world_shift)
            plain, _ = sample_world(view, pos.rules, memory, random.Random(k))
            for field in ("hand", "hand_sizes", "table", "discard_top", "discard_size",
                          "stock_size", "phase", "current", "offered"):
                assert getattr(world.position_at(lead).view(seat), field) == \
                    getattr(view, field), (k, field)
            assert [world.position_at(lead).hand(s) for s in range(4)] == \
                [plain.position_at(lead).hand(s) for s in range(4)]  # only the stock moves
            for branch, action, g in (("move", move, world.position_at(lead)),
                                      ("other", other, plain.position_at(lead))):
                if isinstance(move, A.Buy):  # the current player's draw after the window
                    drawn[world_shift, branch] = _gained(g, view.current, action)
                    continue
                g.apply(action)  # a take, or a draw (every seat passing on the buy)
                _settle(g)
                card = next(c for c in g.hand(seat) if c != view.discard_top)
                g.apply(discard_move(seat, card))  # then the next seat's draw
                drawn[world_shift, branch] = _gained(g, g.current, A.Draw(g.current))
        assert drawn[shift, "move"] == drawn[shift, "other"], (k, move)
        unlined += drawn[0, "move"] != drawn[0, "other"]
        seen[type(move)] += 1
    assert seen[A.TakeDiscard] >= 3 and seen[A.Buy] >= 3, seen
    assert unlined >= sum(seen.values()) // 2, (unlined, seen)  # as dealt: mostly not


def test_a_close_call_is_weighed_on_more_worlds_and_no_other_call_is() -> None:
    """`StrongBot(closer=N)`: when the rule's verdict on the first worlds is within
    `strong.NEAR` standard errors of turning (`close_call`), every move is weighed on N
    more worlds (the first worlds' outcomes kept) and the rule decides on all of them;
    any other decision is the bot's without `closer`, world for world."""
    from toonerville.players.simulate import play_game

    game = play_game(["heuristic"] * 3, seed=5, turn_limit=60)
    close = plain = 0
    for k in range(20, 700, 9):
        pos = game.position_at(k)
        seat = pos.deciders[0]
        legal = partial(pos.legal_actions, seat)
        bots = [StrongBot(worlds=4, closer=more) for more in (0, 4)]
        for bot in bots:  # the same notes of the round so far
            bot.memory = memory_for(game, seat, k)
        first, second = (bot.decide(pos.view(seat), pos.rules, legal, random.Random(k))
                         for bot in bots)
        if not first.weighed:
            assert second == first
            continue
        usual = HeuristicBot().explain(pos.view(seat), pos.rules, legal)[0]
        if not strong.close_call(first.weighed, usual, strong.PLAYING):
            assert second == first
            plain += 1
            continue
        close += 1
        assert {w.samples for w in second.weighed} == {8}
        by = {w.action: w.outcomes for w in second.weighed}
        assert all(by[w.action][:4] == w.outcomes for w in first.weighed)
        again = strong.chosen(second.weighed, usual, strong.PLAYING)
        assert second.action == again.action
    assert close >= 2 and plain >= 2, (close, plain)
    assert not strong.close_call(first.weighed[:1], usual, strong.PLAYING)
    with pytest.raises(ValueError, match="closer"):
        StrongBot(closer=-1)


def test_joined_estimates_keep_every_move_on_the_same_worlds() -> None:
    take, draw = A.TakeDiscard(0), A.Draw(0)
    first = (Weighed.of(take, (10, 0)), Weighed.of(draw, (20, 30)))
    more = (Weighed.of(draw, (0, 0)),)  # the take refused in those worlds: left out
    assert [w.action for w in strong.joined(first, more, [take, draw])] == [draw]
    both = strong.joined(first, (Weighed.of(draw, (3,)), Weighed.of(take, (40,))),
                         [take, draw])  # best first again: the take now, 16.7 to 17.7
    assert [(w.action, w.outcomes) for w in both] == [(take, (10, 0, 40)),
                                                      (draw, (20, 30, 3))]
