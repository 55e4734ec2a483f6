"""Saving a game as JSON and loading it back.

Owns the save format: the rules that differ from the defaults, the seed (or the fixed
deck, or the starting position), and the moves in action notation, plus the score sheet
so a person can read the file like one. Loading rebuilds the game and replays every
move through the rules, so a corrupted, truncated or hand-edited file is refused with a
`SaveFileError` that says exactly what is wrong — never a half-loaded game.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .errors import SaveFileError, ToonervilleError
from .messages import msg
from .rules import Rules

if TYPE_CHECKING:
    from .game import Game

FORMAT = "toonerville-rook-game"
VERSION = 1


def game_to_json(game: Game, indent: int | None = 1) -> str:
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "players": game.players,
        "names": list(game.names),
        "rules": game.rules.changes(),
        "seed": game.seed,
        "turn_limit": game.turn_limit,
        **game.start,
        "moves": [a.notation() for a in game.actions],
        "round": game.round_number,
        "scores": [list(r) for r in game.scores],
        "totals": list(game.totals),
    }
    return json.dumps(data, indent=indent, ensure_ascii=False)


def _fail(template: str, **params: Any) -> SaveFileError:
    return SaveFileError(msg("cannot load this saved game: " + template, None, **params))


def _field(data: dict[str, Any], name: str, kind: type | tuple[type, ...],
           optional: bool = False) -> Any:
    if name not in data:
        if optional:
            return None
        raise _fail("the field '{name}' is missing", name=name)
    value = data[name]
    if value is None and optional:
        return None
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise _fail("the field '{name}' should be {kind}, not {value!r}", name=name,
                    kind=getattr(kind, "__name__", "of another type"), value=value)
    return value


def game_from_json(text: str | bytes) -> Game:
    """The saved game, replayed and checked; `SaveFileError` says why not."""
    from .game import Game

    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise _fail("it is not complete JSON ({why} at line {line}, column {col}); the file "
                    "may be cut short or edited", why=err.msg, line=err.lineno,
                    col=err.colno) from None
    except (TypeError, UnicodeDecodeError) as err:
        raise _fail("it is not text ({why})", why=str(err)) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _fail("it is not a Toonerville Rook saved game (no \"format\": \"{f}\")",
                    f=FORMAT)
    version = _field(data, "version", int)
    if version > VERSION:
        raise _fail("it was saved by a newer version of the kit (format {v}; this one reads "
                    "{mine})", v=version, mine=VERSION)
    players = _field(data, "players", int)
    names = _field(data, "names", list)
    seed = _field(data, "seed", int)
    turn_limit = _field(data, "turn_limit", int, optional=True)
    moves = _field(data, "moves", list)
    rules_data = _field(data, "rules", dict)
    try:
        rules = Rules.from_dict(rules_data)
        if "position" in data:
            pos = _field(data, "position", dict)
            game = Game.from_position(
                hands=pos["hands"], stock=pos["stock"], discard_pile=pos["discard_pile"],
                table={int(k): v for k, v in pos.get("table", {}).items()},
                round_number=pos["round_number"], dealer=pos["dealer"],
                current=pos["current"], rules=rules, seed=seed, names=names,
                scores=pos.get("scores", []), turn_limit=turn_limit)
        else:
            game = Game.new(players=players, seed=seed, rules=rules, names=names,
                            deck=_field(data, "deck", str, optional=True),
                            turn_limit=turn_limit)
    except ToonervilleError as err:
        raise _fail("its set-up is not playable: {why}", why=str(err)) from None
    except (KeyError, TypeError, ValueError) as err:
        raise _fail("its set-up is damaged ({why})", why=repr(err)) from None
    for number, move in enumerate(moves, start=1):
        if not isinstance(move, str):
            raise _fail("move {k} is not a line of move notation: {move!r}", k=number, move=move)
        try:
            game.apply(move)
        except ToonervilleError as err:
            raise _fail("move {k} ('{move}') is not legal when replayed: {why}", k=number,
                        move=move, why=str(err)) from None
    scores = data.get("scores")
    if scores is not None and scores != [list(r) for r in game.scores]:
        raise _fail("the score sheet in the file does not match the replayed moves; the file "
                    "was edited")
    return game
