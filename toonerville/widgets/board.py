"""The table as everyone sees it: `TableView`, `PilesView`, `ScoreSheet`, `EventLog`.

Owns the pictures of what is public at a table: the melds on it (from a `PlayerView` or
{player name: melds}), the stock and the discard pile, the score sheet of 11 rounds and
the game's sentences, each drawn by one pure function of `render`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.cards import Card
from ..engine.events import Event
from ..engine.melds import Meld, check_meld
from ..engine.rules import ROUNDS
from ..engine.views import PlayerView
from ..pages.render import TEXT_PX, piles_html, score_sheet_html, sentence_html, table_html
from .cards import Picture

MeldsByPlayer = Mapping[str, Sequence[Meld | str]]


def melds_by_player(source: PlayerView | MeldsByPlayer) -> dict[str, tuple[Meld, ...]]:
    """The table as {player name: melds}, from a `PlayerView` or such a mapping (whose
    melds may be notation)."""
    if isinstance(source, PlayerView):
        return {name: tuple(source.table[i]) for i, name in enumerate(source.names)}
    return {name: tuple(m if isinstance(m, Meld) else check_meld(m).meld_or_raise()
                        for m in melds) for name, melds in source.items()}


class TableView(Picture):
    """The melds on the table (`render.table_html`), from a `PlayerView` or a mapping
    {player name: melds}; `.update(source)` redraws."""

    def __init__(self, source: PlayerView | MeldsByPlayer | None = None,
                 size: str = "normal", **kwargs: Any) -> None:
        self._table: dict[str, tuple[Meld, ...]] = {}
        super().__init__(size, **kwargs)
        self.add_class("tv-table-view")
        self.update(source or {})

    @property
    def table(self) -> dict[str, tuple[Meld, ...]]:
        return dict(self._table)

    def update(self, source: PlayerView | MeldsByPlayer) -> None:
        self._table = melds_by_player(source)
        self._redraw()

    def _redraw(self) -> None:
        if hasattr(self, "_table"):
            self.value = table_html(self._table, self.size)


class PilesView(Picture):
    """The stock and the discard pile (`render.piles_html`); `.update(view)` or
    `.show(stock_count, discard_top, discard_count)`."""

    def __init__(self, view: PlayerView | None = None, size: str = "normal",
                 **kwargs: Any) -> None:
        self._piles: tuple[int, Card | None, int] = (0, None, 0)
        super().__init__(size, **kwargs)
        self.add_class("tv-piles-view")
        if view is not None:
            self.update(view)
        else:
            self._redraw()

    def update(self, view: PlayerView) -> None:
        self.show(view.stock_size, view.discard_top, view.discard_size)

    def show(self, stock_count: int, discard_top: Card | None, discard_count: int) -> None:
        self._piles = (stock_count, discard_top, discard_count)
        self._redraw()

    @property
    def piles(self) -> tuple[int, Card | None, int]:
        return self._piles

    def _redraw(self) -> None:
        if hasattr(self, "_piles"):
            self.value = piles_html(*self._piles, size=self.size)


class ScoreSheet(Picture):
    """The score sheet of 11 rounds (`render.score_sheet_html`): `.update(players, rows)`,
    `.show_game(game)` or `.show_view(view)`."""

    #: how many rounds the sheet has rows for (a tournament may play fewer than 11)
    rounds: int = ROUNDS

    def __init__(self, players: Sequence[str] = (), rows: Sequence[Sequence[int]] = (),
                 size: str = "normal", highlight_round: int | None = None,
                 **kwargs: Any) -> None:
        self._sheet: tuple[tuple[str, ...], tuple[tuple[int, ...], ...], int | None] = (
            (), (), None)
        super().__init__(size, **kwargs)
        self.add_class("tv-score-sheet-view")
        self.update(players, rows, highlight_round)

    def update(self, players: Sequence[str], rows: Sequence[Sequence[int]],
               highlight_round: int | None = None) -> None:
        self._sheet = (tuple(players), tuple(tuple(r) for r in rows), highlight_round)
        self._redraw()

    def show_game(self, game: Any) -> None:
        """A `Game`'s sheet; the round in play is highlighted until the game is over."""
        self.update(game.names, game.scores, None if game.is_over else game.round_number)

    def show_view(self, view: PlayerView) -> None:
        self.update(view.names, view.scores, view.round_number)

    @property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        return self._sheet[1]

    def _redraw(self) -> None:
        if not hasattr(self, "_sheet"):
            return
        players, rows, current = self._sheet
        self.value = score_sheet_html(players, rows, highlight_round=current,
                                      size=self.size, rounds=self.rounds) if players else ""


class EventLog(Picture):
    """Sentences of a game's history as a numbered list, the newest last and in bold;
    `.show(events)`; `limit` keeps only the last so many."""

    def __init__(self, events: Sequence[Event] = (), size: str = "normal",
                 limit: int | None = 12, **kwargs: Any) -> None:
        self._events: tuple[Event, ...] = ()
        self.limit = limit
        super().__init__(size, **kwargs)
        self.add_class("tv-event-log")
        self.show(events)

    @property
    def events(self) -> tuple[Event, ...]:
        return self._events

    @property
    def text(self) -> str:
        return "\n".join(str(e.text) for e in self._events)

    def show(self, events: Sequence[Event]) -> None:
        self._events = tuple(events)
        self._redraw()

    def _redraw(self) -> None:
        if not hasattr(self, "_events"):
            return
        events = self._events
        first = 0 if self.limit is None else max(0, len(events) - self.limit)
        items = []
        for k, e in enumerate(events[first:], first + 1):
            text = sentence_html(e.text)
            items.append(f"<li><b>{text}</b></li>" if k == len(events) else f"<li>{text}</li>")
        self.value = (f'<ol class="tv-events" start="{first + 1}" style="margin:4px 0;'
                      f'padding-inline-start:2.2em;font-size:{TEXT_PX[self.size]}px;'
                      f'line-height:1.4">{"".join(items)}</ol>' if items else "")
