"""Pictures of the game: pure functions that return HTML strings with inline SVG.

Owns how every engine value looks in a notebook: a card (`card_svg`, `card_html`), a
hand, a meld, a meld verdict, the melds on the table, the stock and discard pile, the
score sheet and an explaining message. Like python-chess's `chess/svg.py`, nothing here
holds state or imports a widget library; `Card`, `Meld` and `Verdict` call it lazily
from their `_repr_html_`, and the widgets module builds on the same strings.

Design rules kept throughout:
- a colour is never told by colour alone: each has its own emblem drawn as SVG shapes
  (Red heart, Yellow sun, Green leaf, Black spade) and its letter on the emblem;
- a card is drawn on its own white face with its own border, so it reads the same on
  a light or a dark notebook theme; text outside cards inherits the page's colour;
- every card has an accessible name (`role="img"`, `aria-label`, `<title>`); a face-down
  card's name never reveals the card;
- card notation stays left to right on a right-to-left page (`<bdi>`, `direction:ltr`);
- the output is deterministic (no ids, no randomness), so stored notebook outputs are
  stable.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any, Literal

from ..engine.cards import Card, Colour
from ..engine.messages import N_, Message, direction, plural, translate
from ..engine.rules import ROUNDS, contract_for
from ..engine.scoring import place_labels
from .prose import rulebook_href

if TYPE_CHECKING:
    from ..engine.melds import Meld, Verdict
    from ..engine.views import PlayerView

#: Card widths in CSS pixels; a card is 1.4 times as tall as it is wide.
SIZES: dict[str, int] = {"small": 48, "normal": 72, "large": 104, "projector": 180}
#: Text size in CSS pixels that goes with each card size: every caption, name, header,
#: sheet and sentence drawn here, and (through `widgets.base`) the page's prose.
TEXT_PX: dict[str, int] = {"small": 12, "normal": 14, "large": 18, "projector": 28}
_TEXT_PX = TEXT_PX
_ASPECT = 1.4
_FONT = "'Helvetica Neue', Arial, 'Liberation Sans', 'DejaVu Sans', sans-serif"
_LTR = "direction:ltr;unicode-bidi:isolate"
_MUTED = "opacity:.8"
_RULE_COLOUR = "rgba(127,127,127,.45)"  # a line that shows on light and dark pages


@dataclass(frozen=True, slots=True)
class _Ink:
    """A colour's paints: `text` has at least 4.5:1 contrast on the white card face."""

    text: str
    fill: str
    outline: str
    on_fill: str  # the letter drawn on the emblem


_INK: dict[Colour, _Ink] = {
    Colour.RED: _Ink("#c62828", "#c62828", "#8e0000", "#ffffff"),  # 5.6:1 on white
    Colour.YELLOW: _Ink("#8d6e00", "#fbc02d", "#8d6e00", "#4a3800"),  # 4.8:1; 6.8:1
    Colour.GREEN: _Ink("#2e7d32", "#2e7d32", "#1b5e20", "#ffffff"),  # 5.1:1 on white
    Colour.BLACK: _Ink("#212121", "#212121", "#000000", "#ffffff"),  # 16:1 on white
}
_ROOK_PANEL, _ROOK_GOLD = "#1f2a36", "#f5c518"  # white 14.6:1, gold 8.9:1 on the panel
_BACK_PANEL, _BACK_LINES = "#1e3a5f", "#5b86b8"
_SELECT = "#1565c0"  # white on it 5.8:1
_KIND_INK = {"ok": "#2e7d32", "error": "#c62828", "info": "#1565c0"}


def _sun() -> str:
    rays = []
    for k in range(8):
        a = k * math.pi / 4
        tip = (10 * math.cos(a), 10 * math.sin(a))
        left = (6.3 * math.cos(a - 0.26), 6.3 * math.sin(a - 0.26))
        right = (6.3 * math.cos(a + 0.26), 6.3 * math.sin(a + 0.26))
        rays.append("M{:.2f} {:.2f}L{:.2f} {:.2f}L{:.2f} {:.2f}Z".format(*left, *tip, *right))
    return f'<path d="{"".join(rays)}"/><circle cx="0" cy="0" r="5.6"/>'


