"""One widget per teaching notebook (01–06), each a thin `VBox` over the engine, each in
its own module (`lesson01_deal` … `lesson06_scoring`, on `lesson.Lesson`), imported
from here by the notebooks.

- `DealDemo`          01: the shoe (T2), the deal one card at a time, stock and turn-up (T8, H3)
- `MeldChecker`       02: runs, sets and the Rook, with the engine's verdicts (T4–T6, H1, H8)
- `ContractExplorer`  03: a round's contract, what the solver lays down, and how often a
                      freshly dealt hand already meets it (T7, T15)
- `BuyDemo`           04: declining the discard, buying, priority, the penalty card (T9–T14)
- `RookDemo`          05: which card a Rook stands for, the swap, a Rook in a set (T6, T18, T19)
- `ScoringDemo`       06: going out (T16, T17), card points (T3), the score sheet, ties (T20, T21)

Every demonstration deal is seeded; the seed is shown and `?seed=N` in a Voila URL
reproduces it (`seed_from_url`; a seed that is not a number is said so on the page).
Every button is guarded: a refusal shows the engine's sentence, never a traceback.
Every lesson has a size toggle for projectors that scales the whole page, prose
included (`?size=large|projector` opens it so). Every lesson speaks the language in use
(`?lang=fa` in a Voila URL, or a `LanguagePicker` on the page) and follows a change of
it like every widget of the kit (`base.Part`), keeping what the learner has done. Every
rule id a lesson prints links to its rule; every text box caps what it holds.
"""

from __future__ import annotations

from .lesson import CARD_CHARS, Lesson
from .lesson01_deal import DealDemo
from .lesson02_melds import MeldChecker
from .lesson03_contracts import ContractExplorer, contract_rate, dealt_hand
from .lesson04_buying import BuyDemo
from .lesson05_rook import RookDemo
from .lesson06_scoring import ScoringDemo, places_text

__all__ = ["BuyDemo", "CARD_CHARS", "ContractExplorer", "DealDemo", "Lesson", "MeldChecker",
           "RookDemo", "ScoringDemo", "contract_rate", "dealt_hand", "places_text"]
