"""The kit in six languages: the catalogues are complete and current, every translation
keeps its placeholders, the engine and the widgets speak the language chosen, Persian
runs right to left, and English is the fallback, never a crash.

The catalogue tests run Babel's extractor in-process (`tools/i18n.py`) and compare what
it finds with each `.po`, and each committed `.mo` with its `.po` compiled now; they
need Babel (the `test` extra). The others need only the standard library and ipywidgets.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import ipywidgets as widgets
import pytest
from prosehelpers import i18n_tool

from toonerville import check_meld, is_run
from toonerville.engine.messages import (
    LANGUAGES,
    RTL,
    Message,
    direction,
    language,
    msg,
    set_language,
    translate,
)
from toonerville.engine.rules import Contract, contract_for
from toonerville.widgets import language as language_module
from toonerville.widgets.base import MessageBox
from toonerville.widgets.language import LanguagePicker
from toonerville.widgets.lessons import DealDemo, MeldChecker
from toonerville.widgets.url import lang_from_url

ROOT = Path(__file__).resolve().parent.parent
CODES = ("de", "hr", "su", "fa", "hi")


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    """Every test starts and ends in English, with no widget left open."""
    set_language("en")
    yield
    set_language("en")
    widgets.Widget.close_all()


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    """`tools/i18n.py`, the Babel wrapper (skipped without Babel)."""
    pytest.importorskip("babel")
    return i18n_tool()


@pytest.fixture(scope="module")
def template(tool: ModuleType) -> Any:
    """Every translatable text of the package, extracted now."""
    return tool.extract_catalog()


# -- the catalogues -------------------------------------------------------------------------
def test_the_kit_has_six_languages() -> None:
    assert set(LANGUAGES) == {"en", *CODES}
    assert {"fa"} == RTL
    assert LANGUAGES["fa"] == "فارسی" and LANGUAGES["hi"] == "हिन्दी"


def test_extraction_finds_the_kits_texts(template: Any) -> None:
    ids = {m.id for m in template if m.id}
    assert "not a run: {cards} wraps past 14; 14 is the top and 1 the bottom" in ids  # msg
    assert ("{n} run", "{n} runs") in ids  # ngettext in Contract.__str__
    assert "Score sheet" in ids  # render.py's _t, inside an f-string
    assert ("{n} card", "{n} cards") in ids and "Discard pile" in ids  # plural, caption
    assert "cannot load this saved game: it is not text ({why})" in ids  # saves.py's _fail
    assert "Deal one card" in ids and "Card size" in ids  # the widgets' N_ and _
    assert "cannot load this saved game: " not in ids  # only its whole sentences


@pytest.mark.parametrize("code", CODES)
def test_catalogue_is_complete_and_current(tool: ModuleType, template: Any,
                                           code: str) -> None:
    """No text of the code is missing from the catalogue, none in it is stale, obsolete,
    fuzzy or untranslated, every placeholder and HTML tag is kept, and the committed
    .mo is the .po compiled (`python tools/i18n.py update`, translate, `compile`)."""
    assert tool.catalogue_problems(code, template) == []


@pytest.mark.parametrize("code", CODES)
def test_every_mo_is_its_po_compiled(tool: ModuleType, code: str) -> None:
    """The committed .mo (what the kit reads, without Babel) says what the .po says."""
    assert tool.mo_problems(code) == []


@pytest.mark.parametrize("code", CODES)
def test_every_translation_keeps_its_placeholders(tool: ModuleType, code: str) -> None:
    catalog = tool.load_po(code)
    checked = 0
    for m in catalog:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        wanted = set().union(*(tool.placeholders(i) for i in ids))
        for form in forms:
            if form:  # an untranslated entry is shown in English (and fails the test above)
                assert set(tool.placeholders(form)) == wanted, (ids[0], form)
                checked += 1
    assert checked > 400


def test_the_checker_notices_a_broken_translation(tool: ModuleType) -> None:
    from babel.messages.catalog import Catalog

    catalog = Catalog(locale="de")
    catalog.add("{name} discards {card}", "{name} wirft ab")  # {card} lost
    catalog.add("<b>Round {r}</b>", "Runde {r}")  # <b> lost
    catalog.add("Stock", "")  # untranslated
    problems = tool.translation_problems(catalog)
    assert len(problems) == 3
    assert "placeholders" in problems[0] and "HTML tags" in problems[1]
    assert problems[2].startswith("untranslated")


# -- the notebooks' prose --------------------------------------------------------------------
@pytest.fixture(scope="module")
def prose_template(tool: ModuleType) -> Any:
    """Every block of every notebook's markdown cells, extracted now."""
    return tool.extract_catalog(tool.PROSE)


