"""A whole game of Toonerville Rook: the one owner of mutable state.

`Game` runs 11 rounds for 3–5 players with an explicit `phase` (draw, the buy window,
play, game over) and says who must decide (`deciders`). Every move is an action value
(see `actions`). `apply` first runs the move's check, which only reads the position and
raises a specific `IllegalActionError` (with its rule id and sentence); only then is the
move carried out, on a fresh copy of the position, by an apply step that cannot refuse.
So a refused move changes nothing because nothing was changed, and `is_legal`,
`refusal` and `legal_actions` are the checks alone: they never deal, score or shuffle.

Chores that are nobody's decision — the turn-up, restocking, scoring, the next deal —
run inside the move that causes them and are recorded as events. Each move keeps the
position before it, so `undo` takes back the last move with every chore it triggered
(the shuffle state included) and `position_at(k)` / `root()` give the game as it stood.
Hidden cards never leave through `view(seat)`. A playout's world
(`from_position(..., playout=True)`, the strong bot's) records no events and is over when
its round is: it is played once to its round's score and thrown away.

The moves themselves live in `turn` (draw, take, discard), `buying` (the buy window)
and `melding` (lay down, lay off, the Rook swap); `legal` lists the moves open per phase
and `saves` writes and reads saves. Both work on positions, views and JSON and never
import the game, so the imports run one way: the game uses them (for its own
`legal_actions` and `to_json` / `from_json`), and nothing it uses imports it back.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from . import actions as A
from . import buying, legal, melding, turn
from .cards import Card, as_cards, format_cards, quote, shoe
from .errors import (
    IllegalActionError,
    MalformedActionError,
    NoSuchSeatError,
    NotationError,
    RulesError,
    WrongPhaseError,
)
from .events import Event, EventKind, Phase
from .melds import Meld, check_meld, rules_or_default
from .messages import msg
from .rounds import start_round
from .rules import MAX_TURN_LIMIT, ROUNDS, Rules
from .saves import game_from_json, game_to_json
from .scoring import places
from .state import MAX_NAME, Change, Placed, Position, Setup, carry_out
from .views import PlayerView, RoundRecord

#: A move's check (reads only; returns the plan or raises) and its apply step.
_Check = Callable[[Position, Setup, Any], Any]
_Apply = Callable[[Change, Any, Any], None]


def _lay_down_check(s: Position, setup: Setup, a: A.LayDown) -> melding.LayDownPlan:
    return melding.check_lay_down(s, setup, a.seat, a.melds)


def _lay_down_apply(ch: Change, a: A.LayDown, plan: melding.LayDownPlan) -> None:
    melding.apply_lay_down(ch, a.seat, plan)


def _lay_off_check(s: Position, setup: Setup, a: A.LayOff) -> melding.LayOffPlan:
    return melding.check_lay_off(s, setup, a.seat, a.card, a.onto, a.as_card)


def _lay_off_apply(ch: Change, a: A.LayOff, plan: melding.LayOffPlan) -> None:
    melding.apply_lay_off(ch, a.seat, plan)


_MOVES: dict[type, tuple[_Check, _Apply]] = {
    A.Draw: (turn.check_draw, turn.apply_draw),
    A.TakeDiscard: (turn.check_take, turn.apply_take),
    A.Buy: (buying.check_answer, buying.apply_answer),
    A.Pass: (buying.check_answer, buying.apply_answer),
    A.LayDown: (_lay_down_check, _lay_down_apply),
    A.LayOff: (_lay_off_check, _lay_off_apply),
    A.SwapRook: (melding.check_swap, melding.apply_swap),
    A.Discard: (turn.check_discard, turn.apply_discard),
}


class Game:
    """A game of Toonerville Rook. Make one with `Game.new(players=4, seed=7)` or
    `Game.from_position(...)`; play with the verbs (`draw`, `take_discard`, `buy`,
    `pass_buy`, `lay_down`, `lay_off`, `swap_rook`, `discard`) or `apply(action)`; take
    moves back with `undo()`."""

    def __init__(self, players: int, rules: Rules, seed: int, names: Sequence[str] | None,
                 turn_limit: int | None, playout: bool = False) -> None:
        """Every setting is checked, whatever was given, before anything is made."""
        if isinstance(players, bool) or not isinstance(players, int) or not 3 <= players <= 5:
            raise RulesError(msg("Toonerville Rook is for 3 to 5 players, not {n}", "T2",
                                 n=quote(players)))
        rules = rules_or_default(rules)
        if rules.first_dealer is not None and rules.first_dealer >= players:
            raise RulesError(msg("first_dealer is seat {seat}, but seats go from 0 to {last}",
                                 "H2", seat=rules.first_dealer, last=players - 1))
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise RulesError(msg("{field} must be a whole number, not {value!r}", None,
                                 field="seed", value=quote(seed)))
        if turn_limit is not None and (isinstance(turn_limit, bool)
                                       or not isinstance(turn_limit, int)
                                       or not 1 <= turn_limit <= MAX_TURN_LIMIT):
            raise RulesError(msg("turn_limit must be a whole number from 1 to {limit}, or None "
                                 "for no limit", None, limit=MAX_TURN_LIMIT))
        shown = _names(names, players) if names is not None else tuple(
            f"Player {i}" for i in range(players))
        _check_names(shown, players)
        self._setup = Setup(players, shown, rules, turn_limit, playout is True)
        self.seed = seed
        self._rng = random.Random(seed)
        self._history: list[Event] = []
        self._actions: list[A.Action] = []
        # before each move k: the position (`_before[k]`), the history's length
        # (`_logged[k]`) and, if the move shuffled, the generator's state (`_shuffled[k]`);
        # kept side by side, not as a tuple per move: a game keeps thousands, and the
        # collector looks over every tuple it has not yet seen
        self._before: list[Position] = []
        self._logged: list[int] = []
        self._shuffled: dict[int, tuple[Any, ...]] = {}
        self._start: dict[str, Any] = {}
        self._pos = Position((), 1, 0, 0, Phase.DRAW, [], [], [], [], [])
        # `deciders` of the position `_deciders_of` (a position never changes once it is
        # the game's, so a new answer is needed only after a move): a bot game asks twice
        # a decision, once for who decides and once in the view
        self._deciders_of: Position | None = None
        self._deciders: tuple[int, ...] = ()

    # -- making a game -----------------------------------------------------------------
    @classmethod
    def new(cls, players: int = 4, seed: int | None = None, rules: Rules | None = None,
            names: Sequence[str] | None = None, deck: str | Iterable[Card] | None = None,
            turn_limit: int | None = None) -> Game:
        """A new game. Same seed, same game; `deck` fixes round 1's order (top first)."""
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        game = cls(players, rules or Rules(), seed, names, turn_limit)
        first = game.rules.first_dealer
        dealer = game._rng.randrange(players) if first is None else first
        universe = shoe(players)
        if deck is None:
            order = list(range(len(universe)))
            game._rng.shuffle(order)
        else:
            order = _order_from_deck(universe, as_cards(deck))
            game._start["deck"] = format_cards(universe[i] for i in order)
        ch = Change(game._setup, game._pos, game._rng, None)
        start_round(ch, 1, dealer, order)
        game._pos = ch.pos
        game._history.extend(ch.events)
        return game

    @classmethod
    def from_position(cls, hands: Sequence[str | Iterable[Card]], stock: str | Iterable[Card],
                      discard_pile: str | Iterable[Card],
                      table: Mapping[int, Sequence[str | Meld]] | None = None,
                      round_number: int = 1, dealer: int = 0, current: int | None = None,
                      rules: Rules | None = None, seed: int = 0,
                      names: Sequence[str] | None = None,
                      scores: Sequence[Sequence[int]] = (),
                      turn_limit: int | None = None, playout: bool = False) -> Game:
        """A game from an exact situation, for teaching scenarios and tests. The stock and
        the discard pile are both listed from the top down; `table` maps a seat to the
        melds it has laid down (those seats are down). It is that seat's turn to draw.
        Physical cards get their ids in one fixed order (hands by seat, stock, pile, then
        the table by seat), whatever order `table` is written in. `playout`: a playout's
        world (see the module): no history, and the game is over when this round is."""
        rules = rules_or_default(rules)
        if isinstance(hands, str | bytes) or not isinstance(hands, Sequence):
            raise RulesError(msg("hands must be a list with one hand per player", "T2"))
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        game = cls(len(hands), rules, seed, names, turn_limit, playout)
        n = game.players
        if isinstance(round_number, bool) or not isinstance(round_number, int) \
                or not 1 <= round_number <= ROUNDS:
            raise RulesError(msg("there is no round {r}: rounds go from 1 to 11", "T7",
                                 r=round_number))
        current = (dealer + 1) % n if current is None and isinstance(dealer, int) else current
        for seat in (dealer, current):
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
                raise NoSuchSeatError(msg("seat {seat} does not exist: seats go from 0 to "
                                          "{last}", None, seat=seat, last=n - 1))
        assert isinstance(current, int)
        if not _rows(scores, round_number - 1, n):
            raise RulesError(msg("round {r} needs {k} rows of earlier scores, one number per "
                                 "player", "T20", r=round_number, k=round_number - 1))
        if table is not None and not isinstance(table, Mapping):
            raise RulesError(msg("the table maps each seat to a list of its melds, like "
                                 "{{1: ['Y7 R7 RK']}}, not {value}", "T15",
                                 value=quote(table)))
        given = {seat: _meld_list(ms) for seat, ms in (table or {}).items()}
        for seat in given:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
                raise NoSuchSeatError(msg("the table names seat {seat}, but seats go from 0 "
                                          "to {last}", None, seat=seat, last=n - 1))
        melds = {seat: [m if isinstance(m, Meld) else check_meld(m, rules).meld_or_raise()
                        for m in given[seat]] for seat in sorted(given)}
        hand_cards = [as_cards(h) for h in hands]
        stock_cards, pile_cards = as_cards(stock), as_cards(discard_pile)
        everything = [c for h in hand_cards for c in h] + list(stock_cards) + list(pile_cards)
        everything += [c for ms in melds.values() for m in ms for c in m.cards]
        held = Counter(everything)  # counted once: a hint sets up hundreds of worlds here
        for card in set(everything):
            if held[card] > n:
                raise RulesError(msg("{card} appears {k} times, but {n} decks hold only {n}",
                                     "T2", card=card, k=held[card], n=n))
        universe = tuple(everything)
        ids = iter(range(len(universe)))
        hand_ids = [[next(ids) for _ in h] for h in hand_cards]
        stock_ids = list(reversed([next(ids) for _ in stock_cards]))
        pile_ids = list(reversed([next(ids) for _ in pile_cards]))
        placed: list[list[Placed]] = [[] for _ in range(n)]
        for seat, ms in melds.items():
            for m in ms:
                placed[seat].append((m, tuple(next(ids) for _ in m.cards)))
        s = Position(universe, round_number, dealer, current, Phase.DRAW, hand_ids,
                     stock_ids, pile_ids, placed, [0 if t else None for t in placed],
                     scores=[tuple(r) for r in scores],
                     dealt=tuple(tuple(h) for h in hand_cards))
        game._pos = s
        game._start["position"] = {
            "hands": [format_cards(h) for h in hand_cards],
            "stock": format_cards(stock_cards), "discard_pile": format_cards(pile_cards),
            "table": {str(k): [str(m) for m in v] for k, v in melds.items() if v},
            "round_number": round_number, "dealer": dealer, "current": current,
            "scores": [list(r) for r in scores]}
        ch = Change(game._setup, s, game._rng, None)
        ch.log(EventKind.POSITION, None, r=round_number)
        game._history.extend(ch.events)
        return game

    # -- what anyone may see -------------------------------------------------------------
    @property
    def players(self) -> int:
        return self._setup.players

    @property
    def names(self) -> tuple[str, ...]:
        return self._setup.names

    @property
    def rules(self) -> Rules:
        return self._setup.rules

    @property
    def turn_limit(self) -> int | None:
        return self._setup.turn_limit

    @property
    def round_number(self) -> int:
        return self._pos.round_number

    @property
    def phase(self) -> Phase:
        return self._pos.phase

    @property
    def current(self) -> int:
        """The seat whose turn it is."""
        return self._pos.current

    @property
    def dealer(self) -> int:
        return self._pos.dealer

    @property
    def turn(self) -> int:
        """The turn number within the round, from 1."""
        return self._pos.turn

    @property
    def is_over(self) -> bool:
        return self._pos.phase is Phase.GAME_OVER

    @property
    def deciders(self) -> tuple[int, ...]:
        """The seats that must act now, in the order they answer (in the buy window, every
        player still to answer); () once the game is over. The kit's one name for who
        acts now: a table asks it, never a made-up move."""
        s = self._pos
        if self._deciders_of is not s:
            self._deciders, self._deciders_of = legal.deciders(s, self._setup), s
        return self._deciders

    def play_refusal(self, seat: int) -> IllegalActionError | None:
        """Why `seat` may not play a card from its hand now (lay down, lay off, swap,
        discard) whatever the card: the game is over, it is not its turn, or it must draw
        or wait for the buy window first. None if it may."""
        try:
            self._check_seat(seat)
            if self._pos.phase is Phase.GAME_OVER:
                raise WrongPhaseError(msg("the game is over: all 11 rounds have been played",
                                          "T7"))
            turn.check_playing(self._pos, self._setup, seat, "discard")
        except IllegalActionError as err:
            return err
        return None

    @property
    def history(self) -> tuple[Event, ...]:
        return tuple(self._history)

    @property
    def actions(self) -> tuple[A.Action, ...]:
        """Every move made, in order: replaying them re-creates the game."""
        return tuple(self._actions)

    @property
    def moves_made(self) -> int:
        return len(self._actions)

    @property
    def scores(self) -> tuple[tuple[int, ...], ...]:
        """The score sheet: one row per finished round, one column per seat (T20)."""
        return tuple(self._pos.scores)

    @property
    def totals(self) -> tuple[int, ...]:
        return self._pos.totals()

    @property
    def places(self) -> tuple[int, ...]:
        """Each seat's place by total, lowest first, ties sharing (T21)."""
        return places(self.totals)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats with the lowest total once the game is over (several on a tie)."""
        if not self.is_over:
            return ()
        return tuple(i for i, p in enumerate(self.places) if p == 1)

    @property
    def records(self) -> tuple[RoundRecord, ...]:
        return tuple(self._pos.records)

    def view(self, seat: int) -> PlayerView:
        """What `seat` may see: its own hand, and only the sizes of the others'."""
        setup, s = self._setup, self._pos
        if not (seat.__class__ is int and 0 <= seat < setup.players):
            self._check_seat(seat)
        return s.view(setup, seat, self.deciders)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """A seat's hand (for teaching and tests; a bot gets only its own `view`)."""
        self._check_seat(seat)
        return self._pos.hand_cards(seat)

    def all_cards(self) -> dict[str, tuple[int, ...]]:
        """Where every physical card is (ids): hands, stock, discard pile, table. For the
        invariant 'cards are conserved'."""
        s = self._pos
        return {"hands": tuple(i for h in s.hands for i in h), "stock": tuple(s.stock),
                "discard_pile": tuple(s.discard),
                "table": tuple(i for t in s.table for _, ids in t for i in ids)}

    @property
    def round_cards(self) -> tuple[Card, ...]:
        return self._pos.cards

    @property
    def swapped_rook_in_hand(self) -> bool:
        """H12: the player whose turn it is holds a Rook swapped out this turn, which must
        be played before the turn can end."""
        s = self._pos
        return s.swapped is not None and s.swapped in s.hands[s.current]

    def __repr__(self) -> str:
        s = self._pos
        return (f"<Game {self.players} players, seed {self.seed}, round {s.round_number}, "
                f"{s.phase.value}, seat {s.current} to play>")

    def _repr_html_(self) -> str:
        from ..pages.render import game_html

        return game_html(self.view(self._pos.current))

    # -- checking and acting -------------------------------------------------------------
    def _check(self, action: A.Action) -> tuple[_Apply, Any]:
        """The move's apply step and its plan, or the refusal. Reads only."""
        A.validate(action, self._setup.players)
        if self._pos.phase is Phase.GAME_OVER:
            raise WrongPhaseError(msg("the game is over: all 11 rounds have been played",
                                      "T7"))
        move = _MOVES.get(type(action))
        if move is None:
            raise MalformedActionError(msg("{action!r} is not a move of this game", None,
                                           action=action))
        check, apply = move
        return apply, check(self._pos, self._setup, action)

    def _parse(self, action: A.Action | str) -> A.Action:
        return A.parse_action(action, self.rules) if isinstance(action, str) else action

    def apply(self, action: A.Action | str) -> tuple[Event, ...]:
        """Check and apply one move; returns the events it caused. A refused move raises
        an `IllegalActionError` and changes nothing."""
        if isinstance(action, str):
            action = self._parse(action)
        apply, plan = self._check(action)
        before = self._pos
        setup = self._setup
        ch = carry_out(setup, before, self._rng, None if setup.playout else action.notation(),
                       apply, action, plan)
        if ch.rng_before is not None:
            self._shuffled[len(self._before)] = ch.rng_before
        self._before.append(before)
        history, events = self._history, ch.events
        self._logged.append(len(history))
        before.put_away()
        self._pos = ch.pos
        self._actions.append(action)
        if not events:  # a playout's world records none
            return ()
        history.extend(events)
        return tuple(events)

    def is_legal(self, action: A.Action | str) -> bool:
        """Would `apply(action)` be accepted? Only the check runs; nothing changes. Text
        that is not a move at all is not legal either (False, not a `NotationError`)."""
        try:
            return self.refusal(action) is None
        except NotationError:
            return False

    def refusal(self, action: A.Action | str) -> IllegalActionError | None:
        """The error `apply(action)` would raise, or None if it is legal."""
        try:
            self._check(self._parse(action))
        except IllegalActionError as err:
            return err
        return None

    def legal_actions(self, seat: int | None = None) -> list[A.Action]:
        """The moves open to the deciding players (or to `seat`), built per phase from
        the moves' checks. Lay-downs and Rook swaps are the solver's suggestions; any
        other valid lay-down is accepted too."""
        if seat is not None:
            self._check_seat(seat)
        return legal.legal_moves(self._pos, self._setup, seat)

    def suggest_lay_down(self, seat: int | None = None, best: bool = True
                         ) -> tuple[Meld, ...] | None:
        """A lay-down `seat` (the player whose turn it is) may make now — by default the
        one leaving fewest points — that never strands the player (T13a, T14); None if
        there is none."""
        if seat is not None:
            self._check_seat(seat)
        if best.__class__ is not bool:
            raise RulesError(msg("{field} must be True or False", None, field="best"))
        return legal.suggest_lay_down(self._pos, self._setup,
                                      self._pos.current if seat is None else seat, best)

    def lay_down_refusal(self, seat: int) -> IllegalActionError | None:
        """Why `seat` may not lay down at all now, whatever the melds (not its turn, not
        drawn yet, already down), or None: a page asks before it asks the solver."""
        try:
            self._check_seat(seat)
            melding.check_may_lay_down(self._pos, self._setup, seat)
        except IllegalActionError as err:
            return err
        return None

    def discard_refusal(self, seat: int, card: Card) -> IllegalActionError | None:
        """Why `seat` may not discard `card` now (T9, T13, T14, T16, T17), or None."""
        return self.refusal(A.Discard(seat, card))

    # -- taking back, and the game as it stood -------------------------------------------
    def undo(self) -> A.Action:
        """Take back the last move, with every chore it triggered (a deal, a restock, the
        shuffle's state); returns the move taken back. Nothing to undo: `WrongPhaseError`."""
        if not self._before:
            raise WrongPhaseError(msg("there is no move to take back", None))
        self._pos = self._before.pop()
        del self._history[self._logged.pop():]
        rng_state = self._shuffled.pop(len(self._before), None)
        if rng_state is not None:
            self._rng.setstate(rng_state)
        return self._actions.pop()

    def position_at(self, moves: int) -> Game:
        """A new game, as this one stood after its first `moves` moves (0: the start).
        Playing on in it does not touch this game."""
        if isinstance(moves, bool) or not isinstance(moves, int) \
                or not 0 <= moves <= len(self._actions):
            raise RulesError(msg("this game has positions 0 to {last}, not {k}", None,
                                 last=len(self._actions), k=moves))
        game = Game.__new__(Game)
        game._setup, game.seed, game._start = self._setup, self.seed, self._start
        game._deciders_of, game._deciders = None, ()
        game._before = self._before[:moves]
        game._logged = self._logged[:moves]
        game._shuffled = {k: r for k, r in self._shuffled.items() if k < moves}
        game._actions = self._actions[:moves]
        if moves == len(self._actions):
            game._pos, logged = self._pos, len(self._history)
        else:
            game._pos, logged = self._before[moves], self._logged[moves]
        game._history = self._history[:logged]
        # the generator as it stood: its state before the first later move that shuffled
        later = [k for k in self._shuffled if k >= moves]
        state = self._shuffled[min(later)] if later else self._rng.getstate()
        game._rng = random.Random()
        game._rng.setstate(state)
        return game

    def root(self) -> Game:
        """The game as it stood before its first move."""
        return self.position_at(0)

    def renamed(self, names: Sequence[str]) -> Game:
        """This game, every position and move the same, with other seat names (the
        lessons' "Player 1" in the learner's language); the history speaks them too."""
        shown = _names(names, self.players)
        _check_names(shown, self.players)
        game = self.position_at(len(self._actions))
        game._setup = Setup(self.players, shown, self.rules, self.turn_limit,
                            self._setup.playout)
        game._history = [e._replace(names=shown) for e in self._history]
        return game

    # -- the verbs -------------------------------------------------------------------------
    def draw(self, seat: int | None = None) -> tuple[Event, ...]:
        return self.apply(A.Draw(self._seat(seat)))

    def take_discard(self, seat: int | None = None) -> tuple[Event, ...]:
        return self.apply(A.TakeDiscard(self._seat(seat)))

    def buy(self, seat: int) -> tuple[Event, ...]:
        return self.apply(A.Buy(seat))

    def pass_buy(self, seat: int) -> tuple[Event, ...]:
        return self.apply(A.Pass(seat))

    def lay_down(self, melds: Iterable[Meld | str], seat: int | None = None
                 ) -> tuple[Event, ...]:
        return self.apply(A.LayDown(self._seat(seat), self._melds(melds)))

    def lay_off(self, card: Card | str, onto: tuple[int, int], as_card: Card | str | None = None,
                seat: int | None = None) -> tuple[Event, ...]:
        return self.apply(A.LayOff(self._seat(seat), _card(card), _ref(onto),
                                   None if as_card is None else _card(as_card)))

    def swap_rook(self, natural: Card | str, source: tuple[int, int], *,
                  lay_off_onto: tuple[int, int] | None = None,
                  rook_as: Card | str | None = None,
                  lay_down: Iterable[Meld | str] | None = None,
                  seat: int | None = None) -> tuple[Event, ...]:
        return self.apply(A.SwapRook(
            self._seat(seat), _card(natural), _ref(source),
            None if lay_off_onto is None else _ref(lay_off_onto),
            None if rook_as is None else _card(rook_as),
            None if lay_down is None else self._melds(lay_down)))

    def discard(self, card: Card | str, seat: int | None = None) -> tuple[Event, ...]:
        return self.apply(A.Discard(self._seat(seat), _card(card)))

    def _seat(self, seat: int | None) -> int:
        return self._pos.current if seat is None else seat

    def _melds(self, melds: Iterable[Meld | str]) -> tuple[Meld, ...]:
        return tuple(m if isinstance(m, Meld) else check_meld(m, self.rules).meld_or_raise()
                     for m in _meld_list(melds))

    def _check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) \
                or not 0 <= seat < self.players:
            raise NoSuchSeatError(msg("there is no seat {seat}: seats go from 0 to {last}",
                                      None, seat=seat, last=self.players - 1))

    # -- saving ------------------------------------------------------------------------
    def to_json(self, indent: int | None = 1) -> str:
        """The game as a save: its start and its moves, with the facts they lead to;
        `indent` spaces per level (None: all on one line)."""
        if indent is not None and (indent.__class__ is not int or not 0 <= indent <= 16):
            raise RulesError(msg("indent must be None or a whole number from 0 to 16, not "
                                 "{value}", None, value=quote(indent)))
        return game_to_json(self, indent)

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        """A saved game, replayed move by move and checked against every fact the save
        states; `SaveFileError` says exactly why not."""
        return game_from_json(text, cls.new, cls.from_position)

    @property
    def start(self) -> dict[str, Any]:
        """How the game began beyond its seed: a fixed deck or a position (for saves)."""
        return dict(self._start)