# Each emblem is drawn in a 20 × 20 box centred on the origin, filled with the colour.
_EMBLEM_SHAPES: dict[Colour, str] = {
    Colour.RED: '<path d="M0 9C-4 5.5-10 1.5-10-3.5C-10-7.5-7.3-10-4.5-10C-2.3-10-.7-8.7 0-6.8'
                'C.7-8.7 2.3-10 4.5-10C7.3-10 10-7.5 10-3.5C10 1.5 4 5.5 0 9Z"/>',
    Colour.YELLOW: _sun(),
    Colour.GREEN: '<path transform="rotate(35)" d="M0-10.5C8.5-5 8.5 3.5 1 7.6L1 10.5H-1V7.6'
                  'C-8.5 3.5-8.5-5 0-10.5Z"/>',
    Colour.BLACK: '<path d="M0-10C3-5.5 10-2.5 10 2.5C10 6.5 5.5 8 2 5.6L3.5 10H-3.5L-2 5.6'
                  'C-5.5 8-10 6.5-10 2.5C-10-2.5-3-5.5 0-10Z"/>',
}
# A rook (the bird) in a 60 × 50 box centred on the origin, facing right.
_ROOK_BIRD = (
    '<path d="M-29 9L-15-1C-12-9-3-14 8-13C11-19 16-22 21-21C24-20.5 26-19 27-17L35-14.5'
    'L27-12.5C27-6 24 0 18 6C12 11 4 13-4 12L-8 11.5L-27 16Z"/>'
    '<path d="M-1 11L-3 22M-3 22L-7 24M-3 22L1 24M7 11L7 22M7 22L3 24M7 22L11 24" '
    'fill="none" stroke-width="2" stroke-linecap="round"/>'
)


def _bird(x: float, y: float, scale: float, ink: str, paper: str) -> str:
    """The rook, in `ink`, with its eye and wing picked out in `paper`."""
    detail = (f'<circle cx="21.5" cy="-16" r="1.8" fill="{paper}"/>'
              f'<path d="M-13 1C-4-5 7-5 14 1" fill="none" stroke="{paper}" stroke-width="1.6"'
              f' stroke-linecap="round"/>')
    return _place(_ROOK_BIRD + detail, x, y, scale, fill=ink, stroke=ink)


_CHECK = '<path d="M-4.5 0.5L-1.5 3.5L4.5-3" fill="none" stroke-width="2.2"/>'
_CROSS = '<path d="M-3.5-3.5L3.5 3.5M3.5-3.5L-3.5 3.5" fill="none" stroke-width="2.2"/>'
_INFO = '<path d="M0-.5V5" fill="none" stroke-width="2.4"/><circle cx="0" cy="-4.6" r="1.5"/>'
_KIND_ICON = {"ok": _CHECK, "error": _CROSS, "info": _INFO}


def _t(text: str, **params: object) -> str:
    """A fixed label in the learner's language (through the messages module's translation)."""
    return translate(text).format(**params)


def card_name(card: Card) -> str:
    """A card's spoken name in the learner's language ("Red 7", "Rook"): its tooltip and
    its picture's accessible name (`Card.name` is the English one)."""
    if card.colour is None:
        return translate(N_("Rook"))
    return f"{translate(card.colour.title)} {card.number}"


def _width(size: str) -> int:
    if size not in SIZES:
        raise ValueError(f"unknown card size {size!r}: choose one of {', '.join(SIZES)}")
    return SIZES[size]


def _attrs(attributes: Mapping[str, str]) -> str:
    """SVG attributes from keyword arguments: `stroke_width="2"` → ` stroke-width="2"`."""
    return "".join(f' {k.replace("_", "-")}="{v}"' for k, v in attributes.items())


def _place(shapes: str, x: float, y: float, scale: float, **paint: str) -> str:
    return f'<g transform="translate({x} {y}) scale({scale})"{_attrs(paint)}>{shapes}</g>'


def _text(x: float, y: float, text: str, size: float, fill: str, weight: str = "bold",
          **extra: str) -> str:
    return (f'<text x="{x}" y="{y}" font-size="{size}" fill="{fill}" text-anchor="middle" '
            f'font-weight="{weight}"{_attrs(extra)}>{escape(text)}</text>')


