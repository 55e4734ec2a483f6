"""What a page says when the class's shared database is out of its reach.

Shared tables (09) and a tournament (10) keep their games in the store, which lives on
the server that runs the kit for a class. In the static site every page runs in the
learner's own browser and has no such store; in the served app the store may fail to
open. Either way the learner reads what it means for them, in their words, and in the
served app the reason follows for the teacher. Pure standard library.
"""

from __future__ import annotations

import sys

from ..engine.messages import Message, msg


def in_the_browser_only() -> bool:
    """True on the static site (Pyodide), where the page has no server behind it."""
    return sys.platform == "emscripten"


def no_shared_tables(problem: BaseException) -> Message:
    """Why the classroom page cannot open or join a table."""
    if in_the_browser_only():
        return msg("Shared tables need the kit running on one computer for the whole class. "
                   "This page runs only in your own browser, so nobody else can join a table "
                   "here. Ask your teacher for the class's address, or play with others on "
                   "this device with pass-and-play.", None)
    return msg("Shared tables cannot be opened: the class's database does not answer "
               "({why}). Tell your teacher.", None, why=str(problem)[:120])


def no_tournament(problem: BaseException | None) -> Message:
    """Why the tournament page cannot run a tournament."""
    if in_the_browser_only():
        return msg("A tournament needs the kit running on one computer for the whole class. "
                   "This page runs only in your own browser, so the class cannot share a "
                   "score sheet here. Ask your teacher for the class's address.", None)
    return msg("The tournament cannot start: the class's database does not answer "
               "({why}). Tell your teacher.", None,
               why=str(problem)[:120] if problem is not None else "-")


__all__ = ["in_the_browser_only", "no_shared_tables", "no_tournament"]
