"""A shared table stores a move only onto the history it was computed from (issue 27), on
SQLite and PostgreSQL: when the last moves are deleted or a backup is restored (or commits
are lost), a page or a store whose copy is ahead of the database is told the table moved
on and shown the database's history, never stores its move on a different one; an
existing database written before moves carried their history's digest still opens, reads
and takes moves; a row whose digest does not follow from the moves before it is refused
in words."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pgserver import postgres_url_fixture  # noqa: F401
from storehelpers import (  # noqa: F401
    clients_fixture,
    play_until_human,
    raw_count,
    raw_execute,
    where_fixture,
)

from toonerville import Game
from toonerville.store import CorruptTableError, Seat, TableMovedOnError, TableStore

Clients = Callable[[], TableStore]
BOTS = {1: "heuristic", 2: "heuristic"}


def two_choices(store: TableStore, code: str, me: Seat) -> tuple[str, str, int]:
    """Play until `me` has two different moves to choose from; (one, another, the move
    number before them)."""
    for _ in range(200):
        mover = play_until_human(store, code, [me])
        assert mover is me, "the game ended before the learner had a choice"
        options = [a.notation() for a in me.legal_actions()]
        if len(options) >= 2:
            return options[0], options[1], me.number
        me.play(options[0])
    raise AssertionError("no choice of two moves came")


def raw_rows(where: str, code: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    if where.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(where, autocommit=True) as con:
            rows = con.execute("SELECT number, move FROM moves WHERE code = %s ORDER BY "
                               "number", (code,)).fetchall()
    else:
        import sqlite3

        con2 = sqlite3.connect(where)
        rows = con2.execute("SELECT number, move FROM moves WHERE code = ? ORDER BY number",
                            (code,)).fetchall()
        con2.close()
    out.extend((int(n), str(m)) for n, m in rows)
    return out


def replaced_history(where: str, clients: Clients, seed: int
                     ) -> tuple[TableStore, Seat, str, int, str]:
    """A learner's page (`me`, on `store`) has played a move; the database then loses
    that move (deleted, or a backup from before it restored) and the same learner, from
    another device, plays a different move in its place: the database holds as many
    moves as `me` has seen, but another history. Returns (store, me, code, number, a
    move `me` would play next on its history)."""
    store = clients()
    code = store.open_table(players=3, seed=seed, bots=BOTS)
    me = store.claim(code, 0)
    first, other, number = two_choices(store, code, me)
    me.play(first)
    assert me.number == number + 1
    mine = [a.notation() for a in me.legal_actions()] or [""]
    raw_execute(where, "DELETE FROM moves WHERE code = ? AND number > ?", (code, number))
    device = clients()
    again = device.claim(code, secret=me.secret)
    assert again.number == number
    again.play(other)
    assert raw_count(where, code) == number + 1
    return store, me, code, number, mine[-1]


def test_a_page_ahead_on_another_history_does_not_store_its_move(
        where: str, clients: Clients) -> None:
    store, me, code, number, mine = replaced_history(where, clients, seed=31)
    assert mine, "the learner's next move is theirs too"
    before = raw_rows(where, code)
    reader = clients()
    theirs = reader.moves_since(code)
    with pytest.raises(TableMovedOnError, match="moved on"):
        me.play(mine)  # computed on the history `me` still shows
    assert raw_rows(where, code) == before  # nothing stored on the other history
    assert store.moves_since(code) == theirs  # the page's store reads the database's
    assert me.number == number + 1 and me.view.hand == reader.claim(
        code, secret=me.secret).view.hand
    assert play_until_human(store, code, [me]) is me
    stored = raw_count(where, code)
    me.play(me.legal_actions()[0])  # and moves on from there
    assert raw_count(where, code) == stored + 1
    Game.from_json(clients().export(code))  # readable for everyone


def test_a_store_whose_copy_is_ahead_reads_the_database_again(
        where: str, clients: Clients) -> None:
    """The store itself (not only its page) re-reads a table whose history changed:
    a poll shows the database's moves, not the ones it had cached."""
    store, _me, code, _number, _mine = replaced_history(where, clients, seed=32)
    assert store.moves_since(code) == clients().moves_since(code)
    assert store.export(code) == clients().export(code)


def test_a_copy_ahead_of_a_database_that_lost_moves_follows_the_database(
        where: str, clients: Clients) -> None:
    """Moves lost (deleted, or commits lost in a crash): the page that saw them is told
    the table is back at the database's move, and its next move is stored there."""
    store = clients()
    code = store.open_table(players=3, seed=33, bots=BOTS)
    me = store.claim(code, 0)
    while me.number < 3:
        play_until_human(store, code, [me])
        me.play(me.legal_actions()[0])
    number = me.number
    raw_execute(where, "DELETE FROM moves WHERE code = ? AND number > ?", (code, number - 2))
    me.refresh()
    assert me.number == number - 2
    assert store.moves_since(code) == clients().moves_since(code)
    play_until_human(store, code, [me])
    me.play(me.legal_actions()[0])
    assert len(clients().moves_since(code)) == raw_count(where, code)


def test_the_append_primitive_checks_the_history_not_its_length(
        where: str, clients: Clients) -> None:
    """Backend.append with the right number but the digest of another history stores
    nothing; with the stored history's digest it stores the move."""
    from toonerville.store.backend import chained, first_digest

    store = clients()
    code = store.open_table(players=3, seed=34, bots={s: "heuristic" for s in range(3)})
    backend = store.backend
    header = backend.table(code)
    assert header is not None
    base = first_digest(code, header.start)
    assert backend.append(code, 1, "0: one", base)
    assert not backend.append(code, 2, "1: two", chained(base, "0: another"))
    assert not backend.append(code, 2, "1: two", base)
    assert backend.append(code, 2, "1: two", chained(base, "0: one"))
    assert raw_count(where, code) == 2


def test_a_row_that_does_not_follow_from_the_moves_before_it_is_refused_in_words(
        where: str, clients: Clients) -> None:
    store = clients()
    code = store.open_table(players=3, seed=35, bots=BOTS)
    me = store.claim(code, 0)
    first, other, number = two_choices(store, code, me)
    me.play(first)
    play_until_human(store, code, [me])
    # someone edits a move in the middle of the log, behind the store's back
    raw_execute(where, "UPDATE moves SET move = ? WHERE code = ? AND number = ?",
                (other, code, number + 1))
    with pytest.raises(CorruptTableError, match=f"table {code}, move {number + 1}") as info:
        clients().export(code)
    assert "does not follow from its text and the moves before it" in str(info.value)
    assert info.value.move_number == number + 1


def test_a_database_written_before_moves_had_digests_opens_and_takes_moves(
        where: str, clients: Clients) -> None:
    """An existing database (its `moves` rows without a digest column) is brought up to
    date when a store opens it: its tables read as before and take new moves."""
    store = clients()
    code = store.open_table(players=3, seed=36, bots=BOTS)
    me = store.claim(code, 0)
    play_until_human(store, code, [me])
    me.play(me.legal_actions()[0])
    moves = store.moves_since(code)
    store.close()
    raw_execute(where, "ALTER TABLE moves DROP COLUMN digest", ())
    later = clients()
    assert later.moves_since(code) == moves
    page = later.claim(code, secret=me.secret)
    play_until_human(later, code, [page])
    page.play(page.legal_actions()[0])
    assert len(clients().moves_since(code)) == raw_count(where, code) > len(moves)
