"""How the seat view (`seat.SeatView`) looks on every table page: `SEAT_CSS`, and the
table's card size a step below the hand's (`smaller`).

Owns the seat's own style, keyed to its class `tr-seat-view` and its size class
(`tv-size-*`, `base.Part`): the focus ring, the buy row's frame and the offers' numbers,
the rows of the board and the record, the log's scroller, and every sentence of the
seat (status, seats, prompt, offer, captions) at the text size of the card size, so
projector size scales the sentences too. The projector's two-column layout is
`projector.css`.
"""

from __future__ import annotations

from ..pages.render import SIZES, TEXT_PX

#: (CSS class, scale of the text size): the seat's sentences, sized with its cards
_SENTENCES = (("tr-status", 1.15), ("tr-prompt", 1.1), ("tr-others", 1.0),
              ("tr-offer", 1.0), ("tr-hand-title", 1.0), ("tr-log-title", 1.0))

SEAT_CSS = """<style>
.tr-seat-view .jupyter-button:focus-visible, .tr-seat-view select:focus-visible,
.tr-seat-view input:focus-visible, .tr-seat-view textarea:focus-visible {
  outline: 3px solid #1565c0; outline-offset: 2px; }
[data-jp-theme-light="false"] .tr-seat-view .jupyter-button:focus-visible,
[data-jp-theme-light="false"] .tr-seat-view select:focus-visible,
[data-jp-theme-light="false"] .tr-seat-view input:focus-visible { outline-color: #90caf9; }
.tr-seat-view .tr-prompt { margin-top: 6px; }
.tr-seat-view .tr-buy-row { border: 2px solid #ef6c00; border-radius: 8px;
  padding: 4px 10px; }
.tr-seat-view .tr-offer-even .tr-offer-number { background: #fff3e0; color: #4e2600; }
.tr-seat-view .tr-offer-odd .tr-offer-number { background: #e3f2fd; color: #0d2b52; }
.tr-seat-view .tr-offer-odd .tr-offer-number, .tr-seat-view .tr-offer-even .tr-offer-number {
  padding: 1px 6px; border-radius: 4px; }
.tr-seat-view .tr-seat-board, .tr-seat-view .tr-record { align-items: flex-start; gap: 28px; }
.tr-seat-view .tr-moves { border-top: 1px solid rgba(127,127,127,.45); padding-top: 6px; }
.tr-seat-view .tr-log-box { flex: 1 1 22em; min-width: 18em; }
.tr-seat-view .tr-log .tr-events { max-height: 18em; overflow-y: auto; }
.tr-seat-view .tr-note { font-style: italic; }
.tr-seat-view .tr-hand-title kbd { font-family: inherit; font-weight: bold; }
""" + "".join(
    f".tr-seat-view.tv-size-{name} .{css} {{ font-size: {round(px * scale)}px; }}\n"
    for name, px in TEXT_PX.items() for css, scale in _SENTENCES
) + "</style>"


def smaller(size: str) -> str:
    """The table's card size: one step below the hand's, so every meld fits in view."""
    order = list(SIZES)
    return order[max(0, order.index(size) - 1)]
