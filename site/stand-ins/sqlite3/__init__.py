"""Stand-in for the standard library's `sqlite3` in the static site (Pyodide 0.27).

Pyodide ships SQLite as a separate compiled package that cannot be had from the package
registries, yet IPython 8 imports `sqlite3` when it starts, for its command history.
The Pyodide kernel switches that history off, so IPython only needs the names below to
exist. Opening a database says plainly that there is none here.
"""

PARSE_DECLTYPES = 1
PARSE_COLNAMES = 2
sqlite_version = "0"
version = "0"


class Error(Exception):
    """Base of the errors below, as in the real module."""


class DatabaseError(Error):
    pass


class OperationalError(DatabaseError):
    pass


class IntegrityError(DatabaseError):
    pass


class Connection:
    """Never made: `connect` refuses first."""


def connect(*args: object, **kwargs: object) -> Connection:
    raise OperationalError(
        "This page runs in the browser without SQLite: saving to a database needs the "
        "Voila app (`make app`)."
    )