def _emblem(colour: Colour, x: float, y: float, scale: float, letter: bool) -> str:
    ink = _INK[colour]
    shape = _place(_EMBLEM_SHAPES[colour], x, y, scale, fill=ink.fill, stroke=ink.outline,
                   stroke_width=f"{(0.9 if colour is Colour.YELLOW else 0.4) / min(scale, 1):.2f}",
                   stroke_linejoin="round")
    if not letter:
        return shape
    return shape + _text(x, y + 3.4 * scale, colour.letter, 9.5 * scale, ink.on_fill)


def emblem_svg(colour: Colour, px: int = 20) -> str:
    """A colour's emblem alone, for a legend: `emblem_svg(Colour.RED)` is the heart."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-11 -11 22 22" width="{px}" '
            f'height="{px}" role="img" aria-label="{colour.title}" style="vertical-align:middle">'
            f"<title>{colour.title}</title>{_emblem(colour, 0, 0, 1, letter=False)}</svg>")


def _natural_face(card: Card) -> str:
    assert card.colour is not None
    ink = _INK[card.colour]
    number = str(card.number)
    squeeze = {"textLength": "25", "lengthAdjust": "spacingAndGlyphs"} if len(number) > 1 else {}
    # 6 and 9 are underlined, as on real cards, so upside down they still read right.
    underline = (f'<path d="M11.5 36H25.5" stroke="{ink.text}" stroke-width="1.8"/>'
                 if card.number in (6, 9) else "")
    corner = (_text(18.5, 32, number, 27, ink.text, **squeeze)
              + underline + _emblem(card.colour, 18.5, 47, 0.62, letter=False))
    return (f'<rect x="5" y="5" width="90" height="130" rx="6" fill="none" stroke="{ink.text}" '
            f'stroke-opacity=".5" stroke-width="1.2"/>'
            f'{corner}<g transform="rotate(180 50 70)">{corner}</g>'
            + _emblem(card.colour, 50, 70, 2.15, letter=True))


def _rook_face(stands_for: Card | None) -> str:
    tagged = stands_for is not None and stands_for.colour is not None
    face = (f'<rect x="5" y="5" width="90" height="130" rx="6" fill="{_ROOK_PANEL}"/>'
            f'<rect x="9" y="9" width="82" height="122" rx="3" fill="none" '
            f'stroke="{_ROOK_GOLD}" stroke-width="1"/>'
            + _text(50, 31, _t("ROOK"), 15, _ROOK_GOLD, letter_spacing="1.5",
                    **_fit(_t("ROOK"), 7, 80))
            + _text(50, 46, plural("{n} point", "{n} points", 25), 10.5, "#ffffff", "normal",
                    **_fit(plural("{n} point", "{n} points", 25), 13, 80))
            + _bird(50, 74 if tagged else 82, 0.9 if tagged else 1.0, "#ffffff", _ROOK_PANEL))
    if stands_for is None or stands_for.colour is None:
        return face
    ink = _INK[stands_for.colour]
    return (face + f'<rect x="12" y="100" width="76" height="25" rx="12.5" fill="#ffffff" '
                   f'stroke="{ink.fill}" stroke-width="2.5"/>'
            + _emblem(stands_for.colour, 25, 112.5, 0.6, letter=False)
            + _text(58, 118, f"= {stands_for}", 15, ink.text))


def _fit(text: str, most: int, length: int) -> dict[str, str]:
    """SVG attributes that keep a translated word on the card: its own direction, and
    squeezed to `length` units when it is longer than `most` characters."""
    fit = {"direction": direction(), "unicode_bidi": "plaintext"} if direction() == "rtl" \
        else {}
    if len(text) > most:
        fit |= {"textLength": str(length), "lengthAdjust": "spacingAndGlyphs"}
    return fit


def _back_face() -> str:
    diamonds = "".join(f"M{x} {y - 7}l6 7l-6 7l-6-7Z"
                       for y in range(14, 127, 14) for x in range(14, 87, 12))
    return (f'<rect x="6" y="6" width="88" height="128" rx="5" fill="{_BACK_PANEL}"/>'
            f'<path d="{diamonds}" fill="none" stroke="{_BACK_LINES}" stroke-width="1"/>'
            f'<ellipse cx="50" cy="70" rx="27" ry="21" fill="#ffffff" stroke="{_ROOK_GOLD}" '
            f'stroke-width="2"/>'
            + _bird(50, 70, 0.6, _BACK_PANEL, "#ffffff"))


def card_svg(card: Card | None, size: str = "normal", selected: bool = False,
             face_down: bool = False, stands_for: Card | None = None) -> str:
    """One card as a standalone SVG element.

    `face_down` (or `card=None`) draws the back, whose accessible name never tells the
    card. `stands_for` tags a Rook in a run with the card it plays ("= R8"). A
    `selected` card gets a thick blue border and a tick badge, and "selected" in its name.
    """
    width = _width(size)
    if face_down or card is None:
        name, face = _t("Face-down card"), _back_face()
    elif card.is_rook:
        name, face = card_name(card), _rook_face(stands_for)
        if stands_for is not None:
            name = _t("Rook, standing for {card}", card=card_name(stands_for))
    else:
        name, face = card_name(card), _natural_face(card)
    if selected:
        name = _t("{card}, selected", card=name)
        face += (f'<circle cx="86" cy="14" r="10" fill="{_SELECT}" stroke="#ffffff" '
                 f'stroke-width="1.5"/>' + _place(_CHECK, 86, 14, 1.3, stroke="#ffffff"))
    border = (f'stroke="{_SELECT}" stroke-width="4"' if selected
              else 'stroke="#8a8a8a" stroke-width="1.2"')
    data = "back" if face_down or card is None else str(card)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" width="{width}" '
            f'height="{round(width * _ASPECT)}" role="img" aria-label="{escape(name)}" '
            f'data-card="{data}" font-family="{escape(_FONT, quote=False)}" style="{_LTR}">'
            f"<title>{escape(name)}</title>"
            f'<rect x="2" y="2" width="96" height="136" rx="8" fill="#ffffff" {border}/>'
            f"{face}</svg>")


def card_html(card: Card | None, size: str = "normal", selected: bool = False,
              face_down: bool = False, stands_for: Card | None = None) -> str:
    """A card as an inline HTML element; a selected card is lifted a little."""
    lift = f"transform:translateY(-{round(_width(size) * 0.14)}px);" if selected else ""
    cls = "tv-card tv-selected" if selected else "tv-card"
    return (f'<span class="{cls}" style="display:inline-block;line-height:0;'
            f'vertical-align:bottom;{lift}{_LTR}">'
            f"{card_svg(card, size, selected, face_down, stands_for)}</span>")


def _row(items: Iterable[str], size: str, label: str, pad_top: int = 0) -> str:
    gap = max(3, round(_width(size) * 0.06))
    return (f'<div role="group" aria-label="{escape(label)}" style="display:inline-flex;'
            f"max-width:100%;flex-wrap:wrap;align-items:flex-end;gap:{gap}px;padding-top:{pad_top}px;"
            f'{_LTR}">{"".join(items)}</div>')


def _font(size: str) -> str:
    _width(size)  # refuses an unknown size
    return f"font-size:{_TEXT_PX[size]}px;line-height:1.35"


def _bdi(text: str) -> str:
    return f"<bdi>{escape(text)}</bdi>"


def _icon_px(size: str) -> int:
    return round(_TEXT_PX[size] * 1.4)


def _ltr(html: str) -> str:
    """Card notation and numbers ("RK=R8", "1=") kept left to right on any page."""
    return f'<bdi dir="ltr">{html}</bdi>'


def _notation(text: str) -> str:
    return f'<span style="font-family:monospace;font-size:.92em">{_ltr(escape(text))}</span>'


def hand_html(cards: Sequence[Card], size: str = "normal",
              selected_indices: Iterable[int] = (), label: str | None = None) -> str:
    """A player's cards in a wrapping row; the cards at `selected_indices` are lifted."""
    chosen = set(selected_indices)
    group = label or plural("Hand of {n} card", "Hand of {n} cards", len(cards))
    heading = (f'<div style="font-weight:bold;margin-bottom:4px">{escape(label)}</div>'
               if label else "")
    body = (_row((card_html(c, size, selected=i in chosen) for i, c in enumerate(cards)),
                 size, group, pad_top=round(_width(size) * 0.16) if chosen else 0)
            if cards else f'<div style="{_MUTED}">{_t("no cards")}</div>')
    return f'<div class="tv-hand" style="{_font(size)};margin:4px 0">{heading}{body}</div>'


