"""Saving a game as JSON and loading it back.

Owns the save format: the rules that differ from the defaults, the seed (or the fixed
deck, or the starting position), the moves in action notation with their count, and the
score sheet, so a person can read the file like one. Loading rebuilds the game and
replays every move through the rules, then checks every other field against the game
it replayed, so a corrupted, truncated or hand-edited file is refused with a
`SaveFileError` — one short sentence saying what is wrong and where — never a
half-loaded game, and never any other exception, whatever the file holds.

Version 2 adds `"move_count"`; version 1 files (without it) still load.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from .actions import Action, cut, excerpt
from .errors import SaveFileError, ToonervilleError
from .messages import msg
from .rules import MAX_TURN_LIMIT, ROUNDS, Rules
from .state import MAX_NAME


class SavedGame(Protocol):
    """What a save reads of a game and replays it with. The game's own constructors are
    handed to `game_from_json`, so this module never imports the game: the game uses
    it for `to_json` / `from_json`, and the imports run one way."""

    @property
    def players(self) -> int: ...
    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def seed(self) -> int: ...
    @property
    def turn_limit(self) -> int | None: ...
    @property
    def round_number(self) -> int: ...
    @property
    def scores(self) -> tuple[tuple[int, ...], ...]: ...
    @property
    def totals(self) -> tuple[int, ...]: ...
    @property
    def start(self) -> dict[str, Any]: ...
    @property
    def actions(self) -> tuple[Action, ...]: ...

    def apply(self, action: str) -> object: ...


G = TypeVar("G", bound=SavedGame)

FORMAT = "toonerville-rook-game"
VERSION = 2
#: the largest file read, in characters: an 11-round game of five heuristic bots with
#: long names is about 50,000, one of random bots with the usual turn limit about 110,000
MAX_SIZE = 256 * 1024
#: the deepest nesting of lists and objects read (a saved game has 4: the table of a
#: starting position)
MAX_DEPTH = 8
#: the most digits of a number (a seed the kit draws has 10; Python refuses over 4,300)
MAX_DIGITS = 100

_FIELDS_V1 = frozenset({"format", "version", "players", "names", "rules", "seed",
                        "turn_limit", "deck", "position", "moves", "round", "scores",
                        "totals"})
_FIELDS = {1: _FIELDS_V1, 2: _FIELDS_V1 | {"move_count"}}
#: the fields a file must have: what the game is replayed from (and, from version 2, how
#: many moves it holds); the score sheet beside them ("round", "scores", "totals") is for
#: people, and is checked against the replay when it is there
_REQUIRED = {1: ("players", "names", "rules", "seed", "moves"),
             2: ("players", "names", "rules", "seed", "turn_limit", "move_count", "moves")}
_POSITION = ("hands", "stock", "discard_pile", "table", "round_number", "dealer",
             "current", "scores")
#: how long a quoted reason from the engine may be
_WHY = 160


def _facts(game: SavedGame) -> dict[str, Any]:
    """What a save says about a game beside its start and its moves."""
    return {"players": game.players, "names": list(game.names),
            "rules": game.rules.changes(), "seed": game.seed, "turn_limit": game.turn_limit,
            "round": game.round_number, "scores": [list(r) for r in game.scores],
            "totals": list(game.totals)}


def game_to_json(game: SavedGame, indent: int | None = 1) -> str:
    facts = _facts(game)
    data: dict[str, Any] = {
        "format": FORMAT, "version": VERSION,
        **{k: facts[k] for k in ("players", "names", "rules", "seed", "turn_limit")},
        **game.start,
        "move_count": len(game.actions),
        "moves": [a.notation() for a in game.actions],
        **{k: facts[k] for k in ("round", "scores", "totals")},
    }
    return json.dumps(data, indent=indent, ensure_ascii=False)


def game_from_json(text: str | bytes, new: Callable[..., G],
                   from_position: Callable[..., G]) -> G:
    """The saved game, replayed and checked; `SaveFileError` says why not. `new` and
    `from_position` make the game before its first move (`Game.from_json` hands over
    its own `Game.new` and `Game.from_position`)."""
    data = _read(text)
    version = _version(data)
    for name in data:
        if name not in _FIELDS[version]:
            raise _fail("the field '{name}' is not part of a saved game", name=cut(name))
    for name in _REQUIRED[version]:
        if name not in data:
            raise _fail("the field '{name}' is missing", name=name)
    players = _whole(data, "players", 3, 5)
    _names(data["names"], players)
    _whole(data, "seed")
    if data.get("turn_limit") is not None:  # null: a game of people, whose rounds have no
        _whole(data, "turn_limit", 1, MAX_TURN_LIMIT)  # turn limit (a version 1 file: none)
    rules = _rules(data["rules"])
    moves = _moves(data)
    game = _set_up(data, rules, new, from_position)
    for number, move in enumerate(moves, start=1):
        try:
            game.apply(move)
        except ToonervilleError as err:
            raise _fail("move {k} ({move}) cannot be replayed: {why}", k=number,
                        move=excerpt(move), why=_Short(err)) from None
    _agrees(data, game)
    return game


# -- reading the text -------------------------------------------------------------------
def _fail(template: str, **params: Any) -> SaveFileError:
    return SaveFileError(msg("cannot load this saved game: " + template, None, **params))


class _Short:
    """An engine's reason inside a sentence of this module: rendered when shown (in the
    language of that moment), and cut short."""

    def __init__(self, err: ToonervilleError) -> None:
        self.err = err

    def __str__(self) -> str:
        return cut(str(self.err), _WHY)


# A string (its closing quote, or the end of the text when it has none), or a bracket.
# Possessive, and a string never left unmatched: each character is read once, so a text of
# a quote and thousands of escaped quotes costs its length, not its square.
_TOKEN = re.compile(r'"(?:[^"\\]++|\\.)*+(?:"|.*+)|[\[\]{}]', re.DOTALL)
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def json_depth(text: str) -> int:
    """How deeply the lists and objects of a JSON text nest (strings skipped), found
    without parsing it, so a file nested a thousand deep is refused before the parser
    could run out of stack. One pass over the text: its time grows with its length.
    (The store checks its JSON columns with it too.)"""
    depth = deepest = 0
    step = _STEP.get
    for token in _TOKEN.findall(text):
        depth += step(token, 0)
        if depth > deepest:
            deepest = depth
    return deepest


_depth = json_depth


def _number(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise _fail("it holds a number of {n} digits, longer than any number of a saved game",
                    n=len(digits.lstrip("-")))
    return int(digits)


def _constant(name: str) -> Any:
    raise _fail("it holds {value}, which is not a number a saved game can hold", value=name)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise _fail("the field '{name}' appears twice", name=cut(key))
        data[key] = value
    return data


def _read(text: object) -> dict[str, Any]:
    """The JSON object of a save, refused before parsing if it is too large or too deep."""
    if isinstance(text, bytes | bytearray):
        if len(text) > MAX_SIZE:
            raise _fail("the file holds {n} characters, more than the {limit} a saved game "
                        "may have", n=len(text), limit=MAX_SIZE)
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as err:
            raise _fail("it is not text ({why})", why=cut(str(err), _WHY)) from None
    if not isinstance(text, str):
        raise _fail("it is not text ({why})", why=excerpt(text))
    if len(text) > MAX_SIZE:
        raise _fail("the file holds {n} characters, more than the {limit} a saved game may "
                    "have", n=len(text), limit=MAX_SIZE)
    if json_depth(text) > MAX_DEPTH:
        raise _fail("its lists and objects nest more than {limit} deep, deeper than any "
                    "saved game", limit=MAX_DEPTH)
    try:
        data = json.loads(text, parse_int=_number, parse_constant=_constant,
                          object_pairs_hook=_object)
    except json.JSONDecodeError as err:
        if err.msg.startswith("Unterminated string"):
            raise _fail("the text in quotes that starts at line {line}, column {col} never "
                        "ends (its closing quote is missing); the file may be cut short or "
                        "edited", line=err.lineno, col=err.colno) from None
        raise _fail("it is not complete JSON ({why} at line {line}, column {col}); the file "
                    "may be cut short or edited", why=err.msg.removesuffix(" at"),
                    line=err.lineno, col=err.colno) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _fail("it is not a Toonerville Rook saved game (no \"format\": \"{f}\")",
                    f=FORMAT)
    return data


def _version(data: dict[str, Any]) -> int:
    version = _whole(data, "version", 1)
    if version > VERSION:
        raise _fail("it was saved by a newer version of the kit (format {v}; this one reads "
                    "{mine})", v=version, mine=VERSION)
    return version


# -- the fields ---------------------------------------------------------------------------
def _whole(data: dict[str, Any], name: str, low: int | None = None,
           high: int | None = None, where: str = "") -> int:
    """A field that must be a whole number (from `low`, to `high`)."""
    if name not in data:
        raise _fail("the field '{name}' is missing", name=where + name)
    value = data[name]
    if type(value) is not int:
        raise _fail("the field '{name}' should be a whole number, not {value}",
                    name=where + name, value=excerpt(value))
    if high is not None and low is not None and not low <= value <= high:
        raise _fail("the field '{name}' should be a whole number from {low} to {high}, "
                    "not {value}", name=where + name, low=low, high=high, value=value)
    if low is not None and value < low:
        raise _fail("the field '{name}' should be a whole number {low} or more, not {value}",
                    name=where + name, low=low, value=value)
    return value


def _typed(data: dict[str, Any], name: str, kind: type, where: str = "") -> Any:
    """A field that must be text, a list or an object."""
    if name not in data:
        raise _fail("the field '{name}' is missing", name=where + name)
    value = data[name]
    if isinstance(value, kind):
        return value
    field = where + name
    if kind is str:
        raise _fail("the field '{name}' should be text, not {value}", name=field,
                    value=excerpt(value))
    if kind is list:
        raise _fail("the field '{name}' should be a list, not {value}", name=field,
                    value=excerpt(value))
    raise _fail("the field '{name}' should be an object, not {value}", name=field,
                value=excerpt(value))


def _names(names: object, players: int) -> None:
    """One name per player, each a text of 1 to `MAX_NAME` characters. Two players may
    have the same name (the seat tells them apart), as at a real table."""
    if not isinstance(names, list):
        raise _fail("the field '{name}' should be a list, not {value}", name="names",
                    value=excerpt(names))
    if len(names) != players:
        raise _fail("the field 'names' should list {n} names, one per player, not {k}",
                    n=players, k=len(names))
    for seat, name in enumerate(names):
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            raise _fail("name {k} in the field 'names' should be a text of 1 to {limit} "
                        "characters, not {value}", k=seat, limit=MAX_NAME,
                        value=excerpt(name))


def _rules(data: object) -> Rules:
    """The house rules; a value of the wrong kind is refused here, before `Rules` would
    quote it whole."""
    if not isinstance(data, dict):
        raise _fail("the field '{name}' should be an object, not {value}", name="rules",
                    value=excerpt(data))
    known = Rules.__dataclass_fields__
    for name, value in data.items():
        if name not in known:
            raise _fail("the field 'rules' names an unknown house rule, {name}",
                        name=excerpt(name))
        if not (value is None or isinstance(value, bool | int)
                or isinstance(value, str) and len(value) <= 20):
            raise _fail("the house rule '{name}' should be true, false, a number or a short "
                        "word, not {value}", name=name, value=excerpt(value))
    try:
        return Rules.from_dict(data)
    except ToonervilleError as err:
        raise _fail("the field 'rules' is not playable: {why}", why=_Short(err)) from None


def _moves(data: dict[str, Any]) -> list[str]:
    moves: list[str] = _typed(data, "moves", list)
    for number, move in enumerate(moves, start=1):
        if not isinstance(move, str):
            raise _fail("move {k} should be a line of move notation, not {value}", k=number,
                        value=excerpt(move))
    if "move_count" in data:
        count = _whole(data, "move_count", 0)
        if count != len(moves):
            raise _fail("the field 'move_count' says {n} moves, but the file lists {k}: moves "
                        "were lost or added", n=count, k=len(moves))
    return moves


def _position(data: dict[str, Any], players: int) -> dict[str, Any]:
    """The starting position's fields, each of the kind `Game.from_position` takes."""
    pos = _typed(data, "position", dict)
    where = "position."
    for name in pos:
        if name not in _POSITION:
            raise _fail("the field '{name}' is not part of a saved game",
                        name=where + cut(name))
    hands = _typed(pos, "hands", list, where)
    if len(hands) != players:
        raise _fail("the field '{name}' should have {n} entries, one per player, not {k}",
                    name="position.hands", n=players, k=len(hands))
    for hand in hands:
        if not isinstance(hand, str):
            raise _fail("the field '{name}' should be text, not {value}",
                        name="position.hands", value=excerpt(hand))
    _typed(pos, "stock", str, where)
    _typed(pos, "discard_pile", str, where)
    rnd = _whole(pos, "round_number", 1, ROUNDS, where)
    _whole(pos, "dealer", 0, players - 1, where)
    if pos.get("current") is not None:
        _whole(pos, "current", 0, players - 1, where)
    table = _typed(pos, "table", dict, where) if "table" in pos else {}
    seats = {str(seat): seat for seat in range(players)}
    for key, melds in table.items():
        if key not in seats:
            raise _fail("the field '{name}' has {value} where a seat from 0 to {last} "
                        "belongs", name="position.table", value=excerpt(key),
                        last=players - 1)
        if not isinstance(melds, list) or not all(isinstance(m, str) for m in melds):
            raise _fail("the field '{name}' should be a list of melds in notation, not "
                        "{value}", name=f"position.table.{key}", value=excerpt(melds))
    for seat, hand in enumerate(hands):
        if not hand.strip() and not table.get(str(seat)):
            # T16: such a player could neither keep a card after drawing nor go out, and
            # the game could not go on (a teaching position may show that; a save may not)
            raise _fail("the field '{name}' gives seat {seat} no card, but a player who "
                        "has not laid down always holds cards", name="position.hands",
                        seat=seat)
    scores = _typed(pos, "scores", list, where) if "scores" in pos else []
    if len(scores) != rnd - 1 or not all(
            isinstance(row, list) and len(row) == players
            and all(type(x) is int for x in row) for row in scores):
        raise _fail("the field '{name}' should hold {k} rows of {n} whole numbers, one row "
                    "per round played", name="position.scores", k=rnd - 1, n=players)
    return {"hands": hands, "stock": pos["stock"], "discard_pile": pos["discard_pile"],
            "table": {seats[k]: v for k, v in table.items()}, "round_number": rnd,
            "dealer": pos["dealer"], "current": pos.get("current"), "scores": scores}


