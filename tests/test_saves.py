"""Saving and loading games: round trips, and clear refusals of damaged files."""

from __future__ import annotations

import json

import pytest

from toonerville import Rules, SaveFileError
from toonerville.game import Game
from toonerville.simulate import play_game
from toonerville.views import Phase


def played(seed: int = 3, moves: int = 40, **kw) -> Game:
    """A game with some moves made by always drawing and discarding the first card."""
    game = Game.new(players=4, seed=seed, **kw)
    for _ in range(moves):
        if game.phase is Phase.BUY:
            game.pass_buy(game.deciders[0])
        elif game.phase is Phase.DRAW:
            game.draw()
        else:
            game.discard(game.hand(game.current)[0])
    return game


def same(a: Game, b: Game) -> bool:
    return (a.scores == b.scores and a.phase == b.phase and a.current == b.current
            and all(a.view(s) == b.view(s) for s in range(a.players))
            and a.all_cards() == b.all_cards()
            and [e.text for e in a.history] == [e.text for e in b.history])


def test_save_and_load_mid_round() -> None:
    game = played(moves=37)
    loaded = Game.from_json(game.to_json())
    assert same(game, loaded)
    # and the loaded game plays on identically
    for g in (game, loaded):
        if g.phase is Phase.BUY:
            g.pass_buy(g.deciders[0])
    assert same(game, loaded)


def test_save_reads_like_a_score_sheet() -> None:
    game = play_game(["heuristic"] * 3, seed=8)
    data = json.loads(game.to_json())
    assert data["format"] == "toonerville-rook-game"
    first_player = (game.records[0].dealer + 1) % 3
    assert data["moves"][0].startswith(f"{first_player}: ")
    assert data["scores"] == [list(r) for r in game.scores] and len(data["scores"]) == 11
    assert data["totals"] == list(game.totals)
    assert same(Game.from_json(game.to_json()), game)


def test_save_keeps_house_rules_names_and_position() -> None:
    rules = Rules(penalty_cards=2, restock="turn_over")
    game = played(rules=rules, names=["Ann", "Bo", "Cy", "Di"], moves=20)
    loaded = Game.from_json(game.to_json())
    assert loaded.rules == rules and loaded.names == ("Ann", "Bo", "Cy", "Di")
    pos = Game.from_position(hands=["R1 R2", "G3 G4", "Y5 Y6"], stock="B1 B2 B3",
                             discard_pile="R9", table={1: ["Y7 Y8 Y9 RK=Y10"]})
    pos.draw()  # seat 1 declines R9; seats 2 and 0 answer
    pos.pass_buy(2)
    pos.buy(0)
    assert same(Game.from_json(pos.to_json()), pos)


@pytest.mark.parametrize(("damage", "words"), [
    (lambda t: t[: len(t) // 2], "not complete JSON"),
    (lambda t: "", "not complete JSON"),
    (lambda t: "[1, 2, 3]", "not a Toonerville Rook saved game"),
    (lambda t: t.replace('"players": 4', '"players": "four"'), "'players'"),
    (lambda t: t.replace('"players": 4', '"players": 9'), "3 to 5 players"),
    (lambda t: t.replace('"version": 1', '"version": 7'), "newer version"),
    (lambda t: t.replace('"rules": {}', '"rules": {"penalty_cards": 9}'), "penalty_cards"),
    (lambda t: t.replace('"rules": {}', '"rules": {"jokers": true}'), "unknown house rule"),
    (lambda t: t.replace('discard', 'dicsard', 1), "move"),
    (lambda t: t.replace('"scores": []', '"scores": [[0, 0, 0, 1]]'), "score sheet"),
])
def test_damaged_saves_are_refused_with_a_reason(damage, words: str) -> None:
    text = played(moves=60).to_json()
    broken = damage(text)
    assert broken != text
    with pytest.raises(SaveFileError) as info:
        Game.from_json(broken)
    assert words in str(info.value), str(info.value)
    assert "cannot load this saved game" in str(info.value)


def test_an_edited_move_is_named_by_number() -> None:
    game = played(moves=10)
    data = json.loads(game.to_json())
    data["moves"][4] = data["moves"][4].split(":")[0] + ": discard RK"
    with pytest.raises(SaveFileError) as info:
        Game.from_json(json.dumps(data))
    assert "move 5" in str(info.value)
