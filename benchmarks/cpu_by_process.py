"""Where a command's CPU goes: every process's CPU-seconds, by kind, while the command runs.

    python benchmarks/cpu_by_process.py -- make test
    python benchmarks/cpu_by_process.py --every 1 -- .venv/bin/python -m pytest tests/browser

It runs the command and reads `/proc` every `--every` seconds: each process's own user and
system time (all its threads), kept at the largest value seen, so a process that has
ended still counts with what it had used by its last sample (one shorter than a sample is
missed). Processes that were running before the command count only what they used since.
Printed: CPU-seconds per kind of process (Chromium's renderers and its other processes,
Jupyter kernels, Voila servers, pytest processes, ...), their share, the total, the
command's wall clock, how many of the machine's cores were busy on average, and the load
average before and after. Everything on the machine is counted, the command's or not: run
it on a machine otherwise quiet. Linux only.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

HZ = os.sysconf("SC_CLK_TCK")

#: (kind, words any of which in the command line makes a process that kind), first match
KINDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Chromium renderers", ("--type=renderer",)),
    ("Chromium GPU process (compositing)", ("--type=gpu-process",)),
    ("Chromium utility processes (network, storage, audio)", ("--type=utility",)),
    ("Chromium browser processes", ("chromium", "chrome")),
    ("Jupyter kernels", ("ipykernel",)),
    ("Voila servers", ("-m voila",)),
    ("JupyterHub and its proxy", ("jupyterhub", "configurable-http-proxy")),
    ("PostgreSQL", ("postgres",)),
    ("pytest", ("pytest",)),
    ("the static site's build", ("build_site", "voici", "jupyter-lite")),
    ("pip, npm, mypy, compilers", ("pip", "npm", "mypy", "compile_engine", "cc1", "gcc")),
    ("Node.js", ("node",)),
    ("other Python", ("python",)),
)


def kind_of(command: str) -> str:
    for kind, words in KINDS:
        if any(word in command for word in words):
            return kind
    return "other"


def sample(seen: dict[tuple[str, str], list[object]], first: bool) -> None:
    """Add every process to `seen`: (pid, start time) → [kind, CPU at first sight (0 for a
    process that started after the first sample), largest CPU seen]."""
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            cpu = (int(fields[11]) + int(fields[12])) / HZ
            key = (pid, fields[19])
            if key in seen:
                seen[key][2] = max(float(seen[key][2]), cpu)  # type: ignore[arg-type]
                continue
            with open(f"/proc/{pid}/cmdline", "rb") as line:
                command = line.read().replace(b"\0", b" ").decode(errors="replace")
            seen[key] = [kind_of(command), cpu if first else 0.0, cpu]
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile, or not ours to read


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=float, default=2.0, help="seconds between samples")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- the command to run")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command to run after --")
    load_before = os.getloadavg()
    seen: dict[tuple[str, str], list[object]] = {}
    sample(seen, first=True)
    started = time.monotonic()
    process = subprocess.Popen(command)
    while process.poll() is None:
        time.sleep(args.every)
        sample(seen, first=False)
    wall = time.monotonic() - started
    totals: dict[str, float] = {}
    for kind, before, largest in seen.values():
        totals[str(kind)] = totals.get(str(kind), 0.0) + float(largest) - float(before)  # type: ignore[arg-type]
    total = sum(totals.values())
    print(f"{'CPU-s':>9}  share  kind")
    for kind, cpu in sorted(totals.items(), key=lambda item: -item[1]):
        if cpu >= 0.5:
            print(f"{cpu:9.1f}  {100 * cpu / total:4.0f} %  {kind}")
    print(f"{total:9.1f}  total, in {wall:.0f} s of wall clock: {total / wall:.2f} of "
          f"{os.cpu_count()} cores busy on average")
    print(f"load average before {load_before}, after {os.getloadavg()}; the command "
          f"exited {process.returncode}")
    return process.returncode


if __name__ == "__main__":
    sys.exit(main())
