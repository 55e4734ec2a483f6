"""The moves open to the deciding players, built per phase from the moves' own checks.

Owns `legal_moves(position, setup, seat)`: in the draw phase taking the discard and
drawing; in the buy window buying and passing; in the play phase every discard, every
lay-off that fits, the Rook swaps the hand allows and — where the possibilities are too
many to list — one lay-down suggested by the solver (`suggest_lay_down`, which keeps T14
and T13a in mind). Nothing is tried on a live game: each candidate passes the same pure
check that `Game.apply` runs, so the list never offers a move the game would refuse, and
asking never deals, scores or shuffles anything.

`rooks_in_reach` (which Rooks on the table the hand could swap out) is the one place
that knows where a Rook can be taken from; `rook_ends` in `melding` is the one place that
knows where a Rook can go on a run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final, Protocol

from . import actions as A
from . import buying, melding, turn
from .cards import BY_INDEX, ROOK, Card
from .errors import IllegalActionError
from .events import Phase
from .melds import Meld
from .rules import ROUNDS, Rules
from .solver import best_lay_down, find_contract, whole_hand
from .state import Position, Setup
from .views import PlayerView

#: hands larger than this (many buys) get only the quick minimal suggestion: the search for
#: the lay-down that leaves fewest points grows fast with the hand
BEST_LAY_DOWN_CARDS = 17


class _HasRules(Protocol):
    @property
    def rules(self) -> Rules: ...


def _passes(check: Callable[..., Any], *args: Any) -> bool:
    try:
        check(*args)
    except IllegalActionError:
        return False
    return True


def deciders(s: Position, setup: Setup) -> tuple[int, ...]:
    if s.phase is Phase.GAME_OVER:
        return ()
    if s.phase is Phase.BUY:
        return buying.waiting(s, setup)
    return (s.current,)


# Moves are immutable values, so the few that recur (a seat's draw, take, buy, pass and
# discard of each card value) are made once and handed out again: a bot asks for the
# legal moves, or makes one of these, at every decision. At most 5 seats × 57 card values.
_SEATS: Final = 5  # T2: 3 to 5 players
_SIMPLE: Final[dict[tuple[type, int], A.Action]] = {}
#: every seat's discard of every card value, made here once (held as `Any`: the compiled
#: build hands them out with no type check)
_DISCARDS: Final[list[list[Any]]] = [[A.Discard(seat, card) for card in BY_INDEX]
                                     for seat in range(_SEATS)]


def simple_move(kind: type[A.Draw | A.TakeDiscard | A.Buy | A.Pass], seat: int) -> A.Action:
    """`kind(seat)`, made once."""
    found = _SIMPLE.get((kind, seat))
    if found is None:
        found = _SIMPLE[(kind, seat)] = kind(seat)
    return found


def discard_move(seat: int, card: Card) -> A.Discard:
    """`Discard(seat, card)`, made once per seat and card value."""
    if not 0 <= seat < _SEATS:
        return A.Discard(seat, card)
    found: A.Discard = _DISCARDS[seat][card.index]
    return found


def legal_moves(s: Position, setup: Setup, seat: int | None = None) -> list[A.Action]:
    """The moves open to the deciding players (or to `seat` alone)."""
    who = deciders(s, setup)
    if seat is not None:
        if seat not in who:
            return []
        who = (seat,)
    if s.phase is Phase.BUY:
        return [simple_move(kind, d) for d in who for kind in (A.Buy, A.Pass)]
    if not who:
        return []
    me = who[0]
    if s.phase is Phase.DRAW:
        if s.discard:
            return [simple_move(A.TakeDiscard, me), simple_move(A.Draw, me)]
        return [simple_move(A.Draw, me)]
    out: list[A.Action] = []
    hand = s.hand_cards(me)
    table = s.melds()
    if s.down_turn[me] is None:
        melds = suggest_lay_down(s, setup, me)
        if melds is not None:
            out.append(A.LayDown(me, melds))
    else:
        out.extend(_lay_offs(s, setup, me, hand, table))
    out.extend(_swaps(s, setup, me, hand, table))
    mine = _DISCARDS[me]
    out.extend([mine[c.index] for c in turn.discardable(s, setup, me)])
    return out


def _lay_offs(s: Position, setup: Setup, me: int, hand: tuple[Card, ...],
              table: tuple[tuple[Meld, ...], ...]) -> list[A.Action]:
    moves = melding.lay_off_moves(hand, table, me, setup.rules)
    if not moves:
        return []
    # what `check_lay_off` asks beyond the fit is the same for every card of a hand that
    # keeps two or more after it (no dead end is possible, T13a/H12): one check does
    if len(hand) > 3 and s.swapped is None:
        card, onto, as_card = moves[0]
        if not _passes(melding.check_lay_off, s, setup, me, card, onto, as_card):
            return []
        return [A.LayOff(me, card, onto, as_card) for card, onto, as_card in moves]
    return [A.LayOff(me, card, onto, as_card) for card, onto, as_card in moves
            if _passes(melding.check_lay_off, s, setup, me, card, onto, as_card)]


def _swaps(s: Position, setup: Setup, me: int, hand: tuple[Card, ...],
           table: tuple[tuple[Meld, ...], ...]) -> list[A.Action]:
    out: list[A.Action] = []
    if not setup.rules.rook_swap:
        return out
    down = s.down_turn[me] is not None
    # as with lay-offs: a swap whose Rook is laid off at once leaves a hand of three or
    # more cards with no dead end possible (T13a, H12), so what `check_swap` asks beyond
    # the fit found here is the same for every such swap, and the first one's check does
    checked_once = down and len(hand) > 3 and s.swapped is None
    for source, meld, natural in _reach(hand, table):
        if down:
            after = [list(t) for t in table]
            after[source[0]][source[1]] = meld.swap_rook(natural)
            for onto, as_card in melding.lay_off_spots(ROOK, after, me, setup.rules):
                a = A.SwapRook(me, natural, source, onto, as_card)
                if (checked_once and out) or _passes(melding.check_swap, s, setup, a):
                    out.append(a)
                elif checked_once:
                    return out
        else:
            rest = list(hand)
            rest.remove(natural)
            melds = _solver_lay_down((*rest, ROOK), s.round_number, setup.rules, best=False)
            for option in melds:
                if any(m.rooks for m in option):
                    a = A.SwapRook(me, natural, source, lay_down=option)
                    if _passes(melding.check_swap, s, setup, a):
                        out.append(a)
                        break
    return out


def _solver_lay_down(hand: tuple[Card, ...], round_number: int, rules: Rules,
                     best: bool = True) -> list[tuple[Meld, ...]]:
    """Lay-downs the solver finds for a hand: the one leaving fewest points (`best`, for
    hands of ordinary size) first, then the smallest; in round 11 the whole hand."""
    minimal = find_contract(hand, round_number, rules)
    if minimal is None:
        return []
    if round_number == ROUNDS:
        whole = whole_hand(hand, round_number, rules)
        return [whole] if whole else []
    found = [minimal]
    if best and len(hand) <= BEST_LAY_DOWN_CARDS:
        fewest = best_lay_down(hand, round_number, rules)
        if fewest is not None and fewest.melds != minimal:
            found.insert(0, fewest.melds)
    return found


def suggest_lay_down(s: Position, setup: Setup, seat: int, best: bool = False
                     ) -> tuple[Meld, ...] | None:
    """The one lay-down suggestion of the kit, for `seat`'s hand, or None: the solver's
    (the one leaving fewest points when `best`; in round 11 the whole hand). In the play
    phase of `seat`'s own turn it is checked like any move, so it never strands the
    player with the card taken from the discard pile (T13a, T14): when the solver's first
    answer would, a lay-down that keeps two cards is tried, then the smallest one. Before
    drawing it answers for the hand as it is."""
    if s.down_turn[seat] is not None or s.phase is Phase.GAME_OVER:
        return None
    hand = s.hand_cards(seat)
    options = _solver_lay_down(hand, s.round_number, setup.rules, best)
    if not (s.phase is Phase.PLAY and seat == s.current):
        return options[0] if options else None
    if best and s.taken is not None and s.round_number != ROUNDS:
        keep_two = best_lay_down(hand, s.round_number, setup.rules, keep=2)
        if keep_two is not None:
            options.insert(1, keep_two.melds)
    for melds in options:
        if _passes(melding.check_lay_down, s, setup, seat, melds):
            return melds
    return None


def _reach(hand: Sequence[Card], table: Sequence[Sequence[Meld]]
           ) -> Iterator[tuple[tuple[int, int], Meld, Card]]:
    held: set[int] | None = None  # the card values held, once a Rook is met on the table
    for owner, melds in enumerate(table):
        for index, meld in enumerate(melds):
            for natural in meld.rook_positions():
                if held is None:
                    held = {card.index for card in hand}
                if natural.index in held:
                    yield (owner, index), meld, natural


# -- for views (bots, widgets): what a seat's own view allows --------------------------------
def rooks_in_reach(view: PlayerView) -> Iterator[tuple[tuple[int, int], Meld, Card]]:
    """Every Rook in a run on the table whose natural card the hand holds (T18): the
    meld's place, the meld, and that natural card."""
    return _reach(view.hand, view.table)


def lay_down_suggestions(game: _HasRules, view: PlayerView,
                         hand: tuple[Card, ...] | None = None, best: bool = True
                         ) -> list[tuple[Meld, ...]]:
    """Lay-downs the solver finds for a hand (by default the seat's own), unchecked: the
    one leaving fewest points (`best`) and the smallest one."""
    if view.down[view.seat]:
        return []
    return _solver_lay_down(view.hand if hand is None else hand, view.round_number,
                            game.rules, best)




class _Game(Protocol):
    def legal_actions(self, seat: int | None = None) -> list[A.Action]: ...


def legal_actions(game: _Game, seat: int | None = None) -> list[A.Action]:
    """`game.legal_actions(seat)`, as a function (its name from the first edition)."""
    return game.legal_actions(seat)
