"""Practice from one's own mistakes: the review's costly decisions, to play again.

Owns `PracticePosition` (one costly decision as a value: the game as it stood, as an
ordinary save — `Game.from_json(position.save)` stands at the decision, with the whole
round before it, so the coach's notes for the seat are rebuilt as they were — the seat,
the decision's phase, the learner's move in the game, the coach's better move, the
game's seed and the review's figures), `positions_from_review` (a round's review →
practice positions), `choices` (the moves a learner chooses among at the position, as a
seat chooses: draw or take, buy or pass, a card to discard or lay off, a lay-down, and the
review's two moves whatever they are), `check_answer` (the learner's new choice priced
against the coach's best, in the hints' own words) and the list as JSON
(`dump_positions`, `load_positions`).

A check prices the two moves on the same fresh worlds as the review re-priced them (the
worlds keyed by the game's seed and the position, `hint.price_at`): the same answer
gives the same figures every time, on any machine. Choosing the move made in the game
again (or the coach's best, whose figures are then the move made's against it) gives
the review's own figures, as the position keeps them: the review states the posterior
of more worlds than it chose the decision on (`review`); any other choice is stated as
a hint states a cost (`hint.stated_alternative`: the posterior under the prior of true
costs of its kind of decision, `shrink`). The figures say what they allow
(`hint.Alternative.message`: "costs about …", "about the same", "may be better").

A saved list is read with care: whatever the text holds, `load_positions` returns the
positions it could read and keeps every entry it could not (`Loaded.unread`, with why),
and `dump_positions` writes those back unchanged beside the others: a list broken by
another program, or written by a later kit, loses nothing.

Engine code: standard library only.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine import actions as A
from ..engine.errors import IllegalActionError, SaveFileError, ToonervilleError
from ..engine.events import Phase
from ..engine.game import Game
from ..engine.messages import N_, Message, msg
from ..engine.saves import MAX_DEPTH, MAX_SIZE, json_depth
from .hint import Alternative, price_at, stated_alternative
from .review import SECOND_WORLDS, Mistake
from .shrink import prior_for
from .strong import move_words

FORMAT = "toonerville-practice"
VERSION = 1
#: the most positions a list keeps (the oldest go first past it)
MAX_POSITIONS = 30
#: the longest list read or written, in characters (30 saves of a late round)
MAX_TEXT = 40 * MAX_SIZE
#: (least, most) fresh worlds a check prices the two moves on: the review's own
PRICE = SECOND_WORLDS

#: what a check says before the figures
CHOSE_BEST = N_("You chose {move}, the coach's best move here (in the game you chose "
                "{made}).")
CHOSE = N_("You chose {move}; the coach's best move here is {best}.")

_PHASES = {p.value: p for p in (Phase.DRAW, Phase.BUY, Phase.PLAY)}
_FIELDS = ("save", "seat", "phase", "made", "best", "seed", "round_number", "turn",
           "offer", "cost", "low", "high", "samples")


@dataclass(frozen=True, slots=True)
class PracticePosition:
    """One costly decision to play again (see the module). `made` and `best` are moves in
    the engine's notation ("0: discard R7"); `cost`, `low`, `high`, `samples` the
    review's figures (the move made against the better one)."""

    save: str
    seat: int
    phase: str
    made: str
    best: str
    seed: int
    round_number: int
    turn: int = 0
    offer: bool = False
    cost: float = 0.0
    low: float = 0.0
    high: float = 0.0
    samples: int = 0

    def game(self) -> Game:
        """The game as it stood at the decision (replayed and checked from the save)."""
        return Game.from_json(self.save)

    @property
    def made_action(self) -> A.Action:
        return A.parse_action(self.made)

    @property
    def best_action(self) -> A.Action:
        return A.parse_action(self.best)

    @property
    def key(self) -> tuple[int, str, int]:
        """What makes two positions the same decision: the game, the moves before it,
        the seat."""
        return (self.seed, self.save, self.seat)


