"""Golden playthroughs (tools/golden.py): three seeded games' whole event logs, committed
as text. A failure here is a change of behaviour; if it was meant, run
`python tools/golden.py` and commit the diff with the change that caused it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

import golden  # noqa: E402


@pytest.mark.parametrize("name", sorted(golden.GAMES))
def test_playthrough_matches_its_golden_log(name: str) -> None:
    path = golden.GOLDEN / f"{name}.txt"
    expected = path.read_text(encoding="utf-8")
    now = golden.playthrough(name)
    if now != expected:
        old, new = expected.splitlines() + [""], now.splitlines() + [""]
        first = next(i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b)
        pytest.fail(f"{path.name} line {first + 1} differs:\n  golden: {old[first]}\n"
                    f"  now:    {new[first]}\nrun `python tools/golden.py` if the change "
                    "was meant")