def _names(names: object, players: int) -> tuple[Any, ...]:
    """The names given, as a tuple; what is no list of names is refused."""
    if isinstance(names, str | bytes | Mapping) or not isinstance(names, Iterable):
        raise RulesError(msg("names must be a list of {n} names, one per player, not {value}",
                             None, n=players, value=quote(names)))
    return tuple(names)


def _meld_list(melds: object) -> list[Any]:
    """Melds given as a list (of `Meld`s or notation), one `Meld`, or text: one meld, or
    melds joined with "/"."""
    if isinstance(melds, str):
        return list(melds.split("/"))
    if isinstance(melds, Meld):
        return [melds]
    if isinstance(melds, bytes | Mapping) or not isinstance(melds, Iterable):
        raise NotationError(msg("{value} is not a list of melds: write them like "
                                "['R3 R4 R5 R6', 'Y7 R7 RK'], or as text with '/' between "
                                "melds", "T15", value=quote(melds)))
    return list(melds)


def _rows(scores: object, rows: int, players: int) -> bool:
    """Are `scores` `rows` rows of `players` whole numbers each?"""
    if isinstance(scores, str | bytes) or not isinstance(scores, Sequence) \
            or len(scores) != rows:
        return False
    return all(not isinstance(r, str | bytes) and isinstance(r, Sequence) and len(r) == players
               and all(isinstance(x, int) and not isinstance(x, bool) for x in r)
               for r in scores)