def meld_html(meld: Meld, size: str = "normal") -> str:
    """A meld's cards in table order, captioned; a Rook in a run shows what it stands for."""
    cards = (card_html(c, size, stands_for=meld.stands_for(i) if c.is_rook else None)
             for i, c in enumerate(meld.cards))
    described = meld.describe()
    return (f'<figure class="tv-meld" style="display:inline-block;vertical-align:top;'
            f'margin-block:4px 8px;margin-inline:0 14px;{_font(size)}">'
            f"{_row(cards, size, f'{described}: {meld}')}"
            f'<figcaption style="margin-top:4px">{escape(described)} '
            f'<span style="{_MUTED}">· {_notation(str(meld))}</span></figcaption></figure>')


def _icon(kind: str, px: int, on_ink: bool = False) -> str:
    """The symbol of a message kind: a disc with a tick, cross or "i" (decorative)."""
    ink, paper = (("#ffffff", _KIND_INK[kind]) if on_ink else (_KIND_INK[kind], "#ffffff"))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-10 -10 20 20" width="{px}" '
            f'height="{px}" aria-hidden="true" style="flex:none">'
            f'<circle cx="0" cy="0" r="9.5" fill="{ink}"/>'
            + _place(_KIND_ICON[kind], 0, 0, 1, stroke=paper, fill=paper,
                     stroke_linecap="round", stroke_linejoin="round") + "</svg>")


