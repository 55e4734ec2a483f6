"""Players' names: how two names compare, and the names bots sit under.

Owns `name_key` / `same_name` (names compared as people expect: case, width (Unicode
NFKC: "Ｂｏ" is "Bo") and spaces ignored, so "bo" is "Bo") and `bot_names`, the birds'
names every table gives its bots ("Crow", "Jay", …): unique at a table and never one a
learner there has, as `same_name` compares. Pure standard library: the engine (a
tournament's bots), the store (a shared table's seats) and the widgets (pass-and-play)
use the same rule.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

#: the bots' names, in the order tables hand them out (07's first four: `BOT_NAMES`);
#: "Robin", the play app's learner, is not among them
BIRDS = ("Crow", "Jay", "Magpie", "Raven", "Wren", "Finch", "Heron", "Lark", "Owl",
         "Swift", "Kite", "Plover", "Sparrow", "Starling", "Dove", "Gull")


def name_key(text: str) -> str:
    """What two names that people would call the same have in common: NFKC, case
    folded, spaces at the ends dropped and inner runs made one."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def same_name(a: str, b: str) -> bool:
    return name_key(a) == name_key(b)


def bot_names(count: int, taken: Iterable[str] = ()) -> tuple[str, ...]:
    """`count` bots' names: the birds in order ("Crow", "Jay", …; past the last bird
    "Crow 2", "Jay 2", …), skipping every name that is one of `taken` as `same_name`
    compares ("crow" takes "Crow"), so no two players of a table share a name."""
    used = {name_key(n) for n in taken}
    names: list[str] = []
    lap = 1
    while len(names) < count:
        for bird in BIRDS:
            name = bird if lap == 1 else f"{bird} {lap}"
            if len(names) < count and name_key(name) not in used:
                used.add(name_key(name))
                names.append(name)
        lap += 1
    return tuple(names)