@dataclass(frozen=True, slots=True)
class Answer:
    """A learner's choice at a practice position, checked: the choice, the coach's best,
    whether they are the same, and the figures (`alternative`: the choice priced against
    the best; when the choice is the best, the move made in the game priced against it)."""

    chosen: A.Action
    best: A.Action
    found: bool
    alternative: Alternative
    chosen_words: Message
    best_words: Message
    made_words: Message

    def message(self) -> Message:
        """What the learner chose, and the coach's best."""
        if self.found:
            return msg(CHOSE_BEST, None, move=self.chosen_words, made=self.made_words)
        return msg(CHOSE, None, move=self.chosen_words, best=self.best_words)

    def figures(self) -> Message:
        """The honest cost, in the hints' words ("… instead costs about 6 points this
        round (2 to 10 points; 32 rounds played out)", "about the same", "may be
        better")."""
        return self.alternative.message()


def position_from_mistake(game: Game, mistake: Mistake) -> PracticePosition:
    """The practice position of one reviewed decision of `game`."""
    pos = game.position_at(mistake.moves)
    return PracticePosition(
        pos.to_json(indent=None), mistake.seat, pos.phase.value, mistake.made.notation(),
        mistake.better.notation(), game.seed, mistake.round_number, mistake.turn,
        mistake.offer, mistake.cost, mistake.low, mistake.high, mistake.samples)


def positions_from_review(game: Game, mistakes: Iterable[Mistake]) -> tuple[PracticePosition, ...]:
    """Every reviewed decision of `game` (`review.review_round`) as a practice position,
    in the review's order."""
    return tuple(position_from_mistake(game, m) for m in mistakes)


def merged(old: Sequence[PracticePosition], new: Iterable[PracticePosition],
           most: int = MAX_POSITIONS) -> tuple[PracticePosition, ...]:
    """`old` then the positions of `new` not in it already (the same decision, `key`),
    the newest `most` of them."""
    seen = {p.key for p in old}
    out = list(old)
    for p in new:
        if p.key not in seen:
            seen.add(p.key)
            out.append(p)
    return tuple(out[-most:]) if most > 0 else ()


def choices(position: PracticePosition, game: Game | None = None) -> tuple[A.Action, ...]:
    """The moves the learner chooses among at `position`, as a seat would: in the draw
    phase draw or take, in a buy window buy or pass, in play any card of the hand to
    discard (each card once), to lay off, or a lay-down, and the review's two moves
    whatever they are (a Rook swap). Each is legal there; the list never tells which
    one the coach prefers."""
    game = position.game() if game is None else game
    seat = position.seat
    legal = game.legal_actions(seat) if seat in game.deciders else []
    wanted = (A.Draw, A.TakeDiscard, A.Buy, A.Pass, A.Discard, A.LayOff, A.LayDown)
    out: list[A.Action] = []
    for action in legal:
        if isinstance(action, wanted) and action not in out:
            out.append(action)
    for notation in (position.best, position.made):
        action = A.parse_action(notation)
        if action not in out and game.is_legal(action):
            out.append(action)
    return tuple(out)


def check_answer(position: PracticePosition, chosen: A.Action, least: int = PRICE[0],
                 most: int = PRICE[1], game: Game | None = None) -> Answer:
    """The learner's `chosen` move at `position`, priced against the coach's best on
    fresh worlds (see the module). A move that is not one of `choices` is refused with
    the engine's own error, nothing priced."""
    game = position.game() if game is None else game
    best, made = position.best_action, position.made_action
    if chosen not in choices(position, game):
        if not game.is_legal(chosen):  # the engine's own refusal, on a copy nobody keeps
            game.position_at(game.moves_made).apply(chosen)
        raise IllegalActionError(msg("this practice position asks for {what}, not {move}",
                                     None, what=msg(_ASKS.get(position.phase, "?"), None),
                                     move=move_words(chosen)))
    found = chosen == best
    other = made if found else chosen
    view = game.view(position.seat)
    card = view.offered or view.discard_top or ""
    words = move_words(other, card)
    if other == made and (least, most) == PRICE and position.samples > 0:
        # the move made against the best: the review's own figures, as the position
        # keeps them (its worlds, and its posterior: `review`)
        return Answer(chosen, best, found,
                      Alternative(other, position.cost, position.samples, words,
                                  position.low, position.high),
                      move_words(chosen, card), move_words(best, card),
                      move_words(made, card))
    priced = price_at(game, position.seat, game.moves_made, (best, other), least, most)
    first = next((w for w in priced if w.action == best), None)
    second = next((w for w in priced if w.action == other), None)
    if first is None or second is None:  # nothing played out: no figures to give
        alternative = Alternative(other, 0.0, 0, words, float("-inf"), float("inf"))
    else:  # stated as a hint states it: the posterior under its kind's prior
        alternative = stated_alternative(second, first, words, prior_for(best))
    return Answer(chosen, best, found, alternative, move_words(chosen, card),
                  move_words(best, card), move_words(made, card))