#: A rule id as the kit prints it: T1–T22 (and T13a), H1–H12.
RULE_ID = re.compile(r"(?<![\w#=])([TH](?:[1-9]|1[0-9]|2[0-2])a?)(?![\w])")
_TAG = re.compile(r"(<[^>]*>)")


def rulebook_url(rule: str) -> str:
    """Where `rule` is explained for a learner: the kit's rulebook page at the rule, in the
    language in use (`rulebook.ipynb?lang=fa#T14`; `.html` in the static site). The source
    of that page, for a reader of the code, is `messages.rule_link(rule)`."""
    return rulebook_href(rule)


def rule_html(rule: str) -> str:
    """A rule id as a link to its rule, opened in a new tab so no game is lost, with
    what it is on hover and focus ("Rule T14 in the rulebook, in a new tab")."""
    hint = _t("Rule {rule} in the rulebook (opens in a new tab)", rule=rule)
    return (f'<a class="tv-rule" href="{escape(rulebook_url(rule))}" target="_blank" '
            f'rel="noopener" title="{escape(hint)}" aria-label="{escape(hint)}" '
            f'data-rule="{escape(rule)}" style="color:inherit;text-decoration:underline '
            f'dotted;text-underline-offset:2px">{escape(rule)}</a>')


def rule_ids_html(html: str) -> str:
    """`html` with every rule id in its text ("… (T14)", "(T16, T17)") made a link to its
    rule (`rule_html`). Tags, attributes and existing links are left as they are."""
    out, in_link = [], 0
    for piece in _TAG.split(html):
        if piece.startswith("<"):
            lowered = piece[:3].lower()
            in_link += 1 if lowered.startswith("<a") and lowered[2:3] in (" ", ">") else 0
            in_link -= 1 if lowered == "</a" else 0
            out.append(piece)
        elif in_link or not piece:
            out.append(piece)
        else:
            out.append(RULE_ID.sub(lambda m: rule_html(m.group(1)), piece))
    return "".join(out)


def _capital(text: str) -> str:
    """A sentence starts with a capital letter (in scripts that have them); a name from
    the code (`penalty_cards`) or card notation at the start is left as it is."""
    first = re.split(r"[\s:,]", text, maxsplit=1)[0]
    if not text[:1].isalpha() or "_" in first or any(c.isdigit() for c in first):
        return text
    return text[:1].upper() + text[1:]


def _rule_of(message: Message) -> str | None:
    """The one rule id a sentence carries: its own, else that of a sentence inside it."""
    if message.rule:
        return message.rule
    return next((v.rule for v in message.params.values()
                 if isinstance(v, Message) and v.rule), None)


