"""One table: a game, who sits in each seat, and what happens next.

Owns `Table`, the one driver of a game that bots take part in. Bot games (`simulate`),
the play app's session, pass-and-play and the store's shared tables all play through
it, so they share:

- who sits where (`Sitter`): a learner, a bot of a named kind, or a learner who is away
  and played by a stand-in bot until they come back;
- ONE random-number rule (`bot_rng`): a bot deciding at move n of the game seeded s, at
  seat k, draws from a generator keyed "s:n:k" and nothing else, so the same seed gives
  the same game wherever it is played, by one process or by many clients of one store;
- ONE safety limit (`SAFETY_MOVES`): when bots have made that many moves in a row and
  no new round has begun meanwhile, the table stops and says so (`stalled`) instead of
  looping (a round of bots ends long before: bot games have a turn limit);
- ONE rule for a bot that fails (raises, or chooses a move the game refuses): its move
  is replaced by the first legal move the game accepts and the mistake is kept in
  `mistakes` (a `BotMistake` naming the bot, the seat and the move), so a page goes on
  and a test or a simulation can still fail loudly on it.

Every bot move of the kit is made here: `simulate`'s games, the pages' sessions, the
store's shared tables (`store.tables` keeps the moves a `Table` makes, it does not choose
any) and the lessons' scenarios. `run(round_only=True)` stops at the end of the round
too, as a playout wants; `seed=` keys the one rule on another number than the game's.

A learner's buy-offer setting answers buy windows for them (`BUY_OFFERS`: "helpful"
passes on a card that would not help them, "never" passes always, "always" asks).
`step()` makes the next move that is nobody's learner's decision (a bot's, or a pass
the setting makes); `run()` steps until a learner must act or the game is over;
`play(move)` makes a learner's move and runs on. The
engine answers who must act (`Game.deciders`); the table decides only who
answers for each seat. A table holds no clock: the store and the pages decide when a
learner counts as away (`store.tables`, `widgets.session`) and tell the table.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from hashlib import blake2b
from typing import Any, Final

from ..engine import actions as A
from ..engine.errors import IllegalActionError, ToonervilleError
from ..engine.events import Phase
from ..engine.game import Game
from ..engine.hints import discard_helps
from ..engine.messages import Message, msg
from ..engine.rules import Rules
from ..engine.views import PlayerView
from .bots import Bot, make_bot

#: bot moves in a row within one round before a table stops (a round of bots ends long
#: before: bot games have a turn limit, and every other table has a learner)
SAFETY_MOVES = 20_000
#: the bot that plays for a learner who is away, unless the table says otherwise
STAND_IN = "heuristic"
#: what a learner's buy-offer setting may say: offer only a card that helps them (by
#: `hints.discard_helps`), every declined discard, or none (pass for them)
BUY_OFFERS = ("helpful", "always", "never")


class BotMistake(RuntimeError):
    """A bot chose a move the game refused, or failed to choose: a bug in the bot, never
    the player's fault."""


class DecisionRandom(random.Random):
    """The generator of one bot decision (`bot_key`): its numbers are BLAKE2b digests of
    the key and a count ("s:n:k:1", "s:n:k:2", ...), 64 bits each. A bot decides many
    times a game, and arming this costs nothing, where seeding a Mersenne Twister costs
    more than many a decision; the numbers depend on the key alone, as the one rule
    wants. Everything `random.Random` offers (`randrange`, `choice`, `shuffle`, ...) is
    built on `getrandbits` and `random` here."""

    def __init__(self, key: str | None = None) -> None:
        self._key = b""
        self._armed: tuple[int, int, int] | None = None  # a key not yet written out
        self._count = 0
        super().__init__(key)

    def arm(self, seed: int, moves: int, seat: int) -> None:
        """Make this the generator of the decision at seat `seat` after `moves` moves of
        the game seeded `seed` (its key is written out only if the bot draws a number:
        most bots never do)."""
        self._armed = (seed, moves, seat)
        self._count = 0

    def seed(self, a: Any = None, version: int = 2) -> None:
        self._key = (os.urandom(16).hex() if a is None else str(a)).encode()
        self._armed = None
        self._count = 0

    def _ready(self) -> bytes:
        if self._armed is not None:
            self._key = bot_key(*self._armed).encode()
            self._armed = None
        return self._key

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        out = got = 0
        key = self._ready()
        while got < k:
            self._count += 1
            digest = blake2b(b"%s:%d" % (key, self._count), digest_size=8).digest()
            out |= int.from_bytes(digest, "little") << got
            got += 64
        return out >> (got - k)

    def random(self) -> float:
        return self.getrandbits(53) * _UNIT

    def getstate(self) -> tuple[Any, ...]:
        return (self._ready(), self._count)

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._key, self._count = state
        self._armed = None


