"""The names learners give themselves at a table: what a name may be.

Owns `clean_name`, the one check of a name typed into a page (a shared table's seat, a
pass-and-play seat): spaces at the ends are dropped, inner runs of spaces become one,
and a name must be 1 to `NAME_LIMIT` characters of printable text. A refusal is a
`BadNameError` saying what to change; and `find_name`, the one of a table's names a typed
name names, compared as people expect (`toonerville.engine.names.name_key`: whatever
their case, width and spaces, so "bo" finds "Bo").
"""

from __future__ import annotations

from collections.abc import Iterable

from ..engine.messages import msg
from ..engine.names import name_key
from .errors import BadNameError

#: the longest name a seat may have, in characters
NAME_LIMIT = 24


def clean_name(text: object) -> str:
    """`text` as a seat's name, or `BadNameError` saying why it cannot be one."""
    if not isinstance(text, str):
        raise BadNameError(msg("a name is a short text, not {what}", None,
                               what=type(text).__name__))
    name = " ".join(text.split())
    if not name:
        raise BadNameError(msg("type a name of 1 to {limit} characters", None,
                               limit=NAME_LIMIT))
    if len(name) > NAME_LIMIT:
        raise BadNameError(msg("a name has at most {limit} characters; this one has {n}: "
                               "shorten it", None, limit=NAME_LIMIT, n=len(name)))
    if not name.isprintable():
        raise BadNameError(msg("a name cannot hold control characters; type letters, "
                               "digits and spaces", None))
    return name


def find_name(text: object, names: Iterable[str]) -> str | None:
    """The one of `names` that `text` names (as `same_name` compares), or None."""
    if not isinstance(text, str):
        return None
    key = name_key(text)
    return next((n for n in names if name_key(n) == key), None)


__all__ = ["NAME_LIMIT", "clean_name", "find_name"]