def _set_up(data: dict[str, Any], rules: Rules, new: Callable[..., G],
            from_position: Callable[..., G]) -> G:
    """The game as it stood before the first move."""
    players, names, seed = data["players"], data["names"], data["seed"]
    turn_limit = data.get("turn_limit")
    make: Callable[[], G]
    if "position" in data:
        if "deck" in data:
            raise _fail("the fields 'deck' and 'position' cannot both say how the game "
                        "began")
        position = _position(data, players)
        make = lambda: from_position(  # noqa: E731
            **position, rules=rules, seed=seed, names=names, turn_limit=turn_limit)
    else:
        deck = _typed(data, "deck", str) if data.get("deck") is not None else None
        make = lambda: new(  # noqa: E731
            players=players, seed=seed, rules=rules, names=names, deck=deck,
            turn_limit=turn_limit)
    try:
        return make()
    except ToonervilleError as err:
        raise _fail("its set-up is not playable: {why}", why=_Short(err)) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        # a safety net only: every field was checked above; reaching it is a bug (and the
        # sentence names no exception: it may be shown on a page)
        raise _fail("its set-up is damaged") from None


def _agrees(data: dict[str, Any], game: SavedGame) -> None:
    """Every field beside the start and the moves says what the replayed game says."""
    facts = _facts(game)
    for name, expected in facts.items():
        if name not in data:
            continue
        stated = data[name]
        if name == "rules":
            stated = Rules.from_dict(stated).changes()
        if json.dumps(stated) != json.dumps(expected):
            raise _fail("the field '{name}' says {stated}, but the replayed game has "
                        "{actual}", name=name, stated=excerpt(data[name]),
                        actual=excerpt(expected))