_UNIT: Final = 2.0 ** -53


def bot_key(seed: int, moves: int, seat: int) -> str:
    """The key of a bot's generator when it decides at seat `seat` after `moves` moves
    of the game seeded `seed` (the one rule, see the module's docstring)."""
    return f"{seed}:{moves}:{seat}"


def bot_rng(seed: int, moves: int, seat: int) -> random.Random:
    """A fresh generator for one decision (`bot_key`)."""
    return DecisionRandom(bot_key(seed, moves, seat))


@dataclass(frozen=True, slots=True)
class Sitter:
    """Who sits in a seat: a bot of kind `bot`, or a learner (`bot` None) — who may be
    `away`, then played by `stand_in` until they come back."""

    bot: str | None = None
    away: bool = False
    stand_in: str = STAND_IN
    buy_offers: str = "helpful"

    @property
    def is_learner(self) -> bool:
        return self.bot is None

    @property
    def played_by(self) -> str | None:
        """The bot kind that moves for this seat now, or None: the learner moves."""
        if self.bot is not None:
            return self.bot
        return self.stand_in if self.away else None


LEARNER = Sitter()


class Table:
    """A game and who sits in each seat. `Table(game, {1: "heuristic", 2: "random"})`:
    seats 1 and 2 are bots, the others learners. `run()` plays until a learner acts."""

    def __init__(self, game: Game, bots: Mapping[int, Bot | str] | None = None, *,
                 away: Iterable[int] = (), buy_offers: Mapping[int, str] | None = None,
                 stand_in: Bot | str = STAND_IN, seed: int | None = None) -> None:
        self.game = game
        #: the seed the one random-number rule keys decisions on (the game's by default)
        self.seed = game.seed if seed is None else seed
        n = game.players
        self._players: list[Bot | None] = [None] * n
        sitters = [LEARNER] * n
        stand_name = stand_in if isinstance(stand_in, str) else stand_in.name
        self._stand_in: dict[str, Bot] = {}
        if not isinstance(stand_in, str):
            self._stand_in[stand_in.name] = stand_in
        for seat, kind in (bots or {}).items():
            game._check_seat(seat)
            bot = make_bot(kind)
            self._players[seat] = bot
            sitters[seat] = Sitter(bot=bot.name)
        for seat in range(n):
            if sitters[seat].is_learner:
                setting = (buy_offers or {}).get(seat, "helpful")
                sitters[seat] = Sitter(away=seat in set(away), stand_in=stand_name,
                                       buy_offers=_offer_setting(setting))
        self._sitters = sitters
        self._rng = DecisionRandom()
        self._rules = game.rules
        self._legal = [partial(game.legal_actions, seat) for seat in range(n)]
        self.mistakes: list[BotMistake] = []
        self.stalled: Message | None = None
        # the safety limit: moves made since `_mark`, and the round then (the round is
        # looked at only when the count reaches the limit: a new round starts it again)
        self._made = 0
        self._mark_round = game.round_number
        # the move `next_move` checked, and the position it was checked at (moves so
        # far, the last move): `step` makes it without deciding again
        self._checked: tuple[int, A.Action | None, A.Action] | None = None

    def __repr__(self) -> str:
        who = ", ".join(s.played_by or "learner" for s in self._sitters)
        return f"<Table of {self.game!r}: {who}>"

    # -- who sits where --------------------------------------------------------------
    @property
    def sitters(self) -> tuple[Sitter, ...]:
        return tuple(self._sitters)

    def learners(self) -> tuple[int, ...]:
        """The learners' seats (away or not)."""
        return tuple(s for s, x in enumerate(self._sitters) if x.is_learner)

    def away(self) -> tuple[int, ...]:
        """The learners' seats a stand-in bot plays now."""
        return tuple(s for s, x in enumerate(self._sitters) if x.is_learner and x.away)

    def set_away(self, seat: int, away: bool = True) -> None:
        """A learner has gone (a stand-in plays for them) or come back (they play)."""
        self.game._check_seat(seat)
        x = self._sitters[seat]
        if x.is_learner and x.away != away:
            self._sitters[seat] = Sitter(away=away, stand_in=x.stand_in,
                                         buy_offers=x.buy_offers)
            self._checked = None

    def set_buy_offers(self, seat: int, setting: str) -> None:
        """A learner's buy-offer setting (`BUY_OFFERS`)."""
        self.game._check_seat(seat)
        x = self._sitters[seat]
        if x.is_learner:
            self._sitters[seat] = Sitter(away=x.away, stand_in=x.stand_in,
                                         buy_offers=_offer_setting(setting))
            self._checked = None

    def give_seat(self, seat: int, bot: Bot | str | None) -> None:
        """Hand a seat to a bot of a kind (`bot`), or to a learner (None)."""
        self.game._check_seat(seat)
        if bot is None:
            self._players[seat] = None
            self._sitters[seat] = Sitter(stand_in=self._sitters[seat].stand_in)
        else:
            made = make_bot(bot)
            self._players[seat] = made
            self._sitters[seat] = Sitter(bot=made.name)
        self._checked = None

    def bot_of(self, seat: int) -> Bot | None:
        """The bot that moves for `seat` now (a stand-in for a learner who is away)."""
        own = self._players[seat]
        if own is not None:
            return own
        kind = self._sitters[seat].played_by
        if kind is None:
            return None
        bot = self._stand_in.get(kind)
        if bot is None:
            bot = self._stand_in[kind] = make_bot(kind)
        return bot

    def learner_to_act(self) -> tuple[int, ...]:
        """The learners (not away) who must act now and whom no setting answers for."""
        game = self.game
        return tuple(s for s in game.deciders if self._sitters[s].played_by is None
                     and not self._answered_for(s))

    def offered_to(self, seat: int) -> bool:
        """Is the declined discard now offered to the learner at `seat`, by their
        buy-offer setting? (False outside a buy window they must answer.)"""
        game = self.game
        return game.phase is Phase.BUY and seat in game.deciders \
            and self._sitters[seat].played_by is None and not self._answered_for(seat)

    # -- what happens next -----------------------------------------------------------
    def next_move(self) -> A.Action | None:
        """The move the table makes next without a learner, checked: the first deciding
        seat a bot plays (a failing bot's replacement, see the module's docstring), else
        a pass a learner's buy-offer setting makes; None if a learner must act (or the
        game is over, or the table stalled). `step` makes this very move."""
        if self.stalled is not None:
            return None
        at = self._position()
        checked = self._checked
        if checked is not None and checked[:2] == at:
            return checked[2]
        decided = self._decide()
        if decided is None:
            return None
        seat, action = decided
        refusal = self.game.refusal(action)
        if refusal is not None:
            action = self._mistaken(seat, action, refusal)
        self._checked = (*at, action)
        return action

    def step(self) -> A.Action | None:
        """Make the next move that is no learner's (`next_move`); returns it, or None."""
        if self.stalled is not None:
            return None
        game = self.game
        checked, self._checked = self._checked, None
        if checked is not None and checked[:2] == self._position():
            seat, action = -1, checked[2]  # checked already: the game accepts it
        else:
            decided = self._decide()
            if decided is None:
                return None
            seat, action = decided
        if self._made >= SAFETY_MOVES:
            number = game.round_number
            if number == self._mark_round:
                self.stalled = msg("the bots made {n} moves in a row in round {r} and "
                                   "were stopped", None, n=SAFETY_MOVES, r=number)
                return None
            self._made, self._mark_round = 0, number
        self._made += 1
        try:
            game.apply(action)
        except IllegalActionError as err:
            action = self._mistaken(seat, action, err)
            game.apply(action)
        return action

    def run(self, *, round_only: bool = False) -> int:
        """Step until a learner must act or the game is over (`round_only`: or the round
        that is being played is over, as a playout wants); returns the moves made."""
        made = 0
        step = self.step
        if round_only:
            game = self.game
            number = game.round_number
            while game.round_number == number and step() is not None:
                made += 1
            return made
        while step() is not None:
            made += 1
        return made

    def play(self, action: A.Action) -> int:
        """A learner's move: made if the game accepts it (else the engine's
        `IllegalActionError`, and nothing changes), then the table moves on (`run`);
        returns the moves the table made after it."""
        self.game.apply(action)
        self.learner_moved()
        return self.run()

    def learner_moved(self) -> None:
        """A learner acted: the bots' count of moves in a row starts again."""
        self._made, self._mark_round = 0, self.game.round_number

    # -- the bots ----------------------------------------------------------------------
    def _position(self) -> tuple[int, A.Action | None]:
        """Where the game stands, as a checked move remembers it (moves so far, and the
        last of them: a move taken back and another made in its place is another
        position)."""
        actions = self.game._actions  # not `actions`: that copies them all
        return len(actions), actions[-1] if actions else None

    def _decide(self) -> tuple[int, A.Action] | None:
        """The seat that moves next without a learner and its move, unchecked (see
        `next_move`)."""
        game = self.game
        deciders = game.deciders
        players = self._players
        for seat in deciders:
            bot = players[seat]
            if bot is None and self._sitters[seat].away:
                bot = self.bot_of(seat)
            if bot is not None:  # its move, asked here: a playout asks thousands
                rng = self._rng
                rng.arm(self.seed, len(game._actions), seat)
                try:
                    return seat, bot.choose(game.view(seat), self._rules, self._legal[seat],
                                            rng)
                except Exception as err:  # noqa: BLE001 - a broken bot must not stop the table
                    return seat, self._mistaken(seat, None, err)
        for seat in deciders:
            if self._answered_for(seat):
                return seat, A.Pass(seat)
        return None

    def _mistaken(self, seat: int, action: A.Action | None, err: Exception) -> A.Action:
        game = self.game
        bot = self.bot_of(seat) if 0 <= seat < game.players else None
        name = bot.name if bot is not None else "?"
        what = f"chose {action.notation()!r}" if action is not None else \
            f"failed ({type(err).__name__})"
        mistake = BotMistake(f"{name} bot at seat {seat} {what}: {err}")
        mistake.__cause__ = err
        self.mistakes.append(mistake)
        for legal in game.legal_actions(seat):
            if game.is_legal(legal):
                return legal
        raise mistake  # pragma: no cover - a deciding seat always has a legal move

    def _answered_for(self, seat: int) -> bool:
        """Does the learner's buy-offer setting pass for them in this buy window?"""
        game = self.game
        if game.phase is not Phase.BUY:
            return False
        setting = self._sitters[seat].buy_offers
        if setting == "always":
            return False
        if setting == "never":
            return True
        return offer_help(game.view(seat), game.rules) is None


def offer_help(view: PlayerView, rules: Rules) -> Message | None:
    """The buy-offer rule, written once: why the declined discard on offer in `view`
    would help its seat (`hints.discard_helps`), or None (nothing on offer, or it helps
    none of their melds). A learner whose setting is "helpful" is offered only a card
    with a reason, which their page shows beside it."""
    if view.phase is not Phase.BUY or view.offered is None:
        return None
    return discard_helps(view, view.offered, rules)


def _offer_setting(setting: str) -> str:
    if setting not in BUY_OFFERS:
        raise ToonervilleError(msg("the buy-offer setting is one of {known}, not {given}",
                                   None, known=", ".join(BUY_OFFERS), given=str(setting)[:20]))
    return setting
