"""The kit's widgets: the only part of Toonerville Rook that imports ipywidgets.

Laid out by job (each module's docstring says what it owns):

- the base      `base` (size, language, message box, guard, text boxes)
- URL, language `url` (?seed= ?size= ?lang=), `language` (`LanguagePicker`),
                `words` (the names of a menu's choices)
- cards, table  `cards` (card pickers, hand and meld pictures), `board` (table, piles,
                score sheet, log), `stepper` (a game step by step)
- settings      `settings` (card size, house rules)
- the seat      `seat` (the one seat view of every table), `seat_text`, `hand` (the
                learner's hand, by colour or number), `recap` (the end of a round)
- the pages     `play` (07, with `session`, `play_panels`, `play_text`), `lessons`
                (01–06), `explorer` (08), `passplay` and `classroom` (09),
                `tournament` (10)
"""

from ..pages.render import state_html
from .base import MessageBox, guard, size_style
from .board import EventLog, PilesView, ScoreSheet, TableView
from .cards import CardButton, HandPicker, HandView, MeldView, VerdictView
from .language import LanguagePicker, rtl_style
from .settings import HouseRulesPanel, SizeToggle
from .stepper import HistoryStepper
from .url import lang_from_url, seed_from_url

__all__ = [
    "CardButton", "EventLog", "HandPicker", "HandView", "HistoryStepper", "HouseRulesPanel",
    "LanguagePicker", "MeldView", "MessageBox", "PilesView", "ScoreSheet", "SizeToggle",
    "TableView", "VerdictView", "guard", "lang_from_url", "rtl_style", "seed_from_url",
    "size_style", "state_html",
]
