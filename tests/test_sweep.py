"""The exact sweep, and the H7 search that falls back on it (issue 27).

Under H7 the walk of `partition` has a step limit; a walk cut short used to answer with
what it had found so far, and dropped legal go-outs. Now the sweep finishes the search.
These tests hold the sweep, and the public functions with the walk's limit made tiny,
against a brute-force enumerator written here (every way to split the hand into melds
the engine's own `check_meld` accepts, and `check_lay_down` on each split) on small
hands built to be hard: few cells, many copies, up to five Rooks, H7 on and off, the H1
and H8 switches. And they pin the hands of the issue: a round-11 hand of 73 cards and one
of 81 whose whole-hand lay-down the limited walk did not find.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from toonerville.engine import actions as A
from toonerville.engine.cards import COLOURS, ROOK, Card, hand_points, parse_cards
from toonerville.engine.events import Phase
from toonerville.engine.game import Game
from toonerville.engine.laydown import check_lay_down
from toonerville.engine.melds import Meld, MeldKind, check_meld
from toonerville.engine.rules import Rules
from toonerville.engine.solver import best_lay_down, partition, whole_hand
from toonerville.engine.solver.sweep import sweep
from toonerville.engine.solver.tally import NONE, book_for, tally
from toonerville.players.bots import HeuristicBot

VARIANTS = (
    Rules(extra_melds=True),
    Rules(),
    Rules(extra_melds=True, same_number_sets=True),
    Rules(extra_melds=True, contiguous_runs=True),
    Rules(extra_melds=True, max_rooks_per_meld=1),
    Rules(extra_melds=True, rooks_at_most_naturals=True),
    Rules(max_rooks_per_meld=2, rooks_at_most_naturals=True, same_number_sets=True),
    Rules(extra_melds=True, max_rooks_per_meld=0),
)


# -- the brute force: slow, simple, no cleverness ------------------------------------------
def melds_with(first: Card, rest: Counter[Card], rules: Rules) -> list[Meld]:
    """Every meld the engine accepts that holds `first` and otherwise cards of `rest`."""
    have = rest.copy()
    have[first] += 1
    rooks = have[ROOK]
    out: list[Meld] = []
    colours = COLOURS if first.is_rook else (first.colour,)
    for colour in colours:
        for low in range(1, 12):
            for high in range(low + 3, 15):
                if not first.is_rook and not low <= first.number <= high:
                    continue
                _runs(colour, low, high, have, rooks, first, [], out)
    numbers = range(1, 15) if first.is_rook else (first.number,)
    for number in numbers:
        kinds = sorted((c for c in have if not c.is_rook and c.number == number),
                       key=lambda c: c.sort_key)
        _sets(kinds, 0, number, have, rooks, first, [], out)
    return [m for m in out if check_meld(str(m), rules)]


def _runs(colour: object, low: int, high: int, have: Counter[Card], rooks: int, first: Card,
          cards: list[Card], out: list[Meld]) -> None:
    place = low + len(cards)
    if place > high:
        if first in cards:
            out.append(Meld(MeldKind.RUN, tuple(cards), colour, low))  # type: ignore[arg-type]
        return
    natural = next(c for c in COLOURS_CARDS[colour] if c.number == place)
    if have[natural] > cards.count(natural):
        _runs(colour, low, high, have, rooks, first, [*cards, natural], out)
    if cards.count(ROOK) < rooks:
        _runs(colour, low, high, have, rooks, first, [*cards, ROOK], out)


COLOURS_CARDS = {colour: [Card(colour, n) for n in range(1, 15)] for colour in COLOURS}


def _sets(kinds: list[Card], i: int, number: int, have: Counter[Card], rooks: int,
          first: Card, cards: list[Card], out: list[Meld]) -> None:
    if i == len(kinds):
        for k in range(rooks + 1):
            melded = cards + [ROOK] * k
            if len(melded) >= 3 and first in melded:
                out.append(Meld(MeldKind.SET, tuple(melded), None, number))
        return
    for k in range(have[kinds[i]] + 1):
        _sets(kinds, i + 1, number, have, rooks, first, cards + [kinds[i]] * k, out)


def splits(hand: tuple[Card, ...], rules: Rules) -> list[tuple[list[Meld], list[Card]]]:
    """Every way to split the hand into melds and cards left: the first card left in a
    fixed order either stays in hand or goes into some meld with cards still free."""
    found: list[tuple[list[Meld], list[Card]]] = []

    def split(rest: Counter[Card], melds: list[Meld], left: list[Card]) -> None:
        if not +rest:
            found.append((melds, left))
            return
        first = min(+rest, key=lambda c: c.sort_key)
        rest = rest.copy()
        rest[first] -= 1
        split(rest, melds, [*left, first])
        for meld in melds_with(first, rest, rules):
            need = Counter(meld.cards)
            need[first] -= 1
            if all(rest[c] >= k for c, k in need.items()):
                split(rest - need, [*melds, meld], left)

    split(Counter(hand), [], [])
    return found


def brute_force(hand: tuple[Card, ...], round_number: int, rules: Rules
                ) -> list[tuple[int, int]]:
    """(points left, cards left) of every lay-down of the round's contract."""
    contract = rules.contract(round_number)
    return [(hand_points(left), len(left)) for melds, left in splits(hand, rules)
            if melds and check_lay_down(melds, contract, rules)]


