"""07 at projector size on a 1920x1080 screen (toonerville/widgets/projector.css): a
round fits one screen once the game is scrolled to the top: the hand on one row, the
table's melds and the score sheet in view; only the log scrolls, inside its own box."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.conftest import OpenNotebook

MEASURE_JS = """() => {
  const play = document.querySelector('.tr-play');
  play.scrollIntoView({block: 'start'});
  const box = sel => { const el = play.querySelector(sel);
    return el ? el.getBoundingClientRect().toJSON() : null; };
  const cards = [...play.querySelectorAll('.tr-hand .tv-card-picker-card')]
    .map(el => el.getBoundingClientRect().top);
  return {top: play.getBoundingClientRect().top, height: window.innerHeight,
          width: document.documentElement.clientWidth, cards,
          hand: box('.tr-hand'), moves: box('.tr-moves'), table: box('.tr-table'),
          sheet: box('.tr-score-sheet'), log: box('.tr-log-box'),
          scrollbar: document.documentElement.scrollWidth};
}"""


def test_07_a_round_fits_a_1920x1080_projector(open_notebook: OpenNotebook) -> None:
    voila = open_notebook("07-play-a-game.ipynb", size="projector", wait_for=".tr-hand")
    page = voila.page
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.locator(".tr-hand .tv-card-picker-card").nth(11).wait_for()
    m = page.evaluate(MEASURE_JS)
    assert len(m["cards"]) >= 12 and len({round(t) for t in m["cards"]}) == 1, m["cards"]
    for part in ("hand", "moves", "table", "sheet"):
        assert m[part] is not None, part
        assert m[part]["bottom"] <= m["height"] and m[part]["right"] <= m["width"], (part, m)
    assert m["log"]["left"] >= m["hand"]["right"]  # the record sits beside the turn
    assert m["scrollbar"] <= m["width"]  # no sideways scrolling
    assert voila.errors == []
