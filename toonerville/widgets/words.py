"""The kit's choices in the learner's words: what a menu shows for a bot kind.

Owns the one translated name of each bot kind (`bots.BOT_KINDS` are identifiers, never
shown as they are), so the lobby of pass-and-play, the tournament's set-up and the play
app's settings name a bot the same way in every language.
"""

from __future__ import annotations

from ..engine.messages import _
from ..players.bots import BOT_KIND_WORDS

__all__ = ["bot_kind_word"]


def bot_kind_word(kind: str) -> str:
    """A bot kind in the language in use; a kind of someone else's making as it is."""
    return _(BOT_KIND_WORDS[kind]) if kind in BOT_KIND_WORDS else kind


