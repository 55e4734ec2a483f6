"""The rules explorer of notebook 08 speaks the language chosen: its labels, choices,
status line, plot and tables are redrawn when the language changes, through the kit's
catalogue. A fake catalogue that upper-cases every text it is asked for shows which
texts went through the translation and which did not."""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterator
from typing import Any

import pytest

from toonerville import explorer as X
from toonerville.engine import messages
from toonerville.explorer.tables import Text

widgets = pytest.importorskip("ipywidgets")


def _shout(text: str) -> str:
    """`text` upper-cased outside its `{placeholders}`, so it still formats."""
    return "".join(part if part.startswith("{") else part.upper()
                   for part in re.split(r"(\{[^}]*\})", text))


class Shouting(gettext.NullTranslations):
    """A catalogue that translates every text: into capitals."""

    def gettext(self, message: str) -> str:
        return _shout(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return _shout(msgid1 if n == 1 else msgid2)


@pytest.fixture
def shouting(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """`set_language(...)` installs the shouting catalogue instead of a real one (and
    English stays English)."""
    real = messages.set_translation

    def install(translation: gettext.NullTranslations | None) -> None:
        english = translation is None or type(translation) is gettext.NullTranslations
        real(translation if english else Shouting())

    monkeypatch.setattr(messages, "set_translation", install)
    yield
    monkeypatch.setattr(messages, "set_translation", real)
    messages.set_language("en")
    widgets.Widget.close_all()


def _labels(dropdown: Any) -> list[str]:
    return list(dropdown._options_labels)


def test_choosing_a_language_relabels_the_explorer_and_its_results(shouting: None) -> None:
    from toonerville.widgets.explorer import RulesExplorer

    w = RulesExplorer(games=2, seed=1, turn_limit=6, background=False)
    w.run_button.click()
    assert w.status.value.startswith("Done: 2 games")
    assert "<h4>How hard is each round?</h4>" in w.tables.value
    assert w.run_button.description == "Run"

    assert messages.set_language("de") == "de"

    assert (w.run_button.description, w.cancel_button.description) == ("RUN", "CANCEL")
    assert w.run_button.tooltip == "PLAY THE GAMES"
    assert w.question.description == "QUESTION" and w.games.description == "GAMES"
    assert w.rules_box.get_title(0) == "HOUSE RULES A"
    assert w.rules_box.get_title(1) == "HOUSE RULES B (FOR A COMPARISON)"
    assert "HOW HARD IS EACH ROUND?" in _labels(w.question)
    assert "H5: NO BUYING" in _labels(w.preset)
    assert "HEURISTIC BOTS" in _labels(w.bots)
    assert "USED BY THE QUESTION" in w.compare_help.value
    # the house-rules panels follow too
    assert w.rules_a.reset_button.description == "RULEBOOK DEFAULTS"
    # what was chosen and what was played stay as they were
    assert w.question.value == "rounds" and w.preset.value == ""
    assert w.result is not None and w.result.games_played == 2
    # the results are drawn again: status, tables (title, headings, note) and plot
    assert w.status.value.startswith("DONE: 2 GAMES")
    assert "<h4>HOW HARD IS EACH ROUND?</h4>" in w.tables.value
    assert '<th scope="col">DEALT HAND HOLDS IT</th>' in w.tables.value
    assert "2 GAMES. 95% CONFIDENCE INTERVALS" in w.tables.value
    assert "<title>HOW HARD IS EACH ROUND? (2 GAMES, 95% INTERVALS)" in w.plot.value
    assert "DOWNLOAD THE RAW RECORDS" in w.download.value
    # a column is still found by its English name
    assert w.shown_tables[0].columns[0] == "round"

    # a preset is still chosen by its English name
    w.preset.value = "H5: no buying"
    assert w.question.value == "compare" and w.players_b.value == 4
    assert w.rules_b.rules.max_buys_per_round == 0


def test_back_to_english_the_explorer_reads_as_before(shouting: None) -> None:
    from toonerville.widgets.explorer import RulesExplorer

    messages.set_language("hr")
    w = RulesExplorer(games=1, seed=2, turn_limit=5, background=False)
    assert w.run_button.description == "RUN"  # built in the language in use
    assert "DOES BUYING PAY?" in _labels(w.question)
    messages.set_language("en")
    assert w.run_button.description == "Run"
    assert "Does buying pay?" in _labels(w.question)
    assert w.preset.description == "B changes"


def test_every_preset_has_its_name_marked_for_the_catalogue() -> None:
    from toonerville.widgets.explorer_words import PRESET_NAMES

    assert sorted(PRESET_NAMES) == sorted(X.PRESETS)


def test_a_table_text_is_english_as_a_string_and_translated_when_shown(
        shouting: None) -> None:
    note = Text.plural("{n} game", "{n} games", 3) + Text(". ", "a note")
    assert note == "3 games. a note"
    assert note.shown() == "3 games. a note"
    messages.set_language("su")
    assert note == "3 games. a note"  # lookups and JSON stay English
    assert note.shown() == "3 GAMES. A NOTE"
    table = X.ResultTable(Text("a title"), ("round", "someone goes out"), ((1, 0.5),), note)
    assert table.shown_title == "A TITLE" and table.headings == ["ROUND", "SOMEONE GOES OUT"]
    assert str(table).splitlines()[0] == "A TITLE"
    assert table.to_dict()["title"] == "a title"
    assert type(table.to_dict()["note"]) is str


def test_08_has_the_language_menu_of_00_to_07(shouting: None) -> None:
    from toonerville.widgets.explorer import RulesExplorer
    from toonerville.widgets.language import LanguagePicker

    w = RulesExplorer(games=1, seed=2, turn_limit=5, background=False)
    assert isinstance(w.language, LanguagePicker) and w.language in w.children[2].children
    w.language.dropdown.value = "fa"
    assert w.run_button.description == "RUN"  # the whole explorer follows the menu


def test_H11_and_H12_switches_are_labelled_with_their_rule_ids() -> None:
    from toonerville.widgets.settings import HouseRulesPanel

    panel = HouseRulesPanel()
    assert panel.controls["seating"].description == "Tournament seating between rounds (H11)"
    assert panel.controls["swapped_rook"].description == "When the swapped Rook is played (H12)"
    assert "RULES.md" not in panel.reset_button.tooltip  # a learner's words
    messages.set_language("de")
    try:
        assert panel.controls["seating"].description == \
            "Sitzordnung im Turnier zwischen den Runden (H11)"
    finally:
        messages.set_language("en")


def test_a_new_run_clears_the_last_questions_plot_and_tables() -> None:
    from toonerville.widgets.explorer import RulesExplorer

    w = RulesExplorer(games=1, seed=2, turn_limit=5, background=False)
    w.run_button.click()
    assert "<svg" in w.plot.value and w.tables.value and w.download.value
    w.question.value = "buying"
    w._work = lambda *job: None  # type: ignore[method-assign]  # a run still under way
    w.run_button.click()
    assert w.plot.value == "" and w.plot.layout.display == "none"
    assert w.shown_tables == [] and w.tables.value == "" and w.download.value == ""
    messages.set_language("de")  # a redraw in another language brings nothing old back
    try:
        assert w.plot.value == "" and w.download.value == ""
    finally:
        messages.set_language("en")
