"""The seat view's old home: `SeatView` and `make_button` now live in `seat.py`, the one
seat view of every table page; these names stay importable from here."""

from __future__ import annotations

from .seat import SeatView as SeatView
from .seat import make_button as make_button

__all__ = ["SeatView", "make_button"]
