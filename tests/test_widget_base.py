"""The one base of every widget (`widgets.base`): size, language, capped text boxes, the
page's size and what the page's address asks for; driven without a browser."""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterator
from pathlib import Path

import ipywidgets as widgets
import pytest
from widgetfixtures import close_widgets, no_query  # noqa: F401

from toonerville.engine import messages
from toonerville.engine.messages import N_, msg, set_language, set_translation
from toonerville.pages.render import TEXT_PX, card_svg, message_html, rule_ids_html
from toonerville.widgets.base import (
    CappedText,
    MessageBox,
    PageStyle,
    Part,
    page_css,
)
from toonerville.widgets.board import EventLog, ScoreSheet
from toonerville.widgets.language import apply_language
from toonerville.widgets.lessons import (
    CARD_CHARS,
    BuyDemo,
    DealDemo,
    MeldChecker,
    RookDemo,
    ScoringDemo,
)
from toonerville.widgets.settings import HouseRulesPanel, SizeToggle
from toonerville.widgets.stepper import HistoryStepper
from toonerville.widgets.url import url_notes


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


class Shouting(gettext.NullTranslations):
    """A stand-in catalogue: every text "translated" to upper case, placeholders kept."""

    def gettext(self, message: str) -> str:
        return re.sub(r"(^|\})([^{]*)", lambda m: m.group(1) + m.group(2).upper(), message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.gettext(singular if n == 1 else plural)


def query(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setenv("QUERY_STRING", text)


def font_px(html: str) -> set[int]:
    return {int(px) for px in re.findall(r"font-size:(\d+)px", html)}


# -- one way to follow the language ---------------------------------------------------------
class Greeting(Part, widgets.VBox):  # type: ignore[misc]
    """A part with one registered button text and one drawn sentence."""

    def __init__(self) -> None:
        self.button = widgets.Button()
        self.words = widgets.HTML()
        self.draws = 0
        super().__init__(children=(self.button, self.words))
        self.texts(self.button, description=N_("Deal all"), tooltip=N_("Deal all"))
        self._redraw()

    def _redraw(self) -> None:
        self.draws += 1
        self.words.value = messages._("Score sheet")


def test_a_part_follows_a_change_of_language_by_itself_once() -> None:
    part = Greeting()
    assert part.button.description == "Deal all"
    before = part.draws
    set_language("de")
    assert part.button.description == messages._("Deal all") != "Deal all"
    assert part.words.value == messages._("Score sheet") != "Score sheet"
    assert part.draws == before + 1
    apply_language(part)  # a picker's link after the part moved: no redraw
    assert part.draws == before + 1
    set_language("fa")
    assert "tr-rtl" in part._dom_classes
    set_language("en")
    assert "tr-rtl" not in part._dom_classes and part.button.description == "Deal all"


def test_a_part_made_in_a_right_to_left_language_reads_right_to_left() -> None:
    set_language("fa")
    assert "tr-rtl" in Greeting()._dom_classes and "tr-rtl" in MeldChecker()._dom_classes


def test_a_closed_part_is_left_alone_when_the_language_changes() -> None:
    part = Greeting()
    part.close()
    set_language("de")
    assert part.button.description == "Deal all"


def test_a_relabelled_choice_keeps_its_value_and_tells_no_observer() -> None:
    toggle = SizeToggle("large")
    seen: list[object] = []
    toggle.observe(seen.append, "value")
    set_language("de")
    assert toggle.value == "large" and seen == []
    assert toggle.description == messages._("Card size")
    panel = HouseRulesPanel()
    panel.controls["restock"].value = panel.controls["restock"].options[1][1]
    chosen = panel.rules
    set_language("hi")
    assert panel.rules == chosen
    assert panel.reset_button.description == messages._("Rulebook defaults")


def test_history_stepper_buttons_follow_the_language() -> None:
    stepper = HistoryStepper()
    assert stepper.forward_button.description == "Forward ▶"
    set_language("de")
    assert stepper.forward_button.description == messages._("Forward ▶")


# -- size ---------------------------------------------------------------------------------------
def test_the_size_toggle_grows_with_its_own_value() -> None:
    toggle = SizeToggle()
    toggle.value = "projector"
    assert toggle.size == "projector" and "tv-size-projector" in toggle._dom_classes


def test_page_css_scales_the_prose_and_the_controls_of_the_whole_page() -> None:
    assert page_css("normal") == ""
    css = page_css("projector")
    assert f"--jp-content-font-size1: {TEXT_PX['projector']}px" in css
    assert "--jp-widgets-font-size" in css and "--jp-code-font-size" in css
    assert TEXT_PX["normal"] < TEXT_PX["large"] < TEXT_PX["projector"]
    with pytest.raises(ValueError):
        page_css("huge")
    style = PageStyle()
    assert style.value == "" and style.layout.display == "none"
    style.size = "large"
    assert style.value == page_css("large")


@pytest.mark.parametrize("lesson", [DealDemo, MeldChecker, RookDemo, BuyDemo])
def test_projector_size_scales_every_text_of_a_lesson(lesson: type) -> None:
    demo = lesson()
    demo.size_toggle.value = "projector"
    assert demo.page_style.value == page_css("projector")
    assert all(part.size == "projector" for part in demo._parts)
    assert "tv-size-projector" in demo._dom_classes  # the lesson's prose and controls


def test_the_size_in_the_address_opens_every_lesson_and_the_page_at_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    query(monkeypatch, "size=projector")
    for lesson in (DealDemo(), MeldChecker()):
        assert lesson.size == "projector"
        assert lesson.page_style.value == page_css("projector")
    from toonerville.widgets.explorer import RulesExplorer

    explorer = RulesExplorer(background=False)
    assert explorer.size == "projector" and explorer.page_style.value == page_css("projector")
    assert explorer.rules_a.size == "projector"


def test_score_sheet_and_log_text_grow_with_the_size() -> None:
    sheet = ScoreSheet(["Ann", "Bo"], [[0, 25]])
    log = EventLog()
    normal = font_px(sheet.value)
    sheet.size = "projector"
    assert font_px(sheet.value) == {TEXT_PX["projector"]} and normal == {TEXT_PX["normal"]}
    log.size = "projector"
    assert log.size == "projector"


# -- what the address asks for ------------------------------------------------------------------
def test_a_seed_that_is_not_a_number_is_said_so_on_the_page(
        monkeypatch: pytest.MonkeyPatch) -> None:
    query(monkeypatch, "seed=abc")
    demo = DealDemo()
    assert demo.seed.value == 7
    assert "“abc”" in demo.url_note.text and "seed 7" in demo.url_note.text
    assert "tv-info" in demo.url_note.value
    set_translation(Shouting())
    try:
        demo.refresh()
        assert "SEED" in demo.url_note.text  # it goes through the catalogue
    finally:
        set_language("en")


def test_a_good_seed_and_no_address_give_no_note(monkeypatch: pytest.MonkeyPatch) -> None:
    assert DealDemo().url_note.text == ""
    query(monkeypatch, "seed=1234")
    demo = DealDemo()
    assert demo.seed.value == 1234 and demo.url_note.text == ""


def test_an_unknown_size_is_said_so(monkeypatch: pytest.MonkeyPatch) -> None:
    query(monkeypatch, "size=huge&seed=99999999999")
    notes = [str(n) for n in url_notes(3)]
    assert len(notes) == 2 and "“huge”" in notes[1] and "seed 3" in notes[0]
    assert url_notes(None)[0] == url_notes(3)[1]  # a page without a seed says nothing of it


# -- text boxes ----------------------------------------------------------------------------------
def test_a_capped_text_box_keeps_its_limit_and_says_so() -> None:
    box = CappedText(max_chars=10)
    seen: list[str] = []
    box.observe(lambda change: seen.append(change["new"]), "value")
    box.value = "R5 " * 40_000
    assert len(box.value) == 10 and seen == [box.value]  # observers see only the cut text
    assert box.was_cut and "at most 10 characters" in box.notice.text
    assert "120000" in box.notice.text.replace(",", "")
    box.value = "R5 R6"
    assert not box.was_cut and box.notice.text == ""
    with pytest.raises(ValueError):
        CappedText(max_chars=0)


def test_02_card_box_caps_a_huge_paste_and_the_page_stays_small() -> None:
    checker = MeldChecker()
    checker.text.value = "R5 R6 R7 R8 " * 9_000
    assert len(checker.text.value) == CARD_CHARS
    assert f"at most {CARD_CHARS} characters" in checker.text.notice.text
    assert len(checker.verdict.value) + len(checker.messages.value) < 100_000


def test_06_text_boxes_are_capped_too() -> None:
    demo = ScoringDemo(play_now=False)
    for box in (demo.cards, demo.totals):
        assert isinstance(box, CappedText)
        box.value = "9" * 5000
        assert len(box.value) == box.max_chars and box.notice.text
    assert isinstance(HouseRulesPanel().controls["max_buys_per_round"], CappedText)


# -- 01's slips -----------------------------------------------------------------------------------
def test_01_deal_one_card_is_not_highlighted_once_the_deal_is_complete() -> None:
    demo = DealDemo()
    assert demo.step_button.button_style == "primary"
    demo.deal_all()
    assert demo.step_button.disabled and demo.step_button.button_style == ""
    assert demo.again_button.button_style == "primary"
    demo.restart()
    assert demo.step_button.button_style == "primary" and demo.again_button.button_style == ""


# -- rule ids link, sentences start with a capital and carry one rule id -------------------------
#: the static rulebook page, one per language (tools/pages.py)
RULEBOOK = "../templates/toonerville/static/rulebook-"


def test_rule_ids_in_a_lesson_link_to_the_rulebook_in_a_new_tab() -> None:
    demo = DealDemo()
    demo.deal_all()
    links = re.findall(r'<a class="tv-rule" href="([^"]+)" target="_blank"', demo.about.value)
    assert f"{RULEBOOK}en.html#T2" in links and f"{RULEBOOK}en.html#T7" in links
    assert 'data-rule="T8"' in demo.after.value


def test_a_rule_link_keeps_the_language_of_the_page() -> None:
    set_language("fa")
    assert f'href="{RULEBOOK}fa.html#T14"' in rule_ids_html("(T14)")
    set_language("en")
    assert f'href="{RULEBOOK}en.html#T14"' in rule_ids_html("(T14)")


def test_rule_ids_outside_text_are_left_alone() -> None:
    html = '<a href="x">T3</a> <span title="T4">R5 T5</span> H99 T130 XT4 (T13a, H12)'
    out = rule_ids_html(html)
    assert '<a href="x">T3</a>' in out and 'title="T4"' in out
    assert out.count('class="tv-rule"') == 3  # T5, T13a and H12; not H99, T130, XT4


def test_a_message_starts_with_a_capital_and_carries_one_rule_id() -> None:
    inner = msg("you need {n} more cards", "T7", n=2)
    outer = msg("not yet: {why}", "T15", why=inner)
    shown = re.sub(r"<[^>]+>", "", message_html(outer))
    assert shown.startswith("Not yet: you need 2 more cards")
    assert shown.count("(T") == 1 and "(T15)" in shown
    alone = re.sub(r"<[^>]+>", "", message_html(msg("taken: {why}", None, why=inner)))
    assert alone.count("(T7)") == 1
    named = re.sub(r"<[^>]+>", "", message_html(msg("a rule (T9) says so", "T9")))
    assert named.count("T9") == 1
    assert re.sub(r"<[^>]+>", "", message_html(msg("penalty_cards is 9", "H5"))).startswith(
        "penalty_cards")


def test_the_event_log_links_its_rule_ids() -> None:
    demo = BuyDemo()
    demo.rulebook_example()
    assert 'data-rule="T10"' in demo.event_log.value


def test_the_rook_card_text_is_translated() -> None:
    from toonerville.engine.cards import Card

    english = card_svg(Card.parse("RK"))
    assert ">ROOK<" in english and ">25 points<" in english
    set_translation(Shouting())
    try:
        shouted = card_svg(Card.parse("RK"))
        assert ">25 POINTS<" in shouted
    finally:
        set_language("en")


def test_message_box_shows_a_rule_link() -> None:
    box = MessageBox()
    box.error(msg("you may not discard {card}", "T14", card="G3"))
    assert 'data-rule="T14"' in box.value


def test_no_part_is_shown_again_with_a_display_of_None() -> None:
    """On the static site Pyodide sends None to the page as `undefined`, which the page's
    layout ignores: a part hidden with "none" and shown again with None stays hidden there
    (the round's recap did; tests/browser/test_site.py plays it). Parts are shown with
    `base.SHOWN` / `base.displayed()`."""
    import toonerville.widgets as package
    from toonerville.widgets.base import SHOWN, displayed

    assert SHOWN is not None and displayed(True) == SHOWN and displayed(False) == "none"
    found = []
    for path in sorted(Path(package.__file__).parent.glob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"\.display\s*=\s*None\b|display=None\b|else None$", line) \
                    and "display" in line:
                found.append(f"{path.name}:{number}: {line.strip()}")
    assert found == []
