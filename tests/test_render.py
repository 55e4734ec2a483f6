"""The pictures: what a learner (and a screen reader) can tell from them."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html import unescape

import pytest

from toonerville.engine.cards import COLOURS, ROOK, Card, Colour, deck, parse_cards
from toonerville.engine.melds import Meld, check_meld
from toonerville.engine.messages import msg
from toonerville.pages import render

SVG = "{http://www.w3.org/2000/svg}"
PAINT = {"fill", "stroke", "stroke-width", "stroke-opacity", "stroke-linejoin",
         "stroke-linecap"}


def svg(card: Card | None, **options: object) -> ET.Element:
    return ET.fromstring(render.card_svg(card, **options))  # type: ignore[arg-type]


def xml(html: str) -> ET.Element:
    """HTML output parsed as XML (every output here is well formed)."""
    return ET.fromstring(f"<root>{html}</root>")


def text_of(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html))


def as_shown(sentence: str) -> str:
    """A sentence as the page shows it: starting with a capital."""
    return sentence[:1].upper() + sentence[1:]


def geometry(element: ET.Element) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """The shapes of a drawing without their paint: what is left when colour is not seen."""
    return tuple((e.tag, tuple(sorted((k, v) for k, v in e.attrib.items() if k not in PAINT)))
                 for e in element.iter() if e.tag in {SVG + "path", SVG + "circle"})


def contrast(a: str, b: str) -> float:
    def luminance(colour: str) -> float:
        channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        r, g, b_ = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
                    for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b_

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


# -- one card ----------------------------------------------------------------------------
def test_every_colour_has_its_own_emblem_shape() -> None:
    shapes = {c: geometry(ET.fromstring(render.emblem_svg(c))) for c in COLOURS}
    assert all(shapes.values())
    assert len(set(shapes.values())) == len(COLOURS)


def test_cards_of_one_number_differ_in_shape_not_only_in_colour() -> None:
    sevens = {geometry(svg(Card(c, 7))) for c in COLOURS}
    assert len(sevens) == len(COLOURS)


def test_each_colour_letter_is_on_the_card() -> None:
    for colour in COLOURS:
        texts = [t.text for t in svg(Card(colour, 7)).iter(SVG + "text")]
        assert colour.letter in texts and "7" in texts


@pytest.mark.parametrize(("notation", "name"),
                         [("R7", "Red 7"), ("Y14", "Yellow 14"), ("G1", "Green 1"),
                          ("B10", "Black 10"), ("RK", "Rook")])
def test_every_card_has_an_accessible_name(notation: str, name: str) -> None:
    root = svg(Card.parse(notation))
    assert root.get("role") == "img"
    assert root.get("aria-label") == name
    assert root.findtext(SVG + "title") == name


def test_the_rook_is_drawn_unlike_any_number_card() -> None:
    rook = render.card_svg(ROOK)
    assert ">ROOK<" in rook and ">25 points<" in rook
    assert geometry(svg(ROOK)) not in {geometry(svg(c)) for c in deck()[:-1]}


def test_every_card_svg_is_well_formed_xml() -> None:
    for card in (*deck(), None):
        for size in render.SIZES:
            root = svg(card, size=size)
            assert root.tag == SVG + "svg"
    svg(ROOK, selected=True, stands_for=Card.parse("R8"))
    svg(Card.parse("G3"), face_down=True)


def test_six_and_nine_are_underlined_so_they_read_upside_down() -> None:
    underline = 'd="M11.5 36H25.5"'
    assert underline in render.card_svg(Card.parse("R6"))
    assert underline in render.card_svg(Card.parse("B9"))
    assert underline not in render.card_svg(Card.parse("R8"))


def test_a_face_down_card_never_tells_what_it_is() -> None:
    out = render.card_svg(Card.parse("R7"), face_down=True)
    assert svg(Card.parse("R7"), face_down=True).get("aria-label") == "Face-down card"
    assert "Red" not in out and "R7" not in out
    assert out == render.card_svg(None)


def test_selected_card_is_marked_in_its_name_and_its_border() -> None:
    plain, chosen = render.card_svg(Card.parse("Y9")), render.card_svg(Card.parse("Y9"),
                                                                       selected=True)
    assert svg(Card.parse("Y9"), selected=True).get("aria-label") == "Yellow 9, selected"
    assert 'stroke="#1565c0" stroke-width="4"' in chosen
    assert "#1565c0" not in plain
    assert "tv-selected" in render.card_html(Card.parse("Y9"), selected=True)


def test_projector_cards_are_about_two_and_a_half_times_normal() -> None:
    widths = {size: int(svg(ROOK, size=size).get("width", "0")) for size in render.SIZES}
    assert widths == render.SIZES
    assert widths["small"] < widths["normal"] < widths["large"] < widths["projector"]
    assert 2.3 <= widths["projector"] / widths["normal"] <= 2.7
    assert int(svg(ROOK, size="projector").get("height", "0")) > 1.3 * widths["projector"]


def test_an_unknown_size_is_refused() -> None:
    with pytest.raises(ValueError, match="huge"):
        render.card_svg(ROOK, size="huge")


def test_card_text_has_wcag_aa_contrast() -> None:
    for ink in render._INK.values():
        assert contrast(ink.text, "#ffffff") >= 4.5
        assert contrast(ink.on_fill, ink.fill) >= 4.5
    assert contrast(render._ROOK_GOLD, render._ROOK_PANEL) >= 4.5
    assert contrast("#ffffff", render._ROOK_PANEL) >= 4.5


def test_card_notation_stays_left_to_right() -> None:
    assert "direction:ltr" in svg(Card.parse("R10")).get("style", "")
    assert "direction:ltr" in render.card_html(Card.parse("R10"))
    assert '<bdi dir="ltr">R5 R6 R7 RK=R8</bdi>' in render.meld_html(
        Meld.parse("R5 R6 R7 RK=R8"))


def test_output_is_deterministic_and_has_no_ids() -> None:
    meld = Meld.parse("R5 R6 R7 RK=R8")
    assert render.meld_html(meld) == render.meld_html(Meld.parse("R5 R6 R7 RK=R8"))
    everything = render.table_html({"Ana": [meld]}) + render.piles_html(3, ROOK, 2)
    assert " id=" not in everything


# -- groups of cards ---------------------------------------------------------------------
def test_a_declared_rook_shows_the_card_it_stands_for() -> None:
    out = render.meld_html(Meld.parse("R5 R6 R7 RK=R8"))
    assert ">= R8<" in out
    assert 'aria-label="Rook, standing for Red 8"' in out
    assert "a run of Red 5–8" in out
    assert ">= " not in render.meld_html(Meld.parse("Y7 R7 RK"))


def test_a_meld_shows_its_cards_in_table_order() -> None:
    out = render.meld_html(Meld.parse("G12 G13 G14 RK"))
    assert re.findall(r'data-card="(\w+)"', out) == ["RK", "G12", "G13", "G14"]
    assert ">= G11<" in out


def test_hand_lifts_exactly_the_selected_cards() -> None:
    cards = parse_cards("R3 Y9 G12 B14 RK")
    out = render.hand_html(cards, selected_indices=(1, 4), label="Ana's hand")
    assert out.count("tv-selected") == 2
    assert out.count(", selected") == 4  # aria-label and title of each
    assert 'aria-label="Ana&#x27;s hand"' in out
    assert 'aria-label="Hand of 5 cards"' in render.hand_html(cards)
    assert "no cards" in render.hand_html(())
    xml(out)


def test_piles_show_counts_and_only_the_discard_top() -> None:
    out = render.piles_html(40, Card.parse("G3"), 5)
    assert "40 cards" in out and "5 cards" in out
    assert 'aria-label="Face-down card"' in out and 'aria-label="Green 3"' in out
    empty = render.piles_html(0, None, 0)
    assert 'aria-label="Empty stock"' in empty and 'aria-label="Empty discard pile"' in empty
    xml(out)


def test_table_shows_each_player_and_escapes_names() -> None:
    out = render.table_html({"Ana": [Meld.parse("Y7 R7 RK")], "<script>x</script>": []})
    assert "<script>" not in out and "&lt;script&gt;" in out
    assert "1 meld" in out and "no melds yet" in out
    assert "a set of 7s" in out
    xml(out)


# -- verdicts and messages ---------------------------------------------------------------
def test_valid_verdict_has_a_badge_word_sentence_and_cards() -> None:
    verdict = check_meld("R5 R6 R7 RK=R8")
    out = render.verdict_html(verdict)
    assert "</svg>valid<" in out
    assert as_shown(str(verdict)) in text_of(out)
    assert out.count('role="img"') == 4
    assert verdict._repr_html_() == out


def test_invalid_verdict_says_not_valid_and_why() -> None:
    verdict = check_meld("B13 B14 B1 B2")
    out = render.verdict_html(verdict)
    assert "not valid" in out
    assert as_shown(str(verdict)) in text_of(out)
    assert 'role="img"' not in out
    xml(out)


@pytest.mark.parametrize("kind", ["info", "error", "ok"])
def test_message_box_keeps_the_sentence_and_marks_its_kind(kind: str) -> None:
    message = msg("you may not discard {card}: you took it from the discard pile", "T14",
                  card=Card.parse("G3"))
    out = render.message_html(message, kind)  # type: ignore[arg-type]
    assert text_of(out) == as_shown(str(message))
    assert f"tv-{kind}" in out and "<svg" in out
    assert "<bdi>G3</bdi>" in out
    xml(out)


def test_message_box_escapes_plain_text_and_refuses_unknown_kinds() -> None:
    assert "&lt;b&gt;" in render.message_html("<b>hi</b>")
    with pytest.raises(ValueError):
        render.message_html("hi", "shout")  # type: ignore[arg-type]


# -- the score sheet ---------------------------------------------------------------------
def sheet_rows(out: str) -> list[list[str]]:
    table = xml(out).find("table")
    assert table is not None
    return [["".join(cell.itertext()).strip() for cell in row] for row in table.iter("tr")]


def test_score_sheet_totals_ties_and_lowest() -> None:
    out = render.score_sheet_html(["Ana", "Bo", "Cy"], [[0, 35, 20], [40, 0, 20], [15, 20, None]],
                                  highlight_round=3)
    rows = sheet_rows(out)
    assert rows[0] == ["Round", "Contract", "Ana", "Bo", "Cy"]
    assert [r[0] for r in rows[1:12]] == ["1", "2", "▶ 3", *map(str, range(4, 12))]
    assert rows[1][1] == "2 sets" and rows[11][1] == "2 runs + 2 sets"
    assert rows[3][2:] == ["15 Σ55", "20 Σ55", ""]
    assert rows[12] == ["Total", "55", "55", "40 ★ lowest"]
    assert rows[13] == ["Place", "2=", "2=", "1"]
    assert 'aria-current="step"' in out


def test_score_sheet_shared_first_place() -> None:
    rows = sheet_rows(render.score_sheet_html(["A", "B", "C"], [[10, 10, 30]]))
    assert rows[-2] == ["Total", "10 ★ lowest", "10 ★ lowest", "30"]
    assert rows[-1] == ["Place", "1=", "1=", "3"]


def test_score_sheet_takes_given_totals_and_ranks() -> None:
    rows = sheet_rows(render.score_sheet_html(["A", "B", "C"], [], totals=[50, 20, 20],
                                              ranks=[3, 1, 1]))
    assert rows[-2] == ["Total", "50", "20 ★ lowest", "20 ★ lowest"]
    assert rows[-1] == ["Place", "3", "1=", "1="]


def test_score_sheet_escapes_player_names_and_checks_its_shape() -> None:
    out = render.score_sheet_html(["<script>alert(1)</script>", "Bo"], [[5, 0]])
    assert "<script>" not in out and "&lt;script&gt;alert(1)&lt;/script&gt;" in out
    with pytest.raises(ValueError):
        render.score_sheet_html(["A", "B"], [[1, 2, 3]])
    with pytest.raises(ValueError):
        render.score_sheet_html(["A"], [[0]] * 12)


# -- the engine's values are pictures in a notebook --------------------------------------
def test_values_render_themselves_in_jupyter() -> None:
    card = Card.parse("R7")
    assert card._repr_html_() == render.card_html(card)
    assert 'aria-label="Red 7"' in card._repr_html_()
    meld = Meld.parse("R5 R6 R7 RK=R8")
    assert meld._repr_html_() == render.meld_html(meld)
    assert Colour.RED.title in render.emblem_svg(Colour.RED)
