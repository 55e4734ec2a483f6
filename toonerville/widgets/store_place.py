"""Where a page's store is: the one answer every page of the kit gives (shared tables,
tournaments, the class, the live board, the dashboard, a solo game kept across kernels).

`store_location(where)`: `where`, else $TOONERVILLE_STORE (a path or a PostgreSQL URL),
else `DEFAULT_STORE` in the user's home folder (made on first use)."""

from __future__ import annotations

import os
from pathlib import Path

#: where the tables are kept when neither `where` nor $TOONERVILLE_STORE says
DEFAULT_STORE = Path.home() / ".toonerville" / "tables.sqlite"


def store_location(where: str | Path | None = None) -> str:
    """The store to use: `where`, else $TOONERVILLE_STORE (a path or a PostgreSQL URL),
    else `DEFAULT_STORE` (its folder is made on first use)."""
    if where is not None:
        return str(where)
    env = os.environ.get("TOONERVILLE_STORE")
    if env:
        return env
    DEFAULT_STORE.parent.mkdir(parents=True, exist_ok=True)
    return str(DEFAULT_STORE)
