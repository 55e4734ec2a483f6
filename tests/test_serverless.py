"""A page without the class's database says what that means in a learner's words."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from toonerville.engine.messages import set_language
from toonerville.pages import serverless
from toonerville.widgets.classroom import SharedTable


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    yield
    set_language("en")


def test_on_the_static_site_no_command_line_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serverless.sys, "platform", "emscripten")
    for text in (str(serverless.no_shared_tables(OSError("no sqlite3"))),
                 str(serverless.no_tournament(None))):
        assert "make app" not in text and "sqlite" not in text
        assert "teacher" in text and "browser" in text
    set_language("fa")
    assert "معلم" in str(serverless.no_shared_tables(OSError("x")))


def test_in_the_app_the_reason_is_kept_for_the_teacher() -> None:
    text = str(serverless.no_shared_tables(OSError("disk full")))
    assert "disk full" in text and "make app" not in text
    assert "-" in str(serverless.no_tournament(None))


def test_the_classroom_page_says_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serverless.sys, "platform", "emscripten")
    page = SharedTable(where="/proc/no-such-folder/tables.sqlite")
    assert "nobody else can join" in page.message.value
