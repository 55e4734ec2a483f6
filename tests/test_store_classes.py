"""Classes kept in the store (issue 29), on SQLite and PostgreSQL: a class opened by its
teacher, learners joining by name (names compared as people expect, a name held by its
first learner), the teacher's settings, printed cards and what the teacher hands out."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from pgserver import postgres_url_fixture  # noqa: F401
from storehelpers import clients_fixture, raw_execute, where_fixture  # noqa: F401

from toonerville.store import (
    ClassOpened,
    ClassSettings,
    ClassStore,
    CorruptTableError,
    Handout,
    Member,
    NameTakenError,
    NoSuchClassError,
    SeatError,
    StoreError,
    TableStore,
    TeacherKeyError,
    codes,
)
from toonerville.store.errors import BadNameError

Clients = Callable[[], TableStore]


def classes(clients: Clients, clock: float | None = None) -> ClassStore:
    """One more page's class store on the test's database."""
    if clock is None:
        return ClassStore(clients().backend)
    return ClassStore(clients().backend, wall_clock=lambda: clock)


def test_a_class_opens_with_a_code_to_read_aloud_and_a_secret_teacher_key(
        clients: Clients, where: str) -> None:
    opened = classes(clients).open_class("  Class   5B ")
    assert isinstance(opened, ClassOpened)
    assert len(opened.code) == 6 and set(opened.code) <= set(codes.ALPHABET)
    assert not set(opened.code) & set("01OI")
    assert len(opened.teacher_key) * 6 >= 128  # url-safe base64: 6 bits a character
    other = classes(clients)  # another page, another kernel
    assert other.class_name(opened.code.lower()) == "Class 5B"
    assert other.is_teacher(opened.code, opened.teacher_key)
    assert not other.is_teacher(opened.code, opened.teacher_key[:-1])
    assert not other.is_teacher("ABCDEF", opened.teacher_key)  # no such class
    assert other.settings(opened.code) == ClassSettings()
    # only the key's digest is in the database
    if not where.startswith("postgres"):
        import sqlite3

        con = sqlite3.connect(where)
        dump = "\n".join(con.iterdump())
        con.close()
        assert opened.teacher_key not in dump
        assert codes.digest(opened.teacher_key) in dump


def test_learners_join_by_name_and_come_back_only_with_their_key(clients: Clients) -> None:
    teacher = classes(clients, clock=1_800_000_000)
    opened = teacher.open_class("5B")
    ann = classes(clients, clock=1_800_000_060).join(opened.code, "Ann")
    bo = classes(clients, clock=1_800_000_120).join(opened.code, "Bo")
    assert ann != bo and len(ann) * 6 >= 128
    assert teacher.members(opened.code, opened.teacher_key) == (
        Member("Ann", datetime.fromtimestamp(1_800_000_060, UTC)),
        Member("Bo", datetime.fromtimestamp(1_800_000_120, UTC)))
    # the same learner's page, with its key, gets the same place back
    assert classes(clients).join(opened.code, " ann ", key=ann) == ann
    assert classes(clients).learner(opened.code, ann) == teacher.members(
        opened.code, opened.teacher_key)[0]
    # names compared as people expect: case, width, spaces
    for same in ("ann", "ANN", "  Ann ", "Ａｎｎ", "ann"):
        with pytest.raises(NameTakenError, match="someone called Ann has already joined "
                                                  "class 5B"):
            classes(clients).join(opened.code, same)
    for other in ("Ann", "Cy"):  # Bo's page joins as Bo only
        with pytest.raises(SeatError, match="already joined class 5B as Bo"):
            classes(clients).join(opened.code, other, key=bo)
    assert classes(clients).learner(opened.code, "not a key") is None
    assert classes(clients).learner("ABCDEF", ann) is None
    assert len(teacher.members(opened.code, opened.teacher_key)) == 2  # nothing stored


def test_a_name_joined_at_once_from_many_pages_goes_to_one_learner(clients: Clients) -> None:
    opened = classes(clients).open_class("5B")
    stores = [classes(clients) for _ in range(6)]
    won: list[str] = []
    refused: list[BaseException] = []

    def join(store: ClassStore, name: str) -> None:
        try:
            won.append(store.join(opened.code, name))
        except NameTakenError as err:
            refused.append(err)

    threads = [threading.Thread(target=join, args=(s, "Zoë" if k % 2 else "ZOË "))
               for k, s in enumerate(stores)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(won) == 1 and len(refused) == 5
    assert classes(clients).learner(opened.code, won[0]) is not None


def test_refusals_say_what_to_do_and_store_nothing(clients: Clients) -> None:
    store = classes(clients)
    with pytest.raises(NoSuchClassError, match="not a class code"):
        store.join("KX0", "Ann")
    with pytest.raises(NoSuchClassError, match="there is no class ABCDEF here"):
        store.join("abcdef", "Ann")
    opened = store.open_class("5B")
    with pytest.raises(BadNameError):
        store.join(opened.code, "   ")
    with pytest.raises(BadNameError):
        store.open_class("")
    for wrong in ("", opened.teacher_key[:-1], store.join(opened.code, "Ann")):
        with pytest.raises(TeacherKeyError, match="not the teacher's key of class 5B"):
            store.members(opened.code, wrong)
        with pytest.raises(TeacherKeyError):
            store.set_settings(opened.code, wrong, ClassSettings(hints=False))
    assert store.settings(opened.code) == ClassSettings()


def test_the_teachers_settings_are_kept_and_checked(clients: Clients) -> None:
    teacher = classes(clients)
    opened = teacher.open_class("5B")
    chosen = ClassSettings(hints=False, take_back=False, bot_level="beginner",
                           away_limit=90, buy_offers="never", language="de")
    teacher.set_settings(opened.code, opened.teacher_key, chosen)
    assert classes(clients).settings(opened.code) == chosen
    assert classes(clients).settings(opened.code).away_limit == 90.0
    for bad in ({"hints": "no"}, {"bot_level": "grandmaster"}, {"away_limit": 1},
                {"away_limit": True}, {"buy_offers": "sometimes"}, {"language": "xx"}):
        with pytest.raises(StoreError):
            ClassSettings(**bad)  # type: ignore[arg-type]


def test_cards_hold_their_names_and_print_again(clients: Clients) -> None:
    teacher = classes(clients)
    opened = teacher.open_class("5B")
    own = classes(clients).join(opened.code, "Bo")  # joined by themselves: no card
    cards = dict(teacher.enrol(opened.code, opened.teacher_key, ["Ann", "bo", "Cy"]))
    assert set(cards) == {"Ann", "Cy"}
    again = dict(classes(clients).enrol(opened.code, opened.teacher_key, ["ANN", "Cy"]))
    assert again == cards  # the same cards print again
    assert classes(clients).learner(opened.code, cards["Cy"]) is not None
    assert classes(clients).join(opened.code, "Cy", key=cards["Cy"]) == cards["Cy"]
    with pytest.raises(NameTakenError):
        classes(clients).join(opened.code, "Cy")  # the card's name is held
    assert classes(clients).learner(opened.code, own).name == "Bo"  # type: ignore[union-attr]
    with pytest.raises(TeacherKeyError):
        teacher.enrol(opened.code, own, ["Dee"])


def test_handouts_reach_only_their_learner(clients: Clients) -> None:
    teacher = classes(clients)
    opened = teacher.open_class("5B")
    ann = teacher.join(opened.code, "Ann")
    bo = teacher.join(opened.code, "Bo")
    teacher.hand_out(opened.code, opened.teacher_key, "table", "KXR4PT")
    teacher.hand_out(opened.code, opened.teacher_key, "tournament", "TTTTTT",
                     {"ann": "ann-key", "Bo": "bo-key"})
    assert classes(clients).handouts(opened.code, ann) == (
        Handout("table", "KXR4PT", ""), Handout("tournament", "TTTTTT", "ann-key"))
    assert classes(clients).handouts(opened.code, bo)[1].key == "bo-key"
    assert classes(clients).handouts(opened.code, "a guess") == ()
    with pytest.raises(SeatError, match="Cy is not a learner of this class"):
        teacher.hand_out(opened.code, opened.teacher_key, "tournament", "UUUUUU",
                         {"Cy": "k"})
    with pytest.raises(TeacherKeyError):
        teacher.hand_out(opened.code, ann, "table", "KXR4PT")
    with pytest.raises(StoreError):
        teacher.hand_out(opened.code, opened.teacher_key, "party", "KXR4PT")
    assert len(classes(clients).handouts(opened.code, ann)) == 2


def test_a_class_row_written_behind_the_stores_back_is_refused(clients: Clients,
                                                                 where: str) -> None:
    store = classes(clients)
    opened = store.open_class("5B")
    raw_execute(where, "UPDATE classes SET settings = ? WHERE code = ?",
                ('{"hints": "maybe"}', opened.code))
    with pytest.raises(CorruptTableError, match="cannot be read"):
        store.settings(opened.code)
    if where.startswith("postgres"):
        return  # PostgreSQL keeps each column of its kind
    raw_execute(where, "UPDATE classes SET version = ? WHERE code = ?",
                ("three", opened.code))
    with pytest.raises(CorruptTableError):
        store.is_teacher(opened.code, opened.teacher_key)
