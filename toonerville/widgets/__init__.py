"""The kit's widgets: the only part of Toonerville Rook that imports ipywidgets.

- `components` building blocks: card pickers, pictures of melds, the table, the piles
  and the score sheet, a history stepper, a house-rules panel, a size toggle, a
  message box, `seed_from_url` for reproducible demonstration deals, and the
  `LanguagePicker` (`lang_from_url` reads `?lang=fa`)
- `lessons`    one widget per teaching notebook 01–06
- `play`       the full game app of notebook 07
"""

from .components import (
    CardButton,
    EventLog,
    HandPicker,
    HandView,
    HistoryStepper,
    HouseRulesPanel,
    LanguagePicker,
    MeldView,
    MessageBox,
    PilesView,
    ScoreSheet,
    SizeToggle,
    TableView,
    VerdictView,
    guard,
    lang_from_url,
    rtl_style,
    seed_from_url,
    size_style,
    state_html,
)

__all__ = [
    "CardButton", "EventLog", "HandPicker", "HandView", "HistoryStepper", "HouseRulesPanel",
    "LanguagePicker", "MeldView", "MessageBox", "PilesView", "ScoreSheet", "SizeToggle",
    "TableView", "VerdictView", "guard", "lang_from_url", "rtl_style", "seed_from_url",
    "size_style", "state_html",
]
