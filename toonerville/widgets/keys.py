"""The card-game keys of a seat (07's game, the seat view of every table): the legend
and the hooks the page's key script reads.

Owns the key legend (`KEYS`, `keys_html`: every key, in the language in use, with the
two sentences the key script says itself, carried as data attributes so they follow
the page's language) and the step a seat decides next (`next_step`, shown as a class
`tr-next-<step>` on the prompt by `mark_next`). The keys themselves are the template's
script (`share/jupyter/voila/templates/toonerville/keys.js`): it presses the buttons a
learner could press, and nothing else, so every move still goes through the engine.
"""

from __future__ import annotations

from html import escape

import ipywidgets as widgets

from ..engine.events import Phase
from ..engine.messages import N_, _
from ..engine.views import PlayerView

#: the key legend (keys, what they do), in the order of a turn; the keys are the letters
#: and digits on the keyboard, the same in every language (only words are translated)
KEYS = (
    ("D", N_("draw from the stock")),
    ("T", N_("take the discard")),
    ("1 … 9, 0", N_("select card 1 … 10 of your hand (the number on its badge); the same "
                    "digit again selects card 11 … 20 (card 14: press 4 twice)")),
    ("← → Home End", N_("move across your hand; Space selects or unselects a card")),
    ("X", N_("discard the selected card")),
    ("S / L", N_("suggest a lay-down / lay it down")),
    ("H / U", N_("hint / take back your last move")),
    ("B / P", N_("buy the card on offer / pass")),
    (N_("Enter on an offer"), N_("pass, the safe answer (to buy, press B or Tab to Buy)")),
    (N_("Tab / Shift+Tab"), N_("next / previous control; Enter or Space presses it")),
    (N_("An ordinary turn"), N_("D, the card's number (one or two digits), X: at most 4 "
                                "keys. No key acts while you type in a box or a list")),
)

#: what the key script says for a key whose button cannot be pressed now ({button}: its
#: label, {prompt}: the page's prompt)
NOT_NOW = N_("{button}: not now. {prompt}")
#: what it says for a digit past the end of the hand
NO_CARD = N_("Your hand has no card {n}: it holds {count} cards.")

#: the steps a seat may decide next (`next_step`)
STEPS = ("buy", "draw", "play", "wait", "over")


def keys_html() -> str:
    """The key legend, in the language in use (with the key script's own sentences);
    a key name without a translation (a letter) stays as it is."""
    rows = "".join(f"<li><kbd>{escape(_(keys))}</kbd>: {escape(_(what))}</li>"
                   for keys, what in KEYS)
    return (f'<div class="tr-keys-box" data-not-now="{escape(_(NOT_NOW))}" '
            f'data-no-card="{escape(_(NO_CARD))}"><b>{escape(_("Keys"))}</b>'
            f'<ul class="tr-keys-list">{rows}</ul></div>')


def next_step(view: PlayerView | None, seat: int | None, finished: bool = False) -> str:
    """What `seat` decides next in `view`: "buy" (an offer), "draw", "play", "wait" (the
    others, or no seat shown) or "over"."""
    if finished:
        return "over"
    if view is None or seat is None or seat not in view.deciders:
        return "wait"
    if view.phase is Phase.BUY:
        return "buy"
    return "draw" if view.phase is Phase.DRAW else "play"


def mark_next(widget: widgets.DOMWidget, step: str) -> None:
    """Give `widget` (the prompt) the class `tr-next-<step>`, and no other step's: the
    key script puts the focus where the next action is from it."""
    for other in STEPS:
        if other != step:
            widget.remove_class(f"tr-next-{other}")
    widget.add_class(f"tr-next-{step}")
