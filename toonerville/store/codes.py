"""Table codes and seat secrets.

Owns the short code a learner types to find a table (six characters from an alphabet
without the look-alikes 0/O and 1/I), the codes of a tournament's tables
(`KXR4PT-R3T2`: tournament, round, table), and the secrets that prove a seat is yours:
the store keeps only a SHA-256 digest of a secret and compares digests in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from ..engine.messages import msg
from .errors import NoSuchTableError

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
_CODE = re.compile(rf"^[{ALPHABET}]{{{CODE_LENGTH}}}(-R\d{{1,2}}T\d{{1,2}})?$")


def new_code() -> str:
    """A fresh random table or tournament code (about 10^9 of them)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def round_table_code(tournament: str, round_number: int, table: int) -> str:
    """The code of table `table` (1, 2, …) of a tournament's round: the same for every
    client, so two pages starting the same round create the same tables."""
    return f"{tournament}-R{round_number}T{table}"


def normalise_code(text: object) -> str:
    """A code as typed (`" kxr4pt "`) in its stored form (`"KXR4PT"`); anything that
    cannot be a code is refused with a sentence saying what a code looks like."""
    code = text.strip().upper().replace(" ", "") if isinstance(text, str) else ""
    if not _CODE.match(code):
        shown = text if isinstance(text, str) else repr(text)
        raise NoSuchTableError(msg(
            "'{code}' is not a table code: a code is {k} letters and digits, like KXR4PT "
            "(there is no 0, O, 1 or I in a code)", None, code=shown[:40], k=CODE_LENGTH))
    return code


def new_secret() -> str:
    """A secret for a seat or a teacher, kept by the page that claimed it."""
    return secrets.token_urlsafe(18)


def digest(secret: str) -> str:
    """What the store keeps of a secret (secrets are random, so no salt is needed)."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def matches(secret: object, stored: str | None) -> bool:
    """Does `secret` belong to the stored digest? Constant time in the digest."""
    if not isinstance(secret, str) or stored is None:
        return False
    return hmac.compare_digest(digest(secret), stored)
