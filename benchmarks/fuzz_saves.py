"""Fuzzing the loader and the move checks: nothing a file or a caller sends may break
the engine (issue 8, section 4).

Saves: real saves (seeded games of 3–5 heuristic or random bots, whole or stopped
mid-game, one from a starting position) damaged one way each — a field removed or
given a value of another kind, moves dropped, swapped, edited or made no text, the
text cut, a character changed, nesting a thousand deep, a 4,301-digit seed, a huge
move line … Every load must either succeed or raise `SaveFileError`; anything else is
a bug, shown with an example. A loaded save that holds fewer moves than its source
(a truncated file loaded at an earlier position) is counted apart.

Actions: from positions of seeded heuristic games, moves that are legal, legal ones
with a field changed, ill-typed ones (a bool seat, a str card, None melds, a one-number
meld reference …) and random ones go through `validate` then `Game.apply`. A refusal
must leave `to_json()` unchanged; an accepted move's game must save and load equal;
any other exception is a bug. Ill-typed moves are also put to `Game.refusal` alone,
to show what the game would do without `validate`.

    python benchmarks/fuzz_saves.py [--saves 3000] [--actions 23000] [--seed 8]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from toonerville.engine.actions import (  # noqa: E402
    Action,
    Buy,
    Discard,
    Draw,
    LayDown,
    LayOff,
    Pass,
    SwapRook,
    TakeDiscard,
    validate,
)
from toonerville.engine.cards import NATURALS, ROOK  # noqa: E402
from toonerville.engine.errors import (  # noqa: E402
    IllegalActionError,
    MalformedActionError,
    NoSuchSeatError,
    SaveFileError,
    ToonervilleError,
)
from toonerville.engine.game import Game  # noqa: E402
from toonerville.engine.melds import Meld  # noqa: E402
from toonerville.engine.rules import Rules  # noqa: E402
from toonerville.players.simulate import play_game  # noqa: E402

CARDS = (*NATURALS, ROOK)
MELDS = tuple(Meld.parse(t) for t in ("R3 R4 R5 R6", "Y7 R7 RK", "B9 B9 B9"))
ODD: tuple[Any, ...] = (None, True, False, 0, -1, 7, 1.5, "", "x", "2: draw", [], {}, [1],
                        {"a": 1}, "x" * 5000, 10**30, [None] * 50, ["2: draw"])
#: how the safety net of saves.py words its sentence: reaching it is a bug too
NET = "its set-up is damaged"


# -- the saves ------------------------------------------------------------------------------
def base_saves() -> list[tuple[str, int]]:
    """Real saves and how many moves each holds."""
    games = [play_game(["heuristic"] * n, seed=s) for n, s in ((3, 1), (4, 2), (5, 3))]
    games.append(play_game(["random"] * 4, seed=4, turn_limit=60))
    games.append(play_game(["heuristic"] * 4, seed=5,
                           rules=Rules(extra_melds=True, penalty_cards=2)))
    texts = [(g.to_json(), len(g.actions)) for g in games]
    for g, k in ((games[1], 300), (games[2], 41)):  # stopped mid-game
        short = Game.new(players=g.players, seed=g.seed, names=g.names,
                         turn_limit=g.turn_limit)
        for action in g.actions[:k]:
            short.apply(action)
        texts.append((short.to_json(), k))
    pos = Game.from_position(hands=["R1 R2 R3 R4 Y9", "G3 G4 G5", "Y5 Y6 B2"],
                             stock="B1 B2 B3 R7", discard_pile="R9",
                             table={1: ["Y7 Y8 Y9 RK=Y10"]}, names=["Ann", "Bo", "Cy"])
    pos.draw()
    texts.append((pos.to_json(), len(pos.actions)))
    return texts


def damage(rng: random.Random, text: str) -> tuple[str, str]:
    """One damaged copy of a save and the name of the damage."""
    data = json.loads(text)

    def field_edit(d: dict[str, Any]) -> str:
        holder = d["position"] if "position" in d and rng.random() < 0.3 else d
        name = rng.choice(sorted(holder))
        how = rng.choice(("drop", "odd", "odd"))
        if how == "drop":
            del holder[name]
        else:
            holder[name] = rng.choice(ODD)
        return f"{how} {name}"

    def moves_edit(d: dict[str, Any]) -> str:
        moves = d["moves"]
        if not moves:
            moves.append("0: draw")
            return "add a move"
        i = rng.randrange(len(moves))
        how = rng.choice(("drop last", "drop one", "swap", "twice", "edit", "odd", "long"))
        if how == "drop last":
            del moves[-rng.randint(1, min(5, len(moves))):]
        elif how == "drop one":
            del moves[i]
        elif how == "swap":
            j = rng.randrange(len(moves))
            moves[i], moves[j] = moves[j], moves[i]
        elif how == "twice":
            moves.insert(i, moves[i])
        elif how == "edit":
            line = list(moves[i])
            at = rng.randrange(len(line))
            line[at] = rng.choice("0123456789:./=, RKYGBx\n")
            moves[i] = "".join(line)
        elif how == "odd":
            moves[i] = rng.choice(ODD)
        else:
            moves[i] = moves[i] + " R7" * rng.choice((10, 2000, 30000))
        return f"moves: {how}"

    def names_edit(d: dict[str, Any]) -> str:
        d["names"] = rng.choice(([], [1, 2, 3, 4], ["A"] * d["players"], ["A", "B"], "Ann",
                                 [""] * d["players"], ["x" * 500] * d["players"],
                                 [None] * d["players"]))
        return "names"

    def numbers_edit(d: dict[str, Any]) -> str:
        name = rng.choice(("version", "players", "round", "move_count", "turn_limit", "seed"))
        d[name] = rng.choice((0, -1, 1, 2, 3, 5, 6, 12, 10**6, True, "2", 2.0))
        return f"number {name}"

    def sheet_edit(d: dict[str, Any]) -> str:
        name = rng.choice(("scores", "totals"))
        if d[name] and rng.random() < 0.7:
            row = d[name][rng.randrange(len(d[name]))]
            if isinstance(row, list) and row:
                row[rng.randrange(len(row))] += rng.choice((1, -5, 25))
            else:
                d[name][0] = row + 1 if isinstance(row, int) else 0
        else:
            d[name] = rng.choice(ODD)
        return f"sheet {name}"

    def rules_edit(d: dict[str, Any]) -> str:
        name = rng.choice((*Rules.__dataclass_fields__, "jokers", "x" * 300))
        d["rules"] = {name: rng.choice(ODD + ("shuffle", "at_once", 2, 12))}
        return "rules"

    def extra_edit(d: dict[str, Any]) -> str:
        d[rng.choice(("extra", "comment", "move_count2", "Version"))] = rng.choice(ODD)
        return "extra field"

    def table_edit(d: dict[str, Any]) -> str:
        if "position" not in d:
            d["position"] = rng.choice(ODD)
            return "position added"
        d["position"]["table"] = rng.choice((*ODD, {"9": ["R1 R2 R3 R4"]}, {"0": "R1"},
                                             {"01": []}, {"1": [5]}))
        return "position.table"

    structured: list[Callable[[dict[str, Any]], str]] = [
        field_edit, moves_edit, moves_edit, names_edit, numbers_edit, sheet_edit,
        rules_edit, extra_edit, table_edit]
    kind = rng.random()
    if kind < 0.7:
        what = rng.choice(structured)(data)
        return json.dumps(data, indent=rng.choice((None, 1))), what
    if kind < 0.8:
        return text[: rng.randrange(len(text))], "cut short"
    if kind < 0.9:
        at = rng.randrange(len(text))
        return text[:at] + rng.choice('{}[]",:0\\x ') + text[at + 1:], "a character changed"
    special: list[tuple[str, str]] = [
        ('{"format": "toonerville-rook-game", "moves": ' + "[" * 1000 + "]" * 1000 + "}",
         "nested 1000 deep"),
        (text.replace(f'"seed": {data["seed"]}', '"seed": ' + "9" * 4301), "4301-digit seed"),
        (text.replace('"moves": [', '"moves": ["0: draw' + " " * 10**6 + '", ', 1),
         "a 1 MB move line"),
        (text[:1] + '"format": 1, ' + text[1:], "a field twice"),
        (text.replace('"version": 2', '"version": NaN'), "NaN"),
        (text + " " * rng.choice((10, 300_000)), "padded"),
    ]
    return rng.choice(special)


def fuzz_saves(count: int, rng: random.Random) -> None:
    bases = base_saves()
    outcomes: Counter[str] = Counter()
    bugs: list[str] = []
    slowest = (0.0, "")
    longest = ""
    kinds: Counter[str] = Counter()
    loaded: Counter[str] = Counter()
    for _ in range(count):
        source, moves = rng.choice(bases)
        text, what = damage(rng, source)
        kinds[what] += 1
        start = time.perf_counter()
        try:
            game = Game.from_json(text)
        except SaveFileError as err:
            sentence = str(err)
            outcomes["SaveFileError"] += 1
            if NET in sentence:
                outcomes["bug: safety net reached"] += 1
                bugs.append(f"{what}: {sentence}")
            if len(sentence) > len(longest):
                longest = sentence
            if sentence.count("cannot load this saved game") != 1:
                bugs.append(f"{what}: the sentence repeats itself: {sentence}")
        except Exception as err:  # a bug: any other exception
            outcomes[f"bug: {type(err).__name__}"] += 1
            bugs.append(f"{what}: {type(err).__name__}: {str(err)[:200]}")
        else:
            outcomes["loaded"] += 1
            loaded[what] += 1
            if len(game.actions) < moves:
                outcomes["loaded with fewer moves than its source"] += 1
        took = time.perf_counter() - start
        if took > slowest[0]:
            slowest = (took, what)
    print(f"saves: {count} damaged copies of {len(bases)} real saves")
    print("  damage:", ", ".join(f"{k} {n}" for k, n in kinds.most_common()))
    for name, n in sorted(outcomes.items()):
        print(f"  {name}: {n}")
    print("  loaded, by damage:", ", ".join(f"{k} {n}" for k, n in loaded.most_common()))
    print(f"  slowest load: {slowest[0] * 1000:.1f} ms ({slowest[1]})")
    print(f"  longest message ({len(longest)} characters): {longest}")
    for example in bugs[:5]:
        print("  BUG", example)


# -- the actions ----------------------------------------------------------------------------
def ill_typed(rng: random.Random, action: Action) -> Action:
    """`action` with one field given a value of a wrong type or shape."""
    bad: dict[str, tuple[Any, ...]] = {"seat": (False, True, "0", 1.0, None, -1, 9)}
    if isinstance(action, LayOff | Discard):
        bad["card"] = ("R7", None, 7, (ROOK,))
    if isinstance(action, LayOff):
        bad["onto"] = ((0,), (0, 0, 0), [0, 0], None, (False, 0), (0, -1), ("0", "0"))
        bad["as_card"] = ("R7", ROOK, 8)
    if isinstance(action, LayDown):
        bad["melds"] = (None, (), [MELDS[0]], ("R3 R4 R5 R6",), (None,))
    if isinstance(action, SwapRook):
        bad["natural"] = ("R8", None)
        bad["source"] = ((1,), None, (True, 0))
        bad["lay_off_onto"] = (None, (0,))
        bad["lay_down"] = (MELDS,)
    name = rng.choice(sorted(bad))
    return dataclasses.replace(action, **{name: rng.choice(bad[name])})  # type: ignore


def mutated(rng: random.Random, action: Action, players: int) -> Action:
    """`action` with one field changed to another value of the right type."""
    changes: dict[str, Callable[[], Any]] = {"seat": lambda: rng.randrange(players)}
    ref = lambda: (rng.randrange(players), rng.randrange(4))  # noqa: E731
    if isinstance(action, LayOff | Discard):
        changes["card"] = lambda: rng.choice(CARDS)
    if isinstance(action, LayOff):
        changes["onto"] = ref
        changes["as_card"] = lambda: rng.choice((None, *NATURALS))
    if isinstance(action, SwapRook):
        changes["natural"] = lambda: rng.choice(CARDS)
        changes["source"] = ref
        if action.lay_down is None:
            changes["lay_off_onto"] = ref
    if isinstance(action, LayDown):
        changes["melds"] = lambda: action.melds[1:] or MELDS[:1]
    name = rng.choice(sorted(changes))
    return dataclasses.replace(action, **{name: changes[name]()})  # type: ignore


def random_move(rng: random.Random, players: int) -> Action:
    seat = rng.randrange(players)
    return rng.choice((Draw(seat), TakeDiscard(seat), Buy(seat), Pass(seat),
                       Discard(seat, rng.choice(CARDS)), LayOff(seat, rng.choice(CARDS),
                                                                (rng.randrange(players), 0))))


def fuzz_actions(count: int, rng: random.Random) -> None:
    recorded = [(n, s, play_game(["heuristic"] * n, seed=s).actions)
                for n, s in ((3, 21), (4, 22), (5, 23))]
    outcomes: Counter[str] = Counter()
    unguarded: Counter[str] = Counter()
    bugs: list[str] = []
    done = 0
    while done < count:
        players, seed, moves = rng.choice(recorded)
        game = Game.new(players=players, seed=seed, turn_limit=200,
                        names=[f"heuristic {i}" for i in range(players)])
        for action in moves[: rng.randrange(len(moves))]:
            game.apply(action)
        for _ in range(20):
            legal = game.legal_actions()
            if not legal or done >= count:
                break
            done += 1
            kind = rng.choice(("legal", "mutated", "ill-typed", "random"))
            action = rng.choice(legal)
            if kind == "mutated":
                action = mutated(rng, action, players)
            elif kind == "ill-typed":
                action = ill_typed(rng, action)
            elif kind == "random":
                action = random_move(rng, players)
            before = game.to_json()
            if kind == "ill-typed":
                try:
                    answer = game.refusal(action)
                    unguarded["would accept" if answer is None else "refuses"] += 1
                except Exception as err:
                    unguarded[f"raises {type(err).__name__}"] += 1
            try:
                validate(action, players)
                game.apply(action)
            except (MalformedActionError, NoSuchSeatError):
                outcomes[f"{kind}: refused by validate"] += 1
                if game.to_json() != before:
                    bugs.append(f"validate refusal changed the game: {action!r}")
                continue
            except IllegalActionError:
                outcomes[f"{kind}: refused by the rules"] += 1
                if game.to_json() != before:
                    bugs.append(f"a refusal changed the game: {action!r}")
                continue
            except Exception as err:
                outcomes[f"{kind}: bug {type(err).__name__}"] += 1
                bugs.append(f"{action!r}: {type(err).__name__}: {traceback.format_exc(-1)}")
                break
            outcomes[f"{kind}: accepted"] += 1
            if kind != "legal" or rng.random() < 0.05:
                check_round_trip(game, action, outcomes, bugs)
        check_round_trip(game, None, outcomes, bugs)
    print(f"actions: {count} from positions of {len(recorded)} seeded heuristic games")
    for name, n in sorted(outcomes.items()):
        print(f"  {name}: {n}")
    print("  ill-typed moves put to Game.refusal without validate:",
          ", ".join(f"{k} {n}" for k, n in unguarded.most_common()))
    for example in bugs[:5]:
        print("  BUG", example)


def check_round_trip(game: Game, action: Action | None, outcomes: Counter[str],
                     bugs: list[str]) -> None:
    try:
        loaded = Game.from_json(game.to_json())
    except ToonervilleError as err:
        outcomes["bug: an accepted game does not load"] += 1
        bugs.append(f"after {action!r} the save does not load: {err}")
        return
    same = (loaded.actions == game.actions and loaded.scores == game.scores
            and all(loaded.view(s) == game.view(s) for s in range(game.players)))
    outcomes["round trips checked" if same else "bug: loads as another game"] += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=3000)
    parser.add_argument("--actions", type=int, default=23000)
    parser.add_argument("--seed", type=int, default=8)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    start = time.perf_counter()
    fuzz_saves(args.saves, rng)
    fuzz_actions(args.actions, rng)
    print(f"took {time.perf_counter() - start:.0f} s; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