_ASKS = {"draw": N_("drawing or taking the discard"), "buy": N_("buying or passing"),
         "play": N_("a card to discard")}


# -- the list as JSON -----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Loaded:
    """A saved list read back: the positions read, the entries that could not be
    (kept as they were, to be written back: `dump_positions`) and why not."""

    positions: tuple[PracticePosition, ...]
    unread: tuple[Any, ...] = ()
    problems: tuple[Message, ...] = ()


def _entry(p: PracticePosition) -> dict[str, Any]:
    return {name: getattr(p, name) for name in _FIELDS}


def dump_positions(positions: Sequence[PracticePosition], unread: Sequence[Any] = ()) -> str:
    """The list as JSON (one line), with the entries a load could not read kept as
    they were."""
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION,
                            "positions": [_entry(p) for p in positions]}
    if unread:
        data["unread"] = list(unread)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _problem(why: object) -> Message:
    return msg("your practice positions could not all be read ({why}); they are kept as "
               "they were", None, why=why)


def load_positions(text: object) -> Loaded:
    """The list in `text` (see the module): never an exception, whatever `text` holds."""
    if text is None or text == "":
        return Loaded(())
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        size = len(text) if isinstance(text, str | bytes) else 0
        return Loaded((), (), (_problem(msg("the list has {n} characters; at most {limit} "
                                            "are read", None, n=size, limit=MAX_TEXT)),))
    try:
        if json_depth(text) > MAX_DEPTH:
            raise ValueError("nested too deeply")
        data = json.loads(text)
    except (ValueError, RecursionError) as err:
        return Loaded((), (text,), (_problem(msg("it is not JSON: {why}", None,
                                                 why=str(err)[:80])),))
    if not isinstance(data, dict) or data.get("format") != FORMAT \
            or not isinstance(data.get("positions"), list):
        return Loaded((), (text,), (_problem(msg("it is not a list of practice positions",
                                                 None)),))
    if data.get("version") != VERSION:
        return Loaded((), (text,), (_problem(msg("it is version {v}; this kit reads "
                                                 "version {mine}", None,
                                                 v=str(data.get("version"))[:20],
                                                 mine=VERSION)),))
    unread = list(data.get("unread") or []) if isinstance(data.get("unread"), list) else []
    read: list[PracticePosition] = []
    problems: list[Message] = []
    for number, entry in enumerate(data["positions"], start=1):
        try:
            read.append(_position(entry))
        except (ToonervilleError, ValueError, TypeError, KeyError) as err:
            unread.append(entry)
            why = err.message if isinstance(err, ToonervilleError) else str(err)[:80]
            problems.append(_problem(msg("position {k}: {why}", None, k=number, why=why)))
    return Loaded(tuple(read), tuple(unread), tuple(problems))


def _position(entry: object) -> PracticePosition:
    """One entry, checked: its save replays to a position where its seat decides, in
    its phase, and both moves are legal there."""
    if not isinstance(entry, dict):
        raise SaveFileError(msg("it is not a practice position", None))
    kinds = {"save": str, "seat": int, "phase": str, "made": str, "best": str, "seed": int,
             "round_number": int, "turn": int, "offer": bool, "cost": float, "low": float,
             "high": float, "samples": int}
    values: dict[str, Any] = {}
    for name, kind in kinds.items():
        value = entry.get(name)
        ok = isinstance(value, int | float) and not isinstance(value, bool) \
            if kind is float else type(value) is kind
        if not ok:
            raise SaveFileError(msg("the field '{name}' is missing or of the wrong kind",
                                    None, name=name))
        values[name] = float(value) if kind is float and value is not None else value
    position = PracticePosition(**values)
    game = position.game()  # SaveFileError says why not
    if position.phase not in _PHASES or game.phase is not _PHASES[position.phase] \
            or position.seat not in game.deciders or game.seed != position.seed:
        raise SaveFileError(msg("its save does not stand at that seat's decision", None))
    for notation in (position.made, position.best):
        if not game.is_legal(A.parse_action(notation)):
            raise SaveFileError(msg("'{move}' is not a legal move there", None,
                                    move=notation[:40]))
    return position
