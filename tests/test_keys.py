"""The card-game keys' Python half (`toonerville.widgets.keys`): the legend lists every
key the page's key script acts on, in every language, and the prompt of 07 and of a seat
view says what the seat decides next (`tr-next-<step>`), where the script puts the focus.
The keys themselves are tested in Chromium (tests/browser/test_keys.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from toonerville.engine import actions as A
from toonerville.engine.messages import LANGUAGES, set_language
from toonerville.players.scenarios import big_hand_scenario
from toonerville.widgets.keys import KEYS, keys_html, next_step
from toonerville.widgets.play import PlayGame

SCRIPT = (Path(__file__).resolve().parent.parent / "share" / "jupyter" / "voila" / "templates"
          / "toonerville" / "keys.js").read_text(encoding="utf-8")


def test_the_legend_lists_every_letter_the_script_acts_on() -> None:
    letters = re.search(r"var LETTERS = \{(.*?)\};", SCRIPT, re.S)
    assert letters is not None
    acted = set(re.findall(r"\b([a-z]): 'tr-", letters.group(1)))
    listed = {key.lower() for keys, _what in KEYS for key in re.findall(r"\b[A-Z]\b", keys)}
    assert acted == listed == set("dtbpslxhu")


@pytest.fixture
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_legend_and_its_sentences_are_in_every_language(lang: str, english: None) -> None:
    source = keys_html()
    set_language(lang)
    legend = keys_html()
    assert legend.count("<li>") == len(KEYS)
    assert "{button}" in legend and "{prompt}" in legend and "{n}" in legend
    if lang != "en":
        assert legend != source and "draw from the stock" not in legend


def test_next_step_follows_the_turn() -> None:
    game = big_hand_scenario()
    assert next_step(game.view(0), 0) == "draw"
    assert next_step(game.view(1), 1) == "wait"
    assert next_step(game.view(0), None) == "wait"
    assert next_step(game.view(0), 0, finished=True) == "over"
    game.apply(A.Draw(0))  # the discard declined: the others may buy it first (T10)
    deciders = game.view(0).deciders
    assert 0 not in deciders and next_step(game.view(0), 0) == "wait"
    assert {next_step(game.view(s), s) for s in deciders} == {"buy"}


def test_07_marks_the_next_step_and_offers_put_the_focus_on_pass() -> None:
    app = PlayGame(game=big_hand_scenario())
    assert "tr-next-draw" in app.prompt._dom_classes
    app.draw_button.click()
    assert "tr-next-play" in app.prompt._dom_classes
    assert "tr-next-draw" not in app.prompt._dom_classes
