"""`python -m toonerville simulate`: the table on stdout, progress on stderr, CSV and
JSON that parse, and a clear sentence for settings that cannot be played."""

from __future__ import annotations

import csv
import json
import os
import re
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from toonerville import explorer as X
from toonerville.__main__ import main

REPO = Path(__file__).resolve().parent.parent
FAST = ["--games", "2", "--seed", "1", "--turn-limit", "8"]


def table_rows(out: str, title: str) -> list[list[str]]:
    """The rows of the text table called `title` (split on runs of 2+ spaces)."""
    lines = out.splitlines()
    start = lines.index(title) + 4  # title, ====, header, ----
    rows = []
    for line in lines[start:]:
        if "  " not in line:  # a blank line, or the table's note
            break
        rows.append([c for c in line.split("  ") if c.strip()])
    return rows


def test_simulate_with_a_comparison_writes_table_csv_and_json(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records, summary = tmp_path / "records.csv", tmp_path / "summary.json"
    code = main(["simulate", *FAST, "--players", "4", "--bots", "heuristic,random",
                 "--rules", "penalty_cards=2", "--compare", "round11_deal=12",
                 "--csv", str(records), "--json", str(summary), "--quiet"])
    out, err = capsys.readouterr()
    assert code == 0
    assert out.startswith("A: 4 players (heuristic ×2, random ×2); penalty_cards=2")
    assert "B: 4 players (heuristic ×2, random ×2); round11_deal=12, penalty_cards=2" in out
    rows = table_rows(out, "How hard is each round? — A")
    assert [r[0].strip() for r in rows[:11]] == [str(r) for r in range(1, 12)]
    compare = table_rows(out, "A against B (paired games)")
    assert [r[0].strip() for r in compare] == [label for label, _, _ in X.GAME_METRICS]
    assert "4 games (2 configurations on the same seeds) in" in err
    with records.open(newline="") as f:
        got = list(csv.DictReader(f))
    assert len(got) == 2 * 2 * 11 * 4  # arms × games × rounds × seats
    assert tuple(got[0]) == X.CSV_COLUMNS and {r["arm"] for r in got} == {"A", "B"}
    data = json.loads(summary.read_text())
    assert [a["rules"] for a in data["arms"]] == [{"penalty_cards": 2},
                                                  {"round11_deal": 12, "penalty_cards": 2}]
    titles = [t["title"] for t in data["tables"]]
    assert "A against B, round by round" in titles
    assert len(data["records"]["B"]) == 2 and data["complete"] is True


def test_the_command_line_runs_with_two_workers_and_shows_progress(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-m", "toonerville", "simulate", *FAST, "--players", "3",
         "--workers", "2", "--question", "seats", "--json", str(tmp_path / "s.json")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "simulate: 2/2 games" in done.stderr  # progress, on stderr (tqdm)
    assert "games/s" in done.stderr and "left" in done.stderr
    assert "Seats in a round: does playing first help?" in done.stdout
    rows = table_rows(done.stdout, "Seats in a round: does playing first help?")
    assert [r[0].strip() for r in rows] == ["1 (plays first)", "2", "3 (dealer)",
                                           "first player − the others"]
    data = json.loads((tmp_path / "s.json").read_text())
    assert data["workers"] == 2 and data["arms"][0]["bots"] == ["heuristic"] * 3


def test_deals_question_needs_no_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--question", "deals", "--hands", "30", "--quiet"]) == 0
    out = capsys.readouterr().out
    rows = table_rows(out, "How often does a fresh deal already hold the contract?")
    assert [r[0].strip() for r in rows] == [str(r) for r in range(1, 12)]


@pytest.mark.parametrize(("args", "words"), [
    (["--rules", "penalty_cards=9"], "penalty_cards must be 0, 1, 2 or 3, not 9 (H5)"),
    (["--compare", "rooks=1"], "unknown house rule 'rooks'"),
    (["--rules", "players=5"], "--players"),
    (["--question", "compare"], "needs --compare"),
    (["--bots", "heuristic,clever"], "unknown bot 'clever'"),
    (["--bots", "random,random,random,random", "--players", "3"], "4 bots named for 3"),
    (["--compare", "round11_deal=13"], "round 11 deals 14 or 12 cards, not 13 (H4)"),
    (["--sweep", "penalty_cards=1,2", "--compare", "round11_deal=12"], "not both"),
    (["--sweep", "penalty_cards=1,9"], "penalty_cards must be 0, 1, 2 or 3, not 9 (H5)"),
    (["--question", "sweep"], "needs --sweep"),
])
def test_bad_settings_are_refused_with_a_sentence(
        args: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", *FAST, *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("toonerville simulate: error:") and words in err


def test_usage_errors_come_from_argparse(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["simulate", "--games", "0"])
    assert stop.value.code == 2
    assert "needs a whole number 1 or more" in capsys.readouterr().err


def test_a_sweep_prints_a_ranked_table_and_writes_its_plot(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plot, summary = tmp_path / "sweep.svg", tmp_path / "sweep.json"
    code = main(["simulate", *FAST, "--players", "3", "--sweep", "penalty_cards=0,2",
                 "round11_deal=12,14", "--rank-by", "spread", "--svg", str(plot),
                 "--json", str(summary), "--quiet"])
    out, err = capsys.readouterr()
    assert code == 0
    title = "A sweep of 4 configurations, closest scores first"
    rows = table_rows(out, title)
    assert [r[0].strip() for r in rows] == ["1", "2", "3", "4"]
    assert {r[1].strip() for r in rows} == {
        "round11_deal=12, penalty_cards=0", "penalty_cards=0", "round11_deal=12, penalty_cards=2",
        "penalty_cards=2"}
    assert "2 games per configuration" in out
    assert "8 games (4 configurations on the same seeds)" in err
    svg = ET.fromstring(plot.read_text())
    assert svg.find("{http://www.w3.org/2000/svg}title").text.startswith(  # type: ignore
        "A sweep of 4 configurations")
    data = json.loads(summary.read_text())
    assert data["tables"][0]["title"] == title and len(data["arms"]) == 4


def test_an_unreachable_scheduler_exits_3(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    from toonerville.explorer import runner

    monkeypatch.setattr(runner, "CONNECT_TIMEOUT", 1.0)
    assert main(["simulate", *FAST, "--quiet", "--scheduler", "tcp://127.0.0.1:9"]) == 3
    assert "no Dask scheduler answers at tcp://127.0.0.1:9" in capsys.readouterr().err


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_stops_the_workers_and_keeps_the_finished_games(
        tmp_path: Path, stop: signal.Signals) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    summary = tmp_path / "part.json"
    child = subprocess.Popen(
        [sys.executable, "-m", "toonerville", "simulate", "--games", "400", "--players", "3",
         "--turn-limit", "30", "--workers", "2", "--question", "scores", "--json",
         str(summary)], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE)
    assert child.stderr is not None
    seen = b""
    began = time.monotonic()
    while not re.search(rb"simulate: [1-9]\d*/400 games", seen):  # some games are done
        chunk = os.read(child.stderr.fileno(), 256)
        assert chunk and time.monotonic() - began < 300, seen.decode(errors="replace")
        seen += chunk
    child.send_signal(stop)
    out, rest = child.communicate(timeout=120)
    err = (seen + rest).decode()
    assert child.returncode == 1, err
    kept = int(re.search(r"stopped: (\d+) games finished are kept", err).group(1))  # type: ignore
    assert 1 <= kept < 400
    assert "How are the scores spread?" in out.decode()
    data = json.loads(summary.read_text())
    assert data["cancelled"] is True and len(data["records"]["A"]) == kept
