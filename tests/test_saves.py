"""Saving and loading games: round trips, old files, and one short sentence refusing
every damaged file (issue 8, sections 3 and 4)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from toonerville import Rules, SaveFileError
from toonerville.engine.events import Phase
from toonerville.engine.game import Game
from toonerville.engine.rules import MAX_TURN_LIMIT
from toonerville.engine.saves import MAX_DEPTH, MAX_NAME, MAX_SIZE, VERSION, _depth, game_from_json
from toonerville.players.simulate import play_game


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


def save(game: Game | None = None) -> dict[str, Any]:
    return json.loads((game or played(moves=60)).to_json())


def refusal(text: str | bytes) -> str:
    """The sentence refusing a file, checked to be one short sentence."""
    with pytest.raises(SaveFileError) as info:
        Game.from_json(text)  # type: ignore[arg-type]
    sentence = str(info.value)
    assert sentence.count("cannot load this saved game") == 1, sentence
    assert len(sentence) <= 300, sentence
    return sentence


def edited(change: Callable[[dict[str, Any]], object], game: Game | None = None) -> str:
    data = save(game)
    change(data)
    return json.dumps(data)


def test_a_save_says_its_version_and_how_many_moves_it_holds() -> None:
    game = played(moves=60)
    data = save(game)
    assert data["version"] == VERSION == 2
    assert data["move_count"] == len(data["moves"]) == len(game.actions) == 60


def test_a_version_1_save_without_a_move_count_still_loads() -> None:
    game = played(moves=45)
    data = save(game)
    data["version"] = 1
    del data["move_count"]
    assert same(Game.from_json(json.dumps(data)), game)
    for name in ("turn_limit", "round", "scores", "totals"):  # a v1 file could lack them
        del data[name]
    assert same(Game.from_json(json.dumps(data)), game)


def test_a_version_2_save_must_have_every_field_it_is_replayed_from() -> None:
    for name in ("move_count", "turn_limit", "names", "seed", "rules", "players", "moves"):
        assert f"'{name}' is missing" in refusal(edited(lambda d, n=name: d.pop(n)))


def test_the_score_sheet_of_a_save_is_for_people_and_may_be_left_out() -> None:
    game = played(moves=45)
    data = save(game)
    for name in ("round", "scores", "totals"):
        del data[name]
    assert same(Game.from_json(json.dumps(data)), game)


def test_dropped_moves_are_refused_not_loaded_at_an_earlier_position() -> None:
    sentence = refusal(edited(lambda d: d.update(moves=d["moves"][:-3])))
    assert "'move_count' says 60 moves, but the file lists 57" in sentence


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d.update(round=2), "'round' says 2, but the replayed game has 1"),
    (lambda d: d.update(scores=[[0, 0, 0, 1]]), "'scores' says [[0, 0, 0, 1]]"),
    (lambda d: d.update(totals=[0, 0, 0, 5]), "'totals' says [0, 0, 0, 5]"),
    (lambda d: d.update(totals=[0, 0, 0]), "'totals'"),
    (lambda d: d.update(scores=None), "'scores' says None"),
])
def test_every_field_beside_the_moves_is_checked_against_the_replay(change, words) -> None:
    assert words in refusal(edited(change))


def test_a_finished_games_score_sheet_is_checked_row_by_row() -> None:
    game = play_game(["heuristic"] * 3, seed=4)

    def change(data: dict[str, Any]) -> None:
        data["scores"][5][1] += 5
        data["totals"][1] += 5

    assert "'scores' says" in refusal(edited(change, game))


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d.update(version=0), "'version' should be a whole number 1 or more, not 0"),
    (lambda d: d.update(version=True), "'version' should be a whole number, not True"),
    (lambda d: d.update(version="2"), "'version' should be a whole number, not '2'"),
    (lambda d: d.update(version=7), "newer version of the kit (format 7"),
    (lambda d: d.update(players="four"), "'players' should be a whole number, not 'four'"),
    (lambda d: d.update(players=9), "'players' should be a whole number from 3 to 5, not 9"),
    (lambda d: d.update(seed=1.5), "'seed' should be a whole number, not 1.5"),
    (lambda d: d.update(seed=False), "'seed' should be a whole number, not False"),
    (lambda d: d.update(turn_limit=0), "'turn_limit' should be a whole number from 1 to "
                                       f"{MAX_TURN_LIMIT}, not 0"),
    (lambda d: d.update(move_count=-1), "'move_count' should be a whole number 0 or more"),
    (lambda d: d.update(moves="2: draw"), "'moves' should be a list, not '2: draw'"),
    (lambda d: d["moves"].__setitem__(3, 17), "move 4 should be a line of move notation"),
    (lambda d: d.update(names=[]), "'names' should list 4 names, one per player, not 0"),
    (lambda d: d.update(names=["A", "B", "C"]), "should list 4 names"),
    (lambda d: d.update(names="Ann"), "'names' should be a list, not 'Ann'"),
    (lambda d: d.update(names=[1, 2, 3, 4]), "name 0 in the field 'names'"),
    (lambda d: d.update(names=["A", None, "C", "D"]), "name 1 in the field 'names'"),
    (lambda d: d.update(names=["A", "B", " ", "D"]), "name 2 in the field 'names'"),
    (lambda d: d.update(names=["A", "B", "C", "x" * (MAX_NAME + 1)]), "name 3"),
    (lambda d: d.update(rules=[]), "'rules' should be an object, not []"),
    (lambda d: d["rules"].update(penalty_cards=9), "penalty_cards must be 0, 1, 2 or 3"),
    (lambda d: d["rules"].update(jokers=True), "unknown house rule, 'jokers'"),
    (lambda d: d["rules"].update(restock="x" * 500), "the house rule 'restock' should be"),
    (lambda d: d["rules"].update(restock="sideways"), "restock must be one of"),
    (lambda d: d.update(extra=1), "the field 'extra' is not part of a saved game"),
    (lambda d: d.update(deck=5), "'deck' should be text, not 5"),
    (lambda d: d.update(deck="R1 R2"), "its set-up is not playable: a deck for 4 players"),
    (lambda d: d["moves"].__setitem__(0, "2: dicsard R7"), "move 1 ('2: dicsard R7') cannot"),
    (lambda d: d["moves"].__setitem__(4, "2: discard RK"), "move 5 ('2: discard RK')"),
    (lambda d: d["moves"].__setitem__(4, "2: discard " + "R" * 3000), "move 5 ('2: discard"),
])
def test_damaged_fields_are_refused_naming_the_field(change, words: str) -> None:
    sentence = refusal(edited(change))
    assert words in sentence, sentence


def test_two_players_may_share_a_name() -> None:
    game = played(moves=20, names=["Ann", "Ann", "Bo", "Cy"])
    assert Game.from_json(game.to_json()).names == ("Ann", "Ann", "Bo", "Cy")


def test_a_long_move_line_is_refused_by_its_length_and_never_quoted_whole() -> None:
    line = "2: discard R7" + " " * 50_000
    sentence = refusal(edited(lambda d: d["moves"].__setitem__(4, line)))
    assert "move 5 ('2: discard R7') cannot be replayed" in sentence
    assert "this move line has 50013 characters; no move needs more than 4000" in sentence


@pytest.mark.parametrize(("text", "words"), [
    ("", "not complete JSON"),
    ("[1, 2, 3]", "not a Toonerville Rook saved game"),
    ('{"format": "toonerville-rook-game", "version": 2', "not complete JSON"),
    ("[" * 1000 + "]" * 1000, f"nest more than {MAX_DEPTH} deep"),
    ('{"format": "toonerville-rook-game", "moves": ' + "[" * 1000 + "]" * 1000 + "}",
     "nest more than"),
    ('{"format": "toonerville-rook-game", "version": 2, "seed": ' + "9" * 4301 + "}",
     "a number of 4301 digits"),
    ('{"format": "toonerville-rook-game", "version": NaN}', "it holds NaN"),
    ('{"format": "toonerville-rook-game", "version": 2, "version": 1}',
     "the field 'version' appears twice"),
    (b"\xff\xfe{}", "it is not text"),
    (" " * (MAX_SIZE + 1), f"more than the {MAX_SIZE} a saved game may have"),
])
def test_texts_that_are_no_save_are_refused(text: str | bytes, words: str) -> None:
    assert words in refusal(text)


def crafted(size: int) -> str:
    """A quote and then escaped quotes, `size` characters: one text in quotes that never
    ends (issue 18: the nesting check once read it in time growing with its square)."""
    return '"' + '\\"' * ((size - 1) // 2)


def test_a_crafted_save_of_a_quote_and_escaped_quotes_is_refused_saying_why() -> None:
    text = crafted(MAX_SIZE - 1)
    assert len(text) <= MAX_SIZE
    for sent in (text, text.encode()):
        sentence = refusal(sent)
        assert sentence == ("cannot load this saved game: the text in quotes that starts at "
                            "line 1, column 1 never ends (its closing quote is missing); the "
                            "file may be cut short or edited")
    nested = "[" * 3 + crafted(MAX_SIZE // 2)
    assert "the text in quotes that starts at line 1, column 4 never ends" in refusal(nested)


def test_the_nesting_check_reads_each_character_once() -> None:
    """No timing: 16 MiB of the crafted text, which the quadratic check of the past would
    have read for days (463 s at 256 KiB), and texts in quotes are still skipped."""
    assert _depth(crafted(16 * 1024 * 1024)) == 0
    assert _depth("[" * 5 + crafted(16 * 1024 * 1024)) == 5
    assert _depth('[{"a": "]]]\\"[[[{", "b": [1, "\\\\"]}]') == 3
    assert _depth('"abc\\') == 0 and _depth('[[]"[[[[') == 2


@pytest.mark.parametrize("value", [None, 5, ["{}"]])
def test_a_value_that_is_not_text_is_refused(value: object) -> None:
    assert "it is not text" in refusal(value)  # type: ignore[arg-type]


def test_a_save_read_as_bytes_loads_with_or_without_a_byte_order_mark() -> None:
    game = played(moves=30)
    data = game.to_json().encode()
    assert same(Game.from_json(data), game)  # type: ignore[arg-type]
    assert same(Game.from_json(b"\xef\xbb\xbf" + data), game)  # type: ignore[arg-type]


def test_the_size_limit_is_far_above_a_long_real_game() -> None:
    names = ["A player whose name is long, long, long, very long " + str(i) for i in range(5)]
    game = play_game(["heuristic"] * 5, seed=2)
    data = save(game)
    data["names"] = names
    text = json.dumps(data, indent=1)
    assert len(text) * 4 < MAX_SIZE
    assert Game.from_json(text).names == tuple(names)


# -- a starting position --------------------------------------------------------------
def position_game() -> Game:
    game = Game.from_position(hands=["R1 R2", "G3 G4", "Y5 Y6"], stock="B1 B2 B3",
                              discard_pile="R9", table={1: ["Y7 Y8 Y9 RK=Y10"]})
    game.draw()
    return game


def test_a_position_save_round_trips() -> None:
    game = position_game()
    assert same(Game.from_json(game.to_json()), game)


@pytest.mark.parametrize(("change", "words"), [
    (lambda p: p.update(table=["Y7 Y8 Y9 RK=Y10"]), "'position.table' should be an object"),
    (lambda p: p.update(table="Y7"), "'position.table' should be an object, not 'Y7'"),
    (lambda p: p.update(table={"7": ["Y7 Y8 Y9 RK=Y10"]}), "has '7' where a seat from 0 to 2"),
    (lambda p: p.update(table={"1": "Y7 Y8 Y9"}), "'position.table.1' should be a list"),
    (lambda p: p.update(hands=["R1 R2", "G3 G4"]), "'position.hands' should have 3 entries"),
    (lambda p: p.update(hands=["R1 R2", 5, "Y5 Y6"]), "'position.hands' should be text"),
    (lambda p: p.update(stock=None), "'position.stock' should be text, not None"),
    (lambda p: p.pop("discard_pile"), "'position.discard_pile' is missing"),
    (lambda p: p.update(round_number=12), "'position.round_number' should be a whole number "
                                          "from 1 to 11, not 12"),
    (lambda p: p.update(dealer=3), "'position.dealer' should be a whole number from 0 to 2"),
    (lambda p: p.update(current="1"), "'position.current' should be a whole number"),
    (lambda p: p.update(scores=[[1, 2, 3]]), "'position.scores' should hold 0 rows"),
    (lambda p: p.update(extra=[]), "'position.extra' is not part of a saved game"),
    (lambda p: p.update(hands=["R1 R1 R1 R1", "G3 G4", "Y5 Y6"]), "its set-up is not playable"),
    (lambda p: p.update(hands=["R1 Q2", "G3 G4", "Y5 Y6"]), "'Q2' is not a card"),
    # a seat not down with no card could neither keep one after drawing nor go out (T16)
    (lambda p: p.update(hands=["R1 R2", "G3 G4", " "]), "'position.hands' gives seat 2 no "
                                                         "card"),
])
def test_a_damaged_position_is_refused_naming_the_field(change, words: str) -> None:
    sentence = refusal(edited(lambda d: change(d["position"]), position_game()))
    assert words in sentence, sentence


def test_T16_a_seat_that_is_down_may_hold_no_card_in_a_saved_position() -> None:
    game = Game.from_position(hands=["R1 R2", "", "Y5 Y6"], stock="B1 B2 B3",
                              discard_pile="R9", table={1: ["Y7 Y8 Y9 RK=Y10"]}, dealer=2)
    assert same(Game.from_json(game.to_json()), game)


def test_a_position_needs_an_object_and_no_deck_beside_it() -> None:
    assert "'position' should be an object, not 3" in refusal(
        edited(lambda d: d.update(position=3), position_game()))
    assert "'deck' and 'position' cannot both" in refusal(
        edited(lambda d: d.update(deck="R1"), position_game()))


# -- the limits the engine relies on (issue 27) ------------------------------------------
@pytest.mark.parametrize("limit", [MAX_TURN_LIMIT + 1, 10**30])
def test_a_turn_limit_beyond_any_game_is_refused(limit: int) -> None:
    sentence = refusal(edited(lambda d: d.update(turn_limit=limit)))
    assert f"'turn_limit' should be a whole number from 1 to {MAX_TURN_LIMIT}" in sentence


def test_the_largest_turn_limit_loads_and_none_is_a_game_of_people() -> None:
    for limit in (MAX_TURN_LIMIT, None):
        game = played(moves=12, turn_limit=limit)
        assert Game.from_json(game.to_json()).turn_limit == limit


def test_a_version_2_save_must_say_its_turn_limit() -> None:
    assert "'turn_limit' is missing" in refusal(edited(lambda d: d.pop("turn_limit")))


def test_the_set_up_safety_net_names_no_exception() -> None:
    """What a page shows of a refused save never holds an exception's type name."""
    def broken(**_: object) -> Game:
        raise TypeError("a bug")

    with pytest.raises(SaveFileError) as info:
        game_from_json(played(moves=4).to_json(), broken, broken)
    assert "its set-up is damaged" in str(info.value)
    assert "Error" not in str(info.value) and "a bug" not in str(info.value)
