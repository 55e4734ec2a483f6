"""benchmarks/bench_strength.py's run files: one run per file, resumed only with its own
settings, and two runs of the same deals compared deal by deal."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bench_strength  # noqa: E402

SETTINGS = {"run_seed": 7, "players": 4, "levels": ["strong", "heuristic"], "worlds": 12,
            "clear": [1.5, 1.0], "budget": None}


def _run(path: Path, a_points: list[int], **changed: object) -> Path:
    lines = [{"index": i, "seed": 100 + i, "seat": i % 4, "a": a, "b": 500 + 10 * i,
              **SETTINGS, **changed} for i, a in enumerate(a_points)]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _main(monkeypatch: pytest.MonkeyPatch, *argv: str) -> None:
    monkeypatch.setattr(sys, "argv", ["bench_strength.py", "--games", "0", "--seed", "7",
                                      "--worlds", "12", *argv])
    bench_strength.main()


def test_a_run_resumes_only_with_the_settings_it_was_made_with(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    run = _run(tmp_path / "run.jsonl", [400, 450, 520])
    with pytest.raises(SystemExit) as stopped:
        _main(monkeypatch, "--out", str(run), "--resume", "--clear", "0,0")
    assert stopped.value.code == 2
    assert ("made with other settings (clear: the file's [1.5, 1.0], this run's "
            "[0.0, 0.0])") in capsys.readouterr().err
    _main(monkeypatch, "--out", str(run), "--resume")
    assert "3 paired games, 4 players, seed 7" in capsys.readouterr().out
    # the first 2 deals of the run (the last --games counts): nothing left to play
    _main(monkeypatch, "--out", str(run), "--resume", "--games", "2")
    out = capsys.readouterr().out
    assert "2 paired games" in out and "level A strong: 425.0" in out
    # the deals from index 1 on (a held-out part of the run), and from beyond its end
    _main(monkeypatch, "--out", str(run), "--resume", "--since", "1")
    out = capsys.readouterr().out
    assert "2 paired games (deals 1 on)" in out and "level A strong: 485.0" in out
    with pytest.raises(SystemExit):
        _main(monkeypatch, "--out", str(run), "--resume", "--since", "3")
    assert "or none from --since on" in capsys.readouterr().err
    with pytest.raises(SystemExit):  # without --resume: a second run in the same file
        _main(monkeypatch, "--out", str(run))
    assert "holds a run already: --resume carries it on" in capsys.readouterr().err
    # a setting this code does not know (a draft's run, say) is another run too
    draft = _run(tmp_path / "draft.jsonl", [400], kept=3, draft="not to be resumed")
    with pytest.raises(SystemExit):
        _main(monkeypatch, "--out", str(draft), "--resume", "--kept", "3")
    assert ("made with other settings (draft: the file's 'not to be resumed', this "
            "run's None)") in capsys.readouterr().err


def test_one_file_holds_one_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    run = _run(tmp_path / "run.jsonl", [400, 450])
    with run.open("a") as f:
        f.write(json.dumps({"index": 2, "seed": 102, "seat": 2, "a": 1, "b": 2,
                            **SETTINGS, "worlds": 20}) + "\n")
    with pytest.raises(SystemExit):
        _main(monkeypatch, "--out", str(run), "--resume")
    assert "line 3: another run's settings" in capsys.readouterr().err


def test_a_deal_without_the_run_s_settings_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    run = _run(tmp_path / "run.jsonl", [400, 450])
    with run.open("a") as f:  # a line as files had them before the settings were kept
        f.write(json.dumps({"index": 2, "seed": 102, "seat": 2, "a": 1, "b": 2}) + "\n")
    with pytest.raises(SystemExit):
        _main(monkeypatch, "--out", str(run), "--resume")
    assert "line 3: a deal without the run's settings" in capsys.readouterr().err


def test_two_runs_of_the_same_deals_are_compared_deal_by_deal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    mine = _run(tmp_path / "mine.jsonl", [400, 450, 520, 480])
    theirs = _run(tmp_path / "theirs.jsonl", [410, 470, 530], clear=[0.0, 0.0])
    _main(monkeypatch, "--out", str(mine), "--resume", "--compare", str(theirs))
    out = capsys.readouterr().out
    # deals 0-2 only (the other run has no deal 3): −10, −20, −10 points
    assert "on the 3 deals both runs played: this run's A 456.7, theirs.jsonl's A 470.0" in out
    assert "this run's A − theirs.jsonl's A: -13.3 (-27.7 to +1.0) points" in out


def test_runs_of_other_deals_are_not_compared(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    mine = _run(tmp_path / "mine.jsonl", [400, 450])
    other_seed = _run(tmp_path / "seed.jsonl", [400, 450], run_seed=8)
    with pytest.raises(SystemExit):
        _main(monkeypatch, "--out", str(mine), "--resume", "--compare", str(other_seed))
    assert "played with run_seed 8, this run with 7: not the same deals" in (
        capsys.readouterr().err)
    moved = tmp_path / "moved.jsonl"
    moved.write_text(mine.read_text().replace('"seat": 1', '"seat": 2'))
    with pytest.raises(SystemExit):
        _main(monkeypatch, "--out", str(mine), "--resume", "--compare", str(moved))
    assert "deals [1] differ from this run's" in capsys.readouterr().err


def test_the_strong_bots_switches_are_a_runs_settings_when_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    switched = _run(tmp_path / "kac.jsonl", [400, 410], kept=3, aligned=True, closer=12)
    with pytest.raises(SystemExit):  # the same deals by the strong level as it ships
        _main(monkeypatch, "--out", str(switched), "--resume")
    err = capsys.readouterr().err
    assert "aligned: the file's True, this run's None" in err
    assert "closer: the file's 12, this run's None" in err
    _main(monkeypatch, "--out", str(switched), "--resume", "--kept", "3", "--aligned",
          "--closer", "12")
    assert "2 paired games" in capsys.readouterr().out
    # a run of before the switches (no such keys) is a run with them off
    _main(monkeypatch, "--out", str(_run(tmp_path / "old.jsonl", [400])), "--resume")
    assert "aligned False, closer 0" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        _main(monkeypatch, "--closer", "-1")
    assert "not below 0" in capsys.readouterr().err
