"""A learner's practice positions that outlive their kernel: one list per key, in SQLite.

Owns `PracticeLists`, where notebook 07 keeps the learner's list of practice positions
(`coach.practice`: the review's costly decisions, to play again) under the same key as
its game (`store.solo`: the page's `?game=KEY`), so a reload brings the list back with
the game. The record under a key is the list as `coach.practice.dump_positions` writes
it (JSON, compressed); every `keep` replaces it. The file may be the solo games' (the
class store): the lists have their own table, `practice_lists(key PK, list, saved)`.

Bounded like the solo games: one record per key, a list of at most
`coach.practice.MAX_TEXT` characters, records not kept again for `solo.KEEP_DAYS`
expire, past `solo.MAX_GAMES` records the oldest go. A record that cannot be unpacked
is refused with `CorruptTableError`; what it holds is never read as anything else.
`packed_list` and `unpacked_list` are the record's packing, which `seat_practice` shares.
"""

from __future__ import annotations

import time
import zlib
from pathlib import Path

from ..coach.practice import MAX_TEXT
from ..engine.messages import msg
from .bounded import Bounded
from .errors import CorruptTableError, StoreError
from .solo import KEEP_DAYS, MAX_GAMES, is_key

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS practice_lists (key TEXT PRIMARY KEY, list BLOB NOT NULL, "
    "saved REAL NOT NULL)",
    "CREATE INDEX IF NOT EXISTS practice_lists_saved ON practice_lists (saved)",
)


class PracticeLists:
    """The practice lists kept in one SQLite file (created on first use), bounded as the
    solo games are (`bounded.Bounded`)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._records = Bounded(path, "practice_lists", ("list",), SCHEMA,
                                keep_days=KEEP_DAYS, most=MAX_GAMES)

    def __repr__(self) -> str:
        return f"PracticeLists({self.path!r})"

    def keep(self, key: str, text: str, now: float | None = None) -> None:
        """Keep the list `text` under `key`, replacing what was there; a key that is not
        one, or a text too long, is refused with `StoreError`, nothing written."""
        if not is_key(key):
            raise StoreError(msg("a game is kept under a key of 16 to 64 letters, digits, "
                                 "'-' or '_'", None))
        packed = packed_list(text)
        now = time.time() if now is None else now
        self._records.replace(key, (packed,), now)

    def find(self, key: str, now: float | None = None) -> str | None:
        """The list kept under `key` (its text), or None; `CorruptTableError` if the record
        cannot be unpacked."""
        if not is_key(key):
            return None
        row = self._records.row(key)
        if row is None:
            return None
        packed, saved = row
        now = time.time() if now is None else now
        if not isinstance(saved, int | float) or self._records.expired(saved, now):
            return None
        text = unpacked_list(packed) if isinstance(packed, bytes) else None
        if text is None:
            raise _corrupt()
        return text

    def close(self) -> None:
        self._records.close()


def packed_list(text: str) -> bytes:
    """A practice list as a store keeps it, compressed; a text over `MAX_TEXT` characters
    is refused with `StoreError`."""
    if len(text) > MAX_TEXT:
        raise StoreError(msg("a saved game has at most {limit} characters; this one "
                             "has {n}", None, n=len(text), limit=MAX_TEXT))
    return zlib.compress(text.encode("utf-8"), 6)


def unpacked_list(packed: bytes) -> str | None:
    """The list `packed_list` made, or None when these bytes are not one: never more
    than `MAX_TEXT` characters, however the bytes would inflate."""
    inflate = zlib.decompressobj()
    try:
        text = inflate.decompress(packed, 4 * MAX_TEXT + 1).decode("utf-8")
    except (zlib.error, UnicodeDecodeError):
        return None
    if inflate.unconsumed_tail or not inflate.eof or len(text) > MAX_TEXT:
        return None
    return text


def _corrupt() -> CorruptTableError:
    return CorruptTableError(msg("the practice positions kept for this page cannot be read",
                                 None), "", None, None)
