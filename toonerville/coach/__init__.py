"""The coach: a strong bot, bot levels, hints that weigh the choices, round reviews.

`strong` (the bot and its search), `memory` (what a seat has seen, and worlds consistent
with it), `levels` (the beginner bot, the levels' descriptions, comparing levels),
`shrink` (what a measured cost says about the true one, given a prior), `hint` and
`review`. Engine code: standard library only.

Importing the coach registers its bots in the players' registry (`players.bots.BOTS`):
"beginner" and "strong". The package imports it, so `make_bot("strong")` always works.
"""

from __future__ import annotations

from ..players.bots import register_bot
from .levels import BeginnerBot
from .strong import Decision, StrongBot, Weighed

register_bot("beginner", BeginnerBot)
register_bot("strong", StrongBot)

__all__ = ["Decision", "StrongBot", "Weighed"]
