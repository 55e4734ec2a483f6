"""Bot levels: the registry, their sentences in every language, the beginner bot's
seeded slips, and comparing levels in the explorer and its command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toonerville.coach.levels import LEVEL_NAMES, LEVELS, BeginnerBot, describe_level
from toonerville.coach.strong import StrongBot
from toonerville.engine import actions as A
from toonerville.engine.errors import RulesError
from toonerville.engine.messages import LANGUAGES, set_language
from toonerville.explorer.arms import compare_level_arms
from toonerville.players.bots import BOT_KINDS, BOT_LEVELS, HeuristicBot, make_bot
from toonerville.players.simulate import play_game


def test_levels_are_in_the_registry_and_old_names_still_work() -> None:
    assert BOT_LEVELS == ("beginner", "heuristic", "strong") == tuple(LEVELS)
    assert set(BOT_LEVELS) <= set(BOT_KINDS)
    assert {"heuristic", "random", "nobuy"} <= set(BOT_KINDS)
    assert isinstance(make_bot("beginner"), BeginnerBot)
    assert isinstance(make_bot("strong"), StrongBot)
    assert type(make_bot("heuristic")) is HeuristicBot


def test_every_level_is_described_in_every_language() -> None:
    try:
        for code in LANGUAGES:
            set_language(code)
            for kind in BOT_LEVELS:
                text = describe_level(kind).text
                assert text.endswith((".", "।")) and len(text) > 20
                if code != "en":
                    set_language("en")
                    english = describe_level(kind).text
                    set_language(code)
                    assert text != english, (code, kind)
        set_language("de")
        assert str(describe_level("strong")).startswith("Wägt")
    finally:
        set_language("en")
    assert set(LEVEL_NAMES) == set(BOT_LEVELS)
    with pytest.raises(RulesError, match="unknown bot 'clever'"):
        describe_level("clever")


def test_beginner_slips_are_seeded_and_legal() -> None:
    one = play_game(["beginner", "heuristic", "heuristic"], seed=3, turn_limit=40)
    two = play_game(["beginner", "heuristic", "heuristic"], seed=3, turn_limit=40)
    assert one.actions == two.actions  # same seed, same slips
    usual = play_game(["heuristic"] * 3, seed=3, turn_limit=40)
    assert one.actions != usual.actions  # it does slip
    buys = sum(1 for a in one.actions if isinstance(a, A.Buy) and a.seat == 0)
    usual_buys = sum(1 for a in usual.actions if isinstance(a, A.Buy) and a.seat == 0)
    assert buys <= usual_buys + 5


def test_explorer_compares_levels_on_paired_deals() -> None:
    result = compare_level_arms("beginner", "heuristic", 3, seed=1, players=3,
                                turn_limit=15)
    assert [p.seat for p in result.pairs] == [0, 1, 2]  # the seat rotates
    again = compare_level_arms("beginner", "heuristic", 3, seed=1, players=3,
                               turn_limit=15)
    assert again == result
    summary = result.summary()
    diff = summary["b_minus_a"]
    assert diff.n == 3
    assert diff.value == pytest.approx(sum(p.b - p.a for p in result.pairs) / 3)
    assert "points per game" in str(result)
    with pytest.raises(RulesError, match="unknown bot"):
        compare_level_arms("grandmaster", "heuristic", 1)


def test_cli_compares_levels(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from toonerville.__main__ import main

    code = main(["simulate", "--levels", "beginner,heuristic", "--games", "2", "--players",
                 "3", "--turn-limit", "10", "--quiet", "--json",
                 str(tmp_path / "levels.json")])
    assert code == 0
    assert "beginner is worth" in capsys.readouterr().out
    saved = json.loads((tmp_path / "levels.json").read_text())
    assert saved["levels"] == ["beginner", "heuristic"] and len(saved["pairs"]) == 2
    assert main(["simulate", "--levels", "strong", "--quiet"]) == 2
    assert "two bot levels" in capsys.readouterr().err