def assert_answer(melds: tuple[Meld, ...], left: tuple[Card, ...], hand: tuple[Card, ...],
                  round_number: int, rules: Rules) -> None:
    verdict = check_lay_down(melds, rules.contract(round_number), rules)
    assert verdict, str(verdict)
    for meld in melds:
        again = check_meld(str(meld), rules)
        assert again and again.meld == meld, str(again)
    assert Counter(c for m in melds for c in m.cards) + Counter(left) == Counter(hand)


# -- hands built to be hard ----------------------------------------------------------------
@st.composite
def hard(draw: st.DrawFn) -> tuple[tuple[Card, ...], int, Rules, int]:
    """A small hand from few cells (1-2 colours, 4-6 numbers), up to 4 copies of a card
    and up to 5 Rooks; a round whose contract it may make; the rules; a `keep`."""
    colours = COLOURS[:draw(st.integers(1, 2))]
    low = draw(st.integers(1, 9))
    cells = [Card(c, n) for c in colours for n in range(low, min(14, low + draw(
        st.integers(3, 5))) + 1)]
    rooks = draw(st.integers(0, 5))
    naturals = draw(st.lists(st.sampled_from(cells), min_size=max(3, 7 - rooks),
                             max_size=9 - rooks))
    hand = tuple(draw(st.permutations([*naturals, *(ROOK,) * rooks])))
    rounds = [r for r in range(1, 12) if Rules().contract(r).min_cards <= len(hand)]
    return hand, draw(st.sampled_from(rounds)), draw(st.sampled_from(VARIANTS)), \
        draw(st.integers(0, 2))


def case(text: str, round_number: int, rules: Rules, keep: int = 0
         ) -> tuple[tuple[Card, ...], int, Rules, int]:
    return parse_cards(text), round_number, rules, keep


HARD = settings(deadline=None, max_examples=40, derandomize=True)


@HARD
@given(hard())
@example(case("R5 R5 R6 R6 R7 R7 R8 R8 RK RK", 3, VARIANTS[0]))
@example(case("R5 R5 R5 R6 R6 R6 R7 R7 RK RK RK", 1, VARIANTS[2], 2))
@example(case("RK RK RK RK RK R7 R7 Y7", 1, VARIANTS[0]))
@example(case("R3 R4 R5 R6 R7 R8 R9 R10 RK", 3, VARIANTS[3], 1))
def test_H7_the_sweep_agrees_with_the_brute_force(
        c: tuple[tuple[Card, ...], int, Rules, int]) -> None:
    hand, round_number, rules, keep = c
    options = brute_force(hand, round_number, rules)
    cnt, _, rooks, _ = tally(hand)
    contract, book = rules.contract(round_number), book_for(rules)
    whole = sweep(cnt, rooks, contract, book, True, 0, NONE)
    assert (whole is None) == (not any(n == 0 for _, n in options))
    if whole is not None:
        assert not whole.left()
        assert_answer(whole.melds(book), (), hand, round_number, rules)
    best = sweep(cnt, rooks, contract, book, False, keep, NONE)
    kept = [points for points, n in options if n >= keep]
    assert (best is None) == (not kept)
    if best is not None:
        assert best.points == min(kept) and len(best.left()) >= keep
        assert_answer(best.melds(book), best.left(), hand, round_number, rules)


