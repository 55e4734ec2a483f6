"""The coach: a strong bot, bot levels, hints that weigh the choices, round reviews.

`strong` (the bot and its search), `memory` (what a seat has seen, and worlds consistent
with it), `levels` (the beginner bot, the levels' descriptions, comparing levels),
`hint` and `review`. Engine code: standard library only.
"""

from __future__ import annotations

from .strong import Decision, StrongBot, Weighed

__all__ = ["Decision", "StrongBot", "Weighed"]
