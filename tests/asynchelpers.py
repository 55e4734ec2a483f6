"""Running a coroutine to its end from a test, whatever else the test process runs: a
process that also ran browser tests has Playwright's event loop running in its main
thread, where `asyncio.run` refuses; a thread of its own has none."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run_to_end(coroutine: Coroutine[Any, Any, T]) -> T:
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
