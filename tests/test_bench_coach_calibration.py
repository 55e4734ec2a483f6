"""benchmarks/bench_coach_calibration.py's deepened references: a hint decision's
reference made again on more worlds extends the same worlds (on as many it is the line's
own), shrinks the reference's own standard error and leaves the hint's figures alone; a
deepening run resumes, and refuses a file of another depth."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bench_coach_calibration as calibration  # noqa: E402

from toonerville.engine.game import Game  # noqa: E402

WORLDS = 24


@pytest.fixture(scope="module")
def line() -> dict[str, Any]:
    cache: dict[tuple[int, str], Game] = {}
    found = calibration.hint_decision(0, 4, WORLDS, cache)
    assert found is not None and found["alternatives"]
    return found


def test_a_reference_deepened_to_its_own_worlds_is_the_same(line: dict[str, Any]) -> None:
    again = calibration.deepen(line, WORLDS, 4, {})
    assert [(a["reference"], a["reference_se"]) for a in again["alternatives"]] == \
        [(a["reference"], a["reference_se"]) for a in line["alternatives"]]
    assert again["reference_worlds"] == WORLDS


def test_a_deeper_reference_is_surer_and_keeps_the_hints_figures(
        line: dict[str, Any]) -> None:
    deeper = calibration.deepen(line, 8 * WORLDS, 4, {})
    for was, now in zip(line["alternatives"], deeper["alternatives"], strict=True):
        assert {k: v for k, v in now.items() if not k.startswith("reference")} == \
            {k: v for k, v in was.items() if not k.startswith("reference")}
        if was["reference_se"] > 0:  # about a third as wide on eight times the worlds
            assert now["reference_se"] < 0.7 * was["reference_se"]
    assert {k: v for k, v in deeper.items() if k not in ("alternatives", "reference_worlds")} \
        == {k: v for k, v in line.items() if k != "alternatives"}


def _main(monkeypatch: pytest.MonkeyPatch, *argv: str) -> None:
    monkeypatch.setattr(sys, "argv", ["bench_coach_calibration.py", *argv])
    calibration.main()


def test_a_deepening_run_resumes_and_refuses_another_depth(
        line: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "run.jsonl"
    run.write_text(json.dumps(line) + "\n" + json.dumps({"kind": "none", "i": 1}) + "\n")
    into = tmp_path / "deep.jsonl"
    _main(monkeypatch, "--out", str(run), "--deepen", str(2 * WORLDS), "--into", str(into))
    first = into.read_text()
    assert [json.loads(x)["i"] for x in first.splitlines()] == [line["i"]]
    _main(monkeypatch, "--out", str(run), "--deepen", str(2 * WORLDS), "--into", str(into))
    assert into.read_text() == first  # the decision done is not done again
    with pytest.raises(SystemExit) as stopped:
        _main(monkeypatch, "--out", str(run), "--deepen", str(3 * WORLDS), "--into",
              str(into))
    assert stopped.value.code == 2
    assert "holds references of another number of worlds" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        _main(monkeypatch, "--out", str(run), "--deepen", str(2 * WORLDS))
    assert "--deepen needs --out" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        _main(monkeypatch, "--out", str(run), "--deepen", str(2 * WORLDS), "--into", str(run))
    assert "another file than --out" in capsys.readouterr().err
    assert run.read_text().count("\n") == 2  # the run stays as it was
