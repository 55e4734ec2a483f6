"""The names learners give their seats at a shared table, on SQLite and PostgreSQL: every
client sees them (views, the log, the save), only the seat's own secret may set one, a
name that cannot be one is refused with its reason and stores nothing; and the one copy
of the SQL both backends run."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from pgserver import postgres_url_fixture  # noqa: F401
from storehelpers import clients_fixture, where_fixture  # noqa: F401

from toonerville import Game
from toonerville.store import SeatError, TableStore
from toonerville.store import statements as sql
from toonerville.store.errors import BadNameError
from toonerville.store.names import NAME_LIMIT, clean_name

Clients = Callable[[], TableStore]


def test_a_learners_name_is_what_every_client_shows(clients: Clients) -> None:
    opener, joiner, onlooker = clients(), clients(), clients()
    code = opener.open_table(players=3, bots={2: "heuristic"}, seed=3)
    ann = opener.claim(code, name="  Ann  ")
    bo = joiner.claim(code)
    assert onlooker.names(code) == ("Ann", "Player 1", "Player 2")
    joiner.name_seat(code, bo.seat, "Bo", secret=bo.secret)
    watcher = onlooker.watch(code)
    assert watcher.view.names == ("Ann", "Bo", "Player 2")
    assert onlooker.info(code).names == ("Ann", "Bo", "Player 2")
    ann.refresh()
    assert ann.view.names == ("Ann", "Bo", "Player 2")
    onlooker.play_bots(code)
    current = Game.from_json(onlooker.export(code)).current
    seat = ann if current == 0 else bo
    seat.play(f"{seat.seat}: draw")
    sentences = [str(e.text) for e in onlooker.public_history(code)]
    mover = ("Ann", "Bo")[seat.seat]
    assert sentences[0].startswith("round 1: ")  # the deal names the dealer, any seat
    assert any(s.startswith(f"{mover} ") for s in sentences[1:]), sentences
    assert json.loads(onlooker.export(code))["names"] == ["Ann", "Bo", "Player 2"]
    # naming again replaces the name; a rejoin may carry a new one
    again = clients().claim(code, secret=bo.secret, name="Bobby")
    assert again.seat == bo.seat and opener.names(code)[1] == "Bobby"


def test_nobody_names_a_seat_they_do_not_hold(clients: Clients) -> None:
    store = clients()
    code = store.open_table(players=3, bots={2: "heuristic"}, seed=3)
    ann = store.claim(code, name="Ann")
    other = clients()
    with pytest.raises(SeatError, match="only the page that claimed it"):
        other.name_seat(code, ann.seat, "Mallory", secret="not-anns-secret")
    with pytest.raises(SeatError, match="has not been claimed"):
        other.name_seat(code, 1, "Mallory", secret="whatever-secret")
    with pytest.raises(SeatError, match="played by a bot"):
        other.name_seat(code, 2, "Mallory", secret=ann.secret)
    with pytest.raises(SeatError, match="there is no seat 7"):
        other.name_seat(code, 7, "Mallory", secret=ann.secret)
    assert other.names(code) == ("Ann", "Player 1", "Player 2")


@pytest.mark.parametrize(("name", "why"), [
    ("", "1 to"), ("   ", "1 to"), ("x" * (NAME_LIMIT + 1), "at most"),
    ("Ann\nBo", None), ("Bo\x00", "control characters"), (42, "not int")])
def test_a_bad_name_is_refused_with_its_reason_and_claims_nothing(
        clients: Clients, name: object, why: str | None) -> None:
    store = clients()
    code = store.open_table(players=3, bots={2: "heuristic"}, seed=3)
    if why is None:  # a line break is a space between words: it is kept as one
        assert store.claim(code, name=name).seat == 0  # type: ignore[arg-type]
        assert store.names(code)[0] == "Ann Bo"
        return
    with pytest.raises(BadNameError, match=why):
        store.claim(code, name=name)  # type: ignore[arg-type]
    assert store.info(code).claimed == frozenset()
    assert store.names(code) == ("Player 0", "Player 1", "Player 2")


def test_clean_name_keeps_a_name_as_typed_but_for_its_spaces() -> None:
    assert clean_name(" Zoë  van  Dijk ") == "Zoë van Dijk"
    assert clean_name("x" * NAME_LIMIT) == "x" * NAME_LIMIT


def test_the_statements_are_written_once_for_both_databases() -> None:
    statements = [v for k, v in vars(sql).items() if k.isupper() and isinstance(v, str)]
    statements += list(sql.SCHEMA)
    assert len(statements) > 10
    for statement in statements:
        assert "%" not in statement  # psycopg's marks come only from for_psycopg
        converted = sql.for_psycopg(statement)
        assert "?" not in converted and converted.count("%s") == statement.count("?")
