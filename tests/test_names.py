"""Players' names (`toonerville.engine.names`): bots are named as at every table ("Crow", "Jay",
…), unique at a table and never a learner's name as the store compares names (NFKC +
case folded), in tournaments (T22), pass-and-play and shared tables alike; the game-over
sentence (T21) names the winners by the names the event carries when shown; and what
the notebooks print is in the learner's language."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from toonerville import Game
from toonerville.engine.errors import ToonervilleError
from toonerville.engine.events import EventKind
from toonerville.engine.names import BIRDS, bot_names, name_key, same_name
from toonerville.engine.tournament import Tournament
from toonerville.players.scenarios import BOT_NAMES, HUMAN_NAME
from toonerville.players.simulate import play_game


def test_bot_names_are_birds_unique_and_never_a_taken_name() -> None:
    assert BIRDS[:4] == BOT_NAMES and HUMAN_NAME not in BIRDS  # 07's names stay
    assert bot_names(3) == ("Crow", "Jay", "Magpie")
    # "crow" and a full-width "ＪＡＹ" are the names Crow and Jay, as the store compares
    assert bot_names(2, ["crow", "ＪＡＹ", "Ann"]) == ("Magpie", "Raven")
    many = bot_names(40, ["Wren 2"])
    assert len(set(map(name_key, many))) == 40 and "Wren 2" not in many
    assert many[len(BIRDS)] == "Crow 2"
    assert same_name(" Ｂo ", "bo") and not same_name("Bo", "Bob")


def test_T22_tournament_bots_have_names_no_learner_has() -> None:
    t = Tournament.new("ABCDEF", ["ann", "CROW", "Jay "], bots=3)
    bots = [n for n in t.names if n in t.bots]
    assert bots == ["Magpie", "Raven", "Wren"]
    assert len({name_key(n) for n in t.names}) == len(t.names)


def test_T21_the_game_over_sentence_names_the_winners_by_the_names_shown_at_the_end() -> None:
    game = play_game(["heuristic"] * 3, seed=5)
    over = game.history[-1]
    assert over.kind is EventKind.GAME_OVER
    seats = over.detail["seats"]
    assert str(over.text.text).endswith(", ".join(game.names[s] for s in seats))
    shown = over._replace(names=("Ann", "Bo (a bot played for Bo at the end)", "Cy"))
    assert str(shown.text.text).endswith(", ".join(shown.names[s] for s in seats))
    assert isinstance(game, Game)


def test_pass_and_play_names_bots_as_birds_and_refuses_names_alike() -> None:
    from toonerville.widgets.passplay import HUMAN, seat_names

    assert seat_names(["Ann", "", "", ""], [HUMAN, "heuristic", HUMAN, "random"]
                      ) == ("Ann", "Crow", "Player 2", "Jay")
    # a learner called "crow" keeps the name; the bot takes the next bird
    assert seat_names(["crow", "", ""], [HUMAN, "heuristic", "heuristic"]
                      ) == ("crow", "Jay", "Magpie")
    with pytest.raises(ToonervilleError, match="two seats have the name"):
        seat_names(["Ann", "ANN", ""], [HUMAN, HUMAN, "heuristic"])


def test_a_shared_table_names_its_bots_as_birds() -> None:
    from toonerville.widgets.classroom import table_names

    assert table_names(4, {2: "heuristic", 3: "random"}) == (
        "Player 0", "Player 1", "Crow", "Jay")


# -- what the notebooks print, in the learner's language (issue 17 §5) ---------------------
@pytest.fixture
def persian() -> Iterator[None]:
    from toonerville.engine import messages

    messages.set_language("fa")
    try:
        yield
    finally:
        messages.set_language("en")


LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def test_T1_T2_T7_the_notebooks_printed_texts_speak_persian(persian: None) -> None:
    from toonerville import Meld, Rules
    from toonerville.engine.cards import shoe_sizes
    from toonerville.explorer import Arm, fresh_deal
    from toonerville.explorer.stats import paired_ci
    from toonerville.explorer.sweeps import house_rules_text, table_text

    texts = [shoe_sizes(), Rules().round_table(), Meld.parse("R5 R6 R7 R8").describe(),
             Meld.parse("Y9 G9 B9").describe(), str(fresh_deal(1, hands=20, seed=3)),
             str(paired_ci([1.0, 5.0, 2.0], [4.0, 1.0, 3.0])),
             house_rules_text(Arm(("heuristic",) * 3)).shown(),
             table_text(Arm(("heuristic", "random", "nobuy"))).shown()]
    assert [t for t in texts if LATIN_WORD.search(t)] == []
