"""The class store's practice lists (`store.practice`): one list per page key, bounded,
and a record another program broke is refused, never read as something else."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from toonerville.coach.practice import MAX_TEXT
from toonerville.store.errors import CorruptTableError, StoreError
from toonerville.store.practice import PracticeLists
from toonerville.store.solo import KEEP_DAYS, SoloGames

KEY, OTHER = "a" * 22, "b" * 22


def test_a_list_is_kept_per_key_beside_the_solo_games(tmp_path: Path) -> None:
    path = tmp_path / "class.sqlite"
    SoloGames(path)  # the same file as the page's game
    lists = PracticeLists(path)
    assert lists.find(KEY) is None
    lists.keep(KEY, '{"one": 1}')
    lists.keep(KEY, '{"two": 2}')  # replaced
    lists.keep(OTHER, "[]")
    again = PracticeLists(path)  # another kernel
    assert again.find(KEY) == '{"two": 2}' and again.find(OTHER) == "[]"
    assert again.find("not a key") is None


def test_a_bad_key_or_a_list_too_long_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    lists = PracticeLists(tmp_path / "class.sqlite")
    with pytest.raises(StoreError):
        lists.keep("short", "[]")
    with pytest.raises(StoreError):
        lists.keep(KEY, "x" * (MAX_TEXT + 1))
    assert lists.find(KEY) is None


def test_old_lists_expire(tmp_path: Path) -> None:
    lists = PracticeLists(tmp_path / "class.sqlite")
    lists.keep(KEY, "[]", now=1_000.0)
    assert lists.find(KEY, now=1_000.0 + KEEP_DAYS * 86_400 + 1) is None
    assert lists.find(KEY, now=1_000.0 + 60) == "[]"


def test_a_broken_record_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "class.sqlite"
    lists = PracticeLists(path)
    lists.keep(KEY, "[]")
    with sqlite3.connect(path) as con:
        con.execute("UPDATE practice_lists SET list = ? WHERE key = ?", (b"not zlib", KEY))
    with pytest.raises(CorruptTableError, match="cannot be read"):
        lists.find(KEY)
