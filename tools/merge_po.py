"""Fill a catalogue's empty entries from another copy of it (a translator's branch).

    python tools/merge_po.py TARGET.po SOURCE.po [--prefer-source]

Every entry of TARGET whose translation is empty, and which SOURCE translates for the same
text (and context), takes SOURCE's translation — or, for a sentence that now starts with a
capital, SOURCE's translation of it in lower case, capitalised; nothing else changes.
With `--prefer-source`, an entry both translate takes SOURCE's wording (a translator's
branch that also revised earlier translations). This is how
translations done on a branch join a catalogue that has moved on meanwhile, without a
line-by-line merge of two .po files.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.pofile import read_po

sys.path.insert(0, str(Path(__file__).resolve().parent))
from i18n import _write_po  # noqa: E402


def _done(string: object) -> bool:
    return all(string) if isinstance(string, tuple) else bool(string)


def merge(target: Path, source: Path, prefer_source: bool = False) -> int:
    with target.open("rb") as f:
        mine = read_po(f)
    with source.open("rb") as f:
        theirs = read_po(f)
    filled = 0
    for message in mine:
        if not message.id or (_done(message.string) and not prefer_source):
            continue
        other = theirs.get(message.id, message.context)
        if other is not None and _done(other.string) and not other.fuzzy:
            if other.string != message.string:
                message.string = other.string
                filled += 1
        elif not _done(message.string) and isinstance(message.id, str) \
                and message.id[:1].isupper():
            # the same sentence, now starting with a capital: its translation, capitalised
            other = theirs.get(message.id[0].lower() + message.id[1:], message.context)
            if other is not None and isinstance(other.string, str) and other.string:
                message.string = other.string[0].upper() + other.string[1:]
                filled += 1
    _write_po(target, mine)
    return filled


if __name__ == "__main__":
    prefer = "--prefer-source" in sys.argv
    target, source = (Path(a) for a in sys.argv[1:] if a != "--prefer-source")
    print(f"{target}: {merge(target, source, prefer)} entries filled or changed")
