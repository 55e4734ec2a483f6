"""Fixtures every widget test module uses; import them into the module to switch them on:
`from widgetfixtures import close_widgets, no_query  # noqa: F401`."""

from __future__ import annotations

from collections.abc import Iterator

import ipywidgets as widgets
import pytest


@pytest.fixture(autouse=True)
def close_widgets() -> Iterator[None]:
    """No widget outlives its test."""
    yield
    widgets.Widget.close_all()


@pytest.fixture(autouse=True)
def no_query(monkeypatch: pytest.MonkeyPatch) -> None:
    """Widgets read ?seed= and ?lang= from Voila's environment: none here."""
    monkeypatch.delenv("QUERY_STRING", raising=False)
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
