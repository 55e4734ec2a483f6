"""Solo games that outlive their kernel: one saved game per key, in an SQLite file.

Owns `SoloGames`, where notebook 07 keeps the learner's game after every move so that a
reload after the kernel died (or the server restarted) brings the same game back. The
page names its game by a random key (`new_key`) that it carries in its address
(`?game=KEY`); the record under a key is the game as an ordinary save (`saves.py`,
compressed) and a small set-up the page chooses (bot kind, next seed: JSON), and every
`keep` replaces it. The file may be the shared tables' (`toonerville.store`): the solo
games have their own table, `solo_games(key PK, format, save, setup, saved)`.

Bounded, so a visitor cannot fill the disk: one record per key; a save longer than a
saved game may be (`saves.MAX_SIZE`) or a set-up over `MAX_SETUP` characters is refused;
records not kept again for `KEEP_DAYS` expire; past `MAX_GAMES` records the oldest
go. A record another program wrote is read with care: a wrong format, a wrong type, a
save that does not decompress to at most `saves.MAX_SIZE` characters is refused with
`CorruptTableError`; the page then starts a new game.
"""

from __future__ import annotations

import re
import secrets
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

from ..engine.messages import msg
from ..engine.saves import MAX_SIZE
from .bounded import Bounded
from .errors import CorruptTableError, StoreError

FORMAT = "toonerville-solo/1"
#: a record not kept again for this many days is deleted
KEEP_DAYS = 30
#: the most records kept; past it, the ones kept longest ago go first
MAX_GAMES = 5_000
#: the longest set-up (JSON) kept with a game
MAX_SETUP = 1_000
#: a key: 16 to 64 letters, digits, '-' or '_' (`new_key` makes 22)
KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS solo_games (key TEXT PRIMARY KEY, format TEXT NOT NULL, "
    "save BLOB NOT NULL, setup TEXT NOT NULL, saved REAL NOT NULL)",
    "CREATE INDEX IF NOT EXISTS solo_games_saved ON solo_games (saved)",
)


def new_key() -> str:
    """A fresh random key for a page's game (128 bits, 22 characters)."""
    return secrets.token_urlsafe(16)


def is_key(text: object) -> bool:
    """Is `text` a key a page's game may be kept under?"""
    return isinstance(text, str) and KEY.fullmatch(text) is not None


@dataclass(frozen=True, slots=True)
class KeptGame:
    """A record: the save (JSON text), the page's set-up (JSON text), when it was kept
    (seconds since the epoch)."""

    save: str
    setup: str
    saved: float


class SoloGames:
    """The solo games kept in one SQLite file (created on first use), bounded
    (`bounded.Bounded`: one connection, used under a lock, so a page may keep its game
    from any thread)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._records = Bounded(path, "solo_games", ("format", "save", "setup"), SCHEMA,
                                keep_days=KEEP_DAYS, most=MAX_GAMES)

    def __repr__(self) -> str:
        return f"SoloGames({self.path!r})"

    def keep(self, key: str, save: str, setup: str = "{}", now: float | None = None) -> None:
        """Keep `save` (and `setup`) under `key`, replacing what was there; expire old
        records. A key that is not one, or a text too long, is refused with
        `StoreError` and nothing is written."""
        if not is_key(key):
            raise StoreError(msg("a game is kept under a key of 16 to 64 letters, digits, "
                                 "'-' or '_'", None))
        if len(save) > MAX_SIZE or len(setup) > MAX_SETUP:
            raise StoreError(msg("a saved game has at most {limit} characters; this one "
                                 "has {n}", None, n=len(save) + len(setup), limit=MAX_SIZE))
        now = time.time() if now is None else now
        packed = zlib.compress(save.encode("utf-8"), 6)
        self._records.replace(key, (FORMAT, packed, setup), now)

    def find(self, key: str, now: float | None = None) -> KeptGame | None:
        """The record under `key`, or None (no such key, or it has expired);
        `CorruptTableError` if the record cannot be read."""
        if not is_key(key):
            return None
        row = self._records.row(key)
        if row is None:
            return None
        now = time.time() if now is None else now
        found, packed, setup, saved = row
        if found != FORMAT or not isinstance(packed, bytes) or not isinstance(setup, str) \
                or len(setup) > MAX_SETUP or not isinstance(saved, int | float):
            raise _corrupt(msg("it is not a record this kit wrote", None))
        if self._records.expired(saved, now):
            return None
        return KeptGame(_unpacked(packed), setup, float(saved))

    def forget(self, key: str) -> None:
        """Delete the record under `key` (if any)."""
        self._records.forget(key)

    def close(self) -> None:
        self._records.close()

def _unpacked(packed: bytes) -> str:
    """The save in a record: at most `MAX_SIZE` characters, whatever the bytes hold (a
    crafted record never inflates past that in memory)."""
    inflate = zlib.decompressobj()
    try:
        data = inflate.decompress(packed, 4 * MAX_SIZE + 1)
        text = data.decode("utf-8")
    except (zlib.error, UnicodeDecodeError) as err:
        raise _corrupt(msg("its save cannot be unpacked", None)) from err
    if inflate.unconsumed_tail or not inflate.eof or len(text) > MAX_SIZE:
        raise _corrupt(msg("its save cannot be unpacked", None))
    return text


def _corrupt(why: object) -> CorruptTableError:
    return CorruptTableError(msg("the game kept for this page cannot be read ({why})", None,
                                 why=why), "", None, None)
