"""The shared-table store's refusals, in a learner's words.

Owns the error types of `toonerville.store`: each is a `ToonervilleError` carrying a
`Message`, so a page shows it like any other refusal of the engine. A refused store call
has changed nothing in the database.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.errors import ToonervilleError
from ..engine.messages import Message

if TYPE_CHECKING:
    from ..engine.game import Game


class StoreError(ToonervilleError):
    """Base of every refusal of the shared-table store."""


class NoSuchTableError(StoreError):
    """A table (or tournament) code that is not in this store, or is not a code at all."""


class TableMovedOnError(StoreError):
    """A move sent for a state the table has already left: someone else moved first.
    Nothing was stored; fetch the new state and decide again."""

    def __init__(self, message: Message, number: int) -> None:
        super().__init__(message)
        self.number = number  # how many moves the table has now


class SeatError(StoreError):
    """A seat that is taken, not free to claim, or a secret that does not match."""


class TableOverError(StoreError):
    """A move at a table whose game (or tournament round) is finished."""


class CorruptTableError(StoreError):
    """A stored row the engine cannot accept: bad notation, a move refused on replay, a
    gap in the move numbers, or a row of another format. Nothing stored is changed;
    `game` is the table replayed up to the last good move, so it can still be saved."""

    def __init__(self, message: Message, code: str, move_number: int | None,
                 game: Game | None) -> None:
        super().__init__(message)
        self.code = code
        self.move_number = move_number
        self.game = game


def cause(err: Exception) -> Message | str:
    """Why a stored row could not be read, as the learner will read it: the engine's
    sentence (rendered in the language of the moment it is shown), or a short excerpt of
    anything else."""
    return err.message if isinstance(err, ToonervilleError) else str(err)[:200]


class StoreUnavailableError(StoreError):
    """The database did not answer for longer than the store waits (a server restarting,
    a file locked), or failed in a way that trying again does not mend. A write asked for
    may or may not have been made: look at the table again, then try again."""


class TeacherKeyError(StoreError):
    """A teacher's action (start a tournament, the next round) without the teacher's key."""


class BadNameError(StoreError):
    """A name for a seat that is empty, too long or holds characters a name cannot."""


class NoSuchClassError(NoSuchTableError):
    """A class code that is not in this store, or is not a code at all."""


class NameTakenError(BadNameError):
    """A name another learner of the class has already joined under."""
