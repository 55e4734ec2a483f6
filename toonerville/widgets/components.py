"""The widgets' building blocks under their old address: every name that lived here is
importable from here still (notebooks, lessons and saved code use them).

They live in modules by job now:

- `url`       the page's address: `query_params`, `seed_from_url`, `size_from_url`,
              `lang_from_url`, `url_notes`
- `language`  `LanguagePicker`, `apply_language`, `initial_language`, `rtl_style`
- `cards`     `CardButton`, `HandPicker`, `HandView`, `MeldView`, `VerdictView`
- `board`     `TableView`, `PilesView`, `ScoreSheet`, `EventLog`, `melds_by_player`
- `stepper`   `HistoryStepper` (a picture of each position: `render.state_html`)
- `settings`  `SizeToggle`, `HouseRulesPanel`, `SIZE_CHOICES`, `RULE_LABELS`
- `base`      `MessageBox`, `guard`, `CappedText`, `PageStyle`, `Part`, `relabel`,
              `size_style` (the one base every widget stands on)
"""

from __future__ import annotations

from ..pages.render import TEXT_PX, state_html
from .base import (
    MAX_CHARS,
    SIZE_CSS,
    SOMETHING_WENT_WRONG,
    CappedText,
    MessageBox,
    PageStyle,
    Part,
    check_size,
    guard,
    page_css,
    relabel,
    show_direction,
    size_style,
)
from .board import EventLog, PilesView, ScoreSheet, TableView, melds_by_player
from .cards import CardButton, HandPicker, HandView, MeldView, VerdictView
from .language import RTL_CSS, LanguagePicker, apply_language, initial_language, rtl_style
from .settings import (
    RULE_LABELS,
    RULE_TEXT_CHARS,
    SIZE_CHOICES,
    HouseRulesPanel,
    SizeToggle,
)
from .stepper import HistoryStepper
from .url import lang_from_url, query_params, seed_from_url, size_from_url, url_notes

#: Every public name, its own and those of `base` it re-exports (components was their home).
__all__ = [
    "apply_language", "CappedText", "CardButton", "check_size", "EventLog", "guard",
    "HandPicker", "HandView", "HistoryStepper", "HouseRulesPanel", "initial_language",
    "lang_from_url", "LanguagePicker", "MAX_CHARS", "melds_by_player", "MeldView",
    "MessageBox", "page_css", "PageStyle", "Part", "PilesView", "query_params", "relabel",
    "RTL_CSS", "rtl_style", "RULE_LABELS", "RULE_TEXT_CHARS", "ScoreSheet", "seed_from_url",
    "show_direction", "SIZE_CHOICES", "SIZE_CSS", "size_from_url", "size_style",
    "SizeToggle", "SOMETHING_WENT_WRONG", "state_html", "TableView", "TEXT_PX", "url_notes",
    "VerdictView",
]
