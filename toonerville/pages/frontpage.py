"""The words of the kit's static pages: the front page and the frame of the rulebook page.

The front page (the first page of the static site and the root of the Voila app) and the
printable rulebook page are plain HTML with no kernel behind them, written by
`tools/pages.py` in every language of the kit. Their English texts live here, marked with
`N_` so they reach the kit's catalogues (`python tools/i18n.py update`) like every other
sentence; `texts(lang)` gives them in one language. The lessons' titles are the labels of
the navigation bar, translated in the `prose` catalogue (`tools/rulebook.py` lists them).

Pure standard library, like the rest of the engine; nothing here builds HTML.
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping
from types import MappingProxyType

from ..engine.messages import DOMAIN, LOCALE_DIR, N_, normalise

#: key → English text of the front page and the rulebook page's frame
TEXTS: Mapping[str, str] = MappingProxyType({
    "title": N_("Toonerville Rook"),
    "tagline": N_("A card game to learn, play and explore in your browser."),
    "about": N_("Toonerville Rook is a rummy card game for three to five players, played "
                "over eleven rounds. These pages teach it one rule at a time, with cards "
                "you can try at once, then let you play a whole game against the "
                "computer and test house rules of your own. Every rule has a short id, "
                "such as T14, and that id always leads to the rulebook."),
    "start": N_("Start with the first lesson"),
    "lessons": N_("The lessons, in order"),
    "language": N_("Language"),
    "rulebook_line": N_("Every rule on one page, to read or to print."),
    "teachers": N_("For teachers"),
    "teachers_body": N_("Lessons 9 and 10 let a class play together: learners sit at "
                        "shared tables, each on their own screen, and a tournament seats "
                        "the whole class and keeps one score sheet. For that, one computer "
                        "in the room runs the kit for everybody; the README says how to "
                        "start it with two commands and how many learners it can serve."),
    "readme_link": N_("Instructions for the classroom (README)"),
    "offline": N_("Everything here works without an internet connection."),
    "rulebook_title": N_("Rulebook"),
    "home": N_("Front page"),
    "print": N_("Print the rulebook"),
})

#: notebook file → one line saying what the lesson is about (its title is its navigation
#: label)
LESSON_LINES: Mapping[str, str] = MappingProxyType({
    "00-welcome.ipynb": N_("What the game is about and how these pages work."),
    "01-deck-and-deal.ipynb": N_("The 57-card Rook deck, one deck per player, and the deal."),
    "02-runs-and-sets.ipynb": N_("Which cards make a run and which make a set."),
    "03-contracts.ipynb": N_("The contract of each of the eleven rounds."),
    "04-turn-and-buying.ipynb": N_("Drawing, discarding, and buying a discard out of turn."),
    "05-the-rook.ipynb": N_("The Rook, the wild card, and how to swap it out of a meld."),
    "06-going-out-and-scoring.ipynb": N_("Going out, and how the cards left in a hand "
                                         "are scored."),
    "07-play-a-game.ipynb": N_("A whole game against the computer."),
    "08-rules-explorer.ipynb": N_("Let the computer play many games to see what a house "
                                  "rule changes."),
    "09-classroom.ipynb": N_("Play together: on one device, or at a shared table."),
    "10-tournament.ipynb": N_("A tournament for a whole class."),
    "11-live-board.ipynb": N_("One position for the whole class: everyone answers, the "
                              "coach gives its verdict."),
    "12-dashboard.ipynb": N_("For the teacher: each learner's progress, live."),
})


def texts(lang: str) -> dict[str, str]:
    """Every text of `TEXTS` and `LESSON_LINES` in `lang` (English where the catalogue
    lacks one)."""
    code = normalise(lang)
    translation = gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[code],
                                      fallback=True)
    out = {key: translation.gettext(text) for key, text in TEXTS.items()}
    out.update({name: translation.gettext(text) for name, text in LESSON_LINES.items()})
    return out


__all__ = ["TEXTS", "LESSON_LINES", "texts"]