def _sentence(message: Message | str) -> str:
    """A message as HTML: starting with a capital, its parameters (card notation,
    numbers) isolated in `<bdi>` so they keep their order in a right-to-left
    translation, and one rule id at the end as a link to the rulebook (a sentence
    inside it brings no second id). Its text is `str(message)`."""
    if isinstance(message, str):
        return rule_ids_html(escape(_capital(message)))
    shown = {k: f"<bdi>{escape(v.text if isinstance(v, Message) else Message('{v}', {'v': v}).text)}</bdi>"  # noqa: E501
             for k, v in message.params.items()}
    try:
        text = _capital(escape(translate(message.template), quote=False)).format(**shown)
    except (KeyError, IndexError, ValueError):
        text = escape(_capital(message.text))
    rule = _rule_of(message)
    if rule is None or re.search(rf"\b{re.escape(rule)}\b", re.sub(r"<[^>]*>", "", text)):
        return rule_ids_html(text)  # no rule, or the sentence names it already
    return (f'{rule_ids_html(text)} <span style="{_MUTED}"><bdi>({rule_html(rule)})</bdi>'
            "</span>")


def sentence_html(message: Message | str) -> str:
    """One sentence as inline HTML, as a message box shows it (`message_html`) but
    without the box: for a log line or a list item."""
    return _sentence(message)


Kind = Literal["info", "error", "ok"]


def message_html(message: Message | str, kind: Kind = "info", size: str = "normal") -> str:
    """An explaining sentence in a box, with a symbol (i, cross, tick) for its kind."""
    if kind not in _KIND_INK:
        raise ValueError(f"unknown message kind {kind!r}: choose info, error or ok")
    ink = _KIND_INK[kind]
    return (f'<div class="tv-message tv-{kind}" role="{"note" if kind == "info" else "status"}"'
            f' style="display:flex;align-items:flex-start;gap:8px;padding:8px 12px;'
            f"margin:4px 0;border:1px solid {ink};border-left:6px solid {ink};"
            f'border-radius:6px;{_font(size)}">'
            f"{_icon(kind, _icon_px(size))}<div>{_sentence(message)}</div></div>")


def verdict_html(verdict: Verdict, size: str = "normal") -> str:
    """A meld verdict: a tick "valid" or cross "not valid" badge, its sentence, its meld."""
    kind, word = ("ok", _t("valid")) if verdict.ok else ("error", _t("not valid"))
    badge = (f'<span style="display:inline-flex;align-items:center;gap:5px;flex:none;'
             f"background:{_KIND_INK[kind]};color:#ffffff;font-weight:bold;"
             f'border-radius:999px;padding:2px 11px 2px 3px">'
             f"{_icon(kind, _icon_px(size), on_ink=True)}{word}</span>")
    meld = meld_html(verdict.meld, size) if verdict.meld is not None else ""
    return (f'<div class="tv-verdict tv-{kind}" role="status" style="margin:4px 0;'
            f'padding:8px 12px;border:1px solid {_RULE_COLOUR};border-radius:8px;'
            f'{_font(size)}">'
            f'<div style="display:flex;align-items:center;gap:10px;flex-wrap:wrap">'
            f"{badge}<span>{_sentence(verdict.reason)}</span></div>{meld}</div>")


def table_html(melds_by_player: Mapping[str, Sequence[Meld]], size: str = "normal") -> str:
    """The melds on the table, player by player."""
    sections = []
    for player, melds in melds_by_player.items():
        count = plural("{n} meld", "{n} melds", len(melds)) if melds else _t("no melds yet")
        body = "".join(meld_html(m, size) for m in melds)
        sections.append(
            f'<section aria-label="{escape(player)}" style="padding:6px 0;'
            f'border-bottom:1px solid {_RULE_COLOUR}">'
            f'<div style="font-weight:bold">{_bdi(player)} '
            f'<span style="font-weight:normal;{_MUTED}">· {count}</span></div>{body}</section>')
    return (f'<div class="tv-table" role="group" aria-label="{_t("Melds on the table")}" '
            f'style="{_font(size)}">{"".join(sections)}</div>')


def _pile(top: str, caption: str, size: str, stacked: bool) -> str:
    width = _width(size)
    depth = max(2, round(width * 0.035))
    shadow = (f"box-shadow:{depth}px {depth}px 0 -1px #ffffff,{depth}px {depth}px 0 0 #8a8a8a,"
              f"{2 * depth}px {2 * depth}px 0 -1px #ffffff,{2 * depth}px {2 * depth}px 0 0 "
              f"#8a8a8a;" if stacked else "")
    return (f'<figure style="margin:0;margin-inline-end:{3 * depth}px;text-align:center">'
            f'<div style="display:inline-block;line-height:0;border-radius:{width * 0.08}px;'
            f'{shadow}">{top}</div><figcaption style="margin-top:{2 * depth + 4}px">'
            f"{caption}</figcaption></figure>")


