"""benchmarks/bench_simulation.py ends with its figures for any count it is given."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bench_simulation  # noqa: E402


def test_no_comparison_games_is_said_not_divided_by(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_simulation.main(["--games", "1", "--compare-games", "0"]) == 0
    out = capsys.readouterr().out
    assert "no comparison of 1 and 2 workers (--compare-games 0)" in out
    assert "load average after" in out
