"""The virtual environment of a peer library that a benchmark measures against (RLCard,
OpenSpiel): made once beside the benchmarks, with the peer pinned, so that the peer never
enters the project's own environment. `ensure_peer(venv, "rlcard==1.2.0")` gives the
environment's Python, installing the peer when the environment lacks that version."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_peer(venv: Path, requirement: str, label: str) -> Path:
    """The Python of `venv` holding `requirement` ("name==version"), made if need be;
    `label` names the peer in messages."""
    name, _, version = requirement.partition("==")
    python = venv_python(venv)
    probe = f"import importlib.metadata as m; print(m.version({name!r}))"
    if python.exists():
        found = subprocess.run([python, "-c", probe], capture_output=True, text=True)
        if found.returncode == 0 and found.stdout.strip() == version:
            return python
    print(f"creating {venv} with {requirement} (once) ...", file=sys.stderr)
    try:
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([python, "-m", "pip", "install", "--disable-pip-version-check",
                        "--quiet", requirement], check=True)
    except (OSError, subprocess.CalledProcessError) as err:
        raise SystemExit(f"could not make {label}'s environment in {venv} ({err}): this "
                         f"benchmark needs PyPI once to install {requirement}; or pass "
                         "--venv with an environment that has it") from None
    return python
