"""A learner's practice positions from a shared table, kept in the table's own store.

Owns `SeatPractice`, where notebook 09 keeps the practice list of the learner at a seat
(`coach.practice`: a reviewed round's costly decisions, to play again), so that the list
comes back with the seat when the learner rejoins after a reload, in a new kernel or on
another server of the same database. It is built on `Backend` (`keep_practice`,
`practice_list`), so it runs on SQLite and PostgreSQL alike and waits for a database that
does not answer for a moment (`retrying.RetryingBackend`).

A list belongs to whoever holds the seat's key: it is kept under the digest of the
table's code and the key (`owner`), so the store holds no key and no page reads another
seat's list. A tournament's learner, who changes tables, keeps one list under the
tournament's code and their learner's key (`widgets.tournament_seat`). The record is the
list as `coach.practice.dump_positions` writes it, compressed as the solo lists are
(`practice.packed_list`) and written as text (base64), the same on both databases; every
`keep` replaces it. Bounded like the solo games' lists (`store.practice`): one record per seat
holder, a list of at most `coach.practice.MAX_TEXT` characters, records not kept again
for `solo.KEEP_DAYS` are deleted. A record that cannot be unpacked is refused with
`CorruptTableError`; what it holds is never read as anything else.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import time

from ..engine.messages import msg
from .backend import Backend, unreadable_practice
from .errors import StoreError
from .practice import packed_list, unpacked_list
from .solo import KEEP_DAYS

DAY_S = 86_400


def owner(code: str, secret: str) -> str:
    """The name a seat holder's list is kept under: a digest of the table's code and the
    seat's key (the key itself is never stored)."""
    return hashlib.blake2b(f"practice\0{code}\0{secret}".encode(), digest_size=16).hexdigest()


class SeatPractice:
    """The practice lists of the learners at shared tables, in `backend`."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    def __repr__(self) -> str:
        return f"SeatPractice({self.backend!r})"

    def keep(self, code: str, secret: str, text: str, now: float | None = None) -> None:
        """Keep the list `text` for the holder of `secret` at table `code`, replacing what
        was there; a text too long is refused with `StoreError`, nothing written."""
        if not secret:
            raise StoreError(msg("practice positions are kept for a seat's key; this page "
                                 "has none", None))
        packed = base64.b64encode(packed_list(text)).decode("ascii")
        now = time.time() if now is None else now
        self.backend.keep_practice(owner(code, secret), packed, int(now),
                                   int(now - KEEP_DAYS * DAY_S))

    def find(self, code: str, secret: str, now: float | None = None) -> str | None:
        """The list kept for the holder of `secret` at table `code` (its text), or None;
        `CorruptTableError` if the record cannot be unpacked."""
        if not secret:
            return None
        found = self.backend.practice_list(owner(code, secret))
        if found is None:
            return None
        packed, saved = found
        now = time.time() if now is None else now
        if saved < now - KEEP_DAYS * DAY_S:
            return None
        try:
            raw = base64.b64decode(packed.encode("ascii"), validate=True)
        except (ValueError, binascii.Error) as err:  # not ASCII, or not base64
            raise unreadable_practice() from err
        text = unpacked_list(raw)
        if text is None:
            raise unreadable_practice()
        return text

