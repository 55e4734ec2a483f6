"""A whole game of Toonerville Rook: the one owner of mutable state.

`Game` runs 11 rounds for 3–5 players as a state machine with an explicit `phase`
(draw, the buy window, play, game over) and says who must decide (`deciders`). Every
move is an action value (see `actions`); `apply` checks it and either applies all of it
or raises a specific `IllegalActionError` and leaves the game exactly as it was (the
state is restored on any refusal). Chores that are nobody's decision — dealing, the
turn-up, restocking, scoring, the next deal — happen automatically and are recorded in
the history like moves. Hidden cards never leave through `view(seat)`.

Physical cards are indices into the round's cards, so two R7s stay two cards (T2, T14).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import actions as A
from .cards import ROOK, Card, as_cards, format_cards, shoe
from .errors import (
    BuyError,
    CardNotInHandError,
    ContractNotMetError,
    DiscardError,
    IllegalActionError,
    InvalidMeldError,
    LayOffError,
    NotYourTurnError,
    RookSwapError,
    RulesError,
    WrongPhaseError,
)
from .laydown import check_lay_down
from .melds import Meld, check_meld
from .messages import Message, msg
from .rules import ROUNDS, Restock, RookTurnUp, Rules
from .scoring import places, round_scores
from .views import Event, Phase, PlayerView, RoundRecord


@dataclass
class _State:
    """Everything that changes during a game, in one place, so a refused action can put
    it back exactly (see `Game._restore`)."""

    cards: tuple[Card, ...]  # this round's physical cards; an id is an index
    round_number: int
    dealer: int
    current: int
    phase: Phase
    hands: list[list[int]]
    stock: list[int]  # the top card is the last
    discard: list[int]  # the top card is the last
    table: list[list[tuple[Meld, tuple[int, ...]]]]
    down_turn: list[int | None]
    turn: int = 1
    taken: int | None = None  # T14: the physical card taken from the discard this turn
    buyers: dict[int, bool | None] = field(default_factory=dict)
    buy_turns: list[list[int]] = field(default_factory=list)
    dealt: tuple[tuple[Card, ...], ...] = ()
    restocks: int = 0
    scores: list[tuple[int, ...]] = field(default_factory=list)
    records: list[RoundRecord] = field(default_factory=list)

    def copy(self) -> _State:
        return _State(
            self.cards, self.round_number, self.dealer, self.current, self.phase,
            [list(h) for h in self.hands], list(self.stock), list(self.discard),
            [list(t) for t in self.table], list(self.down_turn), self.turn, self.taken,
            dict(self.buyers), [list(b) for b in self.buy_turns], self.dealt,
            self.restocks, list(self.scores), list(self.records))


class Game:
    """A game of Toonerville Rook. Make one with `Game.new(players=4, seed=7)` or
    `Game.from_position(...)`; play with the verbs (`draw`, `take_discard`, `buy`,
    `pass_buy`, `lay_down`, `lay_off`, `swap_rook`, `discard`) or `apply(action)`."""

    def __init__(self, players: int, rules: Rules, seed: int, names: Sequence[str] | None,
                 turn_limit: int | None) -> None:
        if not isinstance(players, int) or not 3 <= players <= 5:
            raise RulesError(msg("Toonerville Rook is for 3 to 5 players, not {n}", "T2",
                                 n=players))
        if rules.first_dealer is not None and rules.first_dealer >= players:
            raise RulesError(msg("first_dealer is seat {seat}, but seats go from 0 to {last}",
                                 "H2", seat=rules.first_dealer, last=players - 1))
        if turn_limit is not None and (not isinstance(turn_limit, int) or turn_limit < 1):
            raise RulesError(msg("turn_limit must be a whole number 1 or more, or None", None))
        self.players = players
        self.rules = rules
        self.seed = seed
        self.names = tuple(names) if names else tuple(f"Player {i}" for i in range(players))
        if len(self.names) != players:
            raise RulesError(msg("{k} names for {n} players", None, k=len(self.names),
                                 n=players))
        self.turn_limit = turn_limit
        self._rng = random.Random(seed)
        self._rng_before: tuple[object, ...] | None = None  # see `_shuffle`
        self._history: list[Event] = []
        self._actions: list[A.Action] = []
        self._start: dict[str, Any] = {}
        self._s: _State = _State((), 1, 0, 0, Phase.DRAW, [], [], [], [], [])

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
        game._deal(1, dealer, universe, order)
        return game

    @classmethod
    def from_position(cls, hands: Sequence[str | Iterable[Card]], stock: str | Iterable[Card],
                      discard_pile: str | Iterable[Card],
                      table: Mapping[int, Sequence[str | Meld]] | None = None,
                      round_number: int = 1, dealer: int = 0, current: int | None = None,
                      rules: Rules | None = None, seed: int = 0,
                      names: Sequence[str] | None = None,
                      scores: Sequence[Sequence[int]] = (),
                      turn_limit: int | None = None) -> Game:
        """A game from an exact situation, for teaching scenarios and tests. The stock and
        the discard pile are both listed from the top down; `table` maps a seat to the
        melds it has laid down (those seats are down). It is that seat's turn to draw."""
        rules = rules or Rules()
        game = cls(len(hands), rules, seed, names, turn_limit)
        n = game.players
        if not isinstance(round_number, int) or not 1 <= round_number <= ROUNDS:
            raise RulesError(msg("there is no round {r}: rounds go from 1 to 11", "T7",
                                 r=round_number))
        current = (dealer + 1) % n if current is None else current
        for seat in (dealer, current):
            if not isinstance(seat, int) or not 0 <= seat < n:
                raise RulesError(msg("seat {seat} does not exist: seats go from 0 to {last}",
                                     None, seat=seat, last=n - 1))
        if len(scores) != round_number - 1 or any(len(r) != n for r in scores):
            raise RulesError(msg("round {r} needs {k} rows of earlier scores, one number per "
                                 "player", "T20", r=round_number, k=round_number - 1))
        table = dict(table or {})
        melds = {seat: [m if isinstance(m, Meld) else check_meld(m, rules).meld_or_raise()
                        for m in ms] for seat, ms in table.items()}
        hand_cards = [as_cards(h) for h in hands]
        stock_cards, pile_cards = as_cards(stock), as_cards(discard_pile)
        everything = [c for h in hand_cards for c in h] + list(stock_cards) + list(pile_cards)
        everything += [c for ms in melds.values() for m in ms for c in m.cards]
        for card in set(everything):
            if everything.count(card) > n:
                raise RulesError(msg("{card} appears {k} times, but {n} decks hold only {n}",
                                     "T2", card=card, k=everything.count(card), n=n))
        universe = tuple(everything)
        ids = iter(range(len(universe)))
        s = game._s = _State(universe, round_number, dealer, current, Phase.DRAW,
                             [], [], [], [[] for _ in range(n)], [None] * n)
        s.hands = [[next(ids) for _ in h] for h in hand_cards]
        s.stock = list(reversed([next(ids) for _ in stock_cards]))
        s.discard = list(reversed([next(ids) for _ in pile_cards]))
        for seat in range(n):
            for m in melds.get(seat, []):
                s.table[seat].append((m, tuple(next(ids) for _ in m.cards)))
            if s.table[seat]:
                s.down_turn[seat] = 0
        s.buy_turns = [[] for _ in range(n)]
        s.scores = [tuple(r) for r in scores]
        s.dealt = tuple(tuple(h) for h in hand_cards)
        game._start["position"] = {
            "hands": [format_cards(h) for h in hand_cards],
            "stock": format_cards(stock_cards), "discard_pile": format_cards(pile_cards),
            "table": {str(k): [str(m) for m in v] for k, v in melds.items() if v},
            "round_number": round_number, "dealer": dealer, "current": current,
            "scores": [list(r) for r in scores]}
        game._log("position", None, msg("Round {r}: a game set up from a given position",
                                        None, r=round_number))
        return game

    # -- what anyone may see -------------------------------------------------------------
    @property
    def round_number(self) -> int:
        return self._s.round_number

    @property
    def phase(self) -> Phase:
        return self._s.phase

    @property
    def current(self) -> int:
        """The seat whose turn it is."""
        return self._s.current

    @property
    def dealer(self) -> int:
        return self._s.dealer

    @property
    def is_over(self) -> bool:
        return self._s.phase is Phase.GAME_OVER

    @property
    def deciders(self) -> tuple[int, ...]:
        """The seats that must decide now: in the buy window, every player still to answer."""
        s = self._s
        if s.phase is Phase.GAME_OVER:
            return ()
        if s.phase is Phase.BUY:
            return tuple(seat for seat in self._left_of(s.current) if s.buyers.get(seat, 1)
                         is None)
        return (s.current,)

    @property
    def history(self) -> tuple[Event, ...]:
        return tuple(self._history)

    @property
    def actions(self) -> tuple[A.Action, ...]:
        """Every move made, in order: replaying them re-creates the game."""
        return tuple(self._actions)

    @property
    def scores(self) -> tuple[tuple[int, ...], ...]:
        """The score sheet: one row per finished round, one column per seat (T20)."""
        return tuple(self._s.scores)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(r[i] for r in self._s.scores) for i in range(self.players))

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
        return tuple(self._s.records)

    def view(self, seat: int) -> PlayerView:
        """What `seat` may see: its own hand, and only the sizes of the others'."""
        s = self._s
        self._check_seat(seat)
        c = s.cards
        offered = c[s.discard[-1]] if s.phase is Phase.BUY and s.discard else None
        return PlayerView(
            seat=seat, names=self.names, round_number=s.round_number,
            contract=self.rules.contract(s.round_number), phase=s.phase, current=s.current,
            dealer=s.dealer, deciders=self.deciders,
            hand=tuple(c[i] for i in s.hands[seat]) if s.hands else (),
            hand_sizes=tuple(len(h) for h in s.hands),
            table=tuple(tuple(m for m, _ in t) for t in s.table),
            down=tuple(d is not None for d in s.down_turn),
            discard_top=c[s.discard[-1]] if s.discard else None,
            discard_size=len(s.discard), stock_size=len(s.stock), offered=offered,
            taken_this_turn=c[s.taken] if s.taken is not None and seat == s.current else None,
            buys_this_round=tuple(len(b) for b in s.buy_turns),
            may_lay_off=s.down_turn[seat] is not None and (
                self.rules.lay_off_same_turn or s.down_turn[seat] != s.turn),
            scores=tuple(s.scores))

    def hand(self, seat: int) -> tuple[Card, ...]:
        """A seat's hand (for teaching and tests; a bot gets only its own `view`)."""
        self._check_seat(seat)
        return tuple(self._s.cards[i] for i in self._s.hands[seat])

    def all_cards(self) -> dict[str, tuple[int, ...]]:
        """Where every physical card is (ids): hands, stock, discard pile, table. For the
        invariant 'cards are conserved'."""
        s = self._s
        return {"hands": tuple(i for h in s.hands for i in h), "stock": tuple(s.stock),
                "discard_pile": tuple(s.discard),
                "table": tuple(i for t in s.table for _, ids in t for i in ids)}

    @property
    def round_cards(self) -> tuple[Card, ...]:
        return self._s.cards

    def __repr__(self) -> str:
        s = self._s
        return (f"<Game {self.players} players, seed {self.seed}, round {s.round_number}, "
                f"{s.phase.value}, seat {s.current} to play>")

    def _repr_html_(self) -> str:
        from .render import game_html

        return game_html(self.view(self._s.current))

    # -- acting ------------------------------------------------------------------------
    def apply(self, action: A.Action | str) -> tuple[Event, ...]:
        """Check and apply one move; returns the events it caused. A refused move raises
        an `IllegalActionError` and changes nothing."""
        if isinstance(action, str):
            action = A.parse_action(action, self.rules)
        saved, logged = self._s.copy(), len(self._history)
        self._rng_before = None
        try:
            self._dispatch(action)
        except BaseException:
            self._s = saved
            if self._rng_before is not None:
                self._rng.setstate(self._rng_before)
            del self._history[logged:]
            raise
        self._actions.append(action)
        return tuple(self._history[logged:])

    def is_legal(self, action: A.Action | str) -> bool:
        """Would `apply(action)` be accepted? (Nothing changes either way.)"""
        try:
            self._try(action)
        except IllegalActionError:
            return False
        return True

    def refusal(self, action: A.Action | str) -> IllegalActionError | None:
        """The error `apply(action)` would raise, or None if it is legal."""
        try:
            self._try(action)
        except IllegalActionError as err:
            return err
        return None

    def _try(self, action: A.Action | str) -> None:
        saved, logged = self._s.copy(), len(self._history)
        self._rng_before = None
        try:
            self._dispatch(A.parse_action(action, self.rules) if isinstance(action, str)
                           else action)
        finally:
            self._s = saved
            if self._rng_before is not None:
                self._rng.setstate(self._rng_before)
            del self._history[logged:]

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
        return self.apply(A.LayOff(self._seat(seat), _card(card), tuple(onto),  # type: ignore
                                   None if as_card is None else _card(as_card)))

    def swap_rook(self, natural: Card | str, source: tuple[int, int], *,
                  lay_off_onto: tuple[int, int] | None = None,
                  rook_as: Card | str | None = None,
                  lay_down: Iterable[Meld | str] | None = None,
                  seat: int | None = None) -> tuple[Event, ...]:
        return self.apply(A.SwapRook(
            self._seat(seat), _card(natural), source, lay_off_onto,
            None if rook_as is None else _card(rook_as),
            None if lay_down is None else self._melds(lay_down)))

    def discard(self, card: Card | str, seat: int | None = None) -> tuple[Event, ...]:
        return self.apply(A.Discard(self._seat(seat), _card(card)))

    def _seat(self, seat: int | None) -> int:
        return self._s.current if seat is None else seat

    def _melds(self, melds: Iterable[Meld | str]) -> tuple[Meld, ...]:
        return tuple(m if isinstance(m, Meld) else check_meld(m, self.rules).meld_or_raise()
                     for m in melds)

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise NotYourTurnError(msg("there is no seat {seat}: seats go from 0 to {last}",
                                       None, seat=seat, last=self.players - 1))

    # -- legal actions -----------------------------------------------------------------
    def legal_actions(self, seat: int | None = None) -> list[A.Action]:
        """The moves open to the deciding players (or to `seat`). Lay-downs and Rook swaps
        are the solver's suggestions; any other valid lay-down is accepted too."""
        from .legal import legal_actions

        return legal_actions(self, seat)

    # -- the moves ---------------------------------------------------------------------
    def _dispatch(self, action: A.Action) -> None:
        if self._s.phase is Phase.GAME_OVER:
            raise WrongPhaseError(msg("the game is over: all 11 rounds have been played",
                                      "T7"))
        self._check_seat(action.seat)
        match action:
            case A.Draw():
                self._do_draw(action)
            case A.TakeDiscard():
                self._do_take(action)
            case A.Buy() | A.Pass():
                self._do_answer(action)
            case A.LayDown():
                self._turn_check(action.seat, "lay down")
                self._do_lay_down(action.seat, action.melds, action.notation(), swap=None)
            case A.LayOff():
                self._turn_check(action.seat, "lay off")
                self._do_lay_off(action.seat, action.card, action.onto, action.as_card,
                                 action.notation())
            case A.SwapRook():
                self._do_swap(action)
            case A.Discard():
                self._do_discard(action)
            case _:
                raise IllegalActionError(msg("{action!r} is not a move of this game", None,
                                             action=action))

    def _turn_check(self, seat: int, what: str) -> None:
        s = self._s
        if s.phase is Phase.BUY:
            raise WrongPhaseError(msg(
                "wait: the discard is being offered to buyers, then {name} draws", "T10",
                name=self.names[s.current]))
        if seat != s.current:
            raise NotYourTurnError(msg("it is {name}'s turn, not {who}'s", "T9",
                                       name=self.names[s.current], who=self.names[seat]))
        if s.phase is Phase.DRAW:
            raise WrongPhaseError(msg("draw first: a turn starts by taking the top discard or "
                                      "drawing from the stock, then you may {what}", "T9",
                                      what=what))

    def _do_take(self, a: A.TakeDiscard) -> None:
        s = self._s
        if a.seat != s.current:
            raise NotYourTurnError(msg("it is {name}'s turn to draw, not {who}'s", "T9",
                                       name=self.names[s.current], who=self.names[a.seat]))
        if s.phase is Phase.BUY:
            raise WrongPhaseError(msg(
                "you declined the discard: it is offered to the others now, and you draw "
                "from the stock", "T12"))
        if s.phase is not Phase.DRAW:
            raise WrongPhaseError(msg("you have already drawn this turn", "T9"))
        if not s.discard:
            raise WrongPhaseError(msg("the discard pile is empty: draw from the stock", "T9"))
        card_id = s.discard.pop()
        s.hands[a.seat].append(card_id)
        s.taken = card_id
        s.phase = Phase.PLAY
        self._log("take", a.seat, msg("{name} takes {card} from the discard pile", "T9",
                                      name=self.names[a.seat], card=s.cards[card_id]),
                  (s.cards[card_id],), a)

    def _do_draw(self, a: A.Draw) -> None:
        s = self._s
        if a.seat != s.current:
            raise NotYourTurnError(msg("it is {name}'s turn to draw, not {who}'s", "T9",
                                       name=self.names[s.current], who=self.names[a.seat]))
        if s.phase is not Phase.DRAW:
            raise WrongPhaseError(msg("you have already drawn this turn", "T9"))
        buyers = [seat for seat in self._left_of(s.current) if self._buy_refusal(seat) is None]
        if s.discard and buyers:
            s.phase = Phase.BUY
            s.buyers = {seat: None for seat in buyers}
            self._log("offer", a.seat, msg(
                "{name} declines {card}: the others may buy it", "T10",
                name=self.names[a.seat], card=s.cards[s.discard[-1]]),
                (s.cards[s.discard[-1]],), a)
            return
        self._log("decline", a.seat, msg("{name} draws from the stock", "T9",
                                         name=self.names[a.seat]), (), a)
        self._stock_draw_for_turn()

    def _buy_refusal(self, seat: int) -> Message | None:
        """Why `seat` may not buy in this turn's buy window (H5), or None."""
        s, r = self._s, self.rules
        if seat == s.current:
            return msg("it is your own turn: take the discard or draw, you cannot buy", "T10")
        if not r.down_players_may_buy and s.down_turn[seat] is not None:
            return msg("in these house rules a player who is already down may not buy", "H5")
        if r.max_buys_per_round is not None and len(s.buy_turns[seat]) >= r.max_buys_per_round:
            return msg("you have used all {k} buys allowed per round in these house rules",
                       "H5", k=r.max_buys_per_round)
        return None

    def _do_answer(self, a: A.Buy | A.Pass) -> None:
        s = self._s
        if s.phase is not Phase.BUY:
            raise WrongPhaseError(msg("nothing is offered to buy now: a card can be bought only "
                                      "when the player whose turn it is declines the discard",
                                      "T10"))
        if a.seat not in s.buyers:
            why = self._buy_refusal(a.seat) or msg("you may not buy this card", "H5")
            raise BuyError(why)
        if s.buyers[a.seat] is not None:
            raise BuyError(msg("you have already answered for this card", "T10"))
        wants = isinstance(a, A.Buy)
        s.buyers[a.seat] = wants
        card = s.cards[s.discard[-1]]
        self._log("buy_request" if wants else "pass", a.seat,
                  msg("{name} asks to buy {card}", "T10", name=self.names[a.seat], card=card)
                  if wants else msg("{name} passes", "T10", name=self.names[a.seat]),
                  (card,) if wants else (), a)
        self._resolve_buy()

    def _resolve_buy(self) -> None:
        """Settle the buy window as soon as its outcome is certain: the nearest player to
        the left of the one whose turn it is, among those who ask, gets the card (T10)."""
        s = self._s
        winner = None
        for seat in self._left_of(s.current):
            if seat not in s.buyers:
                continue
            answer = s.buyers[seat]
            if answer is None:
                return
            if answer:
                winner = seat
                break
        s.buyers = {}
        if winner is not None:
            card_id = s.discard.pop()
            s.hands[winner].append(card_id)
            s.buy_turns[winner].append(s.turn)
            self._log("buy", winner, msg("{name} buys {card}", "T10",
                                         name=self.names[winner], card=s.cards[card_id]),
                      (s.cards[card_id],))
            for _ in range(self.rules.penalty_cards):
                penalty = self._pop_stock()
                if penalty is None:
                    self._log("no_penalty", winner, msg(
                        "the stock is empty: no penalty card to give", "H6"))
                    break
                s.hands[winner].append(penalty)
                self._log("penalty", winner, msg(
                    "{name} also takes a penalty card from the stock", "T11",
                    name=self.names[winner]), (s.cards[penalty],))
        else:
            self._log("no_buy", None, msg("nobody buys", "T10"))
        self._stock_draw_for_turn()

    def _stock_draw_for_turn(self) -> None:
        s = self._s
        card_id = self._pop_stock()
        if card_id is None:
            self._end_round(None, "stock")
            return
        s.hands[s.current].append(card_id)
        s.phase = Phase.PLAY
        self._log("draw", s.current, msg("{name} draws from the stock", "T12",
                                         name=self.names[s.current]), (s.cards[card_id],))

    def _pop_stock(self) -> int | None:
        """The top of the stock, restocking from the discard pile when it is empty (H6)."""
        s = self._s
        if not s.stock:
            if len(s.discard) <= 1:
                return None
            pile, s.discard = s.discard[:-1], s.discard[-1:]
            if self.rules.restock is Restock.SHUFFLE:
                self._shuffle(pile)
                s.stock = pile
            else:
                s.stock = pile[::-1]
            s.restocks += 1
            self._log("restock", None, msg(
                "the stock is empty: the discard pile but its top card becomes the new stock",
                "H6"))
        return s.stock.pop()

    def _take_from_hand(self, seat: int, cards: Sequence[Card], prefer: Iterable[int] = ()
                        ) -> list[int]:
        """Remove these card values from a hand; physical cards in `prefer` go first.
        Raises `CardNotInHandError` naming the first card the hand does not hold."""
        s = self._s
        hand = s.hands[seat]
        preferred = [i for i in prefer if i in hand]
        taken: list[int] = []
        for card in cards:
            pick = next((i for i in preferred if s.cards[i] == card and i not in taken), None)
            if pick is None:
                pick = next((i for i in hand if s.cards[i] == card and i not in taken), None)
            if pick is None:
                held = sum(1 for i in hand if s.cards[i] == card)
                needed = sum(1 for c in cards if c == card)
                if held:
                    raise CardNotInHandError(msg(
                        "you need {k} × {card} for this, but hold only {held}", None,
                        k=needed, card=card, held=held))
                raise CardNotInHandError(msg("you do not hold {card}", None, card=card))
            taken.append(pick)
        for i in taken:
            hand.remove(i)
        return taken

    def _do_lay_down(self, seat: int, melds: tuple[Meld, ...], notation: str,
                     swap: int | None) -> None:
        s, rules = self._s, self.rules
        if s.down_turn[seat] is not None:
            raise ContractNotMetError(msg(
                "you are already down; now you may lay off cards onto melds on the table",
                "H7"))
        checked = []
        for m in melds:
            verdict = check_meld(str(m), rules)
            if not verdict:
                raise InvalidMeldError(verdict.reason)
            checked.append(verdict.meld_or_raise())
        verdict = check_lay_down(checked, rules.contract(s.round_number), rules,
                                 s.round_number)
        if not verdict:
            raise ContractNotMetError(verdict.reason)
        prefer = ([swap] if swap is not None else []) + ([s.taken] if s.taken is not None
                                                          else [])
        placed = [(m, tuple(self._take_from_hand(seat, m.cards, prefer))) for m in checked]
        if swap is not None and not any(swap in ids for _, ids in placed):
            raise RookSwapError(msg("the Rook you swapped out must be one of the cards you lay "
                                    "down", "T18"))
        if not rules.may_go_out_by_discard(s.round_number) and s.hands[seat]:
            raise ContractNotMetError(msg(
                "in round 11 the whole hand goes down at once, and {left} would be left in "
                "your hand", "T17", left=format_cards(s.cards[i] for i in s.hands[seat])))
        s.table[seat].extend(placed)
        s.down_turn[seat] = s.turn
        self._log("lay_down", seat, msg("{name} lays down {melds}", "T15",
                                        name=self.names[seat],
                                        melds=" / ".join(str(m) for m in checked)),
                  tuple(c for m in checked for c in m.cards), notation)
        if not s.hands[seat]:
            self._go_out(seat)

    def _meld_at(self, ref: tuple[int, int]) -> tuple[Meld, tuple[int, ...]]:
        s = self._s
        owner, index = ref
        if not (isinstance(owner, int) and 0 <= owner < self.players
                and isinstance(index, int) and 0 <= index < len(s.table[owner])):
            raise LayOffError(msg("there is no meld {owner}.{index} on the table", None,
                                  owner=owner, index=index))
        return s.table[owner][index]

    def _do_lay_off(self, seat: int, card: Card, onto: tuple[int, int], as_card: Card | None,
                    notation: str | None, rook_id: int | None = None) -> None:
        s, rules = self._s, self.rules
        if s.down_turn[seat] is None:
            raise LayOffError(msg("you may lay off only once your contract is down", "H9"))
        if not rules.lay_off_same_turn and s.down_turn[seat] == s.turn:
            raise LayOffError(msg("in these house rules you may lay off only from the turn "
                                  "after you lay down", "H9"))
        if onto[0] != seat and not rules.lay_off_on_others:
            raise LayOffError(msg("in these house rules you may lay off only onto your own "
                                  "melds", "H9"))
        meld, ids = self._meld_at(onto)
        grown = meld.lay_off(card, as_card, rules)
        prefer = [rook_id] if rook_id is not None else ([s.taken] if s.taken is not None else [])
        (card_id,) = self._take_from_hand(seat, [card], prefer)
        extends_below = grown.is_run and grown.low < meld.low
        new_ids = (card_id, *ids) if extends_below else (*ids, card_id)
        s.table[onto[0]][onto[1]] = (grown, new_ids)
        self._log("lay_off", seat, msg("{name} lays off {card} onto {meld}", "H9",
                                       name=self.names[seat],
                                       card=f"RK={grown.stands_for(new_ids.index(card_id))}"
                                       if card.is_rook and grown.is_run else card,
                                       meld=str(grown)), (card,), notation)
        if not s.hands[seat]:
            self._go_out(seat)

    def _do_swap(self, a: A.SwapRook) -> None:
        s, rules = self._s, self.rules
        if not rules.rook_swap:
            raise RookSwapError(msg("these house rules do not allow the Rook swap", "H10"))
        self._turn_check(a.seat, "swap a Rook")
        if rules.swap_only_when_down and s.down_turn[a.seat] is None:
            raise RookSwapError(msg("in these house rules only a player who is down may swap a "
                                    "Rook", "H10"))
        if (a.lay_off_onto is None) == (a.lay_down is None):
            raise RookSwapError(msg("the Rook must be played at once: lay it off onto a meld, "
                                    "or lay down your contract with it", "T18"))
        try:
            meld, ids = self._meld_at(a.source)
        except LayOffError as err:
            raise RookSwapError(err.message) from None
        swapped = meld.swap_rook(a.natural)
        position = next(i for i, (old, new) in enumerate(zip(meld.cards, swapped.cards,
                                                             strict=True)) if old != new)
        rook_id = ids[position]
        (natural_id,) = self._take_from_hand(a.seat, [a.natural])
        new_ids = list(ids)
        new_ids[position] = natural_id
        s.table[a.source[0]][a.source[1]] = (swapped, tuple(new_ids))
        s.hands[a.seat].append(rook_id)
        self._log("swap", a.seat, msg("{name} puts {card} in place of the Rook in {meld}",
                                      "T18", name=self.names[a.seat], card=a.natural,
                                      meld=str(swapped)), (a.natural,), a.notation())
        if a.lay_down is not None:
            self._do_lay_down(a.seat, a.lay_down, a.notation(), swap=rook_id)
        else:
            assert a.lay_off_onto is not None
            if s.down_turn[a.seat] is None:
                raise RookSwapError(msg("you are not down, so the Rook you swap out must go "
                                        "into your contract lay-down in the same move", "T18"))
            self._do_lay_off(a.seat, ROOK, a.lay_off_onto, a.rook_as, None, rook_id=rook_id)

    def discard_refusal(self, seat: int, card: Card) -> IllegalActionError | None:
        """Why `seat` may not discard `card` now (T9, T13, T14, T16, T17), or None. Cheaper
        than `refusal(Discard(...))`: nothing is tried."""
        try:
            self._discard_pick(seat, card)
        except IllegalActionError as err:
            return err
        return None

    def _discard_pick(self, seat: int, card: Card) -> int:
        """The physical card a discard of `card` would throw, or the refusal."""
        s, rules = self._s, self.rules
        self._check_seat(seat)
        if s.phase is Phase.GAME_OVER:
            raise WrongPhaseError(msg("the game is over: all 11 rounds have been played",
                                      "T7"))
        self._turn_check(seat, "discard")
        hand = s.hands[seat]
        ids = [i for i in hand if s.cards[i] == card]
        if not ids:
            raise CardNotInHandError(msg("you do not hold {card}", None, card=card))
        free = [i for i in ids if i != s.taken]
        if not free:
            raise DiscardError(msg("you took {card} from the discard pile this turn, so you may "
                                   "not discard that card (another {card} would be fine)",
                                   "T14", card=card))
        if len(hand) == 1:
            if s.down_turn[seat] is None:
                raise DiscardError(msg("you cannot discard your last card before your contract "
                                       "is down", "T16"))
            if not rules.may_go_out_by_discard(s.round_number):
                raise DiscardError(msg("in round 11 nobody goes out by discarding: the whole "
                                       "hand must go down in melds", "T17"))
        return free[0]

    def _do_discard(self, a: A.Discard) -> None:
        s = self._s
        card_id = self._discard_pick(a.seat, a.card)
        hand = s.hands[a.seat]
        hand.remove(card_id)
        s.discard.append(card_id)
        self._log("discard", a.seat, msg("{name} discards {card}", "T13",
                                         name=self.names[a.seat], card=a.card),
                  (a.card,), a)
        if not hand:
            self._go_out(a.seat)
        else:
            self._next_turn()

    # -- automatic steps ---------------------------------------------------------------
    def _go_out(self, seat: int) -> None:
        self._log("out", seat, msg("{name} goes out", "T16", name=self.names[seat]))
        self._end_round(seat, "out")

    def _next_turn(self) -> None:
        s = self._s
        s.current = (s.current + 1) % self.players
        s.phase = Phase.DRAW
        s.taken = None
        s.turn += 1
        if self.turn_limit is not None and s.turn > self.turn_limit:
            self._log("turn_limit", None, msg("the turn limit of {k} is reached: the round "
                                              "ends", None, k=self.turn_limit))
            self._end_round(None, "turn_limit")

    def _end_round(self, went_out: int | None, ended_by: str) -> None:
        s = self._s
        hands = [[s.cards[i] for i in h] for h in s.hands]
        row = round_scores(hands, went_out)
        s.scores.append(row)
        s.records.append(RoundRecord(
            round_number=s.round_number, dealer=s.dealer, went_out=went_out,
            ended_by=ended_by, turns=s.turn, dealt=s.dealt, down_turn=tuple(s.down_turn),
            buy_turns=tuple(tuple(b) for b in s.buy_turns), points=row,
            restocks=s.restocks))
        if ended_by == "stock":
            text = msg("the stock is empty and there is nothing to shuffle: round {r} ends",
                       "H6", r=s.round_number)
        else:
            text = msg("round {r} is over", "T20", r=s.round_number)
        self._log("round_end", went_out, text)
        self._log("scores", None, msg("scores for round {r}: {row}", "T20",
                                      r=s.round_number, row=" ".join(map(str, row))))
        if s.round_number == ROUNDS:
            s.phase = Phase.GAME_OVER
            s.buyers = {}
            best = min(self.totals)
            who = ", ".join(self.names[i] for i, t in enumerate(self.totals) if t == best)
            self._log("game_over", None, msg("the game is over: lowest total {best}, {who}",
                                             "T21", best=best, who=who))
            return
        universe = shoe(self.players)
        order = list(range(len(universe)))
        self._shuffle(order)
        self._deal(s.round_number + 1, (s.dealer + 1) % self.players, universe, order,
                   scores=s.scores, records=s.records)

    def _deal(self, round_number: int, dealer: int, universe: tuple[Card, ...],
              order: list[int], scores: list[tuple[int, ...]] | None = None,
              records: list[RoundRecord] | None = None) -> None:
        """Deal a round (T7, T8, H2–H4): one card at a time from the dealer's left; the
        rest is the stock, and its top card is turned up."""
        n, size = self.players, self.rules.deal_size(round_number)
        hands: list[list[int]] = [[] for _ in range(n)]
        for k in range(n * size):
            hands[(dealer + 1 + k) % n].append(order[k])
        stock = order[n * size:][::-1]
        self._s = s = _State(universe, round_number, dealer, (dealer + 1) % n, Phase.DRAW,
                             hands, stock, [], [[] for _ in range(n)], [None] * n,
                             buy_turns=[[] for _ in range(n)],
                             dealt=tuple(tuple(universe[i] for i in h) for h in hands),
                             scores=scores or [], records=records or [])
        self._log("deal", dealer, msg(
            "round {r}: {name} deals {k} cards to each player; the contract is {contract}",
            "T7", r=round_number, name=self.names[dealer], k=size,
            contract=str(self.rules.contract(round_number))))
        top = s.stock.pop()
        buried = 0
        while (universe[top].is_rook and self.rules.rook_turn_up is RookTurnUp.BURY
               and buried < len(s.stock)):
            s.stock.insert(0, top)
            buried += 1
            self._log("bury", None, msg("a Rook was turned up: it is buried in the stock and "
                                        "the next card turned up", "H3"), (universe[top],))
            top = s.stock.pop()
        s.discard.append(top)
        self._log("turn_up", None, msg("{card} is turned up to start the discard pile", "T8",
                                       card=universe[top]), (universe[top],))

    # -- helpers -----------------------------------------------------------------------
    def _shuffle(self, cards: list[int]) -> None:
        """Shuffle with the game's generator, first noting its state so that a refused
        move can put it back (most moves never shuffle, so the state is saved lazily)."""
        if self._rng_before is None:
            self._rng_before = self._rng.getstate()
        self._rng.shuffle(cards)

    def _left_of(self, seat: int) -> list[int]:
        """The other seats in turn order, starting at `seat`'s left."""
        return [(seat + k) % self.players for k in range(1, self.players)]

    def _log(self, kind: str, seat: int | None, text: Message, cards: tuple[Card, ...] = (),
             action: A.Action | str | None = None) -> None:
        notation = action.notation() if action is not None and not isinstance(action, str) \
            else action
        self._history.append(Event(self._s.round_number, kind, seat, text, cards, notation))

    # -- saving ------------------------------------------------------------------------
    def to_json(self, indent: int | None = 1) -> str:
        from .saves import game_to_json

        return game_to_json(self, indent)

    @classmethod
    def from_json(cls, text: str) -> Game:
        from .saves import game_from_json

        return game_from_json(text)

    @property
    def start(self) -> dict[str, Any]:
        """How the game began beyond its seed: a fixed deck or a position (for saves)."""
        return dict(self._start)


def _card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else Card.parse(card)


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