def test_extraction_finds_every_pages_prose(prose_template: Any) -> None:
    ids = {m.id for m in prose_template if m.id}
    assert "# 2. Runs and sets" in ids  # a heading of 02
    assert "Rulebook" in ids and "Welcome" in ids  # the navigation bar, label by label
    assert any(i.startswith("**T14 ·") for i in ids)  # the rulebook page, anchor cut off
    assert not any("<a id=" in i for i in ids)
    assert not any(i.startswith("```") for i in ids)  # code is not prose


@pytest.mark.parametrize("code", CODES)
def test_prose_catalogue_is_complete_and_current(tool: ModuleType, prose_template: Any,
                                                 code: str) -> None:
    """Every paragraph, heading, list and navigation label of every notebook has a
    translation that is not stale (the English changed since) nor fuzzy, keeps its links,
    code and tags, and is compiled (`python tools/i18n.py update`, translate, `compile`).
    Fails until the translators' work for a new or changed paragraph is in."""
    assert tool.catalogue_problems(code, prose_template, tool.PROSE) == []


def test_the_checker_notices_a_stale_or_broken_prose_translation(
        tool: ModuleType, prose_template: Any) -> None:
    from babel.messages.catalog import Catalog

    catalog = Catalog(locale="de", domain="prose")
    for m in prose_template:
        if m.id:
            catalog.add(m.id, m.id)
    catalog.add("A paragraph that was since rewritten.", "Ein alter Absatz.")
    catalog.add("See [T14](docs/rules.md#T14) and `R7`.", "Siehe [T14](rules.md) und `R8`.")
    catalog.add("A taken card must be melded (T14).", "Eine Karte muss ausgelegt werden.")
    problems = tool.prose_problems(catalog)
    assert any("rule ids changed" in p for p in problems)
    assert any("links changed" in p for p in problems)
    assert any("code changed" in p for p in problems)
    assert tool.key_problems(prose_template, catalog) == [
        "stale: 'A paragraph that was since rewritten.'",
        "stale: 'A taken card must be melded (T14).'",
        "stale: 'See [T14](docs/rules.md#T14) and `R7`.'"]
    catalog.delete("# 2. Runs and sets")
    assert "missing: '# 2. Runs and sets'" in tool.key_problems(prose_template, catalog)


# -- the engine in each language -------------------------------------------------------------
def test_an_unknown_language_is_english_without_error() -> None:
    assert set_language("xx") == "en" and language() == "en"
    assert str(is_run("B13 B14 B1 B2")).startswith("not a run:")
    assert set_language(None) == "en"
    assert set_language("de-AT") == "de" and language() == "de"


