"""A throw-away PostgreSQL server for the store tests.

`postgres_url` (session scope) runs Debian's `initdb` and `pg_ctl` (the `postgresql`
package, installed by `make test`) on a free port under a temporary folder, as the
`postgres` user when the tests run as root (the server refuses to run as root), and stops
it and removes the folder at the end; `restart_server(url)` restarts it mid-session.
Without the package the PostgreSQL tests skip with
the reason — except under CI=true, where they must run: there the fixture fails instead.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

PG_ROOT = Path("/usr/lib/postgresql")
START_TIMEOUT_S = 60


def _bin_dir() -> Path | None:
    versions = sorted((p for p in PG_ROOT.glob("*/bin") if (p / "pg_ctl").exists()),
                      key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0)
    return versions[-1] if versions else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _unavailable(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"PostgreSQL tests must run under CI=true: {reason}", pytrace=False)
    pytest.skip(reason)


#: the command that restarts the server of a URL this module started
_RESTART: dict[str, list[str]] = {}


def restart_server(url: str) -> None:
    """Stop the session's server (fast: every open session is ended, as by an
    administrator) and start it again on the same port and data."""
    done = subprocess.run(_RESTART[url], capture_output=True, text=True,
                          timeout=2 * START_TIMEOUT_S, check=False)
    assert done.returncode == 0, done.stderr or done.stdout


@pytest.fixture(name="postgres_url", scope="session")
def postgres_url_fixture() -> Iterator[str]:
    """The URL of a running, empty PostgreSQL server (one per test session)."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        _unavailable("psycopg is not installed (pip install -e '.[test]')")
    bin_dir = _bin_dir()
    if bin_dir is None:
        _unavailable(f"no PostgreSQL server under {PG_ROOT} (apt-get install postgresql)")
    assert bin_dir is not None
    as_root = os.geteuid() == 0
    prefix = ["runuser", "-u", "postgres", "--"] if as_root else []
    base = Path(tempfile.mkdtemp(prefix="toonerville-pg-"))
    data, log = base / "data", base / "server.log"
    if as_root:
        shutil.chown(base, "postgres", "postgres")
    port = _free_port()

    def run(*args: str) -> None:
        done = subprocess.run([*prefix, *args], capture_output=True, text=True,
                              timeout=START_TIMEOUT_S, check=False)
        if done.returncode != 0:
            detail = done.stderr.strip() or done.stdout.strip()
            if log.exists():
                detail += "\n" + log.read_text(errors="replace")[-2000:]
            _unavailable(f"{Path(args[0]).name} failed: {detail}")

    started = False
    try:
        run(str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust",
            "-E", "UTF8", "--no-sync", "--no-instructions")
        options = (f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off -c max_connections=60")
        run(str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options,
            "-w", "-t", str(START_TIMEOUT_S), "start")
        started = True
        url = f"postgresql://postgres@127.0.0.1:{port}/postgres"
        _RESTART[url] = [*prefix, str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(log),
                         "-m", "fast", "-w", "-t", str(START_TIMEOUT_S), "restart"]
        yield url
        _RESTART.pop(url, None)
    finally:
        if started:
            subprocess.run([*prefix, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast",
                            "-w", "stop"], capture_output=True, timeout=START_TIMEOUT_S,
                           check=False)
        shutil.rmtree(base, ignore_errors=True)
