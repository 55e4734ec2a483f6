"""The rulebook as a page of the app, and the navigation bar that leads to it.

    python tools/rulebook.py          write notebooks/rulebook.ipynb from docs/rules.md (one
                                      markdown cell per `##` section) and put the same
                                      navigation bar in the first cell of every notebook
    python tools/rulebook.py check    exit 1, saying which file, when either is not current

docs/rules.md stays the one source of the rules; the notebook is generated from it, so a
rule changed there reaches the app (and its translations, through `tools/i18n.py update`)
by running this tool. The navigation bar is generated too: every page listed in `PAGES`,
the page itself in bold; its labels are translated once for all notebooks (see
`toonerville.pages.prose.nav_items`).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
RULES = ROOT / "docs" / "rules.md"
RULEBOOK = NOTEBOOKS / "rulebook.ipynb"

#: The pages of the navigation bar, in order: (file, label).
PAGES: tuple[tuple[str, str], ...] = (
    ("00-welcome.ipynb", "Welcome"),
    ("01-deck-and-deal.ipynb", "1 Deck and deal"),
    ("02-runs-and-sets.ipynb", "2 Runs and sets"),
    ("03-contracts.ipynb", "3 Contracts"),
    ("04-turn-and-buying.ipynb", "4 A turn and buying"),
    ("05-the-rook.ipynb", "5 The Rook"),
    ("06-going-out-and-scoring.ipynb", "6 Going out and scoring"),
    ("07-play-a-game.ipynb", "7 Play a game"),
    ("08-rules-explorer.ipynb", "8 Rules explorer"),
    ("09-classroom.ipynb", "9 Classroom"),
    ("10-tournament.ipynb", "10 Tournament"),
    ("11-live-board.ipynb", "11 Live board"),
    ("12-dashboard.ipynb", "12 Class dashboard"),
    ("rulebook.ipynb", "Rulebook"),
)
NAV_ID = "navigation"

_KERNEL = {
    "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python",
                   "name": "python3"},
    "language_info": {"name": "python"},
}
#: the rulebook's only code cell: the language picker, as on every page
_PICKER = ("from toonerville.widgets import LanguagePicker\n\n"
           "LanguagePicker()  # the language of the page; a Voila URL may say ?lang=de")
#: a printed rulebook is the rules alone: no navigation, no widgets, no prompts
#: Voila shows a page only once its kernel has run, so the browser's own jump to
#: `rulebook.ipynb#T14` finds the rule hidden: jump again once the page is shown (and
#: after the widgets above have taken their height)
FRAGMENT_SCRIPT = (
    "<script>(function () { var tries = 0; function jump() { var id = "
    "decodeURIComponent(window.location.hash.slice(1)); var target = id && "
    "document.getElementById(id); if (target) { target.parentElement.scrollIntoView(); } } "
    "function wait() { var cells = document.getElementById('rendered_cells'); "
    "if (!cells || cells.style.display !== 'none') { jump(); setTimeout(jump, 700); "
    "setTimeout(jump, 2000); return; } if (++tries < 600) { setTimeout(wait, 200); } } "
    "window.addEventListener('DOMContentLoaded', wait); })();</script>")
PRINT_STYLE = ("<style>@media print { .jp-Cell:has(a[href^='00-welcome.']), .jp-CodeCell, "
               ".jp-OutputArea "
               "{ display: none !important; } }</style>")


def nav_bar(current: str) -> str:
    """The navigation bar of the notebook `current` (a file name)."""
    return " · ".join(f"**{label}**" if page == current else f"[{label}]({page})"
                      for page, label in PAGES)


def sections(markdown: str) -> list[str]:
    """docs/rules.md cut before each `## ` heading (the title and introduction first)."""
    parts = re.split(r"\n(?=## )", markdown.strip("\n"))
    return [p.strip("\n") for p in parts if p.strip()]


def _markdown(cell_id: str, text: str) -> dict[str, Any]:
    return {"cell_type": "markdown", "id": cell_id, "metadata": {}, "source": _lines(text)}


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def rulebook_notebook(markdown: str) -> dict[str, Any]:
    """The rulebook page built from the text of docs/rules.md."""
    cells: list[dict[str, Any]] = [
        _markdown(NAV_ID, nav_bar(RULEBOOK.name)),
        {"cell_type": "code", "execution_count": None, "id": "language",
         "metadata": {}, "outputs": [],
         "source": _lines(_PICKER)},
    ]
    for n, text in enumerate(sections(markdown)):
        if n == 0:
            text = text + "\n\n" + PRINT_STYLE + "\n\n" + FRAGMENT_SCRIPT
        cells.append(_markdown(f"rules-{n:02d}", text))
    return {"cells": cells, "metadata": dict(_KERNEL), "nbformat": 4, "nbformat_minor": 5}


def dumps(nb: dict[str, Any]) -> str:
    """A notebook as Jupyter writes it (one-space indent, UTF-8 kept, final newline)."""
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def with_nav_bar(nb: dict[str, Any], name: str) -> dict[str, Any]:
    """`nb` with its first cell the navigation bar of `name`: a first markdown cell that
    is already a navigation bar is rewritten, otherwise a new first cell is added."""
    from toonerville.pages.prose import nav_items

    cells = nb["cells"]
    bar = nav_bar(name)
    first = cells[0] if cells else None
    if first is not None and first["cell_type"] == "markdown" \
            and nav_items("".join(first["source"]).strip()) is not None:
        if "".join(first["source"]) != bar:
            first["source"] = _lines(bar)
    else:
        cells.insert(0, _markdown(NAV_ID, bar))
    return nb


def planned() -> dict[Path, str]:
    """Every file this tool writes, with the text it should have."""
    sys.path.insert(0, str(ROOT))
    out = {RULEBOOK: dumps(rulebook_notebook(RULES.read_text(encoding="utf-8")))}
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        if path == RULEBOOK:
            continue
        nb = json.loads(path.read_text(encoding="utf-8"))
        out[path] = dumps(with_nav_bar(nb, path.name))
    return out


def main(argv: list[str]) -> int:
    if argv not in ([], ["check"]):
        print(__doc__)
        return 2
    stale = []
    for path, text in planned().items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        if argv == ["check"]:
            stale.append(path)
        else:
            path.write_text(text, encoding="utf-8")
            print(f"{path.relative_to(ROOT)}: written")
    for path in stale:
        print(f"{path.relative_to(ROOT)} is not current: run `python tools/rulebook.py`")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