def _empty_slot(size: str, name: str) -> str:
    width = _width(size)
    return (f'<span role="img" aria-label="{escape(name)}" style="display:inline-flex;'
            f"align-items:center;justify-content:center;box-sizing:border-box;"
            f"width:{width}px;height:{round(width * _ASPECT)}px;line-height:1.2;"
            f'border:2px dashed {_RULE_COLOUR};border-radius:{width * 0.08}px">'
            f'<span style="{_MUTED}">{_t("empty")}</span></span>')


def piles_html(stock_count: int, discard_top: Card | None, discard_count: int,
               size: str = "normal") -> str:
    """The stock (face down, with its count) and the discard pile (its top card)."""
    def caption(title: str, n: int) -> str:
        return f"<b>{_t(title)}</b><br/>{plural('{n} card', '{n} cards', n)}"

    stock = card_html(None, size) if stock_count else _empty_slot(size, _t("Empty stock"))
    discard = (card_html(discard_top, size) if discard_top is not None and discard_count
               else _empty_slot(size, _t("Empty discard pile")))
    return (f'<div class="tv-piles" role="group" aria-label="{_t("Stock and discard pile")}" '
            f'style="display:flex;gap:{_width(size) // 3}px;align-items:flex-start;'
            f'{_font(size)}">'
            + _pile(stock, caption("Stock", stock_count), size, stock_count > 1)
            + _pile(discard, caption("Discard pile", discard_count), size, discard_count > 1)
            + "</div>")


def _places(totals: Sequence[int]) -> list[str]:
    """Final places, lowest total first; equal totals share a place: `["1=", "1=", "3"]`."""
    return list(place_labels(totals))


def _format_places(ranks: Sequence[int | str]) -> list[str]:
    return [r if isinstance(r, str) else f"{r}" + ("=" if list(ranks).count(r) > 1 else "")
            for r in ranks]


def score_sheet_html(players: Sequence[str], rows: Sequence[Sequence[int | None]],
                     totals: Sequence[int] | None = None,
                     ranks: Sequence[int | str] | None = None,
                     highlight_round: int | None = None, size: str = "normal",
                     rounds: int = ROUNDS) -> str:
    """The score sheet: rounds 1–`rounds` (a game's 11, or a shorter tournament's) with
    their contracts down the side, one column per player, each score with the running
    total (Σ), then totals and places. The lowest total is bold and marked "★ lowest";
    `highlight_round` marks the round in play."""
    if not 1 <= rounds <= ROUNDS:
        raise ValueError(f"a game has 1 to {ROUNDS} rounds, not {rounds}")
    if len(rows) > rounds:
        raise ValueError(f"a game of {rounds} rounds has no row {len(rows)}")
    for number, row in enumerate(rows, 1):
        if len(row) != len(players):
            raise ValueError(f"round {number} has {len(row)} scores for {len(players)} players")
    played = totals is not None or any(s is not None for row in rows for s in row)
    if totals is None:
        totals = [sum(row[p] or 0 for row in rows) for p in range(len(players))]
    shown = _format_places(ranks) if ranks is not None else _places(totals)
    lowest = min(totals) if played and totals else None
    cell = f"padding:3px 10px;border-bottom:1px solid {_RULE_COLOUR};text-align:end"
    head = "".join(f'<th scope="col" style="{cell}">{_bdi(p)}</th>' for p in players)
    body = []
    running = [0] * len(players)
    for number in range(1, rounds + 1):
        row = rows[number - 1] if number <= len(rows) else [None] * len(players)
        current = number == highlight_round
        scores = []
        for p, score in enumerate(row):
            if score is None:
                scores.append(f'<td style="{cell}"></td>')
                continue
            running[p] += score
            scores.append(f'<td style="{cell}">' + _ltr(
                f'{score} <small style="{_MUTED}" title="{_t("running total")}">'
                f"Σ{running[p]}</small>") + "</td>")
        marker = "▶ " if current else ""
        style = "background:rgba(127,127,127,.16);font-weight:bold" if current else ""
        current_attr = ' aria-current="step"' if current else ""
        body.append(f'<tr style="{style}"{current_attr}>'
                    f'<th scope="row" style="{cell}">{marker}{number}</th>'
                    f'<td style="{cell};text-align:start">{contract_for(number)}</td>'
                    f'{"".join(scores)}</tr>')
    total_cells = "".join(
        f'<td style="{cell}"><strong>{t}</strong> <span>★ {_t("lowest")}</span></td>'
        if t == lowest else f'<td style="{cell}">{t}</td>' for t in totals)
    place_cells = "".join(f'<td style="{cell}">{_ltr(escape(r))}</td>' for r in shown)
    foot = (f'<tr><th scope="row" colspan="2" style="{cell}">{_t("Total")}</th>{total_cells}'
            f'</tr><tr><th scope="row" colspan="2" style="{cell}">{_t("Place")}</th>'
            f'{place_cells}</tr>')
    return (f'<table class="tv-score-sheet" style="border-collapse:collapse;'
            f'font-variant-numeric:tabular-nums;margin:4px 0;{_font(size)}">'
            f'<caption style="text-align:start;font-weight:bold;padding:4px 0">'
            f'{_t("Score sheet")}</caption><thead><tr><th scope="col" style="{cell}">'
            f'{_t("Round")}</th><th scope="col" style="{cell};text-align:start">'
            f'{_t("Contract")}</th>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody><tfoot>{foot}</tfoot></table>')


