"""Calls to the database that survive a moment without it: `RetryingBackend`.

Owns what the store does when its database does not answer. A PostgreSQL server
restarting ends every session and refuses new ones for a while; an SQLite file stays
locked past the busy timeout under a long writer. `RetryingBackend` wraps a backend and
tries such a call again (the backend's `transient` says which errors may pass), after a
pause that doubles from `FIRST_PAUSE_S` up to `LONGEST_PAUSE_S`, for at most
`PATIENCE_S` seconds; then, or at once for a database error trying again does not mend,
it raises `StoreUnavailableError`, the store's own error in a learner's words. No driver
error (`sqlite3.Error`, `psycopg.Error`) reaches the store's callers.

A write whose answer was lost may have been made: each is guarded (a unique key, a
history digest, a version), so its second try changes nothing, and where the second try
then answers "not stored", the row is read to tell whether the first try stored it
(`landed`): a learner's move sent once is reported stored, not "the table moved on".
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from ..engine.actions import excerpt
from ..engine.messages import msg
from .backend import (
    Backend,
    ClassRow,
    HandoutRow,
    MemberRow,
    ProgressRow,
    TableRow,
    TournamentRow,
    chained,
)
from .errors import StoreUnavailableError

#: the first pause before a call is tried again, and the longest (seconds)
FIRST_PAUSE_S = 0.05
LONGEST_PAUSE_S = 1.0
#: how long a call keeps trying before the learner is told (seconds): a PostgreSQL
#: server restarted under load answers again within a few seconds
PATIENCE_S = 20.0

T = TypeVar("T")


class Opens(Protocol):
    """A backend class: made from where its database is, it says which errors pass."""

    def __call__(self, where: str, /) -> Backend: ...

    def transient(self, err: BaseException) -> bool | None: ...


class RetryingBackend:
    """`inner`, with every call tried again while its database does not answer (see the
    module's docstring); `sleep` and `clock` are the test's own where it gives them."""

    def __init__(self, inner: Backend, *, patience: float | None = None,
                 sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.inner = inner
        self.patience = PATIENCE_S if patience is None else patience
        self.sleep = sleep
        self.clock = clock

    @classmethod
    def open(cls, kind: Opens, where: str, *, patience: float | None = None
             ) -> RetryingBackend:
        """A backend of class `kind` on `where`, made (its schema set up) with the same
        patience as its calls."""
        probe = cls(_Classifier(kind.transient), patience=patience)  # type: ignore[arg-type]
        return cls(probe._call(lambda: kind(where)), patience=patience)

    def __repr__(self) -> str:
        return repr(self.inner)

    def _call(self, work: Callable[[], T], landed: Callable[[], bool] | None = None) -> T:
        """`work()`, tried again on a transient error; when a try after a failed one
        answers False, `landed()` says whether the failed one was stored after all."""
        deadline: float | None = None
        pause = FIRST_PAUSE_S
        while True:
            try:
                result = work()
            except Exception as err:
                kind = self.inner.transient(err)
                if kind is None:
                    raise
                why = excerpt((str(err).strip().splitlines() or [type(err).__name__])[0],
                              120)
                if not kind:
                    raise StoreUnavailableError(msg(
                        "the database of the shared tables failed ({why}); ask whoever "
                        "runs the kit to look at it", None, why=why)) from err
                now = self.clock()
                deadline = now + self.patience if deadline is None else deadline
                if now + pause > deadline:
                    raise StoreUnavailableError(msg(
                        "the database of the shared tables did not answer for {seconds:g} "
                        "s ({why}): look at the table again, then try again in a moment",
                        None, seconds=self.patience, why=why)) from err
                self.sleep(pause)
                pause = min(2 * pause, LONGEST_PAUSE_S)
                continue
            if result is False and deadline is not None and landed is not None \
                    and self._call(landed):
                return True  # type: ignore[return-value]
            return result

    # -- the backend's calls -------------------------------------------------------------
    def create_table(self, row: TableRow) -> bool:
        return self._call(lambda: self.inner.create_table(row),
                          lambda: self.inner.table(row.code) == row)

    def table(self, code: str) -> TableRow | None:
        return self._call(lambda: self.inner.table(code))

    def moves_since(self, code: str, number: int) -> list[tuple[int, str]]:
        return self._call(lambda: self.inner.moves_since(code, number))

    def history_from(self, code: str, number: int) -> list[tuple[int, str, str | None]]:
        return self._call(lambda: self.inner.history_from(code, number))

    def append(self, code: str, number: int, move: str, previous: str) -> bool:
        def landed() -> bool:
            rows = self.inner.history_from(code, number)
            return bool(rows) and rows[0][0] == number and rows[0][1] == move \
                and rows[0][2] == chained(previous, move)

        return self._call(lambda: self.inner.append(code, number, move, previous), landed)

    def fill_digests(self, code: str, digests: Sequence[tuple[int, str]]) -> None:
        self._call(lambda: self.inner.fill_digests(code, digests))

    def claim(self, scope: str, slot: str, secret_digest: str) -> bool:
        return self._call(lambda: self.inner.claim(scope, slot, secret_digest),
                          lambda: self.inner.claims(scope).get(slot) == secret_digest)

    def claims(self, scope: str) -> dict[str, str]:
        return self._call(lambda: self.inner.claims(scope))

    def reclaim(self, scope: str, slot: str, old_digest: str | None, new_digest: str
                ) -> bool:
        return self._call(lambda: self.inner.reclaim(scope, slot, old_digest, new_digest),
                          lambda: self.inner.claims(scope).get(slot) == new_digest)

    def create_tournament(self, row: TournamentRow,
                          claims: Sequence[tuple[str, str, str]] = ()) -> bool:
        return self._call(lambda: self.inner.create_tournament(row, claims),
                          lambda: self.inner.tournament(row.code) == row)

    def tournament(self, code: str) -> TournamentRow | None:
        return self._call(lambda: self.inner.tournament(code))

    def update_tournament(self, code: str, state: str, version: int) -> bool:
        def landed() -> bool:
            now = self.inner.tournament(code)
            return now is not None and now.version == version + 1 and now.state == state

        return self._call(lambda: self.inner.update_tournament(code, state, version), landed)

    def name_seat(self, code: str, seat: int, name: str) -> None:
        self._call(lambda: self.inner.name_seat(code, seat, name))

    def seat_names(self, code: str) -> dict[int, str]:
        return self._call(lambda: self.inner.seat_names(code))

    def create_class(self, row: ClassRow) -> bool:
        return self._call(lambda: self.inner.create_class(row),
                          lambda: self.inner.class_row(row.code) == row)

    def class_row(self, code: str) -> ClassRow | None:
        return self._call(lambda: self.inner.class_row(code))

    def update_class(self, code: str, settings: str, version: int) -> bool:
        def landed() -> bool:
            now = self.inner.class_row(code)
            return now is not None and now.version == version + 1 \
                and now.settings == settings

        return self._call(lambda: self.inner.update_class(code, settings, version), landed)

    def add_member(self, row: MemberRow) -> bool:
        return self._call(lambda: self.inner.add_member(row),
                          lambda: row in self.inner.members(row.code))

    def members(self, code: str) -> list[MemberRow]:
        return self._call(lambda: self.inner.members(code))

    def hand_out(self, rows: Sequence[HandoutRow]) -> None:
        self._call(lambda: self.inner.hand_out(rows))

    def handouts(self, code: str) -> list[HandoutRow]:
        return self._call(lambda: self.inner.handouts(code))

    def add_progress(self, row: ProgressRow) -> None:
        # tried again after a lost answer, a row may be added twice: the dashboard counts
        # hints and reviews, and a count one too high is harmless; a Try-it is a set
        self._call(lambda: self.inner.add_progress(row))

    def progress(self, class_code: str) -> list[tuple[object, ...]]:
        return self._call(lambda: self.inner.progress(class_code))

    def keep_practice(self, owner: str, packed: str, saved: int, expire_before: int
                      ) -> None:
        # an upsert: kept twice after a lost answer is kept once
        self._call(lambda: self.inner.keep_practice(owner, packed, saved, expire_before))

    def practice_list(self, owner: str) -> tuple[str, int] | None:
        return self._call(lambda: self.inner.practice_list(owner))

    def transient(self, err: BaseException) -> bool | None:
        return self.inner.transient(err)

    def close(self) -> None:
        self.inner.close()


class _Classifier:
    """Stands for a backend not made yet: only says which errors pass."""

    def __init__(self, transient: Callable[[BaseException], bool | None]) -> None:
        self.transient = transient
