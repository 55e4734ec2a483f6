"""A school's kit on JupyterHub: one hub, a login, one Voila-serving Jupyter server per
learner, idle servers culled, the class's store shared (`make hub`).

JupyterHub (the established way to serve notebooks to many people: The Littlest
JupyterHub on one machine, Zero to JupyterHub on Kubernetes) logs each learner in and
starts their own Jupyter server behind one address; each server runs the kit's pages with
Voila's server extension, the kit's page template and hooks, and the class's kernel
manager (the same caps and hardened kernels as `make app`, per learner). All servers
share one store (`TOONERVILLE_STORE`: PostgreSQL for a school, or one SQLite file on one
machine), so learners on different servers sit at one shared table or tournament.

Settings come from the environment, so that this file is the deployment's and a school
changes only its environment:

* `TOONERVILLE_HUB_PASSWORD` (required, 8 characters or more): the class's password
  (JupyterHub's shared-password login: each learner logs in under their own name with
  it). A school with its own accounts sets another authenticator (LDAP, OAuth) instead;
* `TOONERVILLE_HUB_ADMIN_PASSWORD`: the teacher's (user `teacher`), if any;
* `TOONERVILLE_STORE`: the class store (default: `<state>/tables.sqlite`);
* `TOONERVILLE_HUB_STATE`: where the hub keeps its database, cookie secret and the
  learners' home folders (default: `~/.toonerville/hub`);
* `TOONERVILLE_HUB_PORT` (8000), `TOONERVILLE_HUB_IP` (127.0.0.1);
* `TOONERVILLE_HUB_SPAWNER`: `simple` (default: every learner's server runs as the hub's
  own user, with a home folder under the state folder: one machine, no system accounts) or
  `local` (JupyterHub's LocalProcessSpawner: one system user per learner);
* `TOONERVILLE_HUB_IDLE` (seconds, 3600): a learner's server idle that long is stopped by
  jupyterhub-idle-culler (their games are in the store and come back).
"""

# ruff: noqa: F821 - `c` is the configuration object JupyterHub gives this file
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
STATE = Path(os.environ.get("TOONERVILLE_HUB_STATE")
             or Path.home() / ".toonerville" / "hub").resolve()
STATE.mkdir(parents=True, exist_ok=True)
PASSWORD = os.environ.get("TOONERVILLE_HUB_PASSWORD", "")
if len(PASSWORD) < 8:
    sys.exit("jupyterhub_config.py: set TOONERVILLE_HUB_PASSWORD to the class's password "
             "(8 characters or more) before starting the hub")
STORE = os.environ.get("TOONERVILLE_STORE") or str(STATE / "tables.sqlite")
BIN = Path(sys.executable).parent

c = get_config()  # type: ignore[name-defined]

# -- the hub and its proxy -----------------------------------------------------------------
c.JupyterHub.ip = os.environ.get("TOONERVILLE_HUB_IP", "127.0.0.1")
c.JupyterHub.port = int(os.environ.get("TOONERVILLE_HUB_PORT", "8000"))
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(STATE / "jupyterhub.pid")
c.ConfigurableHTTPProxy.pid_file = str(STATE / "proxy.pid")
# configurable-http-proxy from the npm registry, installed by `npm ci` (package.json)
c.ConfigurableHTTPProxy.command = [str(REPO / "node_modules" / ".bin" /
                                       "configurable-http-proxy")]
# a learner who logs in lands on the kit's front page in their own server
c.JupyterHub.default_url = "/hub/user-redirect/voila/tree"

# -- the login -----------------------------------------------------------------------------
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = PASSWORD
if os.environ.get("TOONERVILLE_HUB_ADMIN_PASSWORD"):
    c.Authenticator.admin_users = {"teacher"}
    c.SharedPasswordAuthenticator.admin_password = os.environ["TOONERVILLE_HUB_ADMIN_PASSWORD"]
c.Authenticator.allow_all = True

# -- one Voila-serving Jupyter server per learner ------------------------------------------
if os.environ.get("TOONERVILLE_HUB_SPAWNER", "simple") == "local":
    c.JupyterHub.spawner_class = "jupyterhub.spawner.LocalProcessSpawner"
else:
    c.JupyterHub.spawner_class = "jupyterhub.spawner.SimpleLocalProcessSpawner"
    c.SimpleLocalProcessSpawner.home_dir_template = str(STATE / "home" / "{username}")
c.Spawner.cmd = [str(BIN / "jupyterhub-singleuser")]
c.Spawner.notebook_dir = str(REPO / "notebooks")
c.Spawner.default_url = "/voila/tree"
c.Spawner.args = [
    # the class's kernel manager: caps per server and per browser, hardened kernels
    "--ServerApp.kernel_manager_class=toonerville.serving.kernels.ClassKernelManager",
    "--ClassKernelManager.max_kernels=6",
    "--KernelManager.transport=ipc",
    # nothing asked of another host (Voila's server extension would load MathJax's)
    "--ServerApp.tornado_settings={'mathjax_url': None, 'mathjax_config': None}",
    "--VoilaConfiguration.show_tracebacks=False",
    "--VoilaConfiguration.template=toonerville",
    *(["--allow-root"] if os.geteuid() == 0 else []),
]
c.Spawner.environment = {
    "TOONERVILLE_STORE": STORE,
    # the kit's page template (as `make app`), and its Voila hooks: the page texts in every
    # language and the prose translated for ?lang= (voila.py files in these folders)
    "JUPYTER_PATH": os.pathsep.join(p for p in (str(REPO / "share" / "jupyter"),
                                                 os.environ.get("JUPYTER_PATH", "")) if p),
    "JUPYTER_CONFIG_PATH": os.pathsep.join((str(REPO / "share" / "voila"),
                                            str(REPO / "config"))),
    "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", ""))
                                  if p),
}
if os.environ.get("TOONERVILLE_HUB_SPAWNER", "simple") != "local":
    # kernels talk over socket files in the runtime folder, whose paths may not exceed 107
    # bytes: a short one per learner rather than one under a deep state folder
    c.Spawner.environment["JUPYTER_RUNTIME_DIR"] = (
        lambda spawner: f"{tempfile.gettempdir()}/toonerville-hub-{spawner.user.name}")
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120

# -- idle servers are stopped (their games are in the store) ------------------------------
IDLE = int(os.environ.get("TOONERVILLE_HUB_IDLE", "3600"))
c.JupyterHub.load_roles = [{
    "name": "idle-culler",
    "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
    "services": ["idle-culler"],
}]
c.JupyterHub.services = [{
    "name": "idle-culler",
    "command": [sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={IDLE}"],
}]