def game_html(view: PlayerView, size: str = "normal") -> str:
    """A player's view of a game: whose turn, the piles, the table, their own hand and the
    others' hand sizes. Hidden cards stay hidden."""
    names = view.names
    status = _t("Round {r} · {contract} · {name} to play", r=view.round_number,
                contract=str(view.contract), name=escape(names[view.current]))
    others = " · ".join(f"{_bdi(names[s])}: {plural('{n} card', '{n} cards', n)}"
                        for s, n in enumerate(view.hand_sizes) if s != view.seat)
    table = table_html({names[s]: view.table[s] for s in range(len(names))}, size)
    return (f'<div class="tv-game" style="{_font(size)}"><div style="font-weight:bold">'
            f"{status}</div><div style=\"{_MUTED}\">{others}</div>"
            f"{piles_html(view.stock_size, view.discard_top, view.discard_size, size)}"
            f"{table}{hand_html(view.hand, size, label=names[view.seat])}</div>")


# -- a whole position ---------------------------------------------------------------------
#: who decides now, by phase
_TO_ACT = {"draw": N_("{name} to draw"), "buy": N_("{name}: the discard is offered to buyers"),
           "play": N_("{name} to play"), "game_over": N_("{name}: the game is over")}


def state_html(game: Any, size: str = "normal", reveal: bool = True,
               highlight: Mapping[int, Sequence[int]] | None = None) -> str:
    """A picture of a whole game position for teaching: whose turn, the piles, every
    hand (face up when `reveal`, else only its size) and the melds on the table.
    `highlight` maps a seat to positions in its hand to lift (e.g. cards just bought)."""
    view = game.view(game.current)
    names = game.names
    phase = translate(_TO_ACT[view.phase.value])
    who = phase.format(name=f"<b>{escape(names[view.current])}</b>")
    head = (f'<div style="font-size:{TEXT_PX[size]}px;margin:4px 0">'
            + _t("<b>Round {r}</b> · contract {contract} · dealer {dealer}",
                 r=view.round_number, contract=escape(str(view.contract)),
                 dealer=escape(names[view.dealer]))
            + f" · {who}</div>")
    hands = []
    for seat, name in enumerate(names):
        down = " · " + _t("down") if view.down[seat] else ""
        turn = " · " + _t("to play") if seat == view.current and not game.is_over else ""
        n = view.hand_sizes[seat]
        cards = plural("{n} card", "{n} cards", n)
        label = f"{name}{turn}{down} · {cards}"
        if reveal:
            chosen = (highlight or {}).get(seat, ())
            hands.append(hand_html(game.hand(seat), size, chosen, label=label))
        else:
            hands.append(f"<div>{escape(label)}</div>")
    piles = piles_html(view.stock_size, view.discard_top, view.discard_size, size)
    table = table_html(dict(zip(names, view.table, strict=True)), size)
    return f'<div class="tv-state">{head}{piles}{"".join(hands)}{table}</div>'