def test_a_missing_catalogue_is_english_without_error(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from toonerville.engine import messages

    monkeypatch.setattr(messages, "LOCALE_DIR", tmp_path)
    assert set_language("de") == "en"
    assert str(check_meld("R5 R6 R7 R8")) == "a run: R5 R6 R7 R8 (T4)"


def test_a_verdict_in_persian_keeps_its_cards_and_rule() -> None:
    set_language("fa")
    text = str(is_run("B13 B14 B1 B2"))
    assert "B13 B14 B1 B2" in text and text.endswith("(T4)")
    assert "ردیف نیست" in text  # "not a run"
    assert not any("a" <= ch <= "z" for ch in text.replace("B", ""))  # no English left


@pytest.mark.parametrize("code", CODES)
def test_every_language_speaks(code: str) -> None:
    assert set_language(code) == code and language() == code
    for m in (msg("{name} discards {card}", "T13", name="Ann", card="R7"),
              check_meld("RK RK RK").reason):
        english = m.template.format(**m.params)
        assert m.text != english
    assert translate("Score sheet") != "Score sheet"


def test_a_term_given_as_a_parameter_is_translated() -> None:
    set_language("de")
    assert str(check_meld("RK RK RK")).startswith("nicht als Satz gültig:")
    assert Message("{a} {b}", {"a": "run", "b": "R7"}).text == "Reihe R7"


CONTRACTS = {
    "en": ("1 run", "2 runs + 1 set", "2 sets", "5 sets"),
    "de": ("1 Reihe", "2 Reihen + 1 Satz", "2 Sätze", "5 Sätze"),
    "hr": ("1 niz", "2 niza + 1 grupa", "2 grupe", "5 grupa"),
    "su": ("1 runtuyan", "2 runtuyan + 1 kelompok", "2 kelompok", "5 kelompok"),
    "fa": ("1 ردیف", "2 ردیف + 1 دسته", "2 دسته", "5 دسته"),
    "hi": ("1 क्रम", "2 क्रम + 1 समूह", "2 समूह", "5 समूह"),
}


@pytest.mark.parametrize("code", sorted(CONTRACTS))
def test_contract_names_with_each_languages_plurals(code: str) -> None:
    set_language(code)
    shown = (Contract(1, 0), Contract(2, 1), Contract(0, 2), Contract(0, 5))
    assert tuple(str(c) for c in shown) == CONTRACTS[code]
    assert str(contract_for(6)) == CONTRACTS[code][1]  # round 6: 2 runs + 1 set


def test_direction() -> None:
    assert direction("fa") == "rtl"
    assert direction("fa-IR") == "rtl"
    assert {direction(c) for c in ("en", "de", "hr", "su", "hi", "xx")} == {"ltr"}
    set_language("fa")
    assert direction() == "rtl"


# -- the widgets -------------------------------------------------------------------------------
def test_the_language_picker_drives_a_lesson() -> None:
    picker = LanguagePicker()
    checker = MeldChecker("R5 R6 R7 R8")
    assert picker.value == "en" and checker.verdict.text == "a run: R5 R6 R7 R8 (T4)"
    assert [label for label, _code in picker.dropdown.options] == list(LANGUAGES.values())

    picker.value = "de"
    assert language() == "de"
    assert checker.verdict.text == "eine Reihe: R5 R6 R7 R8 (T4)"
    assert checker.clear_button.description == "Leeren"
    assert "Eine <b>Reihe</b>" in checker.intro.value
    assert checker.size_toggle.description == "Kartengröße"
    assert picker.dropdown.description.endswith("Sprache")
    assert "tr-rtl" not in checker._dom_classes

    second = LanguagePicker()  # another picker on the page: it shows the language in use
    assert second.value == "de"
    second.value = "fa"
    assert picker.value == "fa" and checker.mode.label == "ردیف یا دسته"
    assert "tr-rtl" in checker._dom_classes and "tr-rtl" in picker._dom_classes

    picker.value = "en"
    assert checker.verdict.text == "a run: R5 R6 R7 R8 (T4)"
    assert "tr-rtl" not in checker._dom_classes


def test_a_change_of_language_keeps_what_the_learner_did() -> None:
    demo = DealDemo(players=3, seed=5, round_number=4)
    changes: list[Any] = []
    demo.round.observe(changes.append, "value")
    demo.step()
    demo.step()
    LanguagePicker().value = "hr"
    assert demo.dealt == 2 and demo.round.value == 4 and changes == []
    assert demo.round.label == "4 (3 grupe)"
    assert "Podijeljeno karata: 2 od 36" in demo.progress.value.replace("<b>", "").replace(
        "</b>", "")


def test_a_message_box_speaks_the_new_language() -> None:
    box = MessageBox()
    picker = LanguagePicker()
    picker.link(box)
    box.ok(check_meld("Y7 R7 R7").reason)
    picker.value = "hi"
    assert box.text == "समूह: Y7 R7 R7 (T5)" and "समूह" in box.value


def test_the_first_picker_reads_the_language_from_the_url(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(language_module, "_url_language_read", False)
    monkeypatch.setenv("QUERY_STRING", "seed=3&lang=fa")
    assert lang_from_url() == "fa"
    picker = LanguagePicker()
    assert picker.value == "fa" and language() == "fa"
    set_language("de")  # the learner chose since: a later picker keeps that
    assert LanguagePicker().value == "de"


def test_a_lesson_without_a_picker_reads_the_url_too(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(language_module, "_url_language_read", False)
    monkeypatch.setenv("QUERY_STRING", "lang=fa")
    checker = MeldChecker("Y7 R7 R7")
    assert language() == "fa" and "tr-rtl" in checker._dom_classes
    assert checker.verdict.text == "دسته: Y7 R7 R7 (T5)"


def test_a_closed_lesson_is_left_alone() -> None:
    checker = MeldChecker("Y7 R7 R7")
    checker.close()
    set_language("de")  # must neither redraw nor fail on a closed lesson
    assert "A <b>run</b>" in checker.intro.value


@pytest.mark.parametrize(("query", "expected"), [
    ("lang=hi", "hi"), ("lang=FA-ir", "fa"), ("lang=sr", "hr"), ("lang=en", "en"),
    ("lang=xx", "de"), ("lang=", "de"), ("", "de")])
def test_lang_from_url(monkeypatch: pytest.MonkeyPatch, query: str, expected: str) -> None:
    monkeypatch.setenv("QUERY_STRING", query)
    assert lang_from_url(default="de") == expected