@HARD
@given(hard())
def test_H7_a_walk_cut_short_still_answers_exactly(
        c: tuple[tuple[Card, ...], int, Rules, int], ) -> None:
    """The public functions with the walk's limit at 3 steps: the sweep finishes."""
    hand, round_number, rules, keep = c
    saved = partition.EXTRA_MELDS_STEPS
    partition.EXTRA_MELDS_STEPS = 3
    try:
        whole = whole_hand(hand, round_number, rules)
        best = best_lay_down(hand, round_number, rules, keep=keep)
        quick = best_lay_down(hand, round_number, rules, keep=keep, at_most=20)
    finally:
        partition.EXTRA_MELDS_STEPS = saved
    options = brute_force(hand, round_number, rules)
    assert (whole is None) == (not any(n == 0 for _, n in options))
    if whole is not None:
        assert_answer(whole, (), hand, round_number, rules)
    kept = [points for points, n in options if n >= keep]
    assert (best is None) == (not kept)
    if best is not None:
        assert best.points_left == min(kept)
        assert_answer(best.melds, best.left, hand, round_number, rules)
    assert (quick is not None) == any(p <= 20 for p in kept)
    if quick is not None:
        assert quick.points_left <= 20 and len(quick.left) >= keep


# -- the hands of the issue -----------------------------------------------------------------
#: a round-11 hand of 73 cards (five copies of a card at most: a five-player shoe), all of
#: it melds, 4 Rooks: the walk limited to 5,000 steps found no whole-hand lay-down
HAND_73 = (
    "B5 RK Y8 G9 Y10 G10 R7 Y14 Y12 Y6 G7 G10 R7 G7 R6 RK R9 R7 R3 R10 G7 Y9 R6 G6 Y8 R8 R9 "
    "G8 RK R12 Y11 Y11 Y2 B9 B6 Y9 R8 Y10 R5 Y6 B2 R2 Y7 Y10 Y11 Y7 G10 R14 B10 Y10 G9 G10 "
    "G5 R4 G11 B7 Y12 G7 Y13 G10 B8 G6 B9 R11 RK Y9 B6 G9 B7 R13 G8 R2 R6")
#: tests/test_solver.py's hand of 81 cards (issue 18): the limited walk found nothing
HAND_81 = (
    "R5 RK Y3 B9 B5 G6 R5 Y9 Y14 G7 Y11 Y14 R6 Y9 Y2 G3 Y14 RK R5 R3 B5 B4 R1 Y12 R8 R4 B7 "
    "G10 Y11 B4 R2 G9 B12 B5 Y2 Y3 R11 B10 Y7 R14 Y6 R2 R7 B11 G7 R12 G13 B12 G7 Y11 Y3 G9 "
    "Y5 B7 Y7 R6 G8 Y1 R12 B8 Y10 RK G14 R8 G8 G5 B6 R1 G5 R1 R14 R7 Y2 R5 Y6 G7 B8 B7 Y8 "
    "R12 G10")
H7 = Rules(extra_melds=True)


@pytest.mark.parametrize("text", [HAND_73, HAND_81])
def test_H7_a_large_round_11_hand_goes_down_whole(text: str) -> None:
    hand = parse_cards(text)
    melds = whole_hand(hand, 11, H7)
    assert melds is not None
    assert_answer(melds, (), hand, 11, H7)
    best = best_lay_down(hand, 11, H7)
    assert best is not None and best.points_left == 0
    assert_answer(best.melds, best.left, hand, 11, H7)


def test_H7_legal_actions_offer_the_go_out_and_the_bot_takes_it() -> None:
    """The 73-card hand, its last card drawn in the turn: `legal_actions` lists the
    lay-down of the whole hand (T17), and the heuristic bot goes out with it."""
    hand = parse_cards(HAND_73)
    game = Game.from_position(
        hands=[hand[:-1], "R1 R2 R3", "Y1 Y2 Y3", "G1 G2 G3", "B1 B2 B3"],
        stock=[hand[-1], *parse_cards("G5 G6 G11")], discard_pile="B14", round_number=11,
        dealer=4, rules=H7, scores=[[0] * 5] * 10)
    game.draw()
    while game.phase is Phase.BUY:  # nobody buys the B14
        game.pass_buy(game.deciders[0])
    assert game.phase is Phase.PLAY and len(game.hand(0)) == 73
    downs = [a for a in game.legal_actions() if isinstance(a, A.LayDown)]
    assert downs and all(game.is_legal(a) for a in downs)
    assert Counter(c for m in downs[0].melds for c in m.cards) == Counter(hand)
    move = HeuristicBot().choose(game.view(0), game.rules, game.legal_actions,
                                 random.Random(0))
    assert isinstance(move, A.LayDown)
    game.apply(move)
    assert game.round_number == 11 and game.phase is Phase.GAME_OVER
