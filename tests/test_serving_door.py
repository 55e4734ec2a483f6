"""The limits the served app's visitors are held to (issue 27), without a server: the token
buckets, the door that lets new names in per address, and a page's traffic gate."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("voila")  # the serving package is the served app's, beside Voila

from toonerville.serving.buckets import Bucket  # noqa: E402
from toonerville.serving.traffic import CLOSE, DROP, PASS, Gate  # noqa: E402
from toonerville.serving.visitors import (  # noqa: E402
    Door,
    cookie_secret,
    is_teacher,
    let_in,
    new_name,
    visitor_key,
)


def test_a_bucket_refuses_without_taking_and_refills_over_time() -> None:
    bucket = Bucket.full(capacity=3, per_second=1.0, now=0.0)
    low = bucket.take(3, 0.0)
    assert low is not None and low.take(1, 0.0) is None
    assert low.take(1, 0.0) is None and low.level == 0  # a refusal took nothing
    assert low.wait_for(2, 0.0) == pytest.approx(2.0)
    assert low.take(2, 2.0) is not None
    assert low.level_at(100.0) == 3  # never more than it holds


def test_only_a_name_the_server_made_and_let_in_is_a_visitor_of_its_own() -> None:
    new, teacher = new_name(), new_name(teacher=True)
    assert visitor_key(new, "10.0.0.1") == "address:10.0.0.1"  # not let in yet
    learner = let_in(new)
    assert visitor_key(learner, "10.0.0.1") == f"browser:{new[2:]}"
    assert is_teacher(visitor_key(teacher, "10.0.0.1"))
    assert not is_teacher(visitor_key(learner, "10.0.0.1"))
    assert let_in(teacher) == teacher
    # what a client makes up is never parsed as a name; the cookie's signature is checked
    # before a name gets here (tests/browser/test_lockout.py)
    for made_up in (None, "0" * 32, "t." + "z" * 32, "l." + "0" * 31):
        assert visitor_key(made_up, "10.0.0.1") == "address:10.0.0.1"


def test_one_address_lets_in_a_burst_of_new_names_then_some_a_minute() -> None:
    door = Door(burst=3, per_minute=6)
    assert [door.admit("10.0.0.1", now=0.0) for _ in range(5)] == [True, True, True,
                                                                  False, False]
    assert door.admit("10.0.0.2", now=0.0)  # another address has a door of its own
    # 6 a minute: one more every 10 s
    assert door.admit("10.0.0.1", now=10.0)
    assert not door.admit("10.0.0.1", now=10.0)
    # a burst of 0 means no limit
    free = Door(burst=0, per_minute=0)
    assert all(free.admit("10.0.0.1", now=0.0) for _ in range(100))


class Limits:
    page_messages_burst = 3
    page_messages_per_second = 1.0
    page_bytes_burst = 1000
    page_bytes_per_second = 100.0


def test_a_page_over_the_message_rate_is_dropped_and_over_the_byte_rate_cut_off() -> None:
    gate = Gate.for_limits(Limits(), now=0.0)
    assert [gate.admit(10, 0.0) for _ in range(4)] == [PASS, PASS, PASS, DROP]
    assert gate.admit(10, 1.0) == PASS  # one more a second
    assert gate.admit(2000, 1.0) == CLOSE  # more bytes than a page sends at once
    assert gate.admit(10, 60.0) == DROP  # nothing passes a closed connection


def test_the_cookie_secret_is_made_once_and_kept_for_its_owner(tmp_path: Path) -> None:
    path = tmp_path / "secret"
    first = cookie_secret(path)
    assert len(first) == 32 and cookie_secret(path) == first
    assert path.stat().st_mode & 0o077 == 0


def test_a_redirect_never_leaves_the_server() -> None:
    """A path that starts with several slashes is another host to a browser ("//evil/"):
    the redirects that set the visitor's name keep it on this server."""
    from toonerville.serving.visitors import MARK, with_mark, without_mark

    for uri in (f"//elsewhere.example/x?{MARK}=1&a=2", f"/\\elsewhere.example/x?{MARK}=1&a=2",
                f"/\\/elsewhere.example/x?{MARK}=1&a=2", f"///elsewhere.example/x?{MARK}=1&a=2"):
        for target in (without_mark(uri), with_mark(uri)):
            assert target.startswith("/") and target[1:2] not in ("/", "\\"), (uri, target)
    assert without_mark("/voila/render/07-play-a-game.ipynb?lang=fa") == \
        "/voila/render/07-play-a-game.ipynb?lang=fa"


def models(top: object) -> set[int]:
    """The widget models a page must load for `top`: it, and every widget its traits
    hold (children, layouts, styles), as the frontend asks for each."""
    import ipywidgets

    seen: dict[int, object] = {}
    todo = [top]
    while todo:
        w = todo.pop()
        if not isinstance(w, ipywidgets.Widget) or id(w) in seen:
            continue
        seen[id(w)] = w
        for name in w.keys:
            value = getattr(w, name, None)
            todo.extend(value if isinstance(value, (tuple, list)) else (value,))
    return set(seen)


def test_a_page_that_asks_for_each_widget_apart_is_let_through(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A page asks its kernel for all its widgets in one message, but when the kernel
    answers after ipywidgets' 4 s (a busy server) the page asks for each widget in a
    message of its own, all at once: page 10 (the teacher's desk and a learner's seat)
    holds some 400. The server's default burst lets them all through, rather than
    dropping the rest and leaving the page blank (seen with two servers at load 23)."""
    from toonerville.serving.kernels import ClassKernelManager
    from toonerville.widgets import LanguagePicker
    from toonerville.widgets.tournament import TeacherDesk
    from toonerville.widgets.tournament_seat import TournamentSeat

    monkeypatch.setenv("TOONERVILLE_STORE", str(tmp_path / "tables.sqlite"))
    page = models(LanguagePicker()) | models(TeacherDesk()) | models(TournamentSeat())
    assert len(page) > 300
    traits = ClassKernelManager.class_traits()

    class Defaults:
        page_messages_burst = traits["page_messages_burst"].default_value
        page_messages_per_second = traits["page_messages_per_second"].default_value
        page_bytes_burst = traits["page_bytes_burst"].default_value
        page_bytes_per_second = traits["page_bytes_per_second"].default_value

    gate = Gate.for_limits(Defaults(), now=0.0)
    # the comm_info request, then one request_state of some 600 bytes per widget
    said = [gate.admit(600, 0.0) for _ in range(1 + len(page))]
    assert said.count(PASS) == len(said), f"{said.count(DROP)} of {len(said)} dropped"