def _check_names(names: tuple[Any, ...], players: int) -> None:
    if len(names) != players:
        raise RulesError(msg("{k} names for {n} players", None, k=len(names), n=players))
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise RulesError(msg("every player needs a name written as text, not {name!r}",
                                 None, name=str(name)[:MAX_NAME]))
        if len(name) > MAX_NAME:
            raise RulesError(msg("the name '{name}…' is too long: at most {k} characters",
                                 None, name=name[:20], k=MAX_NAME))


def _card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else Card.parse(card)


def _ref(ref: Any) -> tuple[int, int]:
    """A meld reference as a pair, from `(1, 0)`, `[1, 0]` or `"1.0"`."""
    if isinstance(ref, str):
        owner, _, index = ref.partition(".")
        if owner.strip().isdigit() and index.strip().isdigit():
            return int(owner), int(index)
    elif isinstance(ref, Sequence) and len(ref) == 2:
        return ref[0], ref[1]
    raise MalformedActionError(msg("a meld on the table is named by its seat and number, "
                                   "like (1, 0) or \"1.0\", not {ref!r}", None,
                                   ref=str(ref)[:30]))


def _order_from_deck(universe: tuple[Card, ...], deck: tuple[Card, ...]) -> list[int]:
    """Physical ids for a deck given as card values, top first; it must be a whole shoe."""
    if sorted(deck, key=lambda c: c.sort_key) != sorted(universe, key=lambda c: c.sort_key):
        raise RulesError(msg("a deck for {n} players must hold exactly {n} Rook decks "
                             "({k} cards), not {given} cards as given", "T2",
                             n=len(universe) // 57, k=len(universe), given=len(deck)))
    free: dict[Card, list[int]] = {}
    for i, c in enumerate(universe):
        free.setdefault(c, []).append(i)
    return [free[c].pop(0) for c in deck]
